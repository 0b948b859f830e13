//! Anthropic `POST /v1/messages`: structured output as one forced tool call
//! whose input schema is the core's; the answer is the `tool_use` block's
//! input. A JSON `text` block (the shape `output_config.format` is reported
//! to give, unconfirmed) is read too.

use super::{Failure, Question, Vendor, finished, model_json, parse_body};
use crate::provider::Provider;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use voicebox_core::prompt;

pub const ANTHROPIC: Vendor = Vendor {
    label: "Claude",
    provider: Provider::Anthropic,
    base_url_env: "VOICEBOX_ANTHROPIC_BASE_URL",
    default_base_url: "https://api.anthropic.com",
    model: &crate::models::ANTHROPIC_RESOLVER,
    request,
    answer,
};

const VERSION: &str = "2023-06-01";
/// The one tool the model is made to call.
const TOOL: &str = "voicebox_answer";
/// Room for a write's content; the API requires a cap.
const MAX_TOKENS: u32 = 4096;

#[derive(Serialize)]
struct Request<'a> {
    model: &'a str,
    max_tokens: u32,
    system: String,
    messages: [Message<'a>; 1],
    tools: [Tool; 1],
    tool_choice: ToolChoice,
}

#[derive(Serialize)]
struct Message<'a> {
    role: &'static str,
    content: &'a str,
}

#[derive(Serialize)]
struct Tool {
    name: &'static str,
    description: &'static str,
    input_schema: Value,
}

#[derive(Serialize)]
struct ToolChoice {
    r#type: &'static str,
    name: &'static str,
}

fn request(client: &reqwest::Client, call: &Question<'_>) -> reqwest::RequestBuilder {
    let body = Request {
        model: call.model,
        max_tokens: MAX_TOKENS,
        system: call.system.to_string(),
        messages: [Message {
            role: "user",
            content: call.text,
        }],
        tools: [Tool {
            name: TOOL,
            description: "Give the one Voicebox action the sentence asks for, or {\"unresolved\": why}.",
            input_schema: prompt::answer_schema(),
        }],
        tool_choice: ToolChoice {
            r#type: "tool",
            name: TOOL,
        },
    };
    client
        .post(format!("{}/v1/messages", call.base))
        .header("x-api-key", call.key)
        .header("anthropic-version", VERSION)
        .json(&body)
}

#[derive(Deserialize)]
struct Response {
    #[serde(default)]
    content: Vec<Block>,
    stop_reason: Option<String>,
}

#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Block {
    ToolUse {
        input: Value,
    },
    Text {
        text: String,
    },
    #[serde(other)]
    Other,
}

/// The `tool_use` block's input (found by type, not position), else the
/// text blocks read as JSON; a refusal or a cut-short answer is no answer.
fn answer(body: &[u8]) -> Result<Value, Failure> {
    let response: Response = parse_body(body)?;
    finished(
        response.stop_reason.as_deref(),
        &["tool_use", "end_turn"],
        None,
    )?;
    let mut text = String::new();
    for block in response.content {
        match block {
            Block::ToolUse { input } => return Ok(input),
            Block::Text { text: words } => text.push_str(&words),
            Block::Other => {}
        }
    }
    model_json(&text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_request_has_anthropic_shape() {
        let (request, body) = crate::llm::sample_request(request, "http://fake");
        assert_eq!(request.url().as_str(), "http://fake/v1/messages");
        assert_eq!(request.headers()["x-api-key"], "k");
        assert_eq!(request.headers()["anthropic-version"], VERSION);
        assert_eq!(body["max_tokens"], MAX_TOKENS);
        assert!(body["system"].as_str().unwrap().contains("Voicebox"));
        assert_eq!(
            body["messages"],
            json!([{"role": "user", "content": "list files"}])
        );
        assert_eq!(body["tools"][0]["input_schema"], prompt::answer_schema());
        assert_eq!(body["tool_choice"], json!({"type": "tool", "name": TOOL}));
    }

    #[test]
    fn the_tool_input_or_json_text_is_the_answer() {
        let tool = json!({"content": [{"type": "text", "text": "ok"}, {"type": "tool_use", "id": "toolu_1", "name": TOOL, "input": {"verb": "undo"}}], "stop_reason": "tool_use"});
        assert_eq!(
            answer(tool.to_string().as_bytes()).unwrap(),
            json!({"verb": "undo"})
        );
        let text = json!({"content": [{"type": "text", "text": "{\"verb\":\"undo\"}"}], "stop_reason": "end_turn"});
        assert_eq!(
            answer(text.to_string().as_bytes()).unwrap(),
            json!({"verb": "undo"})
        );
        let refused = json!({"content": [], "stop_reason": "refusal"});
        assert_eq!(
            answer(refused.to_string().as_bytes()),
            Err(Failure::NoAnswer("it stopped with refusal".into()))
        );
    }
}
