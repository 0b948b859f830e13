//! `GET /live`: the page's microphone bridged to a live voice model (Gemini
//! Live or OpenAI Realtime) or to the offline recogniser (pocketsphinx),
//! whose tool calls run through the command list into the same executor as
//! every other act.
//!
//! - [`socket`] refuses any peer that is not this server's page before a
//!   paid session opens, and [`Live`] counts sessions for `/api/health`;
//! - `bridge` moves frames between the page, the provider and the executor;
//! - `session` is the state machine that decides what each frame means;
//! - `vendor` is the trait each provider's wire format implements
//!   (`gemini`, `openai`, and `local`, whose upstream is a decoder thread
//!   on `sphinx` with a `grammar` made from the command list);
//! - `tools` declares the command list as functions and runs the calls.

mod bridge;
mod choice;
mod frames;
mod gemini;
mod grammar;
mod hearing;
mod local;
mod moonshine;
mod openai;
mod session;
mod sphinx;
mod tools;
mod vendor;

use crate::host::Acts;
use crate::llm;
use crate::serve::ApiError;
use crate::state_dir::StateDir;
use axum::Router;
use axum::extract::rejection::QueryRejection;
use axum::extract::ws::WebSocketUpgrade;
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::{FromRef, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
pub use choice::{Choice, offers};
use serde::Deserialize;
use serde_json::{Value, json};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use utoipa::IntoParams;
use vendor::LiveVendor;
use voicebox_core::Rule;

/// The largest page message (and frame) the socket reads at all; audio frames are
/// refused by name well below it (one second of audio).
const MAX_PAGE_MESSAGE: usize = 1 << 20;

/// The live voice providers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Provider {
    /// Gemini Live (key `gemini` or GEMINI_API_KEY), 16 kHz in.
    Gemini,
    /// OpenAI Realtime (key `openai` or OPENAI_API_KEY), 24 kHz in.
    Openai,
    /// Offline: pocketsphinx on this machine (Debian `libpocketsphinx3`,
    /// `pocketsphinx-en-us`), 16 kHz in, no key.
    Local,
    /// Offline, Whisper-class: Moonshine (PyPI `moonshine-voice`) for the
    /// words, pocketsphinx for where an utterance ends and for file names;
    /// 16 kHz in, no key. The default with no key when it is installed.
    Whisper,
}

impl Provider {
    pub const ALL: [Provider; 4] = [
        Provider::Gemini,
        Provider::Openai,
        Provider::Local,
        Provider::Whisper,
    ];

    /// The name a person sees, the same on every page.
    pub fn label(self) -> &'static str {
        match self {
            Provider::Gemini => "Gemini Live",
            Provider::Openai => "OpenAI Realtime",
            Provider::Local => "Offline (pocketsphinx)",
            Provider::Whisper => "Offline (Whisper-class)",
        }
    }

    /// The provider's name on the wire (`gemini`, `openai`, `local`).
    pub fn name(self) -> &'static str {
        match self {
            Provider::Gemini => "gemini",
            Provider::Openai => "openai",
            Provider::Local => "local",
            Provider::Whisper => "whisper",
        }
    }

    /// The sample rate the page must send.
    fn input_rate(self) -> u32 {
        match self {
            Provider::Gemini => gemini::RATE,
            Provider::Openai => openai::RATE,
            Provider::Local | Provider::Whisper => local::INPUT_RATE,
        }
    }

    fn vendor(self, choice: &Choice) -> Box<dyn LiveVendor> {
        match self {
            Provider::Gemini => Box::new(gemini::Gemini::from_env(choice)),
            Provider::Openai => Box::new(openai::OpenAi::from_env(choice)),
            Provider::Local | Provider::Whisper => Box::new(local::Local::default()),
        }
    }

    /// The environment variable a remote provider's key may come from.
    fn key_env(self) -> &'static str {
        match self {
            Provider::Gemini => llm::GEMINI.provider.key_env(),
            Provider::Openai => llm::OPENAI.provider.key_env(),
            Provider::Local | Provider::Whisper => "",
        }
    }

    /// The key, found as the REST resolvers find theirs (the local
    /// provider needs none).
    fn key(self, state: &StateDir) -> Result<String, String> {
        let rest = match self {
            Provider::Gemini => &llm::GEMINI,
            Provider::Openai => &llm::OPENAI,
            Provider::Local | Provider::Whisper => return Ok(String::new()),
        };
        llm::api_key(rest, state)
    }

    /// The provider when neither the page nor the server named one: the
    /// first remote provider with a key, else an offline one (the
    /// Whisper-class one when its model is here), so voice works out of the box.
    fn default_for(state: &StateDir) -> Provider {
        [Provider::Gemini, Provider::Openai]
            .into_iter()
            .find(|p| p.key(state).is_ok())
            .unwrap_or_else(|| match moonshine::available() {
                Ok(_) => Provider::Whisper,
                Err(_) => Provider::Local,
            })
    }

    /// Whether it runs on this machine, with no upstream socket.
    fn offline(self) -> bool {
        matches!(self, Provider::Local | Provider::Whisper)
    }

    /// Whether a session could start now — a remote provider's key is set,
    /// an offline one's library loads and its model files are there — and
    /// if not, why, with the step that fixes it. Cheap enough for every
    /// health answer (the Whisper-class model's checksum is `doctor`'s).
    fn availability(self, state: &StateDir) -> Value {
        let (ready, fix) = match self {
            Provider::Gemini | Provider::Openai => {
                let vendor = self.label().split(' ').next().unwrap_or_default();
                (
                    self.key(state)
                        .map(|_| ())
                        .map_err(|_| format!("no {vendor} key is set")),
                    format!(
                        "add the {vendor} key in Settings (or set {})",
                        self.key_env()
                    ),
                )
            }
            Provider::Local => (
                sphinx::available().map(|_| ()),
                format!("apt-get install -y {}", sphinx::PACKAGES),
            ),
            Provider::Whisper => (
                sphinx::available()
                    .and_then(|_| moonshine::package_dir())
                    .map(|_| ()),
                format!(
                    "apt-get install -y {} && {}",
                    sphinx::PACKAGES,
                    moonshine::install_step()
                ),
            ),
        };
        let mut seen =
            json!({"name": self.name(), "label": self.label(), "available": ready.is_ok()});
        if let Err(why) = ready {
            seen["why"] = json!(why);
            seen["fix"] = json!(fix);
        }
        seen
    }
}

/// The offline engines and whether each can run here, with the exact step
/// that installs what is missing (for `voicebox doctor` and the health
/// answer). `verify` also checks the Whisper-class model's pinned sha256
/// (read once per process); without it, only that the package is there.
pub(crate) fn offline_engines(verify: bool) -> Value {
    let sphinx = sphinx::available().map(|_| ());
    let whisper = match verify {
        true => moonshine::available().map(|_| ()),
        false => moonshine::package_dir().map(|_| ()),
    };
    let engine = |provider: &str, engine: &str, ready: Result<(), String>, install: String| {
        let mut check = json!({"provider": provider, "engine": engine, "ok": ready.is_ok()});
        if let Err(why) = ready {
            check["why"] = json!(why);
            check["install"] = json!(install);
        }
        check
    };
    json!([
        engine(
            "local",
            "pocketsphinx 5prealpha, US English grammar and model",
            sphinx.clone(),
            format!("apt-get install -y {}", sphinx::PACKAGES),
        ),
        engine(
            "whisper",
            "Moonshine base (English), with pocketsphinx for utterance ends",
            sphinx.and(whisper),
            moonshine::install_step(),
        ),
    ])
}

/// Live voice on this server: the provider `/live` uses when the page names
/// none, the sessions accepted since start and still open (for
/// `GET /api/health`), and the offline recognisers that may run at once.
pub struct Live {
    provider: Option<Provider>,
    created: AtomicU64,
    running: AtomicU64,
    /// Each offline session holds one from before its model loads until its
    /// decoder is freed: a decoder is tens of MB of C memory, so their
    /// number, not the sockets', bounds the server's size.
    decoders: Arc<Semaphore>,
    max_decoders: usize,
}

/// How many offline recognisers run at once by default: a person speaks in
/// one tab; a second covers a tab left open.
pub(crate) const OFFLINE_DECODERS: usize = 2;

impl Live {
    /// `provider`: the server's `--live-provider`, if any.
    pub fn new(provider: Option<Provider>) -> Live {
        Live {
            provider,
            created: AtomicU64::new(0),
            running: AtomicU64::new(0),
            decoders: Arc::new(Semaphore::new(OFFLINE_DECODERS)),
            max_decoders: OFFLINE_DECODERS,
        }
    }

    /// The same, running at most `max` offline recognisers at once.
    pub(crate) fn with_decoders(self, max: usize) -> Live {
        Live {
            decoders: Arc::new(Semaphore::new(max)),
            max_decoders: max,
            ..self
        }
    }

    /// A place for one offline recogniser, or the refusal that all are taken.
    fn decoder(&self) -> Result<OwnedSemaphorePermit, String> {
        self.decoders.clone().try_acquire_owned().map_err(|_| {
            format!(
                "this server runs at most {} offline voice sessions at once, and they are all open; close one (another tab?) and start again",
                self.max_decoders
            )
        })
    }

    /// The provider `/live` uses when the page names none.
    fn default_provider(&self, state: &StateDir) -> Provider {
        self.provider
            .unwrap_or_else(|| Provider::default_for(state))
    }

    /// For `/api/health`: the sessions, the default provider, whether each
    /// provider could start now (and why not), and each remote provider's
    /// voices and models with the person's choice.
    pub(crate) fn to_json(&self, state: &StateDir) -> Value {
        let settings = state.settings();
        json!({
            "created": self.created.load(Ordering::Relaxed),
            "running": self.running.load(Ordering::Relaxed),
            "offline": {
                "decoding": self.max_decoders - self.decoders.available_permits(),
                "max": self.max_decoders,
            },
            "default": self.default_provider(state).name(),
            "providers": Provider::ALL.map(|p| p.availability(state)),
            "voices": choice::offers(|p| settings.live_choice(p)),
        })
    }

    /// Counts a session; it stops running when the guard drops.
    fn open(&self) -> RunningSession<'_> {
        self.created.fetch_add(1, Ordering::Relaxed);
        self.running.fetch_add(1, Ordering::Relaxed);
        RunningSession(self)
    }
}

struct RunningSession<'a>(&'a Live);

impl Drop for RunningSession<'_> {
    fn drop(&mut self) {
        self.0.running.fetch_sub(1, Ordering::Relaxed);
    }
}

/// The route, in any router whose state holds the host's [`Acts`], the
/// state folder and the live voice counters.
pub fn routes<S>() -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    Arc<Acts>: FromRef<S>,
    StateDir: FromRef<S>,
    Arc<Live>: FromRef<S>,
{
    Router::new().route("/live", get(socket))
}

#[derive(Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
pub struct LiveQuery {
    /// `gemini`, `openai` or `local` (default: the server's
    /// `--live-provider`, else the first with a key, else `local`).
    #[param(value_type = Option<String>)]
    provider: Option<Provider>,
}

/// The live voice WebSocket: the page's PCM16 mono audio to the live
/// provider, tool calls through the command list into the executor.
#[utoipa::path(get, path = "/live", params(LiveQuery),
    responses(
        (status = 101, description = "the socket: first `{type:\"rate\", inputRate, outputRate, provider}`, then `ready`, `transcript`, `tool`, `cancelled`, `interrupted`, `goaway`, `error` frames and model audio, and one `end`"),
        (status = 400, description = "unknown provider or query parameter, or not a WebSocket request"),
        (status = 403, description = "foreign Host, or an Origin that is not this server's page (`foreign-origin`)"),
    ))]
pub async fn socket(
    State(acts): State<Arc<Acts>>,
    State(state): State<StateDir>,
    State(live): State<Arc<Live>>,
    query: Result<Query<LiveQuery>, QueryRejection>,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Response {
    let query = match query {
        Ok(Query(query)) => query,
        Err(rejection) => {
            return ApiError::new(
                StatusCode::BAD_REQUEST,
                Rule::MalformedField,
                format!(
                    "the query does not fit /live (provider is gemini, openai or local): {}",
                    rejection.body_text()
                ),
            )
            .into_response();
        }
    };
    let upgrade = match upgrade {
        Ok(upgrade) => upgrade,
        Err(rejection) => return rejection.into_response(),
    };
    let provider = query
        .provider
        .unwrap_or_else(|| live.default_provider(&state));
    upgrade
        .protocols([crate::serve::SOCKET_PROTOCOL])
        .max_message_size(MAX_PAGE_MESSAGE)
        .max_frame_size(MAX_PAGE_MESSAGE)
        .on_upgrade(move |socket| bridge::run(acts, state, live, socket, provider))
}
