//! OpenAI chat completions as the fake speaks them: its answers, errors and
//! refusals, and the request shape it accepts.

use super::fake::Seen;
use super::{MODEL, Spec, header, json_body, need};
use serde_json::{Value, json};

pub const OPENAI: Spec = Spec {
    resolver: "openai",
    provider: "openai",
    key_env: "OPENAI_API_KEY",
    base_env: "VOICEBOX_OPENAI_BASE_URL",
    model_env: "VOICEBOX_OPENAI_MODEL",
    base_suffix: "/v1",
    key_of: |headers| {
        header(headers, "authorization").and_then(|v| v.strip_prefix("Bearer ").map(String::from))
    },
    check: openai_shape,
    reply: |answer| openai_choice(json!(answer.to_string()), Value::Null, "stop"),
    reply_text: |text| openai_choice(json!(text), Value::Null, "stop"),
    error: |code, message| {
        let (kind, code_name) = match code {
            429 => ("tokens", "rate_limit_exceeded"),
            401 => ("invalid_request_error", "invalid_api_key"),
            _ => ("server_error", "server_error"),
        };
        json!({"error": {"message": message, "type": kind, "param": null, "code": code_name}})
    },
    statuses: &[500, 429, 503],
    blocked: || {
        vec![
            (
                openai_choice(
                    Value::Null,
                    json!("I'm sorry, I can't help with that."),
                    "stop",
                ),
                "refused: I'm sorry",
            ),
            (
                openai_choice(Value::Null, Value::Null, "content_filter"),
                "stopped with content_filter",
            ),
            (
                openai_choice(json!("{\"verb\": \"wri"), Value::Null, "length"),
                "stopped with length",
            ),
            (
                json!({"id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": MODEL, "choices": []}),
                "no choices",
            ),
            (openai_choice(json!(""), Value::Null, "stop"), "empty"),
        ]
    },
};

pub fn openai_choice(content: Value, refusal: Value, finish: &str) -> Value {
    json!({
        "id": "chatcmpl-B9MBs8CjcvOU2jLn4n570S5qMJKcT",
        "object": "chat.completion",
        "created": 1741569952,
        "model": MODEL,
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content, "refusal": refusal, "annotations": []}, "logprobs": null, "finish_reason": finish}],
        "usage": {"prompt_tokens": 62, "completion_tokens": 17, "total_tokens": 79},
    })
}

/// OpenAI chat completions: Bearer auth, `model`, `messages`, and a
/// `response_format` whose `json_schema` has a valid name.
pub fn openai_shape(seen: &Seen) -> Result<(), String> {
    json_body(seen)?;
    need(
        seen.path == "/v1/chat/completions",
        "the path is /v1/chat/completions",
    )?;
    need(
        header(&seen.headers, "authorization").is_some_and(|a| a.starts_with("Bearer ")),
        "Authorization: Bearer <key>",
    )?;
    let body = &seen.body;
    need(body["model"] == MODEL, "model is the configured model")?;
    let messages = body["messages"].as_array().ok_or("messages is an array")?;
    need(
        messages.first().is_some_and(|m| {
            m["role"] == "system"
                && m["content"]
                    .as_str()
                    .is_some_and(|t| t.contains("Voicebox"))
        }),
        "the first message is the system prompt",
    )?;
    need(
        messages
            .last()
            .is_some_and(|m| m["role"] == "user" && m["content"].is_string()),
        "the last message is the user's words",
    )?;
    let format = &body["response_format"];
    need(
        format["type"] == "json_schema",
        "response_format.type is json_schema",
    )?;
    let schema = &format["json_schema"];
    need(
        schema["name"].as_str().is_some_and(|n| {
            !n.is_empty()
                && n.len() <= 64
                && n.chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        }),
        "json_schema.name is a-zA-Z0-9_- (max 64)",
    )?;
    need(
        schema["schema"]["type"] == "object",
        "json_schema.schema is an object schema",
    )?;
    if schema["strict"] == true {
        need(
            schema["schema"]["additionalProperties"] == false,
            "strict mode needs additionalProperties: false",
        )?;
    }
    Ok(())
}
