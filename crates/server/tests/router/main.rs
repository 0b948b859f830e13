//! The HTTP shape and the guard, in-process: `serve::router` driven with
//! `tower::ServiceExt::oneshot`, no server process and no socket. What needs
//! a process (signals, kill -9, a browser) stays in the other files.

mod entry_points;
mod guard;
mod headers;
mod mcp;

use axum::Router;
use axum::body::Body;
use axum::http::{HeaderMap, Request, StatusCode, header};
use serde_json::{Value, json};
use std::path::PathBuf;
use tempfile::TempDir;
use tower::ServiceExt;
use voicebox::host::Resolver;
use voicebox::serve::{AppState, Config, SESSION_HEADER, router};
use voicebox::state_dir::StateDir;

/// The port the app believes it is bound to; nothing listens on it.
const PORT: u16 = 7999;

/// The whole application on a fresh root and state folder.
struct App {
    router: Router,
    token: String,
    /// This start's page secret, and the page's session it was traded for.
    secret: String,
    session: String,
    root: PathBuf,
    _dirs: (TempDir, TempDir),
}

/// One answer: the status, the headers and the body (JSON when it is).
struct Answer {
    status: StatusCode,
    headers: HeaderMap,
    text: String,
}

impl Answer {
    fn json(&self) -> Value {
        serde_json::from_str(&self.text).unwrap_or(Value::Null)
    }

    /// The status and the refusal's rule, if any.
    fn refused(&self) -> (u16, String) {
        let rule = self.json()["refused"].as_str().unwrap_or("").to_string();
        (self.status.as_u16(), rule)
    }
}

impl App {
    async fn new() -> App {
        App::new_with(|_| {}).await
    }

    /// The application with its state changed by `edit` first (a smaller
    /// bound, say).
    async fn new_with(edit: impl FnOnce(&mut AppState)) -> App {
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
        let mut state = AppState::new(host, token.clone(), PORT, &config);
        edit(&mut state);
        let secret = state.guard.page().secret().to_string();
        let mut app = App {
            router: router(state),
            token,
            secret,
            session: String::new(),
            root,
            _dirs: dirs,
        };
        let opened = app
            .get_as_stranger(&format!("/?token={}", app.secret))
            .await;
        let location = opened.headers[header::LOCATION].to_str().unwrap();
        app.session = location.strip_prefix("/#session=").unwrap().to_string();
        app
    }

    async fn send(&self, request: Request<Body>) -> Answer {
        let response = self.router.clone().oneshot(request).await.unwrap();
        let (parts, body) = response.into_parts();
        let bytes = axum::body::to_bytes(body, usize::MAX).await.unwrap();
        Answer {
            status: parts.status,
            headers: parts.headers,
            text: String::from_utf8_lossy(&bytes).into_owned(),
        }
    }

    /// A GET from the page (its session).
    async fn get(&self, path: &str) -> Answer {
        let request = request("GET", path).header(SESSION_HEADER, &self.session);
        self.send(request.body(Body::empty()).unwrap()).await
    }

    /// A GET with no authority at all.
    async fn get_as_stranger(&self, path: &str) -> Answer {
        self.send(request("GET", path).body(Body::empty()).unwrap())
            .await
    }

    /// A JSON POST from this server's own page (its session and its Origin).
    async fn post(&self, path: &str, body: &str) -> Answer {
        let request = self
            .as_page(request("POST", path))
            .body(Body::from(body.to_string()))
            .unwrap();
        self.send(request).await
    }

    /// The page's answer to the question `id` (`POST /api/confirm`).
    async fn confirm(&self, id: &str, approved: bool) -> Answer {
        let body = json!({"id": id, "approved": approved}).to_string();
        self.post("/api/confirm", &body).await
    }

    /// `builder` as this server's own page sends JSON: its Origin, its
    /// session and the JSON content type.
    fn as_page(&self, builder: axum::http::request::Builder) -> axum::http::request::Builder {
        builder
            .header(header::ORIGIN, own_origin())
            .header(SESSION_HEADER, &self.session)
            .header(header::CONTENT_TYPE, "application/json")
    }
}

fn own_origin() -> String {
    format!("http://127.0.0.1:{PORT}")
}

/// A request with this server's own `Host`.
fn request(method: &str, path: &str) -> axum::http::request::Builder {
    Request::builder()
        .method(method)
        .uri(path)
        .header(header::HOST, format!("127.0.0.1:{PORT}"))
}

const LIST: &str = r#"{"transcript":"list files"}"#;

#[tokio::test]
async fn malformed_bodies_are_named_4xx_never_500() {
    let app = App::new().await;
    for (path, body, rule) in [
        ("/api/turn", "{not json", "malformed-body"),
        ("/api/turn", "", "malformed-body"),
        ("/api/turn", "[]", "malformed-body"),
        ("/api/turn", r#"{"transcript": 3}"#, "malformed-body"),
        (
            "/api/turn",
            r#"{"transcript": "hi", "extra": 1}"#,
            "unknown-field",
        ),
        ("/api/turn", r#"{}"#, "missing-argument"),
        (
            "/api/turn",
            r#"{"transcript": "x", "action": {"verb": "list"}}"#,
            "missing-argument",
        ),
        ("/api/confirm", r#"{"id": "x"}"#, "malformed-body"),
        (
            "/api/confirm",
            r#"{"id": "x", "approved": "yes"}"#,
            "malformed-body",
        ),
        (
            "/api/keys",
            r#"{"keys": {"mistral": "k"}}"#,
            "unknown-field",
        ),
        (
            "/api/root",
            r#"{"kind": "floppy", "path": "/tmp"}"#,
            "malformed-body",
        ),
        (
            "/api/root",
            r#"{"kind": "opfs", "project": "../up"}"#,
            "malformed-field",
        ),
        (
            "/api/settings",
            r#"{"resolver": "oracle"}"#,
            "malformed-field",
        ),
        (
            "/api/extensions/admit",
            r#"{"id": "x", "plan": 1}"#,
            "unknown-field",
        ),
    ] {
        let method = if path == "/api/keys" || path == "/api/settings" {
            "PUT"
        } else {
            "POST"
        };
        let request = app
            .as_page(request(method, path))
            .body(Body::from(body))
            .unwrap();
        assert_eq!(
            app.send(request).await.refused(),
            (400, rule.into()),
            "{path} {body}"
        );
    }
    // An invalid action is the executor's refusal, in a 200.
    let answer = app
        .post("/api/turn", r#"{"action": {"verb": "launch"}}"#)
        .await;
    assert_eq!(
        (
            answer.status.as_u16(),
            answer.json()["result"]["refused"].as_str()
        ),
        (200, Some("unknown-verb"))
    );
    // And the host still serves the next request.
    assert_eq!(
        app.post("/api/turn", LIST).await.json()["result"]["ok"],
        true
    );
}

#[tokio::test]
async fn unknown_routes_and_methods_are_named_404s() {
    let app = App::new().await;
    assert_eq!(
        app.get("/api/nope").await.refused(),
        (404, "no-such-route".into())
    );
    assert_eq!(
        app.get("/no/such/file.js").await.refused(),
        (404, "no-such-route".into())
    );
    assert_eq!(
        app.post("/api/health", "{}").await.refused(),
        (404, "no-such-route".into())
    );
    assert_eq!(
        app.get("/api/health").await.status,
        200,
        "the sibling that exists"
    );
}

#[tokio::test]
async fn the_openapi_document_lists_every_route_and_its_statuses() {
    let app = App::new().await;
    let answer = app.get("/api/openapi.json").await;
    assert_eq!(answer.status, 200);
    let doc = answer.json();
    let paths = doc["paths"].as_object().unwrap();
    for path in [
        "/api/turn", "/api/confirm", "/api/health", "/api/audit", "/api/audit/verify", "/api/keys",
        "/api/root", "/api/files", "/api/file", "/api/settings", "/api/extensions",
        "/api/extensions/admit", "/live", "/channel", "/api/openapi.json",
    ] {
        assert!(paths.contains_key(path), "{path}");
    }
    // Every mutating route documents what the guard answers before it.
    for (path, methods) in paths {
        for (method, operation) in methods.as_object().unwrap() {
            let codes = &operation["responses"];
            assert!(codes.get("403").is_some(), "{method} {path} documents 403");
            if method != "get" {
                for code in ["413", "415"] {
                    assert!(
                        codes.get(code).is_some(),
                        "{method} {path} documents {code}"
                    );
                }
            }
        }
    }
    for code in ["200", "400", "403", "413", "415"] {
        assert!(
            paths["/api/turn"]["post"]["responses"].get(code).is_some(),
            "turn documents {code}"
        );
    }
    // A route's own 403 is kept over the shared one.
    let admit = paths["/api/extensions/admit"]["post"]["responses"]["403"]["description"].as_str();
    assert!(
        admit.is_some_and(|d| d.contains("host-token-required")),
        "{admit:?}"
    );
}

#[tokio::test]
async fn every_response_carries_a_strict_csp() {
    let app = App::new().await;
    for path in ["/", "/app.js", "/api/health", "/nope"] {
        let answer = app.get(path).await;
        let csp = answer.headers[header::CONTENT_SECURITY_POLICY]
            .to_str()
            .unwrap();
        assert!(
            csp.contains("script-src 'self'") && !csp.contains("unsafe-inline"),
            "{path}: {csp}"
        );
        assert_eq!(
            answer.headers[header::X_CONTENT_TYPE_OPTIONS],
            "nosniff",
            "{path}"
        );
    }
    assert_eq!(
        app.get("/api/health").await.headers[header::CACHE_CONTROL],
        "no-store"
    );
    let page = app.get("/").await.text;
    assert!(
        !page.contains("<script>") && !page.contains("onclick"),
        "no inline script"
    );
}

#[tokio::test]
async fn health_names_the_root_the_resolver_and_counts_refusals() {
    let app = App::new().await;
    let health = app.get("/api/health").await.json();
    assert_eq!(health["ok"], true);
    assert_eq!(health["declared"], true);
    assert_eq!(health["resolver"], "script");
    assert_eq!(
        json!([health["live"]["created"], health["live"]["running"]]),
        json!([0, 0])
    );
    let providers = health["live"]["providers"].as_array().unwrap();
    assert_eq!(providers.len(), 4, "{health}");
    // A refusal is counted for health.
    app.post("/api/turn", r#"{"action": {"verb": "launch"}}"#)
        .await;
    assert_eq!(app.get("/api/health").await.json()["refused"], 1);
}

#[tokio::test]
async fn a_turn_settles_the_name_against_the_root() {
    let app = App::new().await;
    std::fs::write(app.root.join("my notes.txt"), "scratch").unwrap();
    std::fs::write(app.root.join("notes.txt"), "important").unwrap();
    let read = app
        .post(
            "/api/turn",
            r#"{"transcript":"what's in my notes dot txt"}"#,
        )
        .await
        .json();
    assert_eq!(read["result"]["content"], "scratch", "{read}");
    let sibling = app
        .post("/api/turn", r#"{"transcript":"read notes.txt"}"#)
        .await
        .json();
    assert_eq!(sibling["result"]["content"], "important", "{sibling}");
}

#[tokio::test]
async fn it_in_the_next_turn_is_the_file_the_last_turn_named() {
    let app = App::new().await;
    let wrote = app
        .post("/api/turn", r#"{"transcript":"write hi to plan.txt"}"#)
        .await
        .json();
    assert_eq!(wrote["result"]["ok"], true, "{wrote}");
    let read = app
        .post("/api/turn", r#"{"transcript":"what's in it"}"#)
        .await
        .json();
    assert_eq!(read["action"]["name"], "plan.txt", "{read}");
    assert_eq!(read["result"]["content"], "hi");
}

#[tokio::test]
async fn a_guessed_change_is_asked_with_the_guess_and_one_yes_does_it() {
    let app = App::new().await;
    std::fs::write(app.root.join("house.md"), "# House\n").unwrap();
    let said = r#"{"transcript":"appnd the wifi password is on the fridge to house.md"}"#;
    let asked = app.post("/api/turn", said).await.json();
    let confirm = &asked["result"]["confirm"];
    assert_eq!(confirm["rule"], "unsure-change", "{asked}");
    assert_eq!(
        confirm["question"],
        "Did you mean: add 'the wifi password is on the fridge' to house.md?"
    );
    assert_eq!(confirm["rephrase"], true);
    let id = confirm["id"].as_str().unwrap();
    let done = app.confirm(id, true).await.json();
    assert_eq!(done["result"]["ok"], true, "{done}");
    assert_eq!(
        std::fs::read_to_string(app.root.join("house.md")).unwrap(),
        "# House\nthe wifi password is on the fridge"
    );
    // A no leaves the file as it was.
    let again = app.post("/api/turn", said).await.json();
    let id = again["result"]["confirm"]["id"].as_str().unwrap();
    let declined = app.confirm(id, false).await.json();
    assert_eq!(declined["result"]["refused"], "declined", "{declined}");
    assert_eq!(
        std::fs::read_to_string(app.root.join("house.md")).unwrap(),
        "# House\nthe wifi password is on the fridge"
    );
}
