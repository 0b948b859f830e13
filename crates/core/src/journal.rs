//! The undo journal: for each write, edit or delete, the bytes it replaced.
//!
//! It lives in the host's own folder inside the root (`.voicebox/undo/`), which
//! containment refuses to every user act, so it survives restarts and nobody
//! but the host can change it. The format is built here; storage only holds it.
//!
//! The index is append-only (`push` and `pop` lines, replayed in order), so
//! remembering a change costs two appends — the prior bytes to a fresh blob
//! and one index line — with no parsing; it is replayed and compacted only
//! when it grows long. A torn last line is skipped.

use crate::contain::RelPath;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// Undo always remembers at least this many changes: compaction keeps the
/// newest `MAX_ENTRIES` and forgets older ones (and their blobs).
pub const MAX_ENTRIES: usize = 50;

/// The kind of change a journal entry remembers (the verb that made it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Remembered {
    Write,
    Append,
    Edit,
    Delete,
    /// A file or folder given a new name (`to`); a file it replaced is kept.
    Move,
    Copy,
    /// A list item ticked or un-ticked.
    Check,
    /// A list item's line removed.
    Unlist,
    /// A folder made (undo removes it while it is empty).
    Mkdir,
    /// An empty folder removed (undo makes it again).
    Rmdir,
}

impl core::fmt::Display for Remembered {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            Remembered::Write => "write",
            Remembered::Append => "append",
            Remembered::Edit => "edit",
            Remembered::Delete => "delete",
            Remembered::Move => "move",
            Remembered::Copy => "copy",
            Remembered::Check => "tick",
            Remembered::Unlist => "removal of an item",
            Remembered::Mkdir => "making of the folder",
            Remembered::Rmdir => "delete of the folder",
        })
    }
}

/// One remembered change.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JournalEntry {
    /// Names the blob holding the prior bytes: an id the host made (see
    /// [`blob_path`]), never a path.
    pub id: String,
    pub verb: Remembered,
    pub path: String,
    /// Size of the file before the change; `None` if it did not exist.
    pub before: Option<u64>,
    /// SHA-256 (hex) of what the change left; `None` if it left no file.
    pub after: Option<String>,
    /// SHA-256 (hex) of the prior bytes the blob holds, so undo puts back
    /// only what the host kept. Absent on lines written before it was
    /// recorded: their blob must then be `before` bytes long.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prior: Option<String>,
    /// For a move: the new name (`path` is the old one). `before`, `prior`
    /// and the blob then describe a file the move replaced there, and
    /// `after` the digest of the moved file (`None` for a folder).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<String>,
}

impl JournalEntry {
    /// Whether this change touched `path` (a move: either of its names).
    pub fn touches(&self, path: &str) -> bool {
        self.path == path || self.to.as_deref() == Some(path)
    }

    /// Whether `blob` is the prior bytes this entry kept.
    pub fn kept(&self, blob: &[u8]) -> bool {
        match &self.prior {
            Some(prior) => *prior == digest(blob),
            None => self.before == Some(blob.len() as u64),
        }
    }
}

/// What one change asks the journal to remember: the verb, the name it is
/// recorded under (and a move's new name), the file whose bytes are kept
/// (`None`: nothing is, a folder act), and the digest the change leaves.
pub struct Memo<'a> {
    pub verb: Remembered,
    pub named: &'a str,
    pub to: Option<&'a str>,
    pub kept: Option<&'a RelPath>,
    pub after: Option<String>,
}

/// The folder of the index and its blobs, inside [`crate::contain::HOST_DIR`].
pub const UNDO_DIR: &str = ".voicebox/undo";

/// Where the journal index lives.
pub fn index_path() -> RelPath {
    RelPath::host(&format!("{UNDO_DIR}/journal.jsonl"))
}

/// How long the ids the host gives journal entries are: an [`crate::platform::Env::random_id`]
/// (16 random bytes in lowercase hex).
pub const ID_LEN: usize = 32;

/// Whether `id` has the shape of an id the host made. Only such an id is
/// ever joined into a path: a line the host did not write names no file.
pub fn own_id(id: &str) -> bool {
    id.len() == ID_LEN && id.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// Where the prior bytes of one change live; `None` for an id the host did
/// not make.
pub fn blob_path(id: &str) -> Option<RelPath> {
    own_id(id).then(|| RelPath::host(&format!("{UNDO_DIR}/{id}.bin")))
}

/// The index is compacted (rewritten as its newest live entries) past this
/// many lines, so it stays small and remembering a change stays two appends.
pub const COMPACT_AFTER_LINES: usize = 4 * MAX_ENTRIES;

/// One line of the index.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Line {
    /// A change to remember.
    Push(JournalEntry),
    /// The change with this id was undone.
    Pop(String),
}

impl Line {
    /// The line as text, newline included.
    pub fn text(&self) -> String {
        let mut line = serde_json::to_string(self).expect("journal lines serialise");
        line.push('\n');
        line
    }
}

/// Replays the index into the stack of remembered changes, oldest first, and
/// counts its lines. Unreadable lines are skipped (the journal is a
/// convenience, the audit log is the record).
pub fn replay(text: &str) -> (Vec<JournalEntry>, usize) {
    let mut stack: Vec<JournalEntry> = Vec::new();
    let mut lines = 0;
    for line in text.lines() {
        lines += 1;
        match serde_json::from_str::<Line>(line) {
            Ok(Line::Push(entry)) => stack.push(entry),
            Ok(Line::Pop(id)) => stack.retain(|e| e.id != id),
            Err(_) => {}
        }
    }
    (stack, lines)
}

/// The index rewritten as just its live entries.
pub fn compacted(entries: &[JournalEntry]) -> String {
    entries
        .iter()
        .map(|e| Line::Push(e.clone()).text())
        .collect()
}

/// The digest recorded as `after`.
pub fn digest(bytes: &[u8]) -> String {
    crate::hex(&Sha256::digest(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(id: &str) -> JournalEntry {
        JournalEntry {
            id: id.into(),
            verb: Remembered::Write,
            path: "a.txt".into(),
            before: None,
            after: None,
            prior: None,
            to: None,
        }
    }

    #[test]
    fn replay_applies_push_and_pop_and_skips_a_torn_line() {
        let text: String = [
            Line::Push(entry("1")),
            Line::Push(entry("2")),
            Line::Push(entry("3")),
            Line::Pop("3".into()),
            Line::Pop("1".into()),
        ]
        .iter()
        .map(Line::text)
        .collect();
        let torn = format!("{text}{{\"push\":{{\"id\":\"4\"");
        let (stack, lines) = replay(&torn);
        assert_eq!(stack, [entry("2")]);
        assert_eq!(lines, 6);
        assert_eq!(replay(&compacted(&stack)).0, stack);
    }

    #[test]
    fn only_ids_of_the_host_s_shape_name_a_blob() {
        let own = "0123456789abcdef0123456789abcdef";
        assert_eq!(
            blob_path(own).unwrap().as_str(),
            format!(".voicebox/undo/{own}.bin")
        );
        for forged in [
            "../../victim",
            "../../.secret/k",
            "0123456789ABCDEF0123456789ABCDEF",
            "0123456789abcdef0123456789abcde",
            "0123456789abcdef0123456789abcdef0",
            "0123456789abcdef/123456789abcdef",
            "",
        ] {
            assert_eq!(blob_path(forged), None, "{forged:?}");
        }
    }

    #[test]
    fn a_blob_is_kept_bytes_only_when_its_digest_or_old_size_says_so() {
        let mut entry = entry("1");
        entry.before = Some(2);
        entry.prior = Some(digest(b"v1"));
        assert!(entry.kept(b"v1"));
        assert!(!entry.kept(b"v2"), "same size, other bytes");
        // A line from before digests were recorded: judged by its size.
        entry.prior = None;
        assert!(entry.kept(b"v2"));
        assert!(!entry.kept(b"v22"));
        let old = r#"{"push":{"id":"1","verb":"write","path":"a.txt","before":2,"after":null}}"#;
        assert_eq!(replay(old).0, [entry]);
    }
}
