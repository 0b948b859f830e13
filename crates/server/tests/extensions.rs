//! Extensions end to end: proposals never load, only the person at the host
//! admits (token or console code), and the declared bounds hold at call time.

mod common;

use common::Server;
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;

/// A tiny HTTP server on 127.0.0.1: `/ok` answers "hello", `/hop` redirects
/// to `/ok` on the same host, `/away` redirects to `localhost` (another name).
fn origin_server() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for stream in listener.incoming().take(64) {
            let mut stream = stream.unwrap();
            let mut request = String::new();
            BufReader::new(&stream).read_line(&mut request).unwrap();
            let path = request.split(' ').nth(1).unwrap_or("/").to_string();
            let response = match path.as_str() {
                "/ok" => "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello".to_string(),
                "/hop" => "HTTP/1.1 302 Found\r\nLocation: /ok\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".to_string(),
                "/loop" => "HTTP/1.1 302 Found\r\nLocation: /loop\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".to_string(),
                _ => format!("HTTP/1.1 302 Found\r\nLocation: http://localhost:{port}/ok\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"),
            };
            let _ = stream.write_all(response.as_bytes());
        }
    });
    port
}

/// A server whose extensions may reach the loopback fake above: the
/// operator's documented opt-in (the default refuses loopback hosts).
fn start() -> Server {
    Server::start_with_env(&[(voicebox_machine::egress::LOOPBACK_OPT_IN, "1")])
}

fn descriptor(id: &str, description: &str) -> Value {
    json!({
        "id": id, "description": description, "capabilities": ["network", "write", "read"],
        "bounds": {"hosts": ["127.0.0.1"], "maxRequests": 3, "maxBytes": 10},
        "tools": [
            {"name": "fetch", "primitive": "http-get"},
            {"name": "save", "primitive": "write-file"},
            {"name": "clock", "primitive": "now"}
        ]
    })
}

/// Proposes `descriptor` from the page; the route's reply.
async fn propose(server: &Server, descriptor: Value) -> Value {
    server
        .post(
            "/api/extensions/proposals",
            json!({"descriptor": descriptor}),
        )
        .await
        .1
}

/// Proposes `descriptor` and admits it with the host token; the admission's reply.
async fn propose_and_admit(server: &Server, descriptor: Value) -> Value {
    let id = descriptor["id"].clone();
    propose(server, descriptor).await;
    server
        .post_with_token("/api/extensions/admit", json!({"id": id}))
        .await
        .1
}

async fn call(server: &Server, id: &str, tool: &str, args: Value) -> Value {
    let (_, reply) = server
        .post(
            "/api/turn",
            json!({"action": {"verb": "call_extension", "id": id, "tool": tool, "args": args}}),
        )
        .await;
    reply["result"].clone()
}

async fn state_of(server: &Server, id: &str) -> String {
    let (_, list) = server.get("/api/extensions").await;
    list["extensions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["id"] == id)
        .map(|e| e["state"].as_str().unwrap().to_string())
        .unwrap_or_default()
}

#[tokio::test]
async fn proposals_never_load_and_the_token_admits() {
    let server = start();
    let proposed = propose(&server, descriptor("weather", "fetch a forecast")).await;
    assert_eq!(proposed["result"]["ok"], true, "{proposed}");
    assert_eq!(state_of(&server, "weather").await, "pending");
    assert_eq!(
        call(&server, "weather", "clock", json!({})).await["refused"],
        "not-admitted",
        "proposing loads nothing"
    );

    // A descriptor dropped into the folder by hand is present, never admitted.
    let dropped = server.state.join("extensions/proposals/sneaky.json");
    std::fs::write(&dropped, descriptor("sneaky", "by hand").to_string()).unwrap();
    assert_eq!(state_of(&server, "sneaky").await, "present-not-admitted");
    let (_, admit) = server
        .post_with_token("/api/extensions/admit", json!({"id": "sneaky"}))
        .await;
    assert_eq!(admit["result"]["refused"], "not-admitted");

    // Admission needs the person at the host: the page alone is refused.
    let (status, refused) = server
        .post("/api/extensions/admit", json!({"id": "weather"}))
        .await;
    assert_eq!(
        (status, refused["refused"].as_str()),
        (403, Some("host-token-required"))
    );
    let wrong = reqwest::Client::new()
        .post(server.url("/api/extensions/admit"))
        .header("x-voicebox-host-token", "wrong")
        .json(&json!({"id": "weather"}))
        .send()
        .await
        .unwrap();
    assert_eq!(wrong.status(), 403);
    assert_eq!(state_of(&server, "weather").await, "pending");
    let (status, admitted) = server
        .post_with_token("/api/extensions/admit", json!({"id": "weather"}))
        .await;
    assert_eq!(
        (status, admitted["result"]["ok"].as_bool()),
        (200, Some(true)),
        "{admitted}"
    );
    assert_eq!(state_of(&server, "weather").await, "admitted");
    assert!(
        call(&server, "weather", "clock", json!({})).await["output"]
            .as_str()
            .unwrap()
            .ends_with('Z')
    );

    // The admission was audited: an attempt before, the outcome after.
    let entries = server.audit().await;
    let admission: Vec<&Value> = entries
        .iter()
        .filter(|e| e["rule"] == "admitted-by-person")
        .collect();
    assert_eq!(admission.len(), 2);
    assert_eq!(
        (
            admission[0]["decision"].as_str(),
            admission[1]["result"].as_str()
        ),
        (Some("attempt"), Some("ok"))
    );

    // Re-proposing a changed plan un-admits it until admitted again; revoke works.
    propose(&server, descriptor("weather", "changed")).await;
    assert_eq!(
        call(&server, "weather", "clock", json!({})).await["refused"],
        "plan-changed"
    );
    server
        .post_with_token("/api/extensions/admit", json!({"id": "weather"}))
        .await;
    let (_, revoked) = server
        .post("/api/extensions/revoke", json!({"id": "weather"}))
        .await;
    assert_eq!(revoked["result"]["ok"], true);
    assert_eq!(
        call(&server, "weather", "clock", json!({})).await["refused"],
        "not-admitted"
    );
}

#[tokio::test]
async fn the_gate_names_what_is_wrong() {
    let server = start();
    let unbounded = json!({"id": "spy", "description": "d", "capabilities": ["network"], "tools": [{"name": "f", "primitive": "http-get"}]});
    let reply = propose(&server, unbounded).await;
    assert_eq!(reply["result"]["refused"], "network-unbounded");
    assert_eq!(state_of(&server, "spy").await, "refused");
    let (_, admit) = server
        .post_with_token("/api/extensions/admit", json!({"id": "spy"}))
        .await;
    assert_eq!(
        admit["result"]["refused"], "network-unbounded",
        "a refused proposal cannot be admitted"
    );
    let exec = json!({"id": "shell", "description": "d", "capabilities": ["exec"], "tools": []});
    let (_, reply) = server
        .post(
            "/api/turn",
            json!({"action": {"verb": "make-tool", "descriptor": exec}}),
        )
        .await;
    assert_eq!(reply["result"]["refused"], "exec-absent");
}

#[tokio::test]
async fn the_console_code_lifecycle_and_the_code_never_leaves_the_console() {
    let server = start();
    let mut bodies: Vec<String> = Vec::new();
    let post = |path: &'static str, body: Value| {
        let server = &server;
        async move { server.post(path, body).await }
    };
    propose(&server, descriptor("notes", "d")).await;
    let console_code = |server: &Server| -> String {
        let lines = server.console.lock().unwrap();
        let line = lines
            .iter()
            .rev()
            .find(|l| l.contains("approval code"))
            .expect("a code on the console");
        line.split(": ")
            .nth(1)
            .unwrap()
            .split(' ')
            .next()
            .unwrap()
            .to_string()
    };
    let wait_for_code = |server: &Server, n: usize| {
        for _ in 0..100 {
            if server
                .console
                .lock()
                .unwrap()
                .iter()
                .filter(|l| l.contains("approval code"))
                .count()
                >= n
            {
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        panic!("no code printed");
    };

    // Wrong codes count; the fifth burns the code.
    let (_, asked) = post("/api/extensions/approval-request", json!({"id": "notes"})).await;
    bodies.push(asked.to_string());
    assert_eq!(asked["ok"], true);
    wait_for_code(&server, 1);
    let code = console_code(&server);
    assert_eq!(code.len(), 8);
    let wrong = if code == "00000000" {
        "11111111"
    } else {
        "00000000"
    };
    for attempt in 1..=5 {
        let (_, reply) = post(
            "/api/extensions/approve",
            json!({"id": "notes", "code": wrong}),
        )
        .await;
        bodies.push(reply.to_string());
        assert_eq!(
            reply["result"]["refused"], "code-invalid",
            "attempt {attempt}"
        );
    }
    let (_, burned) = post(
        "/api/extensions/approve",
        json!({"id": "notes", "code": code}),
    )
    .await;
    bodies.push(burned.to_string());
    assert_eq!(
        burned["result"]["refused"], "code-invalid",
        "the right code is burned too"
    );

    // The plan changed after the code was issued: refused.
    let (_, asked) = post("/api/extensions/approval-request", json!({"id": "notes"})).await;
    bodies.push(asked.to_string());
    wait_for_code(&server, 2);
    let code = console_code(&server);
    propose(&server, descriptor("notes", "changed")).await;
    let (_, changed) = post(
        "/api/extensions/approve",
        json!({"id": "notes", "code": code}),
    )
    .await;
    bodies.push(changed.to_string());
    assert_eq!(changed["result"]["refused"], "plan-changed");

    // The right code, once: admitted; reused: refused.
    let (_, asked) = post("/api/extensions/approval-request", json!({"id": "notes"})).await;
    bodies.push(asked.to_string());
    wait_for_code(&server, 3);
    let code = console_code(&server);
    let (_, ok) = post(
        "/api/extensions/approve",
        json!({"id": "notes", "code": code}),
    )
    .await;
    bodies.push(ok.to_string());
    assert_eq!(ok["result"]["ok"], true, "{ok}");
    let (_, reused) = post(
        "/api/extensions/approve",
        json!({"id": "notes", "code": code}),
    )
    .await;
    bodies.push(reused.to_string());
    assert_eq!(reused["result"]["refused"], "code-invalid");
    assert_eq!(state_of(&server, "notes").await, "admitted");

    // No HTTP response ever carried a code.
    let codes: Vec<String> = server
        .console
        .lock()
        .unwrap()
        .iter()
        .filter(|l| l.contains("approval code"))
        .map(|l| {
            l.split(": ")
                .nth(1)
                .unwrap()
                .split(' ')
                .next()
                .unwrap()
                .to_string()
        })
        .collect();
    let (_, list) = server.get("/api/extensions").await;
    bodies.push(list.to_string());
    bodies.push(serde_json::to_string(&server.audit().await).unwrap());
    for code in &codes {
        for body in &bodies {
            assert!(!body.contains(code.as_str()), "a response carried the code");
        }
    }
}

#[tokio::test]
async fn declared_bounds_hold_at_call_time() {
    let server = start();
    let port = origin_server();
    propose_and_admit(&server, descriptor("weather", "d")).await;
    let url = |path: &str| format!("http://127.0.0.1:{port}{path}");

    let ok = call(&server, "weather", "fetch", json!({"url": url("/ok")})).await;
    assert_eq!(ok["output"], "hello", "{ok}");
    let other = call(
        &server,
        "weather",
        "fetch",
        json!({"url": format!("http://localhost:{port}/ok")}),
    )
    .await;
    assert_eq!(other["refused"], "host-not-allowed", "a host not declared");
    let away = call(&server, "weather", "fetch", json!({"url": url("/away")})).await;
    assert_eq!(
        away["refused"], "host-not-allowed",
        "a redirect to a host not declared"
    );
    let hop = call(&server, "weather", "fetch", json!({"url": url("/ok")})).await;
    assert_eq!(hop["output"], "hello");
    // Three requests were made (ok, away's first hop, ok): the fourth is over budget.
    let over = call(&server, "weather", "fetch", json!({"url": url("/ok")})).await;
    assert_eq!(over["refused"], "budget-exhausted", "{over}");

    let big = call(
        &server,
        "weather",
        "save",
        json!({"name": "n.txt", "content": "more than ten bytes"}),
    )
    .await;
    assert_eq!(big["refused"], "over-budget");
    assert!(!server.root.join("n.txt").exists());
    let small = call(
        &server,
        "weather",
        "save",
        json!({"name": "n.txt", "content": "ten bytes!"}),
    )
    .await;
    assert_eq!(small["ok"], true);
    let escape = call(
        &server,
        "weather",
        "save",
        json!({"name": "../n.txt", "content": "x"}),
    )
    .await;
    assert_eq!(
        escape["refused"], "outside-root",
        "extensions go through the same containment"
    );
    let entries = server.audit().await;
    assert!(
        entries
            .iter()
            .any(|e| e["turn"] == "ext:weather.fetch" && e["rule"] == "admitted-egress")
    );
}

#[tokio::test]
async fn a_wasm_extension_runs_the_shelf_module_its_digest_pins() {
    let server = start();
    let manifest: Value =
        serde_json::from_slice(&std::fs::read(server.state.join("shelf/manifest.json")).unwrap())
            .unwrap();
    let wc = manifest["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["id"] == "wc")
        .unwrap()["sha256"]
        .clone();
    let descriptor = json!({
        "id": "counter", "description": "counts words", "capabilities": ["wasm"],
        "tools": [{"name": "count", "primitive": "wasm", "digest": wc}]
    });
    propose_and_admit(&server, descriptor).await;
    let counted = call(
        &server,
        "counter",
        "count",
        json!({"input": "one two three"}),
    )
    .await;
    assert_eq!(
        counted["output"], r#"{"lines":0,"words":3,"bytes":13}"#,
        "{counted}"
    );
    let pinned_to_nothing = json!({
        "id": "ghost", "description": "d", "capabilities": ["wasm"],
        "tools": [{"name": "run", "primitive": "wasm", "digest": "0".repeat(64)}]
    });
    propose_and_admit(&server, pinned_to_nothing).await;
    assert_eq!(
        call(&server, "ghost", "run", json!({})).await["refused"],
        "tool-unavailable"
    );
}

/// Extensions are audited in, and run on, a folder of this machine: while a
/// page owns the active root they are refused by name (nothing stored), the
/// listing still answers, and declaring a machine folder again lets the same
/// proposal through.
#[tokio::test]
async fn extension_acts_wait_while_a_page_owns_the_root() {
    let server = start();
    let (status, _) = server
        .post("/api/root", json!({"kind": "opfs", "project": "atlas"}))
        .await;
    assert_eq!(status, 200);
    let proposal = json!({"descriptor": descriptor("weather", "reads the weather")});
    for (path, body) in [
        ("/api/extensions/proposals", proposal.clone()),
        ("/api/extensions/revoke", json!({"id": "weather"})),
        (
            "/api/extensions/approve",
            json!({"id": "weather", "code": "000000"}),
        ),
    ] {
        let (status, reply) = server.post(path, body).await;
        assert_eq!(status, 200, "{path}: {reply}");
        assert_eq!(
            reply["result"]["refused"], "root-is-page-owned",
            "{path}: {reply}"
        );
        assert!(
            reply["result"]["why"]
                .as_str()
                .unwrap()
                .contains("the page's (opfs v1/projects/atlas)"),
            "{path}: {reply}"
        );
    }
    let (_, asked) = server
        .post("/api/extensions/approval-request", json!({"id": "weather"}))
        .await;
    assert_eq!(asked["refused"], "root-is-page-owned", "{asked}");
    let (_, admitted) = server
        .post_with_token("/api/extensions/admit", json!({"id": "weather"}))
        .await;
    assert_eq!(
        admitted["result"]["refused"], "root-is-page-owned",
        "{admitted}"
    );
    assert!(
        !server
            .state
            .join("extensions/proposals/weather.json")
            .exists(),
        "nothing was stored"
    );
    let (status, listed) = server.get("/api/extensions").await;
    assert_eq!((status, &listed["ok"]), (200, &json!(true)));

    let (status, _) = server
        .post_with_token("/api/root", json!({"path": server.root.to_string_lossy()}))
        .await;
    assert_eq!(status, 200);
    let (_, reply) = server.post("/api/extensions/proposals", proposal).await;
    assert_eq!(reply["result"]["ok"], true, "{reply}");
    assert_eq!(state_of(&server, "weather").await, "pending");
}

/// A redirect loop stops after the hop limit with its own rule, and a chain
/// within the limit is followed to its end.
#[tokio::test]
async fn a_redirect_loop_stops_by_name_and_a_short_chain_is_followed() {
    let server = start();
    let port = origin_server();
    let mut roomy = descriptor("looper", "follows redirects");
    roomy["bounds"]["maxRequests"] = json!(20);
    propose_and_admit(&server, roomy).await;
    let url = |path: &str| format!("http://127.0.0.1:{port}{path}");
    let looped = call(&server, "looper", "fetch", json!({"url": url("/loop")})).await;
    assert_eq!(looped["refused"], "too-many-redirects", "{looped}");
    let hop = call(&server, "looper", "fetch", json!({"url": url("/hop")})).await;
    assert_eq!(hop["output"], "hello", "{hop}");
}
