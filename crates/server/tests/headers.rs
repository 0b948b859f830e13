//! Ambiguity and size, in-process (`router.oneshot`, no socket): a header
//! that decides who asks or what the body is, said twice, is
//! `duplicate-header`; a JSON key said twice is `duplicate-key`; the one body
//! cap answers by name, before reading a body whose declared length is over
//! it, and a 1 MiB write escaped at worst fits under it. Each refusal stands
//! beside the accepted request it differs from.

use axum::Router;
use axum::body::Body;
use axum::http::{Request, header};
use serde_json::{Value, json};
use std::path::PathBuf;
use tempfile::TempDir;
use tower::ServiceExt;
use voicebox::resolve::Resolver;
use voicebox::serve::{AppState, Config, router};
use voicebox::state_dir::StateDir;

/// The port the app believes it is bound to; nothing listens on it.
const PORT: u16 = 7998;

struct App {
    router: Router,
    token: String,
    root: PathBuf,
    _dirs: (TempDir, TempDir),
}

impl App {
    fn new() -> App {
        let dirs = (TempDir::new().unwrap(), TempDir::new().unwrap());
        let root = std::fs::canonicalize(dirs.0.path()).unwrap();
        let config = Config {
            root: Some(root.clone()),
            port: PORT,
            state: StateDir::new(Some(dirs.1.path().to_path_buf())),
            resolver: Resolver::Script,
            live_provider: None,
        };
        let token = config.state.host_token().unwrap();
        let host = AppState::open_host(&config).unwrap();
        let router = router(AppState::new(host, token.clone(), PORT, &config));
        App {
            router,
            token,
            root,
            _dirs: dirs,
        }
    }

    /// The status and the body as JSON (null when it is not).
    async fn send(&self, request: Request<Body>) -> (u16, Value) {
        let response = self.router.clone().oneshot(request).await.unwrap();
        let status = response.status().as_u16();
        let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
            .await
            .unwrap();
        (
            status,
            serde_json::from_slice(&bytes).unwrap_or(Value::Null),
        )
    }
}

/// A turn POST from this server's own page, with `extra` headers appended.
fn turn(body: impl Into<Body>, extra: &[(&str, String)]) -> Request<Body> {
    let mut builder = Request::post("/api/turn")
        .header(header::HOST, format!("127.0.0.1:{PORT}"))
        .header(header::ORIGIN, format!("http://127.0.0.1:{PORT}"))
        .header(header::CONTENT_TYPE, "application/json");
    for (name, value) in extra {
        builder = builder.header(*name, value);
    }
    builder.body(body.into()).unwrap()
}

fn write(content: &str) -> String {
    json!({"action": {"verb": "write", "name": "w.txt", "content": content}}).to_string()
}

fn refused(answer: &(u16, Value)) -> (u16, &str) {
    (answer.0, answer.1["refused"].as_str().unwrap_or(""))
}

#[tokio::test]
async fn each_deciding_header_said_twice_is_refused_and_once_is_read() {
    let app = App::new();
    let list = r#"{"transcript":"list files"}"#;
    let control = app.send(turn(list, &[])).await;
    assert_eq!(control.0, 200, "{}", control.1);
    for (name, second) in [
        ("host", "evil.example".to_string()),
        ("origin", "http://evil.example".to_string()),
        ("content-type", "text/plain".to_string()),
        // The same value twice is still two: which one a check reads must
        // never matter.
        ("content-type", "application/json".to_string()),
    ] {
        let answer = app.send(turn(list, &[(name, second.clone())])).await;
        assert_eq!(
            refused(&answer),
            (400, "duplicate-header"),
            "{name}: {second}"
        );
        assert!(
            answer.1["why"].as_str().unwrap().contains(name),
            "{}",
            answer.1
        );
    }
    // The token once (right) is read; twice, right then wrong or even both
    // right, is refused.
    let token = app.token.clone();
    let once = Request::post("/api/turn")
        .header(header::HOST, format!("127.0.0.1:{PORT}"))
        .header(header::CONTENT_TYPE, "application/json")
        .header("x-voicebox-host-token", &token)
        .body(Body::from(list))
        .unwrap();
    assert_eq!(app.send(once).await.0, 200);
    let twice = Request::post("/api/turn")
        .header(header::HOST, format!("127.0.0.1:{PORT}"))
        .header(header::CONTENT_TYPE, "application/json")
        .header("x-voicebox-host-token", &token)
        .header("x-voicebox-host-token", &token)
        .body(Body::from(list))
        .unwrap();
    assert_eq!(refused(&app.send(twice).await), (400, "duplicate-header"));
    let right_then_wrong = Request::post("/api/turn")
        .header(header::HOST, format!("127.0.0.1:{PORT}"))
        .header(header::CONTENT_TYPE, "application/json")
        .header("x-voicebox-host-token", &token)
        .header("x-voicebox-host-token", "wrong")
        .body(Body::from(list))
        .unwrap();
    assert_eq!(
        refused(&app.send(right_then_wrong).await),
        (400, "duplicate-header")
    );
    // Reads and WebSocket upgrades pass the same guard.
    let read = Request::get("/api/health")
        .header(header::HOST, format!("127.0.0.1:{PORT}"))
        .header(header::HOST, format!("127.0.0.1:{PORT}"))
        .body(Body::empty())
        .unwrap();
    assert_eq!(refused(&app.send(read).await), (400, "duplicate-header"));
    let upgrade = Request::get("/channel")
        .header(header::HOST, format!("127.0.0.1:{PORT}"))
        .header(header::ORIGIN, format!("http://127.0.0.1:{PORT}"))
        .header(header::ORIGIN, "http://evil.example")
        .body(Body::empty())
        .unwrap();
    assert_eq!(refused(&app.send(upgrade).await), (400, "duplicate-header"));
}

#[tokio::test]
async fn a_json_key_said_twice_is_refused_and_said_once_is_read() {
    let app = App::new();
    let twice = r#"{"action":{"verb":"write","name":"a.txt","name":"b.txt","content":"x"}}"#;
    let answer = app.send(turn(twice, &[])).await;
    assert_eq!(refused(&answer), (400, "duplicate-key"), "{}", answer.1);
    assert!(!app.root.join("a.txt").exists() && !app.root.join("b.txt").exists());
    let once = r#"{"action":{"verb":"write","name":"b.txt","content":"x"}}"#;
    let answer = app.send(turn(once, &[])).await;
    assert_eq!(answer.1["result"]["ok"], true, "{}", answer.1);
    assert!(app.root.join("b.txt").exists());
}

#[tokio::test]
async fn the_one_body_cap_names_what_is_over_it_and_a_worst_case_write_fits() {
    let app = App::new();
    // 3 MiB of body: a verb's own limit answers (in JSON), not a framework 413.
    let three = app.send(turn(write(&"z".repeat(3 << 20)), &[])).await;
    assert_eq!(
        (three.0, three.1["result"]["refused"].as_str()),
        (200, Some("too-large"))
    );
    // 9 MiB: over the cap.
    let nine = app.send(turn(write(&"x".repeat(9 << 20)), &[])).await;
    assert_eq!(refused(&nine), (413, "body-too-large"));
    assert!(
        nine.1["why"].as_str().unwrap().contains("MiB"),
        "{}",
        nine.1
    );
    // A 1 MiB write survives the worst JSON escaping: every byte `\u0000`
    // (6 MiB of JSON), or every byte a quote (2 MiB).
    let max = 1 << 20;
    for content in ["\u{1}".repeat(max), "\"".repeat(max)] {
        let body = write(&content);
        assert!(body.len() > 2 << 20);
        let answer = app.send(turn(body, &[])).await;
        assert_eq!(answer.1["result"]["ok"], true, "{}", answer.1["result"]);
        assert_eq!(std::fs::read(app.root.join("w.txt")).unwrap().len(), max);
    }
}

#[tokio::test]
async fn a_declared_length_over_the_cap_is_refused_before_any_body_is_read() {
    let app = App::new();
    // A body that never yields a byte: only a refusal that does not read it
    // can answer at all.
    let never = || {
        Body::from_stream(futures_util::stream::pending::<
            Result<Vec<u8>, std::io::Error>,
        >())
    };
    let declared = |length: u64| [("content-length", length.to_string())];
    let answer = app.send(turn(never(), &declared(100_000_000))).await;
    assert_eq!(refused(&answer), (413, "body-too-large"));
    // The sibling: a declared length under the cap is read (and answered).
    let list = r#"{"transcript":"list files"}"#;
    let answer = app.send(turn(list, &declared(list.len() as u64))).await;
    assert_eq!(answer.0, 200, "{}", answer.1);
    // GETs too: a declared body over the cap is refused on every route.
    let read = Request::get("/api/health")
        .header(header::HOST, format!("127.0.0.1:{PORT}"))
        .header(header::CONTENT_LENGTH, "100000000")
        .body(never())
        .unwrap();
    assert_eq!(refused(&app.send(read).await), (413, "body-too-large"));
}
