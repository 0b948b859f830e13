//! `GET /live` against local fakes that speak each provider's real protocol
//! (as Gemini Live's and OpenAI Realtime's published docs give it): a real `voicebox
//! serve` with the provider's URL pointed at a WebSocket server on
//! 127.0.0.1 that records what it receives, and a test page that connects
//! to `/live` with the server's own Origin.

#[path = "../common/mod.rs"]
mod common;
mod openai;
mod session;
mod tool_calls;

use base64::Engine;
use common::Server;
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::handshake::server::{
    Callback, ErrorResponse, Request, Response,
};
use tokio_tungstenite::tungstenite::http::HeaderMap;
use tokio_tungstenite::tungstenite::protocol::CloseFrame;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::{Error, Message};
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};
use voicebox_core::command::COMMANDS;

/// The longest any one step may take before the test fails instead of hanging.
const STEP: Duration = Duration::from_secs(30);
const GEMINI_KEY: &str = "gm-test-key-4321";
const OPENAI_KEY: &str = "sk-test-key-8765";
const GEMINI_PATH: &str =
    "/ws/google.ai.generativelanguage.v1beta.GenerativeService.BidiGenerateContent";

/// A fake provider: accepts WebSockets on 127.0.0.1 and hands each
/// connection to the test, counting every TCP connection it sees.
struct Fake {
    port: u16,
    connections: Arc<AtomicUsize>,
    accepted: mpsc::UnboundedReceiver<Upstream>,
}

impl Fake {
    async fn start() -> Fake {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let connections = Arc::new(AtomicUsize::new(0));
        let (sender, accepted) = mpsc::unbounded_channel();
        let counted = connections.clone();
        tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                counted.fetch_add(1, Ordering::SeqCst);
                let sender = sender.clone();
                tokio::spawn(async move {
                    let mut seen = None;
                    if let Ok(ws) =
                        tokio_tungstenite::accept_hdr_async(stream, Record(&mut seen)).await
                    {
                        let (uri, headers) = seen.unwrap();
                        let _ = sender.send(Upstream { ws, uri, headers });
                    }
                });
            }
        });
        Fake {
            port,
            connections,
            accepted,
        }
    }

    fn url(&self, path: &str) -> String {
        format!("ws://127.0.0.1:{}{path}", self.port)
    }

    /// The next session the bridge opened.
    async fn accept(&mut self) -> Upstream {
        tokio::time::timeout(STEP, self.accepted.recv())
            .await
            .expect("the bridge connected upstream")
            .unwrap()
    }

    /// TCP connections seen so far (after giving a stray one time to arrive).
    async fn connections(&self) -> usize {
        tokio::time::sleep(Duration::from_millis(300)).await;
        self.connections.load(Ordering::SeqCst)
    }
}

/// Keeps the handshake's URI and headers.
struct Record<'a>(&'a mut Option<(String, HeaderMap)>);

impl Callback for Record<'_> {
    fn on_request(self, request: &Request, response: Response) -> Result<Response, ErrorResponse> {
        *self.0 = Some((request.uri().to_string(), request.headers().clone()));
        Ok(response)
    }
}

/// One upstream session as the provider sees it.
struct Upstream {
    ws: WebSocketStream<TcpStream>,
    uri: String,
    headers: HeaderMap,
}

impl Upstream {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }

    /// The next JSON message the bridge sent, or `None` once it closed.
    async fn next(&mut self) -> Option<Value> {
        loop {
            let message = tokio::time::timeout(STEP, self.ws.next())
                .await
                .expect("the bridge sent something");
            match message {
                Some(Ok(Message::Text(text))) => return Some(serde_json::from_str(&text).unwrap()),
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return None,
                Some(Ok(other)) => assert!(other.is_ping() || other.is_pong(), "{other:?}"),
            }
        }
    }

    async fn recv(&mut self) -> Value {
        self.next().await.expect("a message, not a close")
    }

    async fn send(&mut self, message: Value) {
        self.ws
            .send(Message::text(message.to_string()))
            .await
            .unwrap();
    }

    /// Closes the socket as the provider does, with `code` and `reason`.
    async fn close(&mut self, code: CloseCode, reason: &str) {
        self.ws
            .close(Some(CloseFrame {
                code,
                reason: reason.into(),
            }))
            .await
            .unwrap();
    }

    /// Sends Gemini's `toolCall` with `calls`.
    async fn send_calls(&mut self, calls: &[Value]) {
        self.send(json!({"toolCall": {"functionCalls": calls}}))
            .await;
    }

    /// Sends Gemini's `toolCall` with `calls`; the bridge's answer.
    async fn call(&mut self, calls: &[Value]) -> Value {
        self.send_calls(calls).await;
        self.recv().await
    }

    /// Gemini may send its JSON in binary frames.
    async fn send_binary(&mut self, message: Value) {
        let bytes = message.to_string().into_bytes();
        self.ws.send(Message::binary(bytes)).await.unwrap();
    }
}

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
        request
            .headers_mut()
            .insert("cookie", server.cookie.parse().unwrap());
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
