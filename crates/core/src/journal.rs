//! The undo journal: for each write, edit or delete, the bytes it replaced.
//!
//! It lives in the host's own folder inside the root (`.voicebox/undo/`), which
//! containment refuses to every user act, so it survives restarts and nobody
//! but the host can change it. The format is built here; storage only holds it.

use crate::contain::{HOST_DIR, RelPath};
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// The most changes undo remembers; older ones are forgotten first.
pub const MAX_ENTRIES: usize = 50;

/// One remembered change.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JournalEntry {
    /// Names the blob holding the prior bytes.
    pub id: String,
    /// `write`, `edit` or `delete`.
    pub verb: String,
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

/// Parses the index; unreadable lines are skipped (the journal is a
/// convenience, the audit log is the record).
pub fn parse(text: &str) -> Vec<JournalEntry> {
    text.lines()
        .filter_map(|line| serde_json::from_str(line).ok())
        .collect()
}

/// Renders the index.
pub fn render(entries: &[JournalEntry]) -> String {
    entries
        .iter()
        .map(|e| {
            let mut line = serde_json::to_string(e).expect("journal entries serialise");
            line.push('\n');
            line
        })
        .collect()
}

/// The digest recorded as `after`.
pub fn digest(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}
