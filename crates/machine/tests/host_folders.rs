//! The host's own folders are the host's: `.audit`, `.voicebox` and the
//! folders under them are opened without following links, so a link, pipe or
//! file planted there refuses the root by name and nothing in it changes; a
//! host folder reached under another name is still the host's; the undo
//! journal puts back and removes only what the host wrote; the start-up sweep
//! removes only the host's own stale temporaries, each removal audited. Each
//! refusal sits beside the ordinary folder that works.

mod common;
mod planted;

use common::{host_on, refused, write, written_through};
use serde_json::json;
use std::os::unix::fs::symlink;
use std::path::Path;
use std::time::{Duration, SystemTime};
use tempfile::TempDir;
use voicebox_core::Rule;
use voicebox_core::journal::{self, JournalEntry, Line, Remembered};
use voicebox_machine::{Host, OpenError};

/// Sets `path`'s modification time `ago` in the past (not following a link).
fn aged(path: &Path, ago: Duration) {
    std::fs::File::options()
        .write(true)
        .open(path)
        .unwrap()
        .set_modified(SystemTime::now() - ago)
        .unwrap();
}

const HOUR: Duration = Duration::from_secs(3600);

/// Every name under `dir` (links not followed), sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        out.push(path.strip_prefix(dir).unwrap().display().to_string());
        if std::fs::symlink_metadata(&path).unwrap().is_dir() {
            let inner = names(&path);
            let folder = path.file_name().unwrap().to_string_lossy().into_owned();
            out.extend(inner.into_iter().map(|n| format!("{folder}/{n}")));
        }
    }
    out.sort();
    out
}

/// Declaring `root` fails with the host-folder error naming `path` as `found`.
fn refused_open(root: &Path, path: &str, found: &str) {
    match Host::new("owner", ()).declare(root) {
        Err(OpenError::HostFolder {
            path: named,
            found: what,
            ..
        }) => {
            assert_eq!((named.as_str(), what), (path, found));
        }
        Err(other) => panic!("{path}: another error: {other}"),
        Ok(()) => panic!("{path}: the root was opened"),
    }
}

#[test]
fn a_link_in_the_staging_folder_refuses_the_root_and_removes_nothing() {
    let dir = TempDir::new().unwrap();
    let root = dir.path();
    planted::old_files(root);
    std::fs::create_dir(root.join(".voicebox")).unwrap();
    for target in ["..", "../docs"] {
        let _ = std::fs::remove_file(root.join(".voicebox/tmp"));
        symlink(target, root.join(".voicebox/tmp")).unwrap();
        let before = names(root);
        refused_open(root, ".voicebox/tmp", "a link");
        assert_eq!(names(root), before, "nothing made, nothing removed");
        let error = Host::new("owner", ())
            .declare(root)
            .unwrap_err()
            .to_string();
        assert!(
            error.contains(".voicebox/tmp") && error.contains("remove or rename"),
            "{error}"
        );
    }
    // Positive control: the link gone, the root opens and the old files stay.
    std::fs::remove_file(root.join(".voicebox/tmp")).unwrap();
    let mut host = host_on("owner", root);
    assert!(host.execute(&json!({"verb": "list"}), None).ok);
    planted::assert_old_files_kept(root);
}

#[test]
fn links_pipes_and_files_at_every_host_folder_are_refused_by_name() {
    let outside = TempDir::new().unwrap();
    for (plant, path, found) in planted::plants() {
        let dir = TempDir::new().unwrap();
        let root = dir.path();
        std::fs::create_dir(root.join("pub")).unwrap();
        plant(root);
        refused_open(root, path, found);
        assert_eq!(
            std::fs::read_dir(root.join("pub")).unwrap().count(),
            0,
            "{path}: nothing written through it"
        );
        assert!(
            path == ".audit" || std::fs::symlink_metadata(root.join(".audit")).is_err(),
            "{path}: no log was started"
        );
        assert_eq!(std::fs::read_dir(outside.path()).unwrap().count(), 0);
    }
}

#[test]
fn ordinary_host_folders_and_a_link_elsewhere_in_the_root_work() {
    let dir = TempDir::new().unwrap();
    let root = dir.path();
    // Folders made by hand beforehand, as a copied project would carry them.
    for folder in [
        ".audit", ".voicebox/tmp", ".voicebox/undo", ".voicebox/writers",
    ] {
        std::fs::create_dir_all(root.join(folder)).unwrap();
    }
    std::fs::create_dir(root.join("pub")).unwrap();
    symlink("pub", root.join("docs")).unwrap();
    let mut host = host_on("owner", root);
    written_through(&mut host, "docs/n.txt", &root.join("pub/n.txt"), "v1");
    assert!(
        host.execute(&json!({"verb": "list", "dir": "docs"}), None)
            .ok
    );
    let again = host.execute(&write("docs/n.txt", "v2"), None);
    assert!(again.ok);
    assert!(host.execute(&json!({"verb": "undo"}), None).ok);
    assert_eq!(
        std::fs::read_to_string(root.join("pub/n.txt")).unwrap(),
        "v1"
    );
}

#[test]
fn the_log_folder_moved_under_another_name_is_still_the_host_s() {
    let dir = TempDir::new().unwrap();
    let root = dir.path();
    let mut host = host_on("owner", root);
    assert!(host.execute(&write("a.txt", "x"), None).ok);
    let log = std::fs::read_dir(root.join(".audit"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .find(|n| n.ends_with(".jsonl"))
        .unwrap();
    // Renamed while the host holds it: the same folder, by what it is.
    std::fs::rename(root.join(".audit"), root.join("pub")).unwrap();
    std::fs::rename(root.join(".voicebox"), root.join("kept")).unwrap();
    let history = std::fs::read(root.join("pub").join(&log)).unwrap();
    let moved = format!("pub/{log}");
    for action in [
        json!({"verb": "read", "name": moved}),
        json!({"verb": "write", "name": moved, "content": "gone"}),
        json!({"verb": "edit", "name": moved, "oldText": "a.txt", "newText": "b"}),
        json!({"verb": "list", "dir": "pub"}),
        json!({"verb": "read", "name": "kept/undo/journal.jsonl"}),
        json!({"verb": "write", "name": "kept/undo/journal.jsonl", "content": "{}"}),
    ] {
        let reply = host.execute(&action, None);
        assert_eq!(refused(&reply), Rule::ProtectedAudit, "{action}: {reply:?}");
    }
    assert_eq!(
        std::fs::read(root.join("pub").join(&log)).unwrap(),
        history,
        "the moved log was not changed"
    );
    // Positive control: the person's own files and folders still work.
    assert!(host.execute(&write("other/b.txt", "y"), None).ok);
    assert_eq!(
        host.execute(&json!({"verb": "read", "name": "a.txt"}), None)
            .content
            .as_deref(),
        Some("x")
    );
}

/// Two writes of `w.txt` (v1, then v2): the journal's last entry keeps v1.
fn written_twice(root: &Path) -> (Host, JournalEntry) {
    let mut host = host_on("owner", root);
    for content in ["v1", "v2"] {
        let reply = host.execute(
            &json!({"verb": "write", "name": "w.txt", "content": content}),
            None,
        );
        assert!(reply.ok, "{reply:?}");
    }
    let index = std::fs::read_to_string(root.join(".voicebox/undo/journal.jsonl")).unwrap();
    let last = journal::replay(&index).0.pop().unwrap();
    assert_eq!(last.prior.as_deref(), Some(journal::digest(b"v1").as_str()));
    (host, last)
}

fn push(root: &Path, entry: JournalEntry) {
    let mut index = std::fs::read_to_string(root.join(".voicebox/undo/journal.jsonl")).unwrap();
    index.push_str(&Line::Push(entry).text());
    std::fs::write(root.join(".voicebox/undo/journal.jsonl"), index).unwrap();
}

#[test]
fn a_forged_journal_line_puts_nothing_back_and_removes_nothing() {
    let dir = TempDir::new().unwrap();
    let root = dir.path();
    let (mut host, _) = written_twice(root);
    std::fs::write(root.join("victim.bin"), "v9").unwrap();
    std::fs::create_dir(root.join(".secret")).unwrap();
    std::fs::write(root.join(".secret/k.bin"), "v9").unwrap();
    for id in ["../../victim", "../../.secret/k", "victim"] {
        push(
            root,
            JournalEntry {
                id: id.into(),
                verb: Remembered::Write,
                path: "w.txt".into(),
                before: Some(2),
                after: Some(journal::digest(b"v2")),
                prior: None,
                to: None,
            },
        );
        let reply = host.execute(&json!({"verb": "undo"}), None);
        assert_eq!(refused(&reply), Rule::UndoStale, "{id}: {reply:?}");
        assert_eq!(std::fs::read_to_string(root.join("w.txt")).unwrap(), "v2");
        assert!(root.join("victim.bin").exists() && root.join(".secret/k.bin").exists());
    }
}

#[test]
fn a_blob_that_is_not_what_the_journal_kept_is_undo_stale_and_stays() {
    let dir = TempDir::new().unwrap();
    let root = dir.path();
    let (mut host, last) = written_twice(root);
    let blob = root.join(format!(".voicebox/undo/{}.bin", last.id));
    // Same length, other bytes: only the digest tells.
    std::fs::write(&blob, "XX").unwrap();
    let reply = host.execute(&json!({"verb": "undo"}), None);
    assert_eq!(refused(&reply), Rule::UndoStale, "{reply:?}");
    assert_eq!(std::fs::read_to_string(root.join("w.txt")).unwrap(), "v2");
    assert!(blob.exists(), "the blob was not removed");
    // A link where the blob was names nothing the host wrote.
    std::fs::write(root.join("elsewhere.bin"), "v1").unwrap();
    std::fs::remove_file(&blob).unwrap();
    symlink("../../elsewhere.bin", &blob).unwrap();
    assert_eq!(
        refused(&host.execute(&json!({"verb": "undo"}), None)),
        Rule::UndoStale
    );
    assert!(root.join("elsewhere.bin").exists());
    // Positive control: the bytes the host kept undo, and the blob goes.
    std::fs::remove_file(&blob).unwrap();
    std::fs::write(&blob, "v1").unwrap();
    let reply = host.execute(&json!({"verb": "undo"}), None);
    assert!(reply.ok, "{reply:?}");
    assert_eq!(std::fs::read_to_string(root.join("w.txt")).unwrap(), "v1");
    assert!(!blob.exists());
}

#[test]
fn a_line_from_before_digests_undoes_when_its_blob_has_its_size() {
    let dir = TempDir::new().unwrap();
    let root = dir.path();
    let (mut host, last) = written_twice(root);
    // The same change as an older host recorded it: no digest of the blob.
    push(
        root,
        JournalEntry {
            prior: None,
            ..last.clone()
        },
    );
    let blob = root.join(format!(".voicebox/undo/{}.bin", last.id));
    std::fs::write(&blob, "v1-and-more").unwrap();
    assert_eq!(
        refused(&host.execute(&json!({"verb": "undo"}), None)),
        Rule::UndoStale
    );
    std::fs::write(&blob, "v1").unwrap();
    assert!(host.execute(&json!({"verb": "undo"}), None).ok);
    assert_eq!(std::fs::read_to_string(root.join("w.txt")).unwrap(), "v1");
}

#[test]
fn the_sweep_removes_only_the_host_s_own_stale_temporaries_each_audited() {
    let dir = TempDir::new().unwrap();
    let root = dir.path();
    let tmp = root.join(".voicebox/tmp");
    std::fs::create_dir_all(&tmp).unwrap();
    let own = "staged-0123456789abcdef0123456789abcdef";
    let fresh = "staged-fedcba9876543210fedcba9876543210";
    let linked = "staged-00000000000000000000000000000000";
    std::fs::write(tmp.join(own), "half").unwrap();
    std::fs::write(tmp.join(fresh), "half").unwrap();
    std::fs::write(tmp.join("interrupted"), "foreign").unwrap();
    std::fs::write(tmp.join("staged-notanid"), "foreign").unwrap();
    std::fs::write(root.join("mine.txt"), "the person's").unwrap();
    symlink("../../mine.txt", tmp.join(linked)).unwrap();
    for old in [own, "interrupted", "staged-notanid"] {
        aged(&tmp.join(old), HOUR);
    }
    aged(&root.join("mine.txt"), HOUR);
    let host = host_on("owner", root);
    let mut left: Vec<String> = std::fs::read_dir(&tmp)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    assert_eq!(
        left,
        ["interrupted", linked, fresh, "staged-notanid"],
        "only the host's own stale temporary was removed"
    );
    assert_eq!(
        std::fs::read_to_string(root.join("mine.txt")).unwrap(),
        "the person's"
    );
    // Two entries name the one removal: the attempt and its outcome.
    let page = voicebox_core::audit::page::PageRequest::first(100);
    let entries = pollster::block_on(host.executor().audit(&page))
        .unwrap()
        .entries;
    let swept: Vec<_> = entries
        .iter()
        .filter(|e| e.rule == Some(Rule::StaleTemporary))
        .collect();
    assert_eq!(swept.len(), 2, "{entries:?}");
    for entry in &swept {
        assert_eq!(entry.act.target, format!(".voicebox/tmp/{own}"));
        assert_eq!(entry.act.tool.as_deref(), Some("host"));
    }
    assert!(
        swept
            .iter()
            .any(|e| e.result == voicebox_core::audit::EntryResult::Ok)
    );
}

#[test]
fn host_folders_swapped_for_links_while_open_are_never_written_through() {
    let dir = TempDir::new().unwrap();
    let root = dir.path();
    std::fs::create_dir(root.join("pub")).unwrap();
    let mut host = host_on("owner", root);
    let write = |name: &str| json!({"verb": "write", "name": name, "content": "x"});
    assert!(host.execute(&write("a.txt"), None).ok);
    for folder in [".voicebox", ".audit"] {
        std::fs::rename(root.join(folder), root.join(format!("was{folder}"))).unwrap();
        symlink("pub", root.join(folder)).unwrap();
        // The journal's folder names the rule; a log that cannot be written
        // is the log's own refusal, naming the link.
        let reply = host.execute(&write("b.txt"), None);
        let expected = match folder {
            ".voicebox" => Rule::HostFolderNotAFolder,
            _ => Rule::AuditUnwritable,
        };
        assert_eq!(refused(&reply), expected, "{folder}: {reply:?}");
        assert!(
            reply
                .why
                .as_deref()
                .unwrap()
                .contains(&format!("`{folder}` is a link"))
        );
        assert!(!root.join("b.txt").exists(), "{folder}: nothing was done");
        assert_eq!(
            std::fs::read_dir(root.join("pub")).unwrap().count(),
            0,
            "{folder}: nothing written through the link"
        );
        // Positive control: the link gone, the host makes a fresh folder and acts.
        std::fs::remove_file(root.join(folder)).unwrap();
        let reply = host.execute(&write("b.txt"), None);
        assert!(reply.ok, "{folder}: {reply:?}");
        std::fs::remove_file(root.join("b.txt")).unwrap();
    }
}
