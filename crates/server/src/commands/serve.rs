//! `voicebox serve`: the page and the API on 127.0.0.1 until SIGINT or SIGTERM.

use super::apart;
use crate::cli::ServeArgs;
use crate::live::Provider;
use crate::serve;
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pub serve: ServeArgs,
    /// The live voice provider `/live` uses when the page names none
    /// (default: gemini or openai when its key is set, else local).
    #[arg(long, env = "VOICEBOX_LIVE_PROVIDER", value_enum)]
    pub live_provider: Option<Provider>,
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
    init_logs();
    let config = serve::Config {
        root: root.root,
        port: port.port,
        state,
        resolver: resolver.resolver,
        live_provider: args.live_provider,
    };
    let runtime = tokio::runtime::Runtime::new().expect("a tokio runtime");
    match runtime.block_on(serve::run(config)) {
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
