//! The command line, with clap. Every flag that names a place can also come
//! from the environment (`VOICEBOX_ROOT`, ...).

use crate::live::Provider;
use crate::resolve::Resolver;
use clap::{Parser, Subcommand};
use std::path::PathBuf;

#[derive(Parser, Debug)]
#[command(
    name = "voicebox",
    version,
    about = "Carry out spoken or typed requests inside one declared folder, and nowhere else."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Show the action a resolver makes of a sentence (does nothing).
    Resolve {
        /// How words become actions.
        #[arg(long, env = "VOICEBOX_RESOLVER", value_enum, default_value_t = Resolver::Script)]
        resolver: Resolver,
        /// Where stored provider keys live (see `serve`).
        #[arg(long, env = "VOICEBOX_STATE_DIR")]
        state_dir: Option<PathBuf>,
        /// The sentence, e.g. "create a file called hello.txt with hi".
        text: String,
    },
    /// Run one turn in a folder: resolve the sentence (or take --action) and execute it.
    Turn {
        /// The project root: the only folder Voicebox may touch.
        #[arg(long, env = "VOICEBOX_ROOT")]
        root: Option<PathBuf>,
        /// Where the tool shelf and provider keys live (see `serve`).
        #[arg(long, env = "VOICEBOX_STATE_DIR")]
        state_dir: Option<PathBuf>,
        /// How words become actions.
        #[arg(long, env = "VOICEBOX_RESOLVER", value_enum, default_value_t = Resolver::Script)]
        resolver: Resolver,
        /// Action JSON instead of a sentence, e.g. '{"verb":"read","name":"notes.md"}'.
        #[arg(long, conflicts_with = "text")]
        action: Option<String>,
        /// Answer a tier-2 confirmation (delete) with yes in the same run.
        #[arg(long)]
        yes: bool,
        /// The sentence.
        #[arg(required_unless_present = "action")]
        text: Option<String>,
    },
    /// Print the root's audit log, newest first (one page; --all for every entry).
    Audit {
        #[arg(long, env = "VOICEBOX_ROOT")]
        root: Option<PathBuf>,
        /// The state folder: where the host keeps its audit anchors, and a root
        /// that overlaps it is refused (see `serve`).
        #[arg(long, env = "VOICEBOX_STATE_DIR")]
        state_dir: Option<PathBuf>,
        /// Stream every entry as JSON lines, newest first, page by page.
        #[arg(long, conflicts_with = "verify")]
        all: bool,
        /// Check every audit file's chain (and the host's anchors): one line
        /// per file, `ok`, `torn` or where the chain breaks; exits 1 on a break.
        #[arg(long)]
        verify: bool,
    },
    /// Admit a proposed extension (you, at this shell, are the person who decides).
    Admit {
        /// The extension's id, as `GET /api/extensions` lists it.
        id: String,
        /// The project root whose audit log records the admission.
        #[arg(long, env = "VOICEBOX_ROOT")]
        root: Option<PathBuf>,
        #[arg(long, env = "VOICEBOX_STATE_DIR")]
        state_dir: Option<PathBuf>,
    },
    /// Write the environment page (the browser placement: the core in a web
    /// worker over OPFS, no server needed) as a static folder.
    ExportWeb {
        /// The folder to write; serve it with any static file server and open `env/`.
        dir: PathBuf,
    },
    /// Serve the page and the API on 127.0.0.1.
    Serve {
        /// The project root. Without it the server starts and every act
        /// answers root-not-declared.
        #[arg(long, env = "VOICEBOX_ROOT")]
        root: Option<PathBuf>,
        /// The port; 0 picks a free one.
        #[arg(long, env = "VOICEBOX_PORT", default_value_t = 7878)]
        port: u16,
        /// Where the host token and provider keys live. It is never inside a
        /// root, nor a root inside it: either refuses to start (`state-in-root`,
        /// `root-in-state`).
        #[arg(long, env = "VOICEBOX_STATE_DIR")]
        state_dir: Option<PathBuf>,
        /// How words become actions.
        #[arg(long, env = "VOICEBOX_RESOLVER", value_enum, default_value_t = Resolver::Script)]
        resolver: Resolver,
        /// The live voice provider `/live` uses when the page names none
        /// (default: gemini or openai when its key is set, else local).
        #[arg(long, env = "VOICEBOX_LIVE_PROVIDER", value_enum)]
        live_provider: Option<Provider>,
    },
    /// Print the effective configuration and check each piece.
    Doctor {
        #[arg(long, env = "VOICEBOX_ROOT")]
        root: Option<PathBuf>,
        #[arg(long, env = "VOICEBOX_PORT", default_value_t = 7878)]
        port: u16,
        #[arg(long, env = "VOICEBOX_STATE_DIR")]
        state_dir: Option<PathBuf>,
        #[arg(long, env = "VOICEBOX_RESOLVER", value_enum, default_value_t = Resolver::Script)]
        resolver: Resolver,
    },
}
