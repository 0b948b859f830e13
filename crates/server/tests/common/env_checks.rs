//! The environment page's acceptance checks as functions over
//! whichever project the page has open, so the same checks run over every
//! root the browser can hold (check 8a): an OPFS project and a picked folder.

use super::Server;
use super::browser::{self, Browser};
use serde_json::{Value, json};

/// A server and a browser on its environment page; `None` (after a loud
/// skip message, or a failure under CI) when Chromium is missing.
pub async fn served_page() -> Option<(Server, Browser)> {
    if !browser::available() {
        return None;
    }
    let server = Server::start();
    let browser = Browser::start().await;
    browser
        .open_environment(&server.opening("/environment"))
        .await;
    Some((server, browser))
}

/// [`served_page`] with the browser's project `name` open in the worker.
pub async fn served_project(name: &str) -> Option<(Server, Browser)> {
    let (server, browser) = served_page().await?;
    let opened = open(&browser, name).await;
    assert_eq!(opened["ok"], true, "{opened}");
    Some((server, browser))
}

pub async fn open(browser: &Browser, name: &str) -> Value {
    browser
        .worker(json!({"op": "open", "project": {"name": name, "kind": "opfs"}}))
        .await
}

/// Runs `action` in the open project and asserts it was done; answers the reply.
pub async fn done(browser: &Browser, action: Value) -> Value {
    let reply = act(browser, action).await;
    assert_eq!(reply["ok"], true, "{reply}");
    reply
}

/// Runs `action` in the open project and asserts it was refused by `rule`.
pub async fn refused(browser: &Browser, action: Value, rule: &str) {
    let reply = act(browser, action).await;
    assert_eq!(reply["refused"], rule, "{reply}");
}

/// Reads `name` in the open project and asserts it holds `text`; answers the reply.
pub async fn holds(browser: &Browser, name: &str, text: &str) -> Value {
    let read = act(browser, json!({"verb": "read", "name": name})).await;
    assert_eq!(read["content"], text, "{name}: {read}");
    read
}

/// Makes the folder `folder` and moves `name` (which holds `text`) into it,
/// where it holds the same; a move back out past the root is refused by name.
pub async fn moved_into_a_new_folder(browser: &Browser, name: &str, folder: &str, text: &str) {
    let inside = format!("{folder}/{name}");
    done(browser, json!({"verb": "mkdir", "name": folder})).await;
    done(browser, json!({"verb": "move", "name": name, "to": inside})).await;
    holds(browser, &inside, text).await;
    let out = json!({"verb": "move", "name": inside, "to": format!("../{name}")});
    refused(browser, out, "outside-root").await;
}

pub async fn act(browser: &Browser, action: Value) -> Value {
    browser
        .worker(json!({"op": "execute", "action": action}))
        .await["result"]
        .clone()
}

pub async fn no_gesture(browser: &Browser) {
    let activation = browser
        .js("return [navigator.userActivation.isActive, navigator.userActivation.hasBeenActive]")
        .await;
    assert_eq!(
        activation,
        json!([false, false]),
        "no user gesture anywhere"
    );
}

/// Presses "Use this project as the server's folder" and waits for the channel.
pub async fn lend_to_server(browser: &Browser) {
    browser.click("server-root-use").await;
    browser
        .wait_element("the channel", "#server-root[data-state=connected]")
        .await;
}

/// Checks 2–7 over the open project, whose root the answers name `root_path`:
/// the tier table both ways, named refusals, `..` beside its sibling,
/// create-asset's import boundary, names that stay text, and bad input that
/// is named, logged and survived. Reloads the page once (check 6).
pub async fn root_injection_checks(browser: &Browser, root_path: &str) {
    // Checks 2, 3, 4: the tier table both ways, named refusals, `..` beside its sibling.
    let outside = act(
        browser,
        json!({"verb": "write", "name": "../../evil.sh", "content": "x"}),
    )
    .await;
    super::assert_refused_saying(&outside, "outside-root", "outside your folder");
    assert_eq!(
        act(
            browser,
            json!({"verb": "write", "name": "..", "content": "x"})
        )
        .await["refused"],
        "outside-root"
    );
    done(
        browser,
        json!({"verb": "write", "name": "a..", "content": "x"}),
    )
    .await;
    let audit = browser.audit().await;
    let rules: Vec<(&str, &str)> = audit["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["decision"].as_str().unwrap(),
                e["rule"].as_str().unwrap_or(""),
            )
        })
        .collect();
    assert!(
        rules.contains(&("allow", "writes-inside")) && rules.contains(&("refuse", "outside-root")),
        "{rules:?}"
    );

    // Check 5: create-asset instantiates; a module importing fetch does not,
    // in the platform's own words.
    let asset = act(browser, json!({"verb": "create_asset", "name": "logo.svg", "kind": "svg", "body": "<svg xmlns='http://www.w3.org/2000/svg'/>"})).await;
    assert_eq!(asset["ok"], true, "{asset}");
    assert_eq!(asset["root"]["path"], root_path, "{asset}");
    let fetcher = wat::parse_str(r#"(module (import "env" "writeFile" (func (param i32 i32 i32 i32))) (import "env" "note" (func (param i32 i32))) (import "env" "fetch" (func (param i32 i32))))"#).unwrap();
    let words = browser
        .js_async(
            "const [bytes, done] = arguments; WebAssembly.instantiate(new Uint8Array(bytes), {env: {writeFile() {}, note() {}}}).then(() => done('instantiated'), (e) => done(e.name + ': ' + e.message));",
            vec![json!(fetcher)],
        )
        .await;
    let words = words.as_str().unwrap();
    assert!(
        words.starts_with("LinkError") || words.starts_with("TypeError"),
        "{words}"
    );
    assert!(
        words.contains("fetch") || words.contains("function"),
        "{words}"
    );

    // Check 6: a hostile name is text in the transcript and the gallery.
    let hostile = "<img src=x onerror=alert(1)>";
    done(
        browser,
        json!({"verb": "create_asset", "name": hostile, "kind": "text", "body": "boo"}),
    )
    .await;
    browser
        .say(&format!("read the file called assets/{hostile}"))
        .await;
    browser
        .wait_text("the transcript", "transcript", hostile)
        .await;
    browser
        .assert_none(
            "img[src=\"x\"], [onerror]",
            "no element was created from the name in the transcript",
        )
        .await;
    browser.client.refresh().await.unwrap();
    browser.wait_text("the gallery", "gallery", hostile).await;
    browser
        .assert_none(
            "img[src=\"x\"], [onerror]",
            "no element was created from the name",
        )
        .await;
    let svg = browser.js("return [...document.querySelectorAll('#gallery img')].every((i) => i.src.startsWith('blob:'))").await;
    assert_eq!(svg, true, "SVG goes through <img src=blob:>");

    // Check 7: bad input is named and logged, and the worker serves the next request.
    for (action, rule) in [
        (
            json!({"verb": "create_asset", "name": "a.svg", "kind": "svg", "body": "x", "onload": "x"}),
            "unknown-field",
        ),
        (
            json!({"verb": "create_asset", "name": "a.pdf", "kind": "pdf", "body": "x"}),
            "malformed-field",
        ),
        (
            json!({"verb": "create_asset", "name": "a.svg", "kind": "svg", "body": "x".repeat((1 << 20) + 1)}),
            "too-large",
        ),
    ] {
        let refused = act(browser, action).await;
        assert_eq!(refused["refused"], rule);
        assert!(refused["logged"].is_u64(), "an audit entry");
        assert_eq!(
            act(browser, json!({"verb": "list"})).await["ok"],
            true,
            "the next request is served"
        );
    }
}
