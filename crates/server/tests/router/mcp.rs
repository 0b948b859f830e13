//! `/mcp`: MCP's streamable HTTP transport under `voicebox serve`, behind
//! the same guard as every other route and over the server's own executor.

use super::{Answer, App, request};
use axum::body::Body;
use axum::http::{Request, header};
use serde_json::{Value, json};
use std::sync::Arc;
use std::time::Duration;
use tower::ServiceExt;
use voicebox::mcp::{McpLimits, Sessions};

const ACCEPT: &str = "application/json, text/event-stream";

/// A JSON-RPC message POSTed to `/mcp`, with the host token when `token`.
pub(super) fn post(
    app: &App,
    token: bool,
    session: Option<&str>,
    message: &Value,
) -> Request<Body> {
    let mut builder = request("POST", "/mcp")
        .header(header::CONTENT_TYPE, "application/json")
        .header(header::ACCEPT, ACCEPT);
    if token {
        builder = builder.header("x-voicebox-host-token", &app.token);
    }
    if let Some(session) = session {
        builder = builder.header("mcp-session-id", session);
    }
    builder.body(Body::from(message.to_string())).unwrap()
}

/// The JSON-RPC message an answer carries, as JSON or as an SSE `data:` line.
pub(super) fn message(text: &str) -> Value {
    let data = text
        .lines()
        .filter_map(|line| line.strip_prefix("data:"))
        .find(|data| !data.trim().is_empty());
    serde_json::from_str(data.unwrap_or(text).trim()).unwrap_or(Value::Null)
}

fn initialize() -> Value {
    json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "router-test", "version": "1"}}})
}

#[tokio::test]
async fn mcp_is_refused_without_authority_and_acts_with_the_host_token() {
    let app = App::new().await;
    let stranger = app.send(post(&app, false, None, &initialize())).await;
    assert_eq!(stranger.refused(), (401, "no-authority".into()));
    let opened = app.send(post(&app, true, None, &initialize())).await;
    assert_eq!(opened.status, 200, "{}", opened.text);
    let answer = message(&opened.text);
    assert_eq!(
        answer["result"]["serverInfo"]["name"], "voicebox",
        "{}",
        opened.text
    );
    let session = initialized(&app, &opened).await;
    let write = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
        "name": "write", "arguments": {"name": "over-http.txt", "content": "hi"}}});
    let wrote = app.send(post(&app, true, Some(&session), &write)).await;
    let result = message(&wrote.text);
    assert_eq!(
        result["result"]["structuredContent"]["ok"], true,
        "{}",
        wrote.text
    );
    assert_eq!(
        std::fs::read_to_string(app.root.join("over-http.txt")).unwrap(),
        "hi"
    );
    // This client declared no elicitation: a delete cannot ask, so it is
    // refused by name and the file stays.
    let delete = json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {
        "name": "delete", "arguments": {"name": "over-http.txt"}}});
    let asked = message(
        &app.send(post(&app, true, Some(&session), &delete))
            .await
            .text,
    );
    assert_eq!(asked["result"]["isError"], true, "{asked}");
    assert_eq!(
        asked["result"]["structuredContent"]["refused"],
        "confirmation-unavailable"
    );
    assert!(app.root.join("over-http.txt").exists());
    // A person's words, read by the server's own resolver: sure, done.
    let say = json!({"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {
        "name": "say", "arguments": {"words": "add bye to over-http.txt"}}});
    let said = message(&app.send(post(&app, true, Some(&session), &say)).await.text);
    let turn = &said["result"]["structuredContent"];
    assert_eq!(turn["action"]["verb"], "append", "{said}");
    assert_eq!(turn["result"]["ok"], true, "{said}");
    let text = std::fs::read_to_string(app.root.join("over-http.txt")).unwrap();
    assert!(text.contains("bye"), "{text}");
    // The same call without the token reaches no handler, and writes nothing.
    let again = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {
        "name": "write", "arguments": {"name": "stranger.txt", "content": "x"}}});
    let refused = app.send(post(&app, false, Some(&session), &again)).await;
    assert_eq!(refused.refused(), (401, "no-authority".into()));
    assert!(!app.root.join("stranger.txt").exists());
}

/// The application with at most `max` MCP sessions, each idle at most `idle`.
async fn bounded(max: usize, idle: Duration) -> App {
    App::new_with(|state| state.mcp = Arc::new(Sessions::new(McpLimits { max, idle }))).await
}

/// Initializes a session (with `capabilities`) and says it is initialized:
/// the session's id.
pub(super) async fn open(app: &App, capabilities: Value) -> String {
    let mut init = initialize();
    init["params"]["capabilities"] = capabilities;
    let opened = app.send(post(app, true, None, &init)).await;
    assert_eq!(opened.status, 200, "{}", opened.text);
    initialized(app, &opened).await
}

/// Says the session `opened` (an initialize's answer) began is initialized:
/// the session's id.
async fn initialized(app: &App, opened: &Answer) -> String {
    let session = opened.headers["mcp-session-id"]
        .to_str()
        .unwrap()
        .to_string();
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    let noted = app
        .send(post(app, true, Some(&session), &initialized))
        .await;
    assert_eq!(noted.status, 202, "{}", noted.text);
    session
}

/// `tools/list` on `session`.
async fn list(app: &App, session: &str) -> Answer {
    let list = json!({"jsonrpc": "2.0", "id": 9, "method": "tools/list"});
    app.send(post(app, true, Some(session), &list)).await
}

/// Whether `session` answers `tools/list` with the tools.
async fn answers(app: &App, session: &str) -> bool {
    let answer = list(app, session).await;
    answer.status == 200 && message(&answer.text)["result"]["tools"].is_array()
}

#[tokio::test]
async fn past_the_session_cap_the_least_recently_used_gives_way() {
    let app = bounded(2, Duration::from_secs(600)).await;
    let first = open(&app, json!({})).await;
    let second = open(&app, json!({})).await;
    assert!(answers(&app, &first).await, "used last, so kept");
    let third = open(&app, json!({})).await;
    assert_eq!(
        list(&app, &second).await.refused(),
        (404, "mcp-session-unknown".into()),
        "the least recently used gave way"
    );
    assert!(answers(&app, &first).await);
    assert!(answers(&app, &third).await);
}

#[tokio::test]
async fn when_every_session_is_busy_a_new_one_is_refused_by_name() {
    let app = bounded(1, Duration::from_secs(600)).await;
    std::fs::write(app.root.join("keep.txt"), "x").unwrap();
    let asking = open(&app, json!({"elicitation": {}})).await;
    // A delete asks the person and waits for the answer: a request in flight.
    let delete = json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {
        "name": "delete", "arguments": {"name": "keep.txt"}}});
    let waiting = app
        .router
        .clone()
        .oneshot(post(&app, true, Some(&asking), &delete))
        .await
        .unwrap();
    assert_eq!(waiting.status(), 200);
    let refused = app.send(post(&app, true, None, &initialize())).await;
    assert_eq!(refused.refused(), (503, "mcp-sessions-full".into()));
    // Once the question's stream is gone, the idle session gives way.
    drop(waiting);
    let opened = app.send(post(&app, true, None, &initialize())).await;
    assert_eq!(opened.status, 200, "{}", opened.text);
    assert!(app.root.join("keep.txt").exists(), "nothing was deleted");
}

#[tokio::test(start_paused = true)]
async fn an_idle_session_expires_and_one_in_use_lives() {
    let app = bounded(8, Duration::from_secs(60)).await;
    let session = open(&app, json!({})).await;
    for _ in 0..3 {
        tokio::time::sleep(Duration::from_secs(50)).await;
        assert!(answers(&app, &session).await, "used within its idle time");
    }
    tokio::time::sleep(Duration::from_secs(61)).await;
    assert_eq!(
        list(&app, &session).await.refused(),
        (404, "mcp-session-unknown".into())
    );
}

#[tokio::test]
async fn mcp_bodies_keep_the_apis_one_cap_and_strict_json() {
    let app = App::new().await;
    let session = open(&app, json!({})).await;
    // A write of nearly 1 MiB of control characters: about 6 MiB of JSON,
    // under the API's 8 MiB cap (and over rmcp's own 4 MiB default).
    let content = "\u{1}".repeat((1 << 20) - 1024);
    let write = json!({"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {
        "name": "write", "arguments": {"name": "controls.txt", "content": content}}});
    let body = write.to_string();
    assert!(body.len() > 6_000_000, "{}", body.len());
    let wrote = app.send(post(&app, true, Some(&session), &write)).await;
    assert_eq!(
        message(&wrote.text)["result"]["structuredContent"]["ok"],
        true,
        "{}",
        &wrote.text[..wrote.text.len().min(300)]
    );
    assert_eq!(
        std::fs::metadata(app.root.join("controls.txt"))
            .unwrap()
            .len(),
        content.len() as u64
    );
    // Over the cap: the named refusal, as JSON.
    let padded = json!({"jsonrpc": "2.0", "id": 6, "method": "tools/list", "params": {
        "pad": "x".repeat(9 << 20)}});
    let over = app.send(post(&app, true, Some(&session), &padded)).await;
    assert_eq!(over.refused(), (413, "body-too-large".into()));
    // A key said twice: refused by name, and the tool never runs.
    let twice = r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"write","arguments":{"name":"a.txt","name":"b.txt","content":"x"}}}"#;
    let mut request = post(&app, true, Some(&session), &Value::Null);
    *request.body_mut() = Body::from(twice);
    let refused = app.send(request).await;
    assert_eq!(refused.refused(), (400, "duplicate-key".into()));
    assert!(!app.root.join("a.txt").exists() && !app.root.join("b.txt").exists());
}
