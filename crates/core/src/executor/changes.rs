//! Verbs that change a file: `write`, `append` and `edit`. Each is two
//! entries (attempt, outcome) around the act, with the prior bytes kept in
//! the undo journal.

use super::ask::Ask;
use super::{Approved, Change, Executor, bytes};
use crate::action::WriteMode;
use crate::audit::ActRecord;
use crate::confirm::Deferred;
use crate::contain::RelPath;
use crate::journal::{self, JournalEntry, Line, Remembered};
use crate::platform::Abilities;
use crate::platform::{Env, MAX_FILE_BYTES, Storage, StorageError};
use crate::reply::Reply;
use crate::rule::{Refusal, Rule};
use crate::tier::ActKind;
use crate::tier::{Act, Decision};
use alloc::format;
use alloc::string::String;

/// The new text an append or an edit makes, and the answer that says so.
struct Rewrite {
    updated: String,
    summary: String,
}

/// Whether `updated` may be what `path` holds: at most the file cap.
fn fits(path: &RelPath, updated: &str, what_to_do: &str) -> Result<(), Refusal> {
    if updated.len() as u64 <= MAX_FILE_BYTES {
        return Ok(());
    }
    Err(Refusal::new(
        Rule::TooLarge,
        format!(
            "the change would make `{path}` {}; a file may hold at most {} — split it, or {what_to_do}",
            bytes(updated.len() as u64),
            bytes(MAX_FILE_BYTES)
        ),
    ))
}

impl<S: Storage, E: Env, A: Abilities> Executor<S, E, A> {
    /// A write; one the person phrased as creating a file asks first when
    /// the file exists (the tier table's `create-over-existing`).
    pub(super) async fn write(
        &mut self,
        name: &str,
        content: &str,
        mode: Option<WriteMode>,
        turn: Option<&str>,
    ) -> Reply {
        let record = ActRecord::new(ActKind::Write, name);
        let approved = match self.approve(record.clone(), ActKind::Write, turn).await {
            Ok(approved) => approved,
            Err(reply) => return reply,
        };
        let seen = self.store().observe(&approved.path).await;
        if seen.is_dir {
            let refusal = self.storage_refusal(StorageError::IsADirectory, &approved.path);
            return self.refuse(refusal, record, turn).await;
        }
        if seen.exists && mode == Some(WriteMode::Create) {
            let verdict = self.table.decide(&Act::replacing());
            let path = approved.path;
            let plan = format!(
                "replace {path} ({} now) with {}; undo would restore it",
                bytes(seen.bytes),
                bytes(content.len() as u64),
            );
            if verdict.decision == Decision::Refuse {
                return self
                    .refuse(Refusal::new(verdict.rule, plan), record, turn)
                    .await;
            }
            let deferred = Deferred::Write {
                content: content.into(),
            };
            let ask = Ask {
                record,
                path,
                verdict,
                plan,
                deferred,
            };
            return self.ask(ask, &seen, turn).await;
        }
        let before = seen.exists.then_some(seen.bytes);
        self.write_approved(&approved, content, before, None, turn)
            .await
    }

    /// Writes an approved file whole; the answer says what it replaced
    /// (`before`, when the file existed) and that undo restores it.
    pub(super) async fn write_approved(
        &self,
        approved: &Approved,
        content: &str,
        before: Option<u64>,
        completes: Option<u64>,
        turn: Option<&str>,
    ) -> Reply {
        let path = &approved.path;
        let after = bytes(content.len() as u64);
        let summary = match before {
            Some(before) => {
                format!("replaced {path} ({before} → {after}); undo restores what it held")
            }
            None => format!("wrote {path} ({after})"),
        };
        let write = Change::Write {
            verb: Remembered::Write,
            bytes: content.as_bytes(),
        };
        self.replace_file(approved, write, summary, completes, turn)
            .await
    }

    /// Adds `content` at the end of a file (joined by a newline when the file
    /// does not end in one), making the file if it is missing.
    pub(super) async fn append(&self, name: &str, content: &str, turn: Option<&str>) -> Reply {
        self.rewrite(name, Remembered::Append, turn, |path, current| {
            let current = match current {
                Ok(text) => text,
                Err(refusal) if refusal.rule == Rule::NotFound => String::new(),
                Err(refusal) => return Err(refusal),
            };
            let joiner = if current.is_empty() || current.ends_with('\n') {
                ""
            } else {
                "\n"
            };
            let updated = format!("{current}{joiner}{content}");
            fits(path, &updated, "append less")?;
            let summary = format!(
                "appended {} to {path} ({} → {})",
                bytes(content.len() as u64),
                current.len(),
                bytes(updated.len() as u64)
            );
            Ok(Rewrite { updated, summary })
        })
        .await
    }

    pub(super) async fn edit(
        &self,
        name: &str,
        old_text: &str,
        new_text: &str,
        turn: Option<&str>,
    ) -> Reply {
        self.rewrite(name, Remembered::Edit, turn, |path, current| {
            let current = current?;
            let found = if old_text.is_empty() {
                0
            } else {
                current.matches(old_text).count()
            };
            if found != 1 {
                return Err(pattern_refusal(path, old_text, found));
            }
            let updated = current.replacen(old_text, new_text, 1);
            fits(path, &updated, "replace less")?;
            let summary = format!(
                "edited {path}: replaced 1 occurrence ({} → {})",
                bytes(current.len() as u64),
                bytes(updated.len() as u64)
            );
            Ok(Rewrite { updated, summary })
        })
        .await
    }

    /// Append and edit: `make` turns what the file holds now (or why it
    /// could not be read) into its new text, or a refusal; the new text is
    /// written whole, kept in the journal as `verb`.
    async fn rewrite(
        &self,
        name: &str,
        verb: Remembered,
        turn: Option<&str>,
        make: impl FnOnce(&RelPath, Result<String, Refusal>) -> Result<Rewrite, Refusal>,
    ) -> Reply {
        let record = ActRecord::new(ActKind::Write, name);
        let approved = match self.approve(record.clone(), ActKind::Write, turn).await {
            Ok(approved) => approved,
            Err(reply) => return reply,
        };
        let current = self.read_text(&approved.path).await;
        let Rewrite { updated, summary } = match make(&approved.path, current) {
            Ok(rewrite) => rewrite,
            Err(refusal) => return self.refuse(refusal, record, turn).await,
        };
        let write = Change::Write {
            verb,
            bytes: updated.as_bytes(),
        };
        self.replace_file(&approved, write, summary, None, turn)
            .await
    }

    /// Writes a file whole as one change, and answers with `summary`.
    /// `completes` is the ask a confirmed write answers.
    async fn replace_file(
        &self,
        approved: &Approved,
        write: Change<'_>,
        summary: String,
        completes: Option<u64>,
        turn: Option<&str>,
    ) -> Reply {
        let written = match &write {
            Change::Write { bytes, .. } => bytes.len() as u64,
            _ => 0,
        };
        let changed = match self.change(approved, write, completes, turn).await {
            Ok(changed) => changed,
            Err(reply) => return reply,
        };
        let reply = match changed.outcome {
            Ok(()) => {
                let mut reply = Reply::done(summary);
                reply.file = Some(approved.path.as_str().into());
                reply.bytes = Some(written);
                reply
            }
            Err(refusal) => Reply::refusal(refusal),
        };
        self.answer(reply, changed.logged)
    }

    /// Keeps the bytes `path` holds now in the undo journal, so the change
    /// about to happen can be reverted. `after` is the digest the change will
    /// leave (`None` when it leaves no file).
    pub(super) async fn remember(
        &self,
        verb: Remembered,
        path: &RelPath,
        after: Option<String>,
    ) -> Result<(), Refusal> {
        let store = self.store();
        let prior = match self.read_bounded(path).await {
            Ok(bytes) => Some(bytes),
            Err(StorageError::NotFound) => None,
            Err(e) => return Err(self.storage_refusal(e, path)),
        };
        let id = self.env.random_id();
        if let Some(bytes) = &prior {
            let blob = journal::blob_path(&id).ok_or_else(|| {
                journal_refusal(&StorageError::Other(format!("`{id}` is not an id")))
            })?;
            // A fresh, uniquely named blob: appending creates it whole.
            store
                .append(&blob, bytes)
                .await
                .map_err(|e| journal_refusal(&e))?;
        }
        let entry = JournalEntry {
            id,
            verb,
            path: path.as_str().into(),
            before: prior.as_ref().map(|b| b.len() as u64),
            after,
            prior: prior.as_deref().map(journal::digest),
        };
        self.journal_line(&Line::Push(entry)).await?;
        // Only the line count is needed on the common path; the index is
        // replayed (and trimmed to the newest entries) only when it is compacted.
        if self.journal_length().await > journal::COMPACT_AFTER_LINES {
            let (mut entries, _) = self.journal().await;
            let forget = entries.len().saturating_sub(journal::MAX_ENTRIES);
            for forgotten in entries.drain(..forget) {
                // A blob that outlives its entry is harmless; the index is what counts.
                if let Some(blob) = journal::blob_path(&forgotten.id) {
                    let _ = store.remove(&blob).await;
                }
            }
            store
                .write(
                    &journal::index_path(),
                    journal::compacted(&entries).as_bytes(),
                )
                .await
                .map_err(|e| journal_refusal(&e))?;
            self.project().journal_lines.set(Some(entries.len()));
        }
        Ok(())
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
        let known = &self.project().journal_lines;
        known.set(known.get().map(|lines| lines + 1));
        Ok(())
    }
}

fn pattern_refusal(path: &RelPath, old_text: &str, found: usize) -> Refusal {
    if found == 0 {
        Refusal::new(
            Rule::PatternNotFound,
            format!(
                "`{path}` does not contain {old_text:?}; read the file and quote the text exactly"
            ),
        )
    } else {
        Refusal::new(
            Rule::PatternNotUnique,
            format!(
                "{old_text:?} occurs {found} times in `{path}`; quote more of the surrounding text so it occurs once"
            ),
        )
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
