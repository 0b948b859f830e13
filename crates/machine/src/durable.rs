//! Sync points: where an act's effects reach stable storage.
//!
//! Every `fsync`/`fdatasync` the machine adapters make goes through a
//! [`Syncer`], so there is one place that says what "durable" means and one
//! seam a crash test can watch: a [`SyncObserver`] is told about each sync
//! point after it succeeded, and can take what the file or folder shows then
//! as the state a power cut would leave.

pub(crate) mod pool;

use cap_std::fs::{Dir, OpenOptions, OpenOptionsExt};
use std::fs::File;
use std::io;
use std::path::Path;
use std::sync::Arc;

/// Told about each sync point, after the sync succeeded.
pub trait SyncObserver: Send + Sync {
    /// `file`'s data (and the metadata needed to read it back) is on stable storage.
    fn file_synced(&self, file: &File);
    /// `folder`'s entries (names → files) are on stable storage.
    fn folder_synced(&self, folder: &File);
}

/// Makes files and folders durable, and tells an observer where it did.
#[derive(Clone, Default)]
pub struct Syncer {
    observer: Option<Arc<dyn SyncObserver>>,
}

impl Syncer {
    /// A syncer that also tells `observer` about every sync point.
    pub fn observed(observer: Arc<dyn SyncObserver>) -> Syncer {
        Syncer {
            observer: Some(observer),
        }
    }

    /// `fdatasync`: the file's bytes and length, not its timestamps.
    pub fn file(&self, file: &File) -> io::Result<()> {
        file.sync_data()?;
        if let Some(observer) = &self.observer {
            observer.file_synced(file);
        }
        Ok(())
    }

    /// `fsync` of the folder `path` of `dir` (`""` or `.` is `dir` itself), so
    /// the names created, renamed or removed in it survive a power cut. The
    /// folder is opened for reading: cap-std's own folder handles are
    /// `O_PATH`, which cannot be synced.
    pub fn folder_at(&self, dir: &Dir, path: &Path) -> io::Result<()> {
        self.folder(&Syncer::open_folder(dir, path)?)
    }

    /// The folder `path` of `dir` opened to be synced.
    pub(crate) fn open_folder(dir: &Dir, path: &Path) -> io::Result<File> {
        let path = if path.as_os_str().is_empty() {
            Path::new(".")
        } else {
            path
        };
        let mut options = OpenOptions::new();
        options.read(true).custom_flags(libc::O_DIRECTORY);
        Ok(dir.open_with(path, &options)?.into_std())
    }

    /// `fsync` of an open folder.
    pub(crate) fn folder(&self, folder: &File) -> io::Result<()> {
        folder.sync_all()?;
        if let Some(observer) = &self.observer {
            observer.folder_synced(folder);
        }
        Ok(())
    }
}

/// Syncs a write is made after, made when the gate is passed, on the thread
/// passing it: what comes before the write (a line sealed, announced) is
/// done meanwhile.
#[derive(Default)]
pub(crate) struct Gate(Option<Box<dyn FnOnce() -> io::Result<()> + Send>>);

impl Gate {
    pub(crate) fn new(syncs: impl FnOnce() -> io::Result<()> + Send + 'static) -> Gate {
        Gate(Some(Box::new(syncs)))
    }

    /// Whether there is nothing to wait for.
    pub(crate) fn is_open(&self) -> bool {
        self.0.is_none()
    }

    /// Makes the syncs; the first error, if one failed.
    pub(crate) fn pass(self) -> io::Result<()> {
        self.0.map_or(Ok(()), |syncs| syncs())
    }
}
