//! `voicebox turn`: one turn in a folder, as `POST /api/turn` runs it.

use super::args::{PlaceArgs, ResolverArgs};
use super::{fatal, host, place};
use crate::host::resolve::one_shot_runtime;
use serde_json::{Value, json};
use std::process::ExitCode;
use voicebox_core::Reply;
use voicebox_core::command::Verb;
use voicebox_core::platform::Env;
use voicebox_core::resolver::Folder;
use voicebox_core::rule::{Refusal, Rule};
use voicebox_core::turn::{Proposal, TurnAnswer, TurnInput, run_turn};
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
    let (mut host, unusable) = host(root, &state);
    if let Err(code) = fatal("turn", unusable.as_ref()) {
        return code;
    }
    let turn_id = format!("cli-{}", &MachineEnv.random_id()[..8]);
    let answer = match input(&args) {
        Err(refusal) => TurnAnswer {
            transcript: None,
            action: Value::Null,
            note: None,
            result: Some(Reply::refusal(refusal)),
            changes: false,
        },
        Ok(input) => {
            // Only words need the folder's names (a walk of the root).
            let folder = match &input {
                TurnInput::Words(_) => host.folder(),
                TurnInput::Action(_) => Folder::default(),
            };
            one_shot_runtime().block_on(run_turn(
                input,
                async |text: String| {
                    args.resolver
                        .chosen(&state)
                        .resolve_once(&state, &text, &folder)
                        .await
                },
                async |proposal: Proposal| match &unusable {
                    Some(refusal) => Reply::refusal(refusal.clone()),
                    None => host.run(&proposal, Some(&turn_id)),
                },
            ))
        }
    };
    let mut out = json!(answer);
    if let (true, Some(ask)) = (args.yes, answer.result.and_then(|result| result.confirm)) {
        out["asked"] = out["result"].take();
        let confirmed = host.confirm(&ask.id, true);
        out["changes"] = json!(confirmed.changes(answer_verb(&out)));
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
fn answer_verb(out: &Value) -> Option<Verb> {
    out["action"]["verb"].as_str().and_then(Verb::from_wire)
}
