//! What an act touches, judged where it really is: a folder opened and its
//! real place read from the kernel, a file opened without blocking and its
//! kind and twins judged on the open file, never on the name alone.

use super::{FolderStorage, real_path, rel, split, storage_error};
use cap_std::fs::{Dir, File, Metadata, MetadataExt as _, OpenOptions, OpenOptionsExt};
use std::os::fd::{AsFd, AsRawFd};
use std::path::{Path, PathBuf};
use voicebox_core::contain::{self, AUDIT_DIR, HOST_DIR, RelPath};
use voicebox_core::platform::{Escape, StorageError};

/// Neither a regular file nor a folder: a FIFO, socket or device.
pub(super) fn is_special(meta: &Metadata) -> bool {
    !meta.is_file() && !meta.is_dir()
}

impl FolderStorage {
    /// Opens the folder `folder` of the root for an act on `spelled`, and
    /// checks where it really is: containment looked at the name a moment
    /// ago, and a folder on the way may since have been swapped for a link
    /// (into `.audit`, say). The act then goes through the pinned handle, so
    /// what was checked is what is used. Host paths (the journal) never come
    /// here: they go through the host's own folders (`own_files`).
    pub(super) fn pin(&self, spelled: &RelPath, folder: &Path) -> Result<Dir, StorageError> {
        let dir = if folder.as_os_str().is_empty() {
            self.dir.try_clone()
        } else {
            self.dir.open_dir(folder)
        }
        .map_err(storage_error)?;
        let real = self.real_of(&dir)?;
        let name = rel(spelled);
        let leaf = split(&name).1.to_string_lossy();
        let seen = if folder == name {
            real.clone()
        } else {
            real.child(&leaf)
        };
        if contain::leads_into_hidden(spelled, &seen) {
            return Err(StorageError::Moved(seen));
        }
        if let Some(own) = self.under_own(&seen) {
            return Err(StorageError::Moved(own));
        }
        Ok(dir)
    }

    /// Whether the real path `real` (as the kernel reported it for an open
    /// file or folder) is `.audit` or `.voicebox`, or lies under one, by
    /// what the folders on the way are (device, inode), not by their names:
    /// a host folder renamed while the host holds it is still the host's.
    /// Answers the path as the host folder names it.
    pub(super) fn under_own(&self, real: &RelPath) -> Option<RelPath> {
        let segments: Vec<&str> = real.segments().collect();
        let mut prefix = PathBuf::new();
        for (at, segment) in segments.iter().enumerate() {
            prefix.push(segment);
            let Ok(meta) = self.dir.symlink_metadata(&prefix) else {
                return None;
            };
            if let Some(own) = self.own.named((meta.dev(), meta.ino())) {
                let mut named = PathBuf::from(own);
                named.extend(&segments[at + 1..]);
                return real_path(&named).ok();
            }
        }
        None
    }

    /// Where an open file or folder of the root really is, from the kernel.
    pub(super) fn real_of(&self, open: &impl AsFd) -> Result<RelPath, StorageError> {
        let fd = open.as_fd().as_raw_fd();
        let link = std::fs::read_link(format!("/proc/self/fd/{fd}")).map_err(|e| {
            StorageError::Other(format!(
                "where an open file is cannot be read from /proc ({e}), so the act was not done"
            ))
        })?;
        let inside = link
            .strip_prefix(&self.path)
            .map_err(|_| StorageError::Escape(Escape::LinkOut))?;
        real_path(inside).map_err(StorageError::Escape)
    }

    /// Opens a regular file for reading without ever blocking: a FIFO or a
    /// device opened non-blocking returns at once, and `fstat` on the open
    /// file (not the name, which could be swapped) decides.
    pub(super) fn open_regular(&self, rel: &Path) -> Result<(File, Metadata), StorageError> {
        let mut options = OpenOptions::new();
        options
            .read(true)
            .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY);
        let file = self.dir.open_with(rel, &options).map_err(storage_error)?;
        let meta = file.metadata().map_err(storage_error)?;
        if meta.is_dir() {
            return Err(StorageError::IsADirectory);
        }
        if !meta.is_file() {
            return Err(StorageError::NotARegularFile);
        }
        Ok((file, meta))
    }

    /// A file with more than one name may be a second name (a hard link) of
    /// the log or the journal: the host's own folders are small, so they are
    /// searched for the same file, and a read through the twin is judged as
    /// a read of the original.
    pub(super) fn protected_twin(&self, id: (u64, u64)) -> Option<RelPath> {
        for top in [AUDIT_DIR, HOST_DIR] {
            let Ok(Some(own)) = self.own.folder(top) else {
                continue;
            };
            let mut folders = vec![PathBuf::new()];
            while let Some(folder) = folders.pop() {
                let entries = match folder.as_os_str().is_empty() {
                    true => own.entries(),
                    false => own.read_dir(&folder),
                };
                for entry in entries.into_iter().flatten().flatten() {
                    let path = folder.join(entry.file_name());
                    match own.symlink_metadata(&path) {
                        Ok(m) if m.is_dir() => folders.push(path),
                        Ok(m) if (m.dev(), m.ino()) == id => {
                            return real_path(&Path::new(top).join(path)).ok();
                        }
                        _ => {}
                    }
                }
            }
        }
        None
    }
}
