//! Durable writes: staged in the host's own folder, synced, renamed into the
//! pinned folder, the folder synced (and every folder made for it).

use super::{FolderStorage, is_special, real, real_path, rel, split, storage_error};
use crate::MachineEnv;
use crate::own::TMP_DIR;
use cap_std::fs::{Dir, File, Metadata, MetadataExt as _, OpenOptions};
use std::io::{self, ErrorKind, Write};
use std::path::Path;
use voicebox_core::contain::RelPath;
use voicebox_core::journal;
use voicebox_core::platform::{Env, Escape, StorageError};

/// How the host names what it stages, so a sweep removes only its own.
const STAGED: &str = "staged-";

/// How old a staged temporary must be before a starting host removes it:
/// another process on the same root (`serve` while a `turn` runs) may be in
/// the middle of a write, which takes milliseconds, never a minute.
const STALE_AFTER: std::time::Duration = std::time::Duration::from_secs(60);

/// The name of a temporary the host stages, from a fresh id.
pub(super) fn staged_name(id: &str) -> String {
    format!("{STAGED}{id}")
}

/// Whether `name` has the shape of a name the host staged.
fn is_staged(name: &str) -> bool {
    name.strip_prefix(STAGED).is_some_and(journal::own_id)
}

/// Whether `meta` is one of the host's temporaries that no write uses any
/// more: a regular file with one name (the host renames what it stages, never
/// links it), older than [`STALE_AFTER`].
fn stale(meta: &Metadata) -> bool {
    let age = meta.modified().ok().and_then(|at| {
        std::time::SystemTime::now()
            .duration_since(at.into_std())
            .ok()
    });
    meta.is_file() && meta.nlink() == 1 && age.is_some_and(|age| age > STALE_AFTER)
}

impl FolderStorage {
    /// What interrupted writes left in the host's staging folder: only names
    /// of the host's own shape (its prefix and an id), only stale regular
    /// files, found through the staging folder opened without following links.
    pub(super) fn staged_leftovers(&self) -> Vec<String> {
        let Ok(Some(staging)) = self.own.folder(TMP_DIR) else {
            return Vec::new();
        };
        let Ok(entries) = staging.entries() else {
            return Vec::new();
        };
        let mut found: Vec<String> = entries
            .flatten()
            .filter_map(|entry| entry.file_name().into_string().ok())
            .filter(|name| is_staged(name))
            .filter(|name| staging.symlink_metadata(name).is_ok_and(|m| stale(&m)))
            .map(|name| format!("{TMP_DIR}/{name}"))
            .collect();
        found.sort();
        found
    }

    /// Removes one temporary [`FolderStorage::staged_leftovers`] named, judged
    /// again as it is now.
    pub(super) fn remove_staged(&self, path: &str) -> Result<(), StorageError> {
        let name = path
            .strip_prefix(TMP_DIR)
            .and_then(|rest| rest.strip_prefix('/'))
            .filter(|name| is_staged(name))
            .ok_or(StorageError::NotFound)?;
        let staging = self.own_folder(TMP_DIR)?;
        if !stale(&staging.symlink_metadata(name).map_err(storage_error)?) {
            return Err(StorageError::NotARegularFile);
        }
        staging
            .remove_file(name)
            .and_then(|()| self.durable.folder_at(&staging, Path::new("")))
            .map_err(storage_error)
    }

    /// Writes durably: the bytes go to a temporary file in the host's own
    /// folder, which is synced, renamed over the target, and the target's
    /// folder synced (and any folder created for it), so a crash leaves the
    /// old file or the new one, never a half-written one, and an answered
    /// write survives a power cut. A link inside the root is written through,
    /// not replaced.
    pub(super) fn write_file(&self, path: &RelPath, bytes: &[u8]) -> Result<(), StorageError> {
        let rel = rel(path);
        let (parent, name) = split(&rel);
        if !parent.as_os_str().is_empty() && !self.dir.is_dir(parent) {
            // Folders made for the file are a change too: the barrier first.
            self.durable.barrier().map_err(storage_error)?;
        }
        self.make_folders(parent).map_err(storage_error)?;
        let folder = self.pin(path, parent)?;
        // Only once the folder is seen: it may have just been made beside this.
        self.owe_made_above(parent).map_err(storage_error)?;
        let meta = folder.symlink_metadata(name);
        if meta.as_ref().is_ok_and(|m| m.file_type().is_symlink()) {
            // Written through: the link stays a link. Containment refused a
            // link out or to a missing target; the target is pinned in turn.
            let target =
                real::real(&self.dir, &rel).map_err(|_| StorageError::Escape(Escape::LinkOut))?;
            let target = real_path(&target).map_err(StorageError::Escape)?;
            return match self.dir.symlink_metadata(target.as_str()) {
                Ok(m) if m.file_type().is_symlink() => Err(StorageError::Escape(Escape::LinkOut)),
                _ => self.write_file(&target, bytes),
            };
        }
        if meta.is_ok_and(|m| is_special(&m)) {
            return Err(StorageError::NotARegularFile);
        }
        let staging = self.own_made(TMP_DIR)?;
        let (tmp, file) = self.staged_file(&staging).map_err(storage_error)?;
        let written = self
            .fill(file, bytes)
            .and_then(|()| self.durable.barrier())
            .and_then(|()| staging.rename(&tmp, &folder, name));
        let written = match written {
            // The target is on another filesystem mounted inside the root: a
            // temporary beside it is the only one a rename can move.
            Err(e) if e.raw_os_error() == Some(libc::EXDEV) => {
                let _ = staging.remove_file(&tmp);
                let beside = format!(".voicebox-tmp-{}", MachineEnv.random_id());
                let moved = self
                    .write_synced(&folder, Path::new(&beside), bytes)
                    .and_then(|()| self.durable.barrier())
                    .and_then(|()| folder.rename(&beside, &folder, name));
                if moved.is_err() {
                    let _ = folder.remove_file(&beside);
                }
                moved
            }
            Err(e) => {
                let _ = staging.remove_file(&tmp);
                Err(e)
            }
            ok => ok,
        };
        written
            .and_then(|()| self.durable.folder_at(&folder, Path::new("")))
            .map_err(storage_error)
    }

    /// Creates `path` of `dir` (a new, synced file) holding `bytes`.
    pub(super) fn write_synced(&self, dir: &Dir, path: &Path, bytes: &[u8]) -> io::Result<()> {
        let mut options = OpenOptions::new();
        options.write(true).create_new(true);
        let file = self.with_parents(path, || dir.open_with(path, &options))?;
        self.fill(file, bytes)
    }

    /// Writes `bytes` into the new `file` and syncs them.
    fn fill(&self, mut file: File, bytes: &[u8]) -> io::Result<()> {
        file.write_all(bytes)?;
        self.durable.file(file.into_std())
    }

    /// Makes the missing folders of `path` and syncs the folder above each
    /// at once, so the folders themselves survive — not at the change's
    /// end: a change beside this one may write into them meanwhile (see
    /// [`Made`](super::made)). Callers have passed their barrier.
    pub(super) fn make_folders(&self, path: &Path) -> io::Result<()> {
        let mut missing = Vec::new();
        let mut current = path.to_path_buf();
        while !current.as_os_str().is_empty() && !self.dir.is_dir(&current) {
            missing.push(current.clone());
            current.pop();
        }
        let (mut made, mut failed) = (Vec::new(), Ok(()));
        for folder in missing.into_iter().rev() {
            self.made.making(&folder);
            match self.dir.create_dir(&folder) {
                Err(e) if e.kind() != ErrorKind::AlreadyExists => {
                    self.made.settled(&folder);
                    failed = Err(e);
                    break;
                }
                _ => made.push(folder),
            }
        }
        for folder in &made {
            let parent = folder.parent().unwrap_or(Path::new(""));
            self.durable.sync.folder_at(&self.dir, parent)?;
            self.made.settled(folder);
        }
        failed
    }

    /// Owes the syncs that make durable the names of folders above `folder`
    /// (and itself) that a change beside this one made and has not synced
    /// yet: this change's file is only as durable as the way to it.
    pub(super) fn owe_made_above(&self, folder: &Path) -> io::Result<()> {
        for made in self.made.above(folder) {
            self.sync_folder(made.parent().unwrap_or(Path::new("")))?;
        }
        Ok(())
    }

    /// Syncs one folder of the root (`""` is the root itself).
    pub(super) fn sync_folder(&self, folder: &Path) -> io::Result<()> {
        self.durable.folder_at(&self.dir, folder)
    }

    /// Runs `open`; where a folder on the way is missing, creates the
    /// folders and runs it again. Most writes go to folders that exist, so
    /// they are not re-created (and re-checked) on every write.
    pub(super) fn with_parents<T>(
        &self,
        rel: &Path,
        open: impl Fn() -> io::Result<T>,
    ) -> io::Result<T> {
        match open() {
            Err(e) if e.kind() == ErrorKind::NotFound => {
                if let Some(parent) = rel.parent().filter(|p| !p.as_os_str().is_empty()) {
                    self.make_folders(parent)?;
                }
                open()
            }
            other => other,
        }
    }
}
