//! Check 8a, first adapter: the executor checks over the in-memory root.

mod common;

use common::Rig;
use voicebox_core::executor::Executor;
use voicebox_core::memory::MemoryStorage;
use voicebox_core::tier::Placement;
use voicebox_machine::MachineEnv;

fn rig() -> Rig<MemoryStorage> {
    let mut ex = Executor::new(Placement::Machine, "test", MachineEnv, ());
    ex.declare(MemoryStorage::new("mem", "test"), "mem@test");
    Rig {
        ex,
        world: |storage, path| storage.file(path),
    }
}

adapter_checks!(rig);

#[test]
fn a_removed_root_answers_root_unreachable() {
    let mut rig = rig();
    assert!(rig.run(common::write("a.txt", "x")).ok);
    rig.ex.storage().unwrap().set_reachable(false);
    assert_eq!(
        common::refused(&rig.run(common::write("a.txt", "y"))),
        voicebox_core::Rule::RootUnreachable
    );
}

#[test]
fn an_unwritable_audit_log_refuses_the_act_and_leaves_the_file() {
    let mut rig = rig();
    assert!(rig.run(common::write("a.txt", "before")).ok);
    rig.ex.storage().unwrap().set_audit_writable(false);
    let reply = rig.run(common::write("a.txt", "after"));
    assert_eq!(
        common::refused(&reply),
        voicebox_core::Rule::AuditUnwritable
    );
    assert_eq!(rig.file("a.txt").as_deref(), Some("before"));
}

#[test]
fn the_undo_journal_stays_bounded_and_remembers_at_least_the_last_fifty() {
    let mut rig = rig();
    for i in 0..250 {
        assert!(rig.run(common::write("a.txt", &format!("v{i}"))).ok);
    }
    let index = rig
        .ex
        .storage()
        .unwrap()
        .file(".voicebox/undo/journal.jsonl")
        .unwrap();
    let lines = String::from_utf8(index).unwrap().lines().count();
    assert!(
        lines <= voicebox_core::journal::COMPACT_AFTER_LINES,
        "{lines} lines"
    );
    for i in (200..250).rev() {
        assert!(
            rig.run(serde_json::json!({"verb": "undo"})).ok,
            "undo to v{}",
            i - 1
        );
        let expect = format!("v{}", i - 1);
        assert_eq!(rig.file("a.txt").as_deref(), Some(expect.as_str()));
    }
    // Past the fifty it still undoes what compaction kept, in order, then stops by name.
    let mut more = 0;
    loop {
        let reply = rig.run(serde_json::json!({"verb": "undo"}));
        if reply.ok {
            more += 1;
            continue;
        }
        assert_eq!(common::refused(&reply), voicebox_core::Rule::NothingToUndo);
        break;
    }
    assert!(
        more < voicebox_core::journal::COMPACT_AFTER_LINES,
        "bounded: {more} more"
    );
}
