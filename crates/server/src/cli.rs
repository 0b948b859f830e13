//! The command line, with clap: one subcommand per file of `commands/`,
//! each with its own `Args` (the flags they share are `commands/args.rs`).

use crate::commands::{admit, audit, doctor, export_web, mcp, resolve, serve, turn, url};
use clap::{Parser, Subcommand};

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
