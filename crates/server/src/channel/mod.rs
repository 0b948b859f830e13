//! `GET /channel`: the page that owns the active root (an OPFS project, or a
//! folder it picked) executes the server's acts.
//!
//! The server still resolves words into an action (that is data); when the
//! active root is page-owned, [`Channel::relay`] sends the request to the
//! connected page instead of touching any disk, and the page's worker runs it
//! through the same core, with the same audit, in the page's own root. One
//! page executes at a time: a newer page that connects takes over, so a reload
//! or the page that just declared its project is never locked out by a stale
//! socket; the older page is told `taken-over` and closed.

mod envelope;

use crate::serve::{Acts, AppState};
use axum::Router;
use axum::extract::State;
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use envelope::{FromPage, Refused, ToPage};
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;
use tokio::sync::{mpsc, oneshot};
use voicebox_core::Rule;
use voicebox_core::platform::RootInfo;
use voicebox_core::worker::Relayed;

/// The largest message (and frame) read from the page: an audit answer can
/// be large; a frame is capped too, so one is never buffered past it.
const MAX_PAGE_FRAME: usize = 32 << 20;
/// How long an act waits for the page unless `VOICEBOX_PAGE_TIMEOUT_MS` says.
const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);

pub fn routes() -> Router<AppState> {
    Router::new().route("/channel", get(socket))
}

/// The page-owned root, the connected page, and the acts waiting for it.
pub struct Channel {
    inner: Mutex<Inner>,
    timeout: Duration,
}

#[derive(Default)]
struct Inner {
    root: Option<RootInfo>,
    page: Option<Page>,
    /// Acts sent and not answered, by id, with the page they went to.
    /// Dropping an entry's sender answers its waiter `page-closed`.
    calls: HashMap<u64, (u64, oneshot::Sender<Result<Value, String>>)>,
    next: u64,
}

struct Page {
    serial: u64,
    outbox: mpsc::UnboundedSender<Message>,
}

impl Channel {
    /// Reads `VOICEBOX_PAGE_TIMEOUT_MS` (default 10 s).
    pub fn from_env() -> Channel {
        let timeout = match std::env::var("VOICEBOX_PAGE_TIMEOUT_MS") {
            Ok(ms) => ms
                .trim()
                .parse()
                .map(Duration::from_millis)
                .unwrap_or_else(|_| {
                    tracing::warn!(
                        "VOICEBOX_PAGE_TIMEOUT_MS is not a number of milliseconds; using 10000"
                    );
                    DEFAULT_TIMEOUT
                }),
            Err(_) => DEFAULT_TIMEOUT,
        };
        Channel {
            inner: Mutex::default(),
            timeout,
        }
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The page-owned root, if one is active.
    pub fn root(&self) -> Option<RootInfo> {
        self.lock().root.clone()
    }

    /// Makes a page-owned root active (`None` un-declares it).
    pub fn set_root(&self, root: Option<RootInfo>) {
        self.lock().root = root;
    }

    /// Sends `request` to the page's worker and waits for its answer, which
    /// comes back untouched; or a refusal naming why there is none.
    pub async fn relay(&self, request: &Relayed) -> Result<Value, Value> {
        let (reply, answer) = oneshot::channel();
        let id = {
            let mut inner = self.lock();
            let Some(serial) = inner.page.as_ref().map(|page| page.serial) else {
                return Err(refusal(
                    Rule::NoPage,
                    "the active root belongs to a page, and no page is connected: open /environment, open the project and use it as the server's folder",
                ));
            };
            inner.next += 1;
            let id = inner.next;
            let frame = Message::Text(ToPage::Act { id, request }.text().into());
            // A page whose writer is gone drops `reply`: the wait below is `page-closed`.
            if inner
                .page
                .as_ref()
                .is_some_and(|page| page.outbox.send(frame).is_ok())
            {
                inner.calls.insert(id, (serial, reply));
            }
            id
        };
        match tokio::time::timeout(self.timeout, answer).await {
            Ok(Ok(Ok(answer))) => Ok(answer),
            Ok(Ok(Err(why))) => Err(refusal(
                Rule::PageFailed,
                &format!("the page's worker failed and did not answer: {why}"),
            )),
            Ok(Err(_)) => Err(refusal(
                Rule::PageClosed,
                "the page closed before it answered; whether the act happened is in the page's audit log",
            )),
            Err(_) => {
                self.lock().calls.remove(&id);
                Err(refusal(
                    Rule::PageTimeout,
                    &format!(
                        "the page did not answer within {} ms; whether the act happened is in the page's audit log",
                        self.timeout.as_millis()
                    ),
                ))
            }
        }
    }

    /// Makes `outbox` the executing page; an older page is told and closed,
    /// and its unanswered acts answer `page-closed`.
    fn attach(&self, outbox: mpsc::UnboundedSender<Message>) -> u64 {
        let mut inner = self.lock();
        inner.next += 1;
        let serial = inner.next;
        if let Some(old) = inner.page.replace(Page { serial, outbox }) {
            let end = ToPage::End {
                reason: "taken-over",
                why: "another Voicebox page connected and now executes the server's acts",
            };
            let _ = old.outbox.send(Message::Text(end.text().into()));
            let _ = old.outbox.send(Message::Close(Some(CloseFrame {
                code: 1000,
                reason: "taken-over".into(),
            })));
            inner.calls.retain(|_, (page, _)| *page != old.serial);
        }
        serial
    }

    /// The page `serial` is gone: its unanswered acts answer `page-closed`.
    fn detach(&self, serial: u64) {
        let mut inner = self.lock();
        if inner
            .page
            .as_ref()
            .is_some_and(|page| page.serial == serial)
        {
            inner.page = None;
        }
        inner.calls.retain(|_, (page, _)| *page != serial);
    }

    /// Hands one frame of page `serial` to the act it answers.
    fn answer(&self, serial: u64, text: &str) -> Result<(), Refused> {
        let (id, outcome) = match envelope::parse(text)? {
            FromPage::Result { id, answer } => (id, Ok(answer)),
            FromPage::Failed { id, why } => (id, Err(why)),
        };
        let mut inner = self.lock();
        match inner.calls.remove(&id) {
            Some((page, reply)) if page == serial => {
                let _ = reply.send(outcome);
                Ok(())
            }
            Some(call) => {
                inner.calls.insert(id, call);
                Err(unknown_call(id))
            }
            None => Err(unknown_call(id)),
        }
    }
}

fn unknown_call(id: u64) -> Refused {
    (
        Rule::UnknownCall,
        format!("no act {id} is waiting for this page (it timed out, or was never sent here)"),
    )
}

/// A refusal in the executor's shape, for rules only the relay knows.
pub fn refusal(rule: Rule, why: &str) -> Value {
    json!({"ok": false, "refused": rule, "why": why})
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
    let (outbox, queued) = mpsc::unbounded_channel::<Message>();
    let serial = acts.channel().attach(outbox.clone());
    tracing::info!(serial, "a page executes the server's acts");
    let on_failure = acts.clone();
    upgrade
        .protocols([crate::serve::SOCKET_PROTOCOL])
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
    outbox: mpsc::UnboundedSender<Message>,
    mut queued: mpsc::UnboundedReceiver<Message>,
) {
    let (mut sink, mut stream) = socket.split();
    let writer = tokio::spawn(async move {
        while let Some(message) = queued.recv().await {
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
            let _ = outbox.send(Message::Text(
                ToPage::Error { refused: rule, why }.text().into(),
            ));
        }
    }
    acts.channel().detach(serial);
    drop(outbox);
    let _ = writer.await;
    tracing::info!(serial, "the executing page left");
}
