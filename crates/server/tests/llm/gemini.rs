//! Gemini v1beta `generateContent` as the fake speaks it: its answers, errors and
//! blocks, and the request shape it accepts.

use super::fake::Seen;
use super::{MODEL, Spec, header, json_body, need};
use serde_json::{Value, json};

pub const GEMINI: Spec = Spec {
    resolver: "gemini",
    provider: "gemini",
    key_env: "GEMINI_API_KEY",
    base_env: "VOICEBOX_GEMINI_BASE_URL",
    model_env: "VOICEBOX_GEMINI_MODEL",
    base_suffix: "",
    key_of: |headers| header(headers, "x-goog-api-key"),
    check: gemini_shape,
    reply: |answer| gemini_text(&answer.to_string()),
    reply_text: gemini_text,
    error: |code, message| {
        let status = match code {
            429 => "RESOURCE_EXHAUSTED",
            503 => "UNAVAILABLE",
            400 => "INVALID_ARGUMENT",
            _ => "INTERNAL",
        };
        json!({"error": {"code": code, "message": message, "status": status}})
    },
    statuses: &[500, 429, 503],
    blocked: || {
        vec![
            (
                json!({"promptFeedback": {"blockReason": "SAFETY"}, "usageMetadata": {"promptTokenCount": 9, "totalTokenCount": 9}, "modelVersion": MODEL}),
                "blocked (SAFETY)",
            ),
            (
                json!({"candidates": [{"finishReason": "SAFETY", "index": 0}], "modelVersion": MODEL}),
                "stopped with SAFETY",
            ),
            (
                json!({"candidates": [{"content": {"role": "model", "parts": [{"text": "{\"verb\": \"wri"}]}, "finishReason": "MAX_TOKENS"}]}),
                "stopped with MAX_TOKENS",
            ),
            (json!({"candidates": []}), "no candidates"),
            (
                json!({"candidates": [{"content": {"role": "model", "parts": []}, "finishReason": "STOP"}]}),
                "empty",
            ),
        ]
    },
};

pub fn gemini_text(text: &str) -> Value {
    json!({
        "candidates": [{"content": {"role": "model", "parts": [{"text": text}]}, "finishReason": "STOP", "index": 0}],
        "usageMetadata": {"promptTokenCount": 58, "candidatesTokenCount": 31, "totalTokenCount": 89},
        "modelVersion": MODEL,
        "responseId": "mB1Kabc123xyz",
    })
}

/// Gemini v1beta: the model in the path, `x-goog-api-key`, camelCase body,
/// JSON mode with an OpenAPI-subset `responseSchema`.
pub fn gemini_shape(seen: &Seen) -> Result<(), String> {
    json_body(seen)?;
    need(
        seen.path == format!("/v1beta/models/{MODEL}:generateContent"),
        "the path is /v1beta/models/{model}:generateContent",
    )?;
    need(
        header(&seen.headers, "x-goog-api-key").is_some(),
        "x-goog-api-key is set",
    )?;
    let body = &seen.body;
    let contents = body["contents"].as_array().ok_or("contents is an array")?;
    need(
        contents
            .iter()
            .all(|c| c["role"] == "user" || c["role"] == "model"),
        "contents roles are user or model (no system role)",
    )?;
    need(
        contents[0]["parts"][0]["text"].is_string(),
        "contents[0].parts[0].text is text",
    )?;
    need(
        body["systemInstruction"]["parts"][0]["text"]
            .as_str()
            .is_some_and(|t| t.contains("Voicebox")),
        "systemInstruction.parts[0].text is the prompt",
    )?;
    let config = &body["generationConfig"];
    need(
        config["responseMimeType"] == "application/json",
        "responseMimeType is application/json when a responseSchema is set",
    )?;
    need(
        config.get("responseJsonSchema").is_none(),
        "responseSchema and responseJsonSchema are exclusive",
    )?;
    gemini_schema(&config["responseSchema"])?;
    need(
        config["responseSchema"]["properties"]["verb"]["enum"]
            .as_array()
            .is_some_and(|verbs| verbs.iter().any(|v| v == "write")),
        "the verb enum lists the verbs",
    )
}

/// Gemini's `Schema`: upper-case types, its own keywords only, and an OBJECT
/// must have properties.
pub fn gemini_schema(node: &Value) -> Result<(), String> {
    const KEYWORDS: &[&str] = &[
        "type", "format", "title", "description", "nullable", "enum", "items", "minItems",
        "maxItems", "properties", "required", "minProperties", "maxProperties", "minimum",
        "maximum", "minLength", "maxLength", "pattern", "example", "anyOf", "propertyOrdering",
        "default",
    ];
    let object = node.as_object().ok_or("a schema is an object")?;
    for key in object.keys() {
        need(
            KEYWORDS.contains(&key.as_str()),
            &format!("`{key}` is not a responseSchema field"),
        )?;
    }
    let kind = object.get("type").and_then(Value::as_str).unwrap_or("");
    need(
        [
            "STRING", "NUMBER", "INTEGER", "BOOLEAN", "ARRAY", "OBJECT", "NULL",
        ]
        .contains(&kind),
        "type is an upper-case Type",
    )?;
    if kind == "OBJECT" {
        let properties = object
            .get("properties")
            .and_then(Value::as_object)
            .filter(|p| !p.is_empty())
            .ok_or("properties should be non-empty for OBJECT type")?;
        for property in properties.values() {
            gemini_schema(property)?;
        }
    }
    Ok(())
}
