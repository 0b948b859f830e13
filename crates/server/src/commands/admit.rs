//! `voicebox admit`: the person at the shell admits a proposed extension,
//! audited in the root first, like every admission.

use super::args::PlaceArgs;
use super::{host, place};
use crate::admission;
use serde_json::json;
use std::process::ExitCode;
use voicebox_core::Reply;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The extension's id, as `GET /api/extensions` lists it.
    pub id: String,
    // The root whose audit log records the admission.
    #[command(flatten)]
    pub place: PlaceArgs,
}

pub fn run(args: Args) -> ExitCode {
    let (root, state) = match place("admit", &args.place) {
        Ok(place) => place,
        Err(code) => return code,
    };
    let (host, unusable) = host(root, &state);
    let reply = match unusable {
        Some(refusal) => Reply::refusal(refusal),
        None => admission::admit(&host, &args.id, "shell"),
    };
    println!("{}", json!(reply));
    ExitCode::SUCCESS
}
