//! Steps on the folder panel (web/js/files.js, web/js/viewer.js), the same on
//! the server's page and the environment page: they drive the panel as a
//! person does, by its stable ids.
#![allow(dead_code)]

use crate::common::browser::Browser;
use fantoccini::Locator;

/// Types `text` into the field with this id, after clearing it.
pub async fn type_into(browser: &Browser, id: &str, text: &str) {
    let field = browser
        .client
        .find(Locator::Id(id))
        .await
        .unwrap_or_else(|e| panic!("#{id}: {e}"));
    field.clear().await.unwrap();
    field.send_keys(text).await.unwrap();
}

/// Clicks the file list's entry for `name`.
pub async fn open_entry(browser: &Browser, name: &str) {
    let entry = format!("#files li[data-name={name:?}] button");
    browser
        .wait_element(&format!("{name} in the file list"), &entry)
        .await;
    browser
        .js(&format!("document.querySelector({entry:?}).click()"))
        .await;
}

/// Waits until the viewer shows `name` with this text.
pub async fn wait_shown(browser: &Browser, name: &str, content: &str) {
    browser
        .wait_for(
            &format!("{name} in the viewer"),
            &format!(
                "const p = document.querySelector('#viewer-body pre.content'); return document.getElementById('viewer-name').textContent === {name:?} && !!p && p.textContent === {content:?};"
            ),
        )
        .await;
}

/// Moves the open file to `to` with the viewer's Move.
pub async fn move_open_file(browser: &Browser, to: &str) {
    browser.click("viewer-move").await;
    type_into(browser, "viewer-move-to", to).await;
    browser.click("viewer-move-go").await;
}

/// Edits the open file to `text` and presses Save once: the executor's diff
/// shows (containing every one of `expect`) and nothing is written yet.
pub async fn edit_to_diff(browser: &Browser, text: &str, expect: &[&str]) {
    browser.click("viewer-edit").await;
    type_into(browser, "viewer-editor", text).await;
    browser.click("viewer-save").await;
    let checks: String = expect
        .iter()
        .map(|line| format!(" && d.textContent.includes({line:?})"))
        .collect();
    browser
        .wait_for(
            "the diff",
            &format!(
                "const d = document.querySelector('#viewer-answer pre.diff'); return !!d{checks};"
            ),
        )
        .await;
}
