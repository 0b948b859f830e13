//! A project root on this machine, on cap-std.
//!
//! The root is opened once as a directory handle; every operation is relative
//! to it, so `..`, absolute paths and links that leave the root fail inside the
//! operating system with no window between a check and its use. [`Storage::confine`]
//! adds the explicit real-path answer the executor needs to *name* a link out.

mod batch;
mod checked;
mod held;
mod keep;
mod made;
mod open;
mod os_terms;
use checked::is_special;
use open::project_of;
pub use open::{OpenError, RootOptions};
use os_terms::{is_escape, own_error, read_capped, real_path, rel, split, storage_error};
mod organise;
mod own_files;
mod real;
mod repo;
mod spares;
mod write;

use crate::audit_file::{Anchors, AuditWriter};
use crate::own::{OwnError, OwnFolders};
use batch::Durable;
use cap_std::fs::{Dir, Metadata, MetadataExt as _, OpenOptions};
use held::Holds;
use made::Made;
use spares::Spares;
use std::io::{self, ErrorKind, Read, Write};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use voicebox_core::audit::chain::Anchor;
use voicebox_core::audit::{AuditFile, Entry};
use voicebox_core::contain::{self, AUDIT_DIR, RelPath};
use voicebox_core::platform::{
    AuditListing, DirEntry, Escape, Held, Observation, Resolved, RootInfo, Storage, StorageError,
};

/// A folder root with its audit writer.
pub struct FolderStorage {
    dir: Dir,
    /// The root's real path, as answers and the audit record it.
    path: PathBuf,
    /// The folder's identity at open: a folder removed and re-made is a
    /// different folder, and the old handle must not act on it.
    identity: (u64, u64),
    /// `.audit`, `.voicebox` and the folders under them, opened without
    /// following links.
    own: Arc<OwnFolders>,
    audit: AuditWriter,
    anchors: Option<Anchors>,
    /// Syncs, made where asked or together at a change's barrier.
    durable: Durable,
    /// Empty staged files made ahead of the writes that take them.
    spares: Arc<Spares>,
    /// Files held by changes running beside one another.
    holds: Arc<Holds>,
    /// Folders made whose names may not be durable yet.
    made: Made,
    /// Whether this opener removes stale temporaries (a reader changes
    /// nothing in the folder it reports on).
    sweeps: bool,
}

impl FolderStorage {
    /// The root's real path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The project this root is: `<folder name>@machine`.
    pub fn project(&self) -> String {
        project_of(&self.path)
    }

    /// The name inside `.audit/` of the file this writer appends to.
    pub fn audit_file_name(&self) -> String {
        self.audit.name()
    }

    /// The audit folder, opened as every host folder is: one that is a
    /// link or not a folder is that entry's own `unreadable`, not read.
    fn audit_folder(&self) -> Result<Option<Dir>, AuditListing> {
        self.own.folder(AUDIT_DIR).map_err(|e| AuditListing {
            name: AUDIT_DIR.into(),
            len: Err(match e {
                OwnError::NotAFolder { found, .. } => format!("it is {found}, not a folder"),
                OwnError::Io(..) => "it cannot be opened".into(),
            }),
        })
    }

    fn still_there(&self) -> bool {
        std::fs::metadata(&self.path)
            .is_ok_and(|m| m.is_dir() && (m.dev(), m.ino()) == self.identity)
    }

    /// Holds the file `path` leads to (see [`Storage::hold`]), keyed by
    /// where it leads, present or to come: a link and its target are one
    /// file, and a link to a file not made yet holds the name it would be
    /// made at. A name that leads out holds itself (it is refused next).
    fn hold_file(&self, path: &RelPath) -> Held {
        let key = real::destination(&self.dir, &rel(path))
            .ok()
            .and_then(|real| real_path(&real).ok())
            .unwrap_or_else(|| path.clone());
        self.holds.hold(key.as_str().into())
    }

    fn observation(&self, rel: &Path) -> Observation {
        // The root itself is the open folder: `metadata("")` names nothing.
        let meta = if rel.as_os_str().is_empty() {
            self.dir.dir_metadata()
        } else {
            self.dir.metadata(rel)
        };
        match meta {
            Ok(meta) => Observation {
                exists: true,
                is_dir: meta.is_dir(),
                bytes: meta.len(),
                mtime_ms: meta
                    .modified()
                    .ok()
                    .and_then(|t| t.into_std().duration_since(std::time::UNIX_EPOCH).ok())
                    .map(|d| d.as_millis() as u64),
            },
            Err(_) => Observation::default(),
        }
    }

    /// The entries of a pinned folder.
    fn listing(&self, folder: &Dir) -> io::Result<Vec<DirEntry>> {
        let mut out = Vec::new();
        for entry in folder.entries()? {
            let entry = entry?;
            let name = entry.file_name().to_string_lossy().into_owned();
            let link = entry.file_type()?.is_symlink();
            // What the entry names, links followed (a dangling link shows nothing).
            let target = folder.metadata(&name).ok();
            let mut listed = DirEntry::new(
                &name,
                target.as_ref().is_some_and(Metadata::is_dir),
                target.as_ref().map_or(0, Metadata::len),
            );
            listed.link = link;
            listed.special = target.as_ref().is_some_and(is_special);
            out.push(listed);
        }
        Ok(out)
    }
}

impl Storage for FolderStorage {
    fn repository(&self) -> Option<&dyn voicebox_core::history::Repository> {
        Some(self)
    }

    fn root_info(&self) -> RootInfo {
        RootInfo {
            kind: "machine".into(),
            path: self.path.to_string_lossy().into_owned(),
        }
    }

    async fn reachable(&self) -> bool {
        self.still_there()
    }

    /// The nearest existing ancestor (or the path itself) must resolve inside
    /// the root; the answer is its real path joined with the rest of the name.
    /// A link whose target is missing is refused too: what it would create
    /// cannot be known in advance.
    async fn confine(&self, path: &RelPath) -> Result<Resolved, Escape> {
        if !self.still_there() {
            return Err(Escape::Unreachable);
        }
        let mut current = rel(path);
        let mut rest = Vec::new();
        while !current.as_os_str().is_empty() {
            match self.dir.symlink_metadata(&current) {
                Ok(_) => {
                    let real = real::real(&self.dir, &current).map_err(|_| Escape::LinkOut)?;
                    let special = rest.is_empty()
                        && self.dir.metadata(&current).is_ok_and(|m| is_special(&m));
                    let mut joined = real;
                    joined.extend(rest.iter().rev());
                    return Ok(Resolved {
                        path: real_path(&joined)?,
                        special,
                    });
                }
                Err(e) if is_escape(&e) => return Err(Escape::LinkOut),
                Err(e) if e.kind() == ErrorKind::NotFound => {
                    rest.extend(current.file_name().map(ToOwned::to_owned));
                    current.pop();
                }
                // Anything else (a file used as a folder, ...) is for the act to report.
                Err(_) => return Ok(Resolved::itself(path)),
            }
        }
        Ok(Resolved::itself(path))
    }

    async fn read(&self, path: &RelPath) -> Result<Vec<u8>, StorageError> {
        if let Some((folder, name)) = own_files::own_file(path) {
            return self.read_own(folder, name);
        }
        // A change beside this look may have the file half replaced.
        let _held = self.hold_file(path);
        let (file, meta) = self.open_regular(&rel(path))?;
        // The file that was opened, not the name, is what must be inside, and
        // not a second name of the log or the journal.
        let real = self.real_of(&file)?;
        if contain::leads_into_hidden(path, &real) {
            return Err(StorageError::Moved(real));
        }
        if meta.nlink() > 1
            && let Some(twin) = self.protected_twin((meta.dev(), meta.ino()))
            && contain::leads_into_hidden(path, &twin)
        {
            return Err(StorageError::Moved(twin));
        }
        if let Some(own) = self.under_own(&real) {
            return Err(StorageError::Moved(own));
        }
        read_capped(file, meta.len())
    }

    async fn write(&self, path: &RelPath, bytes: &[u8]) -> Result<(), StorageError> {
        match own_files::own_file(path) {
            Some((folder, name)) => self.write_own(folder, name, bytes),
            None => self.write_file(path, bytes),
        }
    }

    async fn append(&self, path: &RelPath, bytes: &[u8]) -> Result<(), StorageError> {
        if let Some((folder, name)) = own_files::own_file(path) {
            return self.append_own(folder, name, bytes);
        }
        self.durable.barrier().map_err(storage_error)?;
        let path = rel(path);
        let new = !self.dir.exists(&path);
        let mut options = OpenOptions::new();
        options.append(true).create(true);
        self.with_parents(&path, || self.dir.open_with(&path, &options))
            .and_then(|mut file| {
                // Only once the folder is seen: it may have just been made beside this.
                self.owe_made_above(path.parent().unwrap_or(Path::new("")))?;
                file.write_all(bytes)?;
                self.durable.file(file.into_std())
            })
            .and_then(|()| match new {
                true => self.sync_folder(path.parent().unwrap_or(Path::new(""))),
                false => Ok(()),
            })
            .map_err(storage_error)
    }

    async fn keep(&self, path: &RelPath, blob: &RelPath, bytes: &[u8]) -> Result<(), StorageError> {
        self.keep_file(path, blob, bytes)
    }

    async fn let_go(&self, blob: &RelPath) {
        self.let_go_kept(blob);
    }

    async fn discard(&self, paths: Vec<RelPath>) {
        self.discard_own(paths);
    }

    async fn hold(&self, path: &RelPath) -> Held {
        self.hold_file(path)
    }

    async fn remove(&self, path: &RelPath) -> Result<(), StorageError> {
        if let Some((folder, name)) = own_files::own_file(path) {
            return self.remove_own(folder, name);
        }
        self.durable.barrier().map_err(storage_error)?;
        let spelled = rel(path);
        let (parent, name) = split(&spelled);
        let folder = self.pin(path, parent)?;
        if folder.symlink_metadata(name).is_ok_and(|m| m.is_dir()) {
            return Err(StorageError::IsADirectory);
        }
        folder
            .remove_file(name)
            .and_then(|()| self.durable.folder_at(&folder, Path::new("")))
            .map_err(storage_error)
    }

    async fn rename(&self, from: &RelPath, to: &RelPath) -> Result<(), StorageError> {
        self.durable.barrier().map_err(storage_error)?;
        self.rename_entry(from, to)
    }

    async fn make_dir(&self, path: &RelPath) -> Result<bool, StorageError> {
        self.durable.barrier().map_err(storage_error)?;
        self.make_folder(path)
    }

    async fn remove_dir(&self, path: &RelPath) -> Result<(), StorageError> {
        self.durable.barrier().map_err(storage_error)?;
        self.remove_folder(path)
    }

    async fn observe(&self, path: &RelPath) -> Observation {
        self.observation(&rel(path))
    }

    async fn list(&self, dir: &RelPath) -> Result<Vec<DirEntry>, StorageError> {
        let path = rel(dir);
        if !path.as_os_str().is_empty() && !self.observation(&path).is_dir {
            return Err(match self.observation(&path).exists {
                true => StorageError::NotADirectory,
                false => StorageError::NotFound,
            });
        }
        let folder = self.pin(dir, &path)?;
        self.listing(&folder).map_err(storage_error)
    }

    async fn append_audit(&self, entry: &Entry) -> Result<u64, StorageError> {
        self.audit_line(entry)
            .map_err(|e| StorageError::Other(e.to_string()))
    }

    async fn append_attempt(&self, entry: &Entry) -> Result<u64, StorageError> {
        self.attempt_line(entry)
            .map_err(|e| StorageError::Other(e.to_string()))
    }

    async fn audit_files(&self) -> Result<Vec<AuditListing>, StorageError> {
        let folder = match self.audit_folder() {
            Ok(Some(folder)) => folder,
            Ok(None) => return Ok(Vec::new()),
            Err(unreadable) => return Ok(vec![unreadable]),
        };
        let mut files = Vec::new();
        for entry in folder.entries().map_err(storage_error)? {
            let entry = entry.map_err(storage_error)?;
            let name = entry.file_name().to_string_lossy().into_owned();
            if !name.ends_with(".jsonl") {
                continue;
            }
            let kind = entry.file_type().map_err(storage_error)?;
            let len = match () {
                _ if kind.is_file() => Ok(entry.metadata().map_err(storage_error)?.len()),
                _ if kind.is_symlink() => Err("it is a link, not a log file: not read".into()),
                _ if kind.is_dir() => Err("it is a folder, not a log file: not read".into()),
                _ => Err(
                    "it is a special file (a FIFO, socket or device), not a log file: not read"
                        .into(),
                ),
            };
            files.push(AuditListing { name, len });
        }
        files.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(files)
    }

    async fn read_audit_range(
        &self,
        name: &str,
        start: u64,
        end: u64,
    ) -> Result<Vec<u8>, StorageError> {
        use std::os::unix::fs::FileExt;
        let file = self.open_audit(name)?.into_std();
        let mut bytes = vec![0; end.saturating_sub(start) as usize];
        let mut filled = 0;
        while filled < bytes.len() {
            match file.read_at(&mut bytes[filled..], start + filled as u64) {
                Ok(0) => break,
                Ok(n) => filled += n,
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e) => return Err(storage_error(e)),
            }
        }
        bytes.truncate(filled);
        Ok(bytes)
    }

    async fn audit_anchors(&self) -> Option<Vec<Anchor>> {
        let root = self.path.to_string_lossy();
        let mut anchors = self.anchors.as_ref()?.list();
        anchors.retain(|anchor| voicebox_core::audit::of_root(&anchor.file, &root));
        Some(anchors)
    }

    async fn stale_temporaries(&self) -> Vec<String> {
        match self.sweeps {
            true => self.staged_leftovers(),
            false => Vec::new(),
        }
    }

    async fn remove_temporary(&self, path: &str) -> Result<(), StorageError> {
        self.remove_staged(path)
    }

    async fn read_audit(&self) -> Result<Vec<AuditFile>, StorageError> {
        let mut files = Vec::new();
        for listed in self.audit_files().await? {
            let (name, Ok(_)) = (listed.name, listed.len) else {
                continue;
            };
            let mut bytes = Vec::new();
            self.open_audit(&name)?
                .read_to_end(&mut bytes)
                .map_err(storage_error)?;
            files.push(AuditFile {
                name,
                text: String::from_utf8_lossy(&bytes).into_owned(),
            });
        }
        Ok(files)
    }
}
