//! The environment page as a person sees it, in real headless Chromium: one
//! project switcher and one status chip in the header, "↳ write hello.txt"
//! in the transcript (never the action's JSON), no sideways overflow from a
//! 360 px phone to a 1440 px screen, the workspace files panel over the
//! worker (its acts in the worker's audit), and the exported static site with
//! no console error — beside the controls that show each check can fail.

mod common;
mod panel;
mod static_site;

use common::browser::{self, Browser};
use common::env_checks::{self, act, done, holds, moved_into_a_new_folder, refused};
use panel::{edit_to_diff, open_entry, type_into, wait_shown};
use serde_json::{Value, json};
use static_site::StaticSite;

/// Opens (or creates) `name` from the header's "Projects" form, as a person does.
async fn open_from_header(browser: &Browser, name: &str) {
    browser
        .js("document.getElementById('project-more').open = true")
        .await;
    type_into(browser, "project-name", name).await;
    browser.click("project-open").await;
    browser
        .wait_for(
            &format!("{name} in the chip"),
            &format!(
                "return document.getElementById('project-chip-text').textContent.startsWith({:?}) && document.getElementById('project-switch').value === {name:?}",
                format!("{name} · ")
            ),
        )
        .await;
}

/// Says `text` and waits until the last turn has an answer that includes `answer`.
async fn say_and_wait(browser: &Browser, text: &str, answer: &str) {
    browser.say(text).await;
    browser
        .wait_for(
            answer,
            &format!(
                "const t = [...document.querySelectorAll('#transcript .turn')].pop(); return !!t && !t.querySelector('.waiting') && t.textContent.includes({answer:?});"
            ),
        )
        .await;
}

/// The two turns a new project starts with here: hello.txt written with
/// "hi", then the files listed with it among them.
async fn write_and_list_hello(browser: &Browser) {
    say_and_wait(
        browser,
        "create a file called hello.txt with hi",
        "wrote hello.txt",
    )
    .await;
    say_and_wait(browser, "list the files", "hello.txt").await;
}

/// The worker's audit entries of `kind` on `target` that succeeded.
async fn entries(browser: &Browser, kind: &str, target: &str) -> Vec<Value> {
    browser
        .audit_entries()
        .await
        .into_iter()
        .filter(|e| e["act"]["kind"] == kind && e["act"]["target"] == target && e["result"] == "ok")
        .collect()
}

#[tokio::test]
async fn the_header_is_one_switcher_and_one_chip_and_nothing_overflows() {
    let Some((_server, browser)) = env_checks::served_page().await else {
        return;
    };
    // Served by `voicebox serve`: the page found its server (the probe's positive control).
    browser
        .wait_element("the server found", "#server-root[data-state=idle]")
        .await;
    let mut opened = Vec::new();
    for (i, size) in browser::every_size().into_iter().enumerate() {
        browser.resize(size).await;
        let name = format!("atlas-{i}");
        open_from_header(&browser, &name).await;
        opened.push(name.clone());
        // The header: the switcher lists every project opened so far, the chip says
        // where this one lives in words, and no internals (id, root, placement) show.
        let header = browser
            .js("const h = document.querySelector('header'); return [[...document.querySelectorAll('#project-switch option')].map((o) => o.value), document.getElementById('project-chip-text').textContent, h.innerText, document.getElementById('project-more').open];")
            .await;
        assert_eq!(header[0], json!(opened), "{header}");
        assert_eq!(
            header[1],
            format!("{name} · in this browser · the browser may clear it")
        );
        let shown = header[2].as_str().unwrap();
        for internal in [
            "@browser", "v1/projects", "Placement", "Durability", "Writer", "tab-",
        ] {
            assert!(
                !shown.contains(internal),
                "{internal} in the header: {shown}"
            );
        }
        assert_eq!(
            header[3], false,
            "the details are closed once a project opens"
        );

        write_and_list_hello(&browser).await;
        say_and_wait(&browser, "what's in hello.txt", "hi").await;
        let transcript = browser.text("transcript").await;
        let transcript = transcript.as_str().unwrap();
        assert!(transcript.contains("↳ write hello.txt"), "{transcript}");
        assert!(transcript.contains("↳ read hello.txt"), "{transcript}");
        assert!(
            !transcript.contains("\"verb\"") && !transcript.contains('{'),
            "no raw action JSON: {transcript}"
        );
        browser
            .wait_text("the files panel", "files", "hello.txt")
            .await;
        browser
            .assert_no_sideways_overflow(size, "the page after a few turns")
            .await;
        browser
            .assert_accessible_both(&format!(
                "the environment page after a few turns at {}",
                size.name
            ))
            .await;
        browser.js("window.scrollTo(0, 0)").await;
        browser
            .screenshot(&format!("environment-{}-top", size.name))
            .await;
        if i == 0 {
            // The control: one word too long for the phone is seen, and gone once removed.
            browser
                .js("const p = document.createElement('p'); p.id = 'too-wide'; p.textContent = 'x'.repeat(400); document.querySelector('.composer').append(p);")
                .await;
            let wide = browser.past_the_edge(size).await;
            assert!(
                wide[0].as_u64().unwrap() > u64::from(size.width)
                    || wide
                        .iter()
                        .any(|e| e.as_str().is_some_and(|e| e.starts_with("p#too-wide"))),
                "the control is seen: {wide:?}"
            );
            browser
                .js("document.getElementById('too-wide').remove()")
                .await;
            browser
                .assert_no_sideways_overflow(size, "the page once the control is gone")
                .await;
        }

        // The opened parts fit too: the details, the New file form, the editor.
        browser
            .js("document.getElementById('project-more').open = true")
            .await;
        browser.click("files-new").await;
        open_entry(&browser, "hello.txt").await;
        wait_shown(&browser, "hello.txt", "hi").await;
        browser.click("viewer-edit").await;
        browser
            .assert_no_sideways_overflow(size, "the page with every part open")
            .await;
        browser
            .assert_accessible_both(&format!(
                "the environment page with every part open at {}",
                size.name
            ))
            .await;
        browser
            .screenshot(&format!("environment-{}", size.name))
            .await;
        browser.click("viewer-cancel").await;
        browser.click("new-file-cancel").await;
        browser
            .js("document.getElementById('project-more').open = false")
            .await;
    }

    // The switcher opens another project.
    browser.choose("project-switch", "atlas-0").await;
    browser
        .wait_text("atlas-0 in the chip", "project-chip-text", "atlas-0 · ")
        .await;
    let id = browser.text("project-id").await;
    assert_eq!(
        id, "atlas-0@browser",
        "the record's id is still there, behind the details"
    );
    // Served by Voicebox, the page logs no error either (its icon is the server's).
    assert_eq!(browser.console_errors().await, Vec::<String>::new());
    browser.close().await;
}

#[tokio::test]
async fn the_files_panel_edits_saves_and_deletes_through_the_worker() {
    let Some((_server, browser)) = env_checks::served_project("desk").await else {
        return;
    };
    browser
        .wait_text("the folder's name in the breadcrumb", "breadcrumb", "desk")
        .await;

    // New file from the panel: a write through the core, in the worker's audit.
    browser.click("files-new").await;
    type_into(&browser, "new-file-name", "plan.txt").await;
    type_into(&browser, "new-file-content", "one\n").await;
    browser.click("new-file-create").await;
    wait_shown(&browser, "plan.txt", "one\n").await;
    let writes = entries(&browser, "write", "plan.txt").await;
    assert_eq!(writes.len(), 1, "{writes:?}");
    assert_eq!(writes[0]["turn"], "files", "the panel's act: {writes:?}");

    // Edit → Save shows the diff; Cancel leaves the file as it was.
    edit_to_diff(&browser, "two\n", &["+two"]).await;
    browser.click("viewer-cancel").await;
    wait_shown(&browser, "plan.txt", "one\n").await;
    assert_eq!(
        act(&browser, json!({"verb": "read", "name": "plan.txt"})).await["content"],
        "one\n",
        "Cancel writes nothing"
    );
    assert_eq!(entries(&browser, "write", "plan.txt").await.len(), 1);

    // The same edit saved (diff, then write): in the file and in the audit.
    edit_to_diff(&browser, "two\n", &[]).await;
    browser.click("viewer-save").await;
    wait_shown(&browser, "plan.txt", "two\n").await;
    holds(&browser, "plan.txt", "two\n").await;
    let writes = entries(&browser, "write", "plan.txt").await;
    assert_eq!(writes.len(), 2, "the save is audited: {writes:?}");
    assert!(writes.iter().all(|w| w["turn"] == "files"), "{writes:?}");

    // Delete asks in the shared dialog: No keeps the file, Yes removes it.
    for yes in [false, true] {
        browser.click_and_answer("viewer-delete", yes).await;
        let read = if !yes {
            browser.wait_declined("#viewer-answer").await;
            act(&browser, json!({"verb": "read", "name": "plan.txt"})).await
        } else {
            browser
                .wait_for(
                    "the file gone from the list",
                    "return !document.querySelector('#files li[data-name=\"plan.txt\"]')",
                )
                .await;
            act(&browser, json!({"verb": "read", "name": "plan.txt"})).await
        };
        if !yes {
            assert_eq!(read["content"], "two\n", "No keeps the file: {read}");
        } else {
            assert_eq!(read["refused"], "not-found", "Yes removes it: {read}");
        }
    }

    // An SVG asset opens in the viewer as an <img> from a blob: URL.
    done(
        &browser,
        json!({"verb": "create_asset", "name": "dot.svg", "kind": "svg", "body": "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 10 10' width='40' height='40'><circle cx='5' cy='5' r='4' fill='teal'/></svg>"}),
    )
    .await;
    browser.click("files-refresh").await;
    open_entry(&browser, "assets").await;
    open_entry(&browser, "dot.svg").await;
    browser
        .wait_picture("the picture", "#viewer-body img.viewer-picture")
        .await;
    browser
        .assert_none("#viewer svg, #viewer circle", "no inline SVG markup")
        .await;
    browser.photograph("environment-files-picture").await;
    browser.close().await;
}

#[tokio::test]
async fn the_exported_site_logs_no_console_error() {
    let Some((_site, browser)) = StaticSite::visited().await else {
        return;
    };
    browser
        .wait_element(
            "the page to know it is static",
            "#server-root[data-state=static]",
        )
        .await;
    browser.wait_element("the icon", "link[rel=icon]").await;
    assert_eq!(
        browser.console_errors().await,
        Vec::<String>::new(),
        "after load"
    );

    // A few acts: a project, two turns, a file from the panel.
    open_from_header(&browser, "offline").await;
    write_and_list_hello(&browser).await;
    open_entry(&browser, "hello.txt").await;
    wait_shown(&browser, "hello.txt", "hi").await;
    // The icon is a real file of the site, an SVG.
    let icon = browser
        .js_async(
            "const done = arguments[0]; fetch(document.querySelector('link[rel=icon]').href).then((r) => done([r.status, r.headers.get('content-type'), r.url.endsWith('/favicon.svg')]), (e) => done(String(e)));",
            vec![],
        )
        .await;
    assert_eq!(icon, json!([200, "image/svg+xml", true]), "{icon}");
    assert_eq!(
        browser.console_errors().await,
        Vec::<String>::new(),
        "after the acts"
    );

    // Positive controls: the check sees an error the page logs, and a failed load
    // such as the /api/health the page no longer asks for here.
    browser.js("console.error('probe')").await;
    let logged = browser.console_errors().await;
    assert!(logged.iter().any(|l| l.contains("probe")), "{logged:?}");
    browser
        .js_async(
            "const done = arguments[0]; fetch('/api/health').then((r) => done(r.status), (e) => done(String(e)));",
            vec![],
        )
        .await;
    let logged = browser.console_errors().await;
    assert!(
        logged.iter().any(|l| l.contains("/api/health")),
        "{logged:?}"
    );
    browser.photograph("environment-exported").await;
    browser.close().await;
}

/// Exported and loaded once, the environment page opens again with nothing
/// serving it: its service worker keeps the whole shell (the page, its
/// modules, its workers, the browser core), and with the static server
/// stopped a reload opens the page from that copy and the core answers from
/// the project the browser keeps. The control: a browser that never loaded
/// the page gets nothing from the stopped site.
#[tokio::test]
async fn the_exported_page_opens_offline_once_loaded() {
    let Some((mut site, browser)) = StaticSite::visited().await else {
        return;
    };
    for dark in [false, true] {
        browser.dark(dark).await;
        browser
            .assert_accessible(&format!(
                "the environment page before a project{}",
                if dark { ", dark" } else { "" }
            ))
            .await;
    }
    open_from_header(&browser, "away").await;
    say_and_wait(
        &browser,
        "create a file called plan.txt with hello",
        "wrote plan.txt",
    )
    .await;
    let kept = browser
        .wait_kept(&[
            "/env/", "/env/env.css", "/env/env.js", "/env/worker.js", "/env/worker/core.js",
            "/env/voicebox_web.wasm", "/env/tool-worker.js", "/env/create-asset.wasm",
            "/js/transcript.js", "/style.css", "/workspace.css", "/favicon.svg",
        ])
        .await;

    site.stop();
    browser
        .reload_until("the page again", "return !!window.voicebox")
        .await;
    browser
        .wait_text("the project reopened", "project-chip-text", "away · ")
        .await;
    say_and_wait(&browser, "what's in plan.txt", "hello").await;
    browser.photograph("environment-offline").await;
    browser.close().await;

    let stranger = Browser::start().await;
    stranger
        .client
        .goto(&format!("http://127.0.0.1:{}/env/", site.port))
        .await
        .ok();
    let opened = stranger.js("return !!window.voicebox").await;
    assert_eq!(
        opened, false,
        "a browser with nothing kept opened the page (kept: {kept:?})"
    );
    stranger.close().await;
}

/// An SVG answer on the environment page is a picture too (`<img
/// src=blob:>`, read back through the worker's executor), and a text
/// answer is not (the control).
#[tokio::test]
async fn an_svg_answer_is_a_picture_on_the_environment_page() {
    let Some((_server, browser)) = env_checks::served_page().await else {
        return;
    };
    open_from_header(&browser, "pictures").await;
    browser
        .say("create a file called dot.svg with <svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 10 10'><circle cx='5' cy='5' r='4' fill='teal'/></svg>")
        .await;
    browser.wait_answer_picture().await;
    browser.say("create a file called note.txt with hi").await;
    browser
        .wait_last_turn("the text answer", "wrote note.txt")
        .await;
    assert_eq!(
        browser
            .js("return !![...document.querySelectorAll('#transcript .turn')].pop().querySelector('img')")
            .await,
        false
    );
    browser.close().await;
}

/// The environment page's conversation outlives a reload and Clear forgets
/// it; Enter in the request box sends; the newest answer is above the
/// composer on a phone too.
#[tokio::test]
async fn the_environment_pages_conversation_is_kept_and_each_answer_shown() {
    let Some((_server, browser)) = env_checks::served_page().await else {
        return;
    };
    browser.resize(browser::VIEWPORTS[0]).await;
    open_from_header(&browser, "kept").await;
    let input = browser
        .client
        .find(fantoccini::Locator::Id("utterance"))
        .await
        .unwrap();
    for i in 0..8 {
        input.click().await.unwrap();
        input
            .send_keys(&format!("create a file called n{i}.txt with {i}\u{e007}"))
            .await
            .unwrap();
        browser
            .wait_for(
                "the answer above the composer",
                &format!("const t = [...document.querySelectorAll('#transcript .turn')].pop(); const a = t && t.lastElementChild.getBoundingClientRect(); const c = document.getElementById('composer').getBoundingClientRect(); return !!t && t.textContent.includes('wrote n{i}.txt') && a.bottom <= c.top + 1 && a.bottom > 0;"),
            )
            .await;
    }
    browser
        .reload_until(
            "the kept conversation",
            "return document.querySelectorAll('#transcript .turn').length === 8 && document.getElementById('transcript').textContent.includes('wrote n7.txt')",
        )
        .await;
    browser.click("transcript-clear").await;
    assert_eq!(browser.turns().await, 0);
    browser
        .reload_until("the page again", "return !!window.voicebox")
        .await;
    assert_eq!(browser.turns().await, 0);
    browser.close().await;
}

/// The notes verbs over the browser's private file system, through the
/// worker's own executor: a folder made, a file moved into it and copied,
/// a list item ticked and one removed, part of a file read, names found, a
/// folder described, one file's change undone — each beside its refused
/// sibling (a move out of the folder, a save on an old copy).
#[tokio::test]
async fn the_notes_verbs_over_opfs_through_the_worker() {
    let Some((_server, browser)) = env_checks::served_project("errands").await else {
        return;
    };
    let read = async |name: &str| act(&browser, json!({"verb": "read", "name": name})).await;
    done(
        &browser,
        json!({"verb": "write", "name": "list.md", "content": "- [ ] milk\n- [ ] eggs\n"}),
    )
    .await;
    moved_into_a_new_folder(&browser, "list.md", "archive", "- [ ] milk\n- [ ] eggs\n").await;
    assert_eq!(read("list.md").await["refused"], "not-found");
    done(
        &browser,
        json!({"verb": "copy", "name": "archive/list.md", "to": "copy.md"}),
    )
    .await;
    done(
        &browser,
        json!({"verb": "check_item", "name": "archive/list.md", "item": "eggs"}),
    )
    .await;
    holds(&browser, "archive/list.md", "- [ ] milk\n- [x] eggs\n").await;
    done(
        &browser,
        json!({"verb": "remove_item", "name": "copy.md", "item": "milk"}),
    )
    .await;
    holds(&browser, "copy.md", "- [ ] eggs\n").await;
    let first = act(
        &browser,
        json!({"verb": "read", "name": "archive/list.md", "first": 1}),
    )
    .await;
    assert_eq!(first["content"], "- [ ] milk\n", "{first}");
    let found = act(&browser, json!({"verb": "find", "pattern": "list"})).await;
    assert!(found.to_string().contains("archive/list.md"), "{found}");
    let info = act(&browser, json!({"verb": "info", "name": "archive"})).await;
    assert_eq!(info["info"]["kind"], "folder", "{info}");
    // A save made on the copy read before the tick is refused; nothing is written.
    refused(&browser, json!({"verb": "write", "name": "archive/list.md", "content": "x", "expect": "0".repeat(64)}), "changed-since-read").await;
    // Undo of that one file takes back its tick, and leaves the copy's change.
    done(&browser, json!({"verb": "undo", "name": "archive/list.md"})).await;
    holds(&browser, "archive/list.md", "- [ ] milk\n- [ ] eggs\n").await;
    holds(&browser, "copy.md", "- [ ] eggs\n").await;
    // "today's note" is the day's file in the browser's own calendar.
    let said = browser
        .worker(json!({"op": "execute", "transcript": "add buy stamps to today's note"}))
        .await;
    assert_eq!(said["result"]["ok"], true, "{said}");
    let today = browser
        .js("const d = new Date(); const two = (n) => String(n).padStart(2, '0'); return `daily/${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}.md`;")
        .await;
    let today = today.as_str().unwrap();
    assert_eq!(said["action"]["name"], today, "{said}");
    assert_eq!(read(today).await["content"], "buy stamps");
    browser.close().await;
}
