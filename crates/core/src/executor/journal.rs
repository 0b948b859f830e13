//! The undo journal's side of a change: the bytes a file holds kept before
//! the change, the index line that names them, and the index compacted when
//! it grows long.

use super::Executor;
use crate::contain::RelPath;
use crate::journal::{self, JournalEntry, Line, Remembered};
use crate::platform::{Abilities, Env, Storage, StorageError};
use crate::rule::{Refusal, Rule};
use alloc::format;
use alloc::string::String;

impl<S: Storage, E: Env, A: Abilities> Executor<S, E, A> {
    /// Keeps the bytes `path` holds now in the undo journal, so the change
    /// about to happen can be reverted. `after` is the digest the change will
    /// leave (`None` when it leaves no file). Answers where the bytes were
    /// kept (`None`: there were none), for [`Self::let_go`].
    pub(super) async fn remember(
        &self,
        verb: Remembered,
        path: &RelPath,
        after: Option<String>,
    ) -> Result<Option<RelPath>, Refusal> {
        let memo = journal::Memo {
            verb,
            named: path.as_str(),
            to: None,
            kept: Some(path),
            after,
        };
        self.remember_entry(memo).await
    }

    /// [`Self::remember`] for any change: a move keeps the file it replaces
    /// under its new name, a folder act keeps no bytes.
    pub(super) async fn remember_entry(
        &self,
        memo: journal::Memo<'_>,
    ) -> Result<Option<RelPath>, Refusal> {
        let journal::Memo {
            verb,
            named,
            to,
            kept,
            after,
        } = memo;
        let store = self.store();
        let prior = match kept {
            Some(path) => match self.read_bounded(path).await {
                Ok(bytes) => Some(bytes),
                Err(StorageError::NotFound) => None,
                Err(e) => return Err(self.storage_refusal(e, path)),
            },
            None => None,
        };
        let id = self.env.random_id();
        let mut blob = None;
        if let (Some(path), Some(bytes)) = (kept, &prior) {
            let kept_at = journal::blob_path(&id).ok_or_else(|| {
                journal_refusal(&StorageError::Other(format!("`{id}` is not an id")))
            })?;
            store
                .keep(path, &kept_at, bytes)
                .await
                .map_err(|e| journal_refusal(&e))?;
            blob = Some(kept_at);
        }
        let entry = JournalEntry {
            id,
            verb,
            path: named.into(),
            before: prior.as_ref().map(|b| b.len() as u64),
            after,
            prior: prior.as_deref().map(journal::digest),
            to: to.map(String::from),
        };
        if let Err(refusal) = self.push(entry).await {
            // The change will not happen: what was kept for it goes, copy
            // or second name alike (no line may name it).
            if let Some(blob) = &blob {
                let _ = store.remove(blob).await;
            }
            return Err(refusal);
        }
        Ok(blob)
    }

    /// Appends `entry` to the index, compacting the index when it has grown
    /// long and this change runs alone (with changes beside one another,
    /// [`Self::tidy`] compacts it later).
    async fn push(&self, entry: JournalEntry) -> Result<(), Refusal> {
        self.journal_line(&Line::Push(entry)).await?;
        // Only the line count is needed on the common path; the index is
        // replayed (and trimmed to the newest entries) only when it is compacted.
        if self.journal_length().await > journal::COMPACT_AFTER_LINES && !self.beside.running() {
            self.compact_journal().await?;
        }
        Ok(())
    }

    /// Rewrites the index with its newest [`journal::MAX_ENTRIES`] entries,
    /// then lets go of what it kept for the others. Lines appended while
    /// it runs would be lost, so nothing may change the index meanwhile.
    pub(super) async fn compact_journal(&self) -> Result<(), Refusal> {
        let store = self.store();
        let (mut entries, _) = self.journal().await;
        let forget = entries.len().saturating_sub(journal::MAX_ENTRIES);
        let forgotten: alloc::vec::Vec<RelPath> = entries
            .drain(..forget)
            .filter_map(|forgotten| journal::blob_path(&forgotten.id))
            .collect();
        store
            .write(
                &journal::index_path(),
                journal::compacted(&entries).as_bytes(),
            )
            .await
            .map_err(|e| journal_refusal(&e))?;
        self.project().journal_lines.set(Some(entries.len()));
        // Once the new index is written: a blob that outlives its entry
        // is only space. (Until the index is durable, a power cut can
        // bring back the old one naming removed blobs: their undo is
        // `undo-stale`, nothing put back wrong.)
        store.discard(forgotten).await;
        Ok(())
    }

    /// After a change that failed, takes back what storage kept for it by a
    /// second name of the file, if the file still has its first (see
    /// [`Storage::let_go`]); a change that went part of the way keeps its
    /// copy, for undo.
    pub(super) async fn let_go(
        &self,
        done: Result<(), StorageError>,
        kept: Option<RelPath>,
    ) -> Result<(), StorageError> {
        if let (Err(_), Some(blob)) = (&done, kept) {
            self.store().let_go(&blob).await;
        }
        done
    }

    /// The journal's entries, oldest first, and how many lines its index has.
    pub(super) async fn journal(&self) -> (alloc::vec::Vec<JournalEntry>, usize) {
        let (entries, lines) = match self.store().read(&journal::index_path()).await {
            Ok(bytes) => journal::replay(&String::from_utf8_lossy(&bytes)),
            Err(_) => (alloc::vec::Vec::new(), 0),
        };
        self.project().journal_lines.set(Some(lines));
        (entries, lines)
    }

    /// How many lines the index has, read once and then counted.
    async fn journal_length(&self) -> usize {
        if let Some(lines) = self.project().journal_lines.get() {
            return lines;
        }
        let lines = match self.store().read(&journal::index_path()).await {
            Ok(bytes) => bytes.iter().filter(|&&b| b == b'\n').count(),
            Err(_) => 0,
        };
        self.project().journal_lines.set(Some(lines));
        lines
    }

    /// Appends one line to the journal's index.
    pub(super) async fn journal_line(&self, line: &Line) -> Result<(), Refusal> {
        self.store()
            .append(&journal::index_path(), line.text().as_bytes())
            .await
            .map_err(|e| journal_refusal(&e))?;
        self.project().journal_lines.add_one();
        Ok(())
    }
}

fn journal_refusal(error: &StorageError) -> Refusal {
    if let StorageError::HostFolder(words) = error {
        return super::host_folder(words);
    }
    Refusal::new(
        Rule::StorageFailed,
        format!(
            "the undo journal could not be written ({error:?}), so nothing was changed; free space and try again"
        ),
    )
}
