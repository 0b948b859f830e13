//! The notes verbs over HTTP (`POST /api/turn` with an action), as the
//! page and any client send them: each done, with its refused sibling; a
//! save on an old copy is refused and the newer copy stays.

mod common;

use common::Server;
use serde_json::{Value, json};

async fn act(server: &Server, action: Value) -> Value {
    let (status, body) = server.post("/api/turn", json!({"action": action})).await;
    assert_eq!(status, 200, "{body}");
    body["result"].clone()
}

#[tokio::test]
async fn organise_and_lists_over_http() {
    let server = Server::start();
    let file = |name: &str| std::fs::read_to_string(server.root.join(name)).ok();
    std::fs::write(server.root.join("week.md"), "## Monday\n- gym\n").unwrap();
    let moved = act(
        &server,
        json!({"verb": "move", "name": "week.md", "to": "plans/week.md"}),
    )
    .await;
    assert_eq!(moved["ok"], true, "{moved}");
    assert_eq!(moved["to"], "plans/week.md");
    let dot = act(
        &server,
        json!({"verb": "move", "name": "plans/week.md", "to": ".week.md"}),
    )
    .await;
    assert_eq!(dot["refused"], "dotfile-refused");
    let added = act(
        &server,
        json!({"verb": "append", "name": "plans/week.md", "content": "call Sam", "under": "Monday"}),
    )
    .await;
    assert_eq!(added["ok"], true, "{added}");
    assert_eq!(
        file("plans/week.md").as_deref(),
        Some("## Monday\n- gym\n- call Sam\n")
    );
    let copy = act(&server, json!({"verb": "copy", "name": "plans", "to": "b"})).await;
    assert_eq!(copy["refused"], "is-a-directory");
    let full = act(&server, json!({"verb": "delete", "name": "plans"})).await;
    assert_eq!(full["refused"], "folder-not-empty");
    let made = act(&server, json!({"verb": "mkdir", "name": "empty"})).await;
    assert_eq!(made["ok"], true);
    let asked = act(&server, json!({"verb": "delete", "name": "empty"})).await;
    let id = asked["confirm"]["id"].as_str().unwrap();
    let (_, yes) = server.confirm(&id, true).await;
    assert_eq!(yes["result"]["ok"], true, "{yes}");
    assert!(!server.root.join("empty").exists());
    let entries = server.audit().await;
    assert!(entries.iter().any(|e| e["act"]["to"] == "plans/week.md"));
}

#[tokio::test]
async fn a_save_on_an_old_copy_is_refused_and_the_newer_copy_stays() {
    let server = Server::start();
    let file = |name: &str| std::fs::read_to_string(server.root.join(name)).ok();
    std::fs::write(server.root.join("note.md"), "v1").unwrap();
    let read = act(&server, json!({"verb": "read", "name": "note.md"})).await;
    let held = read["sha256"].as_str().unwrap().to_string();
    // Someone else saves first.
    std::fs::write(server.root.join("note.md"), "theirs").unwrap();
    let save = act(
        &server,
        json!({"verb": "write", "name": "note.md", "content": "mine", "expect": held}),
    )
    .await;
    assert_eq!(save["refused"], "changed-since-read", "{save}");
    assert_eq!(file("note.md").as_deref(), Some("theirs"));
    let again = act(&server, json!({"verb": "read", "name": "note.md"})).await;
    let save = act(
        &server,
        json!({"verb": "write", "name": "note.md", "content": "mine", "expect": again["sha256"]}),
    )
    .await;
    assert_eq!(save["ok"], true, "{save}");
    assert_eq!(file("note.md").as_deref(), Some("mine"));
}
