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
        // One let go of on the sync pool meanwhile is not kept.
        .filter_map(|e| {
            let meta = std::fs::symlink_metadata(e.path()).ok()?;
            let bytes = std::fs::read_to_string(e.path()).ok()?;
            Some((meta.ino(), meta.nlink(), bytes))
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
    held(root, "#")
}

/// The files in the staging folder this process holds open whose names
/// begin with `prefix`.
fn held(root: &Path, prefix: &str) -> usize {
    let staging = std::fs::canonicalize(root.join(".voicebox/tmp")).unwrap();
    let prefix = format!("{}/{prefix}", staging.display());
    std::fs::read_dir("/proc/self/fd")
        .unwrap()
        .flatten()
        .filter_map(|fd| std::fs::read_link(fd.path()).ok())
        .filter(|target| target.to_string_lossy().starts_with(&prefix))
        .count()
}

/// The staged files made ahead this process holds open, of either kind.
fn ahead(root: &Path) -> usize {
    unnamed_held(root) + held(root, "spare-")
}

/// Waits (up to ten seconds) until `count` staged files are made ahead.
fn made_ahead(root: &Path, count: usize) {
    for _ in 0..1000 {
        if ahead(root) == count {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    panic!("{} made ahead, not {count}", ahead(root));
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
    assert_eq!(unnamed_held(root), 4, "made with no name");
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

/// The emptied files waiting in the staging folder to be written again:
/// (inode, names, length).
fn emptied(root: &Path) -> Vec<(u64, u64, u64)> {
    let Ok(entries) = std::fs::read_dir(root.join(".voicebox/tmp")) else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with("spare-"))
        .map(|e| {
            let meta = std::fs::symlink_metadata(e.path()).unwrap();
            (meta.ino(), meta.nlink(), meta.len())
        })
        .collect()
}

/// Writes `a.txt` (each version naming `tag`) until the journal is
/// compacted, and waits (up to ten seconds) until what it forgot is let go.
fn past_a_compaction(rig: &mut Rig<FolderStorage>, root: &Path, tag: &str) {
    let mut before = kept(root).len();
    for i in 0..2 * voicebox_core::journal::COMPACT_AFTER_LINES {
        rig.done(write("a.txt", &format!("{tag} {i}")));
        let now = kept(root).len();
        if now < before {
            break;
        }
        before = now;
    }
    let mut waiting = usize::MAX;
    for _ in 0..200 {
        std::thread::sleep(std::time::Duration::from_millis(50));
        let (was, now) = (waiting, emptied(root).len());
        waiting = now;
        if kept(root).len() <= voicebox_core::journal::MAX_ENTRIES + 5 && now == was {
            return;
        }
    }
    panic!("{} still kept", kept(root).len());
}

#[test]
fn files_a_compacted_journal_forgets_are_emptied_and_written_again() {
    let dir = TempDir::new().unwrap();
    let root = dir.path();
    let mut rig = rig_in(root);
    past_a_compaction(&mut rig, root, "private");
    let waiting = emptied(root);
    assert!(waiting.len() > 100, "{} emptied", waiting.len());
    // Emptied, not removed: no byte of what was forgotten is left in them.
    assert!(
        waiting
            .iter()
            .all(|&(_, names, len)| names == 1 && len == 0)
    );
    let inodes: Vec<u64> = waiting.iter().map(|&(ino, ..)| ino).collect();
    // Later writes take them: a new file is one of those inodes, holding
    // exactly its own bytes, with the permissions a new file gets.
    let mut reused = 0;
    for i in 0..8 {
        // Each write waits for the spares made again after the one before.
        made_ahead(root, 4);
        let name = format!("n{i}.txt");
        rig.done(write(&name, "fresh"));
        assert_eq!(rig.file(&name).as_deref(), Some("fresh"));
        reused += usize::from(inodes.contains(&ino(&root.join(&name))));
    }
    // Spares are taken oldest first: the four made before the compaction,
    // then emptied files.
    assert!(reused >= 4, "{reused} of 8 writes took an emptied file");
    std::fs::write(root.join("reference.txt"), "").unwrap();
    let mode = |name: &str| std::fs::metadata(root.join(name)).unwrap().mode() & 0o7777;
    for i in 0..8 {
        assert_eq!(mode(&format!("n{i}.txt")), mode("reference.txt"));
    }
}

#[test]
fn a_forgotten_file_with_another_name_or_an_attribute_is_removed_never_emptied() {
    let dir = TempDir::new().unwrap();
    let outside = dir.path().join("outside.txt");
    let root = &dir.path().join("root");
    std::fs::create_dir(root).unwrap();
    let mut rig = rig_in(root);
    rig.done(write("a.txt", "linked elsewhere"));
    rig.done(write("a.txt", "tagged"));
    rig.done(write("a.txt", "next"));
    // Another process gives the oldest kept file a second name outside the
    // root, and tags the next with an extended attribute.
    let first = kept_holding(root, "linked elsewhere");
    let second = kept_holding(root, "tagged");
    let path_of = |ino: u64| {
        std::fs::read_dir(root.join(".voicebox/undo"))
            .unwrap()
            .flatten()
            .find(|e| e.metadata().unwrap().ino() == ino)
            .unwrap()
            .path()
    };
    std::fs::hard_link(path_of(first), &outside).unwrap();
    let tagged = rustix::fs::setxattr(
        path_of(second),
        "user.origin",
        b"elsewhere",
        rustix::fs::XattrFlags::empty(),
    );
    past_a_compaction(&mut rig, root, "plain");
    // The outside name still holds every byte: its file was let go of by
    // name, not emptied.
    assert_eq!(
        std::fs::read_to_string(&outside).unwrap(),
        "linked elsewhere"
    );
    let waiting: Vec<u64> = emptied(root).iter().map(|&(ino, ..)| ino).collect();
    assert!(!waiting.contains(&first));
    match tagged {
        Ok(()) => assert!(!waiting.contains(&second), "a tagged file was emptied"),
        Err(e) if std::env::var_os("CI").is_none() => {
            eprintln!("this filesystem keeps no user attributes ({e}): that part NOT RUN")
        }
        Err(e) => panic!("this filesystem keeps no user attributes ({e})"),
    }
    // Positive control: the plain files it forgot were emptied.
    assert!(waiting.len() > 100, "{} emptied", waiting.len());
}

#[test]
fn an_emptied_file_changed_while_it_waits_never_reaches_the_folder() {
    let dir = TempDir::new().unwrap();
    let outside = dir.path().join("outside.txt");
    let root = &dir.path().join("root");
    std::fs::create_dir(root).unwrap();
    std::fs::write(&outside, "outside").unwrap();
    let mut rig = rig_in(root);
    past_a_compaction(&mut rig, root, "v");
    // While the host holds some open, ready for the next writes, another
    // process puts bytes of its own under every waiting name.
    rig.done(write("a.txt", "take some"));
    let spares = |root: &Path| -> Vec<_> {
        let mut names: Vec<_> = std::fs::read_dir(root.join(".voicebox/tmp"))
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .filter(|p| {
                p.file_name()
                    .unwrap()
                    .to_string_lossy()
                    .starts_with("spare-")
            })
            .collect();
        names.sort();
        names
    };
    for path in spares(root) {
        std::fs::remove_file(&path).unwrap();
        std::fs::write(&path, "planted").unwrap();
    }
    for i in 0..8 {
        let name = format!("m{i}.txt");
        rig.done(write(&name, "mine"));
        assert_eq!(rig.file(&name).as_deref(), Some("mine"));
    }
    drop(rig);
    for path in spares(root) {
        std::fs::remove_file(&path).unwrap();
    }
    // Positive control: the host's own emptied files, after another round.
    let mut rig = rig_in(root);
    past_a_compaction(&mut rig, root, "w");
    drop(rig);
    // Another process changes what waits: a link out, bytes written into
    // one, a second name, a pipe. One is left as the host left it.
    let mut names = spares(root);
    // Five left waiting, so the writes below come to each.
    for path in names.drain(5..) {
        std::fs::remove_file(path).unwrap();
    }
    let untouched = names.pop().unwrap();
    let untouched_ino = ino(&untouched);
    let changed = names;
    for (i, path) in changed.iter().enumerate() {
        std::fs::remove_file(path).unwrap();
        match i % 4 {
            0 => std::os::unix::fs::symlink(&outside, path).unwrap(),
            1 => std::fs::write(path, "planted").unwrap(),
            2 => {
                std::fs::write(path, "").unwrap();
                std::fs::hard_link(path, dir.path().join(format!("also-{i}"))).unwrap();
            }
            _ => rustix::fs::mknodat(
                rustix::fs::CWD,
                path,
                rustix::fs::FileType::Fifo,
                rustix::fs::Mode::from_raw_mode(0o644),
                0,
            )
            .unwrap(),
        }
    }
    // A host opening the root takes up what waits, and writes only into
    // what is still an empty file of its own.
    let mut rig = rig_in(root);
    let mut inodes = Vec::new();
    for i in 0..12 {
        // The first write starts the spares being made.
        if i > 0 {
            made_ahead(root, 4);
        }
        let name = format!("n{i}.txt");
        rig.done(write(&name, "mine"));
        let meta = std::fs::symlink_metadata(root.join(&name)).unwrap();
        assert!(meta.is_file() && meta.nlink() == 1, "{name}: {meta:?}");
        assert_eq!(rig.file(&name).as_deref(), Some("mine"));
        inodes.push(meta.ino());
    }
    assert_eq!(std::fs::read_to_string(&outside).unwrap(), "outside");
    // Positive control: the one left as the host left it was written again.
    assert!(
        inodes.contains(&untouched_ino),
        "the untouched file was not reused"
    );
}

#[test]
fn two_hosts_on_one_root_never_change_a_file_the_other_wrote() {
    let dir = TempDir::new().unwrap();
    let root = dir.path();
    let mut before = rig_in(root);
    past_a_compaction(&mut before, root, "v");
    drop(before);
    // Two hosts open the root and take up the same emptied files in the
    // same order: each holds open the ones the other claims.
    let mut first = rig_in(root);
    let mut second = rig_in(root);
    first.done(write("a.txt", "start"));
    second.done(write("a.txt", "start"));
    made_ahead(root, 8);
    std::fs::write(root.join("reference.txt"), "").unwrap();
    let reference = std::fs::metadata(root.join("reference.txt"))
        .unwrap()
        .mode()
        & 0o7777;
    let mut written = Vec::new();
    for i in 0..12 {
        for (host, rig) in [("a", &mut first), ("b", &mut second)] {
            let name = format!("{host}{i}.txt");
            rig.done(write(&name, &format!("from {host}")));
            let meta = std::fs::metadata(root.join(&name)).unwrap();
            written.push((name, meta.modified().unwrap()));
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    drop((first, second));
    for (name, modified) in written {
        let meta = std::fs::metadata(root.join(&name)).unwrap();
        assert_eq!(meta.modified().unwrap(), modified, "{name} was dated again");
        assert_eq!(meta.mode() & 0o7777, reference, "{name}");
        let host = &name[..1];
        assert_eq!(
            std::fs::read_to_string(root.join(&name)).unwrap(),
            format!("from {host}")
        );
    }
}
