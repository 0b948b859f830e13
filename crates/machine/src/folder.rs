//! A project root on this machine, on cap-std.
//!
//! The root is opened once as a directory handle; every operation is relative
//! to it, so `..`, absolute paths and links that leave the root fail inside the
//! operating system with no window between a check and its use. [`Storage::confine`]
//! adds the explicit real-path answer the executor needs to *name* a link out.

mod checked;
use checked::is_special;
mod organise;
mod own_files;
mod repo;
mod write;

use crate::audit_file::{Anchors, AuditWriter, Writer};
use crate::durable::Syncer;
use crate::own::{OwnError, OwnFolders};
use cap_std::ambient_authority;
use cap_std::fs::{Dir, Metadata, MetadataExt as _, OpenOptions};
use std::io::{self, ErrorKind, Read, Write};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use voicebox_core::audit::chain::Anchor;
use voicebox_core::audit::{AuditFile, Entry};
use voicebox_core::contain::{self, AUDIT_DIR, RelPath};
use voicebox_core::platform::{
    AuditListing, DirEntry, Escape, MAX_FILE_BYTES, Observation, Resolved, RootInfo, Storage,
    StorageError,
};

/// Why a folder could not be opened as a root.
#[derive(Debug)]
pub enum OpenError {
    Missing(PathBuf),
    NotAFolder(PathBuf),
    /// `path`, one of the host's own folders in `root`, is `found` (a link,
    /// a pipe, a file) instead of a folder.
    HostFolder {
        root: PathBuf,
        path: String,
        found: &'static str,
    },
    Io(PathBuf, io::Error),
}

impl std::fmt::Display for OpenError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OpenError::Missing(p) => write!(f, "{} does not exist", p.display()),
            OpenError::NotAFolder(p) => write!(f, "{} is a file, not a folder", p.display()),
            OpenError::HostFolder { root, path, found } => write!(
                f,
                "{path} in {} is {found}, not a folder; Voicebox keeps its own files there and never follows a link out of them, so it did not open the folder and changed nothing in it — remove or rename {path} in {} (Voicebox makes a fresh one)",
                root.display(),
                root.display()
            ),
            OpenError::Io(p, e) => write!(f, "{} cannot be opened: {e}", p.display()),
        }
    }
}

/// How a root is opened; `Default` is what the host uses.
#[derive(Clone, Default)]
pub struct RootOptions {
    /// Makes acts durable before they are acknowledged (and lets a crash
    /// test watch the sync points).
    pub sync: Syncer,
    /// Where the host keeps its audit anchors (a folder outside every root,
    /// under the state folder): with it, each group of appends also adds a
    /// record to this writer's anchor, and verification sees lines cut from a log's end or
    /// a log replaced whole. Without it, only the chain inside each file.
    pub anchors: Option<PathBuf>,
    /// Opens the audit file (and runs its `lost` sweep, closing a torn last
    /// line) at the first append instead of now: for reads of the audit
    /// (`voicebox audit`, `--verify`), which must not change the log they report.
    pub audit_at_first_append: bool,
}

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
    sync: Syncer,
    /// Whether this opener removes stale temporaries (a reader changes
    /// nothing in the folder it reports on).
    sweeps: bool,
}

impl FolderStorage {
    /// Opens `path` as a root for the writer `instance`, running the audit
    /// file's `lost` sweep.
    pub fn open(path: &Path, instance: &str) -> Result<FolderStorage, OpenError> {
        FolderStorage::open_with(path, instance, RootOptions::default())
    }

    /// [`FolderStorage::open`] with explicit options.
    pub fn open_with(
        path: &Path,
        instance: &str,
        options: RootOptions,
    ) -> Result<FolderStorage, OpenError> {
        let real = std::fs::canonicalize(path).map_err(|e| match e.kind() {
            ErrorKind::NotFound => OpenError::Missing(path.into()),
            _ => OpenError::Io(path.into(), e),
        })?;
        let meta = std::fs::metadata(&real).map_err(|e| OpenError::Io(real.clone(), e))?;
        if !meta.is_dir() {
            return Err(OpenError::NotAFolder(real));
        }
        let dir = Dir::open_ambient_dir(&real, ambient_authority())
            .map_err(|e| OpenError::Io(real.clone(), e))?;
        let own_root = dir
            .try_clone()
            .map_err(|e| OpenError::Io(real.clone(), e))?;
        let own = Arc::new(OwnFolders::new(own_root, options.sync.clone()));
        // A reader (`voicebox audit`) changes nothing and reads no host folder
        // through a link: one that is not a folder is named in its report.
        let checked = match options.audit_at_first_append {
            true => Ok(()),
            false => own.check(),
        };
        checked.map_err(|e| match e {
            OwnError::NotAFolder { path, found } => OpenError::HostFolder {
                root: real.clone(),
                path,
                found,
            },
            OwnError::Io(path, e) => OpenError::Io(real.join(path), e),
        })?;
        let root = real.to_string_lossy().into_owned();
        let anchors = options.anchors.map(Anchors::new);
        let writer = Writer {
            instance: instance.into(),
            project: project_of(&real),
            root,
        };
        Ok(FolderStorage {
            dir,
            identity: (meta.dev(), meta.ino()),
            own: own.clone(),
            audit: AuditWriter::new(
                own,
                writer,
                options.sync.clone(),
                anchors.clone(),
                !options.audit_at_first_append,
            ),
            anchors,
            sync: options.sync,
            path: real,
            // A reader (`voicebox audit`) changes nothing in the folder it reports on.
            sweeps: !options.audit_at_first_append,
        })
    }

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

/// The project a root is: `<folder name>@machine`.
fn project_of(real: &Path) -> String {
    let name = real
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "root".into());
    format!("{name}@machine")
}

/// Reads an open regular file of `size` bytes whole, never past the cap.
fn read_capped(file: cap_std::fs::File, size: u64) -> Result<Vec<u8>, StorageError> {
    if size > MAX_FILE_BYTES {
        return Err(StorageError::TooLarge(size));
    }
    // The file may grow after the fstat: never read past the cap.
    let mut bytes = Vec::with_capacity(size as usize);
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(storage_error)?;
    match bytes.len() as u64 {
        grown if grown > MAX_FILE_BYTES => Err(StorageError::TooLarge(grown)),
        _ => Ok(bytes),
    }
}

/// A host folder that is not one, or cannot be opened, in storage's terms.
fn own_error(e: OwnError) -> StorageError {
    match e {
        OwnError::NotAFolder { .. } => StorageError::HostFolder(e.to_string()),
        OwnError::Io(..) => StorageError::Other(e.to_string()),
    }
}

/// cap-std's words for a path that would leave the directory.
fn is_escape(e: &io::Error) -> bool {
    e.kind() == ErrorKind::PermissionDenied && e.to_string().contains("outside of the filesystem")
}

fn storage_error(e: io::Error) -> StorageError {
    match e.kind() {
        _ if is_escape(&e) => StorageError::Escape(Escape::LinkOut),
        ErrorKind::NotFound => StorageError::NotFound,
        ErrorKind::IsADirectory => StorageError::IsADirectory,
        ErrorKind::NotADirectory => StorageError::NotADirectory,
        _ => StorageError::Other(e.to_string()),
    }
}

/// A path's folder and last name (`""` and the path itself for a single name).
fn split(path: &Path) -> (&Path, &std::ffi::OsStr) {
    (
        path.parent().unwrap_or(Path::new("")),
        path.file_name().unwrap_or_default(),
    )
}

/// A real path cap-std answered (relative to the root), as the core's path.
fn real_path(real: &Path) -> Result<RelPath, Escape> {
    match real.to_string_lossy().as_ref() {
        "" | "." => Ok(RelPath::root()),
        text => contain::resolve_inside_root(text).map_err(|_| Escape::LinkOut),
    }
}

fn rel(path: &RelPath) -> PathBuf {
    PathBuf::from(path.as_str())
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
                    let real = self
                        .dir
                        .canonicalize(&current)
                        .map_err(|_| Escape::LinkOut)?;
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
        let path = rel(path);
        let new = !self.dir.exists(&path);
        let mut options = OpenOptions::new();
        options.append(true).create(true);
        self.with_parents(&path, || self.dir.open_with(&path, &options))
            .and_then(|mut file| {
                file.write_all(bytes)?;
                self.sync.file(&file.into_std())
            })
            .and_then(|()| match new {
                true => self.sync_folder(path.parent().unwrap_or(Path::new(""))),
                false => Ok(()),
            })
            .map_err(storage_error)
    }

    async fn remove(&self, path: &RelPath) -> Result<(), StorageError> {
        if let Some((folder, name)) = own_files::own_file(path) {
            return self.remove_own(folder, name);
        }
        let spelled = rel(path);
        let (parent, name) = split(&spelled);
        let folder = self.pin(path, parent)?;
        if folder.symlink_metadata(name).is_ok_and(|m| m.is_dir()) {
            return Err(StorageError::IsADirectory);
        }
        folder
            .remove_file(name)
            .and_then(|()| self.sync.folder_at(&folder, Path::new("")))
            .map_err(storage_error)
    }

    async fn rename(&self, from: &RelPath, to: &RelPath) -> Result<(), StorageError> {
        self.rename_entry(from, to)
    }

    async fn make_dir(&self, path: &RelPath) -> Result<bool, StorageError> {
        self.make_folder(path)
    }

    async fn remove_dir(&self, path: &RelPath) -> Result<(), StorageError> {
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
        self.audit
            .append(entry)
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
