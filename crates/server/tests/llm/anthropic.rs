//! Anthropic messages as the fake speaks them: its answers, errors and stops,
//! and the request shape it accepts.

use super::fake::Seen;
use super::{MODEL, Spec, header, json_body, need};
use serde_json::{Value, json};

pub const ANTHROPIC: Spec = Spec {
    resolver: "claude",
    provider: "anthropic",
    key_env: "ANTHROPIC_API_KEY",
    base_env: "VOICEBOX_ANTHROPIC_BASE_URL",
    model_env: "VOICEBOX_ANTHROPIC_MODEL",
    base_suffix: "",
    key_of: |headers| header(headers, "x-api-key"),
    check: anthropic_shape,
    reply: |answer| {
        anthropic_message(
            json!([{"type": "tool_use", "id": "toolu_01A09q90qw90lq917835lq9", "name": "voicebox_answer", "input": answer}]),
            "tool_use",
        )
    },
    reply_text: |text| anthropic_message(json!([{"type": "text", "text": text}]), "end_turn"),
    error: |code, message| {
        let kind = match code {
            429 => "rate_limit_error",
            529 => "overloaded_error",
            401 => "authentication_error",
            _ => "api_error",
        };
        json!({"type": "error", "error": {"type": kind, "message": message}, "request_id": "req_011CYv2f6aZdYoeR1acx8dKL"})
    },
    statuses: &[500, 429, 529],
    blocked: || {
        vec![
            (
                anthropic_message(json!([]), "refusal"),
                "stopped with refusal",
            ),
            (
                anthropic_message(
                    json!([{"type": "tool_use", "id": "toolu_1", "name": "voicebox_answer", "input": {}}]),
                    "max_tokens",
                ),
                "stopped with max_tokens",
            ),
            (anthropic_message(json!([]), "end_turn"), "empty"),
        ]
    },
};

pub fn anthropic_message(content: Value, stop: &str) -> Value {
    json!({
        "id": "msg_01Aq9w938a90dw8q",
        "type": "message",
        "role": "assistant",
        "model": MODEL,
        "content": content,
        "stop_reason": stop,
        "stop_sequence": null,
        "usage": {"input_tokens": 402, "output_tokens": 58},
    })
}

/// Anthropic messages: `x-api-key` and `anthropic-version`, `max_tokens`,
/// a top-level `system`, and one forced tool with an object input schema.
pub fn anthropic_shape(seen: &Seen) -> Result<(), String> {
    json_body(seen)?;
    need(seen.path == "/v1/messages", "the path is /v1/messages")?;
    need(
        header(&seen.headers, "x-api-key").is_some(),
        "x-api-key header is required",
    )?;
    need(
        header(&seen.headers, "anthropic-version").as_deref() == Some("2023-06-01"),
        "anthropic-version: header is required (2023-06-01)",
    )?;
    let body = &seen.body;
    need(body["model"] == MODEL, "model is the configured model")?;
    need(
        body["max_tokens"].as_u64().is_some_and(|n| n > 0),
        "max_tokens is required",
    )?;
    need(
        body["system"]
            .as_str()
            .is_some_and(|t| t.contains("Voicebox")),
        "system is the top-level prompt",
    )?;
    let messages = body["messages"].as_array().ok_or("messages is an array")?;
    need(
        messages.first().is_some_and(|m| m["role"] == "user")
            && messages
                .iter()
                .all(|m| m["role"] == "user" || m["role"] == "assistant"),
        "messages are user/assistant, the first a user's",
    )?;
    let tool = &body["tools"][0];
    need(
        tool["input_schema"]["type"] == "object",
        "input_schema.type must be object",
    )?;
    need(
        body["tool_choice"] == json!({"type": "tool", "name": tool["name"]}),
        "tool_choice forces the tool",
    )
}
