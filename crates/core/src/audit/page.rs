//! The paged read of a root's audit: newest first, in the (instance, seq)
//! merge order reversed, reading each file backwards from its end in chunks,
//! so a page costs what it shows and not what the log holds.
//!
//! The [`Pager`] does no I/O: it says which byte range of which file it needs
//! next, and is fed the bytes. The cursor is each file's offset where its
//! unread part ends; files only grow, so an offset stays a line boundary.

use super::Entry;
use super::lines::{Backwards, Step};
use crate::rule::{Refusal, Rule};
use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use serde::Serialize;

/// Entries per page unless the reader asks otherwise.
pub const DEFAULT_LIMIT: usize = 200;
/// The most entries one page holds; a larger `limit` is refused by name.
pub const MAX_LIMIT: usize = 1000;

/// Which page to read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PageRequest {
    /// Per file, where its unread part ends; `None` for the first page.
    cursor: Option<BTreeMap<String, u64>>,
    limit: usize,
}

impl PageRequest {
    /// The first page of `limit` entries.
    pub fn first(limit: usize) -> PageRequest {
        PageRequest {
            cursor: None,
            limit: limit.clamp(1, MAX_LIMIT),
        }
    }

    /// A page as a reader asked for it: `limit` in 1..=[`MAX_LIMIT`]
    /// (default [`DEFAULT_LIMIT`]) and a cursor from an earlier page's `next`.
    pub fn new(cursor: Option<&str>, limit: Option<usize>) -> Result<PageRequest, Refusal> {
        let limit = limit.unwrap_or(DEFAULT_LIMIT);
        if !(1..=MAX_LIMIT).contains(&limit) {
            return Err(Refusal::new(
                Rule::MalformedField,
                format!(
                    "limit must be 1..={MAX_LIMIT} entries per page; ask for the next page with the answer's `next` cursor"
                ),
            ));
        }
        let cursor = match cursor {
            None => None,
            Some(text) => Some(decode(text).ok_or_else(|| {
                Refusal::new(
                    Rule::MalformedField,
                    "the cursor is not one this host gave; pass the `next` of an earlier page, or none for the newest page",
                )
            })?),
        };
        Ok(PageRequest { cursor, limit })
    }

    /// Whether this is the first page (which carries the files' verdicts).
    pub fn is_first(&self) -> bool {
        self.cursor.is_none()
    }
}

/// The opaque form of a cursor: hex of `name:offset` pairs. Opaque so that
/// readers pass it back rather than build one.
fn encode(ends: &BTreeMap<String, u64>) -> String {
    let plain: Vec<String> = ends.iter().map(|(n, e)| format!("{n}:{e}")).collect();
    crate::hex(plain.join(",").as_bytes())
}

fn decode(text: &str) -> Option<BTreeMap<String, u64>> {
    if !text.len().is_multiple_of(2) || text.is_empty() {
        return None;
    }
    let bytes: Option<Vec<u8>> = (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(text.get(i..i + 2)?, 16).ok())
        .collect();
    let plain = String::from_utf8(bytes?).ok()?;
    plain
        .split(',')
        .map(|pair| {
            let (name, end) = pair.rsplit_once(':')?;
            Some((name.into(), end.parse().ok()?))
        })
        .collect()
}

struct Stream {
    name: String,
    lines: Backwards,
    /// The next entry to give out and its line's start.
    head: Option<(Entry, u64)>,
    /// Where this file's unread part ends.
    end: u64,
    done: bool,
}

/// A read of one file's bytes the pager needs.
#[derive(Debug, PartialEq, Eq)]
pub struct Read {
    pub stream: usize,
    pub name: String,
    pub start: u64,
    pub end: u64,
}

/// A line passed over because it is longer than any entry: not an entry.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Skipped {
    pub file: String,
    /// Where it starts in the file.
    pub at: u64,
    pub bytes: u64,
}

/// One page, being read.
pub struct Pager {
    streams: Vec<Stream>,
    limit: usize,
    out: Vec<Entry>,
    skipped: Vec<Skipped>,
}

impl Pager {
    /// A page over `files` (name, length). A file the cursor does not name is
    /// not read: it was finished, or appeared after the first page (a fresh
    /// first page shows it).
    pub fn new(files: &[(String, u64)], request: &PageRequest) -> Pager {
        let streams = files
            .iter()
            .filter_map(|(name, len)| {
                let end = match &request.cursor {
                    None => *len,
                    Some(ends) => (*ends.get(name)?).min(*len),
                };
                Some(Stream {
                    name: name.clone(),
                    lines: Backwards::new(end),
                    head: None,
                    end,
                    done: false,
                })
            })
            .collect();
        Pager {
            streams,
            limit: request.limit,
            out: Vec::new(),
            skipped: Vec::new(),
        }
    }

    /// The next read the page needs, or `None` once it is complete.
    pub fn want(&mut self) -> Option<Read> {
        loop {
            for (index, stream) in self.streams.iter_mut().enumerate() {
                while stream.head.is_none() && !stream.done {
                    match stream.lines.next_line() {
                        Step::Line(start, line) => {
                            let text = core::str::from_utf8(&line).unwrap_or("");
                            // Torn and unreadable lines are not entries; the
                            // file's report names them.
                            if let Ok(entry) = serde_json::from_str(text.trim_end_matches('\n')) {
                                stream.head = Some((entry, start));
                            }
                        }
                        Step::Skipped { start, end } => self.skipped.push(Skipped {
                            file: stream.name.clone(),
                            at: start,
                            bytes: end - start,
                        }),
                        Step::Read { start, end } => {
                            return Some(Read {
                                stream: index,
                                name: stream.name.clone(),
                                start,
                                end,
                            });
                        }
                        Step::Done => stream.done = true,
                    }
                }
            }
            if self.out.len() == self.limit {
                return None;
            }
            let newest = self
                .streams
                .iter_mut()
                .filter(|s| s.head.is_some())
                .max_by(|a, b| key(a).cmp(&key(b)))?;
            let (entry, start) = newest.head.take().expect("filtered on head");
            newest.end = start;
            self.out.push(entry);
        }
    }

    /// The bytes of read `read`.
    pub fn feed(&mut self, read: &Read, bytes: Vec<u8>) {
        self.streams[read.stream].lines.feed(read.start, bytes);
    }

    /// Stops reading the file of `read`, which could not be read (it
    /// changed since it was listed): the page shows the others.
    pub fn drop_file(&mut self, read: &Read) {
        let stream = &mut self.streams[read.stream];
        stream.done = true;
        stream.head = None;
    }

    /// The page's entries, newest first, the next page's cursor, and the
    /// over-long lines passed over on the way.
    pub fn finish(self) -> (Vec<Entry>, Option<String>, Vec<Skipped>) {
        let rest: BTreeMap<String, u64> = self
            .streams
            .iter()
            .filter(|s| s.head.is_some())
            .map(|s| (s.name.clone(), s.end))
            .collect();
        let next = (!rest.is_empty()).then(|| encode(&rest));
        (self.out, next, self.skipped)
    }
}

fn key(stream: &Stream) -> Option<(&str, u64)> {
    stream
        .head
        .as_ref()
        .map(|(e, _)| (e.instance.as_str(), e.seq))
}
