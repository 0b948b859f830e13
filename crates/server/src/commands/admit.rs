//! `voicebox admit`: the person at the shell admits a proposed extension,
//! audited in the root first, like every admission.

use super::{apart, host};
use crate::admission;
use crate::cli::{RootArgs, StateArgs};
use serde_json::json;
use std::process::ExitCode;
use voicebox_core::Reply;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The extension's id, as `GET /api/extensions` lists it.
    pub id: String,
    // The root whose audit log records the admission.
    #[command(flatten)]
    pub root: RootArgs,
    #[command(flatten)]
    pub state: StateArgs,
}

pub fn run(args: Args) -> ExitCode {
    let state = args.state.dir();
    if let Err(code) = apart("admit", &args.root, &state) {
        return code;
    }
    let (host, unusable) = host(args.root.root.as_deref(), &state);
    let reply = match unusable {
        Some(refusal) => Reply::refusal(refusal),
        None => admission::admit(&host, &args.id, "shell"),
    };
    println!("{}", json!(reply));
    ExitCode::SUCCESS
}
