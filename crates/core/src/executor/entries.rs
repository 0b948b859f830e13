//! What each act leaves on record: the audit entry that opens or closes it,
//! a refusal's entry and its named answer, and what the filesystem showed.

use super::Executor;
use crate::audit::{ActRecord, Context, Entry, Happened, Observed};
use crate::command::Verb;
use crate::platform::{Abilities, Env, Observation, Storage};
use crate::reply::Reply;
use crate::rule::{Refusal, Rule};
use crate::tier::ActKind;
use crate::time::iso8601;
use alloc::string::String;
use serde_json::Value;

impl<S: Storage, E: Env, A: Abilities> Executor<S, E, A> {
    /// The entry that closes the attempt `attempt` of an act at the host
    /// itself (a person's act, the start-up sweep: no turn, nothing
    /// observed), done or `failed`.
    pub(super) fn closing_entry(
        &self,
        act: ActRecord,
        rule: Rule,
        attempt: u64,
        failed: Option<&Refusal>,
    ) -> Entry {
        let done = Happened::Done {
            rule,
            attempt,
            observed: None,
            failed,
        };
        self.entry(act, None, done)
    }

    /// The entry recording `act` as `happened`, for this host and project.
    pub(super) fn entry(
        &self,
        act: ActRecord,
        turn: Option<&str>,
        happened: Happened<'_>,
    ) -> Entry {
        let project = self.project();
        let context = Context {
            instance: self.instance.clone(),
            project: project.id.clone(),
            root: project.storage.root_info().path,
            turn: turn.map(String::from),
            at: iso8601(self.env.now_ms()),
        };
        Entry::new(context, act, happened)
    }

    /// Appends an entry; `None` if the log could not be written.
    pub(super) async fn log(&self, entry: Entry) -> Option<u64> {
        self.store().append_audit(&entry).await.ok()
    }

    /// A refusal: one entry, and the named answer.
    pub(super) async fn refuse(
        &self,
        refusal: Refusal,
        act: ActRecord,
        turn: Option<&str>,
    ) -> Reply {
        let refusal = self.with_neighbours(refusal, &act.target).await;
        let seq = self
            .log(self.entry(act, turn, Happened::Refused(&refusal)))
            .await;
        self.answer(Reply::refusal(refusal), seq)
    }

    /// An answer carrying the root and the audit seq that records it.
    pub(super) fn answer(&self, reply: Reply, seq: Option<u64>) -> Reply {
        reply
            .with_root(self.project.as_ref().map(|p| p.storage.root_info()))
            .logged(seq)
    }

    /// An action the command table refused: audited when it named an act on
    /// a declared root; a malformed catalog question touches nothing.
    pub(super) async fn refuse_invalid(
        &self,
        value: &Value,
        refusal: Refusal,
        turn: Option<&str>,
    ) -> Reply {
        let verb = value
            .get("verb")
            .and_then(Value::as_str)
            .and_then(Verb::from_wire);
        if verb.is_some_and(|verb| verb.command().act.is_none()) {
            return Reply::refusal(refusal);
        }
        if let Err(unready) = self.root_ready().await {
            return Reply::refusal(unready);
        }
        let kind = verb
            .and_then(|v| v.command().act)
            .unwrap_or(ActKind::External);
        let target = value.get("name").and_then(Value::as_str).unwrap_or("");
        self.refuse(refusal, ActRecord::new(kind, target), turn)
            .await
    }

    pub(super) fn observed(&self, seen: &Observation) -> Observed {
        Observed {
            exists: seen.exists,
            dir: seen.exists && seen.is_dir,
            entries: None,
            bytes: (seen.exists && !seen.is_dir).then_some(seen.bytes),
            mtime: seen.mtime_ms.filter(|_| seen.exists).map(iso8601),
        }
    }
}
