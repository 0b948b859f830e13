//! `voicebox`: speak or type a request; it is carried out inside one declared
//! folder and nowhere else. See the README for a tour.

use clap::Parser;
use std::process::ExitCode;
use voicebox::cli::{Cli, Command};
use voicebox::commands::{admit, audit, doctor, export_web, resolve, serve, turn, url};

fn main() -> ExitCode {
    match Cli::parse().command {
        Command::Resolve(args) => resolve::run(args),
        Command::Turn(args) => turn::run(args),
        Command::Audit(args) => audit::run(args),
        Command::Admit(args) => admit::run(args),
        Command::ExportWeb(args) => export_web::run(args),
        Command::Serve(args) => serve::run(args),
        Command::Doctor(args) => doctor::run(args),
        Command::Url(args) => url::run(args),
    }
}
