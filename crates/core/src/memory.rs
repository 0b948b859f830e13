//! An in-memory root: the second storage adapter that proves the root is an
//! injected interface, and a fake root for tests anywhere.
//! It has no links, so `confine` only answers for reachability; it can be
//! told to behave like a picked browser folder whose permission is not granted.

use crate::audit::{self, AuditFile, Entry};
use crate::contain::RelPath;
use crate::platform::{
    Access, DirEntry, Escape, MAX_FILE_BYTES, Observation, Resolved, RootInfo, Storage,
    StorageError,
};
use alloc::collections::{BTreeMap, BTreeSet};
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::cell::{Cell, RefCell};

/// Files and folders in memory, with one writer's audit file.
#[derive(Debug)]
pub struct MemoryStorage {
    name: String,
    instance: String,
    files: RefCell<BTreeMap<String, Vec<u8>>>,
    dirs: RefCell<BTreeSet<String>>,
    audit: RefCell<BTreeMap<String, String>>,
    reachable: Cell<bool>,
    audit_writable: Cell<bool>,
    /// Why reading, and why changing, is not permitted now (`None`: it is).
    withheld: Cell<[Option<Escape>; 2]>,
    /// A clock of sorts, so observations carry an mtime.
    writes: Cell<u64>,
}

impl MemoryStorage {
    /// An empty root called `name`, written by `instance`.
    pub fn new(name: &str, instance: &str) -> MemoryStorage {
        MemoryStorage {
            name: name.into(),
            instance: instance.into(),
            files: RefCell::default(),
            dirs: RefCell::default(),
            audit: RefCell::default(),
            reachable: Cell::new(true),
            audit_writable: Cell::new(true),
            withheld: Cell::new([None, None]),
            writes: Cell::new(0),
        }
    }

    /// Simulates the root being removed (or coming back).
    pub fn set_reachable(&self, reachable: bool) {
        self.reachable.set(reachable);
    }

    /// Simulates an audit log that cannot be written.
    pub fn set_audit_writable(&self, writable: bool) {
        self.audit_writable.set(writable);
    }

    /// Simulates a permission that is not granted for `access` (`None`
    /// grants it). Like a browser folder, the root then refuses the
    /// operations themselves too, not only [`Storage::permit`].
    pub fn withhold(&self, access: Access, why: Option<Escape>) {
        let mut withheld = self.withheld.get();
        withheld[access as usize] = why;
        self.withheld.set(withheld);
    }

    fn allowed(&self, access: Access) -> Result<(), StorageError> {
        match self.withheld.get()[access as usize] {
            Some(why) => Err(StorageError::Escape(why)),
            None => Ok(()),
        }
    }

    /// A file's bytes, for tests to look at the world directly.
    pub fn file(&self, path: &str) -> Option<Vec<u8>> {
        self.files.borrow().get(path).cloned()
    }

    fn is_dir(&self, path: &str) -> bool {
        path.is_empty()
            || self.dirs.borrow().contains(path)
            || self
                .files
                .borrow()
                .keys()
                .any(|f| f.starts_with(&format!("{path}/")))
    }

    /// `Ok` where `path` is a folder; else why not, as a real disk says it:
    /// a file there is not a folder, and nothing there is not found.
    fn folder(&self, path: &str) -> Result<(), StorageError> {
        match self.is_dir(path) {
            true => Ok(()),
            false if self.files.borrow().contains_key(path) => Err(StorageError::NotADirectory),
            false => Err(StorageError::NotFound),
        }
    }
}

fn parents(path: &str) -> impl Iterator<Item = &str> {
    path.match_indices('/').map(move |(i, _)| &path[..i])
}

impl Storage for MemoryStorage {
    fn root_info(&self) -> RootInfo {
        RootInfo {
            kind: "memory".into(),
            path: format!("memory:{}", self.name),
        }
    }

    async fn reachable(&self) -> bool {
        self.reachable.get()
    }

    async fn permit(&self, access: Access) -> Result<(), Escape> {
        match self.withheld.get()[access as usize] {
            Some(why) => Err(why),
            None => Ok(()),
        }
    }

    async fn confine(&self, path: &RelPath) -> Result<Resolved, Escape> {
        if self.reachable.get() {
            Ok(Resolved::itself(path))
        } else {
            Err(Escape::Unreachable)
        }
    }

    async fn read(&self, path: &RelPath) -> Result<Vec<u8>, StorageError> {
        self.allowed(Access::Read)?;
        if self.is_dir(path.as_str()) {
            return Err(StorageError::IsADirectory);
        }
        let bytes = self.file(path.as_str()).ok_or(StorageError::NotFound)?;
        match bytes.len() as u64 {
            size if size > MAX_FILE_BYTES => Err(StorageError::TooLarge(size)),
            _ => Ok(bytes),
        }
    }

    async fn write(&self, path: &RelPath, bytes: &[u8]) -> Result<(), StorageError> {
        self.allowed(Access::Write)?;
        let path = path.as_str();
        if self.is_dir(path) {
            return Err(StorageError::IsADirectory);
        }
        if parents(path).any(|p| self.files.borrow().contains_key(p)) {
            return Err(StorageError::NotADirectory);
        }
        self.dirs
            .borrow_mut()
            .extend(parents(path).map(String::from));
        self.files.borrow_mut().insert(path.into(), bytes.into());
        self.writes.set(self.writes.get() + 1);
        Ok(())
    }

    async fn append(&self, path: &RelPath, bytes: &[u8]) -> Result<(), StorageError> {
        let mut existing = self.file(path.as_str()).unwrap_or_default();
        existing.extend_from_slice(bytes);
        self.write(path, &existing).await
    }

    async fn remove(&self, path: &RelPath) -> Result<(), StorageError> {
        self.allowed(Access::Write)?;
        if self.is_dir(path.as_str()) {
            return Err(StorageError::IsADirectory);
        }
        self.files
            .borrow_mut()
            .remove(path.as_str())
            .map(|_| ())
            .ok_or(StorageError::NotFound)
    }

    async fn rename(&self, from: &RelPath, to: &RelPath) -> Result<(), StorageError> {
        self.allowed(Access::Write)?;
        let (from, to) = (from.as_str(), to.as_str());
        if self.is_dir(to) {
            return Err(StorageError::Exists);
        }
        if parents(to).any(|p| self.files.borrow().contains_key(p)) {
            return Err(StorageError::NotADirectory);
        }
        if !self.is_dir(from) {
            let bytes = self
                .files
                .borrow_mut()
                .remove(from)
                .ok_or(StorageError::NotFound)?;
            self.dirs.borrow_mut().extend(parents(to).map(String::from));
            self.files.borrow_mut().insert(to.into(), bytes);
            self.writes.set(self.writes.get() + 1);
            return Ok(());
        }
        if self.files.borrow().contains_key(to) {
            return Err(StorageError::Exists);
        }
        let inside = format!("{from}/");
        let moved = |path: &str| {
            (path == from).then(|| String::from(to)).or_else(|| {
                path.strip_prefix(&inside)
                    .map(|rest| format!("{to}/{rest}"))
            })
        };
        let files: Vec<(String, Vec<u8>)> = core::mem::take(&mut *self.files.borrow_mut())
            .into_iter()
            .map(|(path, bytes)| (moved(&path).unwrap_or(path), bytes))
            .collect();
        let mut dirs: BTreeSet<String> = core::mem::take(&mut *self.dirs.borrow_mut())
            .into_iter()
            .map(|path| moved(&path).unwrap_or(path))
            .collect();
        dirs.insert(to.into());
        dirs.extend(parents(to).map(String::from));
        *self.files.borrow_mut() = files.into_iter().collect();
        *self.dirs.borrow_mut() = dirs;
        Ok(())
    }

    async fn make_dir(&self, path: &RelPath) -> Result<bool, StorageError> {
        self.allowed(Access::Write)?;
        let path = path.as_str();
        if self.files.borrow().contains_key(path) {
            return Err(StorageError::Exists);
        }
        if parents(path).any(|p| self.files.borrow().contains_key(p)) {
            return Err(StorageError::NotADirectory);
        }
        if self.is_dir(path) {
            return Ok(false);
        }
        let mut dirs = self.dirs.borrow_mut();
        dirs.extend(parents(path).map(String::from));
        dirs.insert(path.into());
        Ok(true)
    }

    async fn remove_dir(&self, path: &RelPath) -> Result<(), StorageError> {
        self.allowed(Access::Write)?;
        let path = path.as_str();
        self.folder(path)?;
        let inside = format!("{path}/");
        let files = self.files.borrow();
        if files
            .keys()
            .chain(self.dirs.borrow().iter())
            .any(|p| p.starts_with(&inside))
        {
            return Err(StorageError::NotEmpty);
        }
        drop(files);
        self.dirs.borrow_mut().remove(path);
        Ok(())
    }

    async fn observe(&self, path: &RelPath) -> Observation {
        let path = path.as_str();
        if self.is_dir(path) {
            return Observation {
                exists: true,
                is_dir: true,
                ..Observation::default()
            };
        }
        match self.files.borrow().get(path) {
            Some(bytes) => Observation {
                exists: true,
                is_dir: false,
                bytes: bytes.len() as u64,
                mtime_ms: Some(self.writes.get()),
            },
            None => Observation::default(),
        }
    }

    async fn list(&self, dir: &RelPath) -> Result<Vec<DirEntry>, StorageError> {
        self.allowed(Access::Read)?;
        let dir = dir.as_str();
        self.folder(dir)?;
        let prefix = if dir.is_empty() {
            String::new()
        } else {
            format!("{dir}/")
        };
        let mut seen: BTreeMap<String, DirEntry> = BTreeMap::new();
        let files = self.files.borrow();
        let dirs = self.dirs.borrow();
        let paths = files.keys().chain(dirs.iter());
        for path in paths.filter_map(|p| p.strip_prefix(prefix.as_str())) {
            let (name, nested) = match path.split_once('/') {
                Some((name, _)) => (name, true),
                None => (path, false),
            };
            let full = format!("{prefix}{name}");
            let is_dir = nested || dirs.contains(&full);
            let bytes = files.get(&full).map_or(0, |b| b.len() as u64);
            seen.insert(name.into(), DirEntry::new(name, is_dir, bytes));
        }
        Ok(seen.into_values().collect())
    }

    async fn append_audit(&self, entry: &Entry) -> Result<u64, StorageError> {
        if !self.audit_writable.get() {
            return Err(StorageError::Other("the audit log is not writable".into()));
        }
        let name = audit::file_name(&self.instance, &self.root_info().path);
        let mut files = self.audit.borrow_mut();
        let text = files.entry(name.clone()).or_default();
        let seq = audit::last_seq(
            &audit::parse(&AuditFile {
                name,
                text: text.clone(),
            })
            .1,
        ) + 1;
        text.push_str(
            &Entry {
                seq,
                ..entry.clone()
            }
            .line(),
        );
        Ok(seq)
    }

    async fn read_audit(&self) -> Result<Vec<AuditFile>, StorageError> {
        Ok(self
            .audit
            .borrow()
            .iter()
            .map(|(name, text)| AuditFile {
                name: name.clone(),
                text: text.clone(),
            })
            .collect())
    }
}
