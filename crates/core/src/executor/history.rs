//! Looks over the folder's own git repository: `changes` and `history`,
//! and the history side of `read … at` and `diff … against`. The placement
//! reads the repository ([`Storage::repository`]); here are the moments,
//! the bounds, the words and the audit entry, as for every look.

use super::Executor;
use crate::audit::ActRecord;
use crate::contain::RelPath;
use crate::history::{
    ChangeKind, Commit, DEFAULT_HISTORY, Edge, FileChange, MAX_HISTORY, MAX_WALK, Moment,
    Repository,
};
use crate::platform::{Abilities, Env, MAX_FILE_BYTES, Storage};
use crate::reply::Reply;
use crate::rule::{Refusal, Rule};
use crate::tier::{ActKind, Verdict};
use crate::time::day;
use crate::words;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

/// The tool a look through the repository names in its audit entry.
pub(super) const HISTORY: &str = "history";

/// The record of a read of `name`: as it is now, or (`at` given) as the
/// folder's history held it, which the history tool reads.
pub(super) fn read_record(name: &str, at: Option<&str>) -> ActRecord {
    let record = ActRecord::new(ActKind::Read, name);
    match at {
        Some(_) => record.with_tool(HISTORY),
        None => record,
    }
}

/// How many changed files or commits a sentence names before "and N more".
const NAMED: usize = 5;

impl<S: Storage, E: Env, A: Abilities> Executor<S, E, A> {
    /// A read of `name` (now, or as the history held it `at`) located for
    /// reading, with its verdict and record; or its answer: where it cannot
    /// be read, or the refusal `odd` of the request's own fields, put on
    /// record once the read is placed.
    pub(super) async fn locate_read(
        &self,
        name: &str,
        at: Option<&str>,
        odd: Option<Refusal>,
        turn: Option<&str>,
    ) -> Result<(RelPath, Verdict, ActRecord), Reply> {
        let record = read_record(name, at);
        let (path, verdict) = self.locate_for(record.clone(), ActKind::Read, turn).await?;
        match odd {
            Some(refusal) => Err(self.refuse(refusal, record, turn).await),
            None => Ok((path, verdict, record)),
        }
    }

    /// The root's repository reader, or the refusal of a placement with none.
    fn repository(&self) -> Result<&dyn Repository, Refusal> {
        self.store().repository().ok_or_else(|| {
            Refusal::new(
                Rule::AbsentCapability,
                "this page cannot read a folder's git history; ask Voicebox on your computer (voicebox serve or voicebox turn) what changed",
            )
        })
    }

    fn moment(&self, said: Option<&str>, edge: Edge) -> Result<Moment, Refusal> {
        let (now, offset) = (self.env.now_ms(), self.env.offset_secs());
        Moment::parse(said.unwrap_or(""), now, offset, edge)
    }

    /// `path`'s text as the commit `at` names held it (`None`: it had no
    /// such file), with that commit.
    pub(super) fn text_at(
        &self,
        path: &RelPath,
        at: &str,
    ) -> Result<(Option<String>, Commit), Refusal> {
        let moment = self.moment(Some(at), Edge::End)?;
        let found = self.repository()?.file_at(path, &moment)?;
        let Some(bytes) = found.bytes else {
            return Ok((None, found.commit));
        };
        if bytes.len() as u64 > MAX_FILE_BYTES {
            return Err(Refusal::new(
                Rule::TooLarge,
                format!(
                    "`{path}` was {} bytes then; only files up to 1 MiB are shown",
                    bytes.len()
                ),
            ));
        }
        let text = String::from_utf8(bytes).map_err(|_| {
            Refusal::new(
                Rule::NotText,
                format!("`{path}` was not UTF-8 text then, so it cannot be shown here"),
            )
        })?;
        Ok((Some(text), found.commit))
    }

    /// `changes {since?}`: the folder's files against the commit `since`
    /// names (the last one by default).
    pub(super) async fn changes(&self, since: Option<&str>, turn: Option<&str>) -> Reply {
        let record = ActRecord::new(ActKind::Read, ".").with_tool(HISTORY);
        let (path, verdict) = match self.locate_for(record.clone(), ActKind::Read, turn).await {
            Ok(found) => found,
            Err(reply) => return reply,
        };
        let found = self
            .moment(since, Edge::Start)
            .and_then(|moment| self.repository()?.changes(&moment));
        let (changes, seq) = match self
            .looked_over(record, &path, verdict.rule, found, |c| c.total, turn)
            .await
        {
            Ok(done) => done,
            Err(reply) => return reply,
        };
        let when = since_words(since);
        let bound = bound_words(changes.bounded);
        let base = match &changes.base {
            Some(commit) => format!("{} {}", commit.short(), words::quoted(&commit.message)),
            None => String::from("no commit (every file is new)"),
        };
        let said = match changes.total {
            0 => format!("Nothing has changed {when}{bound}."),
            n => format!(
                "{} changed {when}: {}{bound}.",
                words::count(n, "file"),
                named(&changes.files, n, change_words)
            ),
        };
        let counts: Vec<String> = [
            (ChangeKind::Added, "added"),
            (ChangeKind::Modified, "modified"),
            (ChangeKind::Removed, "removed"),
            (ChangeKind::Renamed, "renamed"),
        ]
        .iter()
        .filter_map(|(kind, word)| {
            let n = changes.files.iter().filter(|f| f.kind == *kind).count();
            (n > 0).then(|| format!("{n} {word}"))
        })
        .collect();
        let mut reply = Reply::done(format!(
            "changes against {base}: {}{}{bound}",
            words::count(changes.total, "file"),
            match counts.is_empty() {
                true => String::new(),
                false => format!(" ({})", counts.join(", ")),
            }
        ))
        .said(said);
        reply.total = Some(changes.total);
        reply.truncated = Some(changes.total > changes.files.len() || changes.bounded);
        reply.commit = changes.base;
        reply.branch = changes.branch;
        reply.changes = Some(changes.files);
        self.answer(reply, Some(seq))
    }

    /// `history {name?, limit?}`: the newest commits that touched the
    /// folder or one file, at most [`MAX_HISTORY`].
    pub(super) async fn history(
        &self,
        name: Option<&str>,
        limit: Option<u64>,
        turn: Option<&str>,
    ) -> Reply {
        let record = ActRecord::new(ActKind::Read, name.unwrap_or(".")).with_tool(HISTORY);
        let (path, verdict) = match self.locate_for(record.clone(), ActKind::Read, turn).await {
            Ok(found) => found,
            Err(reply) => return reply,
        };
        let limit = limit.map_or(DEFAULT_HISTORY, |n| {
            usize::try_from(n).unwrap_or(MAX_HISTORY).min(MAX_HISTORY)
        });
        let of = (!path.is_root()).then_some(&path);
        let found = self.repository().and_then(|repo| repo.history(of, limit));
        let (history, seq) = match self
            .looked_over(
                record,
                &path,
                verdict.rule,
                found,
                |h| h.commits.len(),
                turn,
            )
            .await
        {
            Ok(done) => done,
            Err(reply) => return reply,
        };
        let place = match of {
            Some(path) => format!("{path}"),
            None => String::from("your folder"),
        };
        let bound = bound_words(history.bounded);
        let offset = self.env.offset_secs();
        let n = history.commits.len();
        let said = match n {
            0 => format!("No commit touched {place}{bound}."),
            1 => format!(
                "The newest commit to {place}: {}{bound}.",
                commit_words(&history.commits[0], offset)
            ),
            n => format!(
                "The newest {n} commits to {place}: {}{bound}.",
                named(&history.commits, n, |c| commit_words(c, offset))
            ),
        };
        let mut reply = Reply::done(format!(
            "history of {place}: {} of {} looked at{bound}",
            words::count(n, "commit"),
            history.walked
        ))
        .said(said);
        if let Some(path) = of {
            reply.file = Some(path.as_str().into());
        }
        reply.truncated = Some(history.bounded || n == limit);
        reply.commits = Some(history.commits);
        self.answer(reply, Some(seq))
    }
}

/// "since the last commit", "since yesterday", "since 3fa9c2e".
fn since_words(since: Option<&str>) -> String {
    match since.map(str::trim).filter(|s| !s.is_empty()) {
        None => String::from("since the last commit"),
        Some(said) if said.to_lowercase().starts_with("since ") => said.into(),
        Some(said) => format!("since {said}"),
    }
}

fn bound_words(bounded: bool) -> String {
    match bounded {
        true => format!(" (looked through the newest {MAX_WALK} commits only)"),
        false => String::new(),
    }
}

/// The first [`NAMED`] of `all` in words, and how many more there are.
fn named<T>(shown: &[T], all: usize, say: impl Fn(&T) -> String) -> String {
    let mut parts: Vec<String> = shown.iter().take(NAMED).map(say).collect();
    if all > parts.len() {
        parts.push(format!("{} more", all - parts.len()));
    }
    words::listed(&parts)
}

/// "notes.md (2 lines added, 1 removed)", "ideas.md (new)".
fn change_words(change: &FileChange) -> String {
    let lines = match (change.binary, change.added, change.removed) {
        (true, _, _) => String::from("binary"),
        (false, 0, 0) => String::new(),
        (false, a, 0) => format!("{} added", words::count(a, "line")),
        (false, 0, r) => format!("{} removed", words::count(r, "line")),
        (false, a, r) => format!("{} added, {r} removed", words::count(a, "line")),
    };
    let what = match change.kind {
        ChangeKind::Added => String::from("new"),
        ChangeKind::Removed => String::from("removed"),
        ChangeKind::Modified => String::new(),
        ChangeKind::Renamed => format!("renamed from {}", change.from.as_deref().unwrap_or("?")),
    };
    let said: Vec<String> = [what, lines]
        .into_iter()
        .filter(|s| !s.is_empty())
        .collect();
    match said.is_empty() {
        true => change.path.clone(),
        false => format!("{} ({})", change.path, said.join(", ")),
    }
}

/// "“Add milk” by Ana on 2026-12-01", the day in the person's own.
pub(super) fn commit_words(commit: &Commit, offset_secs: i32) -> String {
    format!(
        "{} by {} on {}",
        words::quoted(&commit.message),
        commit.author,
        day(commit.time_ms, offset_secs)
    )
}
