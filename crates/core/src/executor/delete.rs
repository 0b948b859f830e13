//! `delete`, the tier-2 verb: the executor asks (one `confirm` entry and a
//! pending single-use id); the person's answer declines (one entry) or
//! performs it (attempt entry naming the ask, then the outcome).

use super::{Executor, bytes};
use crate::audit::{ActRecord, EntryDecision, EntryResult};
use crate::confirm::{CONFIRM_TTL_MS, PendingAct};
use crate::contain;
use crate::platform::Abilities;
use crate::platform::{Env, Storage, StorageError};
use crate::reply::{ConfirmRequest, Reply};
use crate::rule::{Refusal, Rule};
use crate::tier::{ActKind, Decision};
use crate::time::iso8601;
use alloc::format;

impl<S: Storage, E: Env, A: Abilities> Executor<S, E, A> {
    pub(super) async fn ask_delete(&mut self, name: &str, turn: Option<&str>) -> Reply {
        let (path, verdict) = match self.locate(name, ActKind::Delete, turn).await {
            Ok(found) => found,
            Err(reply) => return reply,
        };
        let record = ActRecord::new(ActKind::Delete, name);
        let seen = self.store().observe(&path).await;
        let problem = match (seen.exists, seen.is_dir) {
            (false, _) => Some(StorageError::NotFound),
            (true, true) => Some(StorageError::IsADirectory),
            _ => None,
        };
        if let Some(error) = problem {
            let refusal = self.storage_refusal(error, &path);
            return self.refuse(refusal, record, turn).await;
        }
        debug_assert_eq!(verdict.decision, Decision::Confirm);
        let now = self.env.now_ms();
        let mut entry = self.entry(record, turn);
        entry.decision = EntryDecision::Confirm;
        entry.rule = Some(verdict.rule.id().into());
        entry.result = EntryResult::Pending;
        entry.observed = Some(self.observed(&seen));
        let ask_seq = self.log(entry).await;
        let id = self.env.random_id();
        let plan = format!("delete {path} ({}) — {}", bytes(seen.bytes), verdict.why);
        let request = ConfirmRequest {
            id: id.clone(),
            rule: verdict.rule,
            why: format!("{}; answer yes or no with this id", verdict.why),
            plan,
            expires_at: iso8601(now + CONFIRM_TTL_MS),
        };
        self.pending.insert(
            id,
            PendingAct {
                path: path.clone(),
                turn: turn.map(Into::into),
                ask_seq,
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
        if let Err(refusal) = self.root_ready().await {
            return Reply::refusal(refusal);
        }
        let now = self.env.now_ms();
        let pending = match self.pending.take(id, now) {
            Ok(pending) => pending,
            Err(refusal) => {
                let record = ActRecord::new(ActKind::Delete, "");
                return self.refuse(refusal, record, None).await;
            }
        };
        let turn = pending.turn.as_deref();
        let name = pending.path.as_str();
        let record = ActRecord::new(ActKind::Delete, name);
        if !approved {
            let mut entry = self.entry(record, turn);
            entry.rule = Some(Rule::Declined.id().into());
            entry.attempt = pending.ask_seq;
            entry.why = Some("the person said no".into());
            let seq = self.log(entry).await;
            let refusal = Refusal::new(Rule::Declined, format!("kept {name}: you said no"));
            return self.answer(Reply::refusal(refusal), seq);
        }
        // The world may have changed while the person decided: contain again.
        let path = match contain::contain(self.store(), name).await {
            Ok(path) => path,
            Err(refusal) => return self.refuse(refusal, record, turn).await,
        };
        if let Err(refusal) = self.permitted(ActKind::Delete, name).await {
            return self.refuse(refusal, record, turn).await;
        }
        let attempt = match self
            .begin(record.clone(), Rule::Delete, pending.ask_seq, turn)
            .await
        {
            Ok(seq) => seq,
            Err(reply) => return reply,
        };
        let outcome = match self.remember("delete", &path, None).await {
            Ok(()) => self
                .store()
                .remove(&path)
                .await
                .map_err(|e| self.storage_refusal(e, &path)),
            Err(refusal) => Err(refusal),
        };
        let (outcome, _, seq) = self
            .finish(attempt, record, &path, Rule::Delete, outcome, turn)
            .await;
        let reply = match outcome {
            Ok(()) => {
                let mut reply = Reply::done(format!("deleted {path}"));
                reply.file = Some(path.as_str().into());
                reply
            }
            Err(refusal) => Reply::refusal(refusal),
        };
        self.answer(reply, seq)
    }
}
