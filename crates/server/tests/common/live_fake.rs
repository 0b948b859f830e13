//! A fake live provider: a WebSocket server on 127.0.0.1 that records the
//! handshake and hands each session to the test, which speaks the
//! provider's protocol (Gemini Live's, OpenAI Realtime's) from its side.
#![allow(dead_code)]

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::handshake::server::{
    Callback, ErrorResponse, Request, Response,
};
use tokio_tungstenite::tungstenite::http::HeaderMap;
use tokio_tungstenite::tungstenite::protocol::CloseFrame;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;

/// The longest any one step may take before the test fails instead of hanging.
pub const STEP: Duration = Duration::from_secs(30);

/// A fake provider: accepts WebSockets on 127.0.0.1 and hands each
/// connection to the test, counting every TCP connection it sees.
pub struct Fake {
    pub port: u16,
    connections: Arc<AtomicUsize>,
    accepted: mpsc::UnboundedReceiver<Upstream>,
}

impl Fake {
    pub async fn start() -> Fake {
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

    pub fn url(&self, path: &str) -> String {
        format!("ws://127.0.0.1:{}{path}", self.port)
    }

    /// The next session the bridge opened.
    pub async fn accept(&mut self) -> Upstream {
        tokio::time::timeout(STEP, self.accepted.recv())
            .await
            .expect("the bridge connected upstream")
            .unwrap()
    }

    /// TCP connections seen so far (after giving a stray one time to arrive).
    pub async fn connections(&self) -> usize {
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
pub struct Upstream {
    pub ws: WebSocketStream<TcpStream>,
    pub uri: String,
    pub headers: HeaderMap,
}

impl Upstream {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }

    /// The next JSON message the bridge sent, or `None` once it closed.
    pub async fn next(&mut self) -> Option<Value> {
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

    pub async fn recv(&mut self) -> Value {
        self.next().await.expect("a message, not a close")
    }

    pub async fn send(&mut self, message: Value) {
        self.ws
            .send(Message::text(message.to_string()))
            .await
            .unwrap();
    }

    /// Closes the socket as the provider does, with `code` and `reason`.
    pub async fn close(&mut self, code: CloseCode, reason: &str) {
        self.ws
            .close(Some(CloseFrame {
                code,
                reason: reason.into(),
            }))
            .await
            .unwrap();
    }

    /// Sends Gemini's `toolCall` with `calls`.
    pub async fn send_calls(&mut self, calls: &[Value]) {
        self.send(json!({"toolCall": {"functionCalls": calls}}))
            .await;
    }

    /// Sends Gemini's `toolCall` with `calls`; the bridge's answer.
    pub async fn call(&mut self, calls: &[Value]) -> Value {
        self.send_calls(calls).await;
        self.recv().await
    }

    /// Gemini may send its JSON in binary frames.
    pub async fn send_binary(&mut self, message: Value) {
        let bytes = message.to_string().into_bytes();
        self.ws.send(Message::binary(bytes)).await.unwrap();
    }
}
