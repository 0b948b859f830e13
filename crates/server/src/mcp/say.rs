//! `say`: a person's own words as one MCP tool call, turned as the page and
//! `voicebox turn` turn them ([`Acts::turn`]: the same resolver, folder
//! names and "it"). A client that passes a person's sentence through (a
//! voice client, a chat that is not a model) gets the resolver's reading,
//! and a reading that is only a guess is put to the person as the page puts
//! it — "Did you mean: …?" — through elicitation ([`ask::settle`]), done
//! only on their yes.

use super::{TURN, ask, tools};
use crate::host::{Acted, Acts, Words};
use rmcp::model::{CallToolResult, ContentBlock, JsonObject, Tool, ToolAnnotations};
use rmcp::{Peer, RoleServer};
use serde_json::{Value, json};
use std::sync::Arc;
use voicebox_core::turn::{Outcome, TurnAnswer, TurnInput};
use voicebox_core::{Action, Refusal, Reply, Rule};

/// The tool's name: no verb of the command table has it.
pub const NAME: &str = "say";

/// The tool: one field, the words.
pub fn tool() -> Tool {
    let schema = json!({
        "type": "object",
        "properties": {"words": {
            "type": "string",
            "description": "What the person said or typed, as they said it: one request.",
        }},
        "required": ["words"],
        "additionalProperties": false,
    });
    let schema: JsonObject = match schema {
        Value::Object(schema) => schema,
        _ => unreachable!("a JSON object literal"),
    };
    let summary = "Do what a person asked in their own words (one sentence), as Voicebox's page \
                   does: the words are read by the resolver the person chose, a reading that is \
                   only a guess is asked of the person first (\"Did you mean: …?\"), and a \
                   sentence not understood is answered with why. Prefer the other tools when \
                   you already know the action.";
    // Words may ask for any act, a delete among them.
    let hints = ToolAnnotations::new().read_only(false).destructive(true);
    Tool::new(NAME, summary, Arc::new(schema)).with_annotations(hints)
}

/// One `say` call: the words turned, a question settled with the person,
/// and the turn's answer as the tool's result.
pub async fn call(
    acts: &Acts,
    words: &Words,
    arguments: JsonObject,
    peer: &Peer<RoleServer>,
) -> CallToolResult {
    let text = match said(arguments) {
        Ok(text) => text,
        Err(refusal) => {
            acts.count_refusal();
            let refused = Acted::from(Reply::refusal(refusal));
            return result(TurnAnswer::before_resolving(None, refused), None);
        }
    };
    let answer = acts.turn(words, TurnInput::Words(text), TURN.into()).await;
    let asked = answer
        .result
        .as_ref()
        .and_then(|r| r.reply().confirm.clone());
    let settled = match (&answer.result, asked) {
        (Some(first), Some(confirm)) => {
            Some(ask::settle(acts, peer, &confirm, first.reply()).await)
        }
        _ => None,
    };
    result(answer, settled)
}

/// The words of a call: exactly one string field, `words`, not blank.
fn said(mut arguments: JsonObject) -> Result<String, Refusal> {
    if let Some(field) = arguments.keys().find(|key| *key != "words") {
        let why = format!("say takes only `words`, not `{field}`");
        return Err(Refusal::new(Rule::UnknownField, why));
    }
    match arguments.remove("words") {
        Some(Value::String(text)) if !text.trim().is_empty() => Ok(text),
        Some(Value::String(_)) | None => Err(Refusal::new(
            Rule::MissingArgument,
            "say needs `words`: the person's request, e.g. \"add milk to groceries.md\"",
        )),
        Some(_) => Err(Refusal::new(
            Rule::MalformedField,
            "`words` must be a string: the person's request as they said it",
        )),
    }
}

/// The tool result of a turn: the act's line (its rule id first when
/// refused), or the note of words not understood (a tool error: nothing
/// was done); the turn's answer as structured content, as `POST /api/turn`
/// answers — with the question under `asked` and the person's answer as
/// `result` when one was put, as `voicebox turn --yes` answers.
fn result(answer: TurnAnswer<Acted>, settled: Option<Acted>) -> CallToolResult {
    let mut wire = json!(answer);
    let Some(first) = &answer.result else {
        let note = answer.note.clone().unwrap_or_default();
        let content = vec![
            ContentBlock::text(note),
            ContentBlock::text(wire.to_string()),
        ];
        let mut result = CallToolResult::error(content);
        result.structured_content = Some(wire);
        return result;
    };
    let done = match settled {
        Some(settled) => {
            wire["asked"] = wire["result"].take();
            let verb = Action::from_json(&answer.action).ok().map(|a| a.verb());
            wire["changes"] = json!(settled.changes(verb));
            wire["result"] = json!(settled);
            settled
        }
        None => first.clone(),
    };
    tools::answered(done.reply(), wire)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn arguments(value: Value) -> JsonObject {
        match value {
            Value::Object(map) => map,
            _ => unreachable!(),
        }
    }

    #[test]
    fn only_words_that_say_something_are_taken() {
        let taken = said(arguments(json!({"words": "read a.txt"})));
        assert_eq!(taken.unwrap(), "read a.txt");
        let rule = |value| said(arguments(value)).unwrap_err().rule;
        assert_eq!(rule(json!({})), Rule::MissingArgument);
        assert_eq!(rule(json!({"words": "  "})), Rule::MissingArgument);
        assert_eq!(rule(json!({"words": 3})), Rule::MalformedField);
        assert_eq!(
            rule(json!({"words": "read a.txt", "yes": true})),
            Rule::UnknownField
        );
    }

    #[test]
    fn the_tool_is_no_verb_of_the_command_table() {
        let verbs = voicebox_core::command::COMMANDS.iter().map(|c| c.verb);
        assert!(verbs.clone().all(|verb| verb != NAME));
        assert!(verbs.clone().any(|verb| verb == "read"), "the control");
    }
}
