//! `voicebox doctor`: the effective configuration, each piece checked.
//! Keys are shown masked (set or not, last 4 characters); the token never.
//! Nothing is written into the root it checks: the root is looked at, not
//! opened as a root (that would start an audit file in it).

use super::refused;
use crate::host::resolve::Resolver;
use crate::models;
use crate::state_dir::StateDir;
use rustix::fs::Access;
use serde_json::{Value, json};
use std::path::Path;
use std::process::ExitCode;
use voicebox_core::Refusal;

/// The configuration `serve` would run with.
pub type Args = super::args::ServeArgs;

/// Prints the report; an overlap of the root and the state folder is a
/// failing check in it, then exits as the other commands do on it (2).
pub fn run(args: Args) -> ExitCode {
    let state = args.state.dir();
    let (report, overlap) = report(
        args.root.root.as_deref(),
        args.port.port,
        &state,
        args.resolver.chosen(&state),
    );
    println!("{report}");
    match overlap {
        Some(refusal) => refused("doctor", &refusal),
        None => ExitCode::SUCCESS,
    }
}

/// Each model a vendor would be asked for, and whether its vendor still
/// serves it (a retired or retiring model is `ok: false` with the date and
/// the replacement).
fn models_check() -> Value {
    let today = models::today();
    let checks: Vec<Value> = models::USES
        .iter()
        .map(|usage| {
            let model = usage.model();
            let mut check =
                json!({"vendor": usage.vendor, "for": usage.purpose, "model": model, "ok": true});
            if let Some(why) = models::warning(usage.vendor, &model, &today) {
                check["ok"] = json!(false);
                check["why"] = json!(why);
            }
            check
        })
        .collect();
    json!(checks)
}

/// The report, and the refusal when the root and the state folder overlap.
fn report(
    root: Option<&Path>,
    port: u16,
    state: &StateDir,
    resolver: Resolver,
) -> (Value, Option<Refusal>) {
    let root_check = match root {
        None => {
            json!({"path": null, "ok": false, "why": "no root declared: pass --root DIR or set VOICEBOX_ROOT"})
        }
        Some(path) => match usable_root(path) {
            Ok(real) => json!({"path": real, "ok": true}),
            Err(why) => json!({"path": path, "ok": false, "why": why}),
        },
    };
    let overlap = root.and_then(|root| state.apart_from(root).err());
    let state_check = match &overlap {
        // The token is not created: the state folder may be inside the root.
        Some(refusal) => {
            json!({"path": state.path(), "ok": false, "refused": refusal.rule, "why": refusal.why})
        }
        None => match state.host_token() {
            Ok(_) => json!({"path": state.path(), "ok": true}),
            Err(e) => {
                json!({"path": state.path(), "ok": false, "why": format!("cannot create the host token: {e}")})
            }
        },
    };
    let report = json!({
        "root": root_check,
        "stateDir": state_check,
        "hostToken": {"present": state.path().join("host-token").is_file()},
        "port": {"value": port, "ok": port_free(port)},
        "keys": match state.key_status() {
            Ok(keys) => json!(keys),
            Err(e) => json!({"ok": false, "why": e.to_string()}),
        },
        "resolver": match resolver.ready(state) {
            Ok(()) => json!({"name": resolver.name(), "ok": true}),
            Err(why) => json!({"name": resolver.name(), "ok": false, "why": why}),
        },
        "models": models_check(),
        "offlineVoice": crate::live::offline_engines(true),
        "pageUrl": state.page_url().ok().flatten(),
    });
    (report, overlap)
}

/// The real path of `path` if it could be a root: an existing folder this
/// user may list and create files in. Asked of the kernel (`access(2)`), so a
/// read-only mount or a folder's mode answers as it would for a write.
fn usable_root(path: &Path) -> Result<std::path::PathBuf, String> {
    let real = std::fs::canonicalize(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => format!("{} does not exist", path.display()),
        _ => format!("{} cannot be opened: {e}", path.display()),
    })?;
    if !real.is_dir() {
        return Err(format!("{} is a file, not a folder", real.display()));
    }
    std::fs::read_dir(&real).map_err(|e| format!("{} cannot be listed: {e}", real.display()))?;
    rustix::fs::access(&real, Access::WRITE_OK | Access::EXEC_OK)
        .map_err(|e| format!("{} cannot be written: {e}", real.display()))?;
    Ok(real)
}

/// Whether the port can be bound on 127.0.0.1 now (0 always can).
fn port_free(port: u16) -> bool {
    std::net::TcpListener::bind(("127.0.0.1", port)).is_ok()
}
