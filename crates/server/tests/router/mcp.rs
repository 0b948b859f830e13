//! `/mcp`: MCP's streamable HTTP transport under `voicebox serve`, behind
//! the same guard as every other route and over the server's own executor.

use super::{App, request};
use axum::body::Body;
use axum::http::{Request, header};
use serde_json::{Value, json};

const ACCEPT: &str = "application/json, text/event-stream";

/// A JSON-RPC message POSTed to `/mcp`, with the host token when `token`.
fn post(app: &App, token: bool, session: Option<&str>, message: &Value) -> Request<Body> {
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
fn message(text: &str) -> Value {
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
    let session = opened.headers["mcp-session-id"]
        .to_str()
        .unwrap()
        .to_string();
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    let _ = app
        .send(post(&app, true, Some(&session), &initialized))
        .await;
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
    // The same call without the token reaches no handler, and writes nothing.
    let again = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {
        "name": "write", "arguments": {"name": "stranger.txt", "content": "x"}}});
    let refused = app.send(post(&app, false, Some(&session), &again)).await;
    assert_eq!(refused.refused(), (401, "no-authority".into()));
    assert!(!app.root.join("stranger.txt").exists());
}
