//! The `/channel` wire format, strict both ways: the page may send only the
//! frames below with exactly their fields; anything else is refused by name
//! and the channel lives.

use crate::strict::{self, Misfit};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use voicebox_core::worker::Relayed;
use voicebox_core::{Refusal, Reply, Rule};

/// A frame to the page.
#[derive(Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum ToPage<'a> {
    /// One request for the page's worker (`{op: "execute", action}`, …).
    Act { id: u64, request: &'a Relayed },
    /// A frame of the page's that was refused; the channel lives.
    Error { refused: Rule, why: String },
    /// The server closes this channel (another page took over).
    End {
        reason: &'static str,
        why: &'static str,
    },
}

impl ToPage<'_> {
    pub fn text(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// A frame from the page.
#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase", deny_unknown_fields)]
pub(crate) enum FromPage {
    /// The worker's answer to act `id`, untouched.
    Result { id: u64, answer: Value },
    /// The worker itself failed on act `id` (not an answer of the core).
    Failed { id: u64, why: String },
}

/// A refused frame: the rule and what to send instead.
pub(crate) type Refused = (Rule, String);

/// Parses one text frame strictly ([`crate::strict`]): a `type` the channel
/// does not have is `unknown-frame`, a field a frame does not have is
/// `unknown-field`, anything else `malformed-frame`.
pub fn parse(text: &str) -> Result<FromPage, Refused> {
    strict::from_slice(text.as_bytes()).map_err(|misfit| {
        let rule = match misfit {
            Misfit::UnknownVariant(_) => Rule::UnknownFrame,
            Misfit::UnknownField(_) => Rule::UnknownField,
            Misfit::DuplicateKey(_) => Rule::DuplicateKey,
            Misfit::Malformed(_) => Rule::MalformedFrame,
        };
        (
            rule,
            format!(
                "send {{\"type\":\"result\",\"id\":N,\"answer\":…}} or {{\"type\":\"failed\",\"id\":N,\"why\":\"…\"}}: {misfit}"
            ),
        )
    })
}

/// The page worker's answer to a relayed act or confirmation: its turn's
/// `{result, changes}` (the turn's other fields are the worker's own), or
/// the reply to a request it refused before acting.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum ActAnswer {
    Turn {
        result: Value,
        #[serde(default)]
        changes: bool,
    },
    Reply(Value),
}

/// The page's reply, read as a [`Reply`], and as it came (it is passed on
/// untouched), and whether its act changed the project's files.
pub(crate) struct PageReply {
    pub reply: Reply,
    pub wire: Value,
    pub changes: bool,
}

impl PageReply {
    /// An answer that is no reply is `page-failed`.
    pub fn read(answer: Value) -> Result<PageReply, Refusal> {
        let no_reply = |e: serde_json::Error| {
            Refusal::new(
                Rule::PageFailed,
                format!(
                    "the page's worker answered something that is no reply ({e}); reload the page"
                ),
            )
        };
        let (wire, changes) = match serde_json::from_value(answer).map_err(no_reply)? {
            ActAnswer::Turn { result, changes } => (result, changes),
            ActAnswer::Reply(reply) => (reply, false),
        };
        let reply = Reply::deserialize(&wire).map_err(no_reply)?;
        Ok(PageReply {
            reply,
            wire,
            changes,
        })
    }
}

/// The page's files, answering `names` (anything else: none).
#[derive(Deserialize)]
pub(crate) struct Names {
    names: Vec<String>,
}

impl Names {
    pub fn read(answer: Value) -> Vec<String> {
        serde_json::from_value::<Names>(answer).map_or_else(|_| Vec::new(), |n| n.names)
    }
}

/// A page's answer that is a refusal (of a read of its audit log).
#[derive(Deserialize)]
pub(crate) struct PageRefused {
    refused: Rule,
}

impl PageRefused {
    /// Whether `answer` refuses, for a reason other than the person's No.
    pub fn read(answer: &Value) -> bool {
        PageRefused::deserialize(answer).is_ok_and(|r| r.refused != Rule::Declined)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_two_frames_with_exactly_their_fields() {
        assert!(matches!(
            parse(r#"{"type":"result","id":3,"answer":{"ok":true}}"#),
            Ok(FromPage::Result { id: 3, .. })
        ));
        assert!(matches!(
            parse(r#"{"type":"failed","id":4,"why":"worker stopped"}"#),
            Ok(FromPage::Failed { id: 4, .. })
        ));
        for (frame, rule) in [
            (
                r#"{"type":"result","id":3,"answer":1,"extra":0}"#,
                "unknown-field",
            ),
            (r#"{"type":"hello"}"#, "unknown-frame"),
            (r#"{"type":"result","answer":1}"#, "malformed-frame"),
            ("not json", "malformed-frame"),
        ] {
            assert_eq!(parse(frame).unwrap_err().0.id(), rule, "{frame}");
        }
    }
}
