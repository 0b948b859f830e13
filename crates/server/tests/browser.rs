//! The page in real headless Chromium: type a request and see it done; the
//! delete modal (No keeps the file, Yes removes it); a hostile file name is
//! shown as text and creates no element.

mod common;

use common::Server;
use common::browser::{self, Browser};
use fantoccini::Locator;
use serde_json::json;

/// A script that is true once the last turn in the transcript contains `text`.
fn last_turn_has(text: &str) -> String {
    format!(
        "const t = [...document.querySelectorAll('#transcript .turn')].pop(); return !!t && t.textContent.includes({text:?});"
    )
}

#[tokio::test]
async fn a_person_works_in_their_folder_from_the_page() {
    if !browser::available() {
        return;
    }
    let server = Server::start();
    let hostile = "<img src=x onerror=alert(1)>";
    std::fs::write(server.root.join(hostile), "boo").unwrap();
    let browser = Browser::open_page(&server, browser::VIEWPORTS[2]).await;
    let page = &browser.client;

    // An example to try puts its words in the composer.
    browser
        .js("document.querySelector('#examples .example').click()")
        .await;
    assert_eq!(
        browser
            .js("return document.getElementById('utterance').value")
            .await,
        "create a file called hello.txt with hi"
    );

    // Type a request and see the result, in the transcript and on disk.
    browser.say("create a file called hello.txt with hi").await;
    browser
        .wait_for("the write", &last_turn_has("wrote hello.txt (2 bytes)"))
        .await;
    assert_eq!(
        std::fs::read_to_string(server.root.join("hello.txt")).unwrap(),
        "hi"
    );
    browser
        .wait_text("hello.txt in the file list", "files", "hello.txt")
        .await;

    // A refusal shows its rule and why.
    browser.say("read ../secret.txt").await;
    browser
        .wait_for("a named refusal", "const t = [...document.querySelectorAll('#transcript .turn')].pop(); const r = t && t.querySelector('.refused .rule'); return !!r && r.textContent === 'outside-root';")
        .await;
    // Its sentence's `code` spans are code, never backticks shown as they are.
    let why = browser
        .js("const t = [...document.querySelectorAll('#transcript .turn')].pop(); const w = t.querySelector('.refused .why'); return [w.querySelector('code') && w.querySelector('code').textContent, w.textContent.includes('`')];")
        .await;
    assert_eq!(why, json!(["../secret.txt", false]), "{why}");

    // A file that is not there is information, not a refusal.
    browser.say("read nothere.txt").await;
    browser
        .wait_for(
            "a neutral not-found",
            "const t = [...document.querySelectorAll('#transcript .turn')].pop(); const n = t && t.querySelector('.not-found'); return !!n && n.textContent.startsWith('Not found') && !t.querySelector('.refused');",
        )
        .await;

    // Delete asks; No keeps the file.
    browser.say("delete hello.txt").await;
    browser.wait_for_modal(true).await;
    let plan = page
        .find(Locator::Id("confirm-plan"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(plan.contains("hello.txt"), "{plan}");
    // Plain words: the question, what yes means, and the answers' names.
    let words = browser
        .js("return ['confirm-title', 'confirm-why', 'confirm-yes', 'confirm-no'].map((id) => document.getElementById(id).textContent);")
        .await;
    assert_eq!(
        words,
        json!([
            "Delete hello.txt?",
            "You can bring it back with undo.",
            "Delete",
            "Cancel"
        ])
    );
    browser.screenshot("confirm-modal").await;
    browser.click("confirm-no").await;
    browser.wait_for_modal(false).await;
    // The person's own No is a neutral "Kept", not a refusal.
    browser
        .wait_for(
            "the declined answer",
            "const t = [...document.querySelectorAll('#transcript .turn')].pop(); const d = t && t.querySelector('.declined'); return !!d && d.textContent === 'Kept hello.txt.' && !t.querySelector('.refused');",
        )
        .await;
    assert!(server.root.join("hello.txt").exists(), "No keeps the file");

    // Escape is also No.
    browser.say("delete hello.txt").await;
    browser.wait_for_modal(true).await;
    page.active_element()
        .await
        .unwrap()
        .send_keys("\u{e00c}")
        .await
        .unwrap();
    browser.wait_for_modal(false).await;
    browser
        .wait_for("the declined answer", &last_turn_has("Kept hello.txt."))
        .await;
    assert!(
        server.root.join("hello.txt").exists(),
        "Escape keeps the file"
    );

    // Yes removes it.
    browser.say("delete hello.txt").await;
    browser.wait_for_modal(true).await;
    browser.click("confirm-yes").await;
    browser
        .wait_for("the delete", &last_turn_has("deleted hello.txt"))
        .await;
    assert!(
        !server.root.join("hello.txt").exists(),
        "Yes removes the file"
    );

    // The hostile name: text in the file list and in the transcript, no element.
    browser.say("list files").await;
    browser
        .wait_for("the listing", &last_turn_has(hostile))
        .await;
    browser.wait_text("the file list", "files", hostile).await;
    browser
        .assert_none("img, [onerror]", "no element was created from the name")
        .await;
    let alerts = browser.js("return typeof window.__alerted").await;
    assert_eq!(alerts, "undefined");
    // The activity view shows the acts.
    browser
        .wait_for(
            "the activity feed",
            "return document.querySelectorAll('#audit-body .activity-row').length >= 6",
        )
        .await;
    // ... and the core's verdict on the log's chain; an edited line shows as a break.
    browser
        .wait_text("the chain verdict", "audit-notes", "chain ok")
        .await;
    let shot = browser.screenshot("page").await;
    assert!(std::fs::metadata(shot).unwrap().len() > 10_000);
    let log = std::fs::read_dir(server.root.join(".audit"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .unwrap();
    let text = std::fs::read_to_string(&log).unwrap();
    std::fs::write(&log, text.replacen("hello.txt", "hallo.txt", 1)).unwrap();
    browser.click("audit-refresh").await;
    browser
        .wait_for(
            "the break",
            "const n = document.getElementById('audit-notes').textContent; return n.includes('chain is broken') && n.includes('edited');",
        )
        .await;
    browser.close().await;
}

/// A guessed change on the page: the dialog asks the sentence, not a rule;
/// No puts what the person typed back in the box; Yes does it.
#[tokio::test]
async fn a_guess_is_asked_as_did_you_mean_and_no_keeps_the_sentence() {
    if !browser::available() {
        return;
    }
    let server = Server::start();
    std::fs::write(server.root.join("todo.txt"), "milk\n").unwrap();
    let browser = Browser::open_page(&server, browser::VIEWPORTS[2]).await;
    let typed = "apend eggs to todo.txt";
    browser.say(typed).await;
    browser.wait_for_modal(true).await;
    let title = browser
        .js("return document.getElementById('confirm-title').textContent")
        .await;
    assert_eq!(title, "Did you mean: add 'eggs' to todo.txt?");
    browser.click("confirm-no").await;
    browser.wait_for_modal(false).await;
    browser
        .wait_for(
            "the sentence back in the box",
            &format!("return document.getElementById('utterance').value === {typed:?};"),
        )
        .await;
    assert_eq!(
        std::fs::read_to_string(server.root.join("todo.txt")).unwrap(),
        "milk\n",
        "No does nothing"
    );
    // Yes does it; a sure request asks nothing (the control).
    browser.say(typed).await;
    browser.wait_for_modal(true).await;
    browser.click("confirm-yes").await;
    browser
        .wait_for("the append", &last_turn_has("appended"))
        .await;
    assert_eq!(
        std::fs::read_to_string(server.root.join("todo.txt")).unwrap(),
        "milk\neggs"
    );
    browser.say("append bread to todo.txt").await;
    browser
        .wait_for("the sure append", &last_turn_has("appended"))
        .await;
    assert_eq!(
        std::fs::read_to_string(server.root.join("todo.txt")).unwrap(),
        "milk\neggs\nbread"
    );
}
