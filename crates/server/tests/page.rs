//! The server's page as a person uses it every day, in real headless
//! Chromium at a phone's, a tablet's and a laptop's size: nothing reaches past
//! the screen's edge, the newest answer is never under the composer, the
//! conversation outlives a reload, and a person acts from the answer (Undo,
//! Ask again, Open Settings), sees pictures, switches folders and admits an
//! extension with the code printed on the server's console.

mod common;
mod panel;

use common::Server;
use common::browser::{self, Browser, VIEWPORTS};
use panel::type_into;
use serde_json::{Value, json};

/// Sends `text` and waits until its turn has an answer (not "Working…").
async fn turn(browser: &Browser, text: &str) {
    let before = browser
        .js("return document.querySelectorAll('#transcript .turn').length")
        .await
        .as_u64()
        .unwrap();
    browser.say(text).await;
    browser
        .wait_for(
            &format!("the answer to {text:?}"),
            &format!("const t = document.querySelectorAll('#transcript .turn'); return t.length === {} && !t[t.length - 1].querySelector('.waiting');", before + 1),
        )
        .await;
}

/// Where the newest answer is against the composer and its scroller.
async fn newest_answer(browser: &Browser) -> Value {
    browser
        .js("const t = [...document.querySelectorAll('#transcript .turn')].pop(); const a = t.lastElementChild.getBoundingClientRect(); const c = document.getElementById('composer').getBoundingClientRect(); const s = document.getElementById('transcript-scroll').getBoundingClientRect(); return {bottom: a.bottom, top: a.top, composer: c.top, scroller: s.top, scrollerBottom: s.bottom};")
        .await
}

const TURNS: [&str; 12] = [
    "create a file called hello.txt with hi",
    "what's in hello.txt",
    "list the files",
    "add a line saying second to hello.txt",
    "create a file called notes.md with buy milk",
    "in notes.md change milk to oat milk",
    "search for milk",
    "read ../secret.txt",
    "what's in missing.txt",
    "make me a sandwich",
    "show me notes.md",
    "list the files",
];

/// At every size from 360 to 1440 px: no sideways overflow on any view, and
/// after each of a dozen turns the newest answer is fully above the composer.
#[tokio::test]
async fn the_page_holds_at_every_width_and_shows_each_answer_as_it_arrives() {
    if !browser::available() {
        return;
    }
    for viewport in browser::every_size() {
        let server = Server::start();
        let browser = Browser::open_page(&server, viewport).await;
        browser
            .assert_no_sideways_overflow(viewport, "the page on arrival")
            .await;
        for text in TURNS {
            turn(&browser, text).await;
            // Smooth or not, the view settles on the newest answer.
            browser
                .wait_for(
                    "the newest answer above the composer",
                    "const t = [...document.querySelectorAll('#transcript .turn')].pop(); const a = t.lastElementChild.getBoundingClientRect(); const c = document.getElementById('composer').getBoundingClientRect(); return a.bottom <= c.top + 1 && a.bottom > 0;",
                )
                .await;
            let at = newest_answer(&browser).await;
            let (bottom, top) = (at["bottom"].as_f64().unwrap(), at["top"].as_f64().unwrap());
            let scroller = at["scroller"].as_f64().unwrap();
            assert!(
                bottom <= at["composer"].as_f64().unwrap() + 1.0
                    && (top >= scroller - 1.0
                        || bottom - top > at["scrollerBottom"].as_f64().unwrap() - scroller),
                "{}: after {text:?} the newest answer is not fully shown above the composer: {at}",
                viewport.name
            );
        }
        browser
            .assert_no_sideways_overflow(viewport, "the page after a dozen turns")
            .await;
        browser
            .screenshot(&format!("page-{}-chat", viewport.name))
            .await;
        // Each view fits, and on a phone the tabs choose what shows.
        for view in ["files", "activity", "extensions"] {
            browser
                .js(&format!(
                    "document.querySelector('#views [data-show={view:?}]').click()"
                ))
                .await;
            let panel_shows = browser
                .js(&format!("return [...document.querySelectorAll('.side [data-view={view:?}]')].every((p) => p.getBoundingClientRect().width > 0)"))
                .await;
            assert_eq!(
                panel_shows, true,
                "{}: the {view} view shows its panels",
                viewport.name
            );
            browser
                .assert_no_sideways_overflow(viewport, &format!("the {view} view"))
                .await;
            if viewport.mobile && viewport.width < 721 {
                let chat_hidden = browser
                    .js("return document.querySelector('.conversation').getBoundingClientRect().width === 0")
                    .await;
                assert_eq!(chat_hidden, true, "a phone shows one view at a time");
            }
        }
        browser
            .screenshot(&format!("page-{}-activity", viewport.name))
            .await;
        browser.close().await;
    }
}

/// Undo on the newest change's card restores the file; a replace says what
/// it replaced; an SVG answer is an `<img src=blob:>`; the conversation
/// outlives a reload, and Clear forgets it.
#[tokio::test]
async fn a_person_acts_from_the_answer_and_the_conversation_outlives_a_reload() {
    if !browser::available() {
        return;
    }
    let server = Server::start();
    let browser = Browser::open_page(&server, VIEWPORTS[2]).await;
    std::fs::write(server.root.join("notes.txt"), "important plans").unwrap();

    // A replace says so, and its Undo brings back what the file held.
    turn(&browser, "overwrite notes.txt with nothing much").await;
    let said = browser
        .js("return [...document.querySelectorAll('#transcript .turn')].pop().textContent")
        .await;
    assert!(
        said.as_str()
            .unwrap()
            .contains("replaced notes.txt (15 → 12 bytes)"),
        "{said}"
    );
    assert_eq!(
        std::fs::read_to_string(server.root.join("notes.txt")).unwrap(),
        "nothing much"
    );
    browser
        .js("[...document.querySelectorAll('#transcript .turn')].pop().querySelector('button.undo').click()")
        .await;
    browser
        .wait_for("the undo's answer", "const t = [...document.querySelectorAll('#transcript .turn')].pop(); return t.textContent.includes('undid the write of notes.txt');")
        .await;
    assert_eq!(
        std::fs::read_to_string(server.root.join("notes.txt")).unwrap(),
        "important plans"
    );
    // Only the newest change offers Undo, and an undo spends it.
    assert_eq!(
        browser
            .js("return document.querySelectorAll('#transcript button.undo').length")
            .await,
        0
    );
    turn(&browser, "create a file called a.txt with one").await;
    turn(&browser, "create a file called b.txt with two").await;
    assert_eq!(
        browser
            .js("return document.querySelectorAll('#transcript button.undo').length")
            .await,
        1
    );
    // A look changes nothing: its card offers no Undo, and the change's stays.
    turn(&browser, "what's in a.txt").await;
    assert_eq!(
        browser
            .js("const t = [...document.querySelectorAll('#transcript .turn')]; return [t.pop().querySelectorAll('button.undo').length, document.querySelectorAll('#transcript button.undo').length];")
            .await,
        json!([0, 1])
    );
    browser
        .js("document.querySelector('#transcript button.undo').click()")
        .await;
    browser
        .wait_for("the undo", "return [...document.querySelectorAll('#transcript .turn')].pop().textContent.includes('undid the write of b.txt')")
        .await;
    assert!(!server.root.join("b.txt").exists() && server.root.join("a.txt").exists());

    // A picture answer is an image from a blob: URL, never markup.
    turn(
        &browser,
        "create a file called dot.svg with <svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 10 10'><circle cx='5' cy='5' r='4' fill='teal'/></svg>",
    )
    .await;
    browser
        .wait_for("the picture in the answer", "const t = [...document.querySelectorAll('#transcript .turn')].pop(); const i = t.querySelector('img.answer-picture'); return !!i && i.src.startsWith('blob:') && i.complete && i.naturalWidth > 0;")
        .await;
    browser
        .assert_none(
            "#transcript svg, #transcript circle",
            "no SVG markup in the page",
        )
        .await;
    // A text answer has no picture (the negative control).
    assert_eq!(
        browser.js("return [...document.querySelectorAll('#transcript .turn')].slice(-3, -1).some((t) => t.querySelector('img'))").await,
        false
    );
    browser.screenshot("page-picture").await;

    // "Logged" opens the activity row of that act.
    browser
        .js("[...document.querySelectorAll('#transcript .turn')].pop().querySelector('.logged').click()")
        .await;
    browser
        .wait_for("the highlighted activity row", "const r = document.querySelector('#audit-body .highlight'); return !!r && r.querySelector('details').open && r.textContent.includes('dot.svg');")
        .await;

    // A reload keeps the conversation; Clear forgets it.
    let turns = browser
        .js("return document.querySelectorAll('#transcript .turn').length")
        .await;
    browser.client.refresh().await.unwrap();
    browser
        .wait_for(
            "the kept conversation",
            &format!("return document.querySelectorAll('#transcript .turn').length === {turns}"),
        )
        .await;
    let kept = browser
        .js("return document.getElementById('transcript').textContent")
        .await;
    assert!(
        kept.as_str().unwrap().contains("replaced notes.txt"),
        "{kept}"
    );
    assert_eq!(
        browser
            .js("return document.querySelectorAll('#transcript button.undo').length")
            .await,
        0,
        "a reloaded card offers no Undo: the folder may have moved on"
    );
    browser.click("transcript-menu").await;
    browser.click("transcript-clear").await;
    assert_eq!(
        browser
            .js("return document.querySelectorAll('#transcript .turn').length")
            .await,
        0
    );
    browser.client.refresh().await.unwrap();
    browser
        .wait_text(
            "the folder",
            "root-name",
            &server.root.file_name().unwrap().to_string_lossy(),
        )
        .await;
    assert_eq!(
        browser
            .js("return document.querySelectorAll('#transcript .turn').length")
            .await,
        0
    );
    browser.close().await;
}

/// A question that runs out of time closes itself into "Timed out — nothing
/// deleted" (nothing is sent and the file stays), and Ask again asks again.
#[tokio::test]
async fn an_expired_question_closes_itself_and_can_be_asked_again() {
    if !browser::available() {
        return;
    }
    let server = Server::start();
    std::fs::write(server.root.join("draft.txt"), "x").unwrap();
    let browser = Browser::open_page(&server, VIEWPORTS[0]).await;
    browser.say("delete draft.txt").await;
    browser.wait_for_modal(true).await;
    let countdown = browser
        .js("return document.getElementById('confirm-expiry').textContent")
        .await;
    let countdown = countdown.as_str().unwrap();
    assert!(
        countdown == "This question expires in 5:00."
            || countdown.starts_with("This question expires in 4:5"),
        "{countdown}"
    );
    // The page's clock jumps past the question's expiry (the server's own
    // expiry is checked by the core's tests).
    browser
        .js("window.realNow = Date.now.bind(Date); Date.now = () => window.realNow() + 6 * 60 * 1000;")
        .await;
    browser.wait_for_modal(false).await;
    browser
        .wait_for("the timed-out card", "const t = [...document.querySelectorAll('#transcript .turn')].pop(); return !!t.querySelector('.timed-out') && t.textContent.includes('Timed out — nothing deleted.');")
        .await;
    assert!(server.root.join("draft.txt").exists());
    let asks = server
        .audit()
        .await
        .iter()
        .filter(|e| e["decision"] == "confirm")
        .count();
    browser
        .js("[...document.querySelectorAll('#transcript .turn')].pop().querySelector('.ask-again').click(); Date.now = window.realNow;")
        .await;
    browser.wait_for_modal(true).await;
    browser.click("confirm-no").await;
    browser
        .wait_for("the second answer", "return [...document.querySelectorAll('#transcript .turn')].pop().textContent.includes('Kept draft.txt.')")
        .await;
    assert_eq!(
        server
            .audit()
            .await
            .iter()
            .filter(|e| e["decision"] == "confirm")
            .count(),
        asks + 1,
        "asked again, once"
    );
    assert!(server.root.join("draft.txt").exists());
    browser.close().await;
}

/// A provider without a key is marked in Settings and choosing it opens its
/// key field; a turn then says it isn't set up, with a way to Settings. The
/// built-in choice (the positive control) answers.
#[tokio::test]
async fn a_provider_without_a_key_says_so_before_any_turn_fails() {
    if !browser::available() {
        return;
    }
    let server = Server::start_with_env(&[("VOICEBOX_ANTHROPIC_BASE_URL", "http://127.0.0.1:9")]);
    let browser = Browser::open_page(&server, VIEWPORTS[2]).await;
    browser.click("resolver-chip").await;
    browser
        .wait_for("the resolvers", "return [...document.querySelectorAll('#settings-resolver option')].some((o) => o.value === 'claude' && o.textContent === 'Claude — needs a key')")
        .await;
    browser
        .js("const s = document.getElementById('settings-resolver'); s.value = 'claude'; s.dispatchEvent(new Event('change'));")
        .await;
    browser
        .wait_for("the key field for Claude", "return document.activeElement.id === 'key-value' && document.getElementById('key-provider').value === 'anthropic'")
        .await;
    browser
        .wait_text("the header", "resolver", "Claude — needs a key")
        .await;
    browser.screenshot("page-settings-needs-key").await;
    browser.click("settings-close").await;
    turn(&browser, "list the files").await;
    let card = browser
        .js("const t = [...document.querySelectorAll('#transcript .turn')].pop(); return [t.dataset.rule, t.querySelector('.refused-label').textContent, t.querySelector('.why').textContent];")
        .await;
    assert_eq!(card[0], "key-missing", "{card}");
    assert_eq!(card[1], "Not set up");
    assert!(
        card[2]
            .as_str()
            .unwrap()
            .starts_with("Claude isn't set up yet"),
        "{card}"
    );
    browser
        .js("[...document.querySelectorAll('#transcript .turn')].pop().querySelector('.refused button').click()")
        .await;
    browser
        .wait_for(
            "Settings",
            "return document.getElementById('settings').open",
        )
        .await;
    browser
        .js("const s = document.getElementById('settings-resolver'); s.value = 'script'; s.dispatchEvent(new Event('change'));")
        .await;
    browser
        .wait_text("the header", "resolver", "Built in")
        .await;
    browser.click("settings-close").await;
    turn(&browser, "list the files").await;
    assert!(
        browser
            .js("return [...document.querySelectorAll('#transcript .turn')].pop().textContent")
            .await
            .as_str()
            .unwrap()
            .contains("listed the root")
    );
    browser.close().await;
}

/// The folder switcher: the page asks, the person confirms, the header and
/// the files follow, and the new folder's log has the choice. Cancel (the
/// negative control) keeps the folder.
#[tokio::test]
async fn the_folder_switcher_asks_and_a_yes_switches() {
    if !browser::available() {
        return;
    }
    let server = Server::start();
    let other = tempfile::TempDir::new().unwrap();
    std::fs::write(other.path().join("there.txt"), "over there").unwrap();
    let other_name = other
        .path()
        .file_name()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    let browser = Browser::open_page(&server, VIEWPORTS[0]).await;
    let choose = async || {
        browser.click("folder-open").await;
        browser
            .wait_for(
                "the folder dialog",
                "return document.getElementById('folders').open",
            )
            .await;
        type_into(&browser, "folders-path", &other.path().to_string_lossy()).await;
        browser.click("folders-use").await;
        browser.wait_for_modal(true).await;
    };
    choose().await;
    let question = browser
        .js("return document.getElementById('confirm-title').textContent")
        .await;
    assert_eq!(question, format!("Work in {other_name}?"));
    browser.click("confirm-no").await;
    browser.wait_for_modal(false).await;
    browser
        .wait_text("the No", "folders-note", "Kept working in")
        .await;
    browser
        .js("document.getElementById('folders').close()")
        .await;
    assert_ne!(
        browser
            .js("return document.getElementById('root-name').textContent")
            .await,
        other_name.as_str()
    );

    choose().await;
    browser.screenshot("page-folder-switch").await;
    browser.click("confirm-yes").await;
    browser
        .wait_text("the new folder in the header", "root-name", &other_name)
        .await;
    browser
        .js("document.querySelector('#views [data-show=\"files\"]').click()")
        .await;
    browser.wait_text("its files", "files", "there.txt").await;
    let chosen = server.audit().await;
    assert!(
        chosen.iter().any(|e| e["rule"] == "declared-by-person"),
        "{chosen:?}"
    );
    browser
        .js("document.querySelector('#views [data-show=\"chat\"]').click()")
        .await;
    turn(&browser, "create a file called here.txt with now").await;
    assert!(other.path().join("here.txt").exists() && !server.root.join("here.txt").exists());
    browser.close().await;
}

/// Admitting an extension from the panel needs the code printed on the
/// server's console: a wrong code is refused by name, the right one admits,
/// Revoke stops it, and Remove takes a refused proposal away.
#[tokio::test]
async fn an_extension_is_admitted_with_the_code_on_the_console() {
    if !browser::available() {
        return;
    }
    let server = Server::start();
    let reader = json!({"id": "reader", "description": "reads one file", "capabilities": ["read"],
                        "tools": [{"name": "r", "primitive": "read-file"}]});
    let greedy = json!({"id": "greedy", "description": "wants to run programs", "capabilities": ["exec"],
                        "tools": [{"name": "x", "primitive": "read-file"}]});
    for descriptor in [&reader, &greedy] {
        server
            .post(
                "/api/extensions/proposals",
                json!({"descriptor": descriptor}),
            )
            .await;
    }
    let browser = Browser::open_page(&server, VIEWPORTS[1]).await;
    browser.click("extensions-refresh").await;
    browser
        .wait_for("both proposals", "return !!document.querySelector('.extension[data-id=\"reader\"] .admit') && !!document.querySelector('.extension[data-id=\"greedy\"].state-refused .extension-problems')")
        .await;
    browser
        .js("document.querySelector('.extension[data-id=\"reader\"] .admit').click()")
        .await;
    let code = server.console_code(0).await;
    browser
        .wait_for(
            "the code field",
            "return document.activeElement.id === 'admit-code-reader'",
        )
        .await;
    let wrong = if code == "00000000" {
        "11111111"
    } else {
        "00000000"
    };
    type_into(&browser, "admit-code-reader", wrong).await;
    browser
        .js("document.querySelector('.extension[data-id=\"reader\"] .admit-form .primary').click()")
        .await;
    browser
        .wait_text(
            "the wrong code's refusal",
            "extensions-note",
            "code-invalid",
        )
        .await;
    browser
        .js("document.querySelector('.extension[data-id=\"reader\"] .admit').click()")
        .await;
    let code = server.console_code(1).await;
    browser
        .wait_for(
            "the code field",
            "return document.activeElement.id === 'admit-code-reader'",
        )
        .await;
    type_into(&browser, "admit-code-reader", &code).await;
    browser
        .js("document.querySelector('.extension[data-id=\"reader\"] .admit-form .primary').click()")
        .await;
    browser
        .wait_for(
            "admitted",
            "return !!document.querySelector('.extension[data-id=\"reader\"].state-admitted')",
        )
        .await;
    browser.screenshot("page-extensions").await;
    let listed = server.get("/api/extensions").await.1;
    assert!(
        listed["extensions"]
            .as_array()
            .unwrap()
            .iter()
            .any(|x| x["id"] == "reader" && x["state"] == "admitted"),
        "{listed}"
    );
    // Revoke, and Remove the refused one: both audited, both gone from the list's states.
    browser
        .js("document.querySelector('.extension[data-id=\"reader\"] .danger').click()")
        .await;
    browser
        .wait_for(
            "revoked",
            "return !!document.querySelector('.extension[data-id=\"reader\"].state-pending')",
        )
        .await;
    browser.js("[...document.querySelectorAll('.extension[data-id=\"greedy\"] button')].find((b) => b.textContent === 'Remove').click()").await;
    browser
        .wait_for("removed", "return !document.querySelector('.extension[data-id=\"greedy\"]') && !!document.querySelector('.extension[data-id=\"reader\"]')")
        .await;
    let rules: Vec<Value> = server
        .audit()
        .await
        .into_iter()
        .map(|e| e["rule"].clone())
        .collect();
    for rule in [
        "admitted-by-person",
        "revoked-by-person",
        "withdrawn-by-person",
    ] {
        assert!(rules.contains(&json!(rule)), "{rule} not in {rules:?}");
    }
    browser.close().await;
}

/// `voicebox serve` with no folder: the page opens the folder switcher at
/// once and the request box waits for a folder; choosing one (confirmed)
/// makes the page ready.
#[tokio::test]
async fn with_no_folder_the_page_asks_for_one_first() {
    if !browser::available() {
        return;
    }
    let server = Server::start_with(false);
    let folder = tempfile::TempDir::new().unwrap();
    let browser = Browser::start().await;
    browser.resize(VIEWPORTS[0]).await;
    browser.client.goto(&server.page_url).await.unwrap();
    browser
        .wait_for(
            "the folder switcher",
            "return document.getElementById('folders').open",
        )
        .await;
    let waiting = browser
        .js("const u = document.getElementById('utterance'); return [u.disabled, u.placeholder, document.getElementById('root-name').textContent];")
        .await;
    assert_eq!(
        waiting,
        json!([
            true,
            "Choose a folder first (the Folder button above)",
            "Choose a folder"
        ])
    );
    browser.screenshot("page-no-folder").await;
    type_into(&browser, "folders-path", &folder.path().to_string_lossy()).await;
    browser.click("folders-use").await;
    browser.wait_for_modal(true).await;
    browser.click("confirm-yes").await;
    let name = folder
        .path()
        .file_name()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    browser.wait_text("the folder", "root-name", &name).await;
    assert_eq!(
        browser
            .js("return document.getElementById('utterance').disabled")
            .await,
        false
    );
    turn(&browser, "create a file called first.txt with hello").await;
    assert!(folder.path().join("first.txt").exists());
    browser.close().await;
}

/// The README's pictures (run by hand: `cargo test -p voicebox --test page
/// -- --ignored tour`): a folder named `notes` after a few turns, at a
/// laptop's and a phone's size, written to docs/.
#[tokio::test]
#[ignore = "writes the README's screenshots, run by hand"]
async fn tour() {
    if !browser::available() {
        return;
    }
    let docs = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs");
    for (viewport, name) in [
        (VIEWPORTS[2], "tour-laptop.png"),
        (VIEWPORTS[0], "tour-phone.png"),
    ] {
        let server = Server::start();
        let parent = tempfile::TempDir::new().unwrap();
        let notes = parent.path().join("notes");
        std::fs::create_dir(&notes).unwrap();
        std::fs::write(notes.join("todo.txt"), "call the plumber\n").unwrap();
        server
            .post_with_token("/api/root", json!({"path": notes}))
            .await;
        let browser = Browser::start().await;
        browser.resize(viewport).await;
        browser.client.goto(&server.page_url).await.unwrap();
        browser.wait_text("the folder", "root-name", "notes").await;
        for text in [
            "create a file called groceries.md with eggs, milk, bread",
            "add a line saying coffee to groceries.md",
            "what's in groceries.md",
            "read ../secret.txt",
        ] {
            turn(&browser, text).await;
        }
        let shot = browser.screenshot("tour").await;
        std::fs::copy(shot, docs.join(name)).unwrap();
        browser.close().await;
    }
}
