//! Extension verbs: `make-tool` / `propose_extension` store a descriptor as
//! pending data (nothing loads), and `call_extension` runs a tool of an
//! admitted extension through the same verbs as everything else, within the
//! bounds a person admitted. The acts an extension performs carry the turn
//! `ext:<id>.<tool>`, so the audit says who asked.

use super::Executor;
use crate::audit::{ActRecord, Happened};
use crate::extension::{self, Bounds, Descriptor, Primitive};
use crate::platform::{Abilities, Egress, Env, ExtensionLedger, Fetched, Storage, ToolRunner};
use crate::reply::Reply;
use crate::rule::{Refusal, Rule};
use crate::tier::{Act, ActKind, Decision, PersonAct};
use crate::time::iso8601;
use alloc::boxed::Box;
use alloc::format;
use alloc::string::String;
use serde_json::Value;

/// Redirect hops `http-get` follows, each checked like the first.
pub const MAX_REDIRECTS: usize = 5;
/// The most of a response body kept in an answer.
pub const MAX_BODY_BYTES: usize = 1 << 20;

impl<S: Storage, E: Env, A: Abilities> Executor<S, E, A> {
    pub(super) async fn propose(&self, value: &Value, turn: Option<&str>) -> Reply {
        let id = value.get("id").and_then(Value::as_str).unwrap_or("");
        let record = ActRecord::new(ActKind::Write, &format!("extension:{id}"));
        let descriptor = match Descriptor::from_json(value) {
            Ok(descriptor) => descriptor,
            Err(refusal) => return self.refuse(refusal, record, turn).await,
        };
        let problems = extension::judge(&descriptor, self.abilities.egress().reach());
        if let Err(refusal) = self
            .abilities
            .ledger()
            .propose(&descriptor, &problems)
            .await
        {
            return self.refuse(refusal, record, turn).await;
        }
        if let Some(first) = problems.first() {
            let all: alloc::vec::Vec<String> = extension::problems_text(&problems);
            let refusal = Refusal::new(
                first.rule,
                format!("the gate refused extension `{id}`: {}", all.join("; ")),
            );
            return self.refuse(refusal, record, turn).await;
        }
        let stored = Happened::Allowed {
            rule: Rule::ProposalPending,
            observed: None,
            read: None,
        };
        let seq = self.log(self.entry(record, turn, stored)).await;
        let reply = Reply::done(format!(
            "proposed extension `{id}`: stored as pending data, nothing loaded; only the person at the host can admit it"
        ));
        self.answer(reply, seq)
    }

    /// The acts of an extension call are recorded under the turn
    /// `ext:<id>.<tool>` rather than the caller's turn, so the log says which
    /// extension asked.
    pub(super) async fn call_extension(
        &mut self,
        id: &str,
        tool: &str,
        args: Option<&Value>,
    ) -> Reply {
        let label = format!("ext:{id}.{tool}");
        let turn = Some(label.as_str());
        let record = ActRecord::new(ActKind::Read, "").with_tool(&label);
        let descriptor = match self.abilities.ledger().admitted(id).await {
            Ok(descriptor) => descriptor,
            Err(refusal) => return self.refuse(refusal, record, turn).await,
        };
        let Some(decl) = descriptor.tool(tool) else {
            let refusal = Refusal::new(
                Rule::ToolUnavailable,
                format!("extension `{id}` has no tool `{tool}`"),
            );
            return self.refuse(refusal, record, turn).await;
        };
        let text = |field: &str| {
            args.and_then(|a| a.get(field))
                .and_then(Value::as_str)
                .map(String::from)
        };
        let need = |field: &str| {
            text(field).ok_or_else(|| {
                Refusal::new(
                    Rule::MissingArgument,
                    format!("`{tool}` needs `args.{field}` (a string)"),
                )
            })
        };
        match decl.primitive {
            Primitive::Now => {
                let mut reply = Reply::done(format!("{label}: the time"));
                reply.output = Some(iso8601(self.env.now_ms()));
                reply
            }
            Primitive::ReadFile => match need("name") {
                Ok(name) => self.read(&name, None, None, None, turn).await,
                Err(refusal) => self.refuse(refusal, record, turn).await,
            },
            Primitive::ListFiles => self.list(text("dir").as_deref(), turn).await,
            Primitive::WriteFile => match (need("name"), need("content")) {
                (Ok(name), Ok(content)) => match descriptor.bounds.max_bytes {
                    Some(max) if content.len() as u64 > max => {
                        let refusal = Refusal::new(
                            Rule::OverBudget,
                            format!(
                                "`{tool}` may write at most {max} bytes (its admitted bound); this was {}",
                                content.len()
                            ),
                        );
                        self.refuse(
                            refusal,
                            ActRecord::new(ActKind::Write, &name).with_tool(&label),
                            turn,
                        )
                        .await
                    }
                    _ => self.write(&name, &content, None, None, turn).await,
                },
                (Err(refusal), _) | (_, Err(refusal)) => self.refuse(refusal, record, turn).await,
            },
            Primitive::HttpGet => match need("url") {
                Ok(url) => self.http_get(id, &descriptor, &url, &label).await,
                Err(refusal) => self.refuse(refusal, record, turn).await,
            },
            Primitive::Wasm => {
                let digest = decl.digest.clone().unwrap_or_default();
                let input = text("input").unwrap_or_default();
                match self
                    .abilities
                    .tools()
                    .run_pinned(&digest, input.as_bytes())
                    .await
                {
                    Ok(run) => {
                        let mut reply = Reply::done(format!("ran {label}"));
                        reply.output = Some(String::from_utf8_lossy(&run.output).into_owned());
                        reply.notes = Some(run.notes);
                        let ran = Happened::Allowed {
                            rule: self.inside_rule(ActKind::Read),
                            observed: None,
                            read: None,
                        };
                        let seq = self.log(self.entry(record, turn, ran)).await;
                        self.answer(reply, seq)
                    }
                    Err(fault) => self.tool_failed(record, fault, turn).await,
                }
            }
        }
    }

    /// GET within the admitted bounds: every hop's host is checked and every
    /// request counted before it is made. One entry records the outcome.
    /// The fetch itself is made here, or handed to the caller of
    /// [`Executor::start`].
    async fn http_get(
        &mut self,
        id: &str,
        descriptor: &Descriptor,
        url: &str,
        label: &str,
    ) -> Reply {
        let first = Fetch {
            id: id.into(),
            bounds: descriptor.bounds.clone(),
            asked: url.into(),
            url: url.into(),
            label: label.into(),
            hop: 0,
            rule: Rule::AdmittedEgress,
        };
        let mut step = self.hop(first).await;
        loop {
            match step {
                Step::Done(reply) => return *reply,
                Step::Fetch(fetch) if matches!(self.fetching, Fetching::Deferred(_)) => {
                    self.fetching = Fetching::Deferred(Some(fetch));
                    return Reply::done("the fetch is the caller's to make".into());
                }
                Step::Fetch(fetch) => {
                    let got = self.abilities.egress().fetch(&fetch.url).await;
                    step = self.fetched(fetch, got).await;
                }
            }
        }
    }

    /// Judges and counts one hop: its URL against the bounds, the tier
    /// table, the request budget. A refusal is recorded and answered.
    async fn hop(&self, mut fetch: Fetch) -> Step {
        let turn = Some(fetch.label.as_str());
        if fetch.hop > MAX_REDIRECTS {
            let refusal = Refusal::new(
                Rule::TooManyRedirects,
                format!(
                    "{} redirected more than {MAX_REDIRECTS} times, so nothing was fetched; ask for the final address directly",
                    fetch.asked
                ),
            );
            let record = ActRecord::new(ActKind::Network, &fetch.asked).with_tool(&fetch.label);
            return Step::done(self.refuse(refusal, record, turn).await);
        }
        let record = ActRecord::new(ActKind::Network, &fetch.url).with_tool(&fetch.label);
        let reach = self.abilities.egress().reach();
        if let Err(refusal) = extension::check_url(&fetch.url, &fetch.bounds, reach) {
            return Step::done(self.refuse(refusal, record, turn).await);
        }
        let verdict = self.table.decide(&Act::bounded_egress());
        if verdict.decision != Decision::Allow {
            let refusal = Refusal::new(verdict.rule, verdict.why);
            return Step::done(self.refuse(refusal, record, turn).await);
        }
        let used = self.abilities.ledger().requests_used(&fetch.id).await;
        if let Err(refusal) = extension::check_budget(used, &fetch.bounds) {
            return Step::done(self.refuse(refusal, record, turn).await);
        }
        if let Err(refusal) = self.abilities.ledger().count_request(&fetch.id).await {
            return Step::done(self.refuse(refusal, record, turn).await);
        }
        fetch.rule = verdict.rule;
        Step::Fetch(fetch)
    }

    /// Takes back what the fetch of `fetch` got: a redirect is the next hop
    /// (judged like the first), anything else the act's outcome, recorded.
    pub async fn fetched(&self, mut fetch: Fetch, got: Result<Fetched, Refusal>) -> Step {
        if let Err(refusal) = self.root_ready().await {
            return Step::done(Reply::refusal(refusal));
        }
        let turn = Some(fetch.label.as_str());
        let record = ActRecord::new(ActKind::Network, &fetch.url).with_tool(&fetch.label);
        let fetched = match got {
            Ok(fetched) => fetched,
            Err(refusal) => return Step::done(self.tool_failed(record, refusal, turn).await),
        };
        if let Some(next) = fetched
            .location
            .filter(|_| (300..400).contains(&fetched.status))
        {
            fetch.url = absolute(&fetch.url, &next);
            fetch.hop += 1;
            return self.hop(fetch).await;
        }
        let fetched_ok = Happened::Allowed {
            rule: fetch.rule,
            observed: None,
            read: None,
        };
        let seq = self.log(self.entry(record, turn, fetched_ok)).await;
        let body = &fetched.body[..fetched.body.len().min(MAX_BODY_BYTES)];
        let mut reply = Reply::done(format!("fetched {} ({})", fetch.url, fetched.status));
        reply.output = Some(String::from_utf8_lossy(body).into_owned());
        Step::done(self.answer(reply, seq))
    }
}

/// An `http-get` hop the executor has judged and counted, whose fetch is
/// the caller's to make ([`Executor::start`]): a host that serialises its
/// acts need not hold them while the network answers. What the fetch got
/// goes back through [`Executor::fetched`].
#[derive(Debug)]
pub struct Fetch {
    id: String,
    bounds: Bounds,
    /// The URL the extension asked for.
    asked: String,
    /// This hop's URL.
    url: String,
    label: String,
    hop: usize,
    /// The tier table's rule that allowed it.
    rule: Rule,
}

impl Fetch {
    /// The URL to GET, redirects not followed.
    pub fn url(&self) -> &str {
        &self.url
    }
}

/// Where an act stands: answered, or waiting on one fetch.
#[derive(Debug)]
pub enum Step {
    Done(Box<Reply>),
    Fetch(Fetch),
}

impl Step {
    fn done(reply: Reply) -> Step {
        Step::Done(Box::new(reply))
    }
}

/// How `http-get` fetches: at once, or by handing the hop to the caller
/// (the slot holds it until [`Executor::start`] returns it).
#[derive(Debug, Default)]
pub(super) enum Fetching {
    #[default]
    Inline,
    Deferred(Option<Fetch>),
}

impl<S: Storage, E: Env, A: Abilities> Executor<S, E, A> {
    /// Records a person's decision (an extension's admission or revocation,
    /// or the folder they chose, `id` naming it) around `act`, under the tier
    /// table's rule for it (`admitted-by-person`, `revoked-by-person`,
    /// `declared-by-person`): the attempt entry first — if it
    /// cannot be written, `act` does not run — then the outcome.
    pub async fn record_person_act(
        &self,
        id: &str,
        person: PersonAct,
        how: &str,
        act: impl FnOnce() -> Result<(), Refusal>,
    ) -> Reply {
        if let Err(refusal) = self.root_ready().await {
            return Reply::refusal(refusal);
        }
        let record = match person {
            PersonAct::Declare => ActRecord::new(ActKind::Declare, "."),
            PersonAct::Admit | PersonAct::Revoke | PersonAct::Withdraw => {
                ActRecord::new(ActKind::Import, &format!("extension:{id}"))
            }
        }
        .with_tool(how);
        let verdict = self.table.decide(&Act::by_person(person));
        if verdict.decision != Decision::Allow {
            let refusal = Refusal::new(verdict.rule, verdict.why);
            return self.refuse(refusal, record, None).await;
        }
        let rule = verdict.rule;
        let attempt = match self.begin(record.clone(), rule, None, None).await {
            Ok(seq) => seq,
            Err(reply) => return reply,
        };
        let outcome = act();
        let entry = self.closing_entry(record, rule, attempt, outcome.as_ref().err());
        let reply = match outcome {
            Ok(()) => Reply::done(match person {
                PersonAct::Admit => format!("admitted extension `{id}` ({how})"),
                PersonAct::Revoke => format!("revoked extension `{id}` ({how})"),
                PersonAct::Withdraw => format!("removed the proposal `{id}` ({how})"),
                PersonAct::Declare => format!("working in {id} ({how})"),
            })
            .said(match person {
                PersonAct::Admit => format!("Admitted the extension {id}."),
                PersonAct::Revoke => format!("Revoked the extension {id}."),
                PersonAct::Withdraw => format!("Removed the proposal {id}."),
                PersonAct::Declare => format!("Working in {id}."),
            }),
            Err(refusal) => Reply::refusal(refusal),
        };
        let seq = self.log(entry).await;
        self.answer(reply, seq)
    }
}

/// A redirect target made absolute against the URL that sent it.
/// A location with a scheme of its own (`file:`, `gopher:`, ...) stays as it
/// is, so the next hop's check refuses it by what it is.
fn absolute(base: &str, location: &str) -> String {
    if has_scheme(location) {
        return location.into();
    }
    let scheme_end = base.find("://").map_or(0, |i| i + 3);
    if location.starts_with("//") {
        return format!("{}{location}", &base[..scheme_end - 2]);
    }
    let origin_end = base[scheme_end..]
        .find('/')
        .map_or(base.len(), |i| scheme_end + i);
    if location.starts_with('/') {
        format!("{}{location}", &base[..origin_end])
    } else {
        let dir_end = base
            .rfind('/')
            .filter(|&i| i >= origin_end)
            .map_or(origin_end, |i| i);
        format!("{}/{location}", &base[..dir_end])
    }
}

/// RFC 3986: `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"` opens the reference.
fn has_scheme(reference: &str) -> bool {
    reference.split_once(':').is_some_and(|(scheme, _)| {
        scheme.starts_with(|c: char| c.is_ascii_alphabetic())
            && scheme
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
    })
}

#[cfg(test)]
mod tests {
    use super::absolute;

    #[test]
    fn a_redirect_keeps_its_own_scheme_and_a_path_stays_on_the_host() {
        let base = "http://127.0.0.1:9/a/b";
        assert_eq!(absolute(base, "file:///etc/passwd"), "file:///etc/passwd");
        assert_eq!(absolute(base, "HTTPS://x.example/"), "HTTPS://x.example/");
        assert_eq!(absolute(base, "//x.example/p"), "http://x.example/p");
        // Controls: paths resolve against the base.
        assert_eq!(absolute(base, "/ok"), "http://127.0.0.1:9/ok");
        assert_eq!(absolute(base, "c"), "http://127.0.0.1:9/a/c");
        assert_eq!(absolute(base, "c:d/e"), "c:d/e");
        assert_eq!(absolute(base, "./c:d"), "http://127.0.0.1:9/a/./c:d");
    }
}
