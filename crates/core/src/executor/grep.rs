//! `grep`: a case-insensitive substring search over the files under a folder.
//! It skips dot folders (host and tool files), links that leave the root and
//! large files, and stops at a bounded number of matches and files.

use super::Executor;
use crate::audit::ActRecord;
use crate::contain::{self, RelPath};
use crate::platform::ToolRunner;
use crate::platform::{Env, Storage};
use crate::reply::{Match, Reply};
use crate::rule::{Refusal, Rule};
use crate::tier::ActKind;
use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

/// Files larger than this are skipped.
pub const MAX_FILE_BYTES: u64 = 1 << 20;
/// At most this many matches are returned.
pub const MAX_MATCHES: usize = 100;
/// At most this many files are read.
pub const MAX_FILES: usize = 2_000;
/// A matching line is cut to this many characters.
const MAX_LINE_CHARS: usize = 200;

/// What one search found.
#[derive(Default)]
struct Search {
    matches: Vec<Match>,
    read: Vec<(RelPath, u64)>,
    truncated: bool,
}

impl<S: Storage, E: Env, T: ToolRunner> Executor<S, E, T> {
    pub(super) async fn grep(&self, query: &str, dir: Option<&str>, turn: Option<&str>) -> Reply {
        let name = dir.unwrap_or(".");
        let (start, verdict) = match self.locate(name, ActKind::Read, turn).await {
            Ok(found) => found,
            Err(reply) => return reply,
        };
        if query.trim().is_empty() {
            let refusal = Refusal::new(
                Rule::MalformedField,
                "`query` is empty; say what text to look for",
            );
            return self
                .looked_and_failed(ActRecord::new(ActKind::Read, name), &start, refusal, turn)
                .await;
        }
        if let Err(e) = self.store().list(&start).await {
            let refusal = self.storage_refusal(e, &start);
            return self
                .looked_and_failed(ActRecord::new(ActKind::Read, name), &start, refusal, turn)
                .await;
        }
        let needle = query.to_lowercase();
        let mut search = Search::default();
        let mut folders = vec![start.clone()];
        while let Some(folder) = folders.pop() {
            // Folders that vanish mid-walk are skipped; the start was checked above.
            let Ok(mut entries) = self.store().list(&folder).await else {
                continue;
            };
            entries.sort_by(|a, b| b.name.cmp(&a.name));
            for entry in entries.into_iter().filter(|e| !e.name.starts_with('.')) {
                let path = folder.child(&entry.name);
                if contain::confine(self.store(), &path).await.is_err() {
                    continue;
                }
                if entry.is_dir {
                    folders.push(path);
                } else if entry.bytes <= MAX_FILE_BYTES {
                    self.search_file(&path, &needle, &mut search).await;
                }
                if search.truncated {
                    break;
                }
            }
            if search.truncated {
                break;
            }
        }
        let files: usize = {
            let mut names: Vec<&str> = search.matches.iter().map(|m| m.file.as_str()).collect();
            names.dedup();
            names.len()
        };
        let read = core::mem::take(&mut search.read);
        let seq = self
            .looked(
                ActRecord::new(ActKind::Read, name),
                &start,
                verdict.rule,
                read,
                turn,
            )
            .await;
        let mut reply = Reply::done(format!(
            "found {} match{} for {query:?} in {files} file{}{}",
            search.matches.len(),
            if search.matches.len() == 1 { "" } else { "es" },
            if files == 1 { "" } else { "s" },
            if search.truncated {
                " (stopped early: narrow the search)"
            } else {
                ""
            },
        ));
        reply.matches = Some(search.matches);
        reply.truncated = Some(search.truncated);
        self.answer(reply, seq)
    }

    async fn search_file(&self, path: &RelPath, needle: &str, search: &mut Search) {
        if search.read.len() >= MAX_FILES {
            search.truncated = true;
            return;
        }
        let Ok(raw) = self.store().read(path).await else {
            return;
        };
        search.read.push((path.clone(), raw.len() as u64));
        let Ok(text) = core::str::from_utf8(&raw) else {
            return;
        };
        for (index, line) in text.lines().enumerate() {
            if !line.to_lowercase().contains(needle) {
                continue;
            }
            if search.matches.len() >= MAX_MATCHES {
                search.truncated = true;
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
