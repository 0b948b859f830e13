//! Containment on a real folder: every public traversal payload, and links.
//!
//! Every payload in `shared/corpora/path-traversal/`, given as a name to a
//! write, a read and a delete, is refused by name or lands as a literal name
//! strictly inside the root; nothing outside the root changes.

mod common;

use common::{refused, write};
use serde_json::json;
use std::collections::BTreeMap;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use tempfile::TempDir;
use voicebox_core::Rule;
use voicebox_machine::Host;

fn corpus() -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpora/path-traversal");
    let mut payloads = Vec::new();
    for file in [
        "deep_traversal.txt",
        "directory_traversal.txt",
        "traversals-8-deep-exotic-encoding.txt",
    ] {
        let text = std::fs::read_to_string(dir.join(file)).unwrap_or_else(|e| {
            panic!(
                "the payload corpus must be present at {}: {e}",
                dir.display()
            )
        });
        payloads.extend(
            text.lines()
                .filter(|l| !l.is_empty())
                .map(|l| l.replace("{FILE}", "probe.txt")),
        );
    }
    assert!(payloads.len() > 1900, "{} payloads", payloads.len());
    payloads
}

/// Every file under `dir` with its bytes, skipping `skip`.
fn snapshot(dir: &Path, skip: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path == skip {
            continue;
        }
        let meta = std::fs::symlink_metadata(&path).unwrap();
        if meta.is_dir() {
            out.extend(snapshot(&path, skip));
        } else {
            out.insert(path.clone(), std::fs::read(&path).unwrap_or_default());
        }
    }
    out
}

/// A root inside a parent folder that holds a file the payloads aim at.
fn setup() -> (TempDir, PathBuf, Host) {
    let parent = TempDir::new().unwrap();
    let root = parent.path().join("root");
    std::fs::create_dir(&root).unwrap();
    std::fs::write(parent.path().join("probe.txt"), "outside").unwrap();
    std::fs::create_dir_all(parent.path().join("WINDOWS")).unwrap();
    std::fs::write(parent.path().join("WINDOWS/win.ini"), "outside").unwrap();
    let mut host = Host::new("test", ());
    host.declare(&root).unwrap();
    (parent, root, host)
}

#[test]
fn every_payload_is_refused_by_name_or_lands_strictly_inside() {
    let (parent, root, mut host) = setup();
    let before = snapshot(parent.path(), &root);
    let real_root = std::fs::canonicalize(&root).unwrap();
    let (mut refused_count, mut landed) = (0, 0);
    for payload in corpus() {
        let reply = host.execute(&write(&payload, "payload"), None);
        match reply.refused {
            Some(rule) => {
                assert!(
                    matches!(
                        rule,
                        Rule::OutsideRoot | Rule::DotfileRefused | Rule::TooLarge
                    ),
                    "{payload:?} refused by {rule}"
                );
                refused_count += 1;
            }
            None => {
                assert!(reply.ok, "{payload:?}: {reply:?}");
                // Landed: as the literal name, strictly inside the root.
                let landed_at = std::fs::canonicalize(root.join(&payload)).unwrap();
                assert!(
                    landed_at.starts_with(&real_root) && landed_at != real_root,
                    "{payload:?}"
                );
                assert_eq!(std::fs::read_to_string(&landed_at).unwrap(), "payload");
                landed += 1;
                // Read it back and delete it through the same names.
                let read = host.execute(&json!({"verb":"read","name":payload}), None);
                assert_eq!(read.content.as_deref(), Some("payload"), "{payload:?}");
                let ask = host.execute(&json!({"verb":"delete","name":payload}), None);
                assert!(
                    host.confirm(&ask.confirm.unwrap().id, true).ok,
                    "{payload:?}"
                );
                assert!(!landed_at.exists());
            }
        }
        for verb in ["read", "delete"] {
            let reply = host.execute(&json!({"verb":verb,"name":payload}), None);
            assert!(reply.confirm.is_none() || reply.refused.is_none());
            if let Some(ask) = reply.confirm {
                panic!("{payload:?} asked to delete {:?}", ask.plan);
            }
        }
    }
    assert!(
        refused_count > 0 && landed > 0,
        "refused {refused_count}, landed {landed}"
    );
    assert_eq!(
        snapshot(parent.path(), &root),
        before,
        "nothing outside the root changed"
    );
}

#[test]
fn links_out_are_refused_and_links_inside_work() {
    let (parent, root, mut host) = setup();
    let outside = parent.path().join("elsewhere");
    std::fs::create_dir(&outside).unwrap();
    std::fs::write(outside.join("secret.txt"), "secret").unwrap();
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
    std::fs::create_dir(root.join("real")).unwrap();
    std::fs::write(root.join("real/a.txt"), "inside").unwrap();
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
