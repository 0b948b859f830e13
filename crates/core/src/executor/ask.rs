//! Acts the person is asked about first (tier 2): `delete`, and a `write`
//! phrased as a create over a file that exists. The executor asks (one
//! `confirm` entry and a pending single-use id); the person's answer
//! declines (one entry) or performs it (attempt entry naming the ask, then
//! the outcome).

use super::{Approved, Change, Executor, bytes};
use crate::audit::{ActRecord, Happened};
use crate::confirm::spoken::{Challenge, Spoken};
use crate::confirm::{CONFIRM_TTL_MS, Deferred, PendingAct};
use crate::contain::RelPath;
use crate::platform::{Abilities, Env, Observation, Storage, StorageError};
use crate::reply::{ConfirmRequest, Reply};
use crate::rule::{Refusal, Rule};
use crate::tier::{ActKind, Decision, Verdict};
use crate::time::iso8601;
use alloc::format;
use alloc::string::String;

impl<S: Storage, E: Env, A: Abilities> Executor<S, E, A> {
    pub(super) async fn ask_delete(&mut self, name: &str, turn: Option<&str>) -> Reply {
        let (path, verdict, record, seen) =
            match self.locate_seen(name, ActKind::Delete, turn).await {
                Ok(found) => found,
                Err(reply) => return reply,
            };
        if !seen.exists {
            let refusal = self.storage_refusal(StorageError::NotFound, &path);
            return self.refuse(refusal, record, turn).await;
        }
        if seen.is_dir {
            return self
                .ask_remove_folder(record, path, verdict, &seen, turn)
                .await;
        }
        debug_assert_eq!(verdict.decision, Decision::Confirm);
        let plan = format!("delete {path} ({})", bytes(seen.bytes));
        let ask = Ask {
            record,
            path,
            verdict,
            plan,
            deferred: Deferred::Delete,
        };
        self.ask(ask, &seen, turn).await
    }

    /// [`Self::ask`], unless the table refuses the act outright: then the
    /// plan is the refusal's why, and nothing is asked.
    pub(super) async fn ask_unless_refused(
        &mut self,
        ask: Ask,
        seen: &Observation,
        turn: Option<&str>,
    ) -> Reply {
        if ask.verdict.decision == Decision::Refuse {
            let refusal = Refusal::new(ask.verdict.rule, ask.plan);
            return self.refuse(refusal, ask.record, turn).await;
        }
        self.ask(ask, seen, turn).await
    }

    /// Asks the person first (tier 2): one `confirm` entry, and a pending
    /// single-use id that [`Self::confirm`] answers.
    pub(super) async fn ask(&mut self, ask: Ask, seen: &Observation, turn: Option<&str>) -> Reply {
        let Ask {
            record,
            path,
            verdict,
            plan,
            deferred,
        } = ask;
        // Heard or guessed, checked and approved already: done, not asked again.
        if let Some(consent) = self.consent.take() {
            let approved = Approved {
                record,
                path,
                rule: verdict.rule,
            };
            return self
                .perform(deferred, &approved, consent.ask_seq, turn)
                .await;
        }
        let now = self.env.now_ms();
        let asked = Happened::Asked {
            rule: verdict.rule,
            observed: self.observed(seen),
        };
        let ask_seq = self.log(self.entry(record, turn, asked)).await;
        let id = self.env.random_id();
        let words = deferred.words(path.as_str());
        // A heard change may be answered by voice, with words bound to it.
        let challenge = match &deferred {
            Deferred::Heard(action) => Challenge::of(action, seen.exists),
            _ => None,
        };
        let request = ConfirmRequest {
            id: id.clone(),
            rule: verdict.rule,
            why: verdict.why.into(),
            plan,
            expires_at: iso8601(now + CONFIRM_TTL_MS),
            question: words.question,
            consequence: words.consequence.into(),
            yes: words.yes.into(),
            no: words.no.into(),
            expired: words.expired.into(),
            danger: deferred.loses_something(),
            rephrase: words.rephrase,
            say: challenge.as_ref().map(Challenge::phrase),
        };
        self.pending.insert(
            id,
            PendingAct {
                deferred,
                path: path.clone(),
                turn: turn.map(Into::into),
                ask_seq,
                challenge,
                created_ms: now,
                expires_ms: now + CONFIRM_TTL_MS,
            },
        );
        let mut reply = Reply {
            confirm: Some(request),
            file: Some(path.as_str().into()),
            ..Reply::default()
        };
        reply.bytes = Some(seen.bytes);
        self.answer(reply, ask_seq)
    }

    /// Answers a pending confirmation: `approved` performs the act, otherwise
    /// it is declined. Each id answers once.
    pub async fn confirm(&mut self, id: &str, approved: bool) -> Reply {
        match self.waiting(id).await {
            Ok(pending) => self.answered(pending, approved, None).await,
            Err(reply) => reply,
        }
    }

    /// Answers a pending confirmation by voice: `heard` is what the
    /// recogniser heard. Only the question's challenge ([`Challenge`]) says
    /// yes and "no" / "cancel" / "stop" says no; anything else is refused
    /// (`spoken-answer-mismatch`) and the question keeps waiting for its
    /// answer or a click. Each id answers once, by voice or click.
    pub async fn confirm_spoken(&mut self, id: &str, heard: &str) -> Reply {
        let pending = match self.waiting(id).await {
            Ok(pending) => pending,
            Err(reply) => return reply,
        };
        let record = ActRecord::new(pending.deferred.kind(), pending.path.as_str());
        let said = crate::words::quoted(heard);
        let (rule, why) = match &pending.challenge {
            Some(challenge) => match challenge.judge(heard) {
                Spoken::Confirms => return self.answered(pending, true, Some(heard)).await,
                Spoken::Declines => return self.answered(pending, false, Some(heard)).await,
                Spoken::Mismatch => (
                    Rule::SpokenAnswerMismatch,
                    format!(
                        "heard {said}, which does not answer the question, so nothing was done; say “{}” to do it, “no” to cancel, or click",
                        challenge.phrase()
                    ),
                ),
            },
            None => (
                Rule::SpokenAnswerNotTaken,
                format!(
                    "heard {said}, but this question is answered by a click only, so nothing was done; click Yes or No"
                ),
            ),
        };
        self.pending.insert(id.into(), pending);
        let refusal = Refusal::new(rule, why);
        let mut entry = self.entry(record, None, Happened::Refused(&refusal));
        entry.spoken = Some(heard.into());
        let seq = self.log(entry).await;
        self.answer(Reply::refusal(refusal), seq)
    }

    /// The act waiting under `id`, taken (each answers once), or the
    /// refusal that none is (answered already, expired, never asked).
    async fn waiting(&mut self, id: &str) -> Result<PendingAct, Reply> {
        if let Err(refusal) = self.root_ready().await {
            return Err(Reply::refusal(refusal));
        }
        let now = self.env.now_ms();
        match self.pending.take(id, now) {
            Ok(pending) => Ok(pending),
            Err(refusal) => {
                let record = ActRecord::new(ActKind::Delete, "");
                Err(self.refuse(refusal, record, None).await)
            }
        }
    }

    /// The person's answer to `pending`: yes performs it, no declines it;
    /// `spoken` is the words of an answer said by voice, for the audit.
    async fn answered(
        &mut self,
        pending: PendingAct,
        approved: bool,
        spoken: Option<&str>,
    ) -> Reply {
        let turn = pending.turn.as_deref();
        let name = pending.path.as_str();
        let kind = pending.deferred.kind();
        let record = ActRecord::new(kind, name);
        if let (true, Some(action)) = (approved, pending.deferred.checked()) {
            // The action's own steps contain, decide and ask the root again.
            let spoken = spoken.map(String::from);
            return self
                .heard_and_approved(action.clone(), pending.ask_seq, spoken, turn)
                .await;
        }
        if !approved {
            let declined = Happened::Declined {
                ask: pending.ask_seq,
            };
            let mut entry = self.entry(record, turn, declined);
            entry.spoken = spoken.map(String::from);
            let seq = self.log(entry).await;
            let kept = match name {
                "" => String::from("Nothing was done."),
                name => format!("Kept {name}."),
            };
            let refusal = Refusal::new(Rule::Declined, kept);
            return self.answer(Reply::refusal(refusal), seq);
        }
        // The world may have changed while the person decided: contain,
        // decide and ask the root again.
        let approved = match self.approve(record, kind, turn).await {
            Ok(approved) => approved,
            Err(reply) => return reply,
        };
        self.perform(pending.deferred, &approved, pending.ask_seq, turn)
            .await
    }

    /// What a yes does: the deferred act, approved, completing the ask.
    async fn perform(
        &mut self,
        deferred: Deferred,
        approved: &Approved,
        ask_seq: Option<u64>,
        turn: Option<&str>,
    ) -> Reply {
        match deferred {
            Deferred::Write { content } => {
                let seen = self.store().observe(&approved.path).await;
                let before = seen.exists.then_some(seen.bytes);
                self.write_approved(approved, &content, before, ask_seq, turn)
                    .await
            }
            Deferred::Delete => self.remove_approved(approved, ask_seq, turn).await,
            Deferred::RemoveFolder => self.remove_folder_approved(approved, ask_seq, turn).await,
            // The other end is contained and decided again too.
            Deferred::Move { to } => {
                let record = approved.record.clone().with_to(to.as_str());
                match self
                    .locate_at(to.as_str(), record, ActKind::Write, turn)
                    .await
                {
                    Ok((to, _)) => self.move_approved(approved, &to, ask_seq, turn).await,
                    Err(reply) => reply,
                }
            }
            Deferred::Copy { from } => {
                let record =
                    ActRecord::new(ActKind::Write, from.as_str()).with_to(approved.path.as_str());
                match self
                    .locate_at(from.as_str(), record, ActKind::Read, turn)
                    .await
                {
                    Ok((from, _)) => self.copy_approved(approved, &from, ask_seq, turn).await,
                    Err(reply) => reply,
                }
            }
            // Boxed: carrying a checked action out may ask (and so perform) again.
            Deferred::Heard(action) | Deferred::Guessed(action) => {
                let spoken = self.spoken.clone();
                alloc::boxed::Box::pin(self.heard_and_approved(action, ask_seq, spoken, turn)).await
            }
        }
    }

    async fn remove_approved(
        &self,
        approved: &Approved,
        completes: Option<u64>,
        turn: Option<&str>,
    ) -> Reply {
        let changed = self.change(approved, Change::Remove, completes, turn).await;
        self.answer_changed(changed, || {
            let mut reply = Reply::done(format!("deleted {}", approved.path))
                .said(format!("Deleted {}; Undo brings it back.", approved.path));
            reply.file = Some(approved.path.as_str().into());
            reply
        })
    }
}

/// An act to ask the person about: what it is, where, the table's verdict,
/// the plan in words, and what a yes will do.
pub(super) struct Ask {
    pub record: ActRecord,
    pub path: RelPath,
    pub verdict: Verdict,
    pub plan: String,
    pub deferred: Deferred,
}
