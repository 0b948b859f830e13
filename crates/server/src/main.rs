//! `voicebox`: speak or type a request; it is carried out inside one declared
//! folder and nowhere else. See the README for a tour.

mod cli;
mod commands;

use clap::Parser;

fn main() {
    let cli = cli::Cli::parse();
    let output = commands::run(cli.command);
    println!("{output}");
}
