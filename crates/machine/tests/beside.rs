//! Changes run beside one another on one host, as the server runs them: a
//! write, an append, an edit or a list item on one file each, through
//! `&Host` from many threads at once. Each reads and writes its file whole,
//! so two changes of one file (by any name) must take turns; changes of
//! different files share the host, and its syncs.

mod common;

use common::{host_on, write};
use serde_json::{Value, json};
use std::path::Path;
use tempfile::TempDir;
use voicebox_core::audit::{self, AuditFile, dangling};
use voicebox_core::journal::{COMPACT_AFTER_LINES, MAX_ENTRIES};
use voicebox_core::turn::Proposal;
use voicebox_machine::Host;
use voicebox_machine::settle::settle_after;

const THREADS: usize = 12;
const EACH: usize = 8;

/// Runs `action` beside the others, as the server does: answered once its
/// lines are durable.
fn beside(host: &Host, action: Value) -> voicebox_core::Reply {
    let (reply, settle) = settle_after(|| host.beside(&Proposal::Sent(action.clone()), None));
    settle.wait().unwrap();
    reply.unwrap_or_else(|| panic!("{action} runs beside others"))
}

fn lines(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn changes_of_one_file_by_any_name_take_turns_and_none_is_lost() {
    let dir = TempDir::new().unwrap();
    let root = dir.path();
    std::fs::write(root.join("notes.md"), "").unwrap();
    // A second name for the same file, inside the root.
    std::os::unix::fs::symlink("notes.md", root.join("same.md")).unwrap();
    let host = host_on("beside", root);
    std::thread::scope(|scope| {
        for t in 0..THREADS {
            let host = &host;
            scope.spawn(move || {
                for k in 0..EACH {
                    let name = if t % 2 == 0 { "notes.md" } else { "same.md" };
                    let line = format!("t{t} k{k}");
                    let appended = json!({"verb": "append", "name": name, "content": line});
                    assert!(beside(host, appended).ok);
                    // Control: a file of its own, changed beside the others.
                    let own = format!("own-{t}.md");
                    assert!(beside(host, write(&own, &line)).ok);
                }
            });
        }
    });
    let mut got = lines(&root.join("notes.md"));
    got.sort();
    let mut wanted: Vec<String> = (0..THREADS)
        .flat_map(|t| (0..EACH).map(move |k| format!("t{t} k{k}")))
        .collect();
    wanted.sort();
    assert_eq!(got, wanted, "every append is in the file, once");
    for t in 0..THREADS {
        let own = std::fs::read_to_string(root.join(format!("own-{t}.md"))).unwrap();
        assert_eq!(own, format!("t{t} k{}", EACH - 1));
    }
    let check = host.verify_audit().unwrap();
    assert!(check.ok, "{check:?}");
    let entries: Vec<_> = std::fs::read_dir(root.join(".audit"))
        .unwrap()
        .flatten()
        .flat_map(|file| {
            let text = std::fs::read_to_string(file.path()).unwrap();
            let name = file.file_name().to_string_lossy().into_owned();
            audit::parse(&AuditFile { name, text }).1
        })
        .collect();
    assert!(
        dangling(&entries).is_empty(),
        "every attempt has its outcome"
    );
    let outcomes = entries.iter().filter(|e| e.attempt.is_some()).count();
    assert_eq!(outcomes, 2 * THREADS * EACH);
}

#[test]
fn only_changes_of_one_file_that_ask_nothing_run_beside_others() {
    let dir = TempDir::new().unwrap();
    let host = host_on("beside", dir.path());
    std::fs::write(dir.path().join("list.md"), "- [ ] milk\n- [ ] eggs\n").unwrap();
    for action in [
        write("a.md", "x"),
        json!({"verb": "write", "name": "a.md", "content": "y", "mode": "replace"}),
        json!({"verb": "append", "name": "a.md", "content": "z"}),
        json!({"verb": "edit", "name": "a.md", "oldText": "z", "newText": "w"}),
        json!({"verb": "check_item", "name": "list.md", "item": "milk"}),
        json!({"verb": "remove_item", "name": "list.md", "item": "eggs"}),
    ] {
        assert!(beside(&host, action.clone()).ok, "{action}");
    }
    for action in [
        json!({"verb": "write", "name": "a.md", "content": "v", "mode": "create"}),
        json!({"verb": "delete", "name": "a.md"}),
        json!({"verb": "move", "name": "a.md", "to": "b.md"}),
        json!({"verb": "undo"}),
        json!({"verb": "mkdir", "name": "d"}),
        json!({"verb": "read", "name": "a.md"}),
        json!({"verb": "nonsense"}),
    ] {
        let (reply, settle) = settle_after(|| host.beside(&Proposal::Sent(action.clone()), None));
        settle.wait().unwrap();
        assert!(reply.is_none(), "{action} is run alone (or is a look)");
    }
    let heard = voicebox_core::action::Action::from_json(&write("h.md", "x")).unwrap();
    assert!(host.beside(&Proposal::Heard(heard), None).is_none());
    assert!(!dir.path().join("h.md").exists());
}

#[test]
fn the_undo_index_grown_beside_others_is_compacted_when_tidied() {
    let dir = TempDir::new().unwrap();
    let root = dir.path();
    let mut host = host_on("beside", root);
    let index = root.join(".voicebox/undo/journal.jsonl");
    for k in 0..=COMPACT_AFTER_LINES {
        assert!(beside(&host, write("n.md", &format!("v{k}"))).ok);
    }
    assert!(host.executor().journal_due());
    assert!(
        lines(&index).len() > COMPACT_AFTER_LINES,
        "nothing compacted while changes may run beside"
    );
    host.tidy().unwrap();
    assert!(!host.executor().journal_due());
    assert_eq!(lines(&index).len(), MAX_ENTRIES);
    // The newest change is still undone from the compacted index.
    let undone = host.execute(&json!({"verb": "undo", "name": "n.md"}), None);
    assert!(undone.ok, "{undone:?}");
    let prior = format!("v{}", COMPACT_AFTER_LINES - 1);
    assert_eq!(std::fs::read_to_string(root.join("n.md")).unwrap(), prior);
    // Control: a change run alone compacts the index itself.
    for k in 0..=COMPACT_AFTER_LINES {
        assert!(host.execute(&write("m.md", &format!("v{k}")), None).ok);
    }
    assert!(lines(&index).len() <= COMPACT_AFTER_LINES);
}

#[test]
fn a_look_beside_changes_of_its_file_reads_one_whole_copy_and_is_never_refused() {
    let dir = TempDir::new().unwrap();
    let root = dir.path();
    let copy = |t: usize, k: usize| format!("t{t} k{k}\n").repeat(64);
    std::fs::write(root.join("notes.md"), copy(99, 0)).unwrap();
    let host = host_on("beside", root);
    let read = json!({"verb": "read", "name": "notes.md"});
    std::thread::scope(|scope| {
        for t in 0..THREADS / 2 {
            let host = &host;
            scope.spawn(move || {
                for k in 0..2 * EACH {
                    assert!(beside(host, write("notes.md", &copy(t, k))).ok);
                }
            });
        }
        for _ in 0..THREADS / 2 {
            let (host, read) = (&host, &read);
            scope.spawn(move || {
                for _ in 0..4 * EACH {
                    let reply = host.look(&Proposal::Sent(read.clone()), None);
                    let reply = reply.expect("a read is a look");
                    assert!(reply.ok, "a read beside a write of its file: {reply:?}");
                    let content = reply.content.expect("a read answers the text");
                    let first = content.lines().next().unwrap_or_default();
                    assert_eq!(content, format!("{first}\n").repeat(64), "one whole copy");
                }
            });
        }
    });
    let check = host.verify_audit().unwrap();
    assert!(check.ok, "{check:?}");
}

#[test]
fn a_link_to_a_file_not_made_yet_is_held_as_the_file_it_would_make() {
    use voicebox_core::contain::resolve_inside_root;
    use voicebox_core::platform::Storage;
    let dir = TempDir::new().unwrap();
    let root = dir.path();
    std::fs::create_dir(root.join("journal")).unwrap();
    std::os::unix::fs::symlink("journal/d.md", root.join("today.md")).unwrap();
    let host = host_on("beside", root);
    let storage = host.executor().storage().unwrap();
    let hold = |name: &str| pollster::block_on(storage.hold(&resolve_inside_root(name).unwrap()));
    let held = hold("journal/d.md");
    std::thread::scope(|scope| {
        // Control: another file is held at once.
        assert!(scope.spawn(|| drop(hold("journal/e.md"))).join().is_ok());
        let waiter = scope.spawn(|| drop(hold("today.md")));
        std::thread::sleep(std::time::Duration::from_millis(50));
        assert!(
            !waiter.is_finished(),
            "the link waits for the file it would make"
        );
        drop(held);
    });
}
