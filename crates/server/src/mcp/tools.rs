//! The command table as MCP tools, and a tool call as one act.
//!
//! The tools' names, descriptions and input schemas come from the core's
//! command table ([`COMMANDS`], [`Command::input_schema`]) — the same single
//! source as the LLM prompt and the live tool declarations — so no verb's
//! schema is written here. A call's name is its verb and its arguments its
//! fields; the executor validates them like any other action.

use super::{TURN, ask};
use crate::host::{Acted, Acts, call};
use rmcp::model::{
    CallToolRequestParams, CallToolResult, ContentBlock, JsonObject, Tool, ToolAnnotations,
};
use rmcp::{Peer, RoleServer};
use serde_json::{Value, json};
use std::sync::Arc;
use voicebox_core::command::{COMMANDS, Command, Verb};
use voicebox_core::reply::ToolState;
use voicebox_core::turn::Proposal;
use voicebox_core::{Action, Reply};

/// Whether `verb` is offered as a tool: `make-tool` is the older name of
/// `propose_extension` (one tool per act, not two), and `call_extension`
/// only once the person has admitted an extension to call.
fn is_offered(verb: Option<Verb>, admitted: bool) -> bool {
    match verb {
        Some(Verb::MakeTool) => false,
        Some(Verb::CallExtension) => admitted,
        _ => true,
    }
}

/// The tools this folder offers now.
pub async fn offered(acts: &Acts) -> Vec<Tool> {
    let admitted = any_admitted(acts).await;
    COMMANDS
        .iter()
        .filter(|command| is_offered(Some(command.id), admitted))
        .map(tool)
        .collect()
}

/// One verb as a tool: its wire name, its summary, its fields' schema,
/// whether it only looks (the table's act kind), so a client may call a
/// look without asking its person and knows which calls change files, and
/// whether a change may replace or remove what is there (destructive) or
/// only adds.
fn tool(command: &Command) -> Tool {
    let schema = match command.input_schema() {
        Value::Object(schema) => schema,
        _ => JsonObject::new(),
    };
    let changes = command.id.changes_files();
    let mut hints = ToolAnnotations::new().read_only(!changes);
    if changes {
        hints = hints.destructive(command.id.destroys());
    }
    Tool::new(command.verb, command.summary, Arc::new(schema)).with_annotations(hints)
}

/// Whether any extension stands admitted, as `list_extensions` says.
async fn any_admitted(acts: &Acts) -> bool {
    let listing = Proposal::Resolved(Action::ListExtensions);
    let acted = acts.act(listing, TURN.into()).await;
    let tools = acted.reply().tools.iter().flatten();
    tools
        .into_iter()
        .any(|tool| tool.state == ToolState::Admitted)
}

/// One call: acted on, a tier-2 question settled with the person, and the
/// reply as the tool's result.
pub async fn call(
    acts: &Acts,
    request: CallToolRequestParams,
    peer: &Peer<RoleServer>,
) -> CallToolResult {
    let arguments = Value::Object(request.arguments.unwrap_or_default());
    let proposal = match call::proposal(&request.name, arguments) {
        Ok(proposal) => proposal,
        Err(refusal) => {
            acts.count_refusal();
            return result(&Reply::refusal(refusal).into());
        }
    };
    let acted = acts.act(proposal, TURN.into()).await;
    let acted = match acted.reply().confirm.clone() {
        Some(confirm) => ask::settle(acts, peer, &confirm, acted.reply()).await,
        None => acted,
    };
    result(&acted)
}

/// The reply as a tool result: structured content, then one line (the act
/// done, or the rule id and why for a refusal, which is a tool error), then
/// the reply as JSON text for clients that show a model only text.
pub fn result(acted: &Acted) -> CallToolResult {
    answered(acted.reply(), json!(acted))
}

/// [`result`] for `reply`, with `wire` as what the client reads whole.
pub fn answered(reply: &Reply, wire: Value) -> CallToolResult {
    let line = match reply.refused {
        Some(rule) => format!("{rule}: {}", reply.why.as_deref().unwrap_or_default()),
        None => reply.action.as_deref().unwrap_or("done").to_string(),
    };
    let content = vec![
        ContentBlock::text(line),
        ContentBlock::text(wire.to_string()),
    ];
    let mut result = match reply.refused {
        Some(_) => CallToolResult::error(content),
        None => CallToolResult::success(content),
    };
    result.structured_content = Some(wire);
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use voicebox_core::{Refusal, Rule};

    #[test]
    fn a_refusal_is_a_tool_error_whose_text_starts_with_its_rule() {
        let refused = Reply::refusal(Refusal::new(Rule::OutsideRoot, "stay inside"));
        let refused = result(&refused.into());
        assert_eq!(refused.is_error, Some(true));
        let text = refused.content[0].as_text().unwrap().text.clone();
        assert_eq!(text, "outside-root: stay inside");
        let done = result(&Reply::done("wrote a.txt (2 bytes)".into()).into());
        assert_eq!(done.is_error, Some(false));
        assert_eq!(
            done.content[0].as_text().unwrap().text,
            "wrote a.txt (2 bytes)"
        );
        assert_eq!(done.structured_content.unwrap()["ok"], true);
    }

    #[test]
    fn every_verb_but_the_alias_is_offered_and_call_extension_once_admitted() {
        assert!(!is_offered(Some(Verb::MakeTool), true));
        assert!(!is_offered(Some(Verb::CallExtension), false));
        assert!(is_offered(Some(Verb::CallExtension), true));
        assert!(is_offered(Some(Verb::Delete), false));
    }
}
