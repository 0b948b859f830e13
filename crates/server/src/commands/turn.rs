//! `voicebox turn`: one turn in a folder, as `POST /api/turn` runs it.

use super::args::{PlaceArgs, ResolverArgs};
use super::{fatal, host, place};
use crate::host::resolve::one_shot_runtime;
use crate::host::{Acted, Acts, Channel, Words};
use serde_json::{Value, json};
use std::process::ExitCode;
use voicebox_core::command::Verb;
use voicebox_core::platform::Env;
use voicebox_core::rule::{Refusal, Rule};
use voicebox_core::turn::{Outcome, TurnAnswer, TurnInput};
use voicebox_core::{Action, Reply};
use voicebox_machine::MachineEnv;

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pub place: PlaceArgs,
    #[command(flatten)]
    pub resolver: ResolverArgs,
    /// Action JSON instead of a sentence, e.g. '{"verb":"read","name":"notes.md"}'.
    #[arg(long, conflicts_with = "text")]
    pub action: Option<String>,
    /// Answer a tier-2 confirmation (delete) with yes in the same run.
    #[arg(long)]
    pub yes: bool,
    /// The sentence.
    #[arg(required_unless_present = "action")]
    pub text: Option<String>,
}

pub fn run(args: Args) -> ExitCode {
    let (root, state) = match place("turn", &args.place) {
        Ok(place) => place,
        Err(code) => return code,
    };
    let (host, unusable) = host(root, &state);
    if let Err(code) = fatal("turn", unusable.as_ref()) {
        return code;
    }
    // The same host layer the server turns through, with no page: the
    // turn is assembled as `POST /api/turn` assembles it.
    let acts = Acts::new(host, Channel::from_env());
    let words = Words::new(args.resolver.chosen(&state), state.clone());
    let turn_id = format!("cli-{}", &MachineEnv.random_id()[..8]);
    let runtime = one_shot_runtime();
    let answer = match input(&args) {
        Err(refusal) => TurnAnswer::before_resolving(None, Acted::from(Reply::refusal(refusal))),
        Ok(input) => runtime.block_on(acts.turn_with(&words, input, unusable, turn_id)),
    };
    let mut out = json!(answer);
    let asked = answer
        .result
        .as_ref()
        .and_then(|r| r.reply().confirm.clone());
    if let (true, Some(ask)) = (args.yes, asked) {
        out["asked"] = out["result"].take();
        let confirmed = runtime.block_on(acts.confirm(ask.id, true));
        let verb = answered_verb(&answer.action);
        out["changes"] = json!(confirmed.changes(verb));
        out["result"] = json!(confirmed);
    }
    println!("{out}");
    ExitCode::SUCCESS
}

/// The turn the command line gives: the sentence, or `--action` JSON (JSON
/// that does not parse is a named refusal in the result, like every other
/// bad action; validating it is the executor's).
fn input(args: &Args) -> Result<TurnInput, Refusal> {
    match (args.action.as_deref(), args.text.clone()) {
        (Some(json), _) => serde_json::from_str(json)
            .map(TurnInput::Action)
            .map_err(|e| {
                Refusal::new(
                    Rule::MalformedField,
                    format!("--action is not valid JSON ({e})"),
                )
            }),
        (None, Some(text)) => Ok(TurnInput::Words(text)),
        (None, None) => unreachable!("clap requires a sentence or --action"),
    }
}

/// The verb of the answered action, for `changes` after a confirmation.
fn answered_verb(action: &Value) -> Option<Verb> {
    Action::from_json(action).ok().map(|action| action.verb())
}
