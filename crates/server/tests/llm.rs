//! The LLM resolvers against local fakes that speak each vendor's wire
//! format (as each vendor's published API docs give it): `voicebox serve --resolver <name>` with the
//! vendor's base URL pointed at a fake on 127.0.0.1. The fake refuses a
//! request that does not have the vendor's real shape, so a good answer
//! turning into the expected action also proves the request was right.

mod common;

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use common::Server;
use serde_json::{Value, json};
use std::sync::{Arc, Mutex};
use std::time::Duration;

const MODEL: &str = "test-model-7";

/// One vendor as the tests see it.
struct Spec {
    resolver: &'static str,
    provider: &'static str,
    key_env: &'static str,
    base_env: &'static str,
    model_env: &'static str,
    /// What the base URL adds before the fake's root (OpenAI's includes `/v1`).
    base_suffix: &'static str,
    /// The key a request carries, from the vendor's auth header.
    key_of: fn(&HeaderMap) -> Option<String>,
    /// What is wrong with a request, by the vendor's rules.
    check: fn(&Seen) -> Result<(), String>,
    /// A 200 body carrying `answer` the vendor's way.
    reply: fn(&Value) -> Value,
    /// A 200 body whose answer is the text `text`.
    reply_text: fn(&str) -> Value,
    /// The vendor's error body.
    error: fn(u16, &str) -> Value,
    /// Statuses the vendor answers when it cannot serve.
    statuses: &'static [u16],
    /// The vendor's blocked, refused, cut-short and empty bodies, each with
    /// words the note must contain.
    blocked: fn() -> Vec<(Value, &'static str)>,
}

const GEMINI: Spec = Spec {
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

const OPENAI: Spec = Spec {
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

const ANTHROPIC: Spec = Spec {
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

fn header(headers: &HeaderMap, name: &str) -> Option<String> {
    headers.get(name)?.to_str().ok().map(String::from)
}

fn gemini_text(text: &str) -> Value {
    json!({
        "candidates": [{"content": {"role": "model", "parts": [{"text": text}]}, "finishReason": "STOP", "index": 0}],
        "usageMetadata": {"promptTokenCount": 58, "candidatesTokenCount": 31, "totalTokenCount": 89},
        "modelVersion": MODEL,
        "responseId": "mB1Kabc123xyz",
    })
}

fn openai_choice(content: Value, refusal: Value, finish: &str) -> Value {
    json!({
        "id": "chatcmpl-B9MBs8CjcvOU2jLn4n570S5qMJKcT",
        "object": "chat.completion",
        "created": 1741569952,
        "model": MODEL,
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content, "refusal": refusal, "annotations": []}, "logprobs": null, "finish_reason": finish}],
        "usage": {"prompt_tokens": 62, "completion_tokens": 17, "total_tokens": 79},
    })
}

fn anthropic_message(content: Value, stop: &str) -> Value {
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

/// `Err(what)` unless `ok`.
fn need(ok: bool, what: &str) -> Result<(), String> {
    if ok { Ok(()) } else { Err(what.to_string()) }
}

fn json_body(seen: &Seen) -> Result<(), String> {
    need(seen.method == "POST", "the method is POST")?;
    need(
        header(&seen.headers, "content-type").is_some_and(|c| c.starts_with("application/json")),
        "content-type is application/json",
    )
}

/// Gemini v1beta: the model in the path, `x-goog-api-key`, camelCase body,
/// JSON mode with an OpenAPI-subset `responseSchema`.
fn gemini_shape(seen: &Seen) -> Result<(), String> {
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
fn gemini_schema(node: &Value) -> Result<(), String> {
    const KEYWORDS: &[&str] = &[
        "type",
        "format",
        "title",
        "description",
        "nullable",
        "enum",
        "items",
        "minItems",
        "maxItems",
        "properties",
        "required",
        "minProperties",
        "maxProperties",
        "minimum",
        "maximum",
        "minLength",
        "maxLength",
        "pattern",
        "example",
        "anyOf",
        "propertyOrdering",
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

/// OpenAI chat completions: Bearer auth, `model`, `messages`, and a
/// `response_format` whose `json_schema` has a valid name.
fn openai_shape(seen: &Seen) -> Result<(), String> {
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

/// Anthropic messages: `x-api-key` and `anthropic-version`, `max_tokens`,
/// a top-level `system`, and one forced tool with an object input schema.
fn anthropic_shape(seen: &Seen) -> Result<(), String> {
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

/// One request the fake received.
#[derive(Clone, Debug)]
struct Seen {
    method: String,
    path: String,
    headers: HeaderMap,
    body: Value,
}

#[derive(Clone)]
enum Reply {
    Json(u16, Value),
    Text(u16, &'static str),
}

struct FakeState {
    check: fn(&Seen) -> Result<(), String>,
    reply: Mutex<Reply>,
    delay: Mutex<Duration>,
    seen: Mutex<Vec<Seen>>,
    problems: Mutex<Vec<String>>,
}

/// A vendor on 127.0.0.1: records each request, answers 400 in the
/// vendor's error shape when the request's shape is wrong, else the reply
/// it was given.
struct Fake {
    base: String,
    state: Arc<FakeState>,
}

impl Fake {
    async fn start(check: fn(&Seen) -> Result<(), String>) -> Fake {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let state = Arc::new(FakeState {
            check,
            reply: Mutex::new(Reply::Json(500, json!({}))),
            delay: Mutex::new(Duration::ZERO),
            seen: Mutex::new(Vec::new()),
            problems: Mutex::new(Vec::new()),
        });
        let app = Router::new().fallback(answer).with_state(state.clone());
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        Fake { base, state }
    }

    fn reply(&self, reply: Reply) {
        *self.state.reply.lock().unwrap() = reply;
    }

    fn seen(&self) -> Vec<Seen> {
        self.state.seen.lock().unwrap().clone()
    }

    fn problems(&self) -> Vec<String> {
        self.state.problems.lock().unwrap().clone()
    }
}

async fn answer(
    State(fake): State<Arc<FakeState>>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let seen = Seen {
        method: method.to_string(),
        path: uri.path().to_string(),
        headers,
        body: serde_json::from_slice(&body).unwrap_or(Value::Null),
    };
    let verdict = (fake.check)(&seen);
    fake.seen.lock().unwrap().push(seen);
    if let Err(problem) = verdict {
        fake.problems.lock().unwrap().push(problem.clone());
        let error = json!({"error": {"message": format!("fake vendor: {problem}")}});
        return (StatusCode::BAD_REQUEST, axum::Json(error)).into_response();
    }
    let delay = *fake.delay.lock().unwrap();
    tokio::time::sleep(delay).await;
    let reply = fake.reply.lock().unwrap().clone();
    match reply {
        Reply::Json(code, body) => {
            (StatusCode::from_u16(code).unwrap(), axum::Json(body)).into_response()
        }
        Reply::Text(code, text) => (
            StatusCode::from_u16(code).unwrap(),
            [("content-type", "text/html")],
            text,
        )
            .into_response(),
    }
}

/// A key no note, response or log line may show.
fn secret(spec: &Spec) -> String {
    format!("sk-test-{}-SECRET-9876", spec.provider)
}

/// A server using `spec`'s resolver against `base`, logging at debug so a
/// leaked key would show.
fn serve(spec: &Spec, base: &str, extra: &[(&str, &str)]) -> Server {
    let base = format!("{base}{}", spec.base_suffix);
    let mut env = vec![
        ("VOICEBOX_RESOLVER", spec.resolver),
        (spec.base_env, base.as_str()),
        (spec.model_env, MODEL),
        ("RUST_LOG", "debug"),
    ];
    env.extend_from_slice(extra);
    Server::start_with_env(&env)
}

/// Says `text`; asserts no action was taken and the note names `needle`
/// and carries no key; returns the note.
async fn unresolved(server: &Server, text: &str, needle: &str, key: &str) -> String {
    let turn = server.say(text).await;
    assert!(turn["action"].is_null(), "{turn}");
    assert!(turn["result"].is_null(), "{turn}");
    let note = turn["note"].as_str().unwrap_or_default().to_string();
    assert!(note.contains(needle), "{needle:?} not in {note:?}");
    assert!(!turn.to_string().contains(key), "the key leaked: {turn}");
    note
}

/// Every case for one vendor, through one server and one fake.
async fn exercise(spec: &Spec) {
    let fake = Fake::start(spec.check).await;
    let server = serve(spec, &fake.base, &[]);
    let key = secret(spec);
    let (_, health) = server.get("/api/health").await;
    assert_eq!(health["resolver"], spec.resolver);

    // No key: a note saying which key and how, and no request at all.
    let note = unresolved(&server, "list files", spec.key_env, &key).await;
    assert!(
        note.contains("PUT /api/keys") && note.contains(spec.provider),
        "{note}"
    );
    assert!(fake.seen().is_empty(), "a request went out without a key");

    let (status, keys) = server
        .put_with_token("/api/keys", json!({"keys": {spec.provider: key}}))
        .await;
    assert_eq!(
        (status, keys["keys"][spec.provider]["set"].as_bool()),
        (200, Some(true))
    );

    // Too long for one request: the same note as the script resolver's, and
    // nothing is sent.
    unresolved(&server, &"x".repeat(9 * 1024), "too long", &key).await;
    assert!(fake.seen().is_empty(), "an over-long sentence was sent");

    // A good answer becomes exactly that action, and it is carried out.
    let sentence = "create a file called hello dot txt with hi";
    let expected = json!({"verb": "write", "name": "hello.txt", "content": "hi"});
    fake.reply(Reply::Json(200, (spec.reply)(&expected)));
    let turn = server.say(sentence).await;
    assert_eq!(turn["action"], expected, "{turn} {:?}", fake.problems());
    assert_eq!(turn["result"]["ok"], true, "{turn}");
    assert_eq!(
        std::fs::read_to_string(server.root.join("hello.txt")).unwrap(),
        "hi"
    );
    let request = fake.seen().pop().unwrap();
    assert_eq!(
        (spec.key_of)(&request.headers).as_deref(),
        Some(key.as_str())
    );
    assert!(
        request.body.to_string().contains(sentence),
        "the sentence was sent"
    );

    // The model's own "unresolved" is the note.
    let why = "booking a flight is not a request about files";
    fake.reply(Reply::Json(200, (spec.reply)(&json!({"unresolved": why}))));
    let note = unresolved(&server, "book me a flight to Lisbon", why, &key).await;
    assert_eq!(note, why);

    // Each failure: no action, a note naming the reason, no key.
    for &code in spec.statuses {
        let message = format!("the vendor cannot serve this now ({code})");
        fake.reply(Reply::Json(code, (spec.error)(code, &message)));
        let note = unresolved(&server, sentence, &message, &key).await;
        assert!(note.contains(&format!("HTTP {code}")), "{note}");
    }
    let echo = format!("Incorrect API key provided: {key}.");
    fake.reply(Reply::Json(401, (spec.error)(401, &echo)));
    unresolved(&server, sentence, "Incorrect API key provided: [key]", &key).await;
    fake.reply(Reply::Text(200, "<html><body>Bad gateway</body></html>"));
    unresolved(&server, sentence, "not JSON", &key).await;
    fake.reply(Reply::Json(
        200,
        (spec.reply_text)("Sure! I made hello.txt for you."),
    ));
    unresolved(&server, sentence, "not JSON", &key).await;
    let not_actions = [
        (
            json!({"verb": "launch_rockets"}),
            "(unknown-verb): `launch_rockets`",
        ),
        (
            json!({"verb": "write", "name": "hello.txt"}),
            "(missing-argument)",
        ),
        (
            json!({"verb": "read", "name": "a.txt", "mode": "x"}),
            "(unknown-field)",
        ),
    ];
    for (answer, needle) in not_actions {
        fake.reply(Reply::Json(200, (spec.reply)(&answer)));
        unresolved(&server, sentence, needle, &key).await;
    }
    for (body, needle) in (spec.blocked)() {
        fake.reply(Reply::Json(200, body));
        unresolved(&server, sentence, needle, &key).await;
    }

    assert_eq!(fake.problems(), Vec::<String>::new());
    let logs = server.logs.lock().unwrap().join("\n");
    assert!(logs.contains("unresolved"), "failures are logged");
    assert!(!logs.contains(&key), "the key was logged");
}

#[tokio::test]
async fn gemini_answers_failures_and_keys() {
    exercise(&GEMINI).await;
}

#[tokio::test]
async fn openai_answers_failures_and_keys() {
    exercise(&OPENAI).await;
}

#[tokio::test]
async fn claude_answers_failures_and_keys() {
    exercise(&ANTHROPIC).await;
}

#[tokio::test]
async fn a_vendor_that_refuses_connections_is_unresolved() {
    let closed = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        format!("http://{}", listener.local_addr().unwrap())
    };
    for spec in [&GEMINI, &OPENAI, &ANTHROPIC] {
        let key = secret(spec);
        let server = serve(spec, &closed, &[(spec.key_env, &key)]);
        let note = unresolved(&server, "list files", "could not be reached at", &key).await;
        assert!(note.contains(&closed), "{note}");
    }
}

#[tokio::test]
async fn a_slow_vendor_times_out() {
    let fake = Fake::start(gemini_shape).await;
    *fake.state.delay.lock().unwrap() = Duration::from_secs(5);
    fake.reply(Reply::Json(200, gemini_text(r#"{"verb":"list"}"#)));
    let key = secret(&GEMINI);
    let server = serve(
        &GEMINI,
        &fake.base,
        &[
            ("GEMINI_API_KEY", &key),
            ("VOICEBOX_LLM_TIMEOUT_SECS", "0.5"),
        ],
    );
    let started = std::time::Instant::now();
    unresolved(&server, "list files", "did not answer within 0.5 s", &key).await;
    assert!(started.elapsed() < Duration::from_secs(4));
}

#[tokio::test]
async fn the_stored_key_wins_over_the_environment() {
    let fake = Fake::start(openai_shape).await;
    fake.reply(Reply::Json(200, (OPENAI.reply)(&json!({"verb": "list"}))));
    let server = serve(&OPENAI, &fake.base, &[("OPENAI_API_KEY", "sk-from-env")]);
    let used = |fake: &Fake| (OPENAI.key_of)(&fake.seen().pop().unwrap().headers);
    assert_eq!(server.say("list files").await["action"]["verb"], "list");
    assert_eq!(used(&fake).as_deref(), Some("sk-from-env"));
    let store = |key: Value| server.put_with_token("/api/keys", json!({"keys": {"openai": key}}));
    assert_eq!(store(json!("sk-stored")).await.0, 200);
    server.say("list files").await;
    assert_eq!(used(&fake).as_deref(), Some("sk-stored"));
    assert_eq!(store(Value::Null).await.0, 200);
    server.say("list files").await;
    assert_eq!(used(&fake).as_deref(), Some("sk-from-env"));
}

/// Runs the CLI with `env` off the test's runtime (the fake keeps serving).
async fn cli(args: &[&str], env: &[(&str, &str)]) -> Value {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_voicebox"));
    common::clean_env(&mut command);
    command.args(args).envs(env.iter().copied());
    let output = tokio::task::spawn_blocking(move || command.output().unwrap())
        .await
        .unwrap();
    serde_json::from_slice(&output.stdout).unwrap_or_else(|e| panic!("{e}: {output:?}"))
}

#[tokio::test]
async fn the_cli_resolves_and_turns_with_an_llm_resolver() {
    let fake = Fake::start(anthropic_shape).await;
    let expected = json!({"verb": "write", "name": "Notes.md", "content": "milk"});
    fake.reply(Reply::Json(200, (ANTHROPIC.reply)(&expected)));
    let (root, state) = (
        tempfile::TempDir::new().unwrap(),
        tempfile::TempDir::new().unwrap(),
    );
    let state_dir = state.path().to_str().unwrap();
    let env = [
        ("VOICEBOX_ANTHROPIC_BASE_URL", fake.base.as_str()),
        ("VOICEBOX_ANTHROPIC_MODEL", MODEL),
        ("ANTHROPIC_API_KEY", "sk-cli-key"),
    ];
    let sentence = "write milk to Notes dot md";
    let resolved = cli(
        &[
            "resolve",
            "--resolver",
            "claude",
            "--state-dir",
            state_dir,
            sentence,
        ],
        &env,
    )
    .await;
    assert_eq!(
        resolved["action"],
        expected,
        "{resolved} {:?}",
        fake.problems()
    );

    let root_dir = root.path().to_str().unwrap();
    let turn = cli(
        &[
            "turn",
            "--resolver",
            "claude",
            "--root",
            root_dir,
            "--state-dir",
            state_dir,
            sentence,
        ],
        &env,
    )
    .await;
    assert_eq!(turn["action"], expected);
    assert_eq!(turn["result"]["ok"], true, "{turn}");
    assert_eq!(
        std::fs::read_to_string(root.path().join("Notes.md")).unwrap(),
        "milk"
    );

    let keyless = cli(
        &[
            "resolve",
            "--resolver",
            "gemini",
            "--state-dir",
            state_dir,
            sentence,
        ],
        &[],
    )
    .await;
    assert!(keyless["action"].is_null());
    assert!(
        keyless["note"].as_str().unwrap().contains("GEMINI_API_KEY"),
        "{keyless}"
    );
    assert_eq!(fake.problems(), Vec::<String>::new());
}
