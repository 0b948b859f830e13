//! A tier-2 act put to the person through MCP elicitation.
//!
//! The executor has already asked (its `confirm` entry and a single-use
//! id); this module only carries the question to the person and their
//! answer back: accept is a yes, decline or cancel a no, each answered
//! through [`Acts::confirm`] and so audited like a click. A client that
//! cannot ask (it declared no form elicitation, or the request failed) gets
//! `confirmation-unavailable`, and the pending act is left to lapse: it is
//! never performed, and the audit does not claim the person said no.

use crate::host::{Acted, Acts};
use rmcp::model::{ElicitRequestParams, ElicitationAction, ElicitationSchema};
use rmcp::service::ElicitationMode;
use rmcp::{Peer, RoleServer};
use std::collections::BTreeMap;
use std::time::Duration;
use voicebox_core::confirm::CONFIRM_TTL_MS;
use voicebox_core::reply::ConfirmRequest;
use voicebox_core::{Refusal, Reply, Rule};

/// Settles the pending `confirm` of `reply` with the person, and returns
/// what their answer did (or the refusal that no one could be asked).
pub async fn settle(
    acts: &Acts,
    peer: &Peer<RoleServer>,
    confirm: &ConfirmRequest,
    reply: &Reply,
) -> Acted {
    if !peer
        .supported_elicitation_modes()
        .contains(&ElicitationMode::Form)
    {
        return unavailable(acts, reply, confirm, "this client declared no elicitation");
    }
    let question = ElicitRequestParams::FormElicitationParams {
        meta: None,
        message: message(confirm),
        // Nothing to fill in: the answer is the accept or decline itself.
        requested_schema: ElicitationSchema::new(BTreeMap::new()),
    };
    let ttl = Duration::from_millis(CONFIRM_TTL_MS);
    match peer
        .create_elicitation_with_timeout(question, Some(ttl))
        .await
    {
        Ok(answer) => {
            let yes = answer.action == ElicitationAction::Accept;
            acts.confirm(confirm.id.clone(), yes).await
        }
        Err(e) => unavailable(acts, reply, confirm, &format!("asking failed ({e})")),
    }
}

/// The question in the person's words: "Delete notes.md? You can bring it
/// back with undo. (delete notes.md (12 bytes); Accept: Delete, Decline:
/// Cancel)".
fn message(confirm: &ConfirmRequest) -> String {
    format!(
        "{} {} ({}; accept: {}, decline: {})",
        confirm.question, confirm.consequence, confirm.plan, confirm.yes, confirm.no
    )
}

/// `confirmation-unavailable`, naming the act that was not done.
fn unavailable(acts: &Acts, reply: &Reply, confirm: &ConfirmRequest, cause: &str) -> Acted {
    acts.count_refusal();
    let why = format!(
        "{} — that needs the person's yes, and {cause}, so nothing was done; use an MCP client \
         that supports elicitation, or ask the person to do it on Voicebox's page or with \
         `voicebox turn --yes`",
        confirm.plan
    );
    let refused = Reply::refusal(Refusal::new(Rule::ConfirmationUnavailable, why));
    Reply {
        file: reply.file.clone(),
        ..refused
    }
    .into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_guess_is_asked_in_the_same_words_the_page_shows() {
        let asked = |question: &str, plan: &str| ConfirmRequest {
            id: "c1".into(),
            rule: Rule::UnsureChange,
            why: "a guess is asked".into(),
            plan: plan.into(),
            expires_at: "2026-01-01T00:00:00.000Z".into(),
            question: question.into(),
            consequence: "Nothing changes until you say yes.".into(),
            yes: "Yes, do it".into(),
            no: "No".into(),
            expired: "Timed out.".into(),
            danger: false,
            rephrase: true,
            say: None,
        };
        let guess = asked(
            "Did you mean: add 'eggs' to todo.txt?",
            "I guessed: add 'eggs' to todo.txt",
        );
        assert!(message(&guess).starts_with("Did you mean: add 'eggs' to todo.txt? "));
        let delete = asked("Delete a.txt?", "delete a.txt (1 byte)");
        assert!(message(&delete).starts_with("Delete a.txt?"), "the control");
    }
}
