//! What an act answered, wherever it ran: always a [`Reply`], so a front end
//! reads its fields (`refused`, `confirm`, `tools`, ...), never JSON keys.

use serde::{Serialize, Serializer};
use serde_json::Value;
use voicebox_core::command::Verb;
use voicebox_core::turn::Outcome;
use voicebox_core::{Refusal, Reply, Rule};

/// An act's answer: the host's executor's, the page's core's, or the
/// refusal of a page that did not answer.
#[derive(Clone, Debug)]
pub enum Acted {
    Machine(Box<Reply>),
    /// The page's core reply, as read and as it came (it is sent on
    /// untouched but for `via: "page"`), and whether, as the page's core
    /// judged, the act changed the project's files.
    Page {
        reply: Box<Reply>,
        wire: Value,
        changes: bool,
    },
    /// The page that owns the root did not answer (no page, closed, timed
    /// out, failed): nothing was done here. Sent as `{ok:false, refused,
    /// why, via:"page"}`.
    Unanswered(Box<Reply>),
}

impl Acted {
    /// The page that owns the root did not answer, for `refusal`'s reason.
    pub(crate) fn unanswered(refusal: Refusal) -> Acted {
        Acted::Unanswered(Box::new(Reply::refusal(refusal)))
    }

    pub fn reply(&self) -> &Reply {
        match self {
            Acted::Machine(reply) | Acted::Page { reply, .. } | Acted::Unanswered(reply) => reply,
        }
    }

    pub(crate) fn into_reply(self) -> Reply {
        match self {
            Acted::Machine(reply) | Acted::Page { reply, .. } | Acted::Unanswered(reply) => *reply,
        }
    }

    /// Whether the answer is a refusal.
    pub fn refused(&self) -> bool {
        self.reply().refused.is_some()
    }

    /// Whether it is the person's own No to a question.
    pub fn declined(&self) -> bool {
        self.reply().refused == Some(Rule::Declined)
    }
}

/// A refusal the server made itself (a call that does not fit, a question
/// no one could be asked): the host's answer.
impl From<Reply> for Acted {
    fn from(reply: Reply) -> Acted {
        Acted::Machine(Box::new(reply))
    }
}

/// The refusal of a page that did not answer: no audit seq, since no
/// executor wrote one.
#[derive(Serialize)]
struct Unreached<'a> {
    ok: bool,
    refused: Option<Rule>,
    why: &'a Option<String>,
    via: &'static str,
}

impl Serialize for Acted {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Acted::Machine(reply) => reply.serialize(serializer),
            Acted::Page { wire, .. } => {
                let mut wire = wire.clone();
                if let Some(fields) = wire.as_object_mut() {
                    fields.insert("via".into(), "page".into());
                }
                wire.serialize(serializer)
            }
            Acted::Unanswered(reply) => Unreached {
                ok: false,
                refused: reply.refused,
                why: &reply.why,
                via: "page",
            }
            .serialize(serializer),
        }
    }
}

impl Outcome for Acted {
    fn changes(&self, verb: Option<Verb>) -> bool {
        match self {
            Acted::Machine(reply) => reply.changes(verb),
            Acted::Page { changes, .. } => *changes,
            Acted::Unanswered(_) => false,
        }
    }
}
