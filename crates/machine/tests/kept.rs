//! What the undo journal keeps of a file a change replaces or removes, on a
//! real folder: the file itself under a second name where it can be, a copy
//! where a second name would not stay the host's alone, never a name shared
//! with the person's file once the change is over (or was cut short). And
//! the empty staged files made ahead of writes are used only while they are
//! still what the host made.

mod common;

use common::{Rig, refused, write};
use serde_json::json;
use std::os::unix::fs::MetadataExt;
use std::path::Path;
use tempfile::TempDir;
use voicebox_core::Rule;
use voicebox_core::executor::Executor;
use voicebox_core::tier::Placement;
use voicebox_machine::{FolderStorage, MachineEnv};

fn rig_in(dir: &Path) -> Rig<FolderStorage> {
    let mut ex = Executor::new(Placement::Machine, "test", MachineEnv, ());
    ex.declare(FolderStorage::open(dir, "test").unwrap(), "root@machine");
    Rig {
        ex,
        world: |storage, path| std::fs::read(storage.path().join(path)).ok(),
    }
}

fn ino(path: &Path) -> u64 {
    std::fs::symlink_metadata(path).unwrap().ino()
}

/// The journal's kept files: (inode, names it has, bytes).
fn kept(root: &Path) -> Vec<(u64, u64, String)> {
    let Ok(entries) = std::fs::read_dir(root.join(".voicebox/undo")) else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().ends_with(".bin"))
        .map(|e| {
            let meta = std::fs::symlink_metadata(e.path()).unwrap();
            let bytes = std::fs::read_to_string(e.path()).unwrap();
            (meta.ino(), meta.nlink(), bytes)
        })
        .collect()
}

/// The inode of the kept file holding `bytes`.
fn kept_holding(root: &Path, bytes: &str) -> u64 {
    kept(root)
        .into_iter()
        .find(|(_, _, kept)| kept == bytes)
        .map(|(ino, ..)| ino)
        .unwrap_or_else(|| panic!("nothing kept holds {bytes:?}"))
}

#[test]
fn a_replaced_file_is_kept_by_a_second_name_and_a_file_with_another_name_is_copied() {
    let dir = TempDir::new().unwrap();
    let root = dir.path();
    let mut rig = rig_in(root);
    rig.done(write("a.txt", "one"));
    let first = ino(&root.join("a.txt"));
    rig.done(write("a.txt", "two"));
    // The file replaced is the one kept: no bytes copied, one name left.
    assert_eq!(kept(root), vec![(first, 1, "one".into())]);

    // A file the person gave two names: the other name must not become
    // the journal's, so its bytes are copied.
    std::fs::write(root.join("b.txt"), "old b").unwrap();
    std::fs::hard_link(root.join("b.txt"), root.join("b-also.txt")).unwrap();
    let shared = ino(&root.join("b.txt"));
    rig.done(write("b.txt", "new b"));
    assert_ne!(kept_holding(root, "old b"), shared);
    assert_eq!(ino(&root.join("b-also.txt")), shared);

    // A link written through: its target is kept as a copy.
    std::fs::write(root.join("d.txt"), "old d").unwrap();
    std::os::unix::fs::symlink("d.txt", root.join("l.txt")).unwrap();
    let target = ino(&root.join("d.txt"));
    rig.done(write("l.txt", "new d"));
    assert_ne!(kept_holding(root, "old d"), target);

    // A delete keeps the file itself too; every kept file has one name.
    let doomed = ino(&root.join("a.txt"));
    let asked = rig.run(json!({"verb": "delete", "name": "a.txt"}));
    rig.yes_to(&asked);
    assert!(kept(root).contains(&(doomed, 1, "two".into())));
    assert!(kept(root).iter().all(|(_, names, _)| *names == 1));

    // Each is put back by undo, newest first.
    for expected in [("a.txt", "two"), ("d.txt", "old d"), ("b.txt", "old b")] {
        assert!(rig.run(json!({"verb": "undo"})).ok);
        assert_eq!(rig.file(expected.0).as_deref(), Some(expected.1));
    }
    assert_eq!(rig.file("b-also.txt").as_deref(), Some("old b"));
}

#[test]
fn a_change_that_fails_after_keeping_leaves_the_file_with_one_name() {
    let dir = TempDir::new().unwrap();
    let root = dir.path();
    let mut rig = rig_in(root);
    rig.done(write("a.txt", "one"));
    // The staging folder is not a folder: the write fails after the journal
    // kept a.txt.
    std::fs::remove_dir_all(root.join(".voicebox/tmp")).unwrap();
    std::fs::write(root.join(".voicebox/tmp"), "").unwrap();
    let reply = rig.run(write("a.txt", "two"));
    assert!(!reply.ok, "{reply:?}");
    let meta = std::fs::metadata(root.join("a.txt")).unwrap();
    assert_eq!(meta.nlink(), 1, "the journal keeps no second name of a.txt");
    assert!(kept(root).iter().all(|(ino, _, _)| *ino != meta.ino()));
    // Positive control: a.txt reads as itself, and once the staging folder
    // is back the write goes through and the file it replaced is kept.
    assert!(rig.run(json!({"verb": "read", "name": "a.txt"})).ok);
    std::fs::remove_file(root.join(".voicebox/tmp")).unwrap();
    rig.done(write("a.txt", "two"));
    assert!(kept(root).contains(&(meta.ino(), 1, "one".into())));
}

#[test]
fn a_second_name_left_by_a_cut_short_change_is_taken_back_at_the_next_open() {
    let dir = TempDir::new().unwrap();
    let root = dir.path();
    let mut rig = rig_in(root);
    rig.done(write("a.txt", "one"));
    rig.done(write("a.txt", "two"));
    let [(earlier, 1, _)] = kept(root)[..] else {
        panic!("one kept file: {:?}", kept(root))
    };
    // A power cut after the journal linked a.txt and before it was replaced.
    let cut = root
        .join(".voicebox/undo")
        .join(format!("{}.bin", "c".repeat(32)));
    std::fs::hard_link(root.join("a.txt"), &cut).unwrap();
    let reply = rig.run(json!({"verb": "read", "name": "a.txt"}));
    assert_eq!(refused(&reply), Rule::ProtectedAudit, "{reply:?}");
    drop(rig);

    let mut rig = rig_in(root);
    assert_eq!(std::fs::metadata(root.join("a.txt")).unwrap().nlink(), 1);
    assert!(!cut.exists());
    assert_eq!(rig.file("a.txt").as_deref(), Some("two"));
    // Positive control: the kept file with one name is left as it was.
    assert!(kept(root).contains(&(earlier, 1, "one".into())));
    assert!(rig.run(json!({"verb": "read", "name": "a.txt"})).ok);
}

/// The files with no name in the staging folder this process holds open:
/// the staged files made ahead (`/proc` shows them as `#<inode> (deleted)`).
fn unnamed_held(root: &Path) -> usize {
    let staging = std::fs::canonicalize(root.join(".voicebox/tmp")).unwrap();
    let prefix = format!("{}/#", staging.display());
    std::fs::read_dir("/proc/self/fd")
        .unwrap()
        .flatten()
        .filter_map(|fd| std::fs::read_link(fd.path()).ok())
        .filter(|target| target.to_string_lossy().starts_with(&prefix))
        .count()
}

/// Waits (up to ten seconds) until `count` staged files are made ahead.
fn made_ahead(root: &Path, count: usize) {
    for _ in 0..1000 {
        if unnamed_held(root) == count {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    panic!("{} made ahead, not {count}", unnamed_held(root));
}

#[test]
fn staged_files_made_ahead_have_no_name_and_go_with_their_root() {
    let dir = TempDir::new().unwrap();
    let root = dir.path();
    let mut rig = rig_in(root);
    rig.done(write("a.txt", "one"));
    made_ahead(root, 4);
    for round in 0..8 {
        rig.done(write("b.txt", &format!("fresh {round}")));
        assert_eq!(rig.file("b.txt"), Some(format!("fresh {round}")));
    }
    made_ahead(root, 4);
    // A staged file made ahead is given the permissions a file created by
    // name gets (this process's umask), not what it was opened with.
    std::fs::write(root.join("reference.txt"), "").unwrap();
    let mode = |name: &str| std::fs::metadata(root.join(name)).unwrap().mode() & 0o777;
    assert_eq!(mode("b.txt"), mode("reference.txt"));
    // Nothing in the staging folder has a name: nothing there to swap,
    // sweep or leave behind.
    let named: Vec<_> = std::fs::read_dir(root.join(".voicebox/tmp"))
        .unwrap()
        .collect();
    assert!(named.is_empty(), "{named:?}");
    drop(rig);
    assert_eq!(unnamed_held(root), 0);
}

#[test]
fn a_journal_line_that_cannot_be_written_takes_back_the_name_it_kept() {
    let dir = TempDir::new().unwrap();
    let root = dir.path();
    let mut rig = rig_in(root);
    rig.done(write("a.txt", "one"));
    let index = root.join(".voicebox/undo/journal.jsonl");
    let lines = std::fs::read(&index).unwrap();
    std::fs::remove_file(&index).unwrap();
    std::fs::create_dir(&index).unwrap();
    let reply = rig.run(write("a.txt", "two"));
    assert_eq!(refused(&reply), Rule::StorageFailed, "{reply:?}");
    assert_eq!(std::fs::metadata(root.join("a.txt")).unwrap().nlink(), 1);
    assert!(rig.run(json!({"verb": "read", "name": "a.txt"})).ok);
    // Positive control: with its index back, the journal keeps a.txt itself.
    std::fs::remove_dir(&index).unwrap();
    std::fs::write(&index, lines).unwrap();
    let first = ino(&root.join("a.txt"));
    rig.done(write("a.txt", "two"));
    assert!(kept(root).contains(&(first, 1, "one".into())));
}

#[test]
fn the_kept_files_a_compacted_journal_forgets_are_removed_after_it() {
    let dir = TempDir::new().unwrap();
    let root = dir.path();
    let mut rig = rig_in(root);
    let writes = 2 * voicebox_core::journal::COMPACT_AFTER_LINES;
    for i in 0..writes {
        rig.done(write("a.txt", &format!("v{i}")));
    }
    // Removed on the sync pool, after the index no longer names them.
    let bound = voicebox_core::journal::COMPACT_AFTER_LINES;
    for _ in 0..1000 {
        if kept(root).len() <= bound {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let left = kept(root);
    assert!(left.len() <= bound, "{} of {writes} kept", left.len());
    assert!(left.iter().all(|(_, names, _)| *names == 1));
    // Positive control: the newest are still there to undo.
    for i in (writes - 5..writes).rev() {
        assert!(rig.run(json!({"verb": "undo"})).ok);
        assert_eq!(rig.file("a.txt"), Some(format!("v{}", i - 1)));
    }
}
