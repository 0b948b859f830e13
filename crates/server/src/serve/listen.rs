//! Connections: accepted, timed and counted, so slow or idle clients cannot
//! hold the server or starve the page.
//!
//! Each connection is served by hyper's HTTP/1 server, whose header-read
//! timer runs whenever a connection waits for a request — from accept, and
//! again after each answer — so it bounds both a slow request head and an
//! idle keep-alive connection ([`Limits::header_timeout`]). The body timeout
//! is the guard's ([`super::Guard::with_body_timeout`]).
//!
//! At most [`Limits::max_connections`] are open at once (a WebSocket counts
//! until it closes). When all are open, the oldest connection that is only
//! waiting for a request is closed to make room, so a crowd of slow or idle
//! clients gives way to the page; only when every connection is busy with a
//! request does a new one get `503 too-many-connections`.

use super::ApiError;
use axum::Router;
use axum::http::StatusCode;
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
use tokio::sync::{Notify, Semaphore, watch};
use voicebox_core::Rule;

/// What every connection is held to; `voicebox serve` flags set them.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// How long a connection may wait for a complete request head: a slow
    /// head, or an idle keep-alive connection between requests.
    pub header_timeout: Duration,
    /// How long a request body may take to arrive.
    pub body_timeout: Duration,
    /// How many connections may be open at once.
    pub max_connections: usize,
}

impl Default for Limits {
    /// 10 s for a request head (a browser sends it at once), 30 s for a body
    /// (8 MiB over loopback takes milliseconds), 256 connections (a page
    /// uses a handful; far under the usual 1024-descriptor limit).
    fn default() -> Limits {
        Limits {
            header_timeout: Duration::from_secs(10),
            body_timeout: super::guard::BODY_TIMEOUT,
            max_connections: 256,
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

/// One connection's slot: open until dropped (with the connection's socket,
/// so an upgraded WebSocket keeps it), evictable while it waits.
struct Slot {
    slots: Arc<Slots>,
    id: u64,
    bell: Arc<Notify>,
}

impl Slot {
    /// Not evictable: serving a request, or handed over to a WebSocket.
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

/// A socket that holds its connection's slot for as long as it lives.
struct Counted {
    stream: TcpStream,
    _slot: Arc<Slot>,
}

impl AsyncRead for Counted {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_read(cx, buf)
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

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_shutdown(cx)
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
                let conn = serve_one(&builder, stream, slot, app.clone(), stopping.clone());
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

/// One connection: the app with its slot marked busy from a request head to
/// its answer, closed when evicted while waiting, drained at shutdown.
fn serve_one(
    builder: &http1::Builder,
    stream: TcpStream,
    slot: Slot,
    app: Router,
    mut stopping: watch::Receiver<bool>,
) -> impl Future<Output = ()> + use<> {
    let slot = Arc::new(slot);
    let bell = slot.bell.clone();
    let tower = TowerToHyperService::new(app);
    let marks = slot.clone();
    let service = hyper::service::service_fn(move |request: hyper::Request<Incoming>| {
        marks.busy();
        let answer = hyper::service::Service::call(&tower, request);
        let marks = marks.clone();
        async move {
            let response = answer.await;
            marks.waiting();
            response
        }
    });
    let ended = slot.clone();
    let io = TokioIo::new(super::early::Named::new(Counted {
        stream,
        _slot: slot,
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
        // An upgraded socket keeps the slot open, never evictable.
        ended.busy();
    }
}

fn too_many() -> ApiError {
    ApiError::new(
        StatusCode::SERVICE_UNAVAILABLE,
        Rule::TooManyConnections,
        "every connection this server takes is busy with a request; try again in a moment",
    )
}
