//! Audit entries: their shape and construction. One writer's file (its name,
//! a reader that tolerates a torn last line, what was left pending) is
//! [`file`].
//!
//! Storage only appends the lines built here; it never decides what they say.
//! The chain that makes a log tamper-evident, the checks against it and the
//! paged, newest-first read are here too (see [`chain`] and [`page`]), so
//! every placement judges a log the same way; storage only moves bytes.

use crate::rule::{Refusal, Rule};
use crate::tier::{ActKind, Decision};
use alloc::string::String;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

pub mod chain;
mod file;
pub mod lines;
pub mod page;

pub use file::{
    AuditCheck, AuditFile, AuditView, ParsedFile, dangling, file_name, file_path, last_seq,
    lost_completions, number_in, numbered, of_root, parse, valid_instance,
};

/// What an entry records about the act.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActRecord {
    pub kind: ActKind,
    pub target: String,
    /// Where a move or copy puts its target.
    pub to: Option<String>,
    pub tool: Option<String>,
}

impl ActRecord {
    pub fn new(kind: ActKind, target: &str) -> ActRecord {
        ActRecord {
            kind,
            target: target.into(),
            to: None,
            tool: None,
        }
    }

    /// The same record, naming where a move or copy puts its target.
    pub fn with_to(mut self, to: &str) -> ActRecord {
        self.to = Some(to.into());
        self
    }

    /// The same record, naming the tool that performs the act.
    pub fn with_tool(mut self, tool: &str) -> ActRecord {
        self.tool = Some(tool.into());
        self
    }
}

/// What the world showed after the act, read from storage — never from a
/// model's or tool's account.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Observed {
    pub exists: bool,
    /// A folder (a listing's or a search's start), not a file.
    #[serde(default, skip_serializing_if = "core::ops::Not::not")]
    pub dir: bool,
    /// How many entries a listed folder showed.
    pub entries: Option<u64>,
    /// A file's size (a folder has none).
    pub bytes: Option<u64>,
    pub mtime: Option<String>,
}

/// What a read looked at.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReadRecord {
    pub path: String,
    pub bytes: u64,
}

/// An entry's decision field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EntryDecision {
    Attempt,
    Allow,
    Confirm,
    Refuse,
    Lost,
}

impl From<Decision> for EntryDecision {
    fn from(d: Decision) -> Self {
        match d {
            Decision::Allow => EntryDecision::Allow,
            Decision::Confirm => EntryDecision::Confirm,
            Decision::Refuse => EntryDecision::Refuse,
        }
    }
}

/// An entry's result field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EntryResult {
    Pending,
    Ok,
    Error,
    Refused,
    Lost,
}

/// One line of the audit log.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    /// Per instance, from 1, never reused. Assigned by the writer at append.
    pub seq: u64,
    pub instance: String,
    pub project: String,
    pub root: String,
    #[serialize_always]
    pub turn: Option<String>,
    /// Wall clock: a hint, never an ordering key.
    pub at: String,
    pub act: ActRecord,
    pub decision: EntryDecision,
    #[serialize_always]
    pub rule: Option<Rule>,
    pub result: EntryResult,
    #[serialize_always]
    pub observed: Option<Observed>,
    /// The seq of the entry this one completes.
    pub attempt: Option<u64>,
    pub read: Option<Vec<ReadRecord>>,
    /// For refusals and errors: the sentence the person was given.
    pub why: Option<String>,
    /// For an allowed act that failed: the rule of what went wrong
    /// (`not-found`, `not-text`, …), beside the tier rule that allowed it.
    pub failed: Option<Rule>,
    /// The words of the person's answer when they answered by voice, not
    /// by a click: on the attempt it confirmed, or on its no.
    pub spoken: Option<String>,
    /// SHA-256 (hex) of the previous line of this file, newline included; the
    /// first line chains from [`chain::genesis`]. Absent on lines written
    /// before the chain existed (reported as unchained, never as broken).
    pub prev: Option<String>,
    /// On chained lines: the lowest seq of this file still waiting for its
    /// completion once this line is written (absent: none). An opening writer
    /// reads back only that far for the `lost` sweep, not the whole log.
    pub open: Option<u64>,
}

/// The part of every entry that does not depend on what happened: who
/// writes it, about which project and turn, and when.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Context {
    pub instance: String,
    pub project: String,
    pub root: String,
    pub turn: Option<String>,
    /// Wall clock (ISO 8601): a hint, never an ordering key.
    pub at: String,
}

/// What happened, which alone decides an entry's decision, rule and result:
/// the executor says which of these it is, and [`Entry::new`] writes the
/// fields, so no entry's decision is assembled by hand.
#[derive(Clone, Debug)]
pub enum Happened<'a> {
    /// Refused before anything was done: the one entry of the act.
    Refused(&'a Refusal),
    /// A tier-2 act waits for the person; `rule` is the table's.
    Asked { rule: Rule, observed: Observed },
    /// The person answered no to the ask `ask`.
    Declined { ask: Option<u64> },
    /// A change is about to be made (`completes`: the ask it answers).
    Attempt { rule: Rule, completes: Option<u64> },
    /// The change `attempt` announced was made (`failed: None`) or failed,
    /// and what the world shows afterwards.
    Done {
        rule: Rule,
        attempt: u64,
        observed: Option<Observed>,
        failed: Option<&'a Refusal>,
    },
    /// An allowed act of one entry (a look, a stored proposal, a fetch).
    Allowed {
        rule: Rule,
        observed: Option<Observed>,
        read: Option<Vec<ReadRecord>>,
    },
    /// An allowed act of one entry that failed without changing anything
    /// (a look at nothing, a tool fault); `rule` names the act or the fault.
    Failed {
        rule: Rule,
        observed: Option<Observed>,
        refusal: &'a Refusal,
    },
}

impl Entry {
    /// The entry that records `act` in `context` as `happened`; the writer
    /// assigns its seq and chain fields at append.
    pub fn new(context: Context, act: ActRecord, happened: Happened<'_>) -> Entry {
        let mut entry = Entry {
            seq: 0,
            instance: context.instance,
            project: context.project,
            root: context.root,
            turn: context.turn,
            at: context.at,
            act,
            decision: EntryDecision::Refuse,
            rule: None,
            result: EntryResult::Refused,
            observed: None,
            attempt: None,
            read: None,
            why: None,
            failed: None,
            spoken: None,
            prev: None,
            open: None,
        };
        let (decision, rule, result): (EntryDecision, Rule, EntryResult) = match happened {
            Happened::Refused(refusal) => {
                entry.why = Some(refusal.why.clone());
                (Decision::Refuse.into(), refusal.rule, EntryResult::Refused)
            }
            Happened::Asked { rule, observed } => {
                entry.observed = Some(observed);
                (Decision::Confirm.into(), rule, EntryResult::Pending)
            }
            Happened::Declined { ask } => {
                entry.attempt = ask;
                entry.why = Some("the person said no".into());
                (
                    Decision::Refuse.into(),
                    Rule::Declined,
                    EntryResult::Refused,
                )
            }
            Happened::Attempt { rule, completes } => {
                entry.attempt = completes;
                (EntryDecision::Attempt, rule, EntryResult::Pending)
            }
            Happened::Done {
                rule,
                attempt,
                observed,
                failed,
            } => {
                entry.attempt = Some(attempt);
                entry.observed = observed;
                entry.why = failed.map(|refusal| refusal.why.clone());
                entry.failed = failed.map(|refusal| refusal.rule);
                let result = match failed {
                    None => EntryResult::Ok,
                    Some(_) => EntryResult::Error,
                };
                (Decision::Allow.into(), rule, result)
            }
            Happened::Allowed {
                rule,
                observed,
                read,
            } => {
                entry.observed = observed;
                entry.read = read;
                (Decision::Allow.into(), rule, EntryResult::Ok)
            }
            Happened::Failed {
                rule,
                observed,
                refusal,
            } => {
                entry.observed = observed;
                entry.why = Some(refusal.why.clone());
                entry.failed = Some(refusal.rule);
                (Decision::Allow.into(), rule, EntryResult::Error)
            }
        };
        entry.decision = decision;
        entry.rule = Some(rule);
        entry.result = result;
        entry
    }

    /// The JSONL line for this entry with its seq, newline included.
    pub fn line(&self) -> String {
        let mut line = serde_json::to_string(self).expect("entries always serialise");
        line.push('\n');
        line
    }

    /// This entry as the writer appends it: its seq, the hash of the line
    /// before it and the oldest entry still open after it.
    pub fn sealed(&self, seq: u64, prev: String, open: Option<u64>) -> Entry {
        Entry {
            seq,
            prev: Some(prev),
            open,
            ..self.clone()
        }
    }

    /// Whether this entry waits for a completion (an attempt or a tier-2 ask).
    pub fn is_pending(&self) -> bool {
        self.result == EntryResult::Pending
    }

    /// The first entry of a writer's next file: why it did not append to
    /// `left` (lines it did not write follow its last one, or the file is
    /// not the one it wrote).
    pub fn moved_on(context: Context, left: &str, why: &str) -> Entry {
        let refusal = Refusal::new(
            Rule::AuditTailUnanchored,
            alloc::format!(
                "{why}; the host does not build on lines it did not write and continues in this file. Check the log with `voicebox audit --verify`"
            ),
        );
        let act = ActRecord::new(
            ActKind::Write,
            &alloc::format!("{}/{left}", crate::contain::AUDIT_DIR),
        );
        Entry::new(context, act, Happened::Refused(&refusal))
    }

    /// The `lost` completion for an entry an earlier boot left pending: never a
    /// pretend success.
    pub fn lost_completion(&self, at: String) -> Entry {
        Entry {
            seq: 0,
            at,
            decision: EntryDecision::Lost,
            rule: None,
            result: EntryResult::Lost,
            observed: None,
            attempt: Some(self.seq),
            read: None,
            why: Some(
                "the host stopped before this act's outcome was recorded; check the file itself"
                    .into(),
            ),
            prev: None,
            open: None,
            ..self.clone()
        }
    }
}
