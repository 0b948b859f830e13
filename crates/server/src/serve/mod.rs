//! `voicebox serve`: the turn loop over HTTP on 127.0.0.1, and the page.

mod api;
mod error;
mod extensions;
mod guard;
mod openapi;
pub mod page;

use crate::resolve::Resolver;
use crate::state_dir::StateDir;
use axum::Router;
use axum::serve::ListenerExt;
use std::path::PathBuf;
use std::sync::atomic::AtomicU64;
use std::sync::{Arc, Mutex};
use tokio::net::TcpListener;
use voicebox_machine::{Host, WasmTools};

pub use api::{counted, relayed, with_host};
pub use error::ApiError;
pub use guard::own_page;

/// The writer instance of the server.
pub const SERVER_INSTANCE: &str = "machine";

/// What `voicebox serve` was asked to do.
pub struct Config {
    pub root: Option<PathBuf>,
    pub port: u16,
    pub state: StateDir,
    pub resolver: Resolver,
    /// The live voice provider `/live` uses when the page names none
    /// (`None`: the first with a key, else the offline one).
    pub live_provider: Option<crate::live::Provider>,
}

/// Shared by every handler.
pub struct AppState {
    /// One host, one writer: turns against the root are serialised here.
    pub host: Arc<Mutex<Host<WasmTools>>>,
    pub state: StateDir,
    pub token: String,
    /// The port actually bound (for the Host and Origin checks).
    pub port: u16,
    /// How words become actions; the page's settings may change it.
    pub resolver: std::sync::RwLock<Resolver>,
    /// The client LLM resolvers share.
    pub llm: crate::llm::Llm,
    /// Refusals answered since start.
    pub refused: AtomicU64,
    /// Console approval codes waiting to be typed.
    pub approvals: crate::approval::Approvals,
    pub live_provider: Option<crate::live::Provider>,
    /// Live sessions, for `GET /api/health`.
    pub live: crate::live::Counters,
    /// The page-owned root and the page that executes its acts.
    pub channel: crate::channel::Channel,
}

/// Binds 127.0.0.1, prints `listening on http://127.0.0.1:<port>`, serves
/// until SIGINT or SIGTERM.
pub async fn run(config: Config) -> std::io::Result<()> {
    let token = config.state.host_token()?;
    let shelf = config.state.shelf()?;
    let tools = WasmTools::new(Some(shelf)).with_extensions(config.state.extensions());
    let mut host = Host::new(SERVER_INSTANCE, tools);
    if let Some(root) = &config.root {
        // A root that cannot be opened is reported; the server still starts
        // and every act answers root-not-declared until one is declared.
        if let Err(e) = host.declare_with(root, config.state.root_options()) {
            tracing::warn!("the root cannot be used: {e}");
            eprintln!("voicebox: the root cannot be used: {e}");
        }
    }
    let listener = TcpListener::bind(("127.0.0.1", config.port)).await?;
    let port = listener.local_addr()?.port();
    let state = Arc::new(AppState {
        host: Arc::new(Mutex::new(host)),
        state: config.state,
        token,
        port,
        resolver: std::sync::RwLock::new(config.resolver),
        llm: crate::llm::Llm::from_env(),
        refused: AtomicU64::new(0),
        approvals: crate::approval::Approvals::default(),
        live_provider: config.live_provider,
        live: crate::live::Counters::default(),
        channel: crate::channel::Channel::from_env(),
    });
    let app = router(state);
    println!("listening on http://127.0.0.1:{port}");
    tracing::info!(port, "listening");
    let listener = listener.tap_io(|tcp| {
        let _ = tcp.set_nodelay(true);
    });
    axum::serve(listener, app)
        .with_graceful_shutdown(shutdown_signal())
        .await
}

/// The whole application: API, page, and the guard around both.
pub fn router(state: Arc<AppState>) -> Router {
    Router::new()
        .merge(api::routes())
        .merge(extensions::routes())
        .merge(openapi::routes())
        .merge(page::routes())
        .merge(crate::live::routes())
        .merge(crate::channel::routes())
        .fallback(page::no_such_route)
        .method_not_allowed_fallback(page::no_such_route)
        // The guard caps every body with its one named cap (`body-too-large`,
        // as JSON); axum's own smaller default would answer in plain text first.
        .layer(axum::extract::DefaultBodyLimit::disable())
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
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
