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
    assert_eq!(
        refused(&rig.run(write("a.txt", "y"))),
        Rule::RootUnreachable
    );
    assert!(!root.exists(), "nothing was re-created");
    // A new folder at the same path is a different folder.
    std::fs::create_dir(&root).unwrap();
    assert_eq!(
        refused(&rig.run(write("a.txt", "y"))),
        Rule::RootUnreachable
    );
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
    let again = rig.run(write("a.txt", "after"));
    assert!(again.ok, "{again:?}");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("a.txt")).unwrap(),
        "after"
    );
}
