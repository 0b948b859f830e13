//! Folders made for a change whose names may not be durable yet.
//!
//! A change that makes a folder syncs the folder above it before it is
//! answered. A change running beside it may find the new folder, write a
//! file into it and be answered first; after a power cut its file would be
//! gone with the folder's name. So a change writing under a folder still
//! listed here syncs the folder above it too.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

#[derive(Default)]
pub(super) struct Made {
    folders: Mutex<HashSet<PathBuf>>,
}

impl Made {
    fn folders(&self) -> MutexGuard<'_, HashSet<PathBuf>> {
        self.folders.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// `folder` is about to be made: listed before anyone can find it.
    pub(super) fn making(&self, folder: &Path) {
        self.folders().insert(folder.to_path_buf());
    }

    /// `folder`'s name is durable, or it was not made after all.
    pub(super) fn settled(&self, folder: &Path) {
        self.folders().remove(folder);
    }

    /// `path` and the folders above it whose names may not be durable yet.
    pub(super) fn above(&self, path: &Path) -> Vec<PathBuf> {
        let folders = self.folders();
        if folders.is_empty() {
            return Vec::new();
        }
        path.ancestors()
            .filter(|folder| folders.contains(*folder))
            .map(Path::to_path_buf)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::durable::{SyncObserver, Syncer};
    use crate::{FolderStorage, RootOptions};
    use std::fs::File;
    use std::os::unix::fs::MetadataExt;
    use std::sync::Arc;
    use voicebox_core::contain::{RelPath, resolve_inside_root};

    /// The inodes of the folders synced.
    #[derive(Default)]
    struct Folders(Mutex<Vec<u64>>);

    impl SyncObserver for Folders {
        fn file_synced(&self, _: &File) {}
        fn folder_synced(&self, folder: &File) {
            self.0
                .lock()
                .unwrap()
                .push(folder.metadata().unwrap().ino());
        }
    }

    impl Folders {
        fn taken(&self) -> Vec<u64> {
            std::mem::take(&mut self.0.lock().unwrap())
        }
    }

    fn ino(path: &Path) -> u64 {
        std::fs::metadata(path).unwrap().ino()
    }

    fn name(n: &str) -> RelPath {
        resolve_inside_root(n).unwrap()
    }

    /// A root whose folder syncs are watched, its host's own folders made.
    fn watched() -> (tempfile::TempDir, PathBuf, FolderStorage, Arc<Folders>) {
        let dir = tempfile::TempDir::new().unwrap();
        let root = dir.path().join("root");
        std::fs::create_dir(&root).unwrap();
        let folders = Arc::new(Folders::default());
        let options = RootOptions {
            sync: Syncer::observed(folders.clone()),
            anchors: Some(dir.path().join("anchors")),
            ..RootOptions::default()
        };
        let storage = FolderStorage::open_with(&root, "w", options).unwrap();
        storage.write_file(&name("warm.md"), b"w").unwrap();
        folders.taken();
        (dir, root, storage, folders)
    }

    #[test]
    fn folders_made_for_a_write_are_synced_and_unlisted_when_it_is_done() {
        let (_dir, root, storage, folders) = watched();
        storage.write_file(&name("m/n/a.md"), b"a").unwrap();
        let synced = folders.taken();
        for above in [root.clone(), root.join("m")] {
            assert!(synced.contains(&ino(&above)), "{above:?} synced");
        }
        assert!(storage.made.above(Path::new("m/n")).is_empty());
        // A folder that could not be made is not left listed either.
        std::fs::write(root.join("f"), "a file").unwrap();
        assert!(storage.write_file(&name("f/g/x.md"), b"x").is_err());
        assert!(storage.made.above(Path::new("f/g")).is_empty());
    }

    #[test]
    fn a_write_under_a_folder_made_beside_it_syncs_the_way_to_it() {
        let (_dir, root, storage, folders) = watched();
        // As a change beside this one leaves it between making the folder
        // and syncing the root.
        storage.made.making(Path::new("x"));
        std::fs::create_dir(root.join("x")).unwrap();
        storage.write_file(&name("x/b.md"), b"b").unwrap();
        let synced = folders.taken();
        assert!(synced.contains(&ino(&root)), "the root, above x, is synced");
        assert!(synced.contains(&ino(&root.join("x"))));
        // Control: once x's name is durable, a write into it syncs x alone.
        storage.made.settled(Path::new("x"));
        storage.write_file(&name("x/c.md"), b"c").unwrap();
        let synced = folders.taken();
        assert!(!synced.contains(&ino(&root)), "{synced:?}");
        assert!(synced.contains(&ino(&root.join("x"))));
    }

    #[test]
    fn a_folder_is_listed_from_its_making_until_its_name_is_durable() {
        let made = Made::default();
        made.making(Path::new("x"));
        made.making(Path::new("x/y"));
        assert_eq!(
            made.above(Path::new("x/y/z")),
            ["x/y", "x"].map(PathBuf::from)
        );
        // Control: a folder beside them is not.
        assert!(made.above(Path::new("w/y")).is_empty());
        made.settled(Path::new("x"));
        assert_eq!(made.above(Path::new("x/y")), [PathBuf::from("x/y")]);
    }
}
