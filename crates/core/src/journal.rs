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

use crate::contain::{HOST_DIR, RelPath};
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
}

impl core::fmt::Display for Remembered {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            Remembered::Write => "write",
            Remembered::Append => "append",
            Remembered::Edit => "edit",
            Remembered::Delete => "delete",
        })
    }
}

/// One remembered change.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JournalEntry {
    /// Names the blob holding the prior bytes.
    pub id: String,
    pub verb: Remembered,
    pub path: String,
    /// Size of the file before the change; `None` if it did not exist.
    pub before: Option<u64>,
    /// SHA-256 (hex) of what the change left; `None` if it left no file.
    pub after: Option<String>,
}

/// Where the journal index lives.
pub fn index_path() -> RelPath {
    RelPath::host(&format!("{HOST_DIR}/undo/journal.jsonl"))
}

/// Where the prior bytes of one change live.
pub fn blob_path(id: &str) -> RelPath {
    RelPath::host(&format!("{HOST_DIR}/undo/{id}.bin"))
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
}
