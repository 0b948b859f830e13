//! Extensions end to end: proposals never load, only the person at the host
//! admits (token or console code), and the declared bounds hold at call time.

mod bounds;
#[path = "../common/mod.rs"]
mod common;
mod console;

use common::Server;
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::sync::mpsc;

/// A server whose extensions may reach the loopback fake below: the
/// operator's documented opt-in (the default refuses loopback hosts).
fn start() -> Server {
    Server::start_with_env(&[(voicebox_machine::egress::LOOPBACK_OPT_IN, "1")])
}

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
    let id = descriptor["id"].as_str().unwrap().to_string();
    propose(server, descriptor).await;
    admit(server, &id).await
}

/// Admits `id` with the host token; the route's reply.
async fn admit(server: &Server, id: &str) -> Value {
    server
        .post_with_token("/api/extensions/admit", json!({"id": id}))
        .await
        .1
}

async fn call(server: &Server, id: &str, tool: &str, args: Value) -> Value {
    let reply = server
        .act(json!({"verb": "call_extension", "id": id, "tool": tool, "args": args}))
        .await;
    reply["result"].clone()
}

/// The rule a call of `tool` with no arguments is refused by (null where it
/// is not refused).
async fn refusal(server: &Server, id: &str, tool: &str) -> Value {
    call(server, id, tool, json!({})).await["refused"].clone()
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
        refusal(&server, "weather", "clock").await,
        "not-admitted",
        "proposing loads nothing"
    );

    // A descriptor dropped into the folder by hand is present, never admitted.
    let dropped = server.state.join("extensions/proposals/sneaky.json");
    std::fs::write(&dropped, descriptor("sneaky", "by hand").to_string()).unwrap();
    assert_eq!(state_of(&server, "sneaky").await, "present-not-admitted");
    let admitted = admit(&server, "sneaky").await;
    assert_eq!(admitted["result"]["refused"], "not-admitted");

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
    assert_eq!(refusal(&server, "weather", "clock").await, "plan-changed");
    admit(&server, "weather").await;
    let (_, revoked) = server
        .post("/api/extensions/revoke", json!({"id": "weather"}))
        .await;
    assert_eq!(revoked["result"]["ok"], true);
    assert_eq!(refusal(&server, "weather", "clock").await, "not-admitted");
}

#[tokio::test]
async fn the_gate_names_what_is_wrong() {
    let server = start();
    let unbounded = json!({"id": "spy", "description": "d", "capabilities": ["network"], "tools": [{"name": "f", "primitive": "http-get"}]});
    let reply = propose(&server, unbounded).await;
    assert_eq!(reply["result"]["refused"], "network-unbounded");
    assert_eq!(state_of(&server, "spy").await, "refused");
    let admitted = admit(&server, "spy").await;
    assert_eq!(
        admitted["result"]["refused"], "network-unbounded",
        "a refused proposal cannot be admitted"
    );
    let exec = json!({"id": "shell", "description": "d", "capabilities": ["exec"], "tools": []});
    let reply = server
        .act(json!({"verb": "make-tool", "descriptor": exec}))
        .await;
    assert_eq!(reply["result"]["refused"], "exec-absent");
}

/// Proposals wait for the person in bounded number: past the cap one is
/// refused by name and not stored, from the page and through a turn alike;
/// withdrawing one makes room (the control).
#[tokio::test]
async fn proposals_wait_in_bounded_number_until_some_are_withdrawn() {
    let server = start();
    let cap = voicebox_machine::extensions::MAX_WAITING_PROPOSALS;
    for n in 0..cap {
        let reply = propose(&server, descriptor(&format!("p{n}"), "d")).await;
        assert_eq!(reply["result"]["ok"], true, "{n}: {reply}");
    }
    let refused = propose(&server, descriptor("one-more", "d")).await;
    common::assert_refused_saying(
        &refused["result"], "too-many-proposals", "withdraw some first",
    );
    let turned = server
        .act(json!({"verb": "propose_extension", "descriptor": descriptor("one-more", "d")}))
        .await;
    assert_eq!(
        turned["result"]["refused"], "too-many-proposals",
        "{turned}"
    );
    assert_eq!(
        state_of(&server, "one-more").await,
        "",
        "nothing was stored"
    );
    let (_, listed) = server.get("/api/extensions").await;
    assert_eq!(listed["extensions"].as_array().unwrap().len(), cap);

    let (_, withdrawn) = server
        .post("/api/extensions/withdraw", json!({"id": "p0"}))
        .await;
    assert_eq!(withdrawn["result"]["ok"], true, "{withdrawn}");
    let accepted = propose(&server, descriptor("one-more", "d")).await;
    assert_eq!(accepted["result"]["ok"], true, "{accepted}");
    assert_eq!(state_of(&server, "one-more").await, "pending");
}
