//! The command line, with clap. Every flag that names a place can also come
//! from the environment (`VOICEBOX_ROOT`, ...). The flags several commands
//! share are one struct each, flattened into the commands that take them, so
//! `--root` means the same thing, with the same variable, everywhere.

use crate::commands::{admit, audit, doctor, export_web, mcp, resolve, serve, turn, url};
use crate::host::resolve::Resolver;
use crate::state_dir::StateDir;
use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;

#[derive(Parser, Debug)]
#[command(
    name = "voicebox",
    version,
    about = "Carry out spoken or typed requests inside one declared folder, and nowhere else."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: CliCommand,
}

#[derive(Subcommand, Debug)]
pub enum CliCommand {
    /// Show the action a resolver makes of a sentence (does nothing).
    Resolve(resolve::Args),
    /// Run one turn in a folder: resolve the sentence (or take --action) and execute it.
    Turn(turn::Args),
    /// Print the root's audit log, newest first (one page; --all for every entry).
    Audit(audit::Args),
    /// Admit a proposed extension (you, at this shell, are the person who decides).
    Admit(admit::Args),
    /// Write the environment page (the browser placement: the core in a web
    /// worker over OPFS, no server needed) as a static folder.
    ExportWeb(export_web::Args),
    /// Serve the page and the API on 127.0.0.1.
    Serve(serve::Args),
    /// Serve the folder to an MCP client over stdio (audit instance `mcp`).
    Mcp(mcp::Args),
    /// Print the effective configuration and check each piece.
    Doctor(doctor::Args),
    /// Print the address (with this start's page secret) that opens the page.
    Url(url::Args),
}

/// `--root`.
#[derive(Args, Debug, Clone)]
pub struct RootArgs {
    /// The project root: the only folder Voicebox may touch. Without it every
    /// act answers root-not-declared.
    #[arg(long, env = "VOICEBOX_ROOT")]
    pub root: Option<PathBuf>,
}

/// `--state-dir`.
#[derive(Args, Debug, Clone)]
pub struct StateArgs {
    /// Where the host token, provider keys, tool shelf, extension ledger and
    /// audit anchors live. It is never inside a root, nor a root inside it:
    /// either is refused (`state-in-root`, `root-in-state`).
    #[arg(long, env = "VOICEBOX_STATE_DIR")]
    pub state_dir: Option<PathBuf>,
}

impl StateArgs {
    /// The state folder these flags name (or the default one).
    pub fn dir(&self) -> StateDir {
        StateDir::new(self.state_dir.clone())
    }
}

/// `--root` and `--state-dir`: where a command acts, and its state folder.
#[derive(Args, Debug, Clone)]
pub struct PlaceArgs {
    #[command(flatten)]
    pub root: RootArgs,
    #[command(flatten)]
    pub state: StateArgs,
}

/// `--resolver`.
#[derive(Args, Debug, Clone, Copy)]
pub struct ResolverArgs {
    /// How words become actions [default: the one last chosen in Settings, else script]
    #[arg(long, env = "VOICEBOX_RESOLVER", value_enum)]
    resolver: Option<Resolver>,
}

impl ResolverArgs {
    /// The resolver named here, else the one the person last chose on the
    /// page (saved in the state folder), else the built-in one.
    pub fn chosen(self, state: &StateDir) -> Resolver {
        self.resolver
            .or_else(|| state.settings().resolver())
            .unwrap_or(Resolver::Script)
    }
}

/// What `serve` runs with, and so what `doctor` checks.
#[derive(Args, Debug, Clone)]
pub struct ServeArgs {
    // Without a root the server starts, and every act answers
    // root-not-declared until the page or a script declares one.
    #[command(flatten)]
    pub root: RootArgs,
    #[command(flatten)]
    pub port: PortArgs,
    #[command(flatten)]
    pub state: StateArgs,
    #[command(flatten)]
    pub resolver: ResolverArgs,
}

/// `--port`, for the server and for `doctor`, which checks it is free.
#[derive(Args, Debug, Clone, Copy)]
pub struct PortArgs {
    /// The port; 0 picks a free one.
    #[arg(long, env = "VOICEBOX_PORT", default_value_t = 7878)]
    pub port: u16,
}
