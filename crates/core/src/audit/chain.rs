//! The hash chain of one audit file, and the checks against it.
//!
//! Every line a writer appends names the SHA-256 of the line before it (the
//! exact bytes, newline included); the first line names the file's
//! [`genesis`]. An edit, a removal or a swap inside the file then breaks the
//! chain where it happened. What the file alone cannot show — whole lines cut
//! from its end, or the file swapped for another well-formed one — the host's
//! [`Anchor`] shows: the latest (seq, hash) and the first line's hash, kept
//! outside the root.

use super::Entry;
use alloc::collections::BTreeSet;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// What the first line of a file chains from: the SHA-256 of the file's
/// name. The name carries the writer and the root's hash, so a log copied in
/// from another writer or root fails at its first line.
pub fn genesis(name: &str) -> String {
    crate::hex(&Sha256::digest(name.as_bytes()))
}

/// The hash a line is chained by: SHA-256 (hex) of its exact bytes.
pub fn line_hash(line: &[u8]) -> String {
    crate::hex(&Sha256::digest(line))
}

/// What the host keeps of one audit file, outside the root, after each append.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Anchor {
    /// The audit file's name.
    pub file: String,
    /// The seq of the last line this host appended.
    pub seq: u64,
    /// That line's hash.
    pub hash: String,
    /// The hash of the file's first line.
    pub first: String,
}

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

/// One file's verdict.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "verdict", rename_all = "lowercase")]
pub enum Verdict {
    Ok(Chain),
    /// The chain holds up to a last line cut short by a crash mid-append: an
    /// interrupted write, not tampering.
    Torn(Chain),
    Broken(Break),
}

impl Verdict {
    pub fn is_broken(&self) -> bool {
        matches!(self, Verdict::Broken(_))
    }
}

/// A seq gap, decided by the next entry: a missing seq that turns up later
/// was moved (reordered), one that never does was removed.
struct Gap {
    line: usize,
    seq: u64,
    missing: (u64, u64),
}

/// Checks one file line by line, so a large file is verified in chunks
/// without holding it.
pub struct Verifier {
    name: String,
    anchor: Option<Anchor>,
    line: usize,
    /// The hash the next line must name.
    expect: String,
    /// The previous line's seq, if it parsed.
    prev_seq: Option<u64>,
    chain: Chain,
    chained: bool,
    first: Option<String>,
    /// The anchored seq's line, once seen: whether its hash matched.
    anchor_line: Option<(usize, bool)>,
    gap: Option<Gap>,
    broken: Option<Break>,
    torn: bool,
    corrupt: Vec<usize>,
}

impl Verifier {
    pub fn new(name: &str, anchor: Option<Anchor>) -> Verifier {
        Verifier {
            name: name.into(),
            anchor,
            line: 0,
            expect: genesis(name),
            prev_seq: None,
            chain: Chain::default(),
            chained: false,
            first: None,
            anchor_line: None,
            gap: None,
            broken: None,
            torn: false,
            corrupt: Vec::new(),
        }
    }

    /// The next line: its bytes with the newline, or a last fragment without.
    pub fn line(&mut self, raw: &[u8]) {
        self.line += 1;
        let hash = line_hash(raw);
        if self.first.is_none() {
            self.first = Some(hash.clone());
        }
        let whole = raw.ends_with(b"\n");
        let text = core::str::from_utf8(raw).unwrap_or("");
        match serde_json::from_str::<Entry>(text.trim_end_matches('\n')) {
            Ok(entry) => {
                self.chain.entries += 1;
                self.check(&entry, &hash);
                self.chain.last_seq = self.chain.last_seq.max(entry.seq);
                self.prev_seq = Some(entry.seq);
            }
            Err(_) if !whole => self.torn = true,
            Err(_) => {
                // A closed fragment of an interrupted write still chains: the
                // writer chained the next line over it.
                self.corrupt.push(self.line);
                self.prev_seq = None;
            }
        }
        self.expect = hash.clone();
        self.chain.last_hash = hash;
    }

    fn check(&mut self, entry: &Entry, hash: &str) {
        if let Some(gap) = self.gap.take() {
            let (lo, hi) = gap.missing;
            let kind = match (lo..=hi).contains(&entry.seq) {
                true => BreakKind::Reordered,
                false => BreakKind::Removed,
            };
            self.gap_break(gap, kind);
        }
        if let Some(anchor) = &self.anchor
            && anchor.seq == entry.seq
            && self.anchor_line.is_none()
        {
            self.anchor_line = Some((self.line, anchor.hash == hash));
        }
        if self.broken.is_some() {
            return;
        }
        let Some(prev) = &entry.prev else {
            if self.chained {
                self.fail(
                    BreakKind::Edited,
                    self.line,
                    Some(entry.seq),
                    "this line has no prev although the lines before it are chained",
                );
            } else {
                self.chain.unchained += 1;
            }
            return;
        };
        self.chained = true;
        if *prev == self.expect {
            return;
        }
        match self.prev_seq {
            None if self.line == 1 && entry.seq <= 1 => self.fail(
                BreakKind::Replaced,
                1,
                Some(entry.seq),
                "the first line does not chain from this file's name: it was written as another file",
            ),
            None if self.line == 1 => self.fail(
                BreakKind::Removed,
                1,
                Some(entry.seq),
                &format!("the file starts at seq {}: lines before it are gone", entry.seq),
            ),
            None => self.fail(
                BreakKind::Edited,
                self.line - 1,
                None,
                "the line before this one is unreadable and is not the line that was written",
            ),
            Some(before) if entry.seq <= before => self.fail(
                BreakKind::Reordered,
                self.line,
                Some(entry.seq),
                &format!("seq {} follows seq {before}", entry.seq),
            ),
            Some(before) if entry.seq > before + 1 => {
                self.gap = Some(Gap {
                    line: self.line,
                    seq: entry.seq,
                    missing: (before + 1, entry.seq - 1),
                });
            }
            Some(before) => self.fail(
                BreakKind::Edited,
                self.line - 1,
                Some(before),
                "this line's bytes are not the ones the next line chained over",
            ),
        }
    }

    fn gap_break(&mut self, gap: Gap, kind: BreakKind) {
        let (lo, hi) = gap.missing;
        let missing = match lo == hi {
            true => format!("seq {lo}"),
            false => format!("seqs {lo}..={hi}"),
        };
        let why = match kind {
            BreakKind::Reordered => format!("{missing} comes after seq {} here", gap.seq),
            _ => format!("{missing} missing before seq {}", gap.seq),
        };
        self.fail(kind, gap.line, Some(gap.seq), &why);
    }

    fn fail(&mut self, kind: BreakKind, line: usize, seq: Option<u64>, why: &str) {
        self.broken.get_or_insert(Break {
            kind,
            line,
            seq,
            why: why.into(),
        });
    }

    /// The file's report, with its verdict.
    pub fn finish(mut self) -> super::ParsedFile {
        if let Some(gap) = self.gap.take() {
            self.gap_break(gap, BreakKind::Removed);
        }
        if let Some(anchor) = self.anchor.take() {
            self.chain.anchored = true;
            self.against(&anchor);
        }
        let entries = self.chain.entries;
        let verdict = match (self.broken, self.torn) {
            (Some(broken), _) => Verdict::Broken(broken),
            (None, true) => Verdict::Torn(self.chain),
            (None, false) => Verdict::Ok(self.chain),
        };
        super::ParsedFile {
            name: self.name,
            entries,
            torn: self.torn,
            corrupt: self.corrupt,
            verdict: Some(verdict),
        }
    }

    /// What the anchor shows that the file alone cannot.
    fn against(&mut self, anchor: &Anchor) {
        let lines = self.line;
        if self.first.as_deref() != Some(anchor.first.as_str()) {
            self.fail(
                BreakKind::Replaced,
                1,
                None,
                "the first line is not the one this host wrote: the file was replaced",
            );
        } else if self.chain.last_seq < anchor.seq {
            self.fail(
                BreakKind::Truncated,
                lines + 1,
                Some(anchor.seq),
                &format!(
                    "the host wrote up to seq {}, the file ends at seq {}",
                    anchor.seq, self.chain.last_seq
                ),
            );
        } else if let Some((line, false)) = self.anchor_line {
            self.fail(
                BreakKind::Edited,
                line,
                Some(anchor.seq),
                "this line is not the one the host wrote (its hash differs from the anchor's)",
            );
        }
    }
}

/// Verifies one whole file (see [`Verifier`]).
pub fn verify(name: &str, text: &[u8], anchor: Option<Anchor>) -> super::ParsedFile {
    let mut verifier = Verifier::new(name, anchor);
    for line in text.split_inclusive(|&b| b == b'\n') {
        verifier.line(line);
    }
    verifier.finish()
}

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

    pub fn finish(mut self) -> Resume {
        self.entries.reverse();
        Resume {
            last_seq: super::last_seq(&self.entries),
            last_hash: self.last.unwrap_or_else(|| genesis(&self.name)),
            open: super::dangling(&self.entries)
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
