//! A vendor on 127.0.0.1 that records each request and answers what the test
//! gives it, or 400 when the request's shape is wrong.

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// One request the fake received.
#[derive(Clone, Debug)]
pub struct Seen {
    pub method: String,
    pub path: String,
    pub headers: HeaderMap,
    pub body: Value,
}

#[derive(Clone)]
pub enum Reply {
    Json(u16, Value),
    Text(u16, &'static str),
}

pub struct FakeState {
    check: fn(&Seen) -> Result<(), String>,
    reply: Mutex<Reply>,
    pub delay: Mutex<Duration>,
    seen: Mutex<Vec<Seen>>,
    problems: Mutex<Vec<String>>,
}

/// A vendor on 127.0.0.1: records each request, answers 400 in the
/// vendor's error shape when the request's shape is wrong, else the reply
/// it was given.
pub struct Fake {
    pub base: String,
    pub state: Arc<FakeState>,
}

impl Fake {
    pub async fn start(check: fn(&Seen) -> Result<(), String>) -> Fake {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let state = Arc::new(FakeState {
            check,
            reply: Mutex::new(Reply::Json(500, json!({}))),
            delay: Mutex::new(Duration::ZERO),
            seen: Mutex::new(Vec::new()),
            problems: Mutex::new(Vec::new()),
        });
        let app = Router::new().fallback(answer).with_state(state.clone());
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        Fake { base, state }
    }

    pub fn reply(&self, reply: Reply) {
        *self.state.reply.lock().unwrap() = reply;
    }

    pub fn seen(&self) -> Vec<Seen> {
        self.state.seen.lock().unwrap().clone()
    }

    pub fn problems(&self) -> Vec<String> {
        self.state.problems.lock().unwrap().clone()
    }
}

async fn answer(
    State(fake): State<Arc<FakeState>>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let seen = Seen {
        method: method.to_string(),
        path: uri.path().to_string(),
        headers,
        body: serde_json::from_slice(&body).unwrap_or(Value::Null),
    };
    let verdict = (fake.check)(&seen);
    fake.seen.lock().unwrap().push(seen);
    if let Err(problem) = verdict {
        fake.problems.lock().unwrap().push(problem.clone());
        let error = json!({"error": {"message": format!("fake vendor: {problem}")}});
        return (StatusCode::BAD_REQUEST, axum::Json(error)).into_response();
    }
    let delay = *fake.delay.lock().unwrap();
    tokio::time::sleep(delay).await;
    let reply = fake.reply.lock().unwrap().clone();
    match reply {
        Reply::Json(code, body) => {
            (StatusCode::from_u16(code).unwrap(), axum::Json(body)).into_response()
        }
        Reply::Text(code, text) => (
            StatusCode::from_u16(code).unwrap(),
            [("content-type", "text/html")],
            text,
        )
            .into_response(),
    }
}
