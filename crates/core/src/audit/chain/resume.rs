//! Where a writer resumes its file, read from the end back.

use super::{genesis, line_hash};
use crate::audit::Entry;
use alloc::collections::BTreeSet;
use alloc::string::String;
use alloc::vec::Vec;

/// Where an opening writer resumes: the last seq, the hash the next line
/// chains from, and the entries still waiting for their completion.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resume {
    pub last_seq: u64,
    pub last_hash: String,
    pub open: Vec<Entry>,
}

/// A writer's read of its file from the end back, only as far as it must:
/// to the last entry for the seq and the chain, and on to the oldest seq the
/// last chained line names as open. A log whose last line predates the chain
/// names none, and is read to its start.
pub struct TailScan {
    name: String,
    /// The first line given (the file's last), for the chain.
    last: Option<String>,
    /// Entries read so far, newest first.
    entries: Vec<Entry>,
    /// The lowest seq the scan must reach, once the last entry is known.
    reach: Option<u64>,
}

impl TailScan {
    pub fn new(name: &str) -> TailScan {
        TailScan {
            name: name.into(),
            last: None,
            entries: Vec::new(),
            reach: None,
        }
    }

    /// The line before the ones given so far; `true` once no earlier line matters.
    pub fn push(&mut self, line: &[u8]) -> bool {
        self.last.get_or_insert_with(|| line_hash(line));
        let text = core::str::from_utf8(line).unwrap_or("");
        let Ok(entry) = serde_json::from_str::<Entry>(text.trim_end_matches('\n')) else {
            return false;
        };
        let reach = *self.reach.get_or_insert(match entry.prev {
            Some(_) => entry.open.unwrap_or(entry.seq).min(entry.seq),
            None => 0,
        });
        let enough = entry.seq <= reach;
        self.entries.push(entry);
        enough
    }

    /// The line before the ones given so far, passed over as longer than any
    /// entry: only its hash, for the chain.
    pub fn push_long(&mut self, hash: String) {
        self.last.get_or_insert(hash);
    }

    pub fn finish(mut self) -> Resume {
        self.entries.reverse();
        Resume {
            last_seq: crate::audit::last_seq(&self.entries),
            last_hash: self.last.unwrap_or_else(|| genesis(&self.name)),
            open: crate::audit::dangling(&self.entries)
                .into_iter()
                .cloned()
                .collect(),
        }
    }
}

/// Updates a writer's open seqs for the entry it just appended.
pub fn track(open: &mut BTreeSet<u64>, entry: &Entry) {
    if let Some(done) = entry.attempt {
        open.remove(&done);
    }
    if entry.is_pending() {
        open.insert(entry.seq);
    }
}
