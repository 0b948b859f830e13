//! Opening a folder as a root: the checks made once, before any act (it
//! exists, it is a folder, the host's own folders in it are folders), and the
//! audit writer that goes with it.

use super::FolderStorage;
use super::batch::Durable;
use crate::audit_file::{Anchors, AuditWriter, Writer};
use crate::durable::Syncer;
use crate::own::{OwnError, OwnFolders};
use cap_std::ambient_authority;
use cap_std::fs::Dir;
use std::io::{self, ErrorKind};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

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
        let storage = FolderStorage {
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
            durable: Durable::new(options.sync),
            spares: Default::default(),
            holds: Default::default(),
            made: Default::default(),
            path: real,
            // A reader (`voicebox audit`) changes nothing in the folder it reports on.
            sweeps: !options.audit_at_first_append,
        };
        if storage.sweeps {
            storage.separate_kept();
            storage.adopt_emptied();
        }
        Ok(storage)
    }
}

/// The project a root is: `<folder name>@machine`.
pub(super) fn project_of(real: &Path) -> String {
    let name = real
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "root".into());
    format!("{name}@machine")
}
