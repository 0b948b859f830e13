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
use super::lines::{Forwards, Piece};
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
    anchoring: Anchoring,
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
    /// Entries after the anchored line the host did not announce: the first
    /// one's line, and how many.
    tail: Option<(usize, usize)>,
    /// How many of the lines the anchor announced were seen right after it.
    announced: usize,
    gap: Option<Gap>,
    broken: Option<Break>,
    torn: bool,
    corrupt: Vec<usize>,
}

impl Verifier {
    pub fn new(name: &str, anchoring: Anchoring) -> Verifier {
        Verifier {
            name: name.into(),
            anchoring,
            line: 0,
            expect: genesis(name),
            prev_seq: None,
            chain: Chain::default(),
            chained: false,
            first: None,
            anchor_line: None,
            tail: None,
            announced: 0,
            gap: None,
            broken: None,
            torn: false,
            corrupt: Vec::new(),
        }
    }

    /// The next piece of the file read forwards.
    pub fn piece(&mut self, piece: Piece<'_>) {
        match piece {
            Piece::Line(raw) => self.line(raw),
            Piece::Long { hash, whole, .. } => self.not_an_entry(hash, whole),
        }
    }

    /// The next line: its bytes with the newline, or a last fragment without.
    pub fn line(&mut self, raw: &[u8]) {
        let hash = line_hash(raw);
        let text = core::str::from_utf8(raw).unwrap_or("");
        match serde_json::from_str::<Entry>(text.trim_end_matches('\n')) {
            Ok(entry) => {
                self.line += 1;
                self.first.get_or_insert_with(|| hash.clone());
                self.chain.entries += 1;
                self.check(&entry, &hash);
                self.chain.last_seq = self.chain.last_seq.max(entry.seq);
                self.prev_seq = Some(entry.seq);
                self.chained_over(hash);
            }
            Err(_) => self.not_an_entry(hash, raw.ends_with(b"\n")),
        }
    }

    /// A line that is not an entry, by its hash: a last one without its
    /// newline is torn; a closed one still chains (the writer chained the
    /// next line over an interrupted write's fragment).
    fn not_an_entry(&mut self, hash: String, whole: bool) {
        self.line += 1;
        self.first.get_or_insert_with(|| hash.clone());
        match whole {
            false => self.torn = true,
            true => {
                self.corrupt.push(self.line);
                self.prev_seq = None;
            }
        }
        self.chained_over(hash);
    }

    fn chained_over(&mut self, hash: String) {
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
        if let Anchoring::Anchored(anchor) = &self.anchoring {
            let after = self.anchor_line.is_some() || anchor.none_before();
            match self.anchor_line {
                _ if after => {
                    let own = self.tail.is_none();
                    if own && anchor.announced(self.announced, entry.seq, hash) {
                        self.announced += 1;
                    } else {
                        let tail = self.tail.get_or_insert((self.line, 0));
                        tail.1 += 1;
                    }
                }
                None if anchor.seq == entry.seq => {
                    self.anchor_line = Some((self.line, anchor.hash == hash));
                }
                _ => {}
            }
        }
        if self.broken.is_some() {
            return;
        }
        if entry.seq == u64::MAX {
            return self.fail(
                BreakKind::Ceiling,
                self.line,
                Some(entry.seq),
                "this seq is the ceiling: no seq can follow it, and the host never writes it",
            );
        }
        // Seqs only grow, on every line: a chain recomputed over a planted
        // seq holds, and must still not pass.
        let backwards = self.prev_seq.filter(|before| entry.seq <= *before);
        let Some(prev) = &entry.prev else {
            if let Some(before) = backwards {
                self.seq_backwards(entry.seq, before);
            } else if self.chained {
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
            if let Some(before) = backwards {
                self.seq_backwards(entry.seq, before);
            }
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
            Some(before) if entry.seq > before.saturating_add(1) => {
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

    /// This line's seq is not above the one before it.
    fn seq_backwards(&mut self, seq: u64, before: u64) {
        let why = format!("seq {seq} follows seq {before}");
        self.fail(BreakKind::Reordered, self.line, Some(seq), &why);
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
        let anchoring = core::mem::replace(&mut self.anchoring, Anchoring::NotKept);
        let anchored_seq = match &anchoring {
            Anchoring::Anchored(anchor) => {
                self.chain.anchored = true;
                self.against(anchor);
                anchor.seq + self.announced as u64
            }
            _ => 0,
        };
        let entries = self.chain.entries;
        let verdict = match (self.broken, anchoring, self.tail) {
            (Some(broken), ..) => Verdict::Broken(broken),
            (None, Anchoring::Unknown, _) if self.line > 0 => Verdict::Unanchored(self.chain),
            (None, Anchoring::Anchored(_), Some((line, after))) => Verdict::UnanchoredTail(Tail {
                chain: self.chain,
                anchored_seq,
                line,
                after,
            }),
            _ if self.torn => Verdict::Torn(self.chain),
            _ => Verdict::Ok(self.chain),
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
        if lines == 0 {
            if !anchor.none_before() {
                self.fail(
                    BreakKind::Truncated,
                    1,
                    Some(anchor.seq),
                    &format!("the file is empty; the host wrote up to seq {}", anchor.seq),
                );
            }
        } else if self.first.as_deref() != Some(anchor.first.as_str()) {
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
pub fn verify(name: &str, text: &[u8], anchoring: Anchoring) -> super::ParsedFile {
    let mut verifier = Verifier::new(name, anchoring);
    let mut lines = Forwards::default();
    lines.feed(text, &mut |piece| verifier.piece(piece));
    lines.finish(&mut |piece| verifier.piece(piece));
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

    /// The line before the ones given so far, passed over as longer than any
    /// entry: only its hash, for the chain.
    pub fn push_long(&mut self, hash: String) {
        self.last.get_or_insert(hash);
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
