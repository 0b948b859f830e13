//! The one-shot commands: each prints one JSON object.

use crate::cli::Command;
use crate::resolve::Resolver;
use crate::state_dir::StateDir;
use serde_json::{Value, json};
use std::io::Write;
use std::path::Path;
use voicebox_core::Reply;
use voicebox_core::audit::ParsedFile;
use voicebox_core::audit::chain::{Chain, Verdict};
use voicebox_core::audit::page::{DEFAULT_LIMIT, MAX_LIMIT, PageRequest};
use voicebox_core::platform::Env;
use voicebox_core::resolver::Resolution;
use voicebox_core::rule::{Refusal, Rule};
use voicebox_machine::{Host, MachineAbilities, MachineEnv, OpenError};

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
        Command::Audit {
            root, state_dir, ..
        } => audit(root.as_deref(), &StateDir::new(state_dir)),
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
fn host(
    root: Option<&Path>,
    state: Option<&StateDir>,
) -> (Host<MachineAbilities>, Option<Refusal>) {
    let tools = match state {
        Some(state) => {
            MachineAbilities::new(state.shelf().ok()).with_extensions(state.extensions())
        }
        None => MachineAbilities::new(None),
    };
    let mut host = Host::new(CLI_INSTANCE, tools);
    let options = state.map(StateDir::root_options).unwrap_or_default();
    let refusal = root.and_then(|path| {
        host.declare_with(path, options)
            .err()
            .map(|e| unusable_root(&e))
    });
    (host, refusal)
}

fn unusable_root(e: &OpenError) -> Refusal {
    Refusal::new(
        Rule::RootUnreachable,
        format!("the project root cannot be used: {e}; pass --root with an existing folder"),
    )
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

/// The newest page of the root's audit.
fn audit(root: Option<&Path>, state: &StateDir) -> Value {
    let (host, unusable) = audit_host(root, state);
    if let Some(refusal) = unusable {
        return json!(Reply::refusal(refusal));
    }
    match host.audit(&PageRequest::first(DEFAULT_LIMIT)) {
        Ok(view) => json!(view),
        Err(refusal) => json!(Reply::refusal(refusal)),
    }
}

/// The audit reads need no shelf: only the root and the anchors matter.
fn audit_host(root: Option<&Path>, state: &StateDir) -> (Host<MachineAbilities>, Option<Refusal>) {
    let mut host = Host::new(CLI_INSTANCE, MachineAbilities::new(None));
    let refusal = root.and_then(|path| {
        host.declare_with(path, state.reader_options())
            .err()
            .map(|e| unusable_root(&e))
    });
    (host, refusal)
}

/// `voicebox audit --all` and `--verify`: they print line by line, and
/// `--verify` exits 1 when any file's chain is broken (2 without a usable root).
pub fn audit_lines(root: Option<&Path>, state: &StateDir, verify: bool) -> i32 {
    let (host, unusable) = audit_host(root, state);
    if let Some(refusal) = unusable {
        println!("{}", json!(Reply::refusal(refusal)));
        return 2;
    }
    if verify {
        return match host.verify_audit().map(|check| check.files) {
            Ok(files) => {
                for file in &files {
                    println!("{}", verdict_line(file));
                }
                i32::from(
                    files
                        .iter()
                        .any(|f| f.verdict.as_ref().is_some_and(Verdict::is_broken)),
                )
            }
            Err(refusal) => {
                println!("{}", json!(Reply::refusal(refusal)));
                2
            }
        };
    }
    let mut page = PageRequest::first(MAX_LIMIT);
    loop {
        let view = match host.audit(&page) {
            Ok(view) => view,
            Err(refusal) => {
                println!("{}", json!(Reply::refusal(refusal)));
                return 2;
            }
        };
        let mut out = std::io::stdout().lock();
        for entry in &view.entries {
            // A closed pipe (`| head`) ends the stream; nothing is left to say.
            if out.write_all(entry.line().as_bytes()).is_err() {
                return 0;
            }
        }
        match view.next {
            Some(next) => {
                page = PageRequest::new(Some(&next), Some(MAX_LIMIT))
                    .expect("the host's own cursor is valid")
            }
            None => return 0,
        }
    }
}

/// One file's verdict as the person reads it.
fn verdict_line(file: &ParsedFile) -> String {
    let chain = |word: &str, c: &Chain| {
        let unchained = match c.unchained {
            0 => String::new(),
            n => format!(", {n} unchained (written before the chain)"),
        };
        let anchored = match c.anchored {
            true => "",
            false => ", no anchor (lines cut from the end would not show)",
        };
        format!(
            "{word} {}: {} entries, last seq {}{unchained}{anchored}",
            file.name, c.entries, c.last_seq
        )
    };
    match &file.verdict {
        Some(Verdict::Ok(c)) => chain("ok", c),
        Some(Verdict::Torn(c)) => {
            chain("torn", c) + "; the last line was cut by an interrupted write"
        }
        Some(Verdict::Broken(b)) => {
            let seq = b.seq.map(|s| format!(" (seq {s})")).unwrap_or_default();
            let kind = serde_json::to_value(b.kind).expect("kinds serialise");
            format!(
                "broken {}: line {}{seq}: {} — {}",
                file.name,
                b.line,
                kind.as_str().unwrap_or_default(),
                b.why
            )
        }
        None => format!("unverified {}", file.name),
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
        .abilities()
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
