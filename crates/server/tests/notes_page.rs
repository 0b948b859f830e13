//! The page's viewer with the notes verbs, in real headless Chromium: a
//! Markdown checklist's items are checkboxes that tick through `check_item`
//! (on disk and in the audit), and a Save made on a copy someone changed
//! since is refused `changed-since-read`, shows the newer copy and the diff,
//! keeps what was typed, and a second Save writes it; a folder is made from
//! the panel and the file renamed into it from the viewer.

mod common;
mod panel;

use common::browser::{Browser, served};
use panel::{edit_to_diff, move_open_file, open_entry, type_into};

#[tokio::test]
async fn a_checklist_ticks_and_a_save_on_an_old_copy_shows_the_newer_one() {
    let Some(server) = served() else { return };
    let file = |name: &str| std::fs::read_to_string(server.root.join(name)).unwrap();
    std::fs::write(
        server.root.join("list.md"),
        "# Shop\n- [ ] milk\n- [ ] eggs\n",
    )
    .unwrap();
    std::fs::write(server.root.join("note.md"), "v1\n").unwrap();
    let browser = Browser::start().await;
    browser.client.goto(&server.page_url).await.unwrap();
    browser.wait_text("the listing", "files", "list.md").await;

    open_entry(&browser, "list.md").await;
    browser
        .wait_for(
            "the items as checkboxes",
            "return document.querySelectorAll('#viewer-body input.checklist-box').length === 2;",
        )
        .await;
    browser
        .js("document.querySelector('#viewer-body input.checklist-box[aria-label=\"eggs\"]').click();")
        .await;
    browser
        .wait_element(
            "the tick's answer",
            "#viewer-answer .did, #viewer-answer [data-rule]",
        )
        .await;
    let said = browser
        .js("return document.getElementById('viewer-answer').textContent;")
        .await;
    assert!(said.as_str().unwrap().contains("Ticked"), "{said}");
    let ticked = browser
        .js("return document.querySelector('#viewer-body input.checklist-box[aria-label=\"eggs\"]').checked;")
        .await;
    assert_eq!(ticked, true, "the tick is read back from the file");
    assert_eq!(file("list.md"), "# Shop\n- [ ] milk\n- [x] eggs\n");
    let ticks = server
        .audit()
        .await
        .into_iter()
        .filter(|e| {
            e["act"]["target"] == "list.md" && e["act"]["kind"] == "write" && e["result"] == "ok"
        })
        .count();
    assert_eq!(ticks, 1, "the tick is one audited change");
    // The sibling: the other item is untouched.
    let milk = browser
        .js("return document.querySelector('#viewer-body input.checklist-box[aria-label=\"milk\"]').checked;")
        .await;
    assert_eq!(milk, false);

    open_entry(&browser, "note.md").await;
    edit_to_diff(&browser, "mine\n", &["+mine"]).await;
    // Someone else saves the file while the editor holds the old copy.
    std::fs::write(server.root.join("note.md"), "theirs\n").unwrap();
    browser.click("viewer-save").await;
    browser
        .wait_for(
            "the newer copy and the diff",
            "const n = document.getElementById('viewer-newer-copy'); const d = document.querySelector('#viewer-newer pre.diff'); return !!n && n.textContent === 'theirs\\n' && !!d && d.textContent.includes('-theirs') && d.textContent.includes('+mine');",
        )
        .await;
    browser.screenshot("notes-newer-copy").await;
    assert_eq!(file("note.md"), "theirs\n", "nothing was written over it");
    let rule = browser
        .js("return document.querySelector('#viewer-newer [data-rule]').dataset.rule;")
        .await;
    assert_eq!(rule, "changed-since-read");
    let kept = browser
        .js("return document.getElementById('viewer-editor').value;")
        .await;
    assert_eq!(kept, "mine\n", "what was typed is kept");
    // Having seen it, the person saves again (diff, then write): it is written.
    browser.click("viewer-save").await;
    browser
        .wait_for("the diff again", "return !!document.querySelector('#viewer-answer pre.diff') && document.getElementById('viewer-save').textContent.includes('write');")
        .await;
    browser.click("viewer-save").await;
    browser
        .wait_for(
            "the save shown",
            "const p = document.querySelector('#viewer-body pre.content'); return !!p && p.textContent === 'mine\\n';",
        )
        .await;
    assert_eq!(file("note.md"), "mine\n");

    // A new folder from the panel, then the open file renamed into it.
    browser.click("files-new-folder").await;
    type_into(&browser, "new-folder-name", "archive").await;
    browser.click("new-folder-make").await;
    browser
        .wait_text("the new folder listed", "files", "archive")
        .await;
    assert!(server.root.join("archive").is_dir());
    move_open_file(&browser, "archive/final.md").await;
    browser
        .wait_for(
            "the viewer follows the file",
            "return document.getElementById('viewer-name').textContent === 'archive/final.md';",
        )
        .await;
    assert_eq!(file("archive/final.md"), "mine\n");
    assert!(!server.root.join("note.md").exists());
    // The refused sibling: a name outside the folder is refused by name, nothing moves.
    move_open_file(&browser, "../out.md").await;
    browser
        .wait_for(
            "the refusal under the file",
            "const r = document.querySelector('#viewer-answer [data-rule]'); return !!r && r.dataset.rule === 'outside-root';",
        )
        .await;
    assert_eq!(file("archive/final.md"), "mine\n");
}

/// An empty folder shown in the panel can be deleted from it: the core asks
/// first, a No keeps it, a Yes removes it and the panel goes up; a folder
/// with anything in it offers no such button.
#[tokio::test]
async fn an_empty_folder_is_deleted_from_the_panel_after_asking() {
    let Some(server) = served() else { return };
    std::fs::create_dir(server.root.join("empty")).unwrap();
    std::fs::create_dir(server.root.join("full")).unwrap();
    std::fs::write(server.root.join("full/keep.md"), "kept\n").unwrap();
    let browser = Browser::start().await;
    browser.client.goto(&server.page_url).await.unwrap();

    open_entry(&browser, "full").await;
    browser
        .wait_text("the full folder listed", "files", "keep.md")
        .await;
    let offered = browser
        .js("return !!document.getElementById('folder-delete');")
        .await;
    assert_eq!(
        offered, false,
        "a folder with a file in it offers no delete"
    );
    browser.click("files-up").await;

    open_entry(&browser, "empty").await;
    browser
        .wait_for(
            "the empty folder's delete",
            "return !!document.getElementById('folder-delete');",
        )
        .await;
    browser.click("folder-delete").await;
    browser
        .wait_for(
            "the question",
            "return document.getElementById('confirm-dialog').open;",
        )
        .await;
    browser.click("confirm-no").await;
    browser
        .wait_for(
            "the No under the button",
            "return document.getElementById('folder-delete-answer').textContent.length > 0;",
        )
        .await;
    assert!(server.root.join("empty").is_dir(), "a No keeps the folder");

    browser.click("folder-delete").await;
    browser
        .wait_for(
            "the question again",
            "return document.getElementById('confirm-dialog').open;",
        )
        .await;
    browser.click("confirm-yes").await;
    browser
        .wait_for(
            "back at the top, without the folder",
            "return !document.querySelector('#files li[data-name=\"empty\"]') && !!document.querySelector('#files li[data-name=\"full\"]');",
        )
        .await;
    assert!(!server.root.join("empty").exists(), "a Yes removes it");
    assert!(server.root.join("full/keep.md").exists());
}
