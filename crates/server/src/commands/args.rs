//! The flags several commands share, one struct each, flattened into the
//! commands that take them, so `--root` means the same thing, with the same
//! environment variable (`VOICEBOX_ROOT`, ...), everywhere.

use crate::host::Resolver;
use crate::state_dir::StateDir;
use clap::Args;
use std::path::PathBuf;

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
