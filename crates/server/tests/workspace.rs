//! The folder panel as a workspace on the server's page, in real headless
//! Chromium: a new file from the panel, open, edit, the executor's diff before
//! anything is written, save (on disk and in the audit) beside cancel (disk
//! unchanged), a refused save that keeps what was typed, delete through the
//! shared dialog (No keeps, Yes removes), an SVG shown as `<img src=blob:…>`
//! and a download link to the content as read.

mod common;
mod panel;

use common::Server;
use common::browser::{Browser, served};
use panel::{edit_to_diff, open_entry, type_into, wait_shown};
use serde_json::{Value, json};

/// The audit's write entries for `target` that succeeded.
async fn writes_of(server: &Server, target: &str) -> Vec<Value> {
    server
        .audit()
        .await
        .into_iter()
        .filter(|e| {
            e["act"]["kind"] == "write" && e["act"]["target"] == target && e["result"] == "ok"
        })
        .collect()
}

#[tokio::test]
async fn the_file_panel_creates_edits_with_a_diff_first_deletes_and_shows_pictures() {
    let Some(server) = served() else { return };
    let svg = "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 10 10' width='40' height='40'><circle cx='5' cy='5' r='4' fill='teal'/></svg>";
    std::fs::write(server.root.join("pic.svg"), svg).unwrap();
    std::fs::write(server.root.join("keep.txt"), "old").unwrap();
    let browser = Browser::start().await;
    browser.client.goto(&server.page_url).await.unwrap();
    browser.wait_text("the listing", "files", "pic.svg").await;

    // The breadcrumb names the folder itself, its full path on hover.
    let own = server.root.file_name().unwrap().to_str().unwrap();
    let crumb = browser
        .js("const c = document.querySelector('#breadcrumb .crumb-root'); return [c.textContent, c.title];")
        .await;
    assert_eq!(crumb, json!([own, server.root.to_str().unwrap()]));

    // New file: name and content from the panel → a write through the executor.
    browser.click("files-new").await;
    type_into(&browser, "new-file-name", "notes.txt").await;
    type_into(&browser, "new-file-content", "first line\n").await;
    browser.click("new-file-create").await;
    wait_shown(&browser, "notes.txt", "first line\n").await;
    assert_eq!(server.file("notes.txt"), "first line\n");
    assert_eq!(
        writes_of(&server, "notes.txt").await.len(),
        1,
        "the create is audited"
    );
    browser
        .wait_text("the new file listed", "files", "notes.txt")
        .await;

    // Download: a blob: link (the page's CSP lets no script fetch it back), named after the file.
    let link = browser
        .js("const a = document.getElementById('viewer-download'); return [a.href.startsWith('blob:'), a.download, a.hasAttribute('download')];")
        .await;
    assert_eq!(link, json!([true, "notes.txt", true]));

    // A New file over a name that exists asks first; No keeps the file and what was typed.
    browser.click("files-new").await;
    type_into(&browser, "new-file-name", "keep.txt").await;
    type_into(&browser, "new-file-content", "new").await;
    browser.click_and_answer("new-file-create", false).await;
    browser.wait_declined("#new-file-answer").await;
    assert_eq!(server.file("keep.txt"), "old");
    let kept = browser
        .js("return [document.getElementById('new-file-name').value, document.getElementById('new-file-content').value]")
        .await;
    assert_eq!(kept, json!(["keep.txt", "new"]), "nothing typed is lost");
    browser.click("new-file-cancel").await;

    // Edit → Save shows the executor's diff and writes nothing …
    open_entry(&browser, "notes.txt").await;
    wait_shown(&browser, "notes.txt", "first line\n").await;
    browser.click("viewer-edit").await;
    assert_eq!(
        browser
            .js("return document.getElementById('viewer-editor').value")
            .await,
        "first line\n"
    );
    type_into(&browser, "viewer-editor", "second line\n").await;
    browser.click("viewer-save").await;
    browser
        .wait_for(
            "the diff",
            "const d = document.querySelector('#viewer-answer pre.diff'); return !!d && d.textContent.includes('-first line') && d.textContent.includes('+second line');",
        )
        .await;
    browser.photograph("workspace-diff").await;
    assert_eq!(
        server.file("notes.txt"),
        "first line\n",
        "the diff writes nothing"
    );
    assert_eq!(writes_of(&server, "notes.txt").await.len(), 1);

    // … and Cancel discards it: the disk and the audit are unchanged.
    browser.click("viewer-cancel").await;
    wait_shown(&browser, "notes.txt", "first line\n").await;
    assert_eq!(
        server.file("notes.txt"),
        "first line\n",
        "Cancel writes nothing"
    );
    assert_eq!(writes_of(&server, "notes.txt").await.len(), 1);

    // The same edit saved twice (diff, then write): on disk and in the audit.
    edit_to_diff(&browser, "second line\n", &[]).await;
    browser.click("viewer-save").await;
    wait_shown(&browser, "notes.txt", "second line\n").await;
    assert_eq!(server.file("notes.txt"), "second line\n");
    let writes = writes_of(&server, "notes.txt").await;
    assert_eq!(writes.len(), 2, "the save is audited: {writes:?}");

    // A save the core refuses (too large to be an action) names its rule, and
    // the editor keeps every character typed.
    browser.click("viewer-edit").await;
    browser
        .js("const e = document.getElementById('viewer-editor'); e.value = 'x'.repeat((1 << 20) + 1); e.dispatchEvent(new Event('input'));")
        .await;
    browser.click("viewer-save").await;
    browser
        .wait_for(
            "a named refusal under the editor",
            "const r = document.querySelector('#viewer-answer [data-rule]'); return !!r && r.dataset.rule !== '';",
        )
        .await;
    let after = browser
        .js("return [document.getElementById('viewer-editor').value.length, document.querySelector('#viewer-answer [data-rule]').dataset.rule]")
        .await;
    assert_eq!(after[0], (1 << 20) + 1, "the text is kept: {after}");
    assert_eq!(server.file("notes.txt"), "second line\n");
    browser.click("viewer-cancel").await;

    // Delete asks in the shared dialog: No keeps the file …
    browser.click_and_ask("viewer-delete").await;
    browser.assert_plan_names("notes.txt").await;
    browser.answer(false).await;
    browser.wait_declined("#viewer-answer").await;
    assert!(server.root.join("notes.txt").exists(), "No keeps the file");
    // … Yes removes it, and the list follows.
    browser.click_and_answer("viewer-delete", true).await;
    browser
        .wait_for(
            "the file gone from the list",
            "return !document.querySelector('#files li[data-name=\"notes.txt\"]') && document.querySelectorAll('#files li').length > 0",
        )
        .await;
    assert!(
        !server.root.join("notes.txt").exists(),
        "Yes removes the file"
    );

    // An SVG is a picture: an <img> from a blob: URL, never inline markup
    // (the page's own microphone icons aside).
    open_entry(&browser, "pic.svg").await;
    browser
        .wait_picture("the picture", "#viewer-body img.viewer-picture")
        .await;
    let picture = browser
        .js("const i = document.querySelector('#viewer-body img'); return [i.src.startsWith('blob:'), [...document.querySelectorAll('svg, circle')].filter((e) => !e.closest('.mic')).length, document.getElementById('viewer-download').href.startsWith('blob:')];")
        .await;
    assert_eq!(picture, json!([true, 0, true]), "{picture}");
    browser.photograph("workspace-picture").await;
    browser.close().await;
}
