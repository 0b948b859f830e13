//! `voicebox`: speak or type a request; it is carried out inside one declared
//! folder and nowhere else. See the README for a tour.

mod approval;
mod channel;
mod cli;
mod commands;
mod doctor;
mod live;
mod llm;
mod resolve;
mod serve;
mod state_dir;

use clap::Parser;
use cli::Command;

fn main() {
    let cli = cli::Cli::parse();
    match cli.command {
        Command::Serve {
            root,
            port,
            state_dir,
            resolver,
            live_provider,
        } => {
            init_logs();
            let config = serve::Config {
                root,
                port,
                state: state_dir::StateDir::new(state_dir),
                resolver,
                live_provider,
            };
            let runtime = tokio::runtime::Runtime::new().expect("a tokio runtime");
            if let Err(e) = runtime.block_on(serve::run(config)) {
                eprintln!("voicebox serve: {e}");
                std::process::exit(1);
            }
        }
        Command::Audit {
            root,
            state_dir,
            all,
            verify,
        } if all || verify => std::process::exit(commands::audit_lines(
            root.as_deref(),
            &state_dir::StateDir::new(state_dir),
            verify,
        )),
        command => println!("{}", commands::run(command)),
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
