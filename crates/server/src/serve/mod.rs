//! `voicebox serve`: the turn loop over HTTP on 127.0.0.1, and the page.

mod answer;
mod api;
mod audit;
mod early;
mod error;
mod extensions;
mod guard;
mod listen;
mod openapi;
mod page;
mod root;
mod session;
mod settings;
mod switch;

use crate::approval::Approvals;
use crate::host::{Acts, Channel, Resolver, Words};
use crate::live::{Live, Provider};
use crate::mcp::{McpLimits, Sessions};
use crate::state_dir::StateDir;
use axum::Router;
use axum::extract::FromRef;
use std::path::PathBuf;
use std::sync::Arc;
use tokio::net::TcpListener;
use voicebox_core::rule::Rule;
use voicebox_machine::{Host, MachineAbilities, OpenError};

pub use error::ApiError;
pub use guard::{Guard, MAX_BODY_BYTES};
pub use listen::{Limits, SOCKET_PING};
pub use session::{PageSecret, SESSION_HEADER, SOCKET_PROTOCOL};

/// The writer instance of the server.
pub(crate) const SERVER_INSTANCE: &str = "machine";

/// What `voicebox serve` was asked to do.
pub struct Config {
    pub root: Option<PathBuf>,
    pub port: u16,
    pub state: StateDir,
    pub resolver: Resolver,
    /// The live voice provider `/live` uses when the page names none
    /// (`None`: the first with a key, else the offline one).
    pub live_provider: Option<Provider>,
}

/// The application's state, one part per concern. A handler takes only the
/// parts it needs (`State<Arc<Acts>>`, `State<StateDir>`, ...), through the
/// [`FromRef`] impls below, so what a route can touch reads off its
/// signature.
#[derive(Clone)]
pub struct AppState {
    /// Where acts run: the host's folder or the page's root.
    pub acts: Arc<Acts>,
    /// What the guard checks requests against.
    pub guard: Arc<Guard>,
    /// How words become actions.
    pub words: Arc<Words>,
    /// The host's state folder: keys, root options, audit anchors.
    pub state: StateDir,
    /// Live voice: the default provider and the session counters.
    pub live: Arc<Live>,
    /// Console approval codes waiting to be typed.
    pub approvals: Arc<Approvals>,
    /// Folder switches the page asked for, waiting for the person.
    pub switches: Arc<switch::Switches>,
    /// The MCP sessions over HTTP, capped and expiring.
    pub mcp: Arc<Sessions>,
}

impl AppState {
    /// The state of a server on `port` with the host token `token`, acting
    /// through `host` (its root declared or not) as `config` says.
    pub fn new(
        host: Host<MachineAbilities>,
        token: String,
        port: u16,
        config: &Config,
    ) -> AppState {
        AppState {
            acts: Arc::new(Acts::new(host, Channel::from_env())),
            guard: Arc::new(Guard::new(token, PageSecret::fresh(), port)),
            words: Arc::new(Words::new(config.resolver, config.state.clone())),
            state: config.state.clone(),
            live: Arc::new(Live::new(config.live_provider)),
            approvals: Arc::default(),
            switches: Arc::default(),
            mcp: Arc::new(Sessions::new(McpLimits::default())),
        }
    }

    /// The host `voicebox serve` acts through: the state folder's shelf and
    /// extensions, and `config.root` declared when it can be opened (when it
    /// cannot, that is reported and every act answers root-not-declared
    /// until one is declared). A root whose host folders are not real
    /// folders is an error: the server does not start.
    pub fn open_host(config: &Config) -> std::io::Result<Host<MachineAbilities>> {
        let tools = MachineAbilities::new(Some(config.state.shelf()?))
            .with_extensions(config.state.extensions());
        let mut host = Host::new(SERVER_INSTANCE, tools);
        match config
            .root
            .as_ref()
            .map(|root| host.declare_with(root, config.state.root_options()))
        {
            Some(Err(e @ OpenError::HostFolder { .. })) => {
                return Err(std::io::Error::other(format!(
                    "{}: {e}",
                    Rule::HostFolderNotAFolder
                )));
            }
            Some(Err(e)) => {
                tracing::warn!("the root cannot be used: {e}");
                eprintln!("voicebox: the root cannot be used: {e}");
            }
            _ => {}
        }
        Ok(host)
    }
}

/// `part!(field: Type)`: `State<Type>` extracts that part of [`AppState`].
macro_rules! part {
    ($field:ident: $part:ty) => {
        impl FromRef<AppState> for $part {
            fn from_ref(app: &AppState) -> $part {
                app.$field.clone()
            }
        }
    };
}

part!(acts: Arc<Acts>);
part!(guard: Arc<Guard>);
part!(words: Arc<Words>);
part!(state: StateDir);
part!(live: Arc<Live>);
part!(approvals: Arc<Approvals>);
part!(switches: Arc<switch::Switches>);

/// Binds 127.0.0.1, prints `listening on http://127.0.0.1:<port>`, serves
/// within `limits` until SIGINT or SIGTERM.
pub async fn run(config: Config, limits: Limits) -> std::io::Result<()> {
    let token = config.state.host_token()?;
    // The keys file's mode is checked (and repaired, loudly) at start.
    config.state.keys()?;
    let host = AppState::open_host(&config)?;
    let listener = TcpListener::bind(("127.0.0.1", config.port)).await?;
    let port = listener.local_addr()?.port();
    let mut state = AppState::new(host, token, port, &config);
    state.guard =
        Arc::new(Arc::unwrap_or_clone(state.guard).with_body_timeout(limits.body_timeout));
    state.live = Arc::new(Live::new(config.live_provider).with_decoders(limits.offline_voice));
    state.mcp = Arc::new(Sessions::new(limits.mcp));
    if std::env::var(voicebox_machine::egress::LOOPBACK_OPT_IN).is_ok_and(|v| v == "1") {
        tracing::warn!(
            "extensions may reach loopback addresses (VOICEBOX_ALLOW_LOOPBACK_EGRESS=1): for local test fakes only"
        );
    }
    let page_url = state.guard.page().url(port);
    config.state.save_page_url(&page_url)?;
    println!("listening on http://127.0.0.1:{port}");
    println!("open {page_url}");
    tracing::info!(port, ?limits, "listening");
    listen::serve(listener, router(state), limits, shutdown_signal()).await;
    Ok(())
}

/// The whole application: API, page, and the guard around both.
pub fn router(state: AppState) -> Router {
    Router::new()
        .merge(api::routes())
        .merge(openapi::routes())
        .merge(page::routes())
        .merge(crate::live::routes())
        .merge(crate::channel::routes())
        .merge(crate::mcp::http(
            state.acts.clone(),
            state.words.clone(),
            state.mcp.clone(),
        ))
        .fallback(page::no_such_route)
        .method_not_allowed_fallback(page::no_such_route)
        // The guard caps every body with its one named cap (`body-too-large`,
        // as JSON); axum's own smaller default would answer in plain text first.
        .layer(axum::extract::DefaultBodyLimit::disable())
        .layer(axum::middleware::from_fn_with_state(
            state.guard.clone(),
            guard::guard,
        ))
        .layer(axum::middleware::from_fn(guard::security_headers))
        .with_state(state)
}

async fn shutdown_signal() {
    let interrupt = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    tokio::select! {
        () = interrupt => {},
        () = terminate => {},
    }
    tracing::info!("shutting down");
}
