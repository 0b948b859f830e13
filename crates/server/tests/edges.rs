//! The folder's edges through HTTP: a FIFO, a huge file and a link
//! into `.audit` are each answered at once with their rule, and the server
//! serves the next request, `/api/health` included.

mod common;

use common::Server;
use serde_json::{Value, json};
use std::future::Future;
use std::time::Duration;
use voicebox_test_support::audit_files;

/// Fails the test, instead of hanging it, if the server does not answer.
async fn at_once<T>(request: impl Future<Output = T>) -> T {
    tokio::time::timeout(Duration::from_secs(20), request)
        .await
        .expect("the server answered")
}

fn refused(body: &Value) -> &str {
    body["result"]["refused"].as_str().unwrap_or("")
}

#[tokio::test]
async fn special_huge_and_protected_targets_are_named_and_the_next_request_is_served() {
    let server = Server::start();
    let root = &server.root;
    assert!(
        std::process::Command::new("mkfifo")
            .arg(root.join("pipe"))
            .status()
            .unwrap()
            .success()
    );
    std::fs::write(root.join("big.txt"), vec![b'a'; 32 << 20]).unwrap();
    std::fs::write(root.join("notes.md"), "pipe and big\n").unwrap();
    let (status, _) = at_once(server.post(
        "/api/turn",
        json!({"action": {"verb": "write", "name": "a.txt", "content": "x"}}),
    ))
    .await;
    assert_eq!(status, 200);
    let log = audit_files(root).remove(0);
    let writer = log.file_name().unwrap().to_string_lossy();
    std::os::unix::fs::symlink(".audit", root.join("al")).unwrap();

    let (_, body) = at_once(server.get("/api/file?name=pipe")).await;
    assert_eq!(refused(&body), "not-a-regular-file", "{body}");
    let (_, body) = at_once(server.get("/api/health")).await;
    assert_eq!(body["ok"], true);
    let (_, body) = at_once(server.post(
        "/api/turn",
        json!({"action": {"verb": "grep", "query": "big"}}),
    ))
    .await;
    assert_eq!(body["result"]["skipped"]["special"], 1, "{body}");
    assert_eq!(body["result"]["skipped"]["tooLarge"], 1, "{body}");
    assert_eq!(
        body["result"]["matches"].as_array().unwrap().len(),
        1,
        "{body}"
    );

    let read = reqwest::Client::new()
        .get(server.url("/api/file?name=big.txt"))
        .header(common::SESSION, &server.session)
        .send();
    let response = at_once(read).await.unwrap();
    let text = response.text().await.unwrap();
    assert!(
        text.len() < 4096,
        "a refusal, not the file: {} bytes",
        text.len()
    );
    let body: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(refused(&body), "too-large", "{body}");

    let (_, body) = at_once(server.get(&format!("/api/file?name=al/{writer}"))).await;
    assert_eq!(refused(&body), "protected-audit", "{body}");
    let (_, body) = at_once(server.get("/api/files?dir=al")).await;
    assert_eq!(refused(&body), "protected-audit", "{body}");

    // Positive controls: the regular file reads, the listing shows what is plain.
    let (_, body) = at_once(server.get("/api/file?name=notes.md")).await;
    assert_eq!(body["result"]["content"], "pipe and big\n", "{body}");
    let (_, body) = at_once(server.get("/api/files")).await;
    let names = common::each(&body["result"]["files"], "name");
    assert_eq!(names, ["a.txt", "big.txt", "notes.md"], "{body}");
}
