//! Picked folders in real headless Chromium: a folder the person
//! picks or drops becomes a project root, its handle kept in IndexedDB with
//! the person's label, the browser's permission asked before every act.
//!
//! Two kinds of picked root are driven here. A real folder of this machine,
//! dropped onto the page through the DevTools drag events (what a person's
//! drag from a file manager produces): Chromium grants it read access only,
//! so it shows the read-only behaviour, `needs-gesture`, `permission-denied`
//! and `root-unreachable` for real. (A read that waits for a gesture — a
//! handle that comes back as `prompt` after the browser restarts — is in the
//! artifact's golden cases and the in-memory adapter's tests.) And a folder handle from the origin's
//! private file system adopted as a picked folder, which is granted
//! read-write: the root-injection checks (8a) run over it unchanged. What
//! needs a person — the picker itself and a granted prompt — is check 8b,
//! a procedure in docs/BROWSER.md.

mod common;

use common::browser::{Browser, served};
use common::env_checks::{self, act, done, holds, refused};
use common::folder_with;
use serde_json::{Value, json};
use std::path::Path;

/// Drops `folder` on the projects bar and waits for the page to open it.
async fn drop_and_open(browser: &Browser, folder: &Path) -> Value {
    browser.drop_folder(".projects", folder).await;
    browser
        .wait_for(
            "the dropped folder to open",
            "return document.getElementById('project-id').textContent.endsWith('@browser') && document.getElementById('project-access').textContent !== '—'",
        )
        .await;
    browser
        .worker(json!({"op": "open", "project": spec(browser).await}))
        .await
}

/// The projects the worker keeps.
async fn kept_projects(browser: &Browser) -> Value {
    browser.worker(json!({"op": "projects"})).await
}

/// Waits until the projects bar's status starts with `start`.
async fn wait_status(browser: &Browser, what: &str, start: &str) {
    let script = format!(
        "return document.getElementById('project-status').textContent.startsWith('{start}')"
    );
    browser.wait_for(what, &script).await;
}

/// What the page remembers to re-open its project (name, kind, id, label).
async fn spec(browser: &Browser) -> Value {
    let saved = browser
        .js("return sessionStorage.getItem('voicebox.env.project')")
        .await;
    serde_json::from_str(saved.as_str().unwrap()).unwrap()
}

fn text(browser_value: &Value) -> &str {
    browser_value.as_str().unwrap_or_default()
}

fn rules(audit: &Value) -> Vec<(String, String)> {
    audit["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                text(&e["decision"]).to_string(),
                text(&e["rule"]).to_string(),
            )
        })
        .collect()
}

#[tokio::test]
async fn a_dropped_folder_reads_and_refuses_changes_by_name_until_access_is_granted() {
    let Some(server) = served() else { return };
    let folder = folder_with(&[("notes/shopping.md", "milk"), ("outside.txt", "secret")]);
    let notes = folder.path().join("notes");
    // Links: one out of the folder, one to a file inside it (the symlink case).
    std::os::unix::fs::symlink("../outside.txt", notes.join("link-out")).unwrap();
    std::os::unix::fs::symlink("shopping.md", notes.join("link-in")).unwrap();
    let browser = Browser::start().await;
    browser
        .open_environment(&server.opening("/environment"))
        .await;
    // The folder label is behind the header's "Projects" details.
    browser
        .js("document.getElementById('project-more').open = true")
        .await;
    browser
        .client
        .find(fantoccini::Locator::Id("pick-label"))
        .await
        .unwrap()
        .send_keys("~/notes")
        .await
        .unwrap();

    let opened = drop_and_open(&browser, &notes).await;
    assert_eq!(opened["ok"], true, "{opened}");
    assert_eq!(opened["project"]["location"]["kind"], "handle");
    assert_eq!(opened["project"]["location"]["label"], "~/notes");
    assert!(
        text(&opened["project"]["location"]["id"]).starts_with("h_"),
        "{opened}"
    );
    assert!(
        opened["project"]["location"].get("path").is_none(),
        "the origin cannot describe where a picked folder is"
    );
    assert_eq!(
        opened["access"],
        json!({"read": "granted", "write": "prompt"})
    );
    assert_eq!(opened["audit"]["in"], "origin", "{opened}");
    let shown = browser
        .js("return [document.getElementById('project-access').textContent, !document.getElementById('project-allow').hidden, document.getElementById('project-audit').textContent]")
        .await;
    assert!(text(&shown[0]).contains("needs your click"), "{shown}");
    assert_eq!(shown[1], true, "the page offers to ask for access");
    assert!(text(&shown[2]).contains("v1/audit-fallback/"), "{shown}");

    // Read-only: it lists and reads the real folder …
    let listed = act(&browser, json!({"verb": "list"})).await;
    assert_eq!(
        listed["files"],
        json!([{"name": "shopping.md", "dir": false, "bytes": 4}]),
        "Chromium shows no link, in or out: {listed}"
    );
    holds(&browser, "shopping.md", "milk").await;
    // … and opens no link: the one out of the folder and the one inside are
    // both not there for the browser, so nothing outside can be read.
    for link in ["link-out", "link-in"] {
        let through = act(&browser, json!({"verb": "read", "name": link})).await;
        assert_eq!(through["refused"], "not-found", "{link}: {through}");
        assert!(!through.to_string().contains("secret"));
    }
    // … and every change is refused by name before it is tried.
    for action in [
        json!({"verb": "write", "name": "shopping.md", "content": "bread"}),
        json!({"verb": "write", "name": "new.md", "content": "x"}),
        json!({"verb": "create_asset", "name": "a.svg", "kind": "svg", "body": "<svg xmlns='http://www.w3.org/2000/svg'/>"}),
        json!({"verb": "undo"}),
    ] {
        let refused = act(&browser, action.clone()).await;
        assert_eq!(refused["refused"], "needs-gesture", "{action}: {refused}");
        assert!(text(&refused["why"]).contains("Allow access"), "{refused}");
        assert!(refused["logged"].is_u64(), "audited: {refused}");
    }
    refused(
        &browser,
        json!({"verb": "delete", "name": "shopping.md"}),
        "needs-gesture",
    )
    .await;
    assert_eq!(
        std::fs::read_to_string(notes.join("shopping.md")).unwrap(),
        "milk"
    );
    let mut on_disk: Vec<_> = std::fs::read_dir(&notes)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    on_disk.sort();
    assert_eq!(
        on_disk,
        ["link-in", "link-out", "shopping.md"],
        "nothing was written into the folder"
    );

    // The audit went to the origin's fallback file, under its own writer.
    let audit = browser.audit().await;
    assert_eq!(audit["root"], "~/notes");
    let seen = rules(&audit);
    assert!(
        seen.contains(&("allow".into(), "reads-inside".into())),
        "{seen:?}"
    );
    assert!(
        seen.contains(&("refuse".into(), "needs-gesture".into())),
        "{seen:?}"
    );
    assert!(
        audit["entries"]
            .as_array()
            .unwrap()
            .iter()
            .all(|e| text(&e["instance"]).ends_with("-fallback")
                && e["project"] == opened["project"]["id"]),
        "{audit}"
    );

    // The folder goes away: root-unreachable. It comes back: it reads again.
    std::fs::rename(&notes, folder.path().join("moved")).unwrap();
    refused(&browser, json!({"verb": "list"}), "root-unreachable").await;
    std::fs::rename(folder.path().join("moved"), &notes).unwrap();
    done(&browser, json!({"verb": "list"})).await;

    // Reload: the page re-opens the folder from the handle kept in IndexedDB,
    // with no gesture. Within one browser session Chromium keeps the drop's
    // read grant, so reads go on and changes still wait for a click.
    browser
        .reload_until(
            "the picked folder to re-open",
            "return document.getElementById('project-id').textContent === 'notes@browser' && document.getElementById('project-access').textContent.includes('write not yet granted')",
        )
        .await;
    holds(&browser, "shopping.md", "milk").await;
    refused(
        &browser,
        json!({"verb": "write", "name": "shopping.md", "content": "x"}),
        "needs-gesture",
    )
    .await;
    let projects = kept_projects(&browser).await;
    let kept = projects["projects"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["record"]["location"]["kind"] == "handle")
        .cloned()
        .unwrap_or_else(|| panic!("{projects}"));
    assert_eq!(kept["record"]["location"]["label"], "~/notes");
    assert_eq!(
        browser
            .js("return navigator.userActivation.hasBeenActive")
            .await,
        false,
        "no gesture was made, so none could have been used"
    );
    browser.photograph("picked-read-only").await;

    // Dropping the same folder again opens the same project, not a second one.
    browser
        .js("document.getElementById('project-status').textContent = ''")
        .await;
    browser.drop_folder(".projects", &notes).await;
    wait_status(&browser, "the same folder to open again", "Opened notes.").await;
    let again = kept_projects(&browser).await;
    assert_eq!(
        again["projects"].as_array().map(Vec::len),
        Some(1),
        "{again}"
    );

    // Forgetting the folder drops its handle and record here; the folder is untouched.
    browser
        .js("document.querySelector('.project-forget').click()")
        .await;
    wait_status(&browser, "the folder to be forgotten", "Forgot").await;
    let projects = kept_projects(&browser).await;
    assert_eq!(projects["projects"], json!([]), "{projects}");
    assert_eq!(browser.text("project-id").await, "none open");
    assert_eq!(
        std::fs::read_to_string(notes.join("shopping.md")).unwrap(),
        "milk"
    );
    browser.close().await;
}

#[tokio::test]
async fn a_denied_folder_is_refused_by_name_and_still_reads() {
    let Some(server) = served() else { return };
    let folder = folder_with(&[("a.txt", "kept")]);
    // The browser answers every permission prompt with "deny", as a person might.
    let browser = Browser::start_with_args(&["--deny-permission-prompts"]).await;
    browser
        .open_environment(&server.opening("/environment"))
        .await;
    let opened = drop_and_open(&browser, folder.path()).await;
    assert_eq!(opened["access"]["write"], "prompt", "{opened}");
    browser.click("project-allow").await;
    browser
        .wait_text(
            "the answer to the request for access",
            "project-access",
            "write denied",
        )
        .await;
    let refused = act(
        &browser,
        json!({"verb": "write", "name": "a.txt", "content": "changed"}),
    )
    .await;
    assert_eq!(refused["refused"], "permission-denied", "{refused}");
    assert!(text(&refused["why"]).contains("site settings"), "{refused}");
    let read = act(&browser, json!({"verb": "read", "name": "a.txt"})).await;
    assert_eq!(read["content"], "kept", "reading is still granted: {read}");
    assert_eq!(
        std::fs::read_to_string(folder.path().join("a.txt")).unwrap(),
        "kept"
    );
    browser.close().await;
}

/// Check 8a: a second root. A folder handle granted read-write (taken from
/// the origin's private file system, since only a person can grant one on
/// this machine's disk) is adopted exactly as a picked folder is, and every
/// root-injection check passes over it; two roots keep two audit files.
#[tokio::test]
async fn the_checks_pass_over_a_picked_folder_root() {
    let Some((server, browser)) = env_checks::served_page().await else {
        return;
    };
    let kept = browser
        .js_async(
            "const done = arguments[0]; (async () => {
               const dir = await (await navigator.storage.getDirectory()).getDirectoryHandle('elsewhere', {create: true});
               return window.voicebox.request({op: 'adopt', handle: dir, label: 'granted folder', name: 'granted'});
             })().then(done, (e) => done({jsError: String(e)}));",
            vec![],
        )
        .await;
    assert_eq!(kept["ok"], true, "{kept}");
    let spec =
        json!({"name": "granted", "kind": "handle", "id": kept["id"], "label": "granted folder"});
    let opened = browser.worker(json!({"op": "open", "project": spec})).await;
    assert_eq!(
        opened["access"],
        json!({"read": "granted", "write": "granted"})
    );
    assert_eq!(opened["audit"]["in"], "root", "{opened}");

    // Check 1 over it: write, reload, the page re-opens it with no gesture.
    done(
        &browser,
        json!({"verb": "write", "name": "hello.txt", "content": "hi"}),
    )
    .await;
    browser.client.refresh().await.unwrap();
    let read = holds(&browser, "hello.txt", "hi").await;
    assert_eq!(
        read["root"],
        json!({"kind": "handle", "path": "granted folder"})
    );
    env_checks::no_gesture(&browser).await;

    // The organising verbs over a picked folder's handles: a folder made, a
    // file moved into it and back, a move out of the folder refused.
    env_checks::moved_into_a_new_folder(&browser, "hello.txt", "box", "hi").await;
    done(
        &browser,
        json!({"verb": "move", "name": "box/hello.txt", "to": "hello.txt"}),
    )
    .await;

    env_checks::root_injection_checks(&browser, "granted folder").await;

    // The files are in the picked folder, not in a project folder.
    let where_written = browser
        .js_async(
            "const done = arguments[0]; (async () => {
               const root = await navigator.storage.getDirectory();
               const picked = await root.getDirectoryHandle('elsewhere');
               await picked.getFileHandle('hello.txt');
               const audit = await picked.getDirectoryHandle('.audit');
               const names = [];
               for await (const name of audit.keys()) names.push(name);
               return names;
             })().then(done, (e) => done({jsError: String(e)}));",
            vec![],
        )
        .await;
    assert_eq!(
        where_written.as_array().map(Vec::len),
        Some(1),
        "one writer file in the folder's own .audit: {where_written}"
    );

    // The page lends the picked folder to the server (POST /api/root {kind: "handle"}):
    // a turn sent to the server is written in the picked folder, not on this machine.
    env_checks::lend_to_server(&browser).await;
    let (_, health) = server.get("/api/health").await;
    assert_eq!(
        health["root"],
        json!({"kind": "handle", "path": "granted folder"})
    );
    let routed = server.say("create a file called routed.txt with hi").await;
    assert_eq!(routed["result"]["ok"], true, "{routed}");
    assert_eq!(routed["result"]["via"], "page", "{routed}");
    assert!(!server.root.join("routed.txt").exists());
    let in_folder = browser
        .js_async(
            "const done = arguments[0]; navigator.storage.getDirectory().then((root) => root.getDirectoryHandle('elsewhere')).then((dir) => dir.getFileHandle('routed.txt')).then((file) => file.getFile()).then((f) => f.text()).then(done, (e) => done(String(e)));",
            vec![],
        )
        .await;
    assert_eq!(in_folder, "hi", "written in the picked folder");

    // Check 10 across the two kinds: an OPFS project keeps its own file.
    assert_eq!(env_checks::open(&browser, "plain").await["ok"], true);
    done(
        &browser,
        json!({"verb": "write", "name": "b.txt", "content": "b"}),
    )
    .await;
    let plain = browser.audit_entries().await;
    assert!(
        plain.iter().all(|e| e["root"] == "v1/projects/plain"),
        "no interleaving: {plain:?}"
    );
    browser.close().await;
}
