//! The active root: shown, declared (a machine folder, the page's OPFS
//! project, or a folder the page picked) and un-declared.

use super::api::Answer;
use super::error::{ReadGuard, StrictJson, WriteGuard};
use super::guard::Authority;
use super::{Acts, ApiError};
use crate::state_dir::StateDir;
use axum::extract::State;
use axum::http::StatusCode;
use axum::{Extension, Json};
use serde::Deserialize;
use serde_json::json;
use std::path::PathBuf;
use std::sync::Arc;
use utoipa::ToSchema;
use voicebox_core::platform::{RootInfo, Storage};
use voicebox_core::{Reply, Rule};

/// The declared root, if any.
#[utoipa::path(get, path = "/api/root",
    responses(
        (status = 200, description = "`{declared, root}`", body = Object),
        ReadGuard,
    ))]
pub async fn root(State(acts): State<Arc<Acts>>) -> Answer {
    let root = acts.active_root().await?;
    Ok(Json(json!({"declared": root.is_some(), "root": root})))
}

/// The root to declare: a machine folder (`path`, the default kind), the
/// page's OPFS project (`project`), or a folder the page picked (`label`).
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RootRequest {
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
        (status = 200, description = "`{ok:true, declared, root}`, or `{ok:false, refused, why}`: `root-unreachable`, or `state-in-root` / `root-in-state` when the folder and the host's state folder overlap", body = Object),
        (status = 400, description = "malformed body, unknown field or kind, a field that does not fit the kind, or an OPFS project name that is not one entry name"),
        WriteGuard,
        (status = 403, description = "no host token for a machine folder (the page alone cannot declare one), foreign Host or Origin, or a wrong token"),
    ))]
pub async fn declare_root(
    State(acts): State<Arc<Acts>>,
    State(state): State<StateDir>,
    Extension(authority): Extension<Authority>,
    StrictJson(request): StrictJson<RootRequest>,
) -> Answer {
    let root = match (request.kind, request.path, request.project, request.label) {
        (RootKind::Machine, Some(path), None, None) => {
            return declare_machine(&acts, &state, authority, PathBuf::from(path)).await;
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
    acts.with_host(|host| host.undeclare()).await?;
    acts.channel().set_root(Some(root.clone()));
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

async fn declare_machine(
    acts: &Acts,
    state: &StateDir,
    authority: Authority,
    path: PathBuf,
) -> Answer {
    authority.need_host_token(
        "declaring a folder on this machine needs the person at the host: send the x-voicebox-host-token header, or restart with --root",
    )?;
    // Before the folder is opened: opening it starts an audit file in it.
    if let Err(refusal) = state.apart_from(&path) {
        return Ok(Json(json!(Reply::refusal(refusal))));
    }
    let options = state.root_options();
    let declared = acts
        .with_host(move |host| {
            host.declare_with(&path, options)
                .map(|()| host.executor().storage().map(Storage::root_info))
        })
        .await?;
    Ok(Json(match declared {
        Ok(root) => {
            acts.channel().set_root(None);
            json!({"ok": true, "declared": true, "root": root})
        }
        Err(e) => json!(Reply::refusal(voicebox_core::Refusal::new(
            Rule::RootUnreachable,
            format!("the folder cannot be used as a root: {e}; name an existing folder"),
        ))),
    }))
}

/// Un-declare the root (the host's folder or the page's): every act then
/// answers `root-not-declared`.
#[utoipa::path(delete, path = "/api/root",
    responses(
        (status = 200, description = "`{ok:true, declared:false}`", body = Object),
        WriteGuard,
    ))]
pub async fn undeclare_root(State(acts): State<Arc<Acts>>) -> Answer {
    acts.channel().set_root(None);
    acts.with_host(|host| host.undeclare()).await?;
    Ok(Json(json!({"ok": true, "declared": false})))
}
