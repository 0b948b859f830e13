//! `voicebox serve`: the page and the API on 127.0.0.1 until SIGINT or SIGTERM.

use super::apart;
use crate::cli::ServeArgs;
use crate::live::Provider;
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
    /// How many connections may be open at once (WebSockets included).
    #[arg(long, env = "VOICEBOX_MAX_CONNECTIONS", default_value_t = serve::Limits::default().max_connections)]
    pub max_connections: usize,
}

/// A declared folder that does not exist yet is made (a first run's
/// `--root ~/voicebox-notes`), and the console says so: otherwise every act
/// would answer `root-not-declared` and the page would be a dead end.
fn made_if_missing(dir: &std::path::Path) -> Result<(), ExitCode> {
    if dir.exists() {
        return Ok(());
    }
    match std::fs::create_dir_all(dir) {
        Ok(()) => {
            eprintln!(
                "voicebox serve: made the folder {} (it did not exist); Voicebox acts only inside it",
                dir.display()
            );
            Ok(())
        }
        Err(e) => {
            eprintln!(
                "voicebox serve: the folder {} does not exist and cannot be made ({e}); make it, or pass another --root",
                dir.display()
            );
            Err(ExitCode::FAILURE)
        }
    }
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
        if let Err(code) = made_if_missing(dir) {
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

/// Structured logs on stderr; `RUST_LOG` narrows or widens them. Keys,
/// tokens and bodies are never logged.
fn init_logs() {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .init();
}
