//! Playing the page on `/channel` with a raw WebSocket client: declare a
//! page-owned root, take the acts the server relays, answer them.

use super::Server;
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

pub type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// Declares the page's OPFS project `project` as the server's active root.
pub async fn declare_opfs(server: &Server, project: &str) -> Value {
    let (status, declared) = server
        .post("/api/root", json!({"kind": "opfs", "project": project}))
        .await;
    assert_eq!(status, 200, "{declared}");
    declared
}

/// A raw client on `/channel` with the page's session and `origin`; the
/// HTTP status if refused.
pub async fn channel(server: &Server, origin: &str) -> Result<Socket, u16> {
    let mut request = format!("ws://127.0.0.1:{}/channel", server.port)
        .into_client_request()
        .unwrap();
    let headers = request.headers_mut();
    headers.insert("origin", origin.parse().unwrap());
    headers.insert(
        "sec-websocket-protocol",
        server.socket_protocols().parse().unwrap(),
    );
    match tokio_tungstenite::connect_async(request).await {
        Ok((socket, _)) => Ok(socket),
        Err(tokio_tungstenite::tungstenite::Error::Http(response)) => {
            Err(response.status().as_u16())
        }
        Err(e) => panic!("{e}"),
    }
}

/// The next JSON text frame.
pub async fn frame(socket: &mut Socket) -> Value {
    loop {
        // A hang guard, not a speed check: generous for a loaded 2-core machine.
        let message = tokio::time::timeout(Duration::from_secs(30), socket.next())
            .await
            .expect("a frame in time")
            .expect("the channel is open")
            .unwrap();
        if let Message::Text(text) = message {
            return serde_json::from_str(&text).unwrap();
        }
    }
}

/// Plays the worker's part in a words turn: the server first asks for the
/// project's names (to settle spoken names); answers `names` and returns
/// the next frame, the act itself.
pub async fn after_names(socket: &mut Socket, names: &[&str]) -> Value {
    let asked = frame(socket).await;
    assert_eq!(asked["request"], json!({"op": "names"}), "{asked}");
    let answer = json!({"names": names});
    send(
        socket,
        json!({"type": "result", "id": asked["id"], "answer": answer}),
    )
    .await;
    frame(socket).await
}

pub async fn send(socket: &mut Socket, frame: Value) {
    socket
        .send(Message::Text(frame.to_string().into()))
        .await
        .unwrap();
}
