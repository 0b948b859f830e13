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
    rig.assert_refused(
        common::write("a.txt", "y"),
        voicebox_core::Rule::RootUnreachable,
    );
}

/// A root whose permission is not granted (a picked browser folder): the act
/// is refused by name before it is tried, and logged; the sibling access works.
#[test]
fn a_withheld_permission_refuses_by_name_before_the_act() {
    use voicebox_core::Rule;
    use voicebox_core::audit::EntryDecision;
    use voicebox_core::platform::{Access, Escape};
    let mut rig = rig();
    assert!(rig.run(common::write("a.txt", "before")).ok);
    let delete = rig.run(serde_json::json!({"verb": "delete", "name": "a.txt"}));
    let pending = delete.confirm.expect("asked").id;

    // Read-only: reads and listings work, every kind of change is refused.
    rig.ex
        .storage()
        .unwrap()
        .withhold(Access::Write, Some(Escape::NeedsGesture));
    let read = rig.run(serde_json::json!({"verb": "read", "name": "a.txt"}));
    assert_eq!(read.content.as_deref(), Some("before"), "{read:?}");
    assert!(rig.run(serde_json::json!({"verb": "list"})).ok);
    let write = rig.run(common::write("a.txt", "after"));
    assert_eq!(common::refused(&write), Rule::NeedsGesture);
    assert!(write.why.as_deref().unwrap().contains("Allow access"));
    let entry = rig.entry(write.logged);
    assert_eq!(entry.decision, EntryDecision::Refuse);
    assert_eq!(entry.rule, Some(Rule::NeedsGesture));
    assert!(entry.attempt.is_none(), "nothing was attempted");
    assert_eq!(
        common::refused(&rig.confirm(&pending, true)),
        Rule::NeedsGesture,
        "a yes given while write access is missing deletes nothing"
    );
    assert_eq!(
        common::refused(&rig.run(serde_json::json!({"verb": "undo"}))),
        Rule::NeedsGesture,
        "not nothing-to-undo: the journal could not be asked"
    );
    assert_eq!(rig.file("a.txt").as_deref(), Some("before"));

    // Denied reads are refused too; granting again lets the same acts through.
    rig.ex
        .storage()
        .unwrap()
        .withhold(Access::Read, Some(Escape::PermissionDenied));
    rig.assert_refused(
        serde_json::json!({"verb": "read", "name": "a.txt"}),
        Rule::PermissionDenied,
    );
    let storage = rig.ex.storage().unwrap();
    storage.withhold(Access::Read, None);
    storage.withhold(Access::Write, None);
    assert!(rig.run(common::write("a.txt", "after")).ok);
    assert!(rig.run(serde_json::json!({"verb": "undo"})).ok);
    assert_eq!(rig.file("a.txt").as_deref(), Some("before"));
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

/// A look that cannot be put on record is not answered: what it read is
/// withheld, as a change would not be made; once the log takes lines again
/// the same look answers.
#[test]
fn a_look_that_cannot_be_logged_withholds_what_it_read() {
    use serde_json::json;
    use voicebox_core::Rule;
    let mut rig = rig();
    assert!(rig.run(common::write("notes.md", "secret")).ok);
    rig.ex.storage().unwrap().set_audit_writable(false);
    for action in [
        json!({"verb": "read", "name": "notes.md"}),
        json!({"verb": "list"}),
        json!({"verb": "grep", "query": "secret"}),
        json!({"verb": "diff", "name": "notes.md", "content": "x"}),
    ] {
        let reply = rig.run(action.clone());
        assert_eq!(common::refused(&reply), Rule::AuditUnwritable, "{action}");
        assert!(reply.content.is_none() && reply.files.is_none() && reply.matches.is_none());
        assert!(reply.diff.is_none(), "{action}");
    }
    rig.ex.storage().unwrap().set_audit_writable(true);
    let read = rig.run(json!({"verb": "read", "name": "notes.md"}));
    assert_eq!(read.content.as_deref(), Some("secret"));
}

/// A root with no repository reader (the in-memory root, as the browser
/// worker's): every look at the history is refused by name and logged,
/// while the same file reads as usual.
#[test]
fn a_placement_with_no_repository_reader_refuses_history_by_name() {
    use serde_json::json;
    use voicebox_core::Rule;
    let mut rig = rig();
    assert!(rig.run(common::write("notes.md", "milk\n")).ok);
    for look in [
        json!({"verb": "changes"}),
        json!({"verb": "history", "name": "notes.md"}),
        json!({"verb": "read", "name": "notes.md", "at": "yesterday"}),
        json!({"verb": "diff", "name": "notes.md", "against": "last commit"}),
    ] {
        let reply = rig.run(look.clone());
        assert_eq!(common::refused(&reply), Rule::AbsentCapability, "{look}");
        assert_eq!(rig.entry(reply.logged).failed, Some(Rule::AbsentCapability));
    }
    let read = rig.run(json!({"verb": "read", "name": "notes.md"}));
    assert_eq!(read.content.as_deref(), Some("milk\n"));
}
