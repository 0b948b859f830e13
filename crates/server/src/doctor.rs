//! `voicebox doctor`: the effective configuration, each piece checked.
//! Keys are shown masked (set or not, last 4 characters); the token never.

use crate::resolve::Resolver;
use crate::state_dir::StateDir;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use voicebox_machine::FolderStorage;

pub fn report(
    root: Option<&Path>,
    port: u16,
    state_dir: Option<PathBuf>,
    resolver: Resolver,
) -> Value {
    let state = StateDir::new(state_dir);
    let root_check = match root {
        None => {
            json!({"path": null, "ok": false, "why": "no root declared: pass --root DIR or set VOICEBOX_ROOT"})
        }
        Some(path) => match FolderStorage::open(path, "doctor") {
            Ok(storage) => json!({"path": storage.path(), "ok": true}),
            Err(e) => json!({"path": path, "ok": false, "why": e.to_string()}),
        },
    };
    let inside_root = root
        .and_then(|r| std::fs::canonicalize(r).ok())
        .zip(std::fs::canonicalize(state.path()).ok())
        .is_some_and(|(r, s)| s.starts_with(r));
    let token = state.host_token();
    let keys = state.key_status();
    json!({
        "root": root_check,
        "stateDir": {
            "path": state.path(),
            "ok": token.is_ok() && !inside_root,
            "why": match (&token, inside_root) {
                (_, true) => Some("the state folder is inside the root; choose one outside it".to_string()),
                (Err(e), _) => Some(format!("cannot create the host token: {e}")),
                _ => None,
            },
        },
        "hostToken": {"present": token.is_ok()},
        "port": {"value": port, "ok": port_free(port)},
        "keys": match keys {
            Ok(keys) => json!(keys),
            Err(e) => json!({"ok": false, "why": e.to_string()}),
        },
        "resolver": match resolver.ready(&state) {
            Ok(()) => json!({"name": resolver.name(), "ok": true}),
            Err(why) => json!({"name": resolver.name(), "ok": false, "why": why}),
        },
    })
}

/// Whether the port can be bound on 127.0.0.1 now (0 always can).
fn port_free(port: u16) -> bool {
    std::net::TcpListener::bind(("127.0.0.1", port)).is_ok()
}
