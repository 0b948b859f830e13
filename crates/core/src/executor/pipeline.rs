//! The one act pipeline: steps 3–4 — contain the name, decide
//! with the tier table, ask the root — give an [`Approved`] act; steps 5–8
//! for every change to a file — the attempt (fail closed), the journal, the
//! act, what the world shows, the outcome — are [`Executor::change`]. Every
//! verb goes through here, so none writes a decision or an entry by hand.

use super::{Executor, describe};
use crate::audit::{ActRecord, Happened};
use crate::contain::{self, RelPath};
use crate::journal::{self, Remembered};
use crate::platform::{Abilities, Access, Env, Observation, Storage, StorageError};
use crate::reply::Reply;
use crate::rule::{Refusal, Rule};
use crate::tier::{ActKind, Decision, Place, Verdict};
use alloc::format;

/// An act the tier table allowed: what it is, on which path, under which rule.
pub(super) struct Approved {
    pub record: ActRecord,
    pub path: RelPath,
    pub rule: Rule,
}

/// What a change does to its one file.
pub(super) enum Change<'a> {
    /// Writes these bytes, keeping the prior ones in the journal as `verb`.
    Write { verb: Remembered, bytes: &'a [u8] },
    /// Removes the file, keeping its bytes in the journal.
    Remove,
    /// Puts back the bytes the journal kept (already checked against the
    /// digest it recorded), or (`None`, the change had made the file)
    /// removes it. Not journaled: there is no redo.
    Restore(Option<&'a [u8]>),
    /// Gives the file or folder the name `to`, keeping a file it replaces
    /// there in the journal.
    Rename { to: &'a RelPath },
    /// Undoes a move: the name goes back to `back`, and a file the move had
    /// replaced is put back (not journaled).
    Unrename {
        back: &'a RelPath,
        replaced: Option<&'a [u8]>,
    },
    /// Makes the folder (journaled: undo removes it while it is empty).
    MakeFolder,
    /// Removes the empty folder (journaled: undo makes it again).
    RemoveFolder,
    /// Undoes a `MakeFolder` or a `RemoveFolder` (not journaled).
    Unfold { make: bool },
}

/// How a change ended, and the seq of the entry that records it.
pub(super) struct Changed {
    pub outcome: Result<(), Refusal>,
    pub logged: Option<u64>,
}

impl<S: Storage, E: Env, A: Abilities> Executor<S, E, A> {
    /// The answer to a change: the reply `done` makes of it once carried
    /// out, or the refusal that stopped it, with the entry that records it
    /// (or the reply of a change refused before it began).
    pub(super) fn answer_changed(
        &self,
        changed: Result<Changed, Reply>,
        done: impl FnOnce() -> Reply,
    ) -> Reply {
        let changed = match changed {
            Ok(changed) => changed,
            Err(reply) => return reply,
        };
        let reply = match changed.outcome {
            Ok(()) => done(),
            Err(refusal) => Reply::refusal(refusal),
        };
        self.answer(reply, changed.logged)
    }

    /// The rule the tier table gives an act of `kind` inside the root, for
    /// entries of acts that were allowed without a path of their own (a tool
    /// run on no file, a look that failed): every allowed act's rule is the
    /// table's, never written by hand.
    pub(super) fn inside_rule(&self, kind: ActKind) -> Rule {
        self.table.decide(&crate::tier::Act::inside(kind)).rule
    }

    /// Steps 3–4 for an act that changes a file: [`Self::locate_for`], as the
    /// [`Approved`] act that [`Self::change`] carries out.
    pub(super) async fn approve(
        &self,
        record: ActRecord,
        kind: ActKind,
        turn: Option<&str>,
    ) -> Result<Approved, Reply> {
        let (path, verdict) = self.locate_for(record.clone(), kind, turn).await?;
        Ok(Approved {
            record,
            path,
            rule: verdict.rule,
        })
    }

    /// [`Self::locate`] for an act of `kind` on `name`, with the act's record
    /// and what is there now.
    pub(super) async fn locate_seen(
        &self,
        name: &str,
        kind: ActKind,
        turn: Option<&str>,
    ) -> Result<(RelPath, Verdict, ActRecord, Observation), Reply> {
        let (path, verdict) = self.locate(name, kind, turn).await?;
        let seen = self.store().observe(&path).await;
        Ok((path, verdict, ActRecord::new(kind, name), seen))
    }

    /// Steps 3–4: contain the name and decide. Refusals are logged and returned
    /// as the answer; otherwise the contained path and the table's verdict.
    pub(super) async fn locate(
        &self,
        name: &str,
        kind: ActKind,
        turn: Option<&str>,
    ) -> Result<(RelPath, Verdict), Reply> {
        self.locate_for(ActRecord::new(kind, name), kind, turn)
            .await
    }

    /// [`Self::locate`] for an act whose record is built already (e.g. names a tool).
    pub(super) async fn locate_for(
        &self,
        record: ActRecord,
        kind: ActKind,
        turn: Option<&str>,
    ) -> Result<(RelPath, Verdict), Reply> {
        let name = record.target.clone();
        self.locate_at(&name, record, kind, turn).await
    }

    /// [`Self::locate_for`] for a name other than the record's target (the
    /// other end of a move or copy): refusals are logged with `record`.
    pub(super) async fn locate_at(
        &self,
        name: &str,
        record: ActRecord,
        kind: ActKind,
        turn: Option<&str>,
    ) -> Result<(RelPath, Verdict), Reply> {
        let (path, place) = match contain::contain(self.store(), name).await {
            Ok(path) => (Some(path), Place::Inside),
            Err(refusal) => {
                let place = match refusal.rule {
                    Rule::OutsideRoot => Place::OutsideRoot,
                    Rule::SymlinkOut => Place::LinkOut,
                    _ => return Err(self.refuse(refusal, record, turn).await),
                };
                // The table refuses escapes; the containment's why says how.
                let verdict = self.table.decide(&crate::tier::at(kind, place));
                debug_assert_eq!(verdict.rule, refusal.rule);
                let why = format!("{} (your folder is `{}`)", refusal.why, self.folder_name());
                let refusal = Refusal::new(verdict.rule, why);
                return Err(self.refuse(refusal, record, turn).await);
            }
        };
        let verdict = self.table.decide(&crate::tier::at(kind, place));
        if verdict.decision == Decision::Refuse {
            let refusal = Refusal::new(
                verdict.rule,
                format!("{}; this act is not allowed here", verdict.why),
            );
            return Err(self.refuse(refusal, record, turn).await);
        }
        if let Err(refusal) = self.permitted(kind, name).await {
            return Err(self.refuse(refusal, record, turn).await);
        }
        Ok((path.expect("inside has a path"), verdict))
    }

    /// Asks the root, right before the act, whether it may be used for `kind`
    /// now: a picked browser folder's permission can change at any moment, and
    /// an act tried on a folder still waiting for a person's answer may never return.
    pub(super) async fn permitted(&self, kind: ActKind, name: &str) -> Result<(), Refusal> {
        let access = match kind {
            ActKind::Read => Access::Read,
            _ => Access::Write,
        };
        self.store()
            .permit(access)
            .await
            .map_err(|escape| contain::escape_refusal(escape, name))
    }

    /// Steps 5–8 for every change to a file — write, edit, create-asset, a
    /// confirmed delete, undo: the attempt entry (if it cannot be written,
    /// nothing happens), the prior bytes kept in the journal, the act, what
    /// the world shows, and the outcome entry naming the attempt. `completes`
    /// is the ask a confirmed act answers.
    pub(super) async fn change(
        &self,
        approved: &Approved,
        change: Change<'_>,
        completes: Option<u64>,
        turn: Option<&str>,
    ) -> Result<Changed, Reply> {
        let Approved { record, path, rule } = approved;
        let attempt = self
            .attempt(record.clone(), *rule, completes, turn, true)
            .await?;
        let store = self.store();
        // What the world is asked about afterwards: where the file now is.
        let seen_at = match &change {
            Change::Rename { to } => *to,
            Change::Unrename { back, .. } => *back,
            _ => path,
        };
        let done = match change {
            Change::Write { verb, bytes } => {
                match self
                    .remember(verb, path, Some(journal::digest(bytes)))
                    .await
                {
                    Ok(kept) => self.let_go(store.write(path, bytes).await, kept).await,
                    Err(refusal) => return self.failed(approved, attempt, refusal, turn).await,
                }
            }
            Change::Remove => match self.remember(Remembered::Delete, path, None).await {
                Ok(kept) => self.let_go(store.remove(path).await, kept).await,
                Err(refusal) => return self.failed(approved, attempt, refusal, turn).await,
            },
            Change::Restore(Some(prior)) => store.write(path, prior).await,
            Change::Restore(None) => store.remove(path).await,
            Change::Rename { to } => {
                // The moved file's digest, so undo can tell it is unchanged.
                let after = match self.read_bounded(path).await {
                    Ok(bytes) => Some(journal::digest(&bytes)),
                    Err(_) => None,
                };
                let memo = journal::Memo {
                    verb: Remembered::Move,
                    named: path.as_str(),
                    to: Some(to.as_str()),
                    kept: Some(to),
                    after,
                };
                match self.remember_entry(memo).await {
                    Ok(kept) => self.let_go(store.rename(path, to).await, kept).await,
                    Err(refusal) => return self.failed(approved, attempt, refusal, turn).await,
                }
            }
            Change::Unrename { back, replaced } => match store.rename(path, back).await {
                Ok(()) => match replaced {
                    Some(bytes) => store.write(path, bytes).await,
                    None => Ok(()),
                },
                Err(e) => Err(e),
            },
            Change::MakeFolder | Change::RemoveFolder => {
                let verb = match change {
                    Change::MakeFolder => Remembered::Mkdir,
                    _ => Remembered::Rmdir,
                };
                let memo = journal::Memo {
                    verb,
                    named: path.as_str(),
                    to: None,
                    kept: None,
                    after: None,
                };
                match self.remember_entry(memo).await {
                    Ok(_) if verb == Remembered::Mkdir => store.make_dir(path).await.map(|_| ()),
                    Ok(_) => store.remove_dir(path).await,
                    Err(refusal) => return self.failed(approved, attempt, refusal, turn).await,
                }
            }
            Change::Unfold { make: true } => store.make_dir(path).await.map(|_| ()),
            Change::Unfold { make: false } => store.remove_dir(path).await,
        };
        let outcome = done.map_err(|e| self.storage_refusal(e, path));
        let (outcome, _, logged) = self
            .finish(attempt, record.clone(), seen_at, *rule, outcome, turn)
            .await;
        Ok(Changed { outcome, logged })
    }

    /// A change that stopped before its act (the journal could not keep the
    /// prior bytes): its outcome entry, naming why.
    async fn failed(
        &self,
        approved: &Approved,
        attempt: u64,
        refusal: Refusal,
        turn: Option<&str>,
    ) -> Result<Changed, Reply> {
        let (outcome, _, logged) = self
            .finish(
                attempt,
                approved.record.clone(),
                &approved.path,
                approved.rule,
                Err(refusal),
                turn,
            )
            .await;
        Ok(Changed { outcome, logged })
    }

    /// Step 5: the attempt entry, durable before anything is done. If the
    /// log cannot be written the act does not happen (`audit-unwritable`).
    pub(super) async fn begin(
        &self,
        act: ActRecord,
        rule: Rule,
        completes: Option<u64>,
        turn: Option<&str>,
    ) -> Result<u64, Reply> {
        self.attempt(act, rule, completes, turn, false).await
    }

    /// [`Self::begin`]; for a change to the root (`change`), its line may
    /// be made durable at the storage's barrier, right before the root is
    /// changed, together with the journal (see [`Storage::append_attempt`]).
    async fn attempt(
        &self,
        act: ActRecord,
        rule: Rule,
        completes: Option<u64>,
        turn: Option<&str>,
        change: bool,
    ) -> Result<u64, Reply> {
        // A heard act the person said yes to completes that ask.
        let completes = completes.or(self.consent.and_then(|c| c.ask_seq));
        let mut entry = self.entry(act, turn, Happened::Attempt { rule, completes });
        entry.spoken.clone_from(&self.spoken);
        let appended = match change {
            true => self.store().append_attempt(&entry).await,
            false => self.store().append_audit(&entry).await,
        };
        match appended {
            Ok(seq) => Ok(seq),
            Err(e) => Err(self.unwritable(&e, "nothing was done")),
        }
    }

    /// The answer when the log cannot be written: `done` says what did not
    /// happen (an act, or a look whose result is withheld).
    pub(super) fn unwritable(&self, error: &StorageError, done: &str) -> Reply {
        self.answer(
            Reply::refusal(Refusal::new(
                Rule::AuditUnwritable,
                format!(
                    "the audit log cannot be written ({}), so {done}; free space or fix the permissions of the .audit folder in your folder, then try again",
                    describe(error)
                ),
            )),
            None,
        )
    }

    /// Steps 7–8: observe the world and write the outcome entry naming the attempt.
    pub(super) async fn finish(
        &self,
        attempt: u64,
        act: ActRecord,
        path: &RelPath,
        rule: Rule,
        outcome: Result<(), Refusal>,
        turn: Option<&str>,
    ) -> (Result<(), Refusal>, Observation, Option<u64>) {
        let seen = self.store().observe(path).await;
        let entry = self.entry(
            act,
            turn,
            Happened::Done {
                rule,
                attempt,
                observed: Some(self.observed(&seen)),
                failed: outcome.as_ref().err(),
            },
        );
        let seq = self.log(entry).await;
        (outcome, seen, seq)
    }
}
