//! `GET /channel`: the socket of the page that owns the active root (an
//! OPFS project, or a folder it picked), over which it executes the server's
//! acts. What the socket carries, and who waits for which answer, is the
//! host's page relay ([`crate::host::Channel`]); this is only the socket.

use crate::host::{Acts, Outgoing, ToPage};
use crate::serve::{SOCKET_PING, SOCKET_PROTOCOL};
use axum::Router;
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{FromRef, State};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use futures_util::{SinkExt, StreamExt};
use std::sync::Arc;
use tokio::sync::mpsc;
use voicebox_core::Rule;

/// The largest message (and frame) read from the page: an audit answer can
/// be large; a frame is capped too, so one is never buffered past it.
const MAX_PAGE_FRAME: usize = 32 << 20;

/// The route, in any router whose state holds the host's [`Acts`].
pub fn routes<S>() -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    Arc<Acts>: FromRef<S>,
{
    Router::new().route("/channel", get(socket))
}

/// The channel: only this server's own page may connect (the guard asks
/// for its session, offered as a subprotocol, and its `Origin`, or the host
/// token).
#[utoipa::path(get, path = "/channel",
    responses(
        (status = 101, description = "the socket: `{type:\"act\", id, request}` to the page, answered `{type:\"result\", id, answer}` or `{type:\"failed\", id, why}`; refused frames get `{type:\"error\", refused, why}`; a newer page takes over (`{type:\"end\", reason:\"taken-over\"}`)"),
        (status = 400, description = "not a WebSocket request"),
        (status = 401, description = "neither the page's session nor the host token (`no-authority`)"),
        (status = 403, description = "foreign Host, or the session from an Origin that is not this server's page (`foreign-origin`)"),
    ))]
pub async fn socket(
    State(acts): State<Arc<Acts>>,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Response {
    let upgrade = match upgrade {
        Ok(upgrade) => upgrade,
        Err(rejection) => return rejection.into_response(),
    };
    // The page executes from the moment it is answered `101`: attached
    // before the answer, an act sent right after connecting is queued for it
    // instead of answering `no-page`. A failed upgrade detaches it again.
    let (outbox, queued) = mpsc::unbounded_channel::<Outgoing>();
    let serial = acts.channel().attach(outbox.clone());
    tracing::info!(serial, "a page executes the server's acts");
    let on_failure = acts.clone();
    upgrade
        .protocols([SOCKET_PROTOCOL])
        .max_message_size(MAX_PAGE_FRAME)
        .max_frame_size(MAX_PAGE_FRAME)
        .on_failed_upgrade(move |_| on_failure.channel().detach(serial))
        .on_upgrade(move |socket| serve_page(acts, socket, serial, outbox, queued))
}

/// Reads the page's frames until it leaves; a writer task sends ours (and
/// whatever was queued for it before the socket was ready).
async fn serve_page(
    acts: Arc<Acts>,
    socket: WebSocket,
    serial: u64,
    outbox: mpsc::UnboundedSender<Outgoing>,
    mut queued: mpsc::UnboundedReceiver<Outgoing>,
) {
    let (mut sink, mut stream) = socket.split();
    let writer = tokio::spawn(async move {
        // Pinged, the page's browser answers by itself: a quiet page is not
        // an idle socket.
        let mut ping =
            tokio::time::interval_at(tokio::time::Instant::now() + SOCKET_PING, SOCKET_PING);
        loop {
            let message = tokio::select! {
                queued = queued.recv() => match queued {
                    Some(Outgoing::Text(text)) => Message::Text(text.into()),
                    Some(Outgoing::Close(reason)) => Message::Close(Some(CloseFrame {
                        code: 1000,
                        reason: reason.into(),
                    })),
                    None => break,
                },
                _ = ping.tick() => Message::Ping(Default::default()),
            };
            let last = matches!(message, Message::Close(_));
            if sink.send(message).await.is_err() || last {
                break;
            }
        }
    });
    while let Some(Ok(message)) = stream.next().await {
        let refused = match message {
            Message::Text(text) => acts.channel().answer(serial, text.as_str()).err(),
            Message::Binary(_) => Some((
                Rule::MalformedFrame,
                "the channel takes JSON text frames only".to_string(),
            )),
            Message::Close(_) => break,
            Message::Ping(_) | Message::Pong(_) => None,
        };
        if let Some((rule, why)) = refused {
            tracing::info!(rule = rule.id(), "a channel frame was refused");
            let _ = outbox.send(Outgoing::Text(ToPage::Error { refused: rule, why }.text()));
        }
    }
    acts.channel().detach(serial);
    drop(outbox);
    let _ = writer.await;
    tracing::info!(serial, "the executing page left");
}
