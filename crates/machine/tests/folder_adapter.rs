//! Check 8a, second adapter: the same executor checks over a real folder,
//! plus what only a real folder can show (a removed root, an unwritable log).

mod common;

use common::{Rig, refused, write};
use tempfile::TempDir;
use voicebox_core::Rule;
use voicebox_core::executor::Executor;
use voicebox_core::tier::Placement;
use voicebox_machine::{FolderStorage, MachineEnv};

/// A rig over a fresh folder; the folder lives as long as the returned guard.
fn rig_in(dir: &std::path::Path) -> Rig<FolderStorage> {
    let mut ex = Executor::new(Placement::Machine, "test", MachineEnv, ());
    ex.declare(FolderStorage::open(dir, "test").unwrap(), "root@machine");
    Rig {
        ex,
        world: |storage, path| std::fs::read(storage.path().join(path)).ok(),
    }
}

fn rig() -> Rig<FolderStorage> {
    // Leaked on purpose: each test's folder must outlive its rig.
    let dir = Box::leak(Box::new(TempDir::new().unwrap()));
    rig_in(dir.path())
}

adapter_checks!(rig);

#[test]
fn a_root_removed_mid_session_answers_root_unreachable() {
    let dir = TempDir::new().unwrap();
    let root = dir.path().join("root");
    std::fs::create_dir(&root).unwrap();
    let mut rig = rig_in(&root);
    assert!(rig.run(write("a.txt", "x")).ok);
    std::fs::remove_dir_all(&root).unwrap();
    rig.assert_refused(write("a.txt", "y"), Rule::RootUnreachable);
    assert!(!root.exists(), "nothing was re-created");
    // A new folder at the same path is a different folder.
    std::fs::create_dir(&root).unwrap();
    rig.assert_refused(write("a.txt", "y"), Rule::RootUnreachable);
}

#[test]
fn an_unwritable_audit_folder_fails_closed_and_leaves_the_file_untouched() {
    let dir = TempDir::new().unwrap();
    let mut rig = rig_in(dir.path());
    assert!(rig.run(write("a.txt", "before")).ok);
    // Root ignores permission bits, so make the log's path unusable instead:
    // the audit file becomes a folder.
    let audit = dir.path().join(".audit");
    let name = rig.ex.storage().unwrap().audit_file_name().to_string();
    std::fs::remove_dir_all(&audit).unwrap();
    std::fs::create_dir_all(audit.join(&name)).unwrap();
    let reply = rig.run(write("a.txt", "after"));
    assert_eq!(refused(&reply), Rule::AuditUnwritable);
    assert_eq!(reply.logged, None);
    assert_eq!(
        std::fs::read_to_string(dir.path().join("a.txt")).unwrap(),
        "before"
    );
    // Positive control: once the log can be written again, the act happens.
    std::fs::remove_dir_all(audit.join(&name)).unwrap();
    rig.done(write("a.txt", "after"));
    assert_eq!(
        std::fs::read_to_string(dir.path().join("a.txt")).unwrap(),
        "after"
    );
}

/// A move judges both ends where they really are: a link is never moved
/// (where a relative link leads depends on where it sits), a host folder
/// renamed while the host holds it is still the host's, a second name of
/// the log is the log, and a folder on the way out through a link is out.
/// The plain move beside them goes through.
#[test]
fn a_move_never_carries_a_link_a_host_folder_or_a_twin_of_the_log() {
    use serde_json::json;
    use std::os::unix::fs::symlink;
    let dir = TempDir::new().unwrap();
    let root = dir.path().join("root");
    std::fs::create_dir(&root).unwrap();
    let outside = dir.path().join("outside");
    std::fs::create_dir(&outside).unwrap();
    let mut rig = rig_in(&root);
    assert!(rig.run(write("a.txt", "a")).ok);
    symlink("a.txt", root.join("link.txt")).unwrap();
    symlink(&outside, root.join("out")).unwrap();
    let log = root
        .join(".audit")
        .join(rig.ex.storage().unwrap().audit_file_name());
    std::fs::hard_link(&log, root.join("twin.txt")).unwrap();
    let cases = [
        ("link.txt", "moved.txt", Rule::IsALink),
        ("a.txt", "out/a.txt", Rule::SymlinkOut),
        ("twin.txt", "moved.txt", Rule::ProtectedAudit),
    ];
    for (name, to, rule) in cases {
        let reply = rig.run(json!({"verb": "move", "name": name, "to": to}));
        assert_eq!(refused(&reply), rule, "{name} → {to}: {reply:?}");
    }
    assert!(root.join("link.txt").is_symlink());
    assert!(!root.join("moved.txt").exists() && !outside.join("a.txt").exists());
    // The host's own folder, renamed while the host holds it.
    std::fs::rename(root.join(".voicebox"), root.join("pub")).unwrap();
    let reply = rig.run(json!({"verb": "move", "name": "pub", "to": "elsewhere"}));
    assert_eq!(refused(&reply), Rule::ProtectedAudit, "{reply:?}");
    assert!(root.join("pub").is_dir());
    // Positive control: the plain file moves.
    rig.done(json!({"verb": "move", "name": "a.txt", "to": "b.txt"}));
    assert_eq!(std::fs::read_to_string(root.join("b.txt")).unwrap(), "a");
}

/// A folder holding only hidden files is not empty: it is not deleted.
#[test]
fn a_folder_with_hidden_files_is_not_empty() {
    use serde_json::json;
    let dir = TempDir::new().unwrap();
    let mut rig = rig_in(dir.path());
    std::fs::create_dir_all(dir.path().join("old")).unwrap();
    std::fs::write(dir.path().join("old/.DS_Store"), "x").unwrap();
    let reply = rig.run(json!({"verb": "delete", "name": "old"}));
    assert_eq!(refused(&reply), Rule::FolderNotEmpty);
    assert!(dir.path().join("old/.DS_Store").exists());
    std::fs::remove_file(dir.path().join("old/.DS_Store")).unwrap();
    let asked = rig.run(json!({"verb": "delete", "name": "old"}));
    rig.yes_to(&asked);
    assert!(!dir.path().join("old").exists());
}
