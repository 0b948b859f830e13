//! OpenAI `POST /chat/completions`: a non-strict `json_schema` response
//! format (strict mode would need every property required and typed
//! nullable, which no other vendor's schema takes); the answer is JSON text
//! in the first choice's message.

use super::{Failure, Question, Vendor, finished, model_json, parse_body};
use crate::provider::Provider;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use voicebox_core::prompt;

pub const OPENAI: Vendor = Vendor {
    label: "OpenAI",
    provider: Provider::Openai,
    base_url_env: "VOICEBOX_OPENAI_BASE_URL",
    default_base_url: "https://api.openai.com/v1",
    model: &crate::models::OPENAI_RESOLVER,
    request,
    answer,
};

/// No `temperature`: some models accept only their default.
#[derive(Serialize)]
struct Request<'a> {
    model: &'a str,
    messages: [Message<'a>; 2],
    response_format: Value,
}

#[derive(Serialize)]
struct Message<'a> {
    role: &'static str,
    content: &'a str,
}

fn request(client: &reqwest::Client, call: &Question<'_>) -> reqwest::RequestBuilder {
    let body = Request {
        model: call.model,
        messages: [
            Message {
                role: "system",
                content: call.system,
            },
            Message {
                role: "user",
                content: call.text,
            },
        ],
        response_format: json!({
            "type": "json_schema",
            "json_schema": {"name": "voicebox_answer", "strict": false, "schema": prompt::answer_schema()},
        }),
    };
    client
        .post(format!("{}/chat/completions", call.base))
        .bearer_auth(call.key)
        .json(&body)
}

#[derive(Deserialize)]
struct Response {
    #[serde(default)]
    choices: Vec<Choice>,
}

#[derive(Deserialize)]
struct Choice {
    message: Reply,
    finish_reason: Option<String>,
}

#[derive(Deserialize)]
struct Reply {
    content: Option<String>,
    refusal: Option<String>,
}

/// The first choice's content, read as JSON; a refusal, or a finish other
/// than `stop` (cut short, filtered), is no answer.
fn answer(body: &[u8]) -> Result<Value, Failure> {
    let response: Response = parse_body(body)?;
    let Some(choice) = response.choices.into_iter().next() else {
        return Err(Failure::NoAnswer("there are no choices".into()));
    };
    if let Some(refusal) = choice.message.refusal.filter(|r| !r.trim().is_empty()) {
        return Err(Failure::NoAnswer(format!("the model refused: {refusal}")));
    }
    finished(choice.finish_reason.as_deref(), &["stop"], None)?;
    model_json(choice.message.content.as_deref().unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_request_has_openai_shape() {
        let (request, body) = crate::llm::sample_request(request, "http://fake/v1");
        assert_eq!(request.url().as_str(), "http://fake/v1/chat/completions");
        assert_eq!(request.headers()["authorization"], "Bearer k");
        assert_eq!(body["model"], "m-1");
        assert_eq!(body["messages"][0]["role"], "system");
        assert_eq!(
            body["messages"][1],
            json!({"role": "user", "content": "list files"})
        );
        let format = &body["response_format"];
        assert_eq!(format["type"], "json_schema");
        assert_eq!(format["json_schema"]["strict"], false);
        assert_eq!(format["json_schema"]["schema"], prompt::answer_schema());
    }

    #[test]
    fn refusals_and_cut_answers_are_no_answer() {
        let refused = json!({"choices": [{"message": {"content": null, "refusal": "I can't help with that."}, "finish_reason": "stop"}]});
        assert_eq!(
            answer(refused.to_string().as_bytes()),
            Err(Failure::NoAnswer(
                "the model refused: I can't help with that.".into()
            ))
        );
        let cut = json!({"choices": [{"message": {"content": "{\"verb\":", "refusal": null}, "finish_reason": "length"}]});
        assert_eq!(
            answer(cut.to_string().as_bytes()),
            Err(Failure::NoAnswer("it stopped with length".into()))
        );
    }
}
