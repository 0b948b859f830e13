//! Routing from the server to a page-owned root: the environment page lends
//! its OPFS project to `voicebox serve` (`POST /api/root {kind: "opfs"}`) and
//! keeps `/channel` open; a turn sent to the server is resolved there and
//! executed by the page's worker, in OPFS, with the page's audit. Real headless
//! Chromium for the page; raw WebSocket clients for the envelope's edges.

mod common;

use common::Server;
use common::env_checks;
use common::page_channel::{after_names, channel, declare_opfs, frame, send};
use futures_util::SinkExt;
use serde_json::{Value, json};
use std::path::Path;
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::Message;

/// Every file name under `dir`, at any depth.
fn names_under(dir: &Path) -> Vec<String> {
    let mut names = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap().map(Result::unwrap) {
        names.push(entry.file_name().to_string_lossy().into_owned());
        if entry.file_type().unwrap().is_dir() {
            names.extend(names_under(&entry.path()));
        }
    }
    names
}

/// A turn sent in the background, so the test can play the page meanwhile.
fn turn_later(server: &Server, text: &str) -> tokio::task::JoinHandle<Value> {
    let (url, origin, text) = (server.url("/api/turn"), server.origin(), text.to_string());
    let session = server.session.clone();
    tokio::spawn(async move {
        reqwest::Client::new()
            .post(url)
            .header("origin", origin)
            .header(common::SESSION, session)
            .json(&json!({"transcript": text}))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap()
    })
}

#[tokio::test]
async fn a_turn_to_the_server_runs_in_the_pages_opfs_project() {
    let Some((server, browser)) = env_checks::served_project("lent").await else {
        return;
    };

    // The page's own control declares the project and opens the channel.
    browser
        .wait_for(
            "the control, shown because Voicebox serves the page",
            "return !document.getElementById('server-root-use').hidden",
        )
        .await;
    env_checks::lend_to_server(&browser).await;
    let lent = json!({"kind": "opfs", "path": "v1/projects/lent"});
    assert_eq!(server.get("/api/root").await.1["root"], lent);
    let (_, health) = server.get("/api/health").await;
    assert_eq!(
        (&health["declared"], &health["root"]),
        (&json!(true), &lent)
    );

    // The server resolves; the page acts.
    let said = server.say("create a file called routed.txt with hi").await;
    let result = &said["result"];
    assert_eq!(said["action"]["verb"], "write", "{said}");
    assert_eq!(result["ok"], true, "{said}");
    assert_eq!(result["via"], "page");
    assert_eq!(result["action"], "wrote routed.txt (2 bytes)");
    assert_eq!(result["root"], lent);

    let read = browser
        .worker(json!({"op": "execute", "action": {"verb": "read", "name": "routed.txt"}}))
        .await;
    assert_eq!(read["result"]["content"], "hi", "{read}");
    for folder in [&server.root, &server.state] {
        assert!(
            !names_under(folder).contains(&"routed.txt".to_string()),
            "nothing written under {}",
            folder.display()
        );
    }
    let audit = browser.audit().await;
    let wrote: Vec<&Value> = audit["entries"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["act"]["target"] == "routed.txt" && e["act"]["kind"] == "write")
        .collect();
    assert_eq!(wrote.len(), 2, "attempt and outcome: {audit}");
    // The server's audit route reads the page's log too.
    let (_, relayed) = server.get("/api/audit").await;
    assert_eq!(relayed["via"], "page");
    assert!(
        relayed["entries"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["act"]["target"] == "routed.txt"),
        "{relayed}"
    );
    let (_, file) = server.get("/api/file?name=routed.txt").await;
    assert_eq!(
        (&file["result"]["content"], &file["result"]["via"]),
        (&json!("hi"), &json!("page"))
    );

    // The page leaves: the same turn has no page to run on.
    browser.close().await;
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let said = server.say("create a file called routed.txt with hi").await;
        if said["result"]["refused"] == "no-page" {
            break;
        }
        assert!(Instant::now() < deadline, "still answered: {said}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(!names_under(&server.root).contains(&"routed.txt".to_string()));

    // Un-declaring returns to no root at all.
    server.undeclare_to_no_root().await;
}

#[tokio::test]
async fn only_the_own_page_may_open_the_channel_and_a_page_root_needs_no_token() {
    let server = Server::start();
    assert_eq!(
        channel(&server, "http://evil.example").await.err(),
        Some(403)
    );
    assert!(channel(&server, &server.origin()).await.is_ok());

    // A page root needs only the page; a machine folder from the page is a
    // question (tests/security.rs answers it).
    let declared = declare_opfs(&server, "atlas").await;
    assert_eq!(
        declared["root"],
        json!({"kind": "opfs", "path": "v1/projects/atlas"})
    );
    let (_, asked) = server.post("/api/root", json!({"path": server.root})).await;
    assert_eq!(
        asked["result"]["confirm"]["rule"], "declared-by-person",
        "{asked}"
    );
    for (body, status, rule) in [
        (
            json!({"kind": "opfs", "project": "../up"}),
            400,
            "malformed-field",
        ),
        (
            json!({"kind": "opfs", "path": "/tmp"}),
            400,
            "missing-argument",
        ),
    ] {
        let (got, refused) = server.post("/api/root", body.clone()).await;
        assert_eq!(
            (got, refused["refused"].as_str()),
            (status, Some(rule)),
            "{body}"
        );
    }
    let (status, handle) = server
        .post("/api/root", json!({"kind": "handle", "label": "Notes"}))
        .await;
    assert_eq!(status, 200);
    assert_eq!(handle["root"], json!({"kind": "handle", "path": "Notes"}));
    // Declaring a machine folder again (with the token) makes it active.
    let (_, machine) = server
        .post_with_token("/api/root", json!({"path": server.root}))
        .await;
    assert_eq!(machine["root"]["kind"], "machine", "{machine}");
    assert_eq!(
        server.say("create a file called here.txt with x").await["result"]["ok"],
        true
    );
    assert!(server.root.join("here.txt").exists());
}

#[tokio::test]
async fn the_envelope_is_strict_and_the_channel_lives() {
    let server = Server::start();
    declare_opfs(&server, "atlas").await;
    let mut page = channel(&server, &server.origin()).await.unwrap();

    let turn = turn_later(&server, "create a file called a.txt with b");
    let act = after_names(&mut page, &[]).await;
    assert_eq!(act["type"], "act");
    assert_eq!(act["request"]["op"], "execute");
    assert_eq!(
        act["request"]["action"],
        json!({"verb": "write", "name": "a.txt", "content": "b", "mode": "create"})
    );
    assert!(
        act["request"]["turn"]
            .as_str()
            .unwrap()
            .starts_with("http-"),
        "the page's audit names the server's turn: {act}"
    );
    let id = act["id"].clone();
    for (bad, rule) in [
        (
            json!({"type": "result", "id": id, "answer": {}, "extra": 1}),
            "unknown-field",
        ),
        (json!({"type": "hello"}), "unknown-frame"),
        (json!({"type": "result", "answer": {}}), "malformed-frame"),
        (
            json!({"type": "result", "id": 999_999, "answer": {}}),
            "unknown-call",
        ),
    ] {
        send(&mut page, bad).await;
        let refused = frame(&mut page).await;
        assert_eq!(
            (&refused["type"], &refused["refused"]),
            (&json!("error"), &json!(rule)),
            "{refused}"
        );
    }
    page.send(Message::Binary(vec![1, 2].into())).await.unwrap();
    assert_eq!(frame(&mut page).await["refused"], "malformed-frame");

    // Still open: the real answer goes through, untouched but for `via`.
    let answer = json!({"result": {"ok": true, "action": "wrote a.txt (1 bytes)"}});
    send(
        &mut page,
        json!({"type": "result", "id": id, "answer": answer}),
    )
    .await;
    let said = turn.await.unwrap();
    assert_eq!(
        said["result"],
        json!({"ok": true, "action": "wrote a.txt (1 bytes)", "via": "page"})
    );
    assert!(!server.root.join("a.txt").exists());

    // The worker failing is named, not waited out.
    let turn = turn_later(&server, "list files");
    let act = after_names(&mut page, &[]).await;
    send(
        &mut page,
        json!({"type": "failed", "id": act["id"], "why": "WorkerError: stopped"}),
    )
    .await;
    assert_eq!(turn.await.unwrap()["result"]["refused"], "page-failed");

    // The page's names settle the server's reading: "my notes" is its file.
    let turn = turn_later(&server, "delete my notes");
    let act = after_names(&mut page, &["my notes.txt", "notes.txt"]).await;
    assert_eq!(
        act["request"]["action"],
        json!({"verb": "delete", "name": "my notes.txt"}),
        "{act}"
    );
    let answer = json!({"result": {"ok": true, "action": "deleted"}});
    send(
        &mut page,
        json!({"type": "result", "id": act["id"], "answer": answer}),
    )
    .await;
    assert_eq!(turn.await.unwrap()["result"]["ok"], true);

    // A failed names request is the turn's answer: nothing is relayed after it.
    let turn = turn_later(&server, "list files");
    let asked = frame(&mut page).await;
    send(
        &mut page,
        json!({"type": "failed", "id": asked["id"], "why": "WorkerError: stopped"}),
    )
    .await;
    let said = turn.await.unwrap();
    assert_eq!(said["result"]["refused"], "page-failed", "{said}");
    assert_eq!(said["action"]["verb"], "list", "{said}");
}

#[tokio::test]
async fn no_page_page_timeout_page_closed_and_takeover() {
    let server = Server::start_with_env(&[("VOICEBOX_PAGE_TIMEOUT_MS", "400")]);
    declare_opfs(&server, "atlas").await;
    assert_eq!(
        server.say("list files").await["result"]["refused"],
        "no-page"
    );

    // A page that never answers.
    let mut silent = channel(&server, &server.origin()).await.unwrap();
    let started = Instant::now();
    let said = server.say("list files").await;
    assert_eq!(said["result"]["refused"], "page-timeout", "{said}");
    assert!(started.elapsed() >= Duration::from_millis(400));
    let act = frame(&mut silent).await;
    assert_eq!(
        act["request"]["op"], "names",
        "one wait: the act is not relayed after it"
    );
    // Its late answer belongs to no call any more.
    send(
        &mut silent,
        json!({"type": "result", "id": act["id"], "answer": {}}),
    )
    .await;
    assert_eq!(frame(&mut silent).await["refused"], "unknown-call");

    // A newer page takes over; the older one is told and closed.
    let mut newer = channel(&server, &server.origin()).await.unwrap();
    let end = frame(&mut silent).await;
    assert_eq!(
        (&end["type"], &end["reason"]),
        (&json!("end"), &json!("taken-over"))
    );

    // A page that closes mid-call.
    let turn = turn_later(&server, "list files");
    assert_eq!(frame(&mut newer).await["type"], "act");
    newer.close(None).await.unwrap();
    assert_eq!(turn.await.unwrap()["result"]["refused"], "page-closed");
    assert_eq!(
        server.say("list files").await["result"]["refused"],
        "no-page"
    );
    let (_, health) = server.get("/api/health").await;
    assert!(health["refused"].as_u64().unwrap() >= 4, "{health}");
}
