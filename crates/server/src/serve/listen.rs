//! Connections: accepted, timed and counted, so slow or idle clients cannot
//! hold the server or starve the page.
//!
//! Each connection is served by hyper's HTTP/1 server, whose header-read
//! timer runs whenever a connection waits for a request — from accept, and
//! again after each answer — so it bounds both a slow request head and an
//! idle keep-alive connection ([`Limits::header_timeout`]). The body timeout
//! is the guard's ([`super::Guard::with_body_timeout`]).
//!
//! Requests and WebSockets have separate budgets. At most
//! [`Limits::max_connections`] connections wait for or carry requests at
//! once. When all are open, the oldest connection that is only waiting for
//! a request is closed to make room, so a crowd of slow or idle clients
//! gives way to the page; only when every connection is busy with a request
//! does a new one get `503 too-many-connections`. A connection that is
//! upgraded to a WebSocket leaves that budget for [`Limits::max_sockets`]:
//! past it an upgrade is answered `503 too-many-sockets` before any handler
//! runs, and open sockets never take the places requests (health, the
//! page's own) need. A socket that reads nothing for
//! [`Limits::socket_idle`] is closed; the socket routes ping the page every
//! [`SOCKET_PING`], which a browser answers by itself.

use super::ApiError;
use crate::mcp::McpLimits;
use axum::Router;
use axum::http::{StatusCode, header};
use axum::response::IntoResponse;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use std::collections::BTreeMap;
use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Notify, OwnedSemaphorePermit, Semaphore, watch};
use tokio::time::{Instant, Sleep};
use voicebox_core::Rule;

/// What every connection and every costly session is held to; `voicebox
/// serve` flags set them.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// How long a connection may wait for a complete request head: a slow
    /// head, or an idle keep-alive connection between requests.
    pub header_timeout: Duration,
    /// How long a request body may take to arrive.
    pub body_timeout: Duration,
    /// How many connections may wait for or carry requests at once.
    pub max_connections: usize,
    /// How many WebSockets may be open at once, apart from the above.
    pub max_sockets: usize,
    /// How long an open WebSocket may read nothing (not even the answer to
    /// a ping) before it is closed.
    pub socket_idle: Duration,
    /// How many offline recognisers may run at once (see `crate::live`).
    pub offline_voice: usize,
    /// The MCP sessions over HTTP: how many, and how long idle.
    pub mcp: McpLimits,
}

/// How often the socket routes ping the page; well inside the default
/// [`Limits::socket_idle`], so a page that is open but quiet stays.
pub const SOCKET_PING: Duration = Duration::from_secs(20);

impl Default for Limits {
    /// 10 s for a request head (a browser sends it at once), 30 s for a body
    /// (8 MiB over loopback takes milliseconds), 256 connections (a page
    /// uses a handful; far under the usual 1024-descriptor limit), 64
    /// sockets (a page holds two: its channel and its live voice) closed
    /// after 60 s without a word (three pings unanswered).
    fn default() -> Limits {
        Limits {
            header_timeout: Duration::from_secs(10),
            body_timeout: super::guard::BODY_TIMEOUT,
            max_connections: 256,
            max_sockets: 64,
            socket_idle: Duration::from_secs(60),
            offline_voice: crate::live::OFFLINE_DECODERS,
            mcp: McpLimits::default(),
        }
    }
}

/// How long a connection refused for lack of room may take to send the
/// request head its refusal answers.
const REFUSAL_HEAD_TIMEOUT: Duration = Duration::from_secs(1);
/// How long a failed accept (no descriptors left) waits before the next.
const ACCEPT_BACKOFF: Duration = Duration::from_millis(50);

/// The open connections, and which of them are only waiting for a request
/// (oldest first, each with the bell that closes it).
struct Slots {
    limit: usize,
    state: Mutex<SlotState>,
}

#[derive(Default)]
struct SlotState {
    next: u64,
    open: usize,
    waiting: BTreeMap<u64, Arc<Notify>>,
}

impl Slots {
    fn lock(&self) -> std::sync::MutexGuard<'_, SlotState> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A slot for a new connection: free, or freed by closing the oldest
    /// waiting one; `None` when every open connection is busy.
    fn take(self: &Arc<Self>) -> Option<Slot> {
        let mut state = self.lock();
        if state.open >= self.limit {
            let (_, bell) = state.waiting.pop_first()?;
            bell.notify_one();
        }
        state.open += 1;
        state.next += 1;
        let id = state.next;
        let bell = Arc::new(Notify::new());
        state.waiting.insert(id, bell.clone());
        Some(Slot {
            slots: self.clone(),
            id,
            bell,
        })
    }
}

/// One connection's slot: open until dropped, evictable while it waits.
struct Slot {
    slots: Arc<Slots>,
    id: u64,
    bell: Arc<Notify>,
}

impl Slot {
    /// Not evictable: serving a request.
    fn busy(&self) {
        self.slots.lock().waiting.remove(&self.id);
    }

    fn waiting(&self) {
        self.slots.lock().waiting.insert(self.id, self.bell.clone());
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut state = self.slots.lock();
        state.waiting.remove(&self.id);
        state.open -= 1;
    }
}

/// What one connection holds: its request slot until it is upgraded, and
/// from the upgrade request on, a socket's place (kept only if the answer
/// is `101`). Dropped with the connection's socket, so an upgraded
/// WebSocket keeps its place until it closes.
#[derive(Default)]
struct Hold {
    slot: Option<Slot>,
    socket: Option<OwnedSemaphorePermit>,
}

type Held = Arc<Mutex<Hold>>;

fn hold(held: &Held) -> std::sync::MutexGuard<'_, Hold> {
    held.lock().unwrap_or_else(|p| p.into_inner())
}

/// A socket that holds its connection's places for as long as it lives,
/// and once upgraded, ends when it reads nothing for the idle time.
struct Counted {
    /// Before `stream`: a place is free before its peer can see the close.
    held: Held,
    stream: TcpStream,
    idle: Duration,
    /// Armed once the connection is a WebSocket; reset by every read.
    quiet: Option<Pin<Box<Sleep>>>,
}

impl Counted {
    fn upgraded(&self) -> bool {
        let hold = hold(&self.held);
        hold.socket.is_some() && hold.slot.is_none()
    }
}

impl AsyncRead for Counted {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let before = buf.filled().len();
        let read = Pin::new(&mut this.stream).poll_read(cx, buf);
        if this.quiet.is_none() && this.upgraded() {
            this.quiet = Some(Box::pin(tokio::time::sleep(this.idle)));
        }
        let Some(quiet) = this.quiet.as_mut() else {
            return read;
        };
        match read {
            Poll::Ready(result) => {
                if buf.filled().len() > before {
                    quiet.as_mut().reset(Instant::now() + this.idle);
                }
                Poll::Ready(result)
            }
            Poll::Pending => match quiet.as_mut().poll(cx) {
                Poll::Ready(()) => Poll::Ready(Err(io::Error::new(
                    io::ErrorKind::TimedOut,
                    "the WebSocket said nothing for too long",
                ))),
                Poll::Pending => Poll::Pending,
            },
        }
    }
}

impl AsyncWrite for Counted {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().stream).poll_write(cx, buf)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_flush(cx)
    }

    /// A closing connection gives its places back first, so a client that
    /// sees the close finds them free.
    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        *hold(&this.held) = Hold::default();
        Pin::new(&mut this.stream).poll_shutdown(cx)
    }
}

/// Serves `app` on `listener` within `limits` until `shutdown` resolves,
/// then lets each connection finish its request.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    limits: Limits,
    shutdown: impl Future<Output = ()>,
) {
    let slots = Arc::new(Slots {
        limit: limits.max_connections.max(1),
        state: Mutex::default(),
    });
    let sockets = Arc::new(Semaphore::new(limits.max_sockets));
    // Refusals in flight are bounded too: past them a socket is just closed.
    let refusals = Arc::new(Semaphore::new(limits.max_connections.max(1)));
    let (stop, stopping) = watch::channel(false);
    let mut builder = http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout);
    let mut refusing = builder.clone();
    refusing
        .header_read_timeout(REFUSAL_HEAD_TIMEOUT)
        .keep_alive(false);
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let stream = tokio::select! {
            () = &mut shutdown => break,
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                Err(e) => {
                    tracing::warn!("accept failed: {e}");
                    tokio::time::sleep(ACCEPT_BACKOFF).await;
                    continue;
                }
            },
        };
        let _ = stream.set_nodelay(true);
        match slots.take() {
            Some(slot) => {
                let budget = Budget {
                    sockets: sockets.clone(),
                    idle: limits.socket_idle,
                };
                let conn = serve_one(
                    &builder,
                    stream,
                    slot,
                    budget,
                    app.clone(),
                    stopping.clone(),
                );
                tokio::spawn(conn);
            }
            None => {
                let Ok(permit) = refusals.clone().try_acquire_owned() else {
                    continue;
                };
                let answer = hyper::service::service_fn(|_| async {
                    Ok::<_, std::convert::Infallible>(too_many().into_response())
                });
                let conn = refusing.serve_connection(TokioIo::new(stream), answer);
                tokio::spawn(async move {
                    let _ = conn.await;
                    drop(permit);
                });
            }
        }
    }
    let _ = stop.send(true);
    // Each connection drains its request and closes; this resolves when the
    // last one has dropped its receiver.
    drop(stopping);
    stop.closed().await;
}

/// What upgraded connections share: the sockets' places and their idle time.
struct Budget {
    sockets: Arc<Semaphore>,
    idle: Duration,
}

/// One connection: the app with its slot marked busy from a request head to
/// its answer, closed when evicted while waiting, drained at shutdown. An
/// upgrade request takes a socket's place first (or is refused by name);
/// its `101` gives the request slot back.
fn serve_one(
    builder: &http1::Builder,
    stream: TcpStream,
    slot: Slot,
    budget: Budget,
    app: Router,
    mut stopping: watch::Receiver<bool>,
) -> impl Future<Output = ()> + use<> {
    let bell = slot.bell.clone();
    let held: Held = Arc::new(Mutex::new(Hold {
        slot: Some(slot),
        socket: None,
    }));
    let tower = TowerToHyperService::new(app);
    let marks = held.clone();
    let sockets = budget.sockets;
    let service = hyper::service::service_fn(move |request: hyper::Request<Incoming>| {
        let upgrade = request.headers().contains_key(header::UPGRADE);
        let refused = {
            let mut hold = hold(&marks);
            if let Some(slot) = &hold.slot {
                slot.busy();
            }
            if upgrade {
                hold.socket = sockets.clone().try_acquire_owned().ok();
            }
            upgrade && hold.socket.is_none()
        };
        let answer = (!refused).then(|| hyper::service::Service::call(&tower, request));
        let marks = marks.clone();
        async move {
            let response = match answer {
                Some(answer) => answer.await?,
                None => too_many_sockets().into_response(),
            };
            let mut hold = hold(&marks);
            if response.status() == StatusCode::SWITCHING_PROTOCOLS {
                hold.slot = None;
            } else {
                hold.socket = None;
                if let Some(slot) = &hold.slot {
                    slot.waiting();
                }
            }
            Ok::<_, std::convert::Infallible>(response)
        }
    });
    let ended = held.clone();
    let io = TokioIo::new(super::early::Named::new(Counted {
        held,
        stream,
        idle: budget.idle,
        quiet: None,
    }));
    let conn = builder.serve_connection(io, service).with_upgrades();
    async move {
        let mut conn = std::pin::pin!(conn);
        tokio::select! {
            _ = conn.as_mut() => {}
            () = bell.notified() => {}
            _ = stopping.changed() => {
                conn.as_mut().graceful_shutdown();
                let _ = conn.await;
            }
        }
        // Not evictable any more (an upgraded socket has left the slot).
        if let Some(slot) = &hold(&ended).slot {
            slot.busy();
        }
    }
}

fn too_many_sockets() -> ApiError {
    ApiError::new(
        StatusCode::SERVICE_UNAVAILABLE,
        Rule::TooManySockets,
        "every WebSocket this server keeps open is taken; close a tab or a client and try again",
    )
}

fn too_many() -> ApiError {
    ApiError::new(
        StatusCode::SERVICE_UNAVAILABLE,
        Rule::TooManyConnections,
        "every connection this server takes is busy with a request; try again in a moment",
    )
}
