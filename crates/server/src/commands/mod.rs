//! The subcommands, one module each with its `Args` and its `run`. The
//! one-shot commands print one JSON object; `serve` runs until stopped.
//! None of them reaches into the HTTP module: what they share with it (the
//! host's state folder, admission) lives outside `serve`.

pub mod admit;
pub mod args;
pub mod audit;
pub mod doctor;
pub mod export_web;
pub mod mcp;
pub mod resolve;
pub mod serve;
pub mod turn;
pub mod url;

use crate::state_dir::StateDir;
use args::{PlaceArgs, RootArgs};
use std::path::Path;
use std::process::ExitCode;
use voicebox_core::rule::{Refusal, Rule};
use voicebox_machine::{Host, MachineAbilities, OpenError};

/// The writer instance of command-line turns.
const CLI_INSTANCE: &str = "cli";

/// The root and the state folder a command would use together, checked
/// before it starts (before the host token is made or a root opened): an
/// overlap is the command's named refusal and exit 2.
fn apart(command: &str, root: &RootArgs, state: &StateDir) -> Result<(), ExitCode> {
    match root.root.as_deref().map(|root| state.apart_from(root)) {
        Some(Err(refusal)) => Err(refused(command, &refusal)),
        _ => Ok(()),
    }
}

/// The root a command acts in (if any) and its state folder, checked
/// [`apart`].
fn place<'a>(
    command: &str,
    place: &'a PlaceArgs,
) -> Result<(Option<&'a Path>, StateDir), ExitCode> {
    let state = place.state.dir();
    apart(command, &place.root, &state)?;
    Ok((place.root.root.as_deref(), state))
}

/// A command that must not run as configured: its named refusal on stderr
/// and exit 2, as for any other wrong command line.
fn refused(command: &str, refusal: &Refusal) -> ExitCode {
    eprintln!("voicebox {command}: {refusal}");
    ExitCode::from(2)
}

/// A host with `root` declared, or the refusal that says why it could not be.
/// The host has the state folder's shelf and extension registry.
fn host(root: Option<&Path>, state: &StateDir) -> (Host<MachineAbilities>, Option<Refusal>) {
    host_as(CLI_INSTANCE, root, state)
}

/// [`host`], writing the audit as `instance`.
fn host_as(
    instance: &str,
    root: Option<&Path>,
    state: &StateDir,
) -> (Host<MachineAbilities>, Option<Refusal>) {
    let tools = MachineAbilities::new(state.shelf().ok()).with_extensions(state.extensions());
    let mut host = Host::new(instance, tools);
    let refusal = root.and_then(|path| {
        host.declare_with(path, state.root_options())
            .err()
            .map(|e| unusable_root(&e))
    });
    (host, refusal)
}

fn unusable_root(e: &OpenError) -> Refusal {
    match e {
        OpenError::HostFolder { .. } => Refusal::new(Rule::HostFolderNotAFolder, e.to_string()),
        _ => Refusal::new(
            Rule::RootUnreachable,
            format!("the folder cannot be used: {e}; pass --root with an existing folder"),
        ),
    }
}

/// A root whose host folders are not real folders is not worked in at all:
/// the command says so and stops, as for a wrong command line.
fn fatal(command: &str, refusal: Option<&Refusal>) -> Result<(), ExitCode> {
    match refusal {
        Some(refusal) if refusal.rule == Rule::HostFolderNotAFolder => {
            Err(refused(command, refusal))
        }
        _ => Ok(()),
    }
}

/// A declared folder that does not exist yet is made (a first run's
/// `--root ~/voicebox-notes`), and the console says so: otherwise every act
/// would answer `root-not-declared` and the page (or an MCP client) would be a dead end.
fn made_if_missing(command: &str, dir: &Path) -> Result<(), ExitCode> {
    if dir.exists() {
        return Ok(());
    }
    match std::fs::create_dir_all(dir) {
        Ok(()) => {
            eprintln!(
                "voicebox {command}: made the folder {} (it did not exist); Voicebox acts only inside it",
                dir.display()
            );
            Ok(())
        }
        Err(e) => {
            eprintln!(
                "voicebox {command}: the folder {} does not exist and cannot be made ({e}); make it, or pass another --root",
                dir.display()
            );
            Err(ExitCode::FAILURE)
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
