//! `grep`: a case-insensitive substring search over the files under a folder.
//!
//! The walk sees folders through [`Executor::visible_entries`] (no dot names,
//! special files or links out of bounds), never enters a real folder or reads
//! a real file twice (two links to `.` would otherwise make it exponential),
//! and stops at declared limits, saying which one and what it had searched.

use super::reads::skipped_words;
use super::{Executor, walk::Seen};
use crate::audit::ActRecord;
use crate::contain::{self, RelPath};
use crate::platform::{Abilities, Env, MAX_FILE_BYTES, Storage};
use crate::reply::{Match, Reply, Searched, Skipped};
use crate::rule::{Refusal, Rule};
use crate::tier::{ActKind, Verdict};
use crate::words;
use alloc::collections::BTreeSet;
use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

/// At most this many matches are returned.
pub const MAX_MATCHES: usize = 100;
/// At most this many files are read.
pub const MAX_FILES: usize = 2_000;
/// At most this many bytes are read in all.
pub const MAX_BYTES: u64 = 16 << 20;
/// At most this many folder entries are looked at.
pub const MAX_ENTRIES: usize = 20_000;
/// Folders deeper than this below the start are not entered.
pub const MAX_DEPTH: usize = 16;
/// A matching line is cut to this many characters.
const MAX_LINE_CHARS: usize = 200;

/// What one search found, and what it looked through.
#[derive(Default)]
struct Search {
    matches: Vec<Match>,
    read: Vec<(RelPath, u64)>,
    searched: Searched,
    skipped: Skipped,
    /// Real paths of the folders entered and files read.
    visited: BTreeSet<RelPath>,
}

impl Search {
    fn stop(&mut self, limit: &'static str) {
        self.searched.stopped_at.get_or_insert(limit);
    }

    fn stopped(&self) -> bool {
        self.searched.stopped_at.is_some()
    }

    /// Marks `real` visited; false if it was already.
    fn first_visit(&mut self, real: &RelPath) -> bool {
        let first = self.visited.insert(real.clone());
        if !first {
            self.skipped.revisited += 1;
        }
        first
    }
}

impl<S: Storage, E: Env, A: Abilities> Executor<S, E, A> {
    /// Where a search (`grep`, `find`) starts: the folder `dir` (the root
    /// by default) located for reading with its verdict, the look's record,
    /// and the folder's real path; or the answer where there is no search to
    /// make (a blank `wanted`, refused as `blank` says, or a folder out of
    /// bounds), its refusal put on record.
    pub(super) async fn search_from(
        &self,
        dir: Option<&str>,
        wanted: &str,
        blank: &str,
        turn: Option<&str>,
    ) -> Result<(RelPath, Verdict, ActRecord, RelPath), Reply> {
        let name = dir.unwrap_or(".");
        let (start, verdict) = self.locate(name, ActKind::Read, turn).await?;
        let record = ActRecord::new(ActKind::Read, name);
        let refused = if wanted.trim().is_empty() {
            Refusal::new(Rule::MalformedField, blank)
        } else {
            match contain::confine(self.store(), &start).await {
                Ok(real) => return Ok((start, verdict, record, real.path)),
                Err(refusal) => refusal,
            }
        };
        Err(self.looked_and_failed(record, &start, refused, turn).await)
    }

    pub(super) async fn grep(&self, query: &str, dir: Option<&str>, turn: Option<&str>) -> Reply {
        let (start, verdict, record, real) = match self
            .search_from(
                dir,
                query,
                "`query` is empty; say what text to look for",
                turn,
            )
            .await
        {
            Ok(from) => from,
            Err(reply) => return reply,
        };
        let mut search = Search::default();
        search.first_visit(&real);
        let first = match self.enter(&start, &real, &mut search).await {
            Ok(found) => found,
            Err(e) => {
                let refusal = self.storage_refusal(e, &start);
                return self.looked_and_failed(record, &start, refusal, turn).await;
            }
        };
        let needle = query.to_lowercase();
        // Depth first; each frame is a folder's entries still to look at.
        let mut stack = vec![(first, 0usize)];
        let mut too_deep = false;
        'walk: while let Some((mut entries, depth)) = stack.pop() {
            while let Some(seen) = entries.pop() {
                if search.stopped() {
                    break 'walk;
                }
                if seen.entry.is_dir {
                    if depth == MAX_DEPTH {
                        too_deep = true;
                    } else if search.first_visit(&seen.real) {
                        // A folder that vanishes mid-walk is skipped.
                        if let Ok(found) = self.enter(&seen.path, &seen.real, &mut search).await {
                            stack.push((entries, depth));
                            stack.push((found, depth + 1));
                            continue 'walk;
                        }
                    }
                } else if seen.entry.bytes > MAX_FILE_BYTES {
                    search.skipped.too_large += 1;
                } else if search.first_visit(&seen.real) {
                    self.search_file(&seen.path, &needle, &mut search).await;
                }
            }
        }
        if too_deep {
            search.stop("depth");
        }
        let files: usize = {
            let mut names: Vec<&str> = search.matches.iter().map(|m| m.file.as_str()).collect();
            names.dedup();
            names.len()
        };
        let read = core::mem::take(&mut search.read);
        let seq = match self
            .looked(record, &start, verdict.rule, read, None, turn)
            .await
        {
            Ok(seq) => Some(seq),
            Err(reply) => return reply,
        };
        let truncated = search.stopped();
        let mut reply = Reply::done(format!(
            "found {} match{} for {query:?} in {files} file{}{}{}",
            search.matches.len(),
            if search.matches.len() == 1 { "" } else { "es" },
            if files == 1 { "" } else { "s" },
            match search.searched.stopped_at {
                Some(limit) => format!(" (stopped at the {limit} limit: narrow the search)"),
                None => String::new(),
            },
            skipped_words(&search.skipped),
        ))
        .said(match search.matches.len() {
            0 => format!("No file mentions {}.", words::quoted(query)),
            n => format!(
                "Found {} {} in {}.",
                words::quoted(query),
                if n == 1 {
                    String::from("once")
                } else {
                    format!("{n} times")
                },
                words::count(files, "file")
            ),
        });
        reply.matches = Some(search.matches);
        reply.truncated = Some(truncated);
        reply.searched = Some(search.searched);
        reply.skipped = search.skipped.any().then_some(search.skipped);
        self.answer(reply, seq)
    }

    /// Lists a folder for the walk, in reverse name order (the walk pops from
    /// the end, so files are searched in name order), within the entry limit.
    async fn enter(
        &self,
        folder: &RelPath,
        real: &RelPath,
        search: &mut Search,
    ) -> Result<Vec<Seen>, crate::platform::StorageError> {
        let mut seen = self
            .visible_entries(folder, real, &mut search.skipped)
            .await?;
        search.searched.folders += 1;
        let room = MAX_ENTRIES - search.searched.entries;
        if seen.len() > room {
            seen.sort_by(|a, b| a.entry.name.cmp(&b.entry.name));
            seen.truncate(room);
            search.stop("entries");
        }
        search.searched.entries += seen.len();
        seen.sort_by(|a, b| b.entry.name.cmp(&a.entry.name));
        Ok(seen)
    }

    async fn search_file(&self, path: &RelPath, needle: &str, search: &mut Search) {
        if search.searched.files >= MAX_FILES {
            search.stop("files");
            return;
        }
        // A file that changed kind or grew past the cap since it was listed is skipped.
        let Ok(raw) = self.read_bounded(path).await else {
            return;
        };
        if search.searched.bytes + raw.len() as u64 > MAX_BYTES {
            search.stop("bytes");
            return;
        }
        search.searched.files += 1;
        search.searched.bytes += raw.len() as u64;
        search.read.push((path.clone(), raw.len() as u64));
        let Ok(text) = core::str::from_utf8(&raw) else {
            return;
        };
        for (index, line) in text.lines().enumerate() {
            if !line.to_lowercase().contains(needle) {
                continue;
            }
            if search.matches.len() >= MAX_MATCHES {
                search.stop("matches");
                return;
            }
            search.matches.push(Match {
                file: path.as_str().into(),
                line: index + 1,
                text: line.chars().take(MAX_LINE_CHARS).collect::<String>(),
            });
        }
    }
}
