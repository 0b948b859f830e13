//! The bounds on walks, reads and listings, and what a write leaves behind.

use super::*;

#[test]
fn link_loops_are_walked_once_and_deep_trees_stop_at_the_depth_limit() {
    let dir = TempDir::new().unwrap();
    let root = dir.path();
    voicebox_test_support::put_file(root, "x/y/needle.txt", "needle\n");
    // Each folder links back to the root twice: without a visited set the
    // walk doubles at every level.
    for folder in ["", "x", "x/y"] {
        let up = "../".repeat(folder.split('/').filter(|s| !s.is_empty()).count());
        let target = if up.is_empty() { ".".to_string() } else { up };
        symlink(&target, root.join(folder).join("a")).unwrap();
        symlink(&target, root.join(folder).join("b")).unwrap();
    }
    let grep = answered(root, json!({"verb": "grep", "query": "needle"}));
    assert!(grep.ok, "{grep:?}");
    assert_eq!(grep.matches.as_ref().unwrap().len(), 1, "{grep:?}");
    assert_eq!(grep.truncated, Some(false));
    let searched = grep.searched.as_ref().unwrap();
    assert_eq!((searched.folders, searched.files), (3, 1), "{grep:?}");
    assert_eq!(grep.skipped.as_ref().unwrap().revisited, 6, "{grep:?}");

    // A real tree deeper than the limit: the walk stops there and says so.
    let deep = TempDir::new().unwrap();
    let mut path = deep.path().to_path_buf();
    for level in 0..20 {
        path.push(format!("l{level}"));
    }
    std::fs::create_dir_all(&path).unwrap();
    std::fs::write(path.join("deep.txt"), "needle").unwrap();
    std::fs::write(deep.path().join("l0/top.txt"), "needle").unwrap();
    let grep = answered(deep.path(), json!({"verb": "grep", "query": "needle"}));
    assert_eq!(grep.truncated, Some(true), "{grep:?}");
    assert_eq!(grep.searched.as_ref().unwrap().stopped_at, Some("depth"));
    assert_eq!(grep.matches.as_ref().unwrap().len(), 1, "{grep:?}");
}

#[test]
fn reads_over_the_cap_are_refused_by_size_and_the_cap_itself_reads() {
    let dir = TempDir::new().unwrap();
    let root = dir.path();
    let big = vec![b'a'; 32 << 20];
    std::fs::write(root.join("big.txt"), &big).unwrap();
    std::fs::write(root.join("edge.txt"), vec![b'b'; 1 << 20]).unwrap();
    let mut host = host_on("edge", root);
    for action in [
        json!({"verb": "read", "name": "big.txt"}),
        json!({"verb": "diff", "name": "big.txt", "content": "x"}),
        json!({"verb": "edit", "name": "big.txt", "oldText": "a", "newText": "b"}),
        json!({"verb": "tool", "id": "wc", "name": "big.txt"}),
        // Replacing it would lose bytes the undo journal cannot keep.
        json!({"verb": "write", "name": "big.txt", "content": "small"}),
    ] {
        let reply = host.execute(&action, None);
        assert_eq!(refused(&reply), Rule::TooLarge, "{action}");
        assert!(
            reply.why.as_ref().unwrap().contains("33554432 bytes"),
            "{reply:?}"
        );
    }
    assert_eq!(
        std::fs::metadata(root.join("big.txt")).unwrap().len(),
        32 << 20
    );
    let read = host.execute(&json!({"verb": "read", "name": "edge.txt"}), None);
    assert_eq!(read.bytes, Some(1 << 20), "{read:?}");
    // An edit may not grow a file past the cap either.
    let mut half = String::from("MARK");
    half.push_str(&"h".repeat(900 << 10));
    std::fs::write(root.join("half.txt"), &half).unwrap();
    let grow = json!({"verb": "edit", "name": "half.txt", "oldText": "MARK", "newText": "g".repeat(900 << 10)});
    assert_eq!(refused(&host.execute(&grow, None)), Rule::TooLarge);
    assert_eq!(
        std::fs::read_to_string(root.join("half.txt")).unwrap(),
        half
    );
    let fits = json!({"verb": "edit", "name": "half.txt", "oldText": "MARK", "newText": "mark"});
    assert!(host.execute(&fits, None).ok);
    // Grep passes over it and counts it.
    let grep = host.execute(&json!({"verb": "grep", "query": "aaa"}), None);
    assert_eq!(grep.skipped.as_ref().unwrap().too_large, 1, "{grep:?}");
}

#[test]
fn a_listing_returns_at_most_a_page_and_says_how_many_there_are() {
    let dir = TempDir::new().unwrap();
    let root = dir.path();
    std::fs::create_dir(root.join("many")).unwrap();
    std::fs::create_dir(root.join("few")).unwrap();
    for i in 0..2_500 {
        std::fs::write(root.join(format!("many/f{i:05}")), "").unwrap();
    }
    for i in 0..10 {
        std::fs::write(root.join(format!("few/f{i}")), "").unwrap();
    }
    let mut host = host_on("edge", root);
    let many = host.execute(&json!({"verb": "list", "dir": "many"}), None);
    assert_eq!(many.files.as_ref().unwrap().len(), 1_000);
    assert_eq!((many.total, many.truncated), (Some(2_500), Some(true)));
    assert_eq!(names(&many)[999], "f00999");
    let few = host.execute(&json!({"verb": "list", "dir": "few"}), None);
    assert_eq!((few.total, few.truncated), (Some(10), Some(false)));
}

#[test]
fn writes_leave_no_temporary_in_the_folder_and_leftovers_are_swept_at_start() {
    let dir = TempDir::new().unwrap();
    let root = dir.path();
    let mut host = host_on("edge", root);
    for i in 0..50 {
        let reply = host.execute(
            &json!({"verb": "write", "name": format!("sub/n{}.txt", i % 5), "content": "x".repeat(i)}),
            None,
        );
        assert!(reply.ok, "{reply:?}");
    }
    let mut leftovers = Vec::new();
    for entry in walk(root) {
        let name = entry.file_name().unwrap().to_string_lossy().into_owned();
        if name.contains("voicebox-tmp")
            || entry.starts_with(root.join(".voicebox/tmp")) && entry.is_file()
        {
            leftovers.push(entry);
        }
    }
    assert!(leftovers.is_empty(), "{leftovers:?}");
    assert_eq!(
        std::fs::read_to_string(root.join("sub/n4.txt")).unwrap(),
        "x".repeat(49)
    );

    // A crash between the temporary and the rename leaves one; the next start
    // removes it once it is old enough not to be another process's write in flight.
    let stale = root.join(".voicebox/tmp/staged-0123456789abcdef0123456789abcdef");
    let fresh = root.join(".voicebox/tmp/staged-fedcba9876543210fedcba9876543210");
    std::fs::write(&stale, "half").unwrap();
    std::fs::write(&fresh, "half").unwrap();
    let hour_ago = std::time::SystemTime::now() - Duration::from_secs(3600);
    std::fs::File::options()
        .write(true)
        .open(&stale)
        .unwrap()
        .set_modified(hour_ago)
        .unwrap();
    drop(host);
    let _again = host_on("edge", root);
    assert!(!stale.exists());
    assert!(
        fresh.exists(),
        "a temporary of a write in flight is left alone"
    );
    assert!(root.join("sub/n4.txt").exists());
}

fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(walk(&path));
        }
        out.push(path);
    }
    out
}
