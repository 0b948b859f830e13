//! A repository the tests build with the machine tests' own builder
//! (gitoxide, so no test needs the git binary).

use std::path::Path;

#[path = "../../../machine/tests/repo/mod.rs"]
mod builder;

/// Makes `root` a repository that committed `notes.md` ("milk") three
/// days ago on `main`; the note has gained a line ("eggs") since.
pub fn changed_repository(root: &Path) {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64
        - 3 * 86_400;
    builder::Repo::init(root).commit(root, &[("notes.md", b"milk\n")], "Start", secs);
    std::fs::write(root.join("notes.md"), "milk\neggs\n").unwrap();
}
