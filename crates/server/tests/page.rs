//! The server's page as a person uses it every day, in real headless
//! Chromium at a phone's, a tablet's and a laptop's size: nothing reaches past
//! the screen's edge, the newest answer is never under the composer, the
//! conversation outlives a reload, and a person acts from the answer (Undo,
//! Ask again, Open Settings), sees pictures, switches folders and admits an
//! extension with the code printed on the server's console.

mod common;
mod panel;

use common::browser::{self, Browser, VIEWPORTS, Viewport, look_name, looks, served};
use common::{Server, folder_with};
use panel::type_into;
use serde_json::{Value, json};

/// Sends `text` and waits until its turn has an answer (not "Working…").
async fn turn(browser: &Browser, text: &str) {
    let before = browser.turns().await;
    browser.say(text).await;
    browser
        .wait_for(
            &format!("the answer to {text:?}"),
            &format!("const t = document.querySelectorAll('#transcript .turn'); return t.length === {} && !t[t.length - 1].querySelector('.waiting');", before + 1),
        )
        .await;
}

/// A new server with no files, its page open in a new browser at `viewport`.
async fn page_at(viewport: Viewport) -> (Server, Browser) {
    let server = Server::start();
    let browser = Browser::open_page(&server, viewport).await;
    (server, browser)
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
        let (_server, browser) = page_at(viewport).await;
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
            .assert_accessible_both(&format!("a dozen turns at {}", viewport.name))
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
            browser
                .assert_accessible_both(&format!("the {view} view at {}", viewport.name))
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
    let Some(server) = served() else { return };
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
    assert_eq!(server.file("notes.txt"), "nothing much");
    browser
        .js("[...document.querySelectorAll('#transcript .turn')].pop().querySelector('button.undo').click()")
        .await;
    browser
        .wait_last_turn("the undo's answer", "undid the write of notes.txt")
        .await;
    assert_eq!(server.file("notes.txt"), "important plans");
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
        .wait_last_turn("the undo", "undid the write of b.txt")
        .await;
    assert!(!server.root.join("b.txt").exists() && server.root.join("a.txt").exists());

    // A picture answer is an image from a blob: URL, never markup.
    turn(
        &browser,
        "create a file called dot.svg with <svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 10 10'><circle cx='5' cy='5' r='4' fill='teal'/></svg>",
    )
    .await;
    browser.wait_answer_picture().await;
    // A text answer has no picture (the negative control).
    assert_eq!(
        browser.js("return [...document.querySelectorAll('#transcript .turn')].slice(-3, -1).some((t) => t.querySelector('img'))").await,
        false
    );
    browser.photograph("page-picture").await;

    // "Logged" opens the activity row of that act.
    browser
        .js("[...document.querySelectorAll('#transcript .turn')].pop().querySelector('.logged').click()")
        .await;
    browser
        .wait_for("the highlighted activity row", "const r = document.querySelector('#audit-body .highlight'); return !!r && r.querySelector('details').open && r.textContent.includes('dot.svg');")
        .await;

    // A reload keeps the conversation; Clear forgets it.
    let turns = browser.turns().await;
    browser
        .reload_until(
            "the kept conversation",
            &format!("return document.querySelectorAll('#transcript .turn').length === {turns}"),
        )
        .await;
    let kept = browser.text("transcript").await;
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
    assert_eq!(browser.turns().await, 0);
    browser.reload(&server).await;
    assert_eq!(browser.turns().await, 0);
    browser.close().await;
}

/// How many questions the server's audit shows asked.
async fn questions_asked(server: &Server) -> usize {
    server
        .audit()
        .await
        .iter()
        .filter(|e| e["decision"] == "confirm")
        .count()
}

/// A question that runs out of time closes itself into "Timed out — nothing
/// deleted" (nothing is sent and the file stays), and Ask again asks again.
#[tokio::test]
async fn an_expired_question_closes_itself_and_can_be_asked_again() {
    let Some(server) = served() else { return };
    std::fs::write(server.root.join("draft.txt"), "x").unwrap();
    let browser = Browser::open_page(&server, VIEWPORTS[0]).await;
    browser.say_and_ask("delete draft.txt").await;
    let countdown = browser.text("confirm-expiry").await;
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
    browser
        .assert_accessible_both("a question that timed out")
        .await;
    let asks = questions_asked(&server).await;
    browser
        .js("[...document.querySelectorAll('#transcript .turn')].pop().querySelector('.ask-again').click(); Date.now = window.realNow;")
        .await;
    browser.wait_for_modal(true).await;
    browser.click("confirm-no").await;
    browser
        .wait_last_turn("the second answer", "Kept draft.txt.")
        .await;
    assert_eq!(
        questions_asked(&server).await,
        asks + 1,
        "asked again, once"
    );
    assert!(server.root.join("draft.txt").exists());
    browser.close().await;
}

/// The page's question dialog, driven directly: a newer question that voice
/// may answer replaces an older heard one, open or waiting, which closes as
/// "superseded" (so a click can never do a heard change twice); a typed
/// question is never replaced and keeps its No; and the newest heard
/// question is the one a spoken answer settles, or a click says Yes to.
#[tokio::test]
async fn a_newer_heard_question_replaces_an_older_one_but_never_a_typed_one() {
    let Some(server) = served() else { return };
    let browser = Browser::open_page(&server, VIEWPORTS[0]).await;
    let outcome = browser
        .js_async(
            r#"
            const done = arguments[arguments.length - 1];
            (async () => {
              const { createConfirm } = await import('/js/confirm.js');
              const confirm = createConfirm();
              const all = document.querySelectorAll('dialog.confirm');
              const dialog = all[all.length - 1];
              const onScreen = () => dialog.open ? dialog.querySelector('.confirm-plan').textContent : null;
              const tick = () => new Promise((r) => setTimeout(r, 50));
              const got = {};
              const ask = (id, say) => confirm
                .answer({ id, plan: id, ...(say ? { say } : {}) })
                .then((how) => { got[id] = how; });
              const seen = {};

              // Waiting behind a typed question: two heard ones, then the typed No.
              const typed = ask('typed');
              const first = ask('first', 'groceries');
              const second = ask('second', 'groceries');
              await tick();
              seen.typed = onScreen();
              dialog.querySelector('#confirm-no').click();
              await Promise.all([typed, first]);
              await tick();
              seen.second = onScreen();
              confirm.settle('second');
              await second;

              // On screen: a heard question replaced while open, then a Yes.
              const third = ask('third', 'groceries');
              await tick();
              seen.third = onScreen();
              const fourth = ask('fourth', 'delete groceries');
              await third;
              await tick();
              seen.fourth = onScreen();
              dialog.querySelector('#confirm-yes').click();
              await fourth;
              done({ got, seen, open: dialog.open });
            })().catch((e) => done({ error: String(e) }));
            "#,
            vec![],
        )
        .await;
    assert_eq!(
        outcome,
        json!({
            "got": {
                "typed": "no",
                "first": "superseded",
                "second": "spoken",
                "third": "superseded",
                "fourth": "yes",
            },
            "seen": {"typed": "typed", "second": "second", "third": "third", "fourth": "fourth"},
            "open": false,
        })
    );
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
    browser.choose("settings-resolver", "claude").await;
    browser
        .wait_for("the key field for Claude", "return document.activeElement.id === 'key-value' && document.getElementById('key-provider').value === 'anthropic'")
        .await;
    // ... in sight at a laptop's size, not under the dialog's fold.
    browser
        .wait_for(
            "the key field in sight",
            "const k = document.getElementById('key-value').getBoundingClientRect(); const d = document.getElementById('settings').getBoundingClientRect(); return k.top >= d.top && k.bottom <= d.bottom && k.bottom <= window.innerHeight;",
        )
        .await;
    browser
        .wait_text("the header", "resolver", "Claude — needs a key")
        .await;
    browser
        .assert_accessible_both("Settings, a key asked for")
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
        .assert_accessible_both("an answer that needs a key")
        .await;
    browser
        .js("[...document.querySelectorAll('#transcript .turn')].pop().querySelector('.refused button').click()")
        .await;
    browser
        .wait_for(
            "Settings",
            "return document.getElementById('settings').open",
        )
        .await;
    browser.choose("settings-resolver", "script").await;
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
            .contains("listed your folder")
    );
    browser.close().await;
}

/// The folder switcher: the page asks, the person confirms, the header and
/// the files follow, and the new folder's log has the choice. Cancel (the
/// negative control) keeps the folder.
#[tokio::test]
async fn the_folder_switcher_asks_and_a_yes_switches() {
    let Some(server) = served() else { return };
    let other = folder_with(&[("there.txt", "over there")]);
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
        browser.assert_accessible_both("the folder switcher").await;
        type_into(&browser, "folders-path", &other.path().to_string_lossy()).await;
        browser.click_and_ask("folders-use").await;
    };
    choose().await;
    let question = browser.text("confirm-title").await;
    assert_eq!(question, format!("Work in {other_name}?"));
    browser.answer(false).await;
    browser
        .wait_text("the No", "folders-note", "Kept working in")
        .await;
    browser
        .js("document.getElementById('folders').close()")
        .await;
    assert_ne!(browser.text("root-name").await, other_name.as_str());

    choose().await;
    browser
        .assert_accessible_both("the folder switch question")
        .await;
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
    let Some(server) = served() else { return };
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
        .wait_element("admitted", ".extension[data-id=\"reader\"].state-admitted")
        .await;
    browser.photograph("page-extensions").await;
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
        .wait_element("revoked", ".extension[data-id=\"reader\"].state-pending")
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
        "admitted-by-person", "revoked-by-person", "withdrawn-by-person",
    ] {
        assert!(rules.contains(&json!(rule)), "{rule} not in {rules:?}");
    }
    browser.close().await;
}

/// `voicebox serve` with no folder, as a newcomer starts: the page opens the
/// folder switcher at once, the request box waits, and nothing behind the
/// dialog speaks of command lines or API paths. A typed folder that does not
/// exist yet is offered to be made (a plain question, not a red one); the
/// yes makes it and works there, the welcome and its examples stay, the
/// cursor is in the request box, and the first request writes a file. At a
/// phone's, a tablet's and a laptop's size, light and dark.
#[tokio::test]
async fn a_first_run_goes_from_nothing_to_a_written_file() {
    if !browser::available() {
        return;
    }
    for (viewport, dark) in looks() {
        let server = Server::start_with(false);
        let home = tempfile::TempDir::new().unwrap();
        let notes = home.path().join("notes");
        let browser = Browser::start().await;
        browser.resize(viewport).await;
        browser.dark(dark).await;
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
        let live = browser
            .js("const l = document.getElementById('live'); return [l.disabled, l.title];")
            .await;
        assert_eq!(
            live,
            json!([true, "Choose a folder first (the Folder button above)"]),
            "Live waits for a folder too"
        );
        browser
            .wait_for(
                "the files panel's empty state",
                "return document.getElementById('files-status').innerText.includes('No folder is chosen yet')",
            )
            .await;
        let seen = browser.js("return document.body.innerText").await;
        let seen = seen.as_str().unwrap();
        for plumbing in ["/api/", "--root", "root-not-declared"] {
            assert!(!seen.contains(plumbing), "{plumbing:?} is shown: {seen}");
        }
        browser.assert_accessible("the first screen").await;

        type_into(&browser, "folders-path", &notes.to_string_lossy()).await;
        browser.click_and_ask("folders-use").await;
        let question = browser
            .js("const yes = document.getElementById('confirm-yes'); return [document.getElementById('confirm-title').textContent, yes.textContent, yes.classList.contains('danger'), document.getElementById('folders').open, document.getElementById('confirm-rule').checkVisibility()];")
            .await;
        assert_eq!(
            question,
            json!(["Make notes and work there?", "Make it", false, false, false]),
            "one plain question, the switcher out of its way, no rule shown"
        );
        assert!(!notes.exists(), "asking makes nothing");
        browser
            .assert_accessible("the make-a-folder question")
            .await;
        browser
            .screenshot(&format!("first-run-question-{}", look_name(viewport, dark)))
            .await;
        browser.click("confirm-yes").await;
        browser.wait_text("the folder", "root-name", "notes").await;
        assert!(notes.is_dir(), "the yes made the folder");
        browser
            .wait_for(
                "the cursor in the request box",
                "return document.activeElement === document.getElementById('utterance')",
            )
            .await;
        let welcome = browser
            .js("return [document.getElementById('transcript-empty').checkVisibility(), document.querySelectorAll('#examples button').length, document.querySelector('.folder-switched').textContent];")
            .await;
        assert_eq!(welcome, json!([true, 5, "Working in notes."]));
        assert_eq!(
            browser
                .js("return document.getElementById('live').disabled")
                .await,
            false,
            "Live can start once there is a folder"
        );
        browser.assert_accessible("ready in a new folder").await;

        turn(&browser, "create a file called first.txt with hello").await;
        assert_eq!(
            std::fs::read_to_string(notes.join("first.txt")).unwrap(),
            "hello"
        );
        let answer = browser
            .js("return [...document.querySelectorAll('#transcript .turn')].pop().querySelector('.summary').textContent")
            .await;
        assert_eq!(answer, "Created first.txt.");
        browser
            .screenshot(&format!("first-run-written-{}", look_name(viewport, dark)))
            .await;
        browser.close().await;
    }
}

/// Ten everyday requests, and what a person reads back: a sentence first,
/// never a rule id, a byte count or JSON; the exact account (the rule, the
/// size, the activity entry) is behind each answer's Details. Each words
/// check has its control: the Details hold what the words leave out.
#[tokio::test]
async fn answers_are_words_first_with_the_details_one_tap_away() {
    if !browser::available() {
        return;
    }
    // (request, the sentence the answer leads with, the rule behind it)
    let everyday: [(&str, &str, Option<&str>); 10] = [
        (
            "create a file called groceries.txt with eggs",
            "Created groceries.txt.",
            None,
        ),
        (
            "add oat milk to groceries.txt",
            "Added “oat milk” to groceries.txt.",
            None,
        ),
        (
            "what's in groceries.txt",
            "groceries.txt has 2 lines:",
            None,
        ),
        (
            "list the files",
            "Your folder has 1 file: groceries.txt.",
            None,
        ),
        (
            "in groceries.txt change eggs to bread",
            "Changed “eggs” to “bread” in groceries.txt.",
            None,
        ),
        ("search for milk", "Found “milk” once in 1 file.", None),
        (
            "undo",
            "Undid that: groceries.txt holds what it held before.",
            None,
        ),
        ("read ../secret.txt", "", Some("outside-root")),
        ("what's in missing.txt", "", Some("not-found")),
        (
            "make me a sandwich",
            "I can make, read, add to, change, search, list, rename, move, copy and delete",
            None,
        ),
    ];
    for (viewport, dark) in looks() {
        let (_server, browser) = page_at(viewport).await;
        browser.dark(dark).await;
        for (text, lead, rule) in everyday {
            turn(&browser, text).await;
            let answer = browser
                .js("const t = [...document.querySelectorAll('#transcript .turn')].pop(); const a = t.lastElementChild; const d = a.querySelector('.answer-details'); return {shown: a.innerText, rule: t.dataset.rule ?? null, details: d ? d.textContent : null, closed: d ? !d.open : null};")
                .await;
            let shown = answer["shown"].as_str().unwrap();
            assert!(
                shown.contains(lead),
                "{text:?}: {shown:?} does not lead with {lead:?}"
            );
            for plumbing in [" bytes", " B)", "{\"", "seq", "→"] {
                assert!(
                    !shown.contains(plumbing),
                    "{text:?} shows {plumbing:?}: {shown:?}"
                );
            }
            if let Some(rule) = rule {
                assert_eq!(answer["rule"], rule, "{text:?}");
                assert!(
                    !shown.contains(rule),
                    "{text:?} shows its rule id: {shown:?}"
                );
                assert!(
                    answer["details"].as_str().unwrap().contains(rule),
                    "{text:?}: the rule is in the details: {answer}"
                );
            } else if !text.starts_with("make me") {
                let details = answer["details"]
                    .as_str()
                    .unwrap_or_else(|| panic!("{text:?} has no details: {answer}"));
                assert!(details.contains("Activity entry"), "{text:?}: {details:?}");
            }
            if answer["details"].is_string() {
                assert_eq!(answer["closed"], true, "{text:?}: the details start closed");
            }
        }
        // The activity log names the undo as one.
        browser
            .wait_for(
                "the undo in the activity feed",
                "return [...document.querySelectorAll('#audit-body .act-verb')].some((v) => v.textContent === 'Undid')",
            )
            .await;
        // The not-understood answer offers what it can do, one tap each.
        let offered = browser
            .js("return [...document.querySelectorAll('#transcript .turn')].pop().querySelectorAll('.unresolved .example').length")
            .await;
        assert_eq!(offered, 5);
        // The details open, and show the exact account (the control).
        browser
            .js("document.querySelector('#transcript .turn:nth-child(2) .answer-details summary').click()")
            .await;
        let opened = browser
            .js("return document.querySelector('#transcript .turn:nth-child(2) .answer-details').innerText")
            .await;
        assert!(
            opened.as_str().unwrap().contains("appended"),
            "the exact account behind Details: {opened}"
        );
        browser.assert_accessible("ten answers, one opened").await;
        // Delete asks in one sentence, red because something is lost, no rule shown.
        browser.say_and_ask("delete groceries.txt").await;
        let asked = browser
            .js("const yes = document.getElementById('confirm-yes'); return [document.getElementById('confirm-title').textContent, yes.classList.contains('danger'), document.getElementById('confirm-dialog').innerText.includes('delete')];")
            .await;
        assert_eq!(asked, json!(["Delete groceries.txt?", true, false]));
        browser.assert_accessible("the delete question").await;
        browser.answer(true).await;
        browser
            .wait_last_turn(
                "the delete's answer",
                "Deleted groceries.txt; Undo brings it back.",
            )
            .await;
        browser
            .screenshot(&format!("answers-{}", look_name(viewport, dark)))
            .await;
        browser.close().await;
    }
}

/// The request box keeps the composer's width less its two buttons whatever
/// the composer says under it (each kind of status dictation has: the one a
/// browser with no microphone really says, each of the others, the longest),
/// and the status sits on a line of its own: at a phone's, a tablet's and a
/// laptop's width, light and dark.
#[tokio::test]
async fn a_status_never_narrows_the_composer() {
    if !browser::available() {
        return;
    }
    let measure = "const c = document.getElementById('composer'); const cs = getComputedStyle(c); const inner = c.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight); const gap = parseFloat(cs.columnGap); const w = (id) => document.getElementById(id).getBoundingClientRect(); const box = w('utterance'); const status = w('composer-status'); return {box: box.width, room: inner - w('dictate').width - w('send').width - 2 * gap, below: status.height === 0 || status.top >= box.bottom - 1};";
    for (viewport, dark) in looks() {
        let (_server, browser) = page_at(viewport).await;
        browser.dark(dark).await;
        let before = browser.js(measure).await;
        let room = before["room"].as_f64().unwrap();
        assert!(before["box"].as_f64().unwrap() >= room - 1.0, "{before}");
        // The real one: Speak in a browser with no microphone says so.
        browser.click("dictate").await;
        browser
            .wait_for(
                "what Speak says",
                "return document.getElementById('composer-status').textContent !== ''",
            )
            .await;
        let mut statuses = vec![
            browser
                .text("composer-status")
                .await
                .as_str()
                .unwrap()
                .to_string(),
        ];
        statuses.extend(
            [
                "microphone permission was denied",
                "speech recognition is not allowed here",
                "no speech was heard",
                "no microphone was found",
                "the speech service could not be reached",
            ]
            .map(|why| format!("Dictation stopped: {why}.")),
        );
        statuses.push(format!(
            "Dictation could not start: {}.",
            "a very long reason ".repeat(8)
        ));
        for status in statuses {
            browser
                .js(&format!(
                    "document.getElementById('composer-status').textContent = {status:?}"
                ))
                .await;
            let after = browser.js(measure).await;
            assert!(
                after["box"].as_f64().unwrap() >= room - 1.0 && after["below"] == true,
                "after {status:?} at {} the request box is {after} (room {room})",
                viewport.name
            );
        }
        browser
            .assert_accessible(&format!(
                "a long status under the composer at {}",
                look_name(viewport, dark)
            ))
            .await;
        browser
            .screenshot(&format!("composer-status-{}", look_name(viewport, dark)))
            .await;
        browser.close().await;
    }
}

/// Every control a phone or a tablet shows is at least 44 × 44 px, in each
/// view, with an answer's Undo, Logged and Details, and in each dialog
/// (Settings, help, the folder switcher); Speak is a named microphone. Each
/// state is checked by axe-core too, light and dark. The smallest control
/// seen is printed (`--nocapture`) for the record.
#[tokio::test]
async fn every_control_on_a_touch_screen_is_big_enough_for_a_finger() {
    if !browser::available() {
        return;
    }
    for viewport in [VIEWPORTS[0], VIEWPORTS[1]] {
        let (_server, browser) = page_at(viewport).await;
        turn(&browser, "create a file called hello.txt with hi").await;
        turn(&browser, "read ../secret.txt").await;
        let speak = browser
            .js("const s = document.getElementById('dictate'); return [s.getAttribute('aria-label'), !!s.querySelector('.mic svg')]")
            .await;
        assert_eq!(speak, json!(["Speak", true]));
        let mut small = Vec::new();
        let mut smallest = (f64::MAX, f64::MAX, 0);
        let mut measure = async |state: String| {
            small.extend(
                browser
                    .small_targets()
                    .await
                    .into_iter()
                    .map(|s| format!("{state}: {s}")),
            );
            let least = browser
                .js("const seen = (e) => e.checkVisibility({visibilityProperty: true}) && !e.closest('dialog:not([open])'); const r = [...document.querySelectorAll('button, a[href], summary, select, textarea, input')].filter(seen).map((e) => e.matches('input[type=checkbox], input[type=radio]') && e.closest('label') ? e.closest('label') : e).map((e) => e.getBoundingClientRect()).filter((r) => r.width > 0); return [Math.min(...r.map((b) => b.width)), Math.min(...r.map((b) => b.height)), r.length];")
                .await;
            smallest.0 = smallest.0.min(least[0].as_f64().unwrap());
            smallest.1 = smallest.1.min(least[1].as_f64().unwrap());
            smallest.2 += least[2].as_u64().unwrap();
            browser
                .assert_accessible_both(&format!("{state} at {}", viewport.name))
                .await;
        };
        for view in ["chat", "files", "activity", "extensions"] {
            browser
                .js(&format!(
                    "document.querySelector('#views [data-show={view:?}]').click()"
                ))
                .await;
            if view == "files" {
                browser
                    .wait_text("the file list", "files", "hello.txt")
                    .await;
            }
            measure(format!("the {view} view")).await;
        }
        browser
            .js("document.querySelector('#views [data-show=\"chat\"]').click()")
            .await;
        for (opener, dialog) in [
            ("settings-open", "settings"),
            ("help-open", "help"),
            ("folder-open", "folders"),
        ] {
            browser
                .js(&format!("document.getElementById({opener:?}).click()"))
                .await;
            browser
                .wait_for(
                    &format!("the {dialog} dialog"),
                    &format!("return document.getElementById({dialog:?}).open"),
                )
                .await;
            measure(format!("the {dialog} dialog")).await;
            browser
                .js(&format!("document.getElementById({dialog:?}).close()"))
                .await;
        }
        assert!(
            small.is_empty(),
            "controls under 44 × 44 px at {}: {small:#?}",
            viewport.name
        );
        println!(
            "{}: {} controls measured over 7 states, the narrowest {} px wide, the shortest {} px tall",
            viewport.name, smallest.2, smallest.0, smallest.1
        );
        // The control: the measure sees a small control when there is one (a
        // checkbox with no label to press).
        browser
            .js("const b = document.createElement('input'); b.type = 'checkbox'; b.id = 'tiny'; document.getElementById('composer').append(b);")
            .await;
        let seen = browser.small_targets().await;
        assert!(
            seen.len() == 1 && seen[0].starts_with("input#tiny"),
            "{seen:?}"
        );
        browser.close().await;
    }
}

/// A file's name is what a row is about: in the Files panel and in
/// Activity it is shown whole at a phone's, a tablet's and a laptop's width
/// (it wraps rather than being cut), and no panel's tools push past it. The
/// control: the measure sees a name that is cut when one is.
#[tokio::test]
async fn file_names_are_shown_whole_at_every_width() {
    if !browser::available() {
        return;
    }
    let names = ["groceries for the week.txt", "meeting-notes-2026-12-01.md"];
    // Cut by its own box, or pushed past its panel (a side column that scrolls sideways).
    let cut = "return [...document.querySelectorAll('#files .file-name, #audit-body .act-object, .side .panel-head button')].filter((e) => e.checkVisibility() && (e.scrollWidth > e.clientWidth + 1 || e.getBoundingClientRect().right > e.closest('.panel').getBoundingClientRect().right)).map((e) => `${e.closest('.panel').id} ${e.textContent} ${e.clientWidth}/${e.scrollWidth} ${e.getBoundingClientRect().right}/${e.closest('.panel').getBoundingClientRect().right}`)";
    for viewport in VIEWPORTS {
        let server = Server::start();
        for name in names {
            std::fs::write(server.root.join(name), "x").unwrap();
        }
        let browser = Browser::open_page(&server, viewport).await;
        for name in names {
            turn(&browser, &format!("what's in {name}")).await;
        }
        for view in ["files", "activity"] {
            browser
                .js(&format!(
                    "document.querySelector('#views [data-show={view:?}]').click()"
                ))
                .await;
            let list = if view == "files" {
                "files"
            } else {
                "audit-body"
            };
            for name in names {
                browser
                    .wait_text(&format!("{name} in {view}"), list, name)
                    .await;
            }
            browser
                .screenshot(&format!("file-names-{view}-{}", viewport.name))
                .await;
            let seen = browser.js(cut).await;
            assert_eq!(seen, json!([]), "names cut in {view} at {}", viewport.name);
        }
        if viewport.width == 768 {
            browser
                .js("const s = document.createElement('span'); s.className = 'file-name'; s.textContent = 'x'.repeat(300); s.style.display = 'block'; s.style.overflow = 'hidden'; s.style.whiteSpace = 'nowrap'; document.getElementById('files').append(s);")
                .await;
            let control = browser.js(cut).await;
            assert_eq!(control.as_array().map(Vec::len), Some(1), "{control}");
        }
        browser.close().await;
    }
}

/// On a phone the header stays one row whatever the folder is called: a
/// long name is cut in its chip (the chip's title holds it whole), and
/// help stays beside it. The control: a short name shows whole.
#[tokio::test]
async fn a_long_folder_name_keeps_the_phone_header_on_one_row() {
    if !browser::available() {
        return;
    }
    for (name, whole) in [("groceries-and-weekly-plans-2026", false), ("notes", true)] {
        let server = Server::start_with(false);
        let parent = tempfile::TempDir::new().unwrap();
        let folder = parent.path().join(name);
        std::fs::create_dir(&folder).unwrap();
        server
            .post_with_token("/api/root", json!({"path": folder}))
            .await;
        let browser = Browser::start().await;
        browser.resize(VIEWPORTS[0]).await;
        browser.client.goto(&server.page_url).await.unwrap();
        browser
            .wait_for(
                "the folder in the header",
                &format!("return document.getElementById('folder-open').title.includes({name:?})"),
            )
            .await;
        let header = browser
            .js("const r = (id) => document.getElementById(id).getBoundingClientRect(); const n = document.getElementById('root-name'); return [r('help-open').top < r('folder-open').bottom && r('resolver-chip').top < r('folder-open').bottom, n.scrollWidth <= n.clientWidth, document.getElementById('folder-open').title.includes(n.textContent)];")
            .await;
        assert_eq!(header, json!([true, whole, true]), "{name}");
        browser
            .assert_no_sideways_overflow(VIEWPORTS[0], "the header")
            .await;
        browser.close().await;
    }
}

/// Installable: the page links a manifest (standalone, with its icons
/// served), its service worker registers and takes the page over, the
/// shell it keeps has no API answer in it, and with the server stopped the
/// page still opens from that copy, saying the server is away.
#[tokio::test]
async fn the_page_installs_and_opens_from_its_kept_shell_with_the_server_stopped() {
    if !browser::available() {
        return;
    }
    for (viewport, dark) in looks() {
        installs_and_opens_offline(viewport, dark).await;
    }
}

/// One run of the test above, at one size and in one look.
async fn installs_and_opens_offline(viewport: Viewport, dark: bool) {
    let (server, browser) = page_at(viewport).await;
    browser.dark(dark).await;
    let manifest = browser
        .js_async(
            "const done = arguments[0]; fetch(document.querySelector('link[rel=manifest]').href).then(async (r) => done([r.status, r.headers.get('content-type'), await r.json()]), (e) => done(String(e)));",
            vec![],
        )
        .await;
    assert_eq!(manifest[0], 200, "{manifest}");
    assert_eq!(manifest[1], "application/manifest+json");
    assert_eq!(manifest[2]["display"], "standalone");
    let icons = manifest[2]["icons"].as_array().unwrap();
    assert!(
        icons
            .iter()
            .any(|i| i["sizes"] == "512x512" && i["type"] == "image/png")
    );
    for icon in icons {
        let (status, kind) = (
            browser
                .js_async(
                    "const done = arguments[1]; fetch(arguments[0]).then((r) => done([r.status, r.headers.get('content-type')]));",
                    vec![icon["src"].clone()],
                )
                .await,
            icon["type"].clone(),
        );
        assert_eq!(status, json!([200, kind]), "{icon}");
    }
    // Kept after this one visit: the page, what it loaded, what its modules name.
    let kept = browser
        .wait_kept(&[
            "/", "/app.js", "/style.css", "/workspace.css", "/js/transcript.js",
            "/js/live-worklet.js", "/manifest.webmanifest", "/icons/icon-512.png",
        ])
        .await;
    assert!(
        !kept.iter().any(|k| k.starts_with("/api/")),
        "an API answer was kept: {kept:?}"
    );
    let base = server.base.clone();
    drop(server);
    browser.client.goto(&base).await.unwrap();
    browser
        .wait_for(
            "the page from the kept shell, saying the server is away",
            "const n = document.getElementById('health-note'); return !!document.getElementById('composer') && !!n && !n.hidden;",
        )
        .await;
    let said = browser
        .js("return [document.getElementById('health-note').innerText, document.getElementById('root-name').textContent]")
        .await;
    let note = said[0].as_str().unwrap();
    assert!(
        note.contains("Voicebox could not be reached") && !note.contains("/api/"),
        "the banner says it in words: {note:?}"
    );
    assert_eq!(said[1], "Not connected");
    let look = look_name(viewport, dark);
    browser
        .assert_accessible(&format!("the kept shell, server stopped, {look}"))
        .await;
    browser
        .screenshot(&format!("page-offline-shell-{look}"))
        .await;
    browser.close().await;
}

/// The look is the person's choice (Settings): light or dark whatever the
/// system says, or the system's; kept across a reload.
#[tokio::test]
async fn the_look_follows_the_choice_in_settings() {
    let Some(server) = served() else { return };
    let browser = Browser::open_page(&server, VIEWPORTS[2]).await;
    browser.dark(false).await;
    let background = "return getComputedStyle(document.body).backgroundColor";
    let light = browser.js(background).await;
    browser
        .js("document.getElementById('settings-open').click()")
        .await;
    browser.choose("theme", "dark").await;
    let dark = browser.js(background).await;
    assert_ne!(light, dark, "dark on a light system");
    browser.reload(&server).await;
    assert_eq!(browser.js(background).await, dark, "kept across a reload");
    browser.assert_accessible("the dark look by choice").await;
    browser.choose("theme", "system").await;
    assert_eq!(browser.js(background).await, light, "the system's again");
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
        // A parent whose name reads like a home folder in the picture.
        let parent = tempfile::Builder::new().prefix("home-").tempdir().unwrap();
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

/// The `?` help is made from the phrasings the resolver and the offline
/// grammar share: every verb said aloud has its line, none that is not
/// (tools), and an example copied from it does what its line says.
#[tokio::test]
async fn the_help_lists_the_shared_phrasings_and_its_examples_work() {
    let Some(server) = served() else { return };
    let browser = Browser::open_page(&server, VIEWPORTS[0]).await;
    browser
        .js("document.getElementById('help-open').click()")
        .await;
    browser
        .wait_for(
            "the help made from the phrasings",
            "return document.querySelectorAll('#help-list li[data-verb]').length > 10",
        )
        .await;
    let verbs = browser
        .js("return [...document.querySelectorAll('#help-list li')].map((l) => l.dataset.verb)")
        .await;
    let verbs: Vec<&str> = verbs
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    for said in [
        "write", "read", "append", "delete", "undo", "move", "changes",
    ] {
        assert!(verbs.contains(&said), "{said} in {verbs:?}");
    }
    assert!(!verbs.contains(&"tool"), "{verbs:?}");
    let write = browser
        .js("return document.querySelector('#help-list li[data-verb=write]').textContent")
        .await;
    let write = write.as_str().unwrap();
    let example = write
        .split('“')
        .nth(1)
        .and_then(|rest| rest.split('”').next())
        .unwrap();
    assert_eq!(
        example, "create a file called plan.md with buy milk",
        "{write}"
    );
    browser.js("document.getElementById('help').close()").await;
    turn(&browser, example).await;
    assert_eq!(
        std::fs::read_to_string(server.root.join("plan.md")).unwrap(),
        "buy milk"
    );
}
