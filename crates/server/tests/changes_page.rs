//! The page's branch badge and Changes view, in real headless Chromium,
//! over a repository the test builds: the badge names the branch and says
//! the folder has uncommitted changes, the view lists the changed file and
//! opens its diff against the last commit. The control: a folder with no
//! repository shows neither.

mod common;

use common::browser::{Browser, served};
use voicebox_test_support::audit_files;

#[tokio::test]
async fn the_badge_and_the_changes_view_show_what_is_uncommitted() {
    let Some(server) = served() else { return };
    common::repo::changed_repository(&server.root);
    let browser = Browser::start().await;
    browser.client.goto(&server.page_url).await.unwrap();
    browser
        .wait_text("the badge", "branch", "main · 1 uncommitted")
        .await;
    browser
        .wait_text("the changed file", "changes-list", "notes.md")
        .await;
    browser
        .js("document.querySelector('#changes-list button').click();")
        .await;
    browser
        .wait_text("its diff against the last commit", "changes-diff", "+eggs")
        .await;
    // Each look went through the executor and is in the audit log.
    let audit: String = audit_files(&server.root)
        .into_iter()
        .map(|log| std::fs::read_to_string(log).unwrap_or_default())
        .collect();
    assert!(audit.contains("\"tool\":\"history\""), "{audit}");
}

#[tokio::test]
async fn a_folder_with_no_repository_shows_no_badge_and_no_view() {
    let Some(server) = served() else { return };
    std::fs::write(server.root.join("notes.md"), "milk\n").unwrap();
    let browser = Browser::start().await;
    browser.client.goto(&server.page_url).await.unwrap();
    browser.wait_text("the listing", "files", "notes.md").await;
    browser
        .wait_for(
            "the refusal seen and nothing shown",
            "return document.getElementById('changes-note').textContent.length > 0 \
             && document.getElementById('branch').hidden \
             && document.getElementById('changes').hidden \
             && document.getElementById('changes-tab').hidden;",
        )
        .await;
}
