//! `voicebox serve`: the page and the API on 127.0.0.1 until SIGINT or SIGTERM.

use super::args::ServeArgs;
use super::{apart, init_logs, made_if_missing};
use crate::live::Provider;
use crate::mcp::McpLimits;
use crate::serve;
use std::process::ExitCode;
use std::time::Duration;

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pub serve: ServeArgs,
    /// The live voice provider `/live` uses when the page names none
    /// (default: gemini or openai when its key is set, else local).
    #[arg(long, env = "VOICEBOX_LIVE_PROVIDER", value_enum)]
    pub live_provider: Option<Provider>,
    /// How long a connection may wait for a complete request head, in ms:
    /// a slow head, or an idle keep-alive connection between requests.
    #[arg(long, env = "VOICEBOX_HEADER_TIMEOUT_MS", default_value_t = millis(serve::Limits::default().header_timeout))]
    pub header_timeout_ms: u64,
    /// How long a request body may take to arrive, in ms.
    #[arg(long, env = "VOICEBOX_BODY_TIMEOUT_MS", default_value_t = millis(serve::Limits::default().body_timeout))]
    pub body_timeout_ms: u64,
    /// How many connections may wait for or carry requests at once
    /// (WebSockets have their own budget).
    #[arg(long, env = "VOICEBOX_MAX_CONNECTIONS", default_value_t = serve::Limits::default().max_connections)]
    pub max_connections: usize,
    /// How many WebSockets (the page's channel and live voice) may be open at once.
    #[arg(long, env = "VOICEBOX_MAX_SOCKETS", default_value_t = serve::Limits::default().max_sockets)]
    pub max_sockets: usize,
    /// How long a WebSocket may read nothing before it is closed, in ms
    /// (the server pings every 20 s, and a browser answers).
    #[arg(long, env = "VOICEBOX_SOCKET_IDLE_MS", default_value_t = millis(serve::Limits::default().socket_idle))]
    pub socket_idle_ms: u64,
    /// How many offline voice sessions (each its own recogniser) may run at once.
    #[arg(long, env = "VOICEBOX_OFFLINE_VOICE_SESSIONS", default_value_t = serve::Limits::default().offline_voice)]
    pub offline_voice_sessions: usize,
    /// How many MCP sessions over HTTP may live at once.
    #[arg(long, env = "VOICEBOX_MCP_SESSIONS", default_value_t = serve::Limits::default().mcp.max)]
    pub mcp_sessions: usize,
    /// How long an MCP session over HTTP may be idle before it is dropped, in ms.
    #[arg(long, env = "VOICEBOX_MCP_IDLE_MS", default_value_t = millis(serve::Limits::default().mcp.idle))]
    pub mcp_idle_ms: u64,
}

fn millis(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}

pub fn run(args: Args) -> ExitCode {
    let ServeArgs {
        root,
        port,
        state,
        resolver,
    } = args.serve;
    let state = state.dir();
    if let Err(code) = apart("serve", &root, &state) {
        return code;
    }
    if let Some(dir) = root.root.as_deref() {
        if let Err(code) = made_if_missing("serve", dir) {
            return code;
        }
        // The page's folder switcher offers it next time.
        if let Err(e) = std::path::absolute(dir).and_then(|dir| state.remember_folder(&dir)) {
            eprintln!("voicebox serve: the recent folders could not be saved ({e})");
        }
    }
    init_logs();
    let config = serve::Config {
        root: root.root,
        port: port.port,
        resolver: resolver.chosen(&state),
        state,
        live_provider: args.live_provider,
    };
    let limits = serve::Limits {
        header_timeout: Duration::from_millis(args.header_timeout_ms),
        body_timeout: Duration::from_millis(args.body_timeout_ms),
        max_connections: args.max_connections,
        max_sockets: args.max_sockets,
        socket_idle: Duration::from_millis(args.socket_idle_ms),
        offline_voice: args.offline_voice_sessions,
        mcp: McpLimits {
            max: args.mcp_sessions,
            idle: Duration::from_millis(args.mcp_idle_ms),
        },
    };
    let runtime = tokio::runtime::Runtime::new().expect("a tokio runtime");
    match runtime.block_on(serve::run(config, limits)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("voicebox serve: {e}");
            ExitCode::FAILURE
        }
    }
}
