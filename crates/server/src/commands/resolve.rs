//! `voicebox resolve`: the action a resolver makes of a sentence, done nowhere.

use crate::cli::{ResolverArgs, StateArgs};
use serde_json::json;
use std::process::ExitCode;
use voicebox_core::resolver::Resolution;

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pub resolver: ResolverArgs,
    // Only the stored provider keys are read from it.
    #[command(flatten)]
    pub state: StateArgs,
    /// The sentence, e.g. "create a file called hello.txt with hi".
    pub text: String,
}

pub fn run(args: Args) -> ExitCode {
    let answer = match args
        .resolver
        .resolver
        .resolve_blocking(&args.state.dir(), &args.text)
    {
        Resolution::Action(action) => json!({ "action": action }),
        Resolution::Unresolved { note } => json!({ "action": null, "note": note }),
    };
    println!("{answer}");
    ExitCode::SUCCESS
}
