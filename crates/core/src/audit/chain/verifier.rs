//! The check of one file's chain, line by line.

use super::{Anchor, Anchoring, Break, BreakKind, Chain, Tail, Verdict, genesis, line_hash};
use crate::audit::Entry;
use crate::audit::lines::{Forwards, Piece};
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

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
    pub fn finish(mut self) -> crate::audit::ParsedFile {
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
        crate::audit::ParsedFile {
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
pub fn verify(name: &str, text: &[u8], anchoring: Anchoring) -> crate::audit::ParsedFile {
    let mut verifier = Verifier::new(name, anchoring);
    let mut lines = Forwards::default();
    lines.feed(text, &mut |piece| verifier.piece(piece));
    lines.finish(&mut |piece| verifier.piece(piece));
    verifier.finish()
}
