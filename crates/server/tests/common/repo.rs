//! A repository the tests build with gitoxide (the machine's own git
//! reader), so no test needs the git binary.

use gix::bstr::BString;
use gix::objs::tree::{Entry, EntryKind};
use std::path::Path;

/// Makes `root` a repository that committed `notes.md` ("milk") three
/// days ago on `main`; the note has gained a line ("eggs") since.
pub fn changed_repository(root: &Path) {
    let repo = gix::init(root).unwrap();
    let blob = repo.write_blob("milk\n").unwrap().detach();
    let tree = gix::objs::Tree {
        entries: vec![Entry {
            mode: EntryKind::Blob.into(),
            filename: BString::from("notes.md"),
            oid: blob,
        }],
    };
    let tree = repo.write_object(&tree).unwrap().detach();
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64
        - 3 * 86_400;
    let who = gix::actor::Signature {
        name: "Ana".into(),
        email: "ana@example.org".into(),
        time: gix::date::Time::new(secs, 0),
    };
    let commit = gix::objs::Commit {
        tree,
        parents: Default::default(),
        author: who.clone(),
        committer: who,
        encoding: None,
        message: "Start\n".into(),
        extra_headers: Vec::new(),
    };
    let id = repo.write_object(&commit).unwrap().detach();
    let head = gix::refs::transaction::PreviousValue::Any;
    repo.reference("refs/heads/main", id, head, "test").unwrap();
    std::fs::write(root.join(".git/HEAD"), "ref: refs/heads/main\n").unwrap();
    std::fs::write(root.join("notes.md"), "milk\neggs\n").unwrap();
}
