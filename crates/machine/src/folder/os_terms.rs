//! What the operating system answers, in storage's terms, and the small path
//! helpers every act of the folder shares.

use crate::own::OwnError;
use std::io::{self, ErrorKind, Read};
use std::path::{Path, PathBuf};
use voicebox_core::contain::{self, RelPath};
use voicebox_core::platform::{Escape, MAX_FILE_BYTES, StorageError};

/// Reads an open regular file of `size` bytes whole, never past the cap.
pub(super) fn read_capped(file: cap_std::fs::File, size: u64) -> Result<Vec<u8>, StorageError> {
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
pub(super) fn own_error(e: OwnError) -> StorageError {
    match e {
        OwnError::NotAFolder { .. } => StorageError::HostFolder(e.to_string()),
        OwnError::Io(..) => StorageError::Other(e.to_string()),
    }
}

/// cap-std's words for a path that would leave the directory.
pub(super) fn is_escape(e: &io::Error) -> bool {
    e.kind() == ErrorKind::PermissionDenied && e.to_string().contains("outside of the filesystem")
}

pub(super) fn storage_error(e: io::Error) -> StorageError {
    match e.kind() {
        _ if is_escape(&e) => StorageError::Escape(Escape::LinkOut),
        ErrorKind::NotFound => StorageError::NotFound,
        ErrorKind::IsADirectory => StorageError::IsADirectory,
        ErrorKind::NotADirectory => StorageError::NotADirectory,
        _ => StorageError::Other(e.to_string()),
    }
}

/// A path's folder and last name (`""` and the path itself for a single name).
pub(super) fn split(path: &Path) -> (&Path, &std::ffi::OsStr) {
    (
        path.parent().unwrap_or(Path::new("")),
        path.file_name().unwrap_or_default(),
    )
}

/// A real path cap-std answered (relative to the root), as the core's path.
pub(super) fn real_path(real: &Path) -> Result<RelPath, Escape> {
    match real.to_string_lossy().as_ref() {
        "" | "." => Ok(RelPath::root()),
        text => contain::resolve_inside_root(text).map_err(|_| Escape::LinkOut),
    }
}

pub(super) fn rel(path: &RelPath) -> PathBuf {
    PathBuf::from(path.as_str())
}
