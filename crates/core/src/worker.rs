//! What a browser worker is asked to do, as types: the page's own requests
//! ([`WorkerRequest`]) and the subset a server may relay to the page that
//! owns the active root ([`Relayed`]), so "which operations can cross the
//! channel" is a type, not a string match on either side.
//!
//! On the wire each is an object tagged by `op` (`{"op": "execute", ...}`);
//! fields a request does not use (the worker adds `now` and `seed`) are
//! ignored.

use crate::rule::{Refusal, Rule};
use alloc::format;
use alloc::string::String;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A turn for the worker's executor: `{transcript}` or `{action}` (see
/// [`crate::turn::TurnInput::new`]) and the turn id its audit entries carry.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Execute {
    pub transcript: Option<String>,
    pub action: Option<Value>,
    pub turn: Option<String>,
}

/// The person's answer to a pending confirmation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Answer {
    pub id: String,
    pub approved: bool,
    /// The words of an answer said by voice: judged against the question's
    /// challenge ([`crate::confirm::spoken`]), and `approved` is not read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spoken: Option<String>,
}

/// One page of the audit log (see [`crate::audit::page::PageRequest`]).
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AuditPage {
    pub cursor: Option<String>,
    pub limit: Option<usize>,
}

/// Opening (or creating) a project in the browser. `project` is the page's
/// description of the root (`{name, kind: "opfs" | "handle", id?, label?}`),
/// judged by the browser placement, which alone knows its kinds of root.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Open {
    pub project: Value,
    #[serde(default)]
    pub instance: Option<String>,
    /// Whether the origin's storage is persistent (the worker asks the browser).
    #[serde(default)]
    pub persisted: bool,
    /// The placement label the project's id is made with (default `browser`).
    #[serde(default)]
    pub label: Option<String>,
    /// The creation time the worker's registry kept: an open is not a creation.
    #[serde(default, rename = "createdAt")]
    pub created_at: Option<String>,
}

/// Every request a browser worker's core answers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "camelCase")]
pub enum WorkerRequest {
    Open(Open),
    Resolve {
        text: String,
    },
    Execute(Execute),
    Confirm(Answer),
    Audit(AuditPage),
    VerifyAudit,
    /// The open project's files (bounded, as `{names}`), for a resolver
    /// that runs elsewhere to settle spoken names against.
    Names,
}

/// The requests a server relays to the page that owns the active root.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "op", rename_all = "camelCase")]
pub enum Relayed {
    Execute(Execute),
    Confirm(Answer),
    Audit(AuditPage),
    VerifyAudit,
    Names,
}

impl From<Relayed> for WorkerRequest {
    fn from(relayed: Relayed) -> WorkerRequest {
        match relayed {
            Relayed::Execute(execute) => WorkerRequest::Execute(execute),
            Relayed::Confirm(answer) => WorkerRequest::Confirm(answer),
            Relayed::Audit(page) => WorkerRequest::Audit(page),
            Relayed::VerifyAudit => WorkerRequest::VerifyAudit,
            Relayed::Names => WorkerRequest::Names,
        }
    }
}

/// The `op`s a worker knows, for the refusal of one it does not.
const OPS: [&str; 7] = [
    "open", "resolve", "execute", "confirm", "audit", "verifyAudit", "names",
];

impl WorkerRequest {
    /// Parses a request, refusing by name: an `op` the worker does not know
    /// is `unknown-verb`, a missing field `missing-argument`, any other
    /// misfit `malformed-field`.
    pub fn from_json(value: Value) -> Result<WorkerRequest, Refusal> {
        let op = value.get("op").and_then(Value::as_str).map(String::from);
        serde_json::from_value(value).map_err(|e| {
            let why = format!("{e}");
            let known = OPS.join(", ");
            match op {
                Some(op) if !OPS.contains(&op.as_str()) => Refusal::new(
                    Rule::UnknownVerb,
                    format!("the worker knows no request {op:?}; use {known}"),
                ),
                None => Refusal::new(
                    Rule::UnknownVerb,
                    format!("a worker request names its `op`: {known}"),
                ),
                Some(op) if why.starts_with("missing field") => Refusal::new(
                    Rule::MissingArgument,
                    format!("the `{op}` request is missing a field: {why}"),
                ),
                Some(op) => Refusal::new(
                    Rule::MalformedField,
                    format!("the `{op}` request does not fit: {why}"),
                ),
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_relayed_request_reads_back_as_the_same_worker_request() {
        let relayed = [
            Relayed::Execute(Execute {
                action: Some(json!({"verb": "list"})),
                turn: Some("http-1".into()),
                ..Execute::default()
            }),
            Relayed::Confirm(Answer {
                id: "c1".into(),
                approved: true,
                spoken: None,
            }),
            Relayed::Confirm(Answer {
                id: "c2".into(),
                approved: false,
                spoken: Some("delete groceries".into()),
            }),
            Relayed::Audit(AuditPage {
                cursor: Some("x".into()),
                limit: Some(5),
            }),
            Relayed::VerifyAudit,
        ];
        for request in relayed {
            let wire = serde_json::to_value(&request).unwrap();
            let read = WorkerRequest::from_json(wire).unwrap();
            assert_eq!(read, WorkerRequest::from(request));
        }
    }

    #[test]
    fn requests_that_do_not_fit_are_refused_by_name() {
        let cases = [
            (json!({"op": "launch"}), Rule::UnknownVerb),
            (json!({"op": ""}), Rule::UnknownVerb),
            (json!({"text": "hi"}), Rule::UnknownVerb),
            (json!({"op": "confirm", "id": "c1"}), Rule::MissingArgument),
            (
                json!({"op": "confirm", "id": "c1", "approved": "yes"}),
                Rule::MalformedField,
            ),
            (json!({"op": "audit", "limit": -1}), Rule::MalformedField),
        ];
        for (wire, rule) in cases {
            let refusal = WorkerRequest::from_json(wire.clone()).unwrap_err();
            assert_eq!(refusal.rule, rule, "{wire}: {}", refusal.why);
        }
        // The accepted siblings, with the fields the worker adds.
        let fine = json!({"op": "confirm", "id": "c1", "approved": false, "now": 1, "seed": "ab"});
        assert!(WorkerRequest::from_json(fine).is_ok());
        assert_eq!(
            WorkerRequest::from_json(json!({"op": "verifyAudit"})),
            Ok(WorkerRequest::VerifyAudit)
        );
    }
}
