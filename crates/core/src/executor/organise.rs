//! Verbs that organise the root: `move` (rename or move a file or folder),
//! `copy` (a file), `mkdir`, and the delete of an empty folder. Both ends of
//! a move or copy pass containment and the tier table; a file at the new
//! name is replaced only after the person says yes (`move-over-existing`),
//! and every one is journaled, so undo moves it back, removes the copy,
//! removes the folder or makes it again.

use super::ask::Ask;
use super::{Approved, Change, Executor, bytes};
use crate::audit::ActRecord;
use crate::confirm::Deferred;
use crate::contain::RelPath;
use crate::journal::Remembered;
use crate::platform::{Abilities, Env, Observation, Storage, StorageError};
use crate::reply::Reply;
use crate::rule::{Refusal, Rule};
use crate::tier::{Act, ActKind, Decision, Verdict};
use alloc::format;
use alloc::string::String;

/// The last name of a path (`b.md` of `a/b.md`).
fn leaf(path: &RelPath) -> &str {
    path.segments().last().unwrap_or("")
}

/// The folder a path is in (`""` for the root).
fn folder_of(path: &RelPath) -> &str {
    path.as_str()
        .rsplit_once('/')
        .map_or("", |(folder, _)| folder)
}

/// Whether `inner` is `outer` or lies inside it.
fn within(inner: &RelPath, outer: &RelPath) -> bool {
    inner == outer
        || inner
            .as_str()
            .strip_prefix(outer.as_str())
            .is_some_and(|rest| rest.starts_with('/'))
}

impl<S: Storage, E: Env, A: Abilities> Executor<S, E, A> {
    /// `move {name, to}`: asks first when a file holds the new name.
    pub(super) async fn ask_move(&mut self, name: &str, to: &str, turn: Option<&str>) -> Reply {
        let record = ActRecord::new(ActKind::Write, name).with_to(to);
        let approved = match self.approve(record.clone(), ActKind::Write, turn).await {
            Ok(approved) => approved,
            Err(reply) => return reply,
        };
        let from = approved.path.clone();
        let seen = self.store().observe(&from).await;
        if let Err(refusal) = self.movable(&from, &seen, "move") {
            return self.refuse(refusal, record, turn).await;
        }
        let (to, verdict) = match self.destination(&from, to, &record, turn).await {
            Ok(found) => found,
            Err(reply) => return reply,
        };
        if seen.is_dir && within(&to, &from) {
            let refusal = Refusal::new(
                Rule::MoveIntoItself,
                format!("`{from}` cannot be moved into itself (`{to}`); name a place outside it"),
            );
            return self.refuse(refusal, record, turn).await;
        }
        let there = self.store().observe(&to).await;
        if there.exists {
            if there.is_dir || seen.is_dir {
                return self.refuse(taken(&to, &there), record, turn).await;
            }
            let plan = replacing(format!("move {from} to {to}"), &to, &there);
            let deferred = Deferred::Move { to: to.clone() };
            return self
                .ask_over(record, from, plan, deferred, &there, turn)
                .await;
        }
        debug_assert_eq!(verdict.decision, Decision::Allow);
        self.move_approved(&approved, &to, None, turn).await
    }

    /// Carries out an approved move of `approved.path` to `to`.
    pub(super) async fn move_approved(
        &self,
        approved: &Approved,
        to: &RelPath,
        completes: Option<u64>,
        turn: Option<&str>,
    ) -> Reply {
        let approved = Approved {
            record: approved.record.clone().with_to(to.as_str()),
            path: approved.path.clone(),
            rule: approved.rule,
        };
        let from = &approved.path;
        let changed = self
            .change(&approved, Change::Rename { to }, completes, turn)
            .await;
        self.answer_changed(changed, || {
            let did = match folder_of(from) == folder_of(to) {
                true => "Renamed",
                false => "Moved",
            };
            let mut reply = Reply::done(format!("{} {from} to {to}", did.to_lowercase()))
                .said(format!("{did} {from} to {to}; Undo moves it back."));
            reply.file = Some(to.as_str().into());
            reply.to = Some(to.as_str().into());
            reply
        })
    }

    /// `copy {name, to}`: a file; asks first when a file holds the new name.
    pub(super) async fn copy(&mut self, name: &str, to: &str, turn: Option<&str>) -> Reply {
        let record = ActRecord::new(ActKind::Write, name).with_to(to);
        let (from, _) = match self
            .locate_at(name, record.clone(), ActKind::Read, turn)
            .await
        {
            Ok(found) => found,
            Err(reply) => return reply,
        };
        let seen = self.store().observe(&from).await;
        if let Err(refusal) = self.movable(&from, &seen, "copy") {
            return self.refuse(refusal, record, turn).await;
        }
        if seen.is_dir {
            let refusal = Refusal::new(
                Rule::IsADirectory,
                format!("`{from}` is a folder; copy copies one file — name a file inside it"),
            );
            return self.refuse(refusal, record, turn).await;
        }
        let (to, verdict) = match self.destination(&from, to, &record, turn).await {
            Ok(found) => found,
            Err(reply) => return reply,
        };
        let there = self.store().observe(&to).await;
        if there.is_dir {
            return self.refuse(taken(&to, &there), record, turn).await;
        }
        if there.exists {
            let plan = replacing(format!("copy {from} to {to}"), &to, &there);
            let deferred = Deferred::Copy { from: from.clone() };
            return self
                .ask_over(record, to, plan, deferred, &there, turn)
                .await;
        }
        let approved = Approved {
            record,
            path: to,
            rule: verdict.rule,
        };
        self.copy_approved(&approved, &from, None, turn).await
    }

    /// Carries out an approved copy of `from` to `approved.path`.
    pub(super) async fn copy_approved(
        &self,
        approved: &Approved,
        from: &RelPath,
        completes: Option<u64>,
        turn: Option<&str>,
    ) -> Reply {
        let to = &approved.path;
        let approved = Approved {
            record: ActRecord::new(ActKind::Write, from.as_str()).with_to(to.as_str()),
            path: to.clone(),
            rule: approved.rule,
        };
        let content = match self.read_bounded(from).await {
            Ok(content) => content,
            Err(e) => {
                let refusal = self.storage_refusal(e, from);
                return self.refuse(refusal, approved.record, turn).await;
            }
        };
        let replaced = self.store().observe(to).await.exists;
        let write = Change::Write {
            verb: Remembered::Copy,
            bytes: &content,
        };
        let changed = self.change(&approved, write, completes, turn).await;
        self.answer_changed(changed, || {
            let undo = match replaced {
                true => format!("Undo brings back what {to} held"),
                false => String::from("Undo removes the copy"),
            };
            let mut reply = Reply::done(format!(
                "copied {from} to {to} ({})",
                bytes(content.len() as u64)
            ))
            .said(format!("Copied {from} to {to}; {undo}."));
            reply.file = Some(to.as_str().into());
            reply.to = Some(to.as_str().into());
            reply.bytes = Some(content.len() as u64);
            reply
        })
    }

    /// `mkdir {name}`: a folder and any missing above it; one that is there
    /// already is said so, and nothing changes.
    pub(super) async fn mkdir(&self, name: &str, turn: Option<&str>) -> Reply {
        let record = ActRecord::new(ActKind::Write, name);
        let approved = match self.approve(record.clone(), ActKind::Write, turn).await {
            Ok(approved) => approved,
            Err(reply) => return reply,
        };
        let path = &approved.path;
        let seen = self.store().observe(path).await;
        if seen.exists && !seen.is_dir {
            return self.refuse(taken(path, &seen), record, turn).await;
        }
        if seen.is_dir {
            let seq = match self
                .nothing_changed(record, path, approved.rule, turn)
                .await
            {
                Ok(seq) => Some(seq),
                Err(reply) => return reply,
            };
            let mut reply = Reply::done(format!("{path} is a folder already; nothing was made"))
                .said(format!("The folder {path} is there already."));
            reply.file = Some(path.as_str().into());
            return self.answer(reply, seq);
        }
        let changed = self.change(&approved, Change::MakeFolder, None, turn).await;
        self.answer_changed(changed, || {
            let mut reply = Reply::done(format!("made the folder {path}"))
                .said(format!("Made the folder {path}."));
            reply.file = Some(path.as_str().into());
            reply
        })
    }

    /// The delete of a folder: only an empty one, asked first like a file.
    pub(super) async fn ask_remove_folder(
        &mut self,
        record: ActRecord,
        path: RelPath,
        verdict: Verdict,
        seen: &Observation,
        turn: Option<&str>,
    ) -> Reply {
        if path.is_root() {
            let refusal = Refusal::new(
                Rule::IsADirectory,
                "that is the project's folder itself, which is never deleted; name a file or a folder inside it",
            );
            return self.refuse(refusal, record, turn).await;
        }
        let held = match self.store().list(&path).await {
            Ok(entries) => entries,
            Err(e) => {
                let refusal = self.storage_refusal(e, &path);
                return self.refuse(refusal, record, turn).await;
            }
        };
        if !held.is_empty() {
            return self
                .refuse(not_empty(&path, held.len()), record, turn)
                .await;
        }
        let ask = Ask {
            record,
            plan: format!("delete the empty folder {path}"),
            path,
            verdict,
            deferred: Deferred::RemoveFolder,
        };
        self.ask(ask, seen, turn).await
    }

    /// Carries out an approved delete of an empty folder.
    pub(super) async fn remove_folder_approved(
        &self,
        approved: &Approved,
        completes: Option<u64>,
        turn: Option<&str>,
    ) -> Reply {
        let path = &approved.path;
        let changed = self
            .change(approved, Change::RemoveFolder, completes, turn)
            .await;
        self.answer_changed(changed, || {
            let mut reply = Reply::done(format!("deleted the empty folder {path}"))
                .said(format!("Deleted the folder {path}; Undo brings it back."));
            reply.file = Some(path.as_str().into());
            reply
        })
    }

    /// What a move or copy may start from: something there, and not the
    /// project's folder itself.
    fn movable(&self, from: &RelPath, seen: &Observation, verb: &str) -> Result<(), Refusal> {
        if from.is_root() {
            return Err(Refusal::new(
                Rule::IsADirectory,
                format!("that is the project's folder itself; {verb} a file or a folder inside it"),
            ));
        }
        if !seen.exists {
            return Err(self.storage_refusal(StorageError::NotFound, from));
        }
        Ok(())
    }

    /// Where a move or copy of `from` to the name `to` lands: `to` itself,
    /// or inside it when it is a folder (as `mv` does), contained and
    /// decided again; the same name as `from` is refused.
    async fn destination(
        &self,
        from: &RelPath,
        to: &str,
        record: &ActRecord,
        turn: Option<&str>,
    ) -> Result<(RelPath, Verdict), Reply> {
        let (mut found, mut verdict) = self
            .locate_at(to, record.clone(), ActKind::Write, turn)
            .await?;
        if found != *from && self.store().observe(&found).await.is_dir {
            let inside = found.child(leaf(from));
            (found, verdict) = self
                .locate_at(inside.as_str(), record.clone(), ActKind::Write, turn)
                .await?;
        }
        if found == *from {
            let refusal = Refusal::new(
                Rule::AlreadyExists,
                format!("`{from}` already has that name; name another place"),
            );
            return Err(self.refuse(refusal, record.clone(), turn).await);
        }
        Ok((found, verdict))
    }

    /// Asks before a move or copy replaces the file at its new name.
    async fn ask_over(
        &mut self,
        record: ActRecord,
        path: RelPath,
        plan: String,
        deferred: Deferred,
        there: &Observation,
        turn: Option<&str>,
    ) -> Reply {
        let ask = Ask {
            record,
            path,
            verdict: self.table.decide(&Act::moving_over()),
            plan,
            deferred,
        };
        self.ask_unless_refused(ask, there, turn).await
    }
}

/// The refusal for a name that is taken by something that may not be replaced.
fn taken(path: &RelPath, there: &Observation) -> Refusal {
    let what = match there.is_dir {
        true => "a folder",
        false => "a file",
    };
    Refusal::new(
        Rule::AlreadyExists,
        format!("`{path}` is {what} already, which this would not replace; choose another name"),
    )
}

/// The question for a move or copy `act` onto `to`, a file that exists:
/// what it would replace, and that undo brings it back.
fn replacing(act: String, to: &RelPath, there: &Observation) -> String {
    format!(
        "{act}, replacing what {to} holds ({}); undo would restore it",
        bytes(there.bytes)
    )
}

/// The refusal for a folder that holds something.
pub(super) fn not_empty(path: &RelPath, entries: usize) -> Refusal {
    Refusal::new(
        Rule::FolderNotEmpty,
        format!(
            "`{path}` holds {} (hidden ones count too); only an empty folder is deleted — move or delete what is in it first",
            crate::words::count(entries, "entry")
        ),
    )
}
