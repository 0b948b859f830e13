//! Repositories the tests build with gitoxide (the machine's own git
//! reader), so no test needs the git binary. The machine's history tests
//! and the server's page and CLI tests (through a `#[path]` module) build
//! theirs here.
#![allow(dead_code)]

use gix::ObjectId;
use gix::bstr::BString;
use gix::objs::tree::{Entry as TreeEntry, EntryKind};
use std::collections::BTreeMap;
use std::path::Path;

/// A repository made in `root`, committing trees of `(path, bytes)`.
pub struct Repo {
    repo: gix::Repository,
    /// The last commit made, the next one's parent.
    pub parent: Option<ObjectId>,
}

impl Repo {
    pub fn init(root: &Path) -> Repo {
        Repo {
            repo: gix::init(root).unwrap(),
            parent: None,
        }
    }

    /// Commits exactly `files` (and writes them to the folder) at `secs`.
    pub fn commit(
        &mut self,
        root: &Path,
        files: &[(&str, &[u8])],
        message: &str,
        secs: i64,
    ) -> ObjectId {
        for (path, bytes) in files {
            let path = root.join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, bytes).unwrap();
        }
        let tree = self.tree(files);
        let id = self.commit_tree(tree, message, secs);
        self.point_head(id);
        id
    }

    pub fn commit_tree(&mut self, tree: ObjectId, message: &str, secs: i64) -> ObjectId {
        let who = gix::actor::Signature {
            name: "Ana".into(),
            email: "ana@example.org".into(),
            time: gix::date::Time::new(secs, 0),
        };
        let commit = gix::objs::Commit {
            tree,
            parents: self.parent.into_iter().collect(),
            author: who.clone(),
            committer: who,
            encoding: None,
            message: format!("{message}\n").into(),
            extra_headers: Vec::new(),
        };
        let id = self.repo.write_object(&commit).unwrap().detach();
        self.parent = Some(id);
        id
    }

    pub fn point_head(&self, id: ObjectId) {
        self.repo
            .reference(
                "refs/heads/main",
                id,
                gix::refs::transaction::PreviousValue::Any,
                "test",
            )
            .unwrap();
        std::fs::write(self.repo.git_dir().join("HEAD"), "ref: refs/heads/main\n").unwrap();
    }

    /// The tree of `files`, folders made from their paths.
    pub fn tree(&self, files: &[(&str, &[u8])]) -> ObjectId {
        let mut here: BTreeMap<String, Vec<u8>> = BTreeMap::new();
        let mut below: BTreeMap<String, Vec<(String, Vec<u8>)>> = BTreeMap::new();
        for (path, bytes) in files {
            match path.split_once('/') {
                Some((dir, rest)) => below
                    .entry(dir.into())
                    .or_default()
                    .push((rest.into(), bytes.to_vec())),
                None => {
                    here.insert((*path).into(), bytes.to_vec());
                }
            }
        }
        let mut entries: Vec<TreeEntry> = here
            .into_iter()
            .map(|(name, bytes)| TreeEntry {
                mode: EntryKind::Blob.into(),
                filename: BString::from(name),
                oid: self.repo.write_blob(bytes).unwrap().detach(),
            })
            .collect();
        for (dir, files) in below {
            let files: Vec<(&str, &[u8])> = files
                .iter()
                .map(|(p, b)| (p.as_str(), b.as_slice()))
                .collect();
            entries.push(TreeEntry {
                mode: EntryKind::Tree.into(),
                filename: BString::from(dir),
                oid: self.tree(&files),
            });
        }
        entries.sort();
        let tree = gix::objs::Tree { entries };
        self.repo.write_object(&tree).unwrap().detach()
    }
}
