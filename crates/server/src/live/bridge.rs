//! The I/O of one live session: the page's socket, the provider's socket
//! (or the local decoder's channel), and the executor, driven by the [`Session`] state machine. Everything the
//! page reads passes through one place that masks the key.

use super::frames::{PageFrame, Reason};
use super::local;
use super::session::{Outbox, Session};
use super::tools;
use super::{Choice, Live, Provider};
use crate::host::Acts;
use crate::llm::{quote, redact};
use crate::serve::SOCKET_PING;
use crate::state_dir::StateDir;
use axum::extract::ws::{self, WebSocket};
use futures_util::stream::{BoxStream, SplitSink};
use futures_util::{SinkExt, StreamExt};
use serde_json::Value;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpStream;
use tokio::sync::mpsc;
use tokio::time::{Instant, sleep_until};
use tokio_tungstenite::tungstenite::{self, Message};
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};
use voicebox_core::Rule;

/// How long the provider may take to accept the connection.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(15);
/// How long the provider may take to acknowledge the setup.
const SETUP_TIMEOUT: Duration = Duration::from_secs(15);
/// How long a closing session waits for its decoder to finish the audio
/// already sent (it keeps its recogniser's place until it has).
const DECODER_EXIT: Duration = Duration::from_secs(30);

type Upstream = WebSocketStream<MaybeTlsStream<TcpStream>>;
/// What the provider says, as socket messages whoever the provider is.
type Incoming = BoxStream<'static, Result<Message, tungstenite::Error>>;

/// Where the session's upstream messages go.
enum Sink {
    Socket(SplitSink<Upstream, Message>),
    /// The local decoder thread (see `local`).
    Local(mpsc::Sender<Value>),
}

struct Bridge {
    /// Where the session's tool calls act.
    acts: Arc<Acts>,
    /// Where an offline session takes its place among the recognisers.
    live: Arc<Live>,
    /// Where the provider's key is read from.
    state: StateDir,
    session: Session,
    page: SplitSink<WebSocket, ws::Message>,
    upstream: Option<Sink>,
    /// Masked in everything the page reads (a provider may echo it).
    key: String,
}

/// Runs one session from the upgraded page socket to its one end.
pub async fn run(
    acts: Arc<Acts>,
    state: StateDir,
    live: Arc<Live>,
    socket: WebSocket,
    provider: Provider,
) {
    let _open = live.open();
    let live = live.clone();
    let (page, mut from_page) = socket.split();
    // A choice that no longer fits (a settings file edited by hand) is
    // refused by name before any paid session opens.
    let choice = state.settings().live_choice(provider).checked(provider);
    let mut bridge = Bridge {
        session: Session::new(provider, choice.as_ref().unwrap_or(&Choice::default())),
        page,
        upstream: None,
        key: String::new(),
        acts,
        live,
        state,
    };
    if let Err(refusal) = choice {
        let outbox = bridge.session.refuse_setup(refusal.rule, &refusal.why);
        bridge.deliver(outbox).await;
        bridge.close(None).await;
        return;
    }
    let Some(mut from_upstream) = bridge.connect(provider).await else {
        bridge.close(None).await;
        return;
    };
    let deadline = Instant::now() + SETUP_TIMEOUT;
    let mut ping = tokio::time::interval_at(Instant::now() + SOCKET_PING, SOCKET_PING);
    loop {
        let outbox = tokio::select! {
            frame = from_page.next() => bridge.on_page(frame),
            _ = ping.tick() => bridge.ping().await,
            message = from_upstream.next() => bridge.on_upstream(message),
            () = sleep_until(deadline), if !bridge.session.ready() => bridge.session.end(
                Reason::SetupFailed,
                &format!("the provider did not acknowledge the setup within {} s", SETUP_TIMEOUT.as_secs()),
            ),
        };
        bridge.deliver(outbox).await;
        if bridge.session.ended().is_some() {
            break;
        }
    }
    bridge.close(Some(from_upstream)).await;
}

impl Bridge {
    /// The live instruction, with the project's notes when the root has
    /// them; the session tells the page they are in use.
    async fn instruction(&mut self) -> String {
        let folder = self.acts.folder_with_notes().await;
        self.session.notes(folder.notes().is_some());
        tools::instruction(&folder)
    }

    /// Finds the key, tells the page the rate, connects and sends the
    /// setup; `None` when the session ended on the way.
    async fn connect(&mut self, provider: Provider) -> Option<Incoming> {
        if provider.offline() {
            return self.connect_local(provider == Provider::Whisper).await;
        }
        self.key = match provider.key(&self.state) {
            Ok(key) => key,
            Err(note) => {
                let outbox = self.session.refuse_setup(Rule::KeyMissing, &note);
                self.deliver(outbox).await;
                return None;
            }
        };
        let rate = self.session.rate();
        self.deliver(rate).await;
        if self.session.ended().is_some() {
            return None;
        }
        match self.open_upstream().await {
            Ok(upstream) => {
                let (sink, stream) = upstream.split();
                self.upstream = Some(Sink::Socket(sink));
                let instruction = self.instruction().await;
                let opening = self.session.opening(&instruction);
                self.deliver(opening).await;
                self.session.ended().is_none().then(|| stream.boxed())
            }
            Err(why) => {
                let outbox = self.session.end(Reason::SetupFailed, &why);
                self.deliver(outbox).await;
                None
            }
        }
    }

    /// Starts the offline recogniser (refused by name when all the server's
    /// recognisers are in use — before any model loads — or when its
    /// library or model is missing), tells the page the rate and sends the
    /// opening.
    async fn connect_local(&mut self, whisper: bool) -> Option<Incoming> {
        let place = match self.live.decoder() {
            Ok(place) => place,
            Err(why) => {
                let outbox = self.session.refuse_setup(Rule::OfflineVoiceBusy, &why);
                self.deliver(outbox).await;
                return None;
            }
        };
        let link = match local::start(self.acts.clone(), whisper, place) {
            Ok(link) => link,
            Err(why) => {
                let outbox = self
                    .session
                    .refuse_setup(Rule::OfflineVoiceUnavailable, &why);
                self.deliver(outbox).await;
                return None;
            }
        };
        let rate = self.session.rate();
        self.deliver(rate).await;
        self.upstream = Some(Sink::Local(link.to));
        let instruction = self.instruction().await;
        let opening = self.session.opening(&instruction);
        self.deliver(opening).await;
        let stream = futures_util::stream::unfold(link.from, |mut from| async move {
            let message = from.recv().await?;
            Some((Ok(Message::text(message.to_string())), from))
        });
        self.session.ended().is_none().then(|| stream.boxed())
    }

    async fn open_upstream(&self) -> Result<Upstream, String> {
        let request = self.session.vendor().request(&self.key)?;
        let label = self.session.provider().name();
        match tokio::time::timeout(CONNECT_TIMEOUT, tokio_tungstenite::connect_async(request)).await
        {
            Err(_) => Err(format!(
                "{label} did not accept the connection within {} s",
                CONNECT_TIMEOUT.as_secs()
            )),
            Ok(Err(tungstenite::Error::Http(response))) => {
                let body = response.body().as_deref().unwrap_or_default();
                Err(format!(
                    "{label} refused the connection: HTTP {} {}",
                    response.status(),
                    quote(&String::from_utf8_lossy(body))
                ))
            }
            Ok(Err(error)) => Err(format!("{label} could not be reached: {error}")),
            Ok(Ok((upstream, _))) => Ok(upstream),
        }
    }

    fn on_page(&mut self, frame: Option<Result<ws::Message, axum::Error>>) -> Outbox {
        match frame {
            Some(Ok(ws::Message::Binary(pcm))) => self.session.page_audio(&pcm),
            Some(Ok(ws::Message::Text(text))) => self.session.page_text(text.as_str()),
            Some(Ok(ws::Message::Ping(_) | ws::Message::Pong(_))) => Outbox::default(),
            Some(Ok(ws::Message::Close(_))) | None => {
                self.session.end(Reason::PageClosed, "the page left")
            }
            Some(Err(error)) => self.session.end(
                Reason::PageClosed,
                &format!("the page's socket failed: {error}"),
            ),
        }
    }

    fn on_upstream(&mut self, message: Option<Result<Message, tungstenite::Error>>) -> Outbox {
        match message {
            Some(Ok(Message::Text(text))) => parse(text.as_bytes())
                .map(|v| self.session.upstream(&v))
                .unwrap_or_default(),
            // Gemini may send its JSON in binary frames.
            Some(Ok(Message::Binary(bytes))) => parse(&bytes)
                .map(|v| self.session.upstream(&v))
                .unwrap_or_default(),
            Some(Ok(Message::Close(frame))) => {
                let (code, words) = frame.map_or((None, String::new()), |f| {
                    (Some(u16::from(f.code)), f.reason.to_string())
                });
                self.session.upstream_closed(code, &words)
            }
            None => self.session.upstream_closed(None, ""),
            Some(Ok(_)) => Outbox::default(),
            Some(Err(error)) => self.session.end(
                Reason::UpstreamError,
                &format!("the provider's connection failed: {error}"),
            ),
        }
    }

    /// Sends what the session decided and runs the calls it asked for; what
    /// follows (the answers, or an end when a socket fails) goes the same way.
    async fn deliver(&mut self, mut outbox: Outbox) {
        while !outbox.is_empty() {
            let mut next = Outbox::default();
            for message in outbox.upstream {
                if let Err(error) = self.send_upstream(message).await {
                    let why = format!("sending to the provider failed: {error}");
                    next.merge(self.session.end(Reason::UpstreamError, &why));
                    break;
                }
            }
            for frame in outbox.page {
                if self.send_page(frame).await.is_err() {
                    next.merge(self.session.end(Reason::PageClosed, "the page left"));
                    break;
                }
            }
            if !outbox.run.is_empty() && self.session.ended().is_none() {
                let answered = tools::run(&self.acts, outbox.run).await;
                next.merge(self.session.answered(answered));
            }
            outbox = next;
        }
    }

    async fn send_upstream(&mut self, message: Value) -> Result<(), tungstenite::Error> {
        match &mut self.upstream {
            Some(Sink::Socket(sink)) => sink.send(Message::text(message.to_string())).await,
            Some(Sink::Local(to)) => to
                .send(message)
                .await
                .map_err(|_| tungstenite::Error::ConnectionClosed),
            None => Ok(()),
        }
    }

    /// Pings the page, whose browser answers by itself: a quiet page is
    /// not an idle socket.
    async fn ping(&mut self) -> Outbox {
        match self.page.send(ws::Message::Ping(Default::default())).await {
            Ok(()) => Outbox::default(),
            Err(_) => self.session.end(Reason::PageClosed, "the page left"),
        }
    }

    async fn send_page(&mut self, frame: PageFrame) -> Result<(), axum::Error> {
        let message = match frame {
            PageFrame::Json(frame) => {
                let text = serde_json::to_string(&frame).unwrap_or_default();
                ws::Message::text(redact(&text, &self.key))
            }
            PageFrame::Audio(pcm) => ws::Message::Binary(pcm.into()),
        };
        self.page.send(message).await
    }

    /// Closes both sockets (a close frame each); errors mean they were
    /// already gone. A local decoder is let go first: dropping its sender
    /// ends its thread, and its messages end once the decoder is freed, so
    /// when the page sees the close the session's recogniser is free again.
    async fn close(mut self, incoming: Option<Incoming>) {
        match self.upstream.take() {
            Some(Sink::Socket(mut upstream)) => {
                let _ = upstream.close().await;
            }
            Some(Sink::Local(to)) => {
                drop(to);
                if let Some(mut incoming) = incoming {
                    let drained = async { while incoming.next().await.is_some() {} };
                    if tokio::time::timeout(DECODER_EXIT, drained).await.is_err() {
                        tracing::warn!(
                            "the offline decoder is still finishing; the page is closed before it"
                        );
                    }
                }
            }
            None => {}
        }
        let _ = self.page.close().await;
    }
}

/// An upstream frame's JSON; a frame that is not JSON is logged and skipped.
fn parse(bytes: &[u8]) -> Option<Value> {
    let parsed = serde_json::from_slice(bytes);
    if parsed.is_err() {
        tracing::warn!("an upstream frame is not JSON; skipped");
    }
    parsed.ok()
}
