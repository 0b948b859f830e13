//! Real headless Chromium (Debian's `chromium` + `chromium-driver`), driven
//! over WebDriver by fantoccini. Outside CI a missing browser skips loudly;
//! under CI (`CI=true`) it fails.

use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{Value, json};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// A chromedriver process and one browser session; both end on drop.
pub struct Browser {
    pub client: Client,
    driver: Child,
    _profile: tempfile::TempDir,
    /// Console errors read while axe-core ran, the page's own, kept for
    /// the next [`Browser::console_errors`].
    held: std::sync::Mutex<Vec<String>>,
}

/// Whether the browser is installed; panics under CI if it is not.
pub fn available() -> bool {
    voicebox_test_support::present_or_skip(
        std::path::Path::new(CHROMIUM).exists() && std::path::Path::new(CHROMEDRIVER).exists(),
        "Debian's chromium and chromium-driver",
        "apt-get install -y chromium chromium-driver",
    )
}

/// A test server for the browser to open, where the browser is installed;
/// `None` where it is not (skipped as [`available`] says).
pub fn served() -> Option<super::Server> {
    available().then(super::Server::start)
}

impl Browser {
    pub async fn start() -> Browser {
        Browser::start_with_args(&[]).await
    }

    /// Starts the browser with extra Chromium switches (e.g. a fake
    /// microphone) after the default ones.
    pub async fn start_with_args(extra: &[&str]) -> Browser {
        let port = voicebox_test_support::free_port();
        let driver = Command::new(CHROMEDRIVER)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let profile = tempfile::TempDir::new().unwrap();
        let args = [
            "--headless=new",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-dev-shm-usage",
            "--window-size=1280,900",
        ]
        .map(String::from)
        .into_iter()
        .chain([format!("--user-data-dir={}", profile.path().display())])
        .chain(extra.iter().map(|arg| arg.to_string()))
        .collect::<Vec<_>>();
        let mut caps = serde_json::Map::new();
        caps.insert(
            "goog:chromeOptions".into(),
            json!({"binary": CHROMIUM, "args": args}),
        );
        // The console, for `console_errors`.
        caps.insert("goog:loggingPrefs".into(), json!({"browser": "ALL"}));
        let connector = hyper_util::client::legacy::connect::HttpConnector::new();
        let deadline = Instant::now() + Duration::from_secs(30);
        let client = loop {
            match ClientBuilder::new(connector.clone())
                .capabilities(caps.clone())
                .connect(&format!("http://127.0.0.1:{port}"))
                .await
            {
                Ok(client) => break client,
                Err(e) if Instant::now() > deadline => panic!("chromedriver did not start: {e}"),
                Err(_) => tokio::time::sleep(Duration::from_millis(100)).await,
            }
        };
        Browser {
            client,
            driver,
            _profile: profile,
            held: Default::default(),
        }
    }

    /// A browser at `viewport` on `server`'s page, once its header names the folder.
    pub async fn open_page(server: &super::Server, viewport: Viewport) -> Browser {
        let browser = Browser::start().await;
        browser.resize(viewport).await;
        browser.client.goto(&server.page_url).await.unwrap();
        browser.wait_folder_named(server).await;
        browser
    }

    /// Reloads the page and waits until its header names `server`'s folder again.
    pub async fn reload(&self, server: &super::Server) {
        self.client.refresh().await.unwrap();
        self.wait_folder_named(server).await;
    }

    /// Reloads the page and waits, as [`Browser::wait_for`] does, until
    /// `script` is true of it.
    pub async fn reload_until(&self, what: &str, script: &str) {
        self.client.refresh().await.unwrap();
        self.wait_for(what, script).await;
    }

    /// Waits until the page's header names `server`'s folder.
    async fn wait_folder_named(&self, server: &super::Server) {
        let name = server.root.file_name().unwrap().to_string_lossy();
        self.wait_text("the folder's name in the header", "root-name", &name)
            .await;
    }

    /// Goes to the environment page at `url` and waits until it is ready.
    pub async fn open_environment(&self, url: &str) {
        self.client.goto(url).await.unwrap();
        self.wait_for("the environment page", "return !!window.voicebox")
            .await;
    }

    /// Clicks the element with this id (a real click: it counts as a gesture).
    pub async fn click(&self, id: &str) {
        self.client
            .find(Locator::Id(id))
            .await
            .unwrap_or_else(|e| panic!("#{id}: {e}"))
            .click()
            .await
            .unwrap_or_else(|e| panic!("clicking #{id}: {e}"));
    }

    /// Chooses `value` in the select with this id, as picking it does: the
    /// page hears its `change`.
    pub async fn choose(&self, id: &str, value: &str) {
        self.js(&format!(
            "const s = document.getElementById({id:?}); s.value = {value:?}; s.dispatchEvent(new Event('change'));"
        ))
        .await;
    }

    /// The text of the element with this id, as the page has it now.
    pub async fn text(&self, id: &str) -> Value {
        self.js(&format!(
            "return document.getElementById({id:?}).textContent"
        ))
        .await
    }

    /// Runs `script` (a function body) in the page.
    pub async fn js(&self, script: &str) -> Value {
        self.client.execute(script, vec![]).await.unwrap()
    }

    /// Asserts no element in the page matches `selector`; `what` says why
    /// there must be none.
    pub async fn assert_none(&self, selector: &str, what: &str) {
        let found = self
            .client
            .execute(
                "return document.querySelectorAll(arguments[0]).length",
                vec![selector.into()],
            )
            .await
            .unwrap();
        assert_eq!(found, 0, "{what} ({selector})");
    }

    /// Polls `script` until it returns true, or fails with `what`.
    pub async fn wait_for(&self, what: &str, script: &str) {
        let deadline = Instant::now() + Duration::from_secs(15);
        while self.js(script).await != Value::Bool(true) {
            assert!(Instant::now() < deadline, "timed out waiting for {what}");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Waits, as `wait_for` does, until the text of the element with this id
    /// includes `text`.
    pub async fn wait_text(&self, what: &str, id: &str, text: &str) {
        let script =
            format!("return document.getElementById('{id}').textContent.includes({text:?})");
        self.wait_for(what, &script).await;
    }

    /// Waits, as `wait_for` does, until an element matches `selector`.
    pub async fn wait_element(&self, what: &str, selector: &str) {
        let script = format!("return !!document.querySelector({selector:?})");
        self.wait_for(what, &script).await;
    }

    /// Waits, as `wait_for` does, until the element `selector` matches is a
    /// picture shown from a `blob:` URL and loaded.
    pub async fn wait_picture(&self, what: &str, selector: &str) {
        let script = format!(
            "const i = document.querySelector({selector:?}); return !!i && i.src.startsWith('blob:') && i.complete && i.naturalWidth > 0;"
        );
        self.wait_for(what, &script).await;
    }

    /// Waits until the transcript's newest answer is a picture (a loaded
    /// image from a `blob:` URL) and asserts the transcript holds no SVG
    /// markup: an SVG answer is never shown inline.
    pub async fn wait_answer_picture(&self) {
        self.wait_picture(
            "the picture in the answer",
            "#transcript .turn:last-child img.answer-picture",
        )
        .await;
        self.assert_none(
            "#transcript svg, #transcript circle",
            "no SVG markup in the transcript",
        )
        .await;
    }

    /// Waits, as `wait_for` does, until the transcript's newest turn
    /// includes `text`.
    pub async fn wait_last_turn(&self, what: &str, text: &str) {
        let script = format!(
            "const t = [...document.querySelectorAll('#transcript .turn')].pop(); return !!t && t.textContent.includes({text:?});"
        );
        self.wait_for(what, &script).await;
    }

    /// Runs an async script (a function body whose last argument is the
    /// callback) and returns what it passed to the callback.
    pub async fn js_async(&self, script: &str, args: Vec<Value>) -> Value {
        self.client.execute_async(script, args).await.unwrap()
    }

    /// Sends one request to the environment page's worker through
    /// `window.voicebox.request` (glue only) and returns the core's answer.
    pub async fn worker(&self, request: Value) -> Value {
        self.js_async(
            "const [req, done] = arguments; window.voicebox.ready.then(() => window.voicebox.request(req)).then(done, (e) => done({jsError: String(e)}));",
            vec![request],
        )
        .await
    }

    /// The worker's audit answer with up to 1,000 entries, oldest first (the
    /// worker pages newest first) so tests read it in (instance, seq) order.
    pub async fn audit(&self) -> Value {
        let mut audit = self
            .worker(serde_json::json!({"op": "audit", "limit": 1000}))
            .await;
        if let Some(entries) = audit["entries"].as_array_mut() {
            entries.reverse();
        }
        audit
    }

    /// The entries of [`Browser::audit`], oldest first.
    pub async fn audit_entries(&self) -> Vec<Value> {
        let audit = self.audit().await;
        let Some(entries) = audit["entries"].as_array() else {
            panic!("an audit answer with no entries: {audit}");
        };
        entries.clone()
    }

    /// Waits for the tier-2 confirmation dialog to be open (or closed).
    pub async fn wait_for_modal(&self, open: bool) {
        let (what, script) = if open {
            (
                "the modal",
                "return document.getElementById('confirm-dialog').open",
            )
        } else {
            (
                "the modal to close",
                "return !document.getElementById('confirm-dialog').open",
            )
        };
        self.wait_for(what, script).await;
    }

    /// Says `text`, a request the page must ask about first, and waits for
    /// the question.
    pub async fn say_and_ask(&self, text: &str) {
        self.say(text).await;
        self.wait_for_modal(true).await;
    }

    /// Clicks the control with this id, which asks first, and waits for the
    /// question.
    pub async fn click_and_ask(&self, id: &str) {
        self.click(id).await;
        self.wait_for_modal(true).await;
    }

    /// Clicks the control with this id, which asks first, and answers the
    /// question Yes or No.
    pub async fn click_and_answer(&self, id: &str, yes: bool) {
        self.click_and_ask(id).await;
        self.answer(yes).await;
    }

    /// Asserts the open question's plan (what Yes would do) names `text`.
    pub async fn assert_plan_names(&self, text: &str) {
        let plan = self.text("confirm-plan").await;
        assert!(plan.as_str().unwrap().contains(text), "{plan}");
    }

    /// Answers the open question Yes or No with a click and waits for it to close.
    pub async fn answer(&self, yes: bool) {
        self.click(if yes { "confirm-yes" } else { "confirm-no" })
            .await;
        self.wait_for_modal(false).await;
    }

    /// Waits until the answer at `answer` (a selector) shows the person's
    /// No: a neutral declined answer, not a refusal.
    pub async fn wait_declined(&self, answer: &str) {
        self.wait_element("the declined answer", &format!("{answer} .declined"))
            .await;
    }

    /// How many turns the transcript shows.
    pub async fn turns(&self) -> u64 {
        self.js("return document.querySelectorAll('#transcript .turn').length")
            .await
            .as_u64()
            .unwrap()
    }

    /// Types a request into the composer and sends it. The input is clicked
    /// first, as a person would: after a modal dialog closes and the page
    /// focuses the input by script, chromedriver's typing into the already
    /// focused input was seen to be lost (the page's own focus was right).
    pub async fn say(&self, text: &str) {
        let input = self.client.find(Locator::Id("utterance")).await.unwrap();
        input.click().await.unwrap();
        input.clear().await.unwrap();
        input.send_keys(text).await.unwrap();
        self.click("send").await;
    }

    /// Sends one Chrome DevTools Protocol command through chromedriver.
    pub async fn cdp(&self, cmd: &str, params: Value) -> Value {
        self.client
            .issue_cmd(Post {
                path: "goog/cdp/execute",
                body: json!({"cmd": cmd, "params": params}),
            })
            .await
            .unwrap_or_else(|e| panic!("{cmd}: {e}"))
    }

    /// Makes the page's viewport `viewport`, as the device would: a phone or
    /// tablet is emulated as mobile (touch, device pixels), a laptop is not.
    pub async fn resize(&self, viewport: Viewport) {
        self.cdp(
            "Emulation.setDeviceMetricsOverride",
            json!({"width": viewport.width, "height": viewport.height,
                   "deviceScaleFactor": if viewport.mobile { 2 } else { 1 },
                   "mobile": viewport.mobile}),
        )
        .await;
        self.cdp(
            "Emulation.setTouchEmulationEnabled",
            json!({"enabled": viewport.mobile}),
        )
        .await;
    }

    /// Asserts nothing on the page reaches past the viewport's width (a
    /// mobile layout viewport grows to fit what overflows, so the document's
    /// width is compared with the device's, not with `innerWidth`). What is
    /// inside a box that scrolls sideways (a `<pre>`, the transcript) is
    /// reached by scrolling that box; the box itself must fit. What a box
    /// clips (`overflow: hidden`) counts: the person cannot reach it.
    pub async fn assert_no_sideways_overflow(&self, viewport: Viewport, what: &str) {
        let wide = self.past_the_edge(viewport).await;
        assert!(
            wide[0].as_u64().unwrap() <= u64::from(viewport.width) && wide.len() == 1,
            "{what} at {}: the page is {} px wide in a {} px viewport; past the edge: {:?}",
            viewport.name,
            wide[0],
            viewport.width,
            &wide[1..]
        );
    }

    /// The document's width, then up to five elements past the viewport's
    /// edge (not counting what a sideways-scrolling box holds).
    pub async fn past_the_edge(&self, viewport: Viewport) -> Vec<Value> {
        self.js(&format!(
            "const w = {}; const clipped = (e) => {{ for (let p = e.parentElement; p && p !== document.body; p = p.parentElement) {{ if (['auto', 'scroll'].includes(getComputedStyle(p).overflowX)) return true; }} return false; }}; return [document.documentElement.scrollWidth, ...[...document.querySelectorAll('body *')].filter((e) => {{ const r = e.getBoundingClientRect(); return r.width > 0 && r.right > w + 1 && getComputedStyle(e).position !== 'fixed' && !e.closest('dialog:not([open])') && !clipped(e); }}).slice(0, 5).map((e) => `${{e.tagName.toLowerCase()}}#${{e.id}}.${{e.className}} right=${{Math.round(e.getBoundingClientRect().right)}}`)];",
            viewport.width
        ))
        .await
        .as_array()
        .unwrap()
        .clone()
    }

    /// Shows the page as a person who chose a dark (or light) screen sees it.
    pub async fn dark(&self, on: bool) {
        self.cdp(
            "Emulation.setEmulatedMedia",
            json!({"features": [{"name": "prefers-color-scheme", "value": if on { "dark" } else { "light" }}]}),
        )
        .await;
        // Controls fade to their new colours; what is measured next is the end.
        self.wait_for(
            "the colours to settle",
            "return document.getAnimations().every((a) => !(a instanceof CSSTransition) || a.playState !== 'running')",
        )
        .await;
    }

    /// Every visible control smaller than 44 × 44 px, as `"what w×h"`: a
    /// button, link, summary, field or select, and a checkbox's label (the
    /// label is what a finger presses).
    pub async fn small_targets(&self) -> Vec<String> {
        let small = self
            .js("const seen = (e) => e.checkVisibility({visibilityProperty: true}) && !e.closest('dialog:not([open])'); return [...document.querySelectorAll('button, a[href], summary, select, textarea, input')].filter(seen).map((e) => e.matches('input[type=checkbox], input[type=radio]') && e.closest('label') ? e.closest('label') : e).filter((e) => { const r = e.getBoundingClientRect(); return r.width > 0 && (r.width < 43.5 || r.height < 43.5); }).map((e) => { const r = e.getBoundingClientRect(); return `${e.tagName.toLowerCase()}#${e.id} \"${(e.textContent || e.getAttribute('aria-label') || '').trim().slice(0, 24)}\" ${Math.round(r.width)}x${Math.round(r.height)}`; });")
            .await;
        small
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap_or_default().to_string())
            .collect()
    }

    /// Runs axe-core (from npm, see `scripts/test`) on the page as it is now
    /// and asserts it finds no serious or critical violation; `state` names
    /// the page's state in the failure. Skips loudly where axe-core is not
    /// installed, outside CI.
    pub async fn assert_accessible(&self, state: &str) {
        let Some(axe) = axe_source() else { return };
        let before = self.console_errors().await;
        let loaded = self.js("return typeof window.axe === 'object'").await;
        if loaded != json!(true) {
            self.js(&format!("{axe}\n;return true;")).await;
        }
        let found = self
            .js_async(
                "const done = arguments[0]; axe.run(document, {resultTypes: ['violations']}).then((r) => done({rules: r.passes.length + r.violations.length, milder: r.violations.filter((v) => v.impact === 'minor' || v.impact === 'moderate').map((v) => `${v.id} (${v.impact}, ${v.nodes.length})`), found: r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`)}), (e) => done({found: [`axe failed: ${e}`]}));",
                vec![],
            )
            .await;
        // For the record (`--nocapture`): what was checked, and what milder
        // findings there are.
        println!(
            "axe-core, {state}: {} rules applied, serious or critical {}, milder {}",
            found["rules"],
            found["found"].as_array().map_or(0, Vec::len),
            found["milder"]
        );
        let found = &found["found"];
        // axe-core's own inline styles are refused by the page's CSP; the
        // page's errors are kept for whoever asks next.
        let during = self.console_errors().await.into_iter().filter(|line| {
            !line.contains("Applying inline style violates the following Content Security Policy")
        });
        self.held
            .lock()
            .unwrap()
            .extend(before.into_iter().chain(during));
        assert_eq!(
            found,
            &json!([]),
            "{state}: axe-core finds serious or critical violations"
        );
    }

    /// [`Browser::assert_accessible`] in the light look, then the dark one;
    /// the page is left light.
    pub async fn assert_accessible_both(&self, state: &str) {
        for dark in [false, true] {
            self.dark(dark).await;
            self.assert_accessible(&format!(
                "{state} ({})",
                if dark { "dark" } else { "light" }
            ))
            .await;
        }
        self.dark(false).await;
    }

    /// The page's console errors since the last call (chromedriver's
    /// browser log, which also holds failed loads such as a 404).
    pub async fn console_errors(&self) -> Vec<String> {
        let held = std::mem::take(&mut *self.held.lock().unwrap());
        let log = self
            .client
            .issue_cmd(Post {
                path: "se/log",
                body: json!({"type": "browser"}),
            })
            .await
            .unwrap_or_else(|e| panic!("reading the browser log: {e}"));
        held.into_iter()
            .chain(
                log.as_array()
                    .into_iter()
                    .flatten()
                    .filter(|line| line["level"] == "SEVERE")
                    .map(|line| line["message"].as_str().unwrap_or_default().to_string()),
            )
            .collect()
    }

    /// Drags a folder of this machine onto the element matched by `selector`
    /// and drops it, as a person dragging it from a file manager would: the
    /// page gets a real `FileSystemDirectoryHandle` from the drop.
    pub async fn drop_folder(&self, selector: &str, folder: &std::path::Path) {
        let at = self
            .js(&format!(
                "const r = document.querySelector({selector:?}).getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2];"
            ))
            .await;
        let data = json!({"items": [], "files": [folder], "dragOperationsMask": 1});
        for kind in ["dragEnter", "dragOver", "drop"] {
            self.cdp(
                "Input.dispatchDragEvent",
                json!({"type": kind, "x": at[0], "y": at[1], "data": data}),
            )
            .await;
        }
    }

    /// The paths of every response the page's service worker keeps.
    pub async fn kept(&self) -> Vec<String> {
        let kept = self
            .js_async(
                "const done = arguments[0]; caches.keys().then((names) => Promise.all(names.map((n) => caches.open(n).then((c) => c.keys())))).then((all) => done(all.flat().map((r) => new URL(r.url).pathname)), (e) => done([String(e)]));",
                vec![],
            )
            .await;
        kept.as_array()
            .unwrap()
            .iter()
            .map(|k| k.as_str().unwrap().to_string())
            .collect()
    }

    /// Waits until the page is in its service worker's hands and the worker
    /// keeps each of `paths` and every file of this site the page has loaded
    /// (its API answers aside); returns what it keeps. The page's own loads
    /// only: axe-core, once injected, re-reads stylesheets over
    /// XMLHttpRequest (and resolves a nested `@import` against the page, a
    /// 404 the page never asks for); the page uses no XMLHttpRequest.
    pub async fn wait_kept(&self, paths: &[&str]) -> Vec<String> {
        let script = format!(
            "if (!navigator.serviceWorker.controller) return ['no service worker in charge']; const want = {}; for (const e of performance.getEntriesByType('resource')) {{ const u = new URL(e.name); if (e.initiatorType !== 'xmlhttprequest' && u.origin === location.origin && u.protocol.startsWith('http') && !u.pathname.startsWith('/api/')) want.push(u.pathname); }} return caches.keys().then((names) => Promise.all(names.map((n) => caches.open(n).then((c) => c.keys())))).then((all) => {{ const kept = new Set(all.flat().map((r) => new URL(r.url).pathname)); return want.filter((p) => !kept.has(p)); }});",
            json!(paths)
        );
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let missing = self.js(&script).await;
            if missing == json!([]) {
                return self.kept().await;
            }
            assert!(
                Instant::now() < deadline,
                "the service worker does not keep {missing} (it keeps {:?})",
                self.kept().await
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// Checks the page as it is now with axe-core, light and dark, and then
    /// saves its screenshot as `name`: what is photographed is checked.
    pub async fn photograph(&self, name: &str) -> std::path::PathBuf {
        self.assert_accessible_both(&format!("the state photographed as {name}"))
            .await;
        self.screenshot(name).await
    }

    /// Saves a screenshot in this test binary's output folder.
    pub async fn screenshot(&self, name: &str) -> std::path::PathBuf {
        let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("screenshots");
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(format!("{name}.png"));
        std::fs::write(&path, self.client.screenshot().await.unwrap()).unwrap();
        path
    }

    /// Ends the browser session; the driver is stopped on drop.
    pub async fn close(self) {
        let _ = self.client.clone().close().await;
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

/// axe-core's script, read once: from `VOICEBOX_AXE_DIR` (default
/// `~/.local/share/voicebox/axe`, where `scripts/test` installs it with npm).
fn axe_source() -> Option<&'static str> {
    static AXE: std::sync::OnceLock<Option<String>> = std::sync::OnceLock::new();
    AXE.get_or_init(|| {
        let dir = std::env::var_os("VOICEBOX_AXE_DIR")
            .map(std::path::PathBuf::from)
            .or_else(|| dirs::home_dir().map(|home| home.join(".local/share/voicebox/axe")))?;
        let source = std::fs::read_to_string(dir.join("node_modules/axe-core/axe.min.js")).ok();
        voicebox_test_support::present_or_skip(
            source.is_some(),
            "axe-core from npm",
            "npm install --prefix ~/.local/share/voicebox/axe axe-core@4.14.1",
        )
        .then_some(source)?
    })
    .as_deref()
}

/// A size a person uses the page at.
#[derive(Clone, Copy, Debug)]
pub struct Viewport {
    pub name: &'static str,
    pub width: u32,
    pub height: u32,
    pub mobile: bool,
}

/// A phone, a tablet and a laptop.
pub const VIEWPORTS: [Viewport; 3] = [
    Viewport {
        name: "phone-390x844",
        width: 390,
        height: 844,
        mobile: true,
    },
    Viewport {
        name: "tablet-768x1024",
        width: 768,
        height: 1024,
        mobile: true,
    },
    Viewport {
        name: "laptop-1280x800",
        width: 1280,
        height: 800,
        mobile: false,
    },
];

/// The edges of the range a page must hold at: the narrowest phone and a
/// wide screen (checked with [`VIEWPORTS`] between them).
pub const EDGES: [Viewport; 2] = [
    Viewport {
        name: "narrow-360x740",
        width: 360,
        height: 740,
        mobile: true,
    },
    Viewport {
        name: "wide-1440x900",
        width: 1440,
        height: 900,
        mobile: false,
    },
];

/// Every size from the narrowest to the widest: [`EDGES`] around [`VIEWPORTS`].
pub fn every_size() -> Vec<Viewport> {
    let mut all = vec![EDGES[0]];
    all.extend(VIEWPORTS);
    all.push(EDGES[1]);
    all
}

/// Each of [`VIEWPORTS`] in the light look, then the dark one: every way a
/// person sees the page that a test of its look goes through.
pub fn looks() -> impl Iterator<Item = (Viewport, bool)> {
    VIEWPORTS
        .into_iter()
        .flat_map(|viewport| [(viewport, false), (viewport, true)])
}

/// A size and look's name in screenshots and failures: the size's name, then
/// `-dark` for the dark look.
pub fn look_name(viewport: Viewport, dark: bool) -> String {
    format!("{}{}", viewport.name, if dark { "-dark" } else { "" })
}

/// A chromedriver command fantoccini does not wrap: a POST to
/// `session/<id>/<path>` (DevTools, the browser log).
#[derive(Debug)]
struct Post {
    path: &'static str,
    body: Value,
}

impl fantoccini::wd::WebDriverCompatibleCommand for Post {
    fn endpoint(
        &self,
        base_url: &url::Url,
        session_id: Option<&str>,
    ) -> Result<url::Url, url::ParseError> {
        base_url.join(&format!(
            "session/{}/{}",
            session_id.unwrap_or_default(),
            self.path
        ))
    }

    fn method_and_body(&self, _: &url::Url) -> (http::Method, Option<String>) {
        (http::Method::POST, Some(self.body.to_string()))
    }
}
