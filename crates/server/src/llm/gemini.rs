//! Gemini `models/{model}:generateContent` (v1beta): JSON mode with
//! `responseSchema`; the answer is JSON text in the first candidate's parts.

use super::{Failure, Question, Vendor, finished, model_json, parse_body};
use crate::provider::Provider;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use voicebox_core::prompt;

pub const GEMINI: Vendor = Vendor {
    label: "Gemini",
    provider: Provider::Gemini,
    base_url_env: "VOICEBOX_GEMINI_BASE_URL",
    default_base_url: "https://generativelanguage.googleapis.com",
    model: &crate::models::GEMINI_RESOLVER,
    request,
    answer,
};

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Request {
    system_instruction: Content,
    contents: [Content; 1],
    generation_config: GenerationConfig,
}

#[derive(Serialize)]
struct Content {
    #[serde(skip_serializing_if = "Option::is_none")]
    role: Option<&'static str>,
    parts: [TextPart; 1],
}

#[derive(Serialize)]
struct TextPart {
    text: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct GenerationConfig {
    temperature: f32,
    response_mime_type: &'static str,
    response_schema: Value,
}

fn request(client: &reqwest::Client, call: &Question<'_>) -> reqwest::RequestBuilder {
    let text = |role, text: String| Content {
        role,
        parts: [TextPart { text }],
    };
    let body = Request {
        system_instruction: text(None, call.system.to_string()),
        contents: [text(Some("user"), call.text.to_string())],
        generation_config: GenerationConfig {
            temperature: 0.0,
            response_mime_type: "application/json",
            response_schema: response_schema(),
        },
    };
    client
        .post(format!(
            "{}/v1beta/models/{}:generateContent",
            call.base, call.model
        ))
        .header("x-goog-api-key", call.key)
        .json(&body)
}

/// The core's schema in Gemini's OpenAPI subset: upper-case type names,
/// enums marked `format: enum`, and the key order given (Gemini otherwise
/// writes keys alphabetically, the verb near the end).
fn response_schema() -> Value {
    let mut schema = openapi(&prompt::answer_schema());
    schema["propertyOrdering"] = json!(prompt::answer_keys());
    schema
}

fn openapi(node: &Value) -> Value {
    match node {
        Value::Object(object) => {
            let mut out: serde_json::Map<String, Value> = object
                .iter()
                .map(|(key, value)| match (key.as_str(), value) {
                    ("type", Value::String(name)) => (key.clone(), name.to_uppercase().into()),
                    _ => (key.clone(), openapi(value)),
                })
                .collect();
            if out.contains_key("enum") {
                out.insert("format".into(), "enum".into());
            }
            Value::Object(out)
        }
        other => other.clone(),
    }
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Response {
    #[serde(default)]
    candidates: Vec<Candidate>,
    prompt_feedback: Option<PromptFeedback>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct PromptFeedback {
    block_reason: Option<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Candidate {
    content: Option<Answer>,
    finish_reason: Option<String>,
    finish_message: Option<String>,
}

#[derive(Deserialize)]
struct Answer {
    #[serde(default)]
    parts: Vec<Part>,
}

#[derive(Deserialize)]
struct Part {
    text: Option<String>,
    /// A thinking model's thought, not part of the answer.
    #[serde(default)]
    thought: bool,
}

/// The first candidate's text parts (thoughts left out), read as JSON. No
/// candidates (a blocked prompt) or a finish other than `STOP` is no answer.
fn answer(body: &[u8]) -> Result<Value, Failure> {
    let response: Response = parse_body(body)?;
    let Some(candidate) = response.candidates.into_iter().next() else {
        let blocked = response.prompt_feedback.and_then(|f| f.block_reason);
        return Err(Failure::NoAnswer(match blocked {
            Some(reason) => format!("the request was blocked ({reason})"),
            None => "there are no candidates".into(),
        }));
    };
    finished(
        candidate.finish_reason.as_deref(),
        &["STOP"],
        candidate.finish_message.as_deref(),
    )?;
    let text: String = candidate
        .content
        .into_iter()
        .flat_map(|c| c.parts)
        .filter(|p| !p.thought)
        .filter_map(|p| p.text)
        .collect();
    model_json(&text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_request_has_gemini_shape() {
        let (request, body) = crate::llm::sample_request(request, "http://fake");
        assert_eq!(
            request.url().as_str(),
            "http://fake/v1beta/models/m-1:generateContent"
        );
        assert_eq!(request.headers()["x-goog-api-key"], "k");
        assert_eq!(body["contents"][0]["role"], "user");
        assert_eq!(body["contents"][0]["parts"][0]["text"], "list files");
        assert!(body["systemInstruction"].get("role").is_none());
        let config = &body["generationConfig"];
        assert_eq!(config["responseMimeType"], "application/json");
        let schema = &config["responseSchema"];
        assert_eq!(schema["type"], "OBJECT");
        assert_eq!(schema["properties"]["verb"]["type"], "STRING");
        assert_eq!(schema["properties"]["verb"]["format"], "enum");
        assert_eq!(schema["propertyOrdering"][0], "verb");
        assert!(!schema.to_string().contains("additionalProperties"));
    }

    #[test]
    fn thoughts_are_left_out_and_blocks_are_no_answer() {
        let two_parts = json!({"candidates": [{"content": {"parts": [
            {"text": "thinking...", "thought": true},
            {"text": "{\"verb\":"}, {"text": "\"undo\"}"}
        ]}, "finishReason": "STOP"}]});
        assert_eq!(
            answer(two_parts.to_string().as_bytes()).unwrap(),
            json!({"verb": "undo"})
        );
        let blocked = json!({"promptFeedback": {"blockReason": "SAFETY"}});
        assert_eq!(
            answer(blocked.to_string().as_bytes()),
            Err(Failure::NoAnswer("the request was blocked (SAFETY)".into()))
        );
        let cut = json!({"candidates": [{"content": {"parts": [{"text": "{\"ve"}]}, "finishReason": "MAX_TOKENS"}]});
        assert!(
            matches!(answer(cut.to_string().as_bytes()), Err(Failure::NoAnswer(w)) if w.contains("MAX_TOKENS"))
        );
    }
}
