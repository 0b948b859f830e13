//! The active root: shown, declared (a machine folder, the page's OPFS
//! project, or a folder the page picked) and un-declared.

use super::ApiError;
use super::answer::{Answer, result};
use super::error::{ReadGuard, StrictJson, WriteGuard};
use super::guard::Authority;
use super::switch::{Switches, folder_name};
use crate::host::Acts;
use crate::state_dir::StateDir;
use axum::extract::State;
use axum::http::StatusCode;
use axum::{Extension, Json};
use serde::Deserialize;
use serde_json::{Value, json};
use std::path::PathBuf;
use std::sync::Arc;
use utoipa::ToSchema;
use voicebox_core::platform::{RootInfo, Storage};
use voicebox_core::tier::PersonAct;
use voicebox_core::{Reply, Rule};

/// The declared root, if any, and the machine folders declared lately.
#[utoipa::path(get, path = "/api/root",
    responses(
        (status = 200, description = "`{declared, root, recent}`: `recent` is the machine folders declared lately, newest first", body = Object),
        ReadGuard,
    ))]
pub async fn root(State(acts): State<Arc<Acts>>, State(state): State<StateDir>) -> Answer {
    let root = acts.active_root().await?;
    let recent = state.settings().recent_folders;
    Ok(Json(
        json!({"declared": root.is_some(), "root": root, "recent": recent}),
    ))
}

/// The root to declare: a machine folder (`path`, the default kind), the
/// page's OPFS project (`project`), or a folder the page picked (`label`).
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct RootRequest {
    /// `machine` (default), `opfs` or `handle`.
    #[serde(default)]
    kind: RootKind,
    /// The machine folder.
    path: Option<String>,
    /// The OPFS project's name (its root is `v1/projects/<project>`).
    project: Option<String>,
    /// The picked folder's label.
    label: Option<String>,
}

#[derive(Default, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
enum RootKind {
    #[default]
    Machine,
    Opfs,
    Handle,
}

/// Declare the active root. A machine folder needs the host token; a root
/// the page owns needs only the page (its acts are relayed over `/channel`
/// and run in the page, so this machine's disk is never touched for it).
#[utoipa::path(post, path = "/api/root", request_body = RootRequest,
    responses(
        (status = 200, description = "`{ok:true, declared, root, result}` (the host token: declared, and the choice audited `declared-by-person`); from the page alone, `{result: {confirm}}`: a question the person answers with POST /api/confirm (for a folder that is not there yet, whether to make it); or `{ok:false, refused, why}`: `root-unreachable` (a file, or with the host token no such folder), or `state-in-root` / `root-in-state` when the folder and the host's state folder overlap", body = Object),
        (status = 400, description = "malformed body, unknown field or kind, a field that does not fit the kind, a machine path that is not absolute (or `~/...`), or an OPFS project name that is not one entry name"),
        WriteGuard,
    ))]
pub(crate) async fn declare_root(
    State(acts): State<Arc<Acts>>,
    State(state): State<StateDir>,
    State(switches): State<Arc<Switches>>,
    Extension(authority): Extension<Authority>,
    StrictJson(request): StrictJson<RootRequest>,
) -> Answer {
    let root = match (request.kind, request.path, request.project, request.label) {
        (RootKind::Machine, Some(path), None, None) => {
            return declare_machine(&acts, &state, &switches, authority, &path).await;
        }
        (RootKind::Opfs, None, Some(project), None) => RootInfo {
            kind: "opfs".into(),
            path: format!("v1/projects/{}", entry_name(project)?),
        },
        (RootKind::Handle, None, None, Some(label)) => RootInfo {
            kind: "handle".into(),
            path: label,
        },
        _ => {
            return Err(ApiError::new(
                StatusCode::BAD_REQUEST,
                Rule::MissingArgument,
                "send {\"path\"} for a machine folder, {\"kind\":\"opfs\",\"project\"} for the page's project, or {\"kind\":\"handle\",\"label\"} for a folder the page picked",
            ));
        }
    };
    acts.use_page_root(root.clone()).await?;
    Ok(Json(json!({"ok": true, "declared": true, "root": root})))
}

/// An OPFS project is one folder name under `v1/projects/`; the page's core
/// checks it again when it opens the project.
fn entry_name(name: String) -> Result<String, ApiError> {
    let one_entry = !name.is_empty()
        && name.len() <= 255
        && name != "."
        && name != ".."
        && !name
            .chars()
            .any(|c| c == '/' || c == '\\' || c.is_control());
    if one_entry {
        Ok(name)
    } else {
        Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            Rule::MalformedField,
            "`project` is one folder name (no `/`, `\\`, `.`, `..` or control characters, at most 255 bytes), like `atlas`",
        ))
    }
}

/// A machine folder named on the page or by a script: `~` is the home
/// folder, and the path must be absolute (a relative one would depend on
/// where the server was started).
fn machine_folder(path: &str) -> Result<PathBuf, ApiError> {
    let path = match path.strip_prefix('~') {
        Some(rest) if rest.is_empty() || rest.starts_with('/') => dirs::home_dir()
            .map(|home| home.join(rest.trim_start_matches('/')))
            .unwrap_or_else(|| PathBuf::from(path)),
        _ => PathBuf::from(path),
    };
    if path.is_absolute() {
        Ok(path)
    } else {
        Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            Rule::MalformedField,
            "`path` is a whole folder path, like `/home/you/notes` or `~/notes`",
        ))
    }
}

/// A machine folder: the host token declares it at once; the page's
/// authority gets a question the person answers with POST /api/confirm.
async fn declare_machine(
    acts: &Acts,
    state: &StateDir,
    switches: &Switches,
    authority: Authority,
    path: &str,
) -> Answer {
    let path = machine_folder(path)?;
    // Before the folder is opened: opening it starts an audit file in it.
    if let Err(refusal) = state.apart_from(&path) {
        return Ok(Json(json!(Reply::refusal(refusal))));
    }
    // A path that is there but no folder (a file) cannot be one; one that is
    // not there at all is offered to the person to be made.
    let missing = !path.exists();
    if !missing && !path.is_dir() {
        return Ok(Json(json!(Reply::refusal(voicebox_core::Refusal::new(
            Rule::RootUnreachable,
            format!(
                "{} is a file, not a folder; choose a folder",
                path.display()
            ),
        )))));
    }
    match authority {
        Authority::HostToken if missing => {
            Ok(Json(json!(Reply::refusal(voicebox_core::Refusal::new(
                Rule::RootUnreachable,
                format!(
                    "there is no folder {}; make it first, or choose one that exists",
                    path.display()
                ),
            )))))
        }
        Authority::HostToken => Ok(Json(switch_to(acts, state, path, "host token").await?)),
        Authority::OwnPage => {
            let current = acts.machine_root().await?;
            result(switches.ask(path, missing, current.as_deref()))
        }
    }
}

/// Makes the folder the person said yes to making (and the folders above
/// it), then switches to it as [`switch_to`] does; a folder that cannot be
/// made is refused by name and nothing changes.
pub(crate) async fn make_and_switch(
    acts: &Acts,
    state: &StateDir,
    folder: PathBuf,
    how: &'static str,
) -> Result<Value, ApiError> {
    if let Err(e) = std::fs::create_dir_all(&folder) {
        return Ok(json!(Reply::refusal(voicebox_core::Refusal::new(
            Rule::RootUnreachable,
            format!(
                "the folder {} cannot be made ({e}); choose another",
                folder.display()
            ),
        ))));
    }
    switch_to(acts, state, folder, how).await
}

/// Declares `folder` as the machine root, records the person's choice in
/// its audit (`declared-by-person`, `how` vouching) and keeps it in the
/// recent folders: `{ok:true, declared, root, result}` or a refusal.
pub(crate) async fn switch_to(
    acts: &Acts,
    state: &StateDir,
    folder: PathBuf,
    how: &'static str,
) -> Result<Value, ApiError> {
    let options = state.root_options();
    let opened = folder.clone();
    let declared = acts
        .with_host(move |host| {
            host.declare_with(&opened, options)?;
            let root = host.executor().storage().map(Storage::root_info);
            let recorded =
                host.person_act(&folder_name(&opened), PersonAct::Declare, how, || Ok(()));
            Ok::<_, voicebox_machine::OpenError>((root, recorded))
        })
        .await?;
    Ok(match declared {
        Ok((root, recorded)) => {
            acts.machine_declared();
            if let Err(e) = state.remember_folder(&folder) {
                tracing::warn!(error = %e, "the recent folders could not be saved");
            }
            json!({"ok": true, "declared": true, "root": root, "result": recorded})
        }
        Err(e @ voicebox_machine::OpenError::HostFolder { .. }) => json!(Reply::refusal(
            voicebox_core::Refusal::new(Rule::HostFolderNotAFolder, e.to_string())
        )),
        Err(e) => json!(Reply::refusal(voicebox_core::Refusal::new(
            Rule::RootUnreachable,
            format!("the folder cannot be used as a root: {e}; name an existing folder"),
        ))),
    })
}

/// Un-declare the root (the host's folder or the page's): every act then
/// answers `root-not-declared`.
#[utoipa::path(delete, path = "/api/root",
    responses(
        (status = 200, description = "`{ok:true, declared:false}`", body = Object),
        WriteGuard,
    ))]
pub(crate) async fn undeclare_root(State(acts): State<Arc<Acts>>) -> Answer {
    acts.undeclare().await?;
    Ok(Json(json!({"ok": true, "declared": false})))
}
