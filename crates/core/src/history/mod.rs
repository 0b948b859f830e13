//! The folder's own git repository, as answers show it: what changed, the
//! commits that touched it, a file as it was. The core only names these
//! shapes and the words for a moment ("yesterday", a commit); a placement
//! that can read a repository fills them (the machine does, read only and
//! inside the root), and one that cannot refuses by name.

mod moment;
pub use moment::{Edge, Moment};

use crate::contain::RelPath;
use crate::rule::Refusal;
use alloc::string::String;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

/// The most commits one answer walks: a longer history is cut there and
/// the answer says so.
pub const MAX_WALK: usize = 5_000;
/// The most commits `history` shows, whatever `limit` asks.
pub const MAX_HISTORY: usize = 200;
/// How many commits `history` shows when no `limit` is given.
pub const DEFAULT_HISTORY: usize = 10;
/// The most changed files one `changes` answer lists (all are counted).
pub const MAX_CHANGED_FILES: usize = 500;
/// The longest commit message line an answer carries, in characters.
pub const MAX_MESSAGE_CHARS: usize = 200;

/// One commit: who, when and the first line of its message.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Commit {
    /// The full object id, hex.
    pub id: String,
    pub author: String,
    /// Milliseconds since the Unix epoch, from the commit's author time.
    #[serde(rename = "timeMs")]
    pub time_ms: u64,
    /// The first line of the message, at most [`MAX_MESSAGE_CHARS`].
    pub message: String,
}

impl Commit {
    /// The id as people say it: its first seven digits.
    pub fn short(&self) -> &str {
        &self.id[..self.id.len().min(7)]
    }
}

/// How one file changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ChangeKind {
    Added,
    Modified,
    Removed,
    /// The same content under a new name (`from` says the old one).
    Renamed,
}

/// One changed file, with its line counts (none for a binary file).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileChange {
    pub path: String,
    pub kind: ChangeKind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    pub added: usize,
    pub removed: usize,
    #[serde(default, skip_serializing_if = "core::ops::Not::not")]
    pub binary: bool,
}

/// What changed in the folder since a commit (the working files against it).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Changes {
    /// The commit compared against; `None` when there was none yet then
    /// (every file is new).
    pub base: Option<Commit>,
    /// At most [`MAX_CHANGED_FILES`], by path.
    pub files: Vec<FileChange>,
    /// How many files changed in all.
    pub total: usize,
    /// The walk for the base stopped at [`MAX_WALK`] commits.
    pub bounded: bool,
    /// The branch checked out; `None` for a detached HEAD.
    pub branch: Option<String>,
}

/// The commits that touched the folder or one file, newest first.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct History {
    pub commits: Vec<Commit>,
    /// How many commits were looked at.
    pub walked: usize,
    /// The walk stopped at [`MAX_WALK`] commits with history left.
    pub bounded: bool,
}

/// A file as a commit holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileAt {
    pub commit: Commit,
    /// Its bytes, or `None` when the commit has no such file.
    pub bytes: Option<Vec<u8>>,
}

/// A reader of the root's own repository. Every path is one the core has
/// contained; every answer is bounded as the constants above say. A
/// folder with no repository answers `not-a-repository`, one whose
/// repository leads outside it `repository-outside`.
pub trait Repository {
    /// The working files against the commit `since` names.
    fn changes(&self, since: &Moment) -> Result<Changes, Refusal>;
    /// The commits that touched `name` (or anything), newest first, at most `limit`.
    fn history(&self, name: Option<&RelPath>, limit: usize) -> Result<History, Refusal>;
    /// `name` as the commit `at` names holds it.
    fn file_at(&self, name: &RelPath, at: &Moment) -> Result<FileAt, Refusal>;
}
