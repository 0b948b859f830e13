//! `voicebox`: speak or type a request; it is carried out inside one declared
//! folder and nowhere else. See the README for a tour.

use clap::Parser;
use std::process::ExitCode;
use voicebox::cli::{Cli, CliCommand};
use voicebox::commands::{admit, audit, doctor, export_web, mcp, resolve, serve, turn, url};

fn main() -> ExitCode {
    match Cli::parse().command {
        CliCommand::Resolve(args) => resolve::run(args),
        CliCommand::Turn(args) => turn::run(args),
        CliCommand::Audit(args) => audit::run(args),
        CliCommand::Admit(args) => admit::run(args),
        CliCommand::ExportWeb(args) => export_web::run(args),
        CliCommand::Serve(args) => serve::run(args),
        CliCommand::Mcp(args) => mcp::run(args),
        CliCommand::Doctor(args) => doctor::run(args),
        CliCommand::Url(args) => url::run(args),
    }
}
