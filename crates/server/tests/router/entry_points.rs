//! One sentence through each entry point that takes words — the page's
//! `POST /api/turn`, `voicebox turn` and MCP's `say` — and its act through
//! MCP's `tools/call`: a turn is assembled in one place (the host layer), so the
//! answers agree, for a sentence that acts and for a resolver that cannot
//! work yet.

use super::App;
use super::mcp::{message, open, post};
use serde_json::{Value, json};
use std::process::Command;
use std::sync::Arc;
use voicebox::host::{Resolver, Words};

/// `voicebox turn` on the app's root and state folder, with `resolver`.
fn command_line(app: &App, resolver: &str, text: &str) -> Value {
    let root = app.root.to_str().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_voicebox"))
        .args(["turn", "--root", root, "--resolver", resolver, text])
        .env("VOICEBOX_STATE_DIR", app._dirs.1.path())
        .env_remove("VOICEBOX_ROOT")
        .env_remove("ANTHROPIC_API_KEY")
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    serde_json::from_slice(&out.stdout).unwrap()
}

/// What a turn came to, without what differs by when and where it ran
/// (the audit seq, the turn id).
fn came_to(answer: &Value) -> Value {
    let result = &answer["result"];
    json!({
        "action": answer["action"], "note": answer["note"], "changes": answer["changes"],
        "ok": result["ok"], "refused": result["refused"], "why": result["why"],
        "file": result["file"], "content": result["content"],
    })
}

#[tokio::test]
async fn a_sentence_comes_to_the_same_answer_through_each_entry_point() {
    let app = App::new().await;
    std::fs::write(app.root.join("notes.md"), "buy milk").unwrap();
    let text = "read notes.md";
    let turn = json!({"transcript": text}).to_string();
    let page = app.post("/api/turn", &turn).await.json();
    let typed = command_line(&app, "script", text);
    assert_eq!(came_to(&page), came_to(&typed));
    assert_eq!(page["result"]["content"], "buy milk", "it was read");

    let session = open(&app, json!({})).await;
    let mut arguments = page["action"].clone();
    arguments.as_object_mut().unwrap().remove("verb");
    let call = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "read", "arguments": arguments}});
    let called = app.send(post(&app, true, Some(&session), &call)).await;
    let called = &message(&called.text)["result"]["structuredContent"];
    let mcp = json!({"action": page["action"], "note": null, "changes": false, "result": called});
    assert_eq!(came_to(&mcp), came_to(&page), "{called}");
    // The same words through MCP's `say`, read by the server's own resolver.
    let say = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
        "params": {"name": "say", "arguments": {"words": text}}});
    let said = app.send(post(&app, true, Some(&session), &say)).await;
    let said = &message(&said.text)["result"]["structuredContent"];
    assert_eq!(came_to(said), came_to(&page), "{said}");

    // The control: another file is another answer.
    std::fs::write(app.root.join("other.md"), "sell milk").unwrap();
    let other = command_line(&app, "script", "read other.md");
    assert_ne!(came_to(&other), came_to(&page));
}

#[tokio::test]
async fn a_model_without_its_key_is_key_missing_through_each_entry_point() {
    let app = App::new_with(|state| {
        state.words = Arc::new(Words::new(Resolver::Claude, state.state.clone()));
    })
    .await;
    std::fs::write(app.root.join("AGENTS.md"), "Answer in French.").unwrap();
    let text = "list the files";
    let turn = json!({"transcript": text}).to_string();
    let page = app.post("/api/turn", &turn).await.json();
    let typed = command_line(&app, "claude", text);
    assert_eq!(page["result"]["refused"], "key-missing", "{page}");
    assert_eq!(came_to(&page), came_to(&typed));
    let session = open(&app, json!({})).await;
    let say = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "say", "arguments": {"words": text}}});
    let said = app.send(post(&app, true, Some(&session), &say)).await;
    let said = &message(&said.text)["result"]["structuredContent"];
    assert_eq!(came_to(said), came_to(&page), "{said}");
    // The control: the built-in resolver needs no key.
    let script = command_line(&app, "script", text);
    assert_eq!(script["result"]["ok"], true, "{script}");
}
