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
use state_dir::StateDir;
use std::path::Path;
use voicebox_core::Refusal;

fn main() {
    let cli = cli::Cli::parse();
    if let Some((name, root, state)) = root_and_state(&cli.command)
        && let Err(refusal) = state.apart_from(root)
    {
        refuse(name, &refusal);
    }
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
                state: StateDir::new(state_dir),
                resolver,
                live_provider,
            };
            let runtime = tokio::runtime::Runtime::new().expect("a tokio runtime");
            if let Err(e) = runtime.block_on(serve::run(config)) {
                eprintln!("voicebox serve: {e}");
                std::process::exit(1);
            }
        }
        Command::Doctor {
            root,
            port,
            state_dir,
            resolver,
        } => {
            let state = StateDir::new(state_dir);
            let (report, overlap) = doctor::report(root.as_deref(), port, &state, resolver);
            println!("{report}");
            if let Some(refusal) = overlap {
                refuse("doctor", &refusal);
            }
        }
        Command::Audit {
            root,
            state_dir,
            all,
            verify,
        } if all || verify => std::process::exit(commands::audit_lines(
            root.as_deref(),
            &StateDir::new(state_dir),
            verify,
        )),
        command => println!("{}", commands::run(command)),
    }
}

/// The root and the state folder a command would use together, checked
/// before it starts. `doctor` is not here: it reports an overlap as a
/// failing check, then exits as these do.
fn root_and_state(command: &Command) -> Option<(&'static str, &Path, StateDir)> {
    let (name, root, state_dir) = match command {
        Command::Serve {
            root, state_dir, ..
        } => ("serve", root, state_dir),
        Command::Turn {
            root, state_dir, ..
        } => ("turn", root, state_dir),
        Command::Audit {
            root, state_dir, ..
        } => ("audit", root, state_dir),
        Command::Admit {
            root, state_dir, ..
        } => ("admit", root, state_dir),
        _ => return None,
    };
    Some((name, root.as_deref()?, StateDir::new(state_dir.clone())))
}

/// A command that must not run as configured: its named refusal on stderr
/// and exit 2, as for any other wrong command line.
fn refuse(command: &str, refusal: &Refusal) -> ! {
    eprintln!("voicebox {command}: {refusal}");
    std::process::exit(2);
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
