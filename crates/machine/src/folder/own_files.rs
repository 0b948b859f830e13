//! The host's own files in a root — the undo journal and its blobs, the
//! audit logs — reached only through host folders opened without following
//! links, and each opened without following one either: what the host reads
//! back, appends to or removes there is what it wrote, never a file a link
//! planted there names.

use super::{FolderStorage, own_error, read_capped, storage_error};
use crate::MachineEnv;
use crate::own::{TMP_DIR, appending, opening};
use cap_std::fs::{Dir, File, Metadata, MetadataExt as _};
use std::io::{self, Write};
use std::path::Path;
use voicebox_core::contain::{AUDIT_DIR, HOST_DIR, RelPath};
use voicebox_core::platform::{Env, StorageError};

/// A host path (`.voicebox/…`: only the host builds these, every person's
/// name there is refused before storage) as its folder and last name.
pub(super) fn own_file(path: &RelPath) -> Option<(&str, &str)> {
    path.as_str()
        .rsplit_once('/')
        .filter(|(folder, _)| folder.split('/').next() == Some(HOST_DIR))
}

/// Whether `meta` is a regular file with exactly `names` names.
pub(super) fn alone(meta: &Metadata, names: u64) -> bool {
    meta.is_file() && meta.nlink() == names
}

/// Removes `name` of the host folder `dir` where it is a regular file
/// (never a folder; a link there is never followed).
pub(super) fn remove_if_file(dir: &Dir, name: &str) {
    if dir.symlink_metadata(name).is_ok_and(|m| m.is_file()) {
        let _ = dir.remove_file(name);
    }
}

/// A host file's error in storage's terms: a link where the file should be
/// is not a file the host wrote.
fn own_file_error(e: io::Error) -> StorageError {
    match e.raw_os_error() {
        Some(libc::ELOOP) => StorageError::NotARegularFile,
        _ => storage_error(e),
    }
}

impl FolderStorage {
    /// The host folder `folder`; `NotFound` where it does not exist.
    pub(super) fn own_folder(&self, folder: &str) -> Result<Dir, StorageError> {
        self.own
            .folder(folder)
            .map_err(own_error)?
            .ok_or(StorageError::NotFound)
    }

    /// The host folder `folder`, made where it does not exist.
    pub(super) fn own_made(&self, folder: &str) -> Result<Dir, StorageError> {
        self.own.made(folder).map_err(own_error)
    }

    /// Opens a file of the host's own for reading: never through a link,
    /// never blocking on a pipe, and only a regular file.
    fn open_own(&self, folder: &str, name: &str) -> Result<File, StorageError> {
        let dir = self.own_folder(folder)?;
        let file = dir
            .open_with(name, opening().read(true))
            .map_err(own_file_error)?;
        match file.metadata().map_err(storage_error)? {
            meta if meta.is_file() => Ok(file),
            _ => Err(StorageError::NotARegularFile),
        }
    }

    /// One writer's audit file, opened as [`FolderStorage::open_own`] opens
    /// the host's files.
    pub(super) fn open_audit(&self, name: &str) -> Result<File, StorageError> {
        self.open_own(AUDIT_DIR, name)
    }

    pub(super) fn read_own(&self, folder: &str, name: &str) -> Result<Vec<u8>, StorageError> {
        let file = self.open_own(folder, name)?;
        let size = file.metadata().map_err(storage_error)?.len();
        read_capped(file, size)
    }

    pub(super) fn append_own(
        &self,
        folder: &str,
        name: &str,
        bytes: &[u8],
    ) -> Result<(), StorageError> {
        let dir = self.own_made(folder)?;
        let new = dir.symlink_metadata(name).is_err();
        let mut file = dir
            .open_with(name, appending().create(true))
            .map_err(own_file_error)?;
        if !file.metadata().map_err(storage_error)?.is_file() {
            return Err(StorageError::NotARegularFile);
        }
        file.write_all(bytes)
            .and_then(|()| self.durable.file(file.into_std()))
            .and_then(|()| match new {
                true => self.durable.folder_at(&dir, Path::new("")),
                false => Ok(()),
            })
            .map_err(storage_error)
    }

    /// Replaces a file of the host's own whole: staged in the host's staging
    /// folder, synced, renamed over it (a rename replaces a link, never
    /// writes through one).
    pub(super) fn write_own(
        &self,
        folder: &str,
        name: &str,
        bytes: &[u8],
    ) -> Result<(), StorageError> {
        let dir = self.own_made(folder)?;
        let staging = self.own_made(TMP_DIR)?;
        let tmp = super::write::staged_name(&MachineEnv.random_id());
        let written = self
            .write_synced(&staging, Path::new(&tmp), bytes)
            .and_then(|()| staging.rename(&tmp, &dir, name));
        if written.is_err() {
            let _ = staging.remove_file(&tmp);
        }
        written
            .and_then(|()| self.durable.folder_at(&dir, Path::new("")))
            .map_err(storage_error)
    }

    /// Lets go of regular files of the host's own on the sync pool,
    /// unsynced, so no act waits for them (see [`Storage::discard`]): each
    /// is emptied and kept to be written again where it can be (see
    /// [`Spares::empty_into`]), removed otherwise.
    ///
    /// [`Storage::discard`]: voicebox_core::platform::Storage::discard
    /// [`Spares::empty_into`]: super::spares::Spares::empty_into
    pub(super) fn discard_own(&self, paths: Vec<RelPath>) {
        let own = self.own.clone();
        let spares = self.spares.clone();
        crate::durable::pool::detach(move || {
            let staging = own.folder(TMP_DIR).ok().flatten();
            for (folder, name) in paths.iter().filter_map(own_file) {
                let Ok(Some(dir)) = own.folder(folder) else {
                    continue;
                };
                let kept = staging
                    .as_ref()
                    .is_some_and(|staging| spares.empty_into(&dir, name, staging));
                if !kept {
                    remove_if_file(&dir, name);
                }
            }
        });
    }

    /// Removes a regular file of the host's own (never a link or a folder).
    pub(super) fn remove_own(&self, folder: &str, name: &str) -> Result<(), StorageError> {
        let dir = self.own_folder(folder)?;
        if !dir.symlink_metadata(name).map_err(storage_error)?.is_file() {
            return Err(StorageError::NotARegularFile);
        }
        dir.remove_file(name)
            .and_then(|()| self.durable.folder_at(&dir, Path::new("")))
            .map_err(storage_error)
    }
}
