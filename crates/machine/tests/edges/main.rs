//! The edges of one real folder: links that resolve
//! into protected folders, hard links, special files, link loops, and the
//! bounds on reads, listings and walks. Each refusal sits beside the
//! accepted sibling that shows the rule is not simply refusing everything.

mod bounds;

#[path = "../common/mod.rs"]
mod common;

use common::{host_on, refused, write, written_through};
use serde_json::{Value, json};
use std::os::unix::fs::{FileTypeExt, symlink};
use std::path::Path;
use std::sync::mpsc;
use std::time::Duration;
use tempfile::TempDir;
use voicebox_core::{Reply, Rule};

fn names(reply: &Reply) -> Vec<String> {
    reply
        .files
        .as_ref()
        .expect("a listing")
        .iter()
        .map(|e| e.name.clone())
        .collect()
}

/// Runs `action` on a fresh host over `root` on another thread, so a host
/// that blocks (on a FIFO, say) fails the test instead of hanging it.
fn answered(root: &Path, action: Value) -> Reply {
    let (tx, rx) = mpsc::channel();
    let root = root.to_path_buf();
    std::thread::spawn(move || {
        let reply = host_on("edge", &root).execute(&action, None);
        let _ = tx.send(reply);
    });
    rx.recv_timeout(Duration::from_secs(20))
        .expect("the host answered instead of blocking")
}

fn audit_file(root: &Path) -> std::path::PathBuf {
    let audit = root.join(".audit");
    std::fs::read_dir(&audit)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .expect("an audit file")
}

#[test]
fn links_into_protected_and_dot_folders_are_refused_while_an_ordinary_link_works() {
    let dir = TempDir::new().unwrap();
    let root = dir.path();
    std::fs::write(root.join(".env"), "SECRET=hunter2\n").unwrap();
    voicebox_test_support::put_file(root, ".git/config", "[core] secret\n");
    std::fs::create_dir(root.join("docs")).unwrap();
    let mut host = host_on("edge", root);
    assert!(host.execute(&write("a.txt", "x"), None).ok);
    let log = audit_file(root);
    let writer = log.file_name().unwrap().to_string_lossy().into_owned();
    let history = std::fs::read_to_string(&log).unwrap();
    symlink(".audit", root.join("al")).unwrap();
    symlink(".voicebox", root.join("vb")).unwrap();
    symlink(".env", root.join("envlink")).unwrap();
    symlink(".git", root.join("gitlink")).unwrap();
    symlink("docs", root.join("d")).unwrap();

    let refused_by = [
        (
            Rule::ProtectedAudit,
            vec![
                json!({"verb": "write", "name": format!("al/{writer}"), "content": "forged\n"}),
                json!({"verb": "read", "name": format!("al/{writer}")}),
                json!({"verb": "list", "dir": "al"}),
                json!({"verb": "delete", "name": format!("al/{writer}")}),
                json!({"verb": "write", "name": "vb/undo/journal.jsonl", "content": "x"}),
            ],
        ),
        (
            Rule::DotfileRefused,
            vec![
                json!({"verb": "read", "name": "envlink"}),
                json!({"verb": "write", "name": "envlink", "content": "SECRET=0"}),
                json!({"verb": "edit", "name": "envlink", "oldText": "hunter2", "newText": "x"}),
                json!({"verb": "diff", "name": "envlink", "content": "x"}),
                json!({"verb": "read", "name": "gitlink/config"}),
                json!({"verb": "grep", "query": "secret", "dir": "gitlink"}),
                json!({"verb": "tool", "id": "wc", "name": "envlink"}),
            ],
        ),
    ];
    for (expected, actions) in refused_by {
        for action in actions {
            let reply = host.execute(&action, None);
            assert_eq!(refused(&reply), expected, "{action}");
        }
    }
    // History intact: the old lines are still there, and seq goes on.
    let after = std::fs::read_to_string(&log).unwrap();
    assert!(after.starts_with(&history), "the log was rewritten");
    assert!(!after.contains("forged"));
    assert_eq!(
        std::fs::read_to_string(root.join(".env")).unwrap(),
        "SECRET=hunter2\n"
    );

    // The walk and the listing do not go through them, and say so.
    let grep = host.execute(&json!({"verb": "grep", "query": "secret"}), None);
    assert!(grep.ok, "{grep:?}");
    assert!(grep.matches.as_ref().unwrap().is_empty(), "{grep:?}");
    let listed = host.execute(&json!({"verb": "list"}), None);
    assert_eq!(names(&listed), ["a.txt", "d", "docs"]);
    assert_eq!(listed.skipped.as_ref().unwrap().links, 4, "{listed:?}");

    // Positive control: a link to an ordinary folder inside works both ways.
    written_through(
        &mut host,
        "d/plan.md",
        &root.join("docs/plan.md"),
        "secret plan",
    );
    assert!(
        std::fs::symlink_metadata(root.join("d"))
            .unwrap()
            .is_symlink()
    );
    // Found once: `d` and `docs` are one real folder.
    let grep = host.execute(&json!({"verb": "grep", "query": "secret"}), None);
    assert_eq!(grep.matches.as_ref().unwrap().len(), 1, "{grep:?}");
    assert_eq!(grep.skipped.as_ref().unwrap().revisited, 1, "{grep:?}");

    // The asset folder is a name like any other: a link from it into the log is refused.
    symlink(".audit", root.join("assets")).unwrap();
    let asset = json!({"verb": "create_asset", "name": writer, "kind": "text", "body": "forged"});
    assert_eq!(refused(&host.execute(&asset, None)), Rule::ProtectedAudit);
    assert!(!std::fs::read_to_string(&log).unwrap().contains("forged"));
}

#[test]
fn a_replaced_hard_link_leaves_the_other_name_untouched_and_a_twin_of_the_log_is_the_log() {
    let dir = TempDir::new().unwrap();
    let root = dir.path();
    std::fs::write(root.join("orig.txt"), "original").unwrap();
    std::fs::hard_link(root.join("orig.txt"), root.join("twin.txt")).unwrap();
    let mut host = host_on("edge", root);
    // A read sees the shared bytes: the person made both names.
    let read = host.execute(&json!({"verb": "read", "name": "twin.txt"}), None);
    assert_eq!(read.content.as_deref(), Some("original"));
    let wrote = host.execute(&write("twin.txt", "new"), None);
    assert!(wrote.ok, "{wrote:?}");
    assert_eq!(
        std::fs::read_to_string(root.join("twin.txt")).unwrap(),
        "new"
    );
    assert_eq!(
        std::fs::read_to_string(root.join("orig.txt")).unwrap(),
        "original"
    );

    // A second name of the audit log or the journal is judged as the
    // original: refused for every verb, and the log keeps every line.
    let log = audit_file(root);
    std::fs::hard_link(&log, root.join("copy.jsonl")).unwrap();
    let journal = root.join(".voicebox/undo/journal.jsonl");
    std::fs::hard_link(&journal, root.join("journal-copy.jsonl")).unwrap();
    let before = std::fs::read_to_string(&log).unwrap();
    for action in [
        json!({"verb": "read", "name": "copy.jsonl"}),
        json!({"verb": "read", "name": "journal-copy.jsonl"}),
        json!({"verb": "write", "name": "copy.jsonl", "content": "forged\n"}),
        json!({"verb": "edit", "name": "copy.jsonl", "oldText": "seq", "newText": "qes"}),
        json!({"verb": "tool", "id": "wc", "name": "copy.jsonl"}),
    ] {
        assert_eq!(
            refused(&host.execute(&action, None)),
            Rule::ProtectedAudit,
            "{action}"
        );
    }
    let grep = host.execute(&json!({"verb": "grep", "query": "seq"}), None);
    assert!(grep.matches.as_ref().unwrap().is_empty(), "{grep:?}");
    let after = std::fs::read_to_string(&log).unwrap();
    assert!(after.starts_with(&before) && !after.contains("forged"));
    assert!(
        std::fs::read_to_string(root.join("copy.jsonl"))
            .unwrap()
            .starts_with(&before)
    );
}

#[test]
fn special_files_are_refused_at_once_and_the_next_request_is_served() {
    let dir = TempDir::new().unwrap();
    let root = dir.path();
    let fifo = root.join("pipe");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let _socket = std::os::unix::net::UnixListener::bind(root.join("sock")).unwrap();
    symlink("pipe", root.join("to-pipe")).unwrap();
    std::fs::write(root.join("notes.md"), "pipe dreams\n").unwrap();

    for action in [
        json!({"verb": "read", "name": "pipe"}),
        json!({"verb": "read", "name": "to-pipe"}),
        json!({"verb": "read", "name": "sock"}),
        json!({"verb": "diff", "name": "pipe", "content": "x"}),
        json!({"verb": "edit", "name": "pipe", "oldText": "a", "newText": "b"}),
        json!({"verb": "write", "name": "pipe", "content": "x"}),
        json!({"verb": "delete", "name": "sock"}),
        json!({"verb": "tool", "id": "wc", "name": "pipe"}),
    ] {
        assert_eq!(
            refused(&answered(root, action.clone())),
            Rule::NotARegularFile,
            "{action}"
        );
    }
    assert!(
        std::fs::symlink_metadata(&fifo)
            .unwrap()
            .file_type()
            .is_fifo()
    );

    // The walk and the listing skip them, say so, and still see the file.
    let grep = answered(root, json!({"verb": "grep", "query": "pipe"}));
    assert_eq!(grep.matches.as_ref().unwrap().len(), 1, "{grep:?}");
    assert_eq!(grep.skipped.as_ref().unwrap().special, 3, "{grep:?}");
    let listed = answered(root, json!({"verb": "list"}));
    assert_eq!(names(&listed), ["notes.md"]);
    assert_eq!(listed.skipped.as_ref().unwrap().special, 3);
    // Positive control: the regular file beside them reads.
    let read = answered(root, json!({"verb": "read", "name": "notes.md"}));
    assert_eq!(read.content.as_deref(), Some("pipe dreams\n"));
}

/// Swaps `a` and `b` of `root` (one a folder, one a link to `.audit`) as fast
/// as it can until told to stop, as a local process racing the host would.
fn swapper(
    root: &Path,
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
) -> std::thread::JoinHandle<u64> {
    use std::ffi::CString;
    use std::sync::atomic::Ordering;
    let a = CString::new(root.join("sub").into_os_string().into_encoded_bytes()).unwrap();
    let b = CString::new(root.join("alt").into_os_string().into_encoded_bytes()).unwrap();
    std::thread::spawn(move || {
        let mut swaps = 0;
        while !stop.load(Ordering::Relaxed) {
            // SAFETY: two valid NUL-terminated paths; AT_FDCWD with absolute paths.
            let done = unsafe {
                libc::renameat2(
                    libc::AT_FDCWD,
                    a.as_ptr(),
                    libc::AT_FDCWD,
                    b.as_ptr(),
                    libc::RENAME_EXCHANGE,
                )
            };
            assert_eq!(done, 0, "the swap itself works");
            swaps += 1;
        }
        swaps
    })
}

#[test]
fn a_folder_swapped_for_a_link_into_the_log_mid_act_never_reaches_it() {
    use std::sync::atomic::{AtomicBool, Ordering};
    let dir = TempDir::new().unwrap();
    let root = dir.path();
    voicebox_test_support::put_file(root, "sub/plain.txt", "plain");
    let mut host = host_on("edge", root);
    assert!(
        host.execute(&json!({"verb": "read", "name": "sub/plain.txt"}), None)
            .ok
    );
    let log = audit_file(root);
    let writer = log.file_name().unwrap().to_string_lossy().into_owned();
    symlink(".audit", root.join("alt")).unwrap();
    let history = std::fs::read_to_string(&log).unwrap();

    let stop = std::sync::Arc::new(AtomicBool::new(false));
    let swaps = swapper(root, stop.clone());
    let (mut landed, mut refused) = (0, 0);
    for i in 0..300 {
        let action = match i % 4 {
            0 => json!({"verb": "write", "name": format!("sub/{writer}"), "content": "FORGED\n"}),
            1 => json!({"verb": "write", "name": format!("sub/x{i}.txt"), "content": "x"}),
            2 => json!({"verb": "read", "name": format!("sub/{writer}")}),
            _ => json!({"verb": "list", "dir": "sub"}),
        };
        let reply = host.execute(&action, None);
        assert!(
            !reply.content.as_deref().unwrap_or("").contains("\"seq\""),
            "a read reached the log: {reply:?}"
        );
        // A write that won the race made a file of the log's name in the real
        // folder (7 bytes); the log itself is never what a listing shows.
        let listed = reply
            .files
            .iter()
            .flatten()
            .any(|f| f.name == writer && f.bytes != 7);
        assert!(!listed, "a listing showed the log's folder: {reply:?}");
        if reply.ok { landed += 1 } else { refused += 1 }
    }
    stop.store(true, Ordering::Relaxed);
    let swaps = swaps.join().unwrap();
    // Whatever the race did, the log holds every earlier line and nothing forged.
    let now = std::fs::read_to_string(&log).unwrap();
    assert!(
        now.starts_with(&history) && !now.contains("FORGED"),
        "the log was rewritten"
    );
    let in_audit: Vec<_> = std::fs::read_dir(root.join(".audit"))
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert!(
        in_audit
            .iter()
            .all(|n| n.to_string_lossy().ends_with(".jsonl")
                || n.to_string_lossy().ends_with(".lock")),
        "nothing but the log landed in .audit: {in_audit:?}"
    );
    // Both sides happened: the race was real, and acts still got through it.
    assert!(
        swaps > 100 && landed > 0 && refused > 0,
        "swaps {swaps}, landed {landed}, refused {refused}"
    );
}
