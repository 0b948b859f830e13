//! The guard over a real socket (the `Host` a client sends, as the server
//! receives it) and the authority some routes require of their own. Each
//! guard rule both ways, in-process, is in `router.rs`.

mod common;

use common::{Server, raw};
use serde_json::{Value, json};

/// A raw turn with the page's session `cookie` (may be empty: none).
fn turn_request(host: &str, origin: &str, cookie: &str, body: &str) -> String {
    format!(
        "POST /api/turn HTTP/1.1\r\nHost: {host}\r\nOrigin: {origin}\r\nCookie: {cookie}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
}

fn rule(body: &str) -> String {
    let json: Value = serde_json::from_str(body).unwrap();
    json["refused"].as_str().unwrap_or("").to_string()
}

#[tokio::test]
async fn host_must_be_loopback_with_our_port() {
    let server = Server::start();
    let own = server.origin();
    let body = r#"{"transcript":"list files"}"#;
    let (status, text) = raw(
        server.port,
        &turn_request("evil.example", &own, &server.cookie, body),
    );
    assert_eq!((status, rule(&text).as_str()), (403, "foreign-host"));
    let get = format!(
        "GET /api/audit HTTP/1.1\r\nHost: evil.example:{}\r\nConnection: close\r\n\r\n",
        server.port
    );
    assert_eq!(
        raw(server.port, &get).0,
        403,
        "reads are guarded too (DNS rebinding)"
    );
    let wrong_port = format!("127.0.0.1:{}", server.port + 1);
    assert_eq!(
        raw(
            server.port,
            &turn_request(&wrong_port, &own, &server.cookie, body)
        )
        .0,
        403
    );
    for host in [
        format!("127.0.0.1:{}", server.port),
        format!("localhost:{}", server.port),
    ] {
        let (status, text) = raw(
            server.port,
            &turn_request(&host, &own, &server.cookie, body),
        );
        assert_eq!(status, 200, "{host}: {text}");
    }
}

#[tokio::test]
async fn keys_need_authority_and_never_come_back() {
    let server = Server::start();
    let client = reqwest::Client::new();
    let secret = "sk-test-very-secret-9876";
    let put = |origin: Option<String>, token: Option<String>| {
        let mut request = client
            .put(server.url("/api/keys"))
            .json(&json!({"keys": {"gemini": secret}}));
        if let Some(origin) = origin {
            request = request.header("origin", origin);
        }
        if let Some(token) = token {
            request = request.header("x-voicebox-host-token", token);
        }
        request.send()
    };
    let refused = put(Some("https://evil.example".into()), None)
        .await
        .unwrap();
    assert_eq!(refused.status(), 401, "an Origin alone authorizes nothing");
    let refused = put(None, Some("wrong".into())).await.unwrap();
    assert_eq!(refused.status(), 403);
    let (_, keys) = server.get("/api/keys").await;
    assert_eq!(
        keys["keys"]["gemini"]["set"], false,
        "unchanged by refused requests"
    );

    let stored = put(None, Some(server.token.clone())).await.unwrap();
    assert_eq!(stored.status(), 200);
    let text = stored.text().await.unwrap();
    assert!(!text.contains(secret) && !text.contains(&server.token));
    let (_, keys) = server.get("/api/keys").await;
    assert_eq!(
        keys["keys"]["gemini"],
        json!({"set": true, "last4": "9876"})
    );
    let (status, _) = server
        .post("/api/turn", json!({"transcript": "list files"}))
        .await;
    assert_eq!(status, 200);
    // The page may change keys too, and null removes.
    let (_, removed) = server
        .put("/api/keys", json!({"keys": {"gemini": null}}))
        .await;
    assert_eq!(removed["keys"]["gemini"]["set"], false);
    let (status, unknown) = server
        .put("/api/keys", json!({"keys": {"other": "x"}}))
        .await;
    assert_eq!(status, 400);
    assert_eq!(unknown["refused"], "unknown-field");
    // Nothing the server wrote into the root mentions the key.
    let audit = std::fs::read_dir(server.root.join(".audit")).unwrap();
    for file in audit {
        assert!(
            !std::fs::read_to_string(file.unwrap().path())
                .unwrap()
                .contains(secret)
        );
    }
}

#[tokio::test]
async fn declaring_a_machine_root_needs_the_token() {
    let server = Server::start_with(false);
    let folder = tempfile::TempDir::new().unwrap();
    let body = json!({"kind": "machine", "path": folder.path()});
    let (status, refused) = server.post("/api/root", body.clone()).await;
    assert_eq!(
        (status, refused["refused"].as_str()),
        (403, Some("host-token-required"))
    );
    let (_, declared) = server.post_with_token("/api/root", body).await;
    assert_eq!(declared["declared"], true, "{declared}");
    assert_eq!(
        server.say("create a file called a.txt with b").await["result"]["ok"],
        true
    );
    assert!(folder.path().join("a.txt").exists());
    // The page may un-declare.
    server.undeclare_to_no_root().await;
}

#[tokio::test]
async fn a_root_that_overlaps_the_state_folder_is_refused_by_name() {
    let server = Server::start_with(false);
    let links = tempfile::TempDir::new().unwrap();
    std::os::unix::fs::symlink(&server.state, links.path().join("state-link")).unwrap();
    std::fs::create_dir(server.state.join("inside")).unwrap();
    let cases = [
        (server.state.clone(), "state-in-root"),
        (
            server.state.parent().unwrap().to_path_buf(),
            "state-in-root",
        ),
        (links.path().join("state-link"), "state-in-root"),
        (server.state.join("inside"), "root-in-state"),
        (links.path().join("state-link/inside"), "root-in-state"),
    ];
    for (path, rule) in cases {
        let (status, reply) = server
            .post_with_token("/api/root", json!({"path": path}))
            .await;
        assert_eq!(
            (status, reply["ok"].as_bool(), reply["refused"].as_str()),
            (200, Some(false), Some(rule)),
            "{}: {reply}",
            path.display()
        );
        assert_eq!(server.get("/api/root").await.1["declared"], false);
    }
    assert!(
        !server.state.join(".audit").exists() && !server.state.join("inside/.audit").exists(),
        "a refused folder is not opened"
    );
    let (_, read) = server.get("/api/file?name=host-token").await;
    assert_eq!(read["result"]["refused"], "root-not-declared", "{read}");
    // Positive control: a folder beside the state folder is declared.
    let beside = tempfile::TempDir::new().unwrap();
    let (_, reply) = server
        .post_with_token("/api/root", json!({"path": beside.path()}))
        .await;
    assert_eq!(reply["declared"], true, "{reply}");
}
