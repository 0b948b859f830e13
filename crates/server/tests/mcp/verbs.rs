//! The notes verbs as MCP tools: each done through the executor, with its
//! refused sibling; a move over a file asks the person; an edit made on an
//! old copy (`expect`) is refused and writes nothing.

use super::person::{Person, connect};
use super::{Folder, audit_entries, call};
use rmcp::model::ElicitationAction;
use serde_json::json;
use voicebox_test_support::put_file;

#[tokio::test(flavor = "multi_thread")]
async fn organise_read_part_find_and_info_through_mcp() {
    let folder = Folder::new();
    put_file(&folder.root, "draft.md", "1\n2\n3\n4\n");
    let client = connect(&folder, Person::none()).await;
    let moved = call(
        &client,
        "move",
        json!({"name": "draft.md", "to": "final.md"}),
    )
    .await;
    assert!(!moved.error, "{}", moved.line);
    assert_eq!(folder.file("final.md").as_deref(), Some("1\n2\n3\n4\n"));
    let out = call(
        &client,
        "move",
        json!({"name": "final.md", "to": "../x.md"}),
    )
    .await;
    assert!(out.error);
    assert_eq!(out.reply["refused"], "outside-root");
    assert!(folder.file("final.md").is_some());

    let made = call(&client, "mkdir", json!({"name": "archive"})).await;
    assert!(!made.error, "{}", made.line);
    assert!(folder.root.join("archive").is_dir());
    let copied = call(
        &client,
        "copy",
        json!({"name": "final.md", "to": "archive"}),
    )
    .await;
    assert!(!copied.error, "{}", copied.line);
    assert_eq!(copied.reply["to"], "archive/final.md");
    let hidden = call(
        &client,
        "copy",
        json!({"name": "final.md", "to": ".final.md"}),
    )
    .await;
    assert_eq!(hidden.reply["refused"], "dotfile-refused");

    let tail = call(&client, "read", json!({"name": "final.md", "last": 2})).await;
    assert_eq!(tail.reply["content"], "3\n4\n");
    assert_eq!(tail.reply["lines"], json!({"from": 3, "to": 4, "of": 4}));
    let both = call(
        &client,
        "read",
        json!({"name": "final.md", "first": 1, "last": 1}),
    )
    .await;
    assert_eq!(both.reply["refused"], "malformed-field");

    let found = call(&client, "find", json!({"pattern": "FINAL*"})).await;
    assert_eq!(found.reply["total"], 2, "{}", found.reply);
    let escape = call(&client, "find", json!({"pattern": "x", "dir": "/etc"})).await;
    assert_eq!(escape.reply["refused"], "outside-root");
    let info = call(&client, "info", json!({"name": "final.md"})).await;
    assert_eq!(info.reply["info"]["lines"], 4);
    let missing = call(&client, "info", json!({"name": "nope.md"})).await;
    assert_eq!(missing.reply["refused"], "not-found");
    let entries = audit_entries(&folder.root);
    assert!(entries.iter().any(|e| e["act"]["to"] == "final.md"));
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn a_move_over_a_file_asks_the_person_first() {
    let folder = Folder::new();
    put_file(&folder.root, "a.md", "new");
    put_file(&folder.root, "b.md", "old");
    let person = Person::answering(ElicitationAction::Decline);
    let client = connect(&folder, person.clone()).await;
    let kept = call(&client, "move", json!({"name": "a.md", "to": "b.md"})).await;
    assert!(kept.error);
    assert!(
        person.asked()[0].starts_with("Move a.md over b.md?"),
        "{:?}",
        person.asked()
    );
    assert_eq!(folder.file("b.md").as_deref(), Some("old"));
    client.cancel().await.unwrap();
    let client = connect(&folder, Person::answering(ElicitationAction::Accept)).await;
    let moved = call(&client, "move", json!({"name": "a.md", "to": "b.md"})).await;
    assert!(!moved.error, "{}", moved.line);
    assert_eq!(folder.file("b.md").as_deref(), Some("new"));
    assert!(folder.file("a.md").is_none());
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn lists_and_an_edit_on_an_old_copy_through_mcp() {
    let folder = Folder::new();
    put_file(&folder.root, "todo.md", "- [ ] milk\n- [ ] call Sam\n");
    let client = connect(&folder, Person::none()).await;
    let read = call(&client, "read", json!({"name": "todo.md"})).await;
    let held = read.reply["sha256"].as_str().unwrap().to_string();
    let ticked = call(
        &client,
        "check_item",
        json!({"name": "todo.md", "item": "milk", "expect": held}),
    )
    .await;
    assert!(!ticked.error, "{}", ticked.line);
    assert_eq!(
        folder.file("todo.md").as_deref(),
        Some("- [x] milk\n- [ ] call Sam\n")
    );
    // The copy read before the tick is old now: nothing is written.
    let stale = call(
        &client,
        "edit",
        json!({"name": "todo.md", "oldText": "Sam", "newText": "Ann", "expect": held}),
    )
    .await;
    assert_eq!(stale.reply["refused"], "changed-since-read");
    assert_eq!(
        folder.file("todo.md").as_deref(),
        Some("- [x] milk\n- [ ] call Sam\n")
    );
    let unknown = call(
        &client,
        "check_item",
        json!({"name": "todo.md", "item": "bread"}),
    )
    .await;
    assert_eq!(unknown.reply["refused"], "item-not-found");
    assert_eq!(unknown.reply["candidates"], json!(["milk", "call Sam"]));
    let removed = call(
        &client,
        "remove_item",
        json!({"name": "todo.md", "item": "sam"}),
    )
    .await;
    assert!(!removed.error, "{}", removed.line);
    assert_eq!(folder.file("todo.md").as_deref(), Some("- [x] milk\n"));
    let undone = call(&client, "undo", json!({"name": "todo.md"})).await;
    assert!(!undone.error, "{}", undone.line);
    assert_eq!(
        folder.file("todo.md").as_deref(),
        Some("- [x] milk\n- [ ] call Sam\n")
    );
    let nothing = call(&client, "undo", json!({"name": "other.md"})).await;
    assert_eq!(nothing.reply["refused"], "nothing-to-undo");
    client.cancel().await.unwrap();
}
