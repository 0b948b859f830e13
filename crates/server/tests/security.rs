//! The guard over a real socket (the `Host` a client sends, as the server
//! receives it) and the authority some routes require of their own. Each
//! guard rule both ways, in-process, is in `router.rs`.

mod common;

use common::{Server, raw};
use serde_json::{Value, json};
use voicebox_test_support::audit_files;

/// A raw turn with the page's `session` (may be empty: none).
fn turn_request(host: &str, origin: &str, session: &str, body: &str) -> String {
    format!(
        "POST /api/turn HTTP/1.1\r\nHost: {host}\r\nOrigin: {origin}\r\nX-Voicebox-Session: {session}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
}

/// A raw GET of `target` naming `host`, with `headers` (each ending in CRLF).
fn get_request(host: &str, target: &str, headers: &str) -> String {
    format!("GET {target} HTTP/1.1\r\nHost: {host}\r\n{headers}Connection: close\r\n\r\n")
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
        &turn_request("evil.example", &own, &server.session, body),
    );
    assert_eq!((status, rule(&text).as_str()), (403, "foreign-host"));
    let get = get_request(&format!("evil.example:{}", server.port), "/api/audit", "");
    assert_eq!(
        raw(server.port, &get).0,
        403,
        "reads are guarded too (DNS rebinding)"
    );
    let wrong_port = format!("127.0.0.1:{}", server.port + 1);
    assert_eq!(
        raw(
            server.port,
            &turn_request(&wrong_port, &own, &server.session, body)
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
            &turn_request(&host, &own, &server.session, body),
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
    for file in audit_files(&server.root) {
        assert!(!std::fs::read_to_string(file).unwrap().contains(secret));
    }
}

/// The page alone only asks to switch folders: nothing changes until the
/// person says yes to that question. A No, a spent id and a made-up one
/// change nothing; the host token declares at once. Each declaration is
/// audited `declared-by-person` in the folder chosen, and offered as recent.
#[tokio::test]
async fn the_page_asks_to_switch_folders_and_only_a_yes_switches() {
    let server = Server::start();
    let other = tempfile::TempDir::new().unwrap();
    let body = json!({"kind": "machine", "path": other.path()});
    let current = || async { server.get("/api/root").await.1["root"]["path"].clone() };
    let before = current().await;

    let (status, asked) = server.post("/api/root", body.clone()).await;
    let question = &asked["result"]["confirm"];
    assert_eq!(
        (status, question["rule"].as_str()),
        (200, Some("declared-by-person")),
        "{asked}"
    );
    let name = other.path().file_name().unwrap().to_string_lossy();
    assert_eq!(question["question"], format!("Work in {name}?"));
    assert_eq!(
        (question["yes"].as_str(), question["no"].as_str()),
        (Some("Switch"), Some("Cancel"))
    );
    assert_eq!(current().await, before, "asking changes nothing");
    let no = server.confirm(&question["id"], false).await.1;
    assert_eq!(no["result"]["refused"], "declined", "{no}");
    assert_eq!(current().await, before, "a No keeps the folder");
    let spent = server.confirm(&question["id"], true).await.1;
    assert_eq!(
        spent["result"]["refused"], "confirmation-unknown",
        "{spent}"
    );
    let made_up = server.confirm(&"switch-made-up", true).await.1;
    assert_eq!(made_up["result"]["refused"], "confirmation-unknown");
    assert_eq!(current().await, before);

    // Asked again and answered yes: the folder is the root, the choice is in its audit.
    let (_, asked) = server.post("/api/root", body.clone()).await;
    let id = asked["result"]["confirm"]["id"].clone();
    let yes = server.confirm(&id, true).await.1;
    assert_eq!(yes["declared"], true, "{yes}");
    assert_eq!(yes["result"]["ok"], true, "{yes}");
    assert_ne!(current().await, before);
    let chosen = server.audit().await;
    assert!(
        chosen.iter().any(|e| e["rule"] == "declared-by-person"
            && e["act"]["kind"] == "declare"
            && e["act"]["tool"] == "the page, confirmed"),
        "{chosen:?}"
    );
    assert_eq!(
        server.say("create a file called a.txt with b").await["result"]["ok"],
        true
    );
    assert!(other.path().join("a.txt").exists());
    let (_, root) = server.get("/api/root").await;
    assert_eq!(root["recent"][0], json!(other.path()), "{root}");

    // A folder that is not there is offered to be made: a No makes nothing,
    // a yes makes it and works there. A file is no folder; a relative path
    // is refused by name.
    let wanted = other.path().join("new").join("notes");
    let ask_to_make = || server.post("/api/root", json!({"path": wanted}));
    let (_, offered) = ask_to_make().await;
    let question = &offered["result"]["confirm"];
    assert_eq!(
        question["question"], "Make notes and work there?",
        "{offered}"
    );
    let no = server.confirm(&question["id"], false).await.1;
    assert_eq!(no["result"]["refused"], "declined", "{no}");
    assert!(!wanted.exists(), "a No makes nothing");
    let (_, offered) = ask_to_make().await;
    let made = server
        .confirm(&offered["result"]["confirm"]["id"], true)
        .await
        .1;
    assert_eq!(made["declared"], true, "{made}");
    assert!(wanted.is_dir());
    assert_eq!(current().await, json!(wanted.canonicalize().unwrap()));
    assert!(
        server
            .audit()
            .await
            .iter()
            .any(|e| e["rule"] == "declared-by-person" && e["act"]["kind"] == "declare"),
        "the made folder's audit holds the choice"
    );
    let (_, file) = server
        .post("/api/root", json!({"path": other.path().join("a.txt")}))
        .await;
    assert_eq!(file["refused"], "root-unreachable", "{file}");
    let (_, missing) = server
        .post_with_token("/api/root", json!({"path": other.path().join("nope")}))
        .await;
    assert_eq!(missing["refused"], "root-unreachable", "{missing}");
    assert!(
        !other.path().join("nope").exists(),
        "the host token makes nothing"
    );
    let (status, relative) = server.post("/api/root", json!({"path": "notes"})).await;
    assert_eq!(
        (status, relative["refused"].as_str()),
        (400, Some("malformed-field"))
    );

    // The host token declares at once.
    let third = tempfile::TempDir::new().unwrap();
    let (_, declared) = server
        .post_with_token("/api/root", json!({"path": third.path()}))
        .await;
    assert_eq!(declared["declared"], true, "{declared}");
    assert_eq!(current().await, json!(third.path().canonicalize().unwrap()));
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

/// Opens `path` as a WebSocket with `headers`: the subprotocol the server
/// chose, or the refusal's status and rule.
async fn socket(
    server: &Server,
    path: &str,
    headers: &[(&str, String)],
) -> Result<Option<String>, (u16, String)> {
    use tokio_tungstenite::tungstenite::{Error, client::IntoClientRequest};
    let mut request = format!("ws://127.0.0.1:{}{path}", server.port)
        .into_client_request()
        .unwrap();
    for (name, value) in headers {
        let name = http::HeaderName::from_bytes(name.as_bytes()).unwrap();
        request.headers_mut().insert(name, value.parse().unwrap());
    }
    match tokio_tungstenite::connect_async(request).await {
        Ok((_, response)) => Ok(response
            .headers()
            .get("sec-websocket-protocol")
            .map(|chosen| chosen.to_str().unwrap().to_string())),
        Err(Error::Http(response)) => {
            let body = String::from_utf8_lossy(response.body().as_deref().unwrap_or_default());
            Err((response.status().as_u16(), rule(&body)))
        }
        Err(e) => panic!("{path}: {e}"),
    }
}

/// An exchange over a raw socket that tolerates the server closing early
/// (it answers a head it will not read whole, then closes): the status and
/// the body of what came back.
fn raw_bytes(port: u16, request: &[u8]) -> (u16, String) {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    let _ = stream.write_all(request);
    let mut response = Vec::new();
    let mut chunk = [0u8; 4096];
    while let Ok(n @ 1..) = stream.read(&mut chunk) {
        response.extend_from_slice(&chunk[..n]);
    }
    let response = String::from_utf8_lossy(&response).into_owned();
    let status = response.split(' ').nth(1).unwrap_or("0").parse().unwrap();
    let body = response.split("\r\n\r\n").nth(1).unwrap_or("").to_string();
    (status, body)
}

#[tokio::test]
async fn an_absolute_form_target_is_held_to_the_host_rule() {
    let server = Server::start();
    let port = server.port;
    let (host, token) = (
        format!("127.0.0.1:{port}"),
        format!("x-voicebox-host-token: {}\r\n", server.token),
    );
    let get = |target: &str| get_request(&host, target, &token);
    for target in [
        "http://evil.example/api/files".to_string(),
        format!("http://evil.example:{port}/api/files"),
        format!("http://127.0.0.1:{}/api/files", port + 1),
        "http://127.0.0.1/api/files".to_string(),
    ] {
        let (status, text) = raw(port, &get(&target));
        assert_eq!(
            (status, rule(&text).as_str()),
            (403, "foreign-host"),
            "{target}"
        );
    }
    // Controls: the origin form, and an absolute form naming this server.
    for target in [
        "/api/files".to_string(),
        format!("http://127.0.0.1:{port}/api/files"),
        format!("http://localhost:{port}/api/files"),
    ] {
        let (status, text) = raw(port, &get(&target));
        assert_eq!(status, 200, "{target}: {text}");
    }
}

#[tokio::test]
async fn a_socket_takes_the_session_as_a_subprotocol_and_never_echoes_it() {
    let server = Server::start();
    let own = ("origin", server.origin());
    let offered = |session: &str| {
        (
            "sec-websocket-protocol",
            format!("voicebox, voicebox.session.{session}"),
        )
    };
    let wrong = "0".repeat(server.session.len());
    for path in ["/channel", "/live"] {
        for (headers, want) in [
            (vec![own.clone()], (401, "no-authority")),
            (vec![own.clone(), offered(&wrong)], (401, "no-authority")),
            (
                vec![
                    own.clone(),
                    ("cookie", format!("voicebox_session={}", server.session)),
                ],
                (401, "no-authority"),
            ),
            (
                vec![
                    ("origin", "http://127.0.0.1:1".into()),
                    offered(&server.session),
                ],
                (403, "foreign-origin"),
            ),
            (vec![offered(&server.session)], (403, "foreign-origin")),
        ] {
            assert_eq!(
                socket(&server, path, &headers).await,
                Err((want.0, want.1.to_string())),
                "{path} {headers:?}"
            );
        }
        assert_eq!(
            socket(&server, path, &[own.clone(), offered(&server.session)]).await,
            Ok(Some("voicebox".to_string())),
            "{path}: the page's socket opens, answered with the plain protocol"
        );
        assert_eq!(
            socket(
                &server,
                path,
                &[own.clone(), ("x-voicebox-session", server.session.clone())]
            )
            .await,
            Ok(None),
            "{path}: a client that can set headers may send the session as one"
        );
    }
}

#[tokio::test]
async fn hypers_own_refusals_carry_a_rule_id() {
    let server = Server::start();
    let port = server.port;
    let host = format!("127.0.0.1:{port}");
    let head = |extra: &str| get_request(&host, "/api/health", extra);
    // A raw 0xFF in the query.
    let rest = format!("Host: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n");
    let bad = [b"GET /api/health?q=\xFF HTTP/1.1\r\n", rest.as_bytes()].concat();
    let (status, text) = raw_bytes(port, &bad);
    assert_eq!(
        (status, rule(&text).as_str()),
        (400, "malformed-request"),
        "{text}"
    );
    // More headers than the server reads, and one header of 1 MiB.
    let many: String = (0..200).map(|n| format!("x-h{n}: v\r\n")).collect();
    let (status, text) = raw_bytes(port, head(&many).as_bytes());
    assert_eq!(
        (status, rule(&text).as_str()),
        (431, "head-too-large"),
        "{text}"
    );
    let huge = format!("x-big: {}\r\n", "a".repeat(1 << 20));
    let (status, text) = raw_bytes(port, head(&huge).as_bytes());
    assert_eq!(
        (status, rule(&text).as_str()),
        (431, "head-too-large"),
        "{text}"
    );
    // Controls: the byte percent-encoded, and a few headers, are served.
    let encoded = [b"GET /api/health?q=%FF HTTP/1.1\r\n", rest.as_bytes()].concat();
    assert_eq!(raw_bytes(port, &encoded).0, 200);
    let (status, text) = raw_bytes(port, head("x-h: v\r\n").as_bytes());
    assert_eq!(status, 200, "{text}");
}
