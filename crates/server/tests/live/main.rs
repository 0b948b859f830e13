//! `GET /live` against local fakes that speak each provider's real protocol
//! (as Gemini Live's and OpenAI Realtime's published docs give it): a real `voicebox
//! serve` with the provider's URL pointed at a WebSocket server on
//! 127.0.0.1 that records what it receives, and a test page that connects
//! to `/live` with the server's own Origin.

#[path = "../common/mod.rs"]
mod common;
mod openai;
mod session;
mod steer;
mod tool_calls;

use base64::Engine;
use common::Server;
use common::live_fake::{Fake, STEP, Upstream};
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use std::time::Duration;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::{Error, Message};
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};
use voicebox_core::command::COMMANDS;

const GEMINI_KEY: &str = "gm-test-key-4321";
const OPENAI_KEY: &str = "sk-test-key-8765";
const GEMINI_PATH: &str =
    "/ws/google.ai.generativelanguage.v1beta.GenerativeService.BidiGenerateContent";

/// What the page receives.
#[derive(Debug)]
enum Frame {
    Json(Value),
    Audio(Vec<u8>),
    Closed,
}

/// A test page connected to `/live`.
struct Page {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
}

impl Page {
    /// Opens `/live<query>` with `origin` (the server's own when `None`);
    /// a refused upgrade gives its status and body.
    async fn open_from(
        server: &Server,
        query: &str,
        origin: Option<&str>,
    ) -> Result<Page, (u16, String)> {
        let url = format!("ws://127.0.0.1:{}/live{query}", server.port);
        let mut request = url.into_client_request().unwrap();
        request.headers_mut().insert(
            "sec-websocket-protocol",
            server.socket_protocols().parse().unwrap(),
        );
        if let Some(origin) = origin {
            request
                .headers_mut()
                .insert("origin", origin.parse().unwrap());
        }
        match tokio_tungstenite::connect_async(request).await {
            Ok((ws, _)) => Ok(Page { ws }),
            Err(Error::Http(response)) => Err((
                response.status().as_u16(),
                String::from_utf8_lossy(response.body().as_deref().unwrap_or_default()).into(),
            )),
            Err(other) => panic!("{other}"),
        }
    }

    async fn open(server: &Server, query: &str) -> Page {
        Page::open_from(server, query, Some(&server.origin()))
            .await
            .expect("the own origin is let in")
    }

    async fn frame(&mut self) -> Frame {
        loop {
            let message = tokio::time::timeout(STEP, self.ws.next())
                .await
                .expect("the bridge told the page something");
            return match message {
                Some(Ok(Message::Text(text))) => Frame::Json(serde_json::from_str(&text).unwrap()),
                Some(Ok(Message::Binary(pcm))) => Frame::Audio(pcm.to_vec()),
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => Frame::Closed,
                Some(Ok(_)) => continue,
            };
        }
    }

    /// The next JSON frame (model audio skipped).
    async fn json(&mut self) -> Value {
        loop {
            match self.frame().await {
                Frame::Json(value) => return value,
                Frame::Audio(_) => continue,
                Frame::Closed => panic!("the page's socket closed"),
            }
        }
    }

    /// The next JSON frame, which must be of `kind`.
    async fn expect(&mut self, kind: &str) -> Value {
        let frame = self.json().await;
        assert_eq!(frame["type"], kind, "{frame}");
        frame
    }

    /// The `ready` frame, which says how many valid audio frames the
    /// bridge dropped while the provider was not ready.
    async fn expect_ready(&mut self, dropped: u64) {
        assert_eq!(
            self.expect("ready").await,
            json!({"type": "ready", "droppedBeforeReady": dropped})
        );
    }

    /// Every JSON frame until the socket closes.
    async fn rest(&mut self) -> Vec<Value> {
        let mut frames = Vec::new();
        loop {
            match self.frame().await {
                Frame::Json(value) => frames.push(value),
                Frame::Audio(_) => {}
                Frame::Closed => return frames,
            }
        }
    }

    async fn audio(&mut self, pcm: &[u8]) {
        self.ws.send(Message::binary(pcm.to_vec())).await.unwrap();
    }

    async fn text(&mut self, frame: Value) {
        self.ws
            .send(Message::text(frame.to_string()))
            .await
            .unwrap();
    }
}

/// `samples` of PCM16 LE, distinct per `seed`.
fn pcm(samples: usize, seed: u8) -> Vec<u8> {
    (0..samples * 2)
        .map(|i| (i as u8).wrapping_mul(31).wrapping_add(seed))
        .collect()
}

fn unbase64(text: &Value) -> Vec<u8> {
    base64::engine::general_purpose::STANDARD
        .decode(text.as_str().unwrap())
        .unwrap()
}

fn verbs() -> Vec<&'static str> {
    COMMANDS.iter().map(|c| c.verb).collect()
}

/// A fake Gemini Live upstream, and a server whose Gemini Live it is.
async fn gemini_server() -> (Fake, Server) {
    let fake = Fake::start().await;
    let url = fake.url(GEMINI_PATH);
    let server = tokio::task::block_in_place(|| {
        Server::start_with_env(&[
            ("VOICEBOX_GEMINI_LIVE_URL", &url),
            ("VOICEBOX_GEMINI_LIVE_MODEL", "gemini-live-test"),
            ("GEMINI_API_KEY", GEMINI_KEY),
        ])
    });
    (fake, server)
}

/// A fake OpenAI Realtime upstream, and a server whose OpenAI Realtime it is.
async fn openai_server() -> (Fake, Server) {
    let fake = Fake::start().await;
    let url = fake.url("/v1/realtime");
    let server = tokio::task::block_in_place(|| {
        Server::start_with_env(&[
            ("VOICEBOX_OPENAI_REALTIME_URL", &url),
            ("VOICEBOX_OPENAI_REALTIME_MODEL", "gpt-realtime-test"),
            ("OPENAI_API_KEY", OPENAI_KEY),
        ])
    });
    (fake, server)
}

/// A page on `/live` with `query`, past its `rate`, and the upstream the
/// bridge opened for it.
async fn connect(server: &Server, fake: &mut Fake, query: &str) -> (Page, Upstream) {
    let mut page = Page::open(server, query).await;
    page.expect("rate").await;
    (page, fake.accept().await)
}

/// A Gemini session up to `setupComplete`: the page, the upstream, and the setup it got.
async fn gemini_ready(server: &Server, fake: &mut Fake) -> (Page, Upstream, Value) {
    let (mut page, mut upstream) = connect(server, fake, "?provider=gemini").await;
    let setup = upstream.recv().await;
    upstream.send(json!({"setupComplete": {}})).await;
    page.expect("ready").await;
    (page, upstream, setup)
}

/// An OpenAI session up to `session.updated`.
async fn openai_ready(server: &Server, fake: &mut Fake) -> (Page, Upstream, Value) {
    let (mut page, mut upstream) = connect(server, fake, "?provider=openai").await;
    upstream
        .send(json!({"type": "session.created", "event_id": "event_1", "session": {"type": "realtime", "id": "sess_1", "tools": []}}))
        .await;
    let update = upstream.recv().await;
    upstream
        .send(
            json!({"type": "session.updated", "event_id": "event_2", "session": update["session"]}),
        )
        .await;
    page.expect("ready").await;
    (page, upstream, update)
}

fn gemini_call(id: &str, name: &str, args: Value) -> Value {
    json!({"id": id, "name": name, "args": args})
}
