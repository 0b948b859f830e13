//! Renaming, making and removing folders: both ends of a rename pinned as
//! every act's folder is (`pin`), so what containment judged is what is
//! changed; a link is never moved (where a relative link leads depends on
//! where it sits) and a second name of a host file is never carried off.

use super::{FolderStorage, is_special, rel, split, storage_error};
use cap_std::fs::MetadataExt as _;
use std::io::ErrorKind;
use std::path::Path;
use voicebox_core::contain::RelPath;
use voicebox_core::platform::StorageError;

/// A rename's or folder act's failure in storage's terms.
fn folder_error(e: std::io::Error) -> StorageError {
    match e.raw_os_error() {
        Some(libc::ENOTEMPTY) => StorageError::NotEmpty,
        Some(libc::EEXIST) => StorageError::Exists,
        _ => storage_error(e),
    }
}

impl FolderStorage {
    pub(super) fn rename_entry(&self, from: &RelPath, to: &RelPath) -> Result<(), StorageError> {
        let (from_rel, to_rel) = (rel(from), rel(to));
        let (from_parent, from_name) = split(&from_rel);
        let (to_parent, to_name) = split(&to_rel);
        let source = self.pin(from, from_parent)?;
        let meta = source.symlink_metadata(from_name).map_err(storage_error)?;
        if meta.file_type().is_symlink() {
            return Err(StorageError::IsALink);
        }
        if is_special(&meta) {
            return Err(StorageError::NotARegularFile);
        }
        if meta.is_file()
            && meta.nlink() > 1
            && let Some(twin) = self.protected_twin((meta.dev(), meta.ino()))
        {
            return Err(StorageError::Moved(twin));
        }
        self.make_folders(to_parent).map_err(storage_error)?;
        let target = self.pin(to, to_parent)?;
        match target.symlink_metadata(to_name) {
            // A file may replace a file (the executor asked first).
            Ok(there) if there.is_file() && meta.is_file() => {}
            Ok(_) => return Err(StorageError::Exists),
            Err(e) if e.kind() == ErrorKind::NotFound => {}
            Err(e) => return Err(storage_error(e)),
        }
        source
            .rename(from_name, &target, to_name)
            .map_err(folder_error)?;
        self.durable
            .folder_at(&source, Path::new(""))
            .and_then(|()| self.durable.folder_at(&target, Path::new("")))
            .map_err(storage_error)
    }

    pub(super) fn make_folder(&self, path: &RelPath) -> Result<bool, StorageError> {
        let spelled = rel(path);
        let (parent, name) = split(&spelled);
        self.make_folders(parent).map_err(storage_error)?;
        let folder = self.pin(path, parent)?;
        match folder.symlink_metadata(name) {
            Ok(meta) if meta.is_dir() => return Ok(false),
            Ok(_) => return Err(StorageError::Exists),
            Err(e) if e.kind() == ErrorKind::NotFound => {}
            Err(e) => return Err(storage_error(e)),
        }
        folder.create_dir(name).map_err(folder_error)?;
        self.durable
            .folder_at(&folder, Path::new(""))
            .map_err(storage_error)?;
        Ok(true)
    }

    pub(super) fn remove_folder(&self, path: &RelPath) -> Result<(), StorageError> {
        let spelled = rel(path);
        let (parent, name) = split(&spelled);
        let folder = self.pin(path, parent)?;
        let meta = folder.symlink_metadata(name).map_err(storage_error)?;
        if meta.file_type().is_symlink() {
            return Err(StorageError::IsALink);
        }
        if !meta.is_dir() {
            return Err(StorageError::NotADirectory);
        }
        folder
            .remove_dir(name)
            .map_err(folder_error)
            .and_then(|()| {
                self.durable
                    .folder_at(&folder, Path::new(""))
                    .map_err(storage_error)
            })
    }
}
