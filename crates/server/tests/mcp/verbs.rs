//! The notes verbs as MCP tools: each done through the executor, with its
//! refused sibling; a move over a file asks the person; an edit made on an
//! old copy (`expect`) is refused and writes nothing.

use super::person::{Person, connect};
use super::{Folder, audit_entries, call, call_ok, call_refused, unattended};
use rmcp::model::ElicitationAction;
use serde_json::json;

#[tokio::test(flavor = "multi_thread")]
async fn organise_read_part_find_and_info_through_mcp() {
    let (folder, client) = unattended(&[("draft.md", "1\n2\n3\n4\n")]).await;
    call_ok(
        &client,
        "move",
        json!({"name": "draft.md", "to": "final.md"}),
    )
    .await;
    assert_eq!(folder.file("final.md").as_deref(), Some("1\n2\n3\n4\n"));
    call_refused(
        &client,
        "move",
        json!({"name": "final.md", "to": "../x.md"}),
        "outside-root",
    )
    .await;
    assert!(folder.file("final.md").is_some());

    call_ok(&client, "mkdir", json!({"name": "archive"})).await;
    assert!(folder.root.join("archive").is_dir());
    let copied = call_ok(
        &client,
        "copy",
        json!({"name": "final.md", "to": "archive"}),
    )
    .await;
    assert_eq!(copied.reply["to"], "archive/final.md");
    call_refused(
        &client,
        "copy",
        json!({"name": "final.md", "to": ".final.md"}),
        "dotfile-refused",
    )
    .await;

    let tail = call(&client, "read", json!({"name": "final.md", "last": 2})).await;
    assert_eq!(tail.reply["content"], "3\n4\n");
    assert_eq!(tail.reply["lines"], json!({"from": 3, "to": 4, "of": 4}));
    call_refused(
        &client,
        "read",
        json!({"name": "final.md", "first": 1, "last": 1}),
        "malformed-field",
    )
    .await;

    let found = call(&client, "find", json!({"pattern": "FINAL*"})).await;
    assert_eq!(found.reply["total"], 2, "{}", found.reply);
    call_refused(
        &client,
        "find",
        json!({"pattern": "x", "dir": "/etc"}),
        "outside-root",
    )
    .await;
    let info = call(&client, "info", json!({"name": "final.md"})).await;
    assert_eq!(info.reply["info"]["lines"], 4);
    call_refused(&client, "info", json!({"name": "nope.md"}), "not-found").await;
    let entries = audit_entries(&folder.root);
    assert!(entries.iter().any(|e| e["act"]["to"] == "final.md"));
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn a_move_over_a_file_asks_the_person_first() {
    let folder = Folder::holding(&[("a.md", "new"), ("b.md", "old")]);
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
    call_ok(&client, "move", json!({"name": "a.md", "to": "b.md"})).await;
    assert_eq!(folder.file("b.md").as_deref(), Some("new"));
    assert!(folder.file("a.md").is_none());
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn lists_and_an_edit_on_an_old_copy_through_mcp() {
    let (folder, client) = unattended(&[("todo.md", "- [ ] milk\n- [ ] call Sam\n")]).await;
    let read = call(&client, "read", json!({"name": "todo.md"})).await;
    let held = read.reply["sha256"].as_str().unwrap().to_string();
    call_ok(
        &client,
        "check_item",
        json!({"name": "todo.md", "item": "milk", "expect": held}),
    )
    .await;
    assert_eq!(
        folder.file("todo.md").as_deref(),
        Some("- [x] milk\n- [ ] call Sam\n")
    );
    // The copy read before the tick is old now: nothing is written.
    call_refused(
        &client,
        "edit",
        json!({"name": "todo.md", "oldText": "Sam", "newText": "Ann", "expect": held}),
        "changed-since-read",
    )
    .await;
    assert_eq!(
        folder.file("todo.md").as_deref(),
        Some("- [x] milk\n- [ ] call Sam\n")
    );
    let unknown = call_refused(
        &client,
        "check_item",
        json!({"name": "todo.md", "item": "bread"}),
        "item-not-found",
    )
    .await;
    assert_eq!(unknown.reply["candidates"], json!(["milk", "call Sam"]));
    call_ok(
        &client,
        "remove_item",
        json!({"name": "todo.md", "item": "sam"}),
    )
    .await;
    assert_eq!(folder.file("todo.md").as_deref(), Some("- [x] milk\n"));
    call_ok(&client, "undo", json!({"name": "todo.md"})).await;
    assert_eq!(
        folder.file("todo.md").as_deref(),
        Some("- [x] milk\n- [ ] call Sam\n")
    );
    call_refused(
        &client,
        "undo",
        json!({"name": "other.md"}),
        "nothing-to-undo",
    )
    .await;
    client.cancel().await.unwrap();
}
