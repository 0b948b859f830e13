//! The one-shot commands: each prints one JSON object.

use crate::cli::Command;
use crate::state_dir::StateDir;
use serde_json::{Value, json};
use std::path::Path;
use voicebox_core::Reply;
use voicebox_core::platform::Env;
use voicebox_core::resolver::{self, Resolution};
use voicebox_core::rule::{Refusal, Rule};
use voicebox_machine::{Host, MachineEnv, WasmTools};

/// The writer instance of command-line turns.
const CLI_INSTANCE: &str = "cli";

pub fn run(command: Command) -> Value {
    match command {
        Command::Resolve { text } => resolve(&text),
        Command::Turn {
            root,
            state_dir,
            action,
            yes,
            text,
        } => {
            let state = StateDir::new(state_dir);
            turn(
                root.as_deref(),
                &state,
                action.as_deref(),
                text.as_deref(),
                yes,
            )
        }
        Command::Audit { root } => audit(root.as_deref()),
        Command::Admit {
            id,
            root,
            state_dir,
        } => admit(&id, root.as_deref(), &StateDir::new(state_dir)),
        Command::Doctor {
            root,
            port,
            state_dir,
        } => crate::doctor::report(root.as_deref(), port, state_dir),
        Command::Serve { .. } => unreachable!("serve runs the server, not a one-shot command"),
    }
}

fn resolve(text: &str) -> Value {
    match resolver::resolve(text) {
        Resolution::Action(action) => json!({ "action": action }),
        Resolution::Unresolved { note } => json!({ "action": null, "note": note }),
    }
}

/// A host with `root` declared, or the refusal that says why it could not be.
/// With a state folder, the host has its shelf and extension registry.
fn host(root: Option<&Path>, state: Option<&StateDir>) -> (Host<WasmTools>, Option<Refusal>) {
    let tools = match state {
        Some(state) => WasmTools::new(state.shelf().ok()).with_extensions(state.extensions()),
        None => WasmTools::new(None),
    };
    let mut host = Host::new(CLI_INSTANCE, tools);
    let refusal = root.and_then(|path| {
        host.declare(path).err().map(|e| {
            Refusal::new(
                Rule::RootUnreachable,
                format!(
                    "the project root cannot be used: {e}; pass --root with an existing folder"
                ),
            )
        })
    });
    (host, refusal)
}

fn turn(
    root: Option<&Path>,
    state: &StateDir,
    action: Option<&str>,
    text: Option<&str>,
    yes: bool,
) -> Value {
    let action = match (action, text) {
        (Some(json), _) => parse_action(json),
        (None, Some(text)) => match resolver::resolve(text) {
            Resolution::Action(action) => Ok(action.to_json()),
            Resolution::Unresolved { note } => {
                return json!({ "transcript": text, "action": null, "note": note, "result": null });
            }
        },
        (None, None) => unreachable!("clap requires a sentence or --action"),
    };
    let (mut host, unusable) = host(root, Some(state));
    let turn_id = format!("cli-{}", &MachineEnv.random_id()[..8]);
    let result = match (&action, unusable) {
        (_, Some(refusal)) => Reply::refusal(refusal),
        (Ok(value), None) => host.execute(value, Some(&turn_id)),
        (Err(refusal), None) => Reply::refusal(refusal.clone()),
    };
    let mut out = json!({ "transcript": text, "action": action.unwrap_or(Value::Null) });
    match (yes, &result.confirm) {
        (true, Some(ask)) => {
            out["result"] = json!(host.confirm(&ask.id, true));
            out["asked"] = json!(result);
        }
        _ => out["result"] = json!(result),
    }
    out
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

fn audit(root: Option<&Path>) -> Value {
    let (host, unusable) = host(root, None);
    if let Some(refusal) = unusable {
        return json!(Reply::refusal(refusal));
    }
    match host.audit() {
        Ok(view) => json!(view),
        Err(refusal) => json!(Reply::refusal(refusal)),
    }
}

/// The person at the shell admits a proposed extension; audited in the root
/// first, like every admission.
fn admit(id: &str, root: Option<&Path>, state: &StateDir) -> Value {
    let (host, unusable) = host(root, Some(state));
    if let Some(refusal) = unusable {
        return json!(Reply::refusal(refusal));
    }
    let registry = host
        .executor()
        .tools()
        .registry()
        .expect("the CLI host takes extensions");
    match registry.admissible(id) {
        Ok(proposal) => json!(crate::serve::admit_audited(
            &host,
            id,
            &proposal.plan_digest,
            "shell"
        )),
        Err(refusal) => json!(Reply::refusal(refusal)),
    }
}
