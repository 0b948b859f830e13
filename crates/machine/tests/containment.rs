//! Containment on a real folder: generated traversal payloads, and links.
//!
//! Every payload of our generator (`common/payloads.rs`: the spellings the
//! public traversal payload lists use), given as a name to a write, a read and
//! a delete, is refused by name or lands as a literal name strictly inside the
//! root; nothing outside the root changes, and nothing the host keeps in the
//! root (`.audit/`, `.voicebox/`) or hides (`.env`, `.git/`) is touched or read.

mod common;

use common::payloads::{self, CHOICES, Case};
use common::{refused, write};
use serde_json::json;
use std::collections::{BTreeMap, BTreeSet};
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use tempfile::TempDir;
use voicebox_core::{Reply, Rule};
use voicebox_machine::Host;

/// What every planted file holds; no answer may ever carry it.
const SECRET: &str = "planted bytes";

/// Every file under `dir` with its bytes, skipping `skip` (links are kept
/// as their targets, not followed).
fn snapshot(dir: &Path, skip: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path == skip {
            continue;
        }
        let meta = std::fs::symlink_metadata(&path).unwrap();
        if meta.is_symlink() {
            let target = std::fs::read_link(&path).unwrap();
            out.insert(path, target.into_os_string().into_encoded_bytes());
        } else if meta.is_dir() {
            out.extend(snapshot(&path, skip));
        } else {
            out.insert(path.clone(), std::fs::read(&path).unwrap());
        }
    }
    out
}

/// A root inside a parent folder. Beside the root: the files the payloads
/// aim at (`etc/passwd`, the state folder's `state/host-token`). In the
/// root: planted files in `.audit/`, `.voicebox/`, `.env` and `.git/`, a
/// real folder `notes/` and a link `docs` to it.
fn setup() -> (TempDir, PathBuf, Host) {
    let parent = TempDir::new().unwrap();
    let root = parent.path().join("root");
    for file in [
        "etc/passwd",
        "state/host-token",
        "root/.audit/x.jsonl",
        "root/.voicebox/probe.txt",
        "root/.env",
        "root/.git/config",
        "root/notes/a.txt",
    ] {
        voicebox_test_support::put_file(parent.path(), file, SECRET);
    }
    symlink("notes", root.join("docs")).unwrap();
    let mut host = Host::new("test", ());
    host.declare(&root).unwrap();
    (parent, root, host)
}

/// What the root holds that no act may change: everything but the host's
/// own audit file and undo journal, which every act may append to, and the
/// empty files the journal forgot, waiting to be written again.
fn untouchable(root: &Path, host: &Host) -> BTreeMap<PathBuf, Vec<u8>> {
    let storage = host.executor().storage().unwrap();
    let own_log = root.join(".audit").join(storage.audit_file_name());
    let mut out = snapshot(root, &root.join(".voicebox/undo"));
    out.remove(&own_log);
    let staging = root.join(".voicebox/tmp");
    out.retain(|path, bytes| {
        let emptied = path.starts_with(&staging)
            && path
                .file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("spare-"));
        !(emptied && bytes.is_empty())
    });
    out
}

/// No answer carries a planted file's bytes.
fn carries_no_secret(reply: &Reply, what: &str) {
    let text = serde_json::to_string(reply).unwrap();
    assert!(!text.contains(SECRET), "{what} read a planted file: {text}");
}

#[test]
fn the_generator_covers_every_pair_of_choices() {
    let cases = payloads::cases();
    assert_eq!(cases, payloads::cases(), "the same cases every run");
    assert!(cases.len() >= 1900, "{} cases", cases.len());
    let names: BTreeSet<&str> = cases.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names.len(), cases.len(), "no case repeats");
    for (a, a_size) in CHOICES.iter().enumerate() {
        for (b, b_size) in CHOICES.iter().enumerate().skip(a + 1) {
            let met: BTreeSet<(usize, usize)> =
                cases.iter().map(|c| (c.choice[a], c.choice[b])).collect();
            assert_eq!(
                met.len(),
                a_size * b_size,
                "choices {a} and {b} do not meet in every combination"
            );
        }
    }
    let escapes = cases.iter().filter(|c| c.escapes()).count();
    let hidden = cases.iter().filter(|c| !c.escapes() && c.hidden()).count();
    let literal = cases.len() - escapes - hidden;
    assert!(
        escapes > 300 && hidden > 300 && literal > 300,
        "escapes {escapes}, hidden {hidden}, literal {literal}"
    );
}

#[test]
fn every_payload_is_refused_by_name_or_lands_strictly_inside() {
    let (parent, root, mut host) = setup();
    let outside = snapshot(parent.path(), &root);
    let inside = untouchable(&root, &host);
    let real_root = std::fs::canonicalize(&root).unwrap();
    let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
    for case in payloads::cases() {
        let Case { name, .. } = &case;
        let reply = host.execute(&write(name, "payload"), None);
        carries_no_secret(&reply, name);
        let outcome = match reply.refused {
            // A traversal on this machine, a backslash or an absolute path.
            Some(rule) if case.escapes() => {
                assert_eq!(rule, Rule::OutsideRoot, "{name:?}");
                "outside-root"
            }
            // A literal name with a hidden part.
            Some(rule) => {
                assert!(case.hidden(), "{name:?} refused by {rule}");
                assert_eq!(rule, Rule::DotfileRefused, "{name:?}");
                "dotfile-refused"
            }
            None => {
                assert!(reply.ok, "{name:?}: {reply:?}");
                assert!(!case.escapes() && !case.hidden(), "{name:?} landed");
                // Landed: as the literal name, strictly inside the root and
                // outside the host's folders.
                let landed_at = std::fs::canonicalize(root.join(name)).unwrap();
                let inner = landed_at.strip_prefix(&real_root).unwrap();
                let first = inner.components().next().unwrap().as_os_str();
                assert!(first != ".audit" && first != ".voicebox", "{name:?}");
                assert_eq!(std::fs::read_to_string(&landed_at).unwrap(), "payload");
                // Read it back and delete it through the same name.
                let read = host.execute(&json!({"verb":"read","name":name}), None);
                assert_eq!(read.content.as_deref(), Some("payload"), "{name:?}");
                let ask = host.execute(&json!({"verb":"delete","name":name}), None);
                assert!(host.confirm(&ask.confirm.unwrap().id, true).ok, "{name:?}");
                assert!(!landed_at.exists());
                "landed"
            }
        };
        *seen.entry(outcome).or_default() += 1;
        for verb in ["read", "delete"] {
            let reply = host.execute(&json!({"verb":verb,"name":name}), None);
            carries_no_secret(&reply, name);
            if let Some(ask) = reply.confirm {
                panic!("{name:?} asked to delete {:?}", ask.plan);
            }
            assert!(reply.refused.is_some(), "{verb} {name:?}: {reply:?}");
        }
    }
    assert!(
        seen.len() == 3 && seen.values().all(|n| *n > 100),
        "{seen:?}"
    );
    assert_eq!(
        snapshot(parent.path(), &root),
        outside,
        "nothing outside the root changed"
    );
    assert_eq!(
        untouchable(&root, &host),
        inside,
        "nothing the host keeps or hides in the root changed"
    );
    // The undo journal holds only the host's own files.
    for file in snapshot(&root.join(".voicebox/undo"), Path::new("")).keys() {
        let name = file.file_name().unwrap().to_string_lossy();
        assert!(name == "journal.jsonl" || name.ends_with(".bin"), "{name}");
    }
}

/// Each link layout with each target, through a write, a read and a delete.
fn through_links(host: &mut Host, link: &str) -> Vec<(String, Option<Rule>)> {
    let mut out = Vec::new();
    for separator in ["/", "//", "/./"] {
        for target in payloads::TARGETS {
            let name = format!("{link}{separator}{target}");
            let wrote = host.execute(&write(&name, "payload"), None);
            carries_no_secret(&wrote, &name);
            for verb in ["read", "delete"] {
                let reply = host.execute(&json!({"verb":verb,"name":name}), None);
                carries_no_secret(&reply, &name);
                if wrote.ok {
                    assert!(
                        reply.ok || reply.confirm.is_some(),
                        "{verb} {name}: {reply:?}"
                    );
                } else {
                    assert_eq!(reply.refused, wrote.refused, "{verb} {name}");
                }
            }
            out.push((name, wrote.refused));
        }
    }
    out
}

#[test]
fn link_layouts_out_are_refused_and_a_link_to_an_inside_folder_works() {
    let (parent, root, mut host) = setup();
    symlink("..", root.join("up")).unwrap();
    symlink("/", root.join("top")).unwrap();
    let outside = snapshot(parent.path(), &root);
    let inside = untouchable(&root, &host);
    for link in ["up", "top"] {
        for (name, rule) in through_links(&mut host, link) {
            assert_eq!(rule, Some(Rule::SymlinkOut), "{name}");
        }
    }
    assert_eq!(snapshot(parent.path(), &root), outside);
    // Positive control: through `docs` (a link to `notes/`) a visible name
    // lands in `notes/`; a hidden one is still refused by name.
    for (name, rule) in through_links(&mut host, "docs") {
        let target = name
            .trim_start_matches("docs")
            .trim_start_matches(['/', '.']);
        match rule {
            None => assert_eq!(
                std::fs::read_to_string(root.join("notes").join(target)).unwrap(),
                "payload",
                "{name}"
            ),
            Some(rule) => {
                assert_eq!(rule, Rule::DotfileRefused, "{name}");
                assert!(target.starts_with('.') || name.contains("/."), "{name}");
            }
        }
    }
    assert!(
        root.join("notes/etc/passwd").is_file() && root.join("notes/state/host-token").is_file()
    );
    std::fs::remove_dir_all(root.join("notes/etc")).unwrap();
    std::fs::remove_dir_all(root.join("notes/state")).unwrap();
    assert_eq!(untouchable(&root, &host), inside);
    assert_eq!(snapshot(parent.path(), &root), outside);
}

/// Links inside the root into what the host keeps or hides. Containment
/// must judge what a path resolves to, not only how it is spelled: a link
/// `logs -> .audit` must not open the audit log to acts.
#[test]
fn links_into_protected_folders_are_refused() {
    let (_parent, root, mut host) = setup();
    symlink(".audit", root.join("logs")).unwrap();
    symlink(".voicebox", root.join("hostdir")).unwrap();
    symlink(".env", root.join("settings")).unwrap();
    symlink(".git", root.join("repo")).unwrap();
    let inside = untouchable(&root, &host);
    let cases = [
        ("logs/x.jsonl", Rule::ProtectedAudit),
        ("logs/new.jsonl", Rule::ProtectedAudit),
        ("hostdir/probe.txt", Rule::ProtectedAudit),
        ("settings", Rule::DotfileRefused),
        ("repo/config", Rule::DotfileRefused),
    ];
    for (name, rule) in cases {
        for action in [
            write(name, "payload"),
            json!({"verb":"read","name":name}),
            json!({"verb":"delete","name":name}),
        ] {
            let reply = host.execute(&action, None);
            carries_no_secret(&reply, name);
            assert_eq!(reply.refused, Some(rule), "{action}: {reply:?}");
        }
    }
    let listed = host.execute(&json!({"verb":"list","dir":"logs"}), None);
    assert_eq!(listed.refused, Some(Rule::ProtectedAudit), "{listed:?}");
    assert_eq!(untouchable(&root, &host), inside);
    assert!(!root.join(".audit/new.jsonl").exists());
    // Positive control: a link to an ordinary inside folder reads through.
    let read = host.execute(&json!({"verb":"read","name":"docs/a.txt"}), None);
    assert_eq!(read.content.as_deref(), Some(SECRET));
}

#[test]
fn links_out_are_refused_and_links_inside_work() {
    let (parent, root, mut host) = setup();
    let outside = parent.path().join("elsewhere");
    voicebox_test_support::put_file(&outside, "secret.txt", "secret");
    symlink(outside.join("secret.txt"), root.join("file-link")).unwrap();
    symlink(&outside, root.join("dir-link")).unwrap();
    symlink(outside.join("not-yet.txt"), root.join("dangling")).unwrap();

    let cases = [
        (write("file-link", "x"), "write through a file link"),
        (
            json!({"verb":"read","name":"file-link"}),
            "read through a file link",
        ),
        (
            json!({"verb":"read","name":"dir-link/secret.txt"}),
            "read through a dir link",
        ),
        (
            write("dir-link/secret.txt", "x"),
            "overwrite through a dir link",
        ),
        (
            write("dir-link/new.txt", "x"),
            "new file through a linked directory",
        ),
        (
            write("dir-link/deeper/new.txt", "x"),
            "new folder through a linked directory",
        ),
        (write("dangling", "x"), "create through a dangling link"),
        (
            json!({"verb":"list","dir":"dir-link"}),
            "list a linked directory",
        ),
        (
            json!({"verb":"delete","name":"dir-link/secret.txt"}),
            "delete through a link",
        ),
    ];
    for (action, what) in cases {
        assert_eq!(
            refused(&host.execute(&action, None)),
            Rule::SymlinkOut,
            "{what}"
        );
    }
    assert_eq!(
        std::fs::read_to_string(outside.join("secret.txt")).unwrap(),
        "secret"
    );
    assert!(!outside.join("new.txt").exists() && !outside.join("deeper").exists());
    assert!(!outside.join("not-yet.txt").exists());

    // Positive control: links that stay inside the root work, and are written through.
    voicebox_test_support::put_file(&root, "real/a.txt", "inside");
    symlink("real/a.txt", root.join("a-link")).unwrap();
    // An absolute link is refused even when it points inside: it is resolved
    // from the filesystem's root, not the project's, so it stops meaning the
    // same file when the folder moves (cap-std's rule, kept on purpose).
    symlink(root.join("real/a.txt"), root.join("abs-link")).unwrap();
    let abs = host.execute(&json!({"verb":"read","name":"abs-link"}), None);
    assert_eq!(refused(&abs), Rule::SymlinkOut);
    symlink("real", root.join("real-link")).unwrap();
    let read = host.execute(&json!({"verb":"read","name":"a-link"}), None);
    assert_eq!(read.content.as_deref(), Some("inside"));
    assert!(host.execute(&write("real-link/b.txt", "new"), None).ok);
    assert_eq!(
        std::fs::read_to_string(root.join("real/b.txt")).unwrap(),
        "new"
    );
    assert!(host.execute(&write("a-link", "changed"), None).ok);
    assert_eq!(
        std::fs::read_to_string(root.join("real/a.txt")).unwrap(),
        "changed"
    );
    assert!(
        std::fs::symlink_metadata(root.join("a-link"))
            .unwrap()
            .file_type()
            .is_symlink()
    );
    // grep skips the link out and finds the inside file.
    let grep = host.execute(&json!({"verb":"grep","query":"secret"}), None);
    assert!(grep.matches.unwrap().is_empty());
}
