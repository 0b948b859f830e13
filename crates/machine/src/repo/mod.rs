//! The root's own git repository, read with gitoxide: no `git` process, no
//! network, nothing written in `.git/`. [`open`] judges the repository
//! through the root's handle first (inside the root, no link anywhere in
//! it); gitoxide then reads it in isolation (the repository's own config
//! only: no system or user config, no environment, no includes).

mod commits;
mod open;
mod work;

use cap_std::fs::Dir;
use std::path::Path;
use voicebox_core::contain::RelPath;
use voicebox_core::history::{Changes, FileAt, History, Moment};
use voicebox_core::rule::Refusal;

/// One look at the repository, opened for it and dropped after.
pub struct Reader {
    repo: gix::Repository,
    /// The root's handle: the working files are read through it.
    root: Dir,
}

impl Reader {
    /// Opens the repository of the root whose handle is `root` and whose
    /// real path is `path`.
    pub fn open(root: &Dir, path: &Path) -> Result<Reader, Refusal> {
        let git = open::git_dir(root)?;
        let options = gix::open::Options::isolated();
        let repo = gix::open_opts(path.join(git), options).map_err(|e| open::unreadable(&e))?;
        let root = root.try_clone().map_err(|e| open::unreadable(&e))?;
        Ok(Reader { repo, root })
    }

    /// The branch checked out; `None` for a detached HEAD.
    fn branch(&self) -> Result<Option<String>, Refusal> {
        let name = self.repo.head_name().map_err(|e| open::unreadable(&e))?;
        Ok(name.map(|name| name.shorten().to_string()))
    }

    pub fn changes(&self, since: &Moment) -> Result<Changes, Refusal> {
        let (base, bounded) = commits::at(&self.repo, since)?;
        let mut changes = work::changes(&self.repo, &self.root, base.as_ref())?;
        changes.bounded = bounded;
        changes.branch = self.branch()?;
        Ok(changes)
    }

    pub fn history(&self, name: Option<&RelPath>, limit: usize) -> Result<History, Refusal> {
        commits::history(&self.repo, name.map(RelPath::as_str), limit)
    }

    pub fn file_at(&self, name: &RelPath, at: &Moment) -> Result<FileAt, Refusal> {
        let (commit, _) = commits::at(&self.repo, at)?;
        let Some(commit) = commit else {
            return Err(commits::no_commit_then());
        };
        let bytes = commits::blob_at(&commit, name.as_str())?;
        Ok(FileAt {
            commit: commits::described(&commit)?,
            bytes,
        })
    }
}
