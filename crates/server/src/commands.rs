//! The one-shot commands: each prints one JSON object.

use crate::cli::Command;
use crate::resolve::Resolver;
use crate::state_dir::StateDir;
use serde_json::{Value, json};
use std::path::Path;
use voicebox_core::Reply;
use voicebox_core::platform::Env;
use voicebox_core::resolver::Resolution;
use voicebox_core::rule::{Refusal, Rule};
use voicebox_machine::{Host, MachineEnv, WasmTools};

/// The writer instance of command-line turns.
const CLI_INSTANCE: &str = "cli";

pub fn run(command: Command) -> Value {
    match command {
        Command::Resolve {
            resolver,
            state_dir,
            text,
        } => resolve(resolver, &StateDir::new(state_dir), &text),
        Command::Turn {
            root,
            state_dir,
            resolver,
            action,
            yes,
            text,
        } => {
            let state = StateDir::new(state_dir);
            let words = text.as_deref().map(|text| (resolver, text));
            turn(root.as_deref(), &state, action.as_deref(), words, yes)
        }
        Command::Audit { root, .. } => audit(root.as_deref()),
        Command::ExportWeb { dir } => export_web(&dir),
        Command::Admit {
            id,
            root,
            state_dir,
        } => admit(&id, root.as_deref(), &StateDir::new(state_dir)),
        Command::Serve { .. } | Command::Doctor { .. } => {
            unreachable!("serve and doctor exit by their own rules, not as one-shot commands")
        }
    }
}

fn resolve(resolver: Resolver, state: &StateDir, text: &str) -> Value {
    match resolver.resolve_blocking(state, text) {
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
    words: Option<(Resolver, &str)>,
    yes: bool,
) -> Value {
    let text = words.map(|(_, text)| text);
    let action = match (action, words) {
        (Some(json), _) => parse_action(json),
        (None, Some((resolver, text))) => match resolver.resolve_blocking(state, text) {
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

/// Writes `web/` with the browser core and create-asset beside the
/// environment page; the folder's index points at `env/`.
fn export_web(dir: &Path) -> Value {
    use crate::serve::page;
    if page::BROWSER_CORE.is_empty() {
        return json!(Reply::refusal(Refusal::new(
            Rule::ToolUnavailable,
            "this binary was built without the browser core; run `rustup target add wasm32-unknown-unknown` and rebuild",
        )));
    }
    let written = (|| -> std::io::Result<()> {
        std::fs::create_dir_all(dir.join("env"))?;
        page::WEB.extract(dir)?;
        for (name, bytes) in page::env_extras() {
            std::fs::write(dir.join("env").join(name), bytes)?;
        }
        let index = "<!doctype html><meta charset=\"utf-8\"><meta http-equiv=\"refresh\" content=\"0; url=env/\"><title>Voicebox</title><a href=\"env/\">Voicebox</a>\n";
        std::fs::write(dir.join("index.html"), index)
    })();
    match written {
        Ok(()) => {
            json!({"ok": true, "dir": dir, "open": "env/index.html", "note": "serve this folder with any static file server (http://127.0.0.1 or https) and open env/"})
        }
        Err(e) => json!(Reply::refusal(Refusal::new(
            Rule::StorageFailed,
            format!("the folder cannot be written: {e}")
        ))),
    }
}
