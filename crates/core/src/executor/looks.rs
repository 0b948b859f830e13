//! Looks that answer about names, not contents: `find` (files and folders
//! whose names match words or a `*`/`?` pattern) and `info` (what one file
//! or folder is). Both see folders through [`Executor::visible_entries`],
//! as `list` and `grep` do, and are bounded like `grep`.

use super::grep::{MAX_DEPTH, MAX_ENTRIES, MAX_MATCHES};
use super::reads::skipped_words;
use super::{Executor, bytes};
use crate::platform::{Abilities, DirEntry, Env, Storage, StorageError};
use crate::reply::{Info, InfoKind, Reply, Searched, Skipped};
use crate::rule::Rule;
use crate::tier::ActKind;
use crate::time::iso8601;
use crate::words;
use alloc::collections::{BTreeSet, VecDeque};
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

/// Whether `name` matches `pattern`, case aside: a pattern with `*` or `?`
/// is a glob over the whole name; otherwise every word of it must occur in
/// the name ("budget" finds `Budget 2026.md`).
pub fn name_matches(pattern: &str, name: &str) -> bool {
    let (pattern, name) = (pattern.trim().to_lowercase(), name.to_lowercase());
    if pattern.contains(['*', '?']) {
        let (p, n): (Vec<char>, Vec<char>) = (pattern.chars().collect(), name.chars().collect());
        return glob(&p, &n);
    }
    let mut words = pattern
        .split(|c: char| c.is_whitespace() || c == '_' || c == '-')
        .filter(|w| !w.is_empty())
        .peekable();
    words.peek().is_some() && words.all(|word| name.contains(word))
}

/// `*` any run of characters, `?` one; iterative, so no pattern is slow.
fn glob(pattern: &[char], name: &[char]) -> bool {
    let (mut p, mut n) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while n < name.len() {
        match pattern.get(p) {
            Some('*') => {
                star = Some((p, n));
                p += 1;
            }
            Some(&c) if c == '?' || c == name[n] => {
                p += 1;
                n += 1;
            }
            _ => match star {
                Some((sp, sn)) => {
                    p = sp + 1;
                    n = sn + 1;
                    star = Some((sp, sn + 1));
                }
                None => return false,
            },
        }
    }
    pattern[p..].iter().all(|&c| c == '*')
}

impl<S: Storage, E: Env, A: Abilities> Executor<S, E, A> {
    /// `find {pattern, dir?}`: breadth first from `dir`, at most
    /// [`MAX_MATCHES`] names, [`MAX_ENTRIES`] entries, [`MAX_DEPTH`] deep.
    pub(super) async fn find(&self, pattern: &str, dir: Option<&str>, turn: Option<&str>) -> Reply {
        let blank = "`pattern` is empty; say words of the name, or a pattern like *.md";
        let (start, verdict, record, real) = match self.search_from(dir, pattern, blank, turn).await
        {
            Ok(from) => from,
            Err(reply) => return reply,
        };
        let mut found: Vec<DirEntry> = Vec::new();
        let mut searched = Searched::default();
        let mut skipped = Skipped::default();
        let mut visited = BTreeSet::from([real.clone()]);
        let mut folders = VecDeque::from([(start.clone(), real, 0usize)]);
        while let Some((folder, real, depth)) = folders.pop_front() {
            let mut entries = match self.visible_entries(&folder, &real, &mut skipped).await {
                Ok(entries) => entries,
                Err(e) if folder == start => {
                    let refusal = self.storage_refusal(e, &start);
                    return self.looked_and_failed(record, &start, refusal, turn).await;
                }
                // A folder that vanished mid-walk is skipped.
                Err(_) => continue,
            };
            searched.folders += 1;
            entries.sort_by(|a, b| a.entry.name.cmp(&b.entry.name));
            let room = MAX_ENTRIES - searched.entries;
            if entries.len() > room {
                entries.truncate(room);
                searched.stopped_at.get_or_insert("entries");
            }
            searched.entries += entries.len();
            for seen in entries {
                if name_matches(pattern, &seen.entry.name) {
                    if found.len() == MAX_MATCHES {
                        searched.stopped_at.get_or_insert("matches");
                        break;
                    }
                    let entry =
                        DirEntry::new(seen.path.as_str(), seen.entry.is_dir, seen.entry.bytes);
                    found.push(entry);
                }
                if seen.entry.is_dir {
                    if depth == MAX_DEPTH {
                        searched.stopped_at.get_or_insert("depth");
                    } else if visited.insert(seen.real.clone()) {
                        folders.push_back((seen.path, seen.real, depth + 1));
                    } else {
                        skipped.revisited += 1;
                    }
                }
            }
            if searched.stopped_at.is_some() {
                break;
            }
        }
        found.sort_by(|a, b| a.name.cmp(&b.name));
        let seq = match self
            .looked(
                record,
                &start,
                verdict.rule,
                Vec::new(),
                Some(found.len()),
                turn,
            )
            .await
        {
            Ok(seq) => Some(seq),
            Err(reply) => return reply,
        };
        let names: Vec<String> = found.iter().map(|f| f.name.clone()).collect();
        let said = match names.len() {
            0 => format!("No name matches {}.", words::quoted(pattern)),
            1..=3 => format!("Found {}.", words::listed(&names)),
            n => format!(
                "Found {} for {}.",
                words::count(n, "match"),
                words::quoted(pattern)
            ),
        };
        let mut reply = Reply::done(format!(
            "found {} whose names match {pattern:?}{}{}",
            words::count(found.len(), "entry"),
            match searched.stopped_at {
                Some(limit) => format!(" (stopped at the {limit} limit: narrow the search)"),
                None => String::new(),
            },
            skipped_words(&skipped),
        ))
        .said(said);
        reply.truncated = Some(searched.stopped_at.is_some());
        reply.total = Some(found.len());
        reply.found = Some(found);
        reply.searched = Some(searched);
        reply.skipped = skipped.any().then_some(skipped);
        self.answer(reply, seq)
    }

    /// `info {name}`: file or folder, its size, its lines (a text file),
    /// its entries (a folder), and when it changed.
    pub(super) async fn info(&self, name: &str, turn: Option<&str>) -> Reply {
        let (path, verdict, record, seen) = match self.locate_seen(name, ActKind::Read, turn).await
        {
            Ok(found) => found,
            Err(reply) => return reply,
        };
        if !seen.exists {
            let refusal = self.storage_refusal(StorageError::NotFound, &path);
            return self.looked_and_failed(record, &path, refusal, turn).await;
        }
        let modified = seen.mtime_ms.map(iso8601);
        let mut read = Vec::new();
        let info = if seen.is_dir {
            let mut skipped = Skipped::default();
            let entries = self.folder_entries(&path, &mut skipped).await;
            match entries {
                Ok(entries) => Info {
                    kind: InfoKind::Folder,
                    bytes: None,
                    lines: None,
                    entries: Some(entries.len()),
                    modified,
                },
                Err(refusal) => return self.looked_and_failed(record, &path, refusal, turn).await,
            }
        } else {
            // Lines are counted for a text file the read cap allows.
            let lines = match self.read_text(&path).await {
                Ok(text) => {
                    read.push((path.clone(), text.len() as u64));
                    Some(words::lines(&text))
                }
                Err(refusal) if matches!(refusal.rule, Rule::NotText | Rule::TooLarge) => None,
                Err(refusal) => return self.looked_and_failed(record, &path, refusal, turn).await,
            };
            Info {
                kind: InfoKind::File,
                bytes: Some(seen.bytes),
                lines,
                entries: None,
                modified,
            }
        };
        let seq = match self
            .looked(record, &path, verdict.rule, read, info.entries, turn)
            .await
        {
            Ok(seq) => Some(seq),
            Err(reply) => return reply,
        };
        let mut parts = Vec::new();
        if let Some(n) = info.entries {
            parts.push(words::count(n, "entry"));
        }
        if let Some(n) = info.lines {
            parts.push(words::count(n, "line"));
        }
        if let Some(size) = info.bytes {
            parts.push(bytes(size));
        }
        let when = match &info.modified {
            Some(at) => format!(", changed {at}"),
            None => String::new(),
        };
        let said = format!(
            "{path} is a {}: {}{when}.",
            info.kind,
            words::listed(&parts)
        );
        let mut reply =
            Reply::done(format!("{path}: {}, {}{when}", info.kind, parts.join(", "))).said(said);
        reply.file = Some(path.as_str().into());
        reply.bytes = info.bytes;
        reply.info = Some(info);
        self.answer(reply, seq)
    }
}

#[cfg(test)]
mod tests {
    use super::name_matches;

    #[test]
    fn words_and_globs_match_names_case_aside() {
        for (pattern, name) in [
            ("budget", "Budget 2026.md"),
            ("BUDGET 2026", "budget-2026.md"),
            ("*.md", "Notes.MD"),
            ("n?tes.*", "notes.txt"),
            ("*", "a"),
            ("a*b*c", "axxbyyc"),
        ] {
            assert!(name_matches(pattern, name), "{pattern} ~ {name}");
        }
        for (pattern, name) in [
            ("budget", "notes.md"),
            ("*.md", "notes.md.txt"),
            ("n?tes", "notes.txt"),
            ("   ", "a"),
            ("a*b*c", "axxbyy"),
        ] {
            assert!(!name_matches(pattern, name), "{pattern} !~ {name}");
        }
    }
}
