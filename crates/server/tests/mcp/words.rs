//! A person's own words through MCP (`say`): read as the page reads them,
//! a sure reading done at once, a guess put to the person as the page
//! puts it ("Did you mean: …?") and done only on their yes, and words not
//! understood answered with why and nothing done.

use super::person::{Person, connect};
use super::{Called, Folder, audit_entries, call, call_ok, declined_each_way};
use rmcp::RoleClient;
use rmcp::model::ElicitationAction;
use rmcp::service::RunningService;
use serde_json::json;

/// A typo in the command word: the resolver's best reading is a guess.
const GUESSED: &str = "ad oat milk to groceries.md";
const GUESS: &str = "Did you mean: add 'oat milk' to groceries.md?";

/// `say` with `args`, refused by `rule` as a tool error; the refusal is the
/// turn's result, as `POST /api/turn` answers.
async fn said_refused(
    client: &RunningService<RoleClient, Person>,
    args: serde_json::Value,
    rule: &str,
) -> Called {
    let called = call(client, "say", args).await;
    assert!(called.error, "refused: {}", called.line);
    assert_eq!(called.reply["result"]["refused"], rule, "{}", called.reply);
    assert!(
        called.line.starts_with(&format!("{rule}: ")),
        "{}",
        called.line
    );
    called
}

#[tokio::test(flavor = "multi_thread")]
async fn a_guess_is_asked_did_you_mean_and_done_only_on_yes() {
    let folder = Folder::holding(&[("groceries.md", "- eggs\n")]);
    let words = json!({"words": GUESSED});
    for kept in declined_each_way(&folder, "say", words, GUESS).await {
        assert_eq!(kept.reply["asked"]["confirm"]["rule"], "unsure-change");
        assert_eq!(kept.reply["transcript"], GUESSED, "the words are kept");
    }
    assert_eq!(folder.file("groceries.md").as_deref(), Some("- eggs\n"));
    let person = Person::answering(ElicitationAction::Accept);
    let client = connect(&folder, person.clone()).await;
    let done = call_ok(&client, "say", json!({"words": GUESSED})).await;
    assert!(person.asked()[0].starts_with(GUESS), "{:?}", person.asked());
    assert_eq!(done.reply["action"]["verb"], "append");
    assert_eq!(done.reply["changes"], true);
    let groceries = folder.file("groceries.md").unwrap();
    assert!(groceries.contains("oat milk"), "{groceries}");
    // The control: words the resolver is sure of are done with no question.
    call_ok(
        &client,
        "say",
        json!({"words": "add bread to groceries.md"}),
    )
    .await;
    assert_eq!(person.asked().len(), 1, "{:?}", person.asked());
    assert!(folder.file("groceries.md").unwrap().contains("bread"));
    let entries = audit_entries(&folder.root);
    let declined = entries.iter().filter(|e| e["rule"] == "declined").count();
    assert_eq!(declined, 2, "each no is on record");
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn a_client_that_cannot_ask_gets_the_guess_refused_by_name() {
    let folder = Folder::holding(&[("groceries.md", "- eggs\n")]);
    let client = connect(&folder, Person::none()).await;
    let refused = said_refused(
        &client,
        json!({"words": GUESSED}),
        "confirmation-unavailable",
    )
    .await;
    assert!(
        refused.line.contains("I guessed: add 'oat milk'"),
        "{}",
        refused.line
    );
    assert_eq!(folder.file("groceries.md").as_deref(), Some("- eggs\n"));
    // A sure look needs no one's yes.
    let read = call_ok(&client, "say", json!({"words": "what's in groceries.md"})).await;
    assert_eq!(read.reply["result"]["content"], "- eggs\n");
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn words_not_understood_or_not_words_are_answered_and_nothing_is_done() {
    let folder = Folder::holding(&[("groceries.md", "- eggs\n")]);
    let person = Person::answering(ElicitationAction::Accept);
    let client = connect(&folder, person.clone()).await;
    let small_talk = call(&client, "say", json!({"words": "hello there how are you"})).await;
    assert!(small_talk.error);
    assert!(
        small_talk.line.contains("Try"),
        "says what it can do: {}",
        small_talk.line
    );
    assert_eq!(small_talk.reply["action"], serde_json::Value::Null);
    for (args, rule) in [
        (json!({}), "missing-argument"),
        (json!({"words": 7}), "malformed-field"),
        (
            json!({"words": "delete groceries.md", "yes": true}),
            "unknown-field",
        ),
    ] {
        said_refused(&client, args, rule).await;
    }
    assert!(person.asked().is_empty(), "{:?}", person.asked());
    assert_eq!(folder.file("groceries.md").as_deref(), Some("- eggs\n"));
    // The control: the same folder, a change said surely, is done.
    call_ok(&client, "say", json!({"words": "add rice to groceries.md"})).await;
    assert!(folder.file("groceries.md").unwrap().contains("rice"));
    client.cancel().await.unwrap();
}
