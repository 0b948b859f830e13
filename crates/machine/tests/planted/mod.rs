//! The host's own folders planted as what they must never be: a link (to a
//! folder beside them, or to `/`), a pipe, a file; and the old files an
//! archive or a clone brought beside them, which a refused root keeps. The
//! machine's host tests and the server's command-line tests (through a
//! `#[path]` module) refuse each plant by name; a root holds a `pub` folder
//! the links lead to.
#![allow(dead_code)]

use std::os::unix::fs::symlink;
use std::path::Path;
use std::time::{Duration, SystemTime};

/// What is planted in a root.
pub type Plant = fn(&Path);

/// Every plant: (what is planted where, the name refused, what it is).
pub fn plants() -> [(Plant, &'static str, &'static str); 9] {
    [
        (
            |r| symlink("pub", r.join(".voicebox")).unwrap(),
            ".voicebox",
            "a link",
        ),
        (
            |r| symlink("pub", r.join(".audit")).unwrap(),
            ".audit",
            "a link",
        ),
        (
            |r| {
                std::fs::create_dir(r.join(".voicebox")).unwrap();
                symlink("../pub", r.join(".voicebox/undo")).unwrap();
            },
            ".voicebox/undo",
            "a link",
        ),
        (
            |r| {
                std::fs::create_dir(r.join(".voicebox")).unwrap();
                symlink("../pub", r.join(".voicebox/writers")).unwrap();
            },
            ".voicebox/writers",
            "a link",
        ),
        (|r| mkfifo(&r.join(".voicebox")), ".voicebox", "a pipe"),
        (
            |r| std::fs::write(r.join(".voicebox"), "x").unwrap(),
            ".voicebox",
            "a file",
        ),
        (
            |r| std::fs::write(r.join(".audit"), "not a folder").unwrap(),
            ".audit",
            "a file",
        ),
        (
            |r| {
                std::fs::create_dir(r.join(".voicebox")).unwrap();
                std::fs::write(r.join(".voicebox/tmp"), "").unwrap();
            },
            ".voicebox/tmp",
            "a file",
        ),
        (
            |r| symlink("/", r.join(".audit")).unwrap(),
            ".audit",
            "a link",
        ),
    ]
}

/// Makes a FIFO at `path` with the system's `mkfifo`.
pub fn mkfifo(path: &Path) {
    let made = std::process::Command::new("mkfifo").arg(path).status();
    assert!(made.unwrap().success(), "mkfifo {}", path.display());
}

/// The old files: one at the root, one in a folder.
const OLD: [&str; 2] = ["a.txt", "docs/old.md"];

/// Puts the old files in `root`, "keep" each, two hours old: past the age
/// at which the start-up sweep removes the host's own stale temporaries.
pub fn old_files(root: &Path) {
    for name in OLD {
        let path = root.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, "keep").unwrap();
        std::fs::File::options()
            .write(true)
            .open(&path)
            .unwrap()
            .set_modified(SystemTime::now() - Duration::from_secs(2 * 3600))
            .unwrap();
    }
}

/// Asserts the old files are in `root` as they were put there.
pub fn assert_old_files_kept(root: &Path) {
    for name in OLD {
        let text = std::fs::read_to_string(root.join(name));
        assert_eq!(text.ok().as_deref(), Some("keep"), "{name}");
    }
}
