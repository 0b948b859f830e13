//! `voicebox resolve`: the action a resolver makes of a sentence, done
//! nowhere, with whether it is sure (`"sure": false` and what it assumed
//! for a guess, which a turn would ask about before changing anything).

use super::args::{ResolverArgs, RootArgs, StateArgs};
use super::unusable_root;
use serde_json::json;
use std::process::ExitCode;
use voicebox_core::resolver::{Folder, Resolution};

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pub resolver: ResolverArgs,
    // Only the stored provider keys are read from it.
    #[command(flatten)]
    pub state: StateArgs,
    /// With `--root`, names are settled against that folder's files (it is
    /// only looked at: nothing is written to it).
    #[command(flatten)]
    pub root: RootArgs,
    /// The sentence, e.g. "create a file called hello.txt with hi".
    pub text: String,
}

pub fn run(args: Args) -> ExitCode {
    let state = args.state.dir();
    let folder = match args
        .root
        .root
        .as_deref()
        .map(|root| state.audit_reader(Some(root)))
    {
        None => Folder::default(),
        Some(Ok(reader)) => reader.folder(),
        Some(Err(e)) => {
            eprintln!("voicebox resolve: {}", unusable_root(&e));
            return ExitCode::from(2);
        }
    };
    let answer = match args
        .resolver
        .chosen(&state)
        .resolve_blocking(&state, &args.text, &folder)
    {
        Resolution::Action(action) => json!({ "action": action, "sure": true }),
        Resolution::Guess { action, assumed } => {
            json!({ "action": action, "sure": false, "assumed": assumed })
        }
        Resolution::Unresolved { note } => json!({ "action": null, "sure": false, "note": note }),
    };
    println!("{answer}");
    ExitCode::SUCCESS
}
