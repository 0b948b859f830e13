//! A log's lines read in bounded steps, from its end back ([`Backwards`], for
//! pages and a writer's resume) or from its start on ([`Forwards`], for the
//! check). Each byte is looked at once, and no line longer than [`MAX_LINE`]
//! is ever held: no entry the host writes is that long, so such a line is not
//! an entry, and it is passed over and counted, never fatal.

use alloc::collections::VecDeque;
use alloc::string::String;
use alloc::vec::Vec;
use sha2::{Digest, Sha256};

/// Bytes read per step.
pub const CHUNK: u64 = 64 * 1024;
/// The longest line the writer appends (newline included); it refuses a
/// longer entry, so a reader passes over any longer line as not an entry.
pub const MAX_LINE: usize = 16 << 20;

/// What reading a file backwards needs next.
#[derive(Debug, PartialEq, Eq)]
pub enum Step {
    /// A line (newline included, except a last fragment) and its start offset.
    Line(u64, Vec<u8>),
    /// A line longer than [`MAX_LINE`], bytes `start..end`: not held, not an entry.
    Skipped { start: u64, end: u64 },
    /// Read bytes `start..end` and [`Backwards::feed`] them.
    Read { start: u64, end: u64 },
    /// The start of the file was reached.
    Done,
}

/// One file's lines, from an offset back to its start.
#[derive(Debug)]
pub struct Backwards {
    /// Where the bytes held start; everything before is unread.
    pos: u64,
    /// Bytes `pos..` not yet given out, earliest first; they end at a line
    /// boundary. Fed chunks are kept as they came, never copied into one.
    held: VecDeque<Vec<u8>>,
    /// How many bytes `held` holds.
    len: usize,
    /// The earliest chunk's bytes before this index are not yet searched.
    unsearched: usize,
    /// Where the over-long line being passed over ends, while it is.
    skipping: Option<u64>,
}

impl Backwards {
    /// Lines before `end` (a line boundary, or the file's length).
    pub fn new(end: u64) -> Backwards {
        Backwards {
            pos: end,
            held: VecDeque::new(),
            len: 0,
            unsearched: 0,
            skipping: None,
        }
    }

    pub fn next_line(&mut self) -> Step {
        // The held bytes end with the last line's newline (or a fragment);
        // the line starts after the newline before it, searched for once.
        if let Some(front) = self.held.front()
            && let Some(i) = front[..self.unsearched].iter().rposition(|&b| b == b'\n')
        {
            let start = self.pos + i as u64 + 1;
            let end = match self.skipping.take() {
                Some(end) => end,
                None => self.pos + self.len as u64,
            };
            let mut front = self.held.pop_front().expect("looked at above");
            let first = front.split_off(i + 1);
            let step = match end - start > MAX_LINE as u64 {
                true => Step::Skipped { start, end },
                false => Step::Line(start, self.take_all(first)),
            };
            self.held.clear();
            self.held.push_front(front);
            self.len = i + 1;
            self.unsearched = i;
            return step;
        }
        self.unsearched = 0;
        if self.skipping.is_none() && self.len > MAX_LINE {
            // Longer than any entry: stop holding it, and only look for where
            // it starts.
            self.skipping = Some(self.pos + self.len as u64);
        }
        if let Some(end) = self.skipping {
            self.held.clear();
            self.len = 0;
            if self.pos == 0 {
                self.skipping = None;
                return Step::Skipped { start: 0, end };
            }
        }
        match (self.pos, self.len) {
            (0, 0) => Step::Done,
            (0, _) => Step::Line(0, self.take_all(Vec::new())),
            (end, _) => Step::Read {
                start: end.saturating_sub(CHUNK),
                end,
            },
        }
    }

    /// `first`, then every held chunk after the earliest, as one line.
    fn take_all(&mut self, mut line: Vec<u8>) -> Vec<u8> {
        for chunk in self.held.drain(..) {
            line.extend_from_slice(&chunk);
        }
        self.len = 0;
        line
    }

    /// The bytes of the last [`Step::Read`].
    pub fn feed(&mut self, start: u64, bytes: Vec<u8>) {
        self.pos = start;
        // With nothing held, the chunk's last byte ends the last line: it is
        // that line's own newline, not the one before it.
        self.unsearched = match self.held.is_empty() && self.skipping.is_none() {
            true => bytes.len().saturating_sub(1),
            false => bytes.len(),
        };
        self.len += bytes.len();
        self.held.push_front(bytes);
    }
}

/// A piece of a file read forwards.
#[derive(Debug, PartialEq, Eq)]
pub enum Piece<'a> {
    /// A line (newline included, except a last fragment).
    Line(&'a [u8]),
    /// A line longer than [`MAX_LINE`]: only its hash (for the chain) and
    /// length were kept; `whole` when it ends with its newline.
    Long {
        hash: String,
        bytes: u64,
        whole: bool,
    },
}

/// One file's lines from its start, fed in chunks.
#[derive(Default)]
pub struct Forwards {
    /// The start of a line whose newline has not come yet.
    partial: Vec<u8>,
    /// The hash and length so far of an over-long line, while it lasts.
    long: Option<(Sha256, u64)>,
}

impl Forwards {
    /// The next bytes; `out` gets each line they complete.
    pub fn feed(&mut self, bytes: &[u8], out: &mut impl FnMut(Piece<'_>)) {
        let mut rest = bytes;
        while let Some(i) = rest.iter().position(|&b| b == b'\n') {
            let (line, after) = rest.split_at(i + 1);
            self.gather(line);
            self.emit(true, out);
            rest = after;
        }
        self.gather(rest);
    }

    /// The end of the file: a last fragment without its newline.
    pub fn finish(mut self, out: &mut impl FnMut(Piece<'_>)) {
        if self.long.is_some() || !self.partial.is_empty() {
            self.emit(false, out);
        }
    }

    fn gather(&mut self, bytes: &[u8]) {
        if self.long.is_none() && self.partial.len() + bytes.len() > MAX_LINE {
            let mut hash = Sha256::new();
            hash.update(&self.partial);
            self.long = Some((hash, self.partial.len() as u64));
            self.partial = Vec::new();
        }
        match &mut self.long {
            Some((hash, len)) => {
                hash.update(bytes);
                *len += bytes.len() as u64;
            }
            None => self.partial.extend_from_slice(bytes),
        }
    }

    fn emit(&mut self, whole: bool, out: &mut impl FnMut(Piece<'_>)) {
        match self.long.take() {
            Some((hash, bytes)) => out(Piece::Long {
                hash: crate::hex(&hash.finalize()),
                bytes,
                whole,
            }),
            None => {
                out(Piece::Line(&self.partial));
                self.partial.clear();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every step of a backwards read of `text`, the reads answered from it.
    fn backwards(text: &[u8]) -> Vec<Step> {
        let mut lines = Backwards::new(text.len() as u64);
        let mut steps = Vec::new();
        loop {
            match lines.next_line() {
                Step::Read { start, end } => {
                    lines.feed(start, text[start as usize..end as usize].to_vec())
                }
                Step::Done => return steps,
                step => steps.push(step),
            }
        }
    }

    #[test]
    fn lines_come_back_newest_first_with_their_offsets_across_chunks() {
        let long = alloc::vec![b'a'; CHUNK as usize * 2 + 7];
        let mut text = b"one\n".to_vec();
        text.extend_from_slice(&long);
        text.extend_from_slice(b"\nthree");
        let steps = backwards(&text);
        let mut middle = long.clone();
        middle.push(b'\n');
        assert_eq!(
            steps,
            [
                Step::Line(text.len() as u64 - 5, b"three".to_vec()),
                Step::Line(4, middle),
                Step::Line(0, b"one\n".to_vec()),
            ]
        );
    }

    #[test]
    fn a_line_past_the_cap_is_skipped_by_its_span_and_the_lines_around_it_survive() {
        let mut text = b"before\n".to_vec();
        text.resize(7 + MAX_LINE + 10, b'x');
        text.extend_from_slice(b"\nafter\n");
        let end = text.len() as u64 - 6;
        assert_eq!(
            backwards(&text),
            [
                Step::Line(end, b"after\n".to_vec()),
                Step::Skipped { start: 7, end },
                Step::Line(0, b"before\n".to_vec()),
            ]
        );
        // Control: a line at the cap is a line.
        let mut text = b"before\n".to_vec();
        text.resize(7 + MAX_LINE - 1, b'x');
        text.push(b'\n');
        let steps = backwards(&text);
        assert!(matches!(&steps[0], Step::Line(7, line) if line.len() == MAX_LINE));
    }

    #[test]
    fn an_over_long_first_line_with_no_newline_is_skipped_to_the_start() {
        let text = alloc::vec![b'x'; MAX_LINE + CHUNK as usize];
        assert_eq!(
            backwards(&text),
            [Step::Skipped {
                start: 0,
                end: text.len() as u64
            }]
        );
    }

    fn forwards(text: &[u8], chunk: usize) -> Vec<(Option<Vec<u8>>, bool)> {
        let mut lines = Forwards::default();
        let mut out = Vec::new();
        let mut push = |piece: Piece<'_>| match piece {
            Piece::Line(line) => out.push((Some(line.to_vec()), line.ends_with(b"\n"))),
            Piece::Long { whole, .. } => out.push((None, whole)),
        };
        for part in text.chunks(chunk) {
            lines.feed(part, &mut push);
        }
        lines.finish(&mut push);
        out
    }

    #[test]
    fn forwards_gives_each_line_once_whatever_the_chunking() {
        let text = b"a\nbb\n\ncut";
        for chunk in 1..text.len() {
            let got = forwards(text, chunk);
            let lines: Vec<&[u8]> = got.iter().map(|(l, _)| l.as_deref().unwrap()).collect();
            assert_eq!(
                lines,
                [&b"a\n"[..], b"bb\n", b"\n", b"cut"],
                "chunk {chunk}"
            );
        }
    }

    #[test]
    fn forwards_keeps_only_the_hash_of_an_over_long_line() {
        let mut text = alloc::vec![b'x'; MAX_LINE + 1];
        text.extend_from_slice(b"\nnext\n");
        let mut hashes = Vec::new();
        let mut lines = Forwards::default();
        for part in text.chunks(CHUNK as usize) {
            lines.feed(part, &mut |piece| {
                if let Piece::Long { hash, bytes, whole } = piece {
                    hashes.push((hash, bytes, whole));
                }
            });
        }
        let whole = &text[..MAX_LINE + 2];
        assert_eq!(
            hashes,
            [(
                super::super::chain::line_hash(whole),
                whole.len() as u64,
                true
            )]
        );
        assert_eq!(
            forwards(&text, CHUNK as usize)[1],
            (Some(b"next\n".to_vec()), true)
        );
    }
}
