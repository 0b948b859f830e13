//! What a check of one file's chain finds.

use super::Anchor;
use alloc::string::String;
use serde::{Deserialize, Serialize};

/// How a chain is broken.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BreakKind {
    /// A line's bytes changed (or a chained line lost its `prev`).
    Edited,
    /// Lines are missing from the middle or the start.
    Removed,
    /// Lines are out of their written order.
    Reordered,
    /// Whole lines are missing from the end (seen against the anchor).
    Truncated,
    /// The file is not the one that was written (another chain from line 1).
    Replaced,
    /// A seq at the ceiling (2^64−1): no seq can follow it, and the writer
    /// never writes it.
    Ceiling,
}

/// What a file's chain shows when it holds.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Chain {
    pub entries: usize,
    /// Entries written before the chain existed, all before the first chained one.
    pub unchained: usize,
    pub last_seq: u64,
    /// The last line's hash: what the next append chains from.
    pub last_hash: String,
    /// Whether an anchor was checked too (without one, lines cut from the end
    /// or a whole well-formed replacement cannot be seen).
    pub anchored: bool,
}

/// Where and how a chain breaks.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Break {
    pub kind: BreakKind,
    /// The line (from 1) the break is seen at.
    pub line: usize,
    /// That line's seq, where it has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seq: Option<u64>,
    pub why: String,
}

/// Entries after the last line the host wrote in a file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tail {
    #[serde(flatten)]
    pub chain: Chain,
    /// The seq of the last line the host wrote (its anchor).
    pub anchored_seq: u64,
    /// The first line (from 1) after it that is an entry.
    pub line: usize,
    /// How many entries follow it.
    pub after: usize,
}

/// One file's verdict. Only `ok` and `torn` pass.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "verdict", rename_all = "kebab-case")]
pub enum Verdict {
    Ok(Chain),
    /// The chain holds up to a last line cut short by a crash mid-append: an
    /// interrupted write, not tampering.
    Torn(Chain),
    Broken(Break),
    /// The chain holds, but no anchor of this host names the file: a writer
    /// the host does not know wrote it (or the host's state folder is new).
    Unanchored(Chain),
    /// The chain holds up to the host's last line, and entries follow that
    /// the host did not write; it does not build on them.
    UnanchoredTail(Tail),
    /// The host wrote this file (its anchor says so), and it is not in the
    /// audit folder as a file.
    Missing {
        anchored_seq: u64,
        why: String,
    },
    /// An entry of the audit folder that is not a regular log file (a
    /// folder, a link, a FIFO): not read.
    Unreadable {
        why: String,
    },
}

impl Verdict {
    /// Whether the file fails the check (a command exits non-zero).
    pub fn fails(&self) -> bool {
        !matches!(self, Verdict::Ok(_) | Verdict::Torn(_))
    }
}

/// What the host knows of a file from outside the root.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Anchoring {
    /// This placement keeps no anchors: only the chain inside the file speaks.
    NotKept,
    /// The host keeps anchors and has none for this file.
    Unknown,
    /// The host's anchor of this file.
    Anchored(Anchor),
}
