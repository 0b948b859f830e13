//! Verbs that only look: `read`, `list`, `diff`. One entry each, recording
//! what was looked at.

use super::history::commit_words;
use super::{Executor, bytes};
use crate::audit::{ActRecord, Happened, Observed, ReadRecord};
use crate::contain::RelPath;
use crate::journal;
use crate::notes;
use crate::platform::Abilities;
use crate::platform::{DirEntry, MAX_FILE_BYTES, StorageError};
use crate::platform::{Env, Storage};
use crate::reply::Skipped;
use crate::reply::{Lines, Reply};
use crate::rule::{Refusal, Rule};
use crate::tier::ActKind;
use crate::words;
use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

/// A listing returns at most this many entries (the first by name), with
/// `total` and `truncated` saying how many there are.
pub const MAX_LIST_ENTRIES: usize = 1_000;

/// What a listing or search left out, as words for its one-line summary.
pub(super) fn skipped_words(skipped: &Skipped) -> String {
    let mut parts = Vec::new();
    for (n, one, many) in [
        (skipped.special, "special file", "special files"),
        (
            skipped.links,
            "link to a hidden or outside place",
            "links to hidden or outside places",
        ),
        (
            skipped.revisited, "place already seen", "places already seen",
        ),
        (skipped.too_large, "file over 1 MiB", "files over 1 MiB"),
    ] {
        match n {
            0 => {}
            1 => parts.push(format!("1 {one}")),
            n => parts.push(format!("{n} {many}")),
        }
    }
    if parts.is_empty() {
        String::new()
    } else {
        format!("; skipped {}", parts.join(", "))
    }
}

impl<S: Storage, E: Env, A: Abilities> Executor<S, E, A> {
    /// `read {name, first?, last?, at?}`: the whole file, or its first or
    /// last lines, as it is or as a commit `at` names held it; the answer
    /// carries the sha256 of the file as it is now (none for an old copy,
    /// which no save may be checked against).
    pub(super) async fn read(
        &self,
        name: &str,
        first: Option<u64>,
        last: Option<u64>,
        at: Option<&str>,
        turn: Option<&str>,
    ) -> Reply {
        let odd = (first.is_some() && last.is_some()).then(|| {
            Refusal::new(
                Rule::MalformedField,
                "ask for the first lines or the last lines, not both",
            )
        });
        let (path, verdict, record) = match self.locate_read(name, at, odd, turn).await {
            Ok(located) => located,
            Err(reply) => return reply,
        };
        let found = match at {
            None => self.read_text(&path).await.map(|text| (text, None)),
            Some(at) => self
                .text_at(&path, at)
                .and_then(|(text, commit)| match text {
                    Some(text) => Ok((text, Some(commit))),
                    None => Err(Refusal::new(
                        Rule::NotFound,
                        format!(
                            "`{path}` was not in your folder at {}",
                            commit_words(&commit, self.env.offset_secs())
                        ),
                    )),
                }),
        };
        let (text, then) = match found {
            Ok(found) => found,
            Err(refusal) => return self.looked_and_failed(record, &path, refusal, turn).await,
        };
        let size = text.len() as u64;
        let seq = match self
            .looked(
                record,
                &path,
                verdict.rule,
                vec![(path.clone(), size)],
                None,
                turn,
            )
            .await
        {
            Ok(seq) => Some(seq),
            Err(reply) => return reply,
        };
        let sha256 = journal::digest(text.as_bytes());
        let mut reply = match (first, last) {
            (None, None) => {
                let said = match words::lines(&text) {
                    0 => format!("{path} is empty."),
                    n => format!("{path} has {}:", words::count(n, "line")),
                };
                let mut reply = Reply::done(format!("read {path} ({})", bytes(size))).said(said);
                reply.content = Some(text);
                reply
            }
            _ => {
                let part = notes::part(&text, first, last);
                let which = if first.is_some() { "first" } else { "last" };
                let shown = part.to + 1 - part.from.max(1);
                let said = match (part.of, part.from) {
                    (0, _) => format!("{path} is empty."),
                    (of, 1) if part.to == of => {
                        format!("{path} has {}, all shown:", words::count(of, "line"))
                    }
                    (of, from) if shown == 1 => {
                        format!("The {which} line of {path} (line {from} of {of}):")
                    }
                    (of, from) => format!(
                        "The {which} {} of {path} (lines {from}–{} of {of}):",
                        words::count(shown, "line"),
                        part.to
                    ),
                };
                let mut reply = Reply::done(format!(
                    "read lines {}–{} of {} of {path} ({})",
                    part.from,
                    part.to,
                    part.of,
                    bytes(size)
                ))
                .said(said);
                reply.lines = Some(Lines {
                    from: part.from,
                    to: part.to,
                    of: part.of,
                });
                reply.content = Some(part.text);
                reply
            }
        };
        reply.file = Some(path.as_str().into());
        reply.bytes = Some(size);
        match then {
            None => reply.sha256 = Some(sha256),
            Some(commit) => {
                let then = commit_words(&commit, self.env.offset_secs());
                reply.words = reply.words.map(|said| format!("As of {then}: {said}"));
                reply.commit = Some(commit);
            }
        }
        self.answer(reply, seq)
    }

    pub(super) async fn list(&self, dir: Option<&str>, turn: Option<&str>) -> Reply {
        let name = dir.unwrap_or(".");
        let (path, verdict) = match self.locate(name, ActKind::Read, turn).await {
            Ok(found) => found,
            Err(reply) => return reply,
        };
        let record = ActRecord::new(ActKind::Read, name);
        let mut skipped = Skipped::default();
        let listed = self.folder_entries(&path, &mut skipped).await;
        let listed = listed.map(|seen| {
            let mut entries: Vec<DirEntry> = seen.into_iter().map(|seen| seen.entry).collect();
            entries.sort_by(|a, b| a.name.cmp(&b.name));
            entries
        });
        let (mut entries, seq) = match self
            .looked_over(record, &path, verdict.rule, listed, Vec::len, turn)
            .await
        {
            Ok(done) => done,
            Err(reply) => return reply,
        };
        let total = entries.len();
        entries.truncate(MAX_LIST_ENTRIES);
        let place = if path.is_root() {
            String::from("your folder")
        } else {
            format!("{path}")
        };
        let count = match total {
            1 => String::from("1 entry"),
            n => format!("{n} entries"),
        };
        let shown = if total > entries.len() {
            format!(" (the first {} by name)", entries.len())
        } else {
            String::new()
        };
        let said = listing_words(&path, &entries, total);
        let mut reply = Reply::done(format!(
            "listed {place}: {count}{shown}{}",
            skipped_words(&skipped)
        ))
        .said(said);
        if !path.is_root() {
            reply.file = Some(path.as_str().into());
        }
        reply.truncated = Some(total > entries.len());
        reply.total = Some(total);
        reply.skipped = skipped.any().then_some(skipped);
        reply.files = Some(entries);
        self.answer(reply, Some(seq))
    }

    /// Reads a file of at most [`MAX_FILE_BYTES`], with failures named. The
    /// storage refuses a larger file before reading it; the length is checked
    /// again here for storage that can only read whole files.
    pub(super) async fn read_bounded(&self, path: &RelPath) -> Result<Vec<u8>, StorageError> {
        let raw = self.store().read(path).await?;
        match raw.len() as u64 {
            size if size > MAX_FILE_BYTES => Err(StorageError::TooLarge(size)),
            _ => Ok(raw),
        }
    }

    /// Reads a file as UTF-8 text, with failures named.
    pub(super) async fn read_text(&self, path: &RelPath) -> Result<String, Refusal> {
        let raw = self
            .read_bounded(path)
            .await
            .map_err(|e| self.storage_refusal(e, path))?;
        String::from_utf8(raw).map_err(|_| {
            Refusal::new(
                Rule::NotText,
                format!("`{path}` is not UTF-8 text, so it cannot be shown or edited here"),
            )
        })
    }

    /// A look over the folder or file `path` as a whole (a listing, a
    /// history), put on record either way: what it `found` and the entry's
    /// seq, with `count` of the things found; or, where it failed, the
    /// audited refusal as the answer.
    pub(super) async fn looked_over<T>(
        &self,
        record: ActRecord,
        path: &RelPath,
        rule: Rule,
        found: Result<T, Refusal>,
        count: impl FnOnce(&T) -> usize,
        turn: Option<&str>,
    ) -> Result<(T, u64), Reply> {
        let found = match found {
            Ok(found) => found,
            Err(refusal) => return Err(self.looked_and_failed(record, path, refusal, turn).await),
        };
        let entries = Some(count(&found));
        let seq = self
            .looked(record, path, rule, vec![(path.clone(), 0)], entries, turn)
            .await?;
        Ok((found, seq))
    }

    /// The entry for a successful look: what was read, and what the world
    /// shows. A look that cannot be put on record is not answered: what it
    /// read is withheld (`audit-unwritable`), as an act would not be done.
    pub(super) async fn looked(
        &self,
        record: ActRecord,
        path: &RelPath,
        rule: Rule,
        read: Vec<(RelPath, u64)>,
        entries: Option<usize>,
        turn: Option<&str>,
    ) -> Result<u64, Reply> {
        let seen = self.store().observe(path).await;
        let observed = Observed {
            entries: entries.map(|n| n as u64),
            ..self.observed(&seen)
        };
        let read = read
            .into_iter()
            .map(|(path, bytes)| ReadRecord {
                path: path.as_str().into(),
                bytes,
            })
            .collect();
        let entry = self.entry(
            record,
            turn,
            Happened::Allowed {
                rule,
                observed: Some(observed),
                read: Some(read),
            },
        );
        self.store()
            .append_audit(&entry)
            .await
            .map_err(|e| self.unwritable(&e, "what was read is not shown"))
    }

    /// An allowed look that failed (not found, not text): an error entry.
    /// A change that found nothing to do (a tick on a ticked item, a
    /// folder already there): recorded as a look at `path`, never a write.
    pub(super) async fn nothing_changed(
        &self,
        record: ActRecord,
        path: &RelPath,
        rule: Rule,
        turn: Option<&str>,
    ) -> Result<u64, Reply> {
        self.looked(record, path, rule, Vec::new(), None, turn)
            .await
    }

    pub(super) async fn looked_and_failed(
        &self,
        record: ActRecord,
        path: &RelPath,
        refusal: Refusal,
        turn: Option<&str>,
    ) -> Reply {
        let refusal = self.with_neighbours(refusal, &record.target).await;
        let seen = self.store().observe(path).await;
        let entry = self.entry(
            record,
            turn,
            Happened::Failed {
                rule: self.inside_rule(ActKind::Read),
                observed: Some(self.observed(&seen)),
                refusal: &refusal,
            },
        );
        let seq = self.log(entry).await;
        self.answer(Reply::refusal(refusal), seq)
    }
}

/// A listing in a person's words: "Your folder has 2 files: a.txt and b.txt."
/// (names when there are a few), "assets is empty.".
fn listing_words(path: &RelPath, entries: &[DirEntry], total: usize) -> String {
    let place = if path.is_root() {
        String::from("Your folder")
    } else {
        format!("{path}")
    };
    if total == 0 {
        return format!("{place} is empty.");
    }
    if total > entries.len() {
        return format!(
            "{place} has {}; the first {} by name are shown.",
            words::count(total, "entry"),
            entries.len()
        );
    }
    let files = entries.iter().filter(|e| !e.is_dir).count();
    let folders = entries.len() - files;
    let mut parts = Vec::new();
    if files > 0 {
        parts.push(words::count(files, "file"));
    }
    if folders > 0 {
        parts.push(words::count(folders, "folder"));
    }
    let names: Vec<String> = entries
        .iter()
        .map(|e| {
            if e.is_dir {
                format!("{}/", e.name)
            } else {
                e.name.clone()
            }
        })
        .collect();
    if names.len() <= 3 {
        format!(
            "{place} has {}: {}.",
            words::listed(&parts),
            words::listed(&names)
        )
    } else {
        format!("{place} has {}.", words::listed(&parts))
    }
}
