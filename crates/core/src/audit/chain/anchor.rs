//! What the host keeps of an audit file outside the root: its anchor.

use alloc::string::String;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

use super::genesis;

/// What the host keeps of one audit file, outside the root: its last durable
/// line, appended as a new record after each group of lines is synced. Before
/// a line is written, a record also announces it (with every line written
/// since the last sync), so a crash on either side of the write leaves a
/// file the anchor accounts for; any other line after the last one is not
/// the host's.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Anchor {
    /// The audit file's name.
    pub file: String,
    /// The seq of the last line this host appended and synced (the one
    /// before its first, where it has appended none).
    pub seq: u64,
    /// That line's hash: the file's genesis where it has appended none.
    pub hash: String,
    /// The hash of the file's first line.
    pub first: String,
    /// The hashes of the lines the host wrote after it, in order (seq + 1,
    /// seq + 2, ...), not yet synced: any prefix of them present is the
    /// host's. An anchor written before lines were grouped names one line
    /// here as a bare string.
    #[serde(
        default,
        skip_serializing_if = "Vec::is_empty",
        deserialize_with = "one_or_many"
    )]
    pub next: Vec<String>,
}

/// `next` as written now (a list) or by a host that announced one line at a
/// time (a string).
fn one_or_many<'de, D: serde::Deserializer<'de>>(de: D) -> Result<Vec<String>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Next {
        One(String),
        Many(Vec<String>),
    }
    Ok(match Next::deserialize(de)? {
        Next::One(hash) => alloc::vec![hash],
        Next::Many(hashes) => hashes,
    })
}

impl Anchor {
    /// Whether the host had appended nothing to the file yet (its last line
    /// is the file's genesis).
    pub fn none_before(&self) -> bool {
        self.hash == genesis(&self.file)
    }

    /// The seq the file's next line after the host's own takes.
    pub fn following(&self) -> Option<u64> {
        self.seq.checked_add(1)?.checked_add(self.next.len() as u64)
    }

    /// Whether an entry with `seq` and line `hash` is the `index`-th line
    /// (from 0) after the last one, as the host announced it.
    pub fn announced(&self, index: usize, seq: u64, hash: &str) -> bool {
        self.seq.checked_add(1 + index as u64) == Some(seq)
            && self.next.get(index).is_some_and(|next| next == hash)
    }
}
