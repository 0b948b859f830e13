//! The undo journal's copy of a file about to be replaced or removed: where
//! it can be, the file itself under a second name in the journal's folder,
//! so its bytes are not copied, and the change frees no inode (on ext4
//! without a journal, each freed inode makes later creations scan past it
//! for seconds).

use super::own_files::{self, alone};
use super::{FolderStorage, rel, split, storage_error};
use crate::own::opening;
use cap_std::fs::{Dir, MetadataExt as _};
use std::path::Path;
use voicebox_core::contain::RelPath;
use voicebox_core::journal;
use voicebox_core::platform::StorageError;

impl FolderStorage {
    /// Keeps what `path` holds under the host path `blob`: linked where
    /// [`FolderStorage::link_kept`] can, a new file holding `bytes` otherwise.
    pub(super) fn keep_file(
        &self,
        path: &RelPath,
        blob: &RelPath,
        bytes: &[u8],
    ) -> Result<(), StorageError> {
        let (folder, name) = own_files::own_file(blob).ok_or(StorageError::NotFound)?;
        if self.link_kept(path, folder, name)? {
            return Ok(());
        }
        let journal = self.own_made(folder)?;
        self.write_synced(&journal, Path::new(name), bytes)
            .and_then(|()| self.durable.folder_at(&journal, Path::new("")))
            .map_err(storage_error)
    }

    /// Gives `path`'s file the second name `name` in the host folder
    /// `folder`, its data and that folder synced; `false` (nothing made)
    /// where the file must be copied instead: a link (a write goes through
    /// it, changing its target in place), a file with another name already
    /// (the person could change it there), one on another filesystem, or
    /// one the system does not let this user link. Whatever fails after the
    /// link takes it back.
    fn link_kept(&self, path: &RelPath, folder: &str, name: &str) -> Result<bool, StorageError> {
        let spelled = rel(path);
        let (parent, leaf) = split(&spelled);
        let Ok(from) = self.pin(path, parent) else {
            return Ok(false);
        };
        let journal = self.own_made(folder)?;
        let linked = from.symlink_metadata(leaf).ok().filter(|m| alone(m, 1));
        let Some(before) = linked.filter(|_| from.hard_link(leaf, &journal, name).is_ok()) else {
            return Ok(false);
        };
        let opened = journal
            .open_with(name, opening().read(true))
            .and_then(|file| {
                let kept = file.metadata()?;
                // What was linked is the file looked at, and nothing else names it.
                let same = (kept.dev(), kept.ino()) == (before.dev(), before.ino());
                Ok((same && alone(&kept, 2)).then_some(file))
            });
        let linked = match opened {
            Ok(Some(file)) => self
                .durable
                .file(file.into_std())
                .and_then(|()| self.durable.folder_at(&journal, Path::new("")))
                .map(|()| true),
            Ok(None) => Ok(false),
            Err(e) => Err(e),
        };
        if !matches!(linked, Ok(true)) {
            journal.remove_file(name).map_err(storage_error)?;
        }
        linked.map_err(storage_error)
    }

    /// Takes back the second name `blob` [`FolderStorage::keep_file`] gave
    /// a file, if the file still has its first: the change it was kept for
    /// did not happen. Judged by the kept file alone (the change's own path
    /// may be what failed). A copy, or a file the change did replace, has
    /// one name and stays.
    pub(super) fn let_go_kept(&self, blob: &RelPath) {
        if let Some((folder, name)) = own_files::own_file(blob)
            && let Ok(journal) = self.own_folder(folder)
        {
            let_go_shared(&journal, name);
        }
    }

    /// Takes back every second name a change cut short by a power cut left
    /// (between keeping a file and replacing it), as
    /// [`FolderStorage::let_go_kept`] does for a change that failed: the
    /// person's file is theirs alone again. Only the host's folder changes.
    pub(super) fn separate_kept(&self) {
        let Ok(undo) = self.own_folder(journal::UNDO_DIR) else {
            return;
        };
        let Ok(entries) = undo.entries() else {
            return;
        };
        for name in entries
            .flatten()
            .filter_map(|e| e.file_name().into_string().ok())
        {
            if name.strip_suffix(".bin").is_some_and(journal::own_id) {
                let_go_shared(&undo, &name);
            }
        }
    }
}

/// Removes the kept file `name` of `journal` if it is a regular file with
/// another name too.
fn let_go_shared(journal: &Dir, name: &str) {
    if journal
        .symlink_metadata(name)
        .is_ok_and(|kept| kept.is_file() && kept.nlink() > 1)
    {
        let _ = journal.remove_file(name);
    }
}
