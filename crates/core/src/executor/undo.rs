//! `undo`: reverts the last change from the journal — or, named, the newest
//! change to one file, even after changes to others — refusing if the file
//! changed since (it would overwrite someone's work). The revert is itself a
//! write act with its own two entries.

use super::{Change, Executor, bytes};
use crate::audit::ActRecord;
use crate::contain;
use crate::journal::{self, JournalEntry, Line, Remembered};
use crate::platform::Abilities;
use crate::platform::{Env, Storage, StorageError};
use crate::reply::Reply;
use crate::rule::{Refusal, Rule};
use crate::tier::ActKind;
use alloc::format;
use alloc::string::String;

impl<S: Storage, E: Env, A: Abilities> Executor<S, E, A> {
    pub(super) async fn undo(&self, name: Option<&str>, turn: Option<&str>) -> Reply {
        let asked = ActRecord::new(ActKind::Write, name.unwrap_or("")).with_tool("undo");
        // Asked first: the journal itself is read from the root.
        if let Err(refusal) = self.permitted(ActKind::Write, "").await {
            return self.refuse(refusal, asked, turn).await;
        }
        let (entries, _) = self.journal().await;
        let chosen = match name {
            None => entries.last(),
            Some(name) => match contain::resolve_inside_root(name) {
                Ok(path) => entries.iter().rev().find(|e| e.touches(path.as_str())),
                Err(refusal) => return self.refuse(refusal, asked, turn).await,
            },
        };
        let Some(last) = chosen.cloned() else {
            let why = match name {
                None => String::from("there is no change left to undo"),
                Some(name) => format!("there is no change to `{name}` left to undo"),
            };
            let refusal = Refusal::new(Rule::NothingToUndo, why);
            return self.refuse(refusal, asked, turn).await;
        };
        match last.verb {
            Remembered::Move => self.undo_move(last, turn).await,
            Remembered::Mkdir | Remembered::Rmdir => self.undo_folder(last, turn).await,
            _ => self.undo_bytes(last, turn).await,
        }
    }

    /// Reverts a change to a file's bytes: puts back what it held, or
    /// removes the file the change made.
    async fn undo_bytes(&self, last: JournalEntry, turn: Option<&str>) -> Reply {
        // Named in the log as an undo, not as a write like any other.
        let record = ActRecord::new(ActKind::Write, &last.path).with_tool("undo");
        let approved = match self.approve(record.clone(), ActKind::Write, turn).await {
            Ok(approved) => approved,
            Err(reply) => return reply,
        };
        let kept = match self.unchanged_since(&last, &approved.path).await {
            Ok(()) => self.kept(&last).await,
            Err(refusal) => Err(refusal),
        };
        let (blob, prior) = match kept {
            Ok(kept) => kept,
            Err(refusal) => return self.refuse(refusal, record, turn).await,
        };
        let restore = Change::Restore(prior.as_deref());
        let changed = match self.change(&approved, restore, None, turn).await {
            Ok(changed) => changed,
            Err(reply) => return reply,
        };
        self.undone(&last, changed, blob, &approved.path).await
    }

    /// The answer to an undo that ran: on success the journal forgets the
    /// change (and its blob), and nothing before.
    async fn undone(
        &self,
        last: &JournalEntry,
        changed: super::pipeline::Changed,
        blob: Option<contain::RelPath>,
        file: &contain::RelPath,
    ) -> Reply {
        let reply = match changed.outcome {
            Ok(()) => {
                // The journal only forgets a change once it is reverted.
                let _ = self.journal_line(&Line::Pop(last.id.clone())).await;
                if let Some(blob) = blob {
                    let _ = self.store().remove(&blob).await;
                }
                let mut reply = Reply::done(describe(last)).said(in_words(last));
                reply.file = Some(file.as_str().into());
                reply
            }
            Err(refusal) => Reply::refusal(refusal),
        };
        self.answer(reply, changed.logged)
    }

    /// Reverts a move: the new name goes back to the old one, and a file
    /// the move replaced is put back — only while the moved file is what
    /// the move left and the old name is free.
    async fn undo_move(&self, last: JournalEntry, turn: Option<&str>) -> Reply {
        let to = last.to.clone().unwrap_or_default();
        let record = ActRecord::new(ActKind::Write, &to)
            .with_tool("undo")
            .with_to(&last.path);
        let approved = match self.approve(record.clone(), ActKind::Write, turn).await {
            Ok(approved) => approved,
            Err(reply) => return reply,
        };
        let (back, _) = match self
            .locate_at(&last.path, record.clone(), ActKind::Write, turn)
            .await
        {
            Ok(found) => found,
            Err(reply) => return reply,
        };
        let stale = |why: String| {
            Refusal::new(
                Rule::UndoStale,
                format!("{why}, so undoing the move would lose that; move it by hand"),
            )
        };
        let now = self.store().observe(&approved.path).await;
        let state = if self.store().observe(&back).await.exists {
            Err(stale(format!("`{back}` exists again")))
        } else if !now.exists {
            Err(stale(format!("`{to}` is gone")))
        } else if last.after.is_some() {
            self.unchanged_since(&last, &approved.path).await
        } else {
            Ok(())
        };
        let kept = match state {
            Ok(()) => self.kept(&last).await,
            Err(refusal) => Err(refusal),
        };
        let (blob, prior) = match kept {
            Ok(kept) => kept,
            Err(refusal) => return self.refuse(refusal, record, turn).await,
        };
        let unrename = Change::Unrename {
            back: &back,
            replaced: prior.as_deref(),
        };
        let changed = match self.change(&approved, unrename, None, turn).await {
            Ok(changed) => changed,
            Err(reply) => return reply,
        };
        self.undone(&last, changed, blob, &back).await
    }

    /// Reverts making a folder (removes it while it is empty) or deleting
    /// an empty one (makes it again while nothing has that name).
    async fn undo_folder(&self, last: JournalEntry, turn: Option<&str>) -> Reply {
        let record = ActRecord::new(ActKind::Write, &last.path).with_tool("undo");
        let approved = match self.approve(record.clone(), ActKind::Write, turn).await {
            Ok(approved) => approved,
            Err(reply) => return reply,
        };
        let path = &approved.path;
        let seen = self.store().observe(path).await;
        let make = last.verb == Remembered::Rmdir;
        let state = match (make, seen.exists, seen.is_dir) {
            (true, true, _) => Err(format!("`{path}` exists again")),
            (true, false, _) => Ok(()),
            (false, _, false) => Err(format!("`{path}` is no longer a folder")),
            (false, _, true) => match self.store().list(path).await {
                Ok(entries) if entries.is_empty() => Ok(()),
                Ok(_) => Err(format!("`{path}` holds files now")),
                Err(e) => {
                    return self
                        .refuse(self.storage_refusal(e, path), record, turn)
                        .await;
                }
            },
        };
        if let Err(why) = state {
            let refusal = Refusal::new(
                Rule::UndoStale,
                format!(
                    "{why}, so the {} was not undone; change it by hand",
                    last.verb
                ),
            );
            return self.refuse(refusal, record, turn).await;
        }
        let changed = match self
            .change(&approved, Change::Unfold { make }, None, turn)
            .await
        {
            Ok(changed) => changed,
            Err(reply) => return reply,
        };
        self.undone(&last, changed, None, path).await
    }

    /// The blob of `last` and the prior bytes it holds (none where the change
    /// made the file), only if the host wrote them: an id of the host's shape
    /// and bytes with the digest the line recorded. Anything else is
    /// `undo-stale`, and nothing is put back or removed.
    async fn kept(
        &self,
        last: &JournalEntry,
    ) -> Result<(Option<contain::RelPath>, Option<alloc::vec::Vec<u8>>), Refusal> {
        let not_kept = || {
            Refusal::new(
                Rule::UndoStale,
                format!(
                    "the bytes kept for undoing the last {} of `{}` are missing or are not the ones Voicebox kept, so nothing was undone; read the file and fix it by hand",
                    last.verb, last.path
                ),
            )
        };
        let Some(blob) = journal::blob_path(&last.id) else {
            return Err(not_kept());
        };
        if last.before.is_none() {
            return Ok((None, None));
        }
        match self.store().read(&blob).await {
            Ok(bytes) if last.kept(&bytes) => Ok((Some(blob), Some(bytes))),
            Ok(_) | Err(StorageError::NotFound | StorageError::NotARegularFile) => Err(not_kept()),
            Err(e) => Err(self.storage_refusal(e, &blob)),
        }
    }

    /// The file must still be what the change left, or undo would destroy
    /// whatever happened since.
    async fn unchanged_since(
        &self,
        last: &JournalEntry,
        path: &contain::RelPath,
    ) -> Result<(), Refusal> {
        let now = match self.store().read(path).await {
            Ok(bytes) => Some(journal::digest(&bytes)),
            Err(StorageError::NotFound) => None,
            Err(e) => return Err(self.storage_refusal(e, path)),
        };
        if now == last.after {
            return Ok(());
        }
        Err(Refusal::new(
            Rule::UndoStale,
            format!(
                "`{}` changed after the last {}, so undoing it would overwrite those changes; read the file and fix it by hand",
                last.path, last.verb
            ),
        ))
    }
}

/// What was reverted, in a person's words.
fn in_words(last: &JournalEntry) -> String {
    let to = last.to.as_deref().unwrap_or_default();
    match (last.verb, last.before) {
        (Remembered::Move, _) => format!("Undid that: {to} is {} again.", last.path),
        (Remembered::Mkdir, _) => format!("Undid that: the folder {} is gone again.", last.path),
        (Remembered::Rmdir, _) => format!("Undid that: the folder {} is back.", last.path),
        (_, None) => format!("Undid that: {} is gone again.", last.path),
        (Remembered::Delete, Some(_)) => format!("Undid that: {} is back.", last.path),
        (_, Some(_)) => format!("Undid that: {} holds what it held before.", last.path),
    }
}

/// Says exactly what was reverted.
fn describe(last: &JournalEntry) -> String {
    let to = last.to.as_deref().unwrap_or_default();
    match (last.verb, last.before) {
        (Remembered::Move, None) => format!("undid the move of {}: moved {to} back", last.path),
        (Remembered::Move, Some(size)) => format!(
            "undid the move of {}: moved {to} back and restored what {to} held ({})",
            last.path,
            bytes(size)
        ),
        (Remembered::Mkdir, _) => {
            format!("undid the making of the folder {}: removed it", last.path)
        }
        (Remembered::Rmdir, _) => format!(
            "undid the delete of the folder {}: made it again",
            last.path
        ),
        (verb, None) => format!(
            "undid the {verb} of {}: removed it (it did not exist before)",
            last.path
        ),
        (Remembered::Delete, Some(size)) => format!(
            "undid the delete of {}: restored it ({})",
            last.path,
            bytes(size)
        ),
        (verb, Some(size)) => format!(
            "undid the {verb} of {}: restored the previous content ({})",
            last.path,
            bytes(size)
        ),
    }
}
