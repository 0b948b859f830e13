//! `diff`: a file against proposed content, or its committed version
//! against the file now (or against proposed content); nothing is written.

use super::Executor;
use super::history::commit_words;
use crate::diff;
use crate::platform::{Abilities, Env, Storage};
use crate::reply::Reply;
use crate::rule::{Refusal, Rule};
use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

impl<S: Storage, E: Env, A: Abilities> Executor<S, E, A> {
    /// `diff {name, content?, against?}`: the old side is the file now, or
    /// as the commit `against` names held it; the new side is `content`,
    /// or the file now. One of the two must be given.
    pub(super) async fn diff(
        &self,
        name: &str,
        proposed: Option<&str>,
        against: Option<&str>,
        turn: Option<&str>,
    ) -> Reply {
        let odd = (proposed.is_none() && against.is_none()).then(|| Refusal::new(Rule::MissingArgument, "`diff` needs `content` (what the file would hold) or `against` (a commit or day to compare with)"));
        let (path, verdict, record) = match self.locate_read(name, against, odd, turn).await {
            Ok(located) => located,
            Err(reply) => return reply,
        };
        let (current, exists) = match self.read_text(&path).await {
            Ok(text) => (text, true),
            Err(refusal) if refusal.rule == Rule::NotFound => (String::new(), false),
            Err(refusal) => return self.looked_and_failed(record, &path, refusal, turn).await,
        };
        let then = match against.map(|at| self.text_at(&path, at)).transpose() {
            Ok(then) => then,
            Err(refusal) => return self.looked_and_failed(record, &path, refusal, turn).await,
        };
        let looked = if exists {
            vec![(path.clone(), current.len() as u64)]
        } else {
            Vec::new()
        };
        let seq = match self
            .looked(record, &path, verdict.rule, looked, None, turn)
            .await
        {
            Ok(seq) => Some(seq),
            Err(reply) => return reply,
        };
        let new = proposed.unwrap_or(&current);
        let (summary, said, patch, commit) = match then {
            None => {
                let patch = diff::unified(path.as_str(), &current, new);
                let (summary, said) = proposed_words(&path, exists, patch.is_empty());
                (summary, said, patch, None)
            }
            Some((old, commit)) => {
                let was = old.is_some();
                let patch = diff::unified(path.as_str(), old.as_deref().unwrap_or(""), new);
                let at = commit_words(&commit, self.env.offset_secs());
                let now = match proposed {
                    Some(_) => "the proposed content",
                    None => "the file now",
                };
                let said = match (was, patch.is_empty()) {
                    (_, true) => format!("{path} is the same as at {at}."),
                    (false, false) => {
                        format!("{path} was not in your folder at {at}; all of it is new:")
                    }
                    (true, false) => format!("How {path} changed since {at}:"),
                };
                let summary = format!("diff of {path} at {} against {now}", commit.short());
                (summary, said, patch, Some(commit))
            }
        };
        let mut reply = Reply::done(summary).said(said);
        reply.file = Some(path.as_str().into());
        reply.diff = Some(patch);
        reply.commit = commit;
        self.answer(reply, seq)
    }
}

/// The words of a diff against proposed content.
fn proposed_words(path: &impl core::fmt::Display, exists: bool, same: bool) -> (String, String) {
    match (exists, same) {
        (_, true) => (
            format!("{path} already says exactly that; nothing would change"),
            format!("{path} already says exactly that."),
        ),
        (false, false) => (
            format!("{path} does not exist yet; it would be created"),
            format!("{path} does not exist yet; it would be made."),
        ),
        (true, false) => (
            format!("diff of {path} against the proposed content (nothing written)"),
            format!("How {path} would change (nothing is written yet):"),
        ),
    }
}
