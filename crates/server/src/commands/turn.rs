//! `voicebox turn`: one turn in a folder, as `POST /api/turn` runs it.

use super::{apart, host};
use crate::cli::{ResolverArgs, RootArgs, StateArgs};
use serde_json::{Value, json};
use std::process::ExitCode;
use voicebox_core::Reply;
use voicebox_core::platform::Env;
use voicebox_core::resolver::Resolution;
use voicebox_core::rule::{Refusal, Rule};
use voicebox_machine::MachineEnv;

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pub root: RootArgs,
    #[command(flatten)]
    pub state: StateArgs,
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
    let state = args.state.dir();
    if let Err(code) = apart("turn", &args.root, &state) {
        return code;
    }
    let text = args.text.as_deref();
    let action = match (args.action.as_deref(), text) {
        (Some(json), _) => parse_action(json),
        (None, Some(text)) => match args.resolver.resolver.resolve_blocking(&state, text) {
            Resolution::Action(action) => Ok(action.to_json()),
            Resolution::Unresolved { note } => {
                println!(
                    "{}",
                    json!({ "transcript": text, "action": null, "note": note, "result": null })
                );
                return ExitCode::SUCCESS;
            }
        },
        (None, None) => unreachable!("clap requires a sentence or --action"),
    };
    let (mut host, unusable) = host(args.root.root.as_deref(), &state);
    let turn_id = format!("cli-{}", &MachineEnv.random_id()[..8]);
    let result = match (&action, unusable) {
        (_, Some(refusal)) => Reply::refusal(refusal),
        (Ok(value), None) => host.execute(value, Some(&turn_id)),
        (Err(refusal), None) => Reply::refusal(refusal.clone()),
    };
    let mut out = json!({ "transcript": text, "action": action.unwrap_or(Value::Null) });
    match (args.yes, &result.confirm) {
        (true, Some(ask)) => {
            out["result"] = json!(host.confirm(&ask.id, true));
            out["asked"] = json!(result);
        }
        _ => out["result"] = json!(result),
    }
    println!("{out}");
    ExitCode::SUCCESS
}

/// Action JSON from the command line; JSON that does not parse is a named
/// refusal in the result, like every other bad action.
fn parse_action(text: &str) -> Result<Value, Refusal> {
    // Validating the action is the executor's step 2; only JSON is checked here.
    serde_json::from_str(text).map_err(|e| {
        Refusal::new(
            Rule::MalformedField,
            format!("--action is not valid JSON ({e})"),
        )
    })
}
