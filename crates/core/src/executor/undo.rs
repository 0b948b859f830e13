//! `undo`: reverts the last write, edit or delete from the journal, refusing
//! if the file changed since (it would overwrite someone's work). The revert
//! is itself a write act with its own two entries.

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
    pub(super) async fn undo(&self, turn: Option<&str>) -> Reply {
        // Asked first: the journal itself is read from the root.
        if let Err(refusal) = self.permitted(ActKind::Write, "").await {
            return self
                .refuse(refusal, ActRecord::new(ActKind::Write, ""), turn)
                .await;
        }
        let (mut entries, _) = self.journal().await;
        let Some(last) = entries.pop() else {
            let refusal = Refusal::new(
                Rule::NothingToUndo,
                "there is no write, edit or delete left to undo",
            );
            return self
                .refuse(refusal, ActRecord::new(ActKind::Write, ""), turn)
                .await;
        };
        let record = ActRecord::new(ActKind::Write, &last.path);
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
        let reply = match changed.outcome {
            Ok(()) => {
                // The journal only forgets a change once it is reverted.
                let _ = self.journal_line(&Line::Pop(last.id.clone())).await;
                if let Some(blob) = blob {
                    let _ = self.store().remove(&blob).await;
                }
                let mut reply = Reply::done(describe(&last));
                reply.file = Some(approved.path.as_str().into());
                reply
            }
            Err(refusal) => Reply::refusal(refusal),
        };
        self.answer(reply, changed.logged)
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

/// Says exactly what was reverted.
fn describe(last: &JournalEntry) -> String {
    match (last.verb, last.before) {
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
