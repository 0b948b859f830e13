//! The JSON API (DESIGN §8). Every act goes through the same core executor as
//! the CLI, on a blocking thread, one at a time per root.

use super::error::{ReadGuard, StrictJson, WriteGuard};
use super::guard::Authority;
use super::{Acts, ApiError, AppState};
use crate::live::Live;
use crate::provider::Provider;
use crate::resolve::{Resolver, Words};
use crate::state_dir::StateDir;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::routing::{get, post, put};
use axum::{Extension, Json, Router};
use serde::Deserialize;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use utoipa::{IntoParams, ToSchema};
use voicebox_core::audit::page::PageRequest;
use voicebox_core::platform::{Env, RootInfo, Storage};
use voicebox_core::resolver::Resolution;
use voicebox_core::{Refusal, Reply, Rule};
use voicebox_machine::{Host, MachineEnv};

pub type Answer = Result<Json<Value>, ApiError>;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/turn", post(turn))
        .route("/api/confirm", post(confirm))
        .route("/api/health", get(health))
        .route("/api/audit", get(audit))
        .route("/api/audit/verify", get(verify_audit))
        .route("/api/keys", get(keys).put(put_keys))
        .route(
            "/api/root",
            get(root).post(declare_root).delete(undeclare_root),
        )
        .route("/api/files", get(files))
        .route("/api/file", get(file))
        .route("/api/settings", put(settings))
}

type QueryResult<T> = Result<Query<T>, QueryRejection>;

fn query_error(rejection: QueryRejection) -> ApiError {
    ApiError::new(
        StatusCode::BAD_REQUEST,
        Rule::MalformedField,
        format!(
            "the query does not fit this route: {}",
            rejection.body_text()
        ),
    )
}

fn turn_id() -> String {
    format!("http-{}", &MachineEnv.random_id()[..8])
}

/// A turn: words (`transcript`) or a structured action (`action`), not both.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TurnRequest {
    /// What the person said or typed.
    transcript: Option<String>,
    /// Or an action: `{"verb": ..., <fields>}` from the command list.
    #[schema(value_type = Option<Object>)]
    action: Option<Value>,
}

/// Resolve the words (or take the action) and execute it.
#[utoipa::path(post, path = "/api/turn", request_body = TurnRequest,
    responses(
        (status = 200, description = "`{transcript, action, result}`; an unresolved utterance has `action: null` and a `note`; executor refusals have `result.ok: false`", body = Object),
        (status = 400, description = "malformed body, unknown field, or neither or both of transcript and action"),
        WriteGuard,
    ))]
pub async fn turn(
    State(acts): State<Arc<Acts>>,
    State(words): State<Arc<Words>>,
    StrictJson(request): StrictJson<TurnRequest>,
) -> Answer {
    let (transcript, action) = match (request.transcript, request.action) {
        (Some(text), None) => match words.resolve(&text).await {
            Resolution::Action(action) => (Some(text), action.to_json()),
            Resolution::Unresolved { note } => {
                return Ok(Json(
                    json!({"transcript": text, "action": null, "note": note, "result": null}),
                ));
            }
        },
        (None, Some(action)) => (None, action),
        _ => {
            return Err(ApiError::new(
                StatusCode::BAD_REQUEST,
                Rule::MissingArgument,
                "send either {\"transcript\": \"...\"} or {\"action\": {\"verb\": ...}}",
            ));
        }
    };
    let result = acts.act(action.clone(), turn_id()).await?;
    Ok(Json(
        json!({"transcript": transcript, "action": action, "result": result}),
    ))
}

/// The person's answer to a tier-2 confirmation.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ConfirmRequest {
    id: String,
    approved: bool,
}

/// Answer a pending confirmation (yes performs the act, no declines it).
#[utoipa::path(post, path = "/api/confirm", request_body = ConfirmRequest,
    responses(
        (status = 200, description = "`{result}`: the act's outcome, or `declined`, `confirmation-unknown`, `confirmation-expired`", body = Object),
        (status = 400, description = "malformed body or unknown field"),
        WriteGuard,
    ))]
pub async fn confirm(
    State(acts): State<Arc<Acts>>,
    StrictJson(request): StrictJson<ConfirmRequest>,
) -> Answer {
    if acts.page_root().is_some() {
        let page = json!({"op": "confirm", "id": request.id, "approved": request.approved});
        return Ok(Json(json!({"result": acts.relayed(page).await})));
    }
    let result = acts
        .with_host(move |host| host.confirm(&request.id, request.approved))
        .await?;
    acts.counted(&result);
    Ok(Json(json!({"result": result})))
}

/// Whether a root is declared, refusals so far, the resolver and the version.
#[utoipa::path(get, path = "/api/health",
    responses(
        (status = 200, description = "`{ok, declared, root, refused, resolver, live: {created, running}, version}`", body = Object),
        ReadGuard,
    ))]
pub async fn health(
    State(acts): State<Arc<Acts>>,
    State(words): State<Arc<Words>>,
    State(live): State<Arc<Live>>,
) -> Answer {
    let root = acts.active_root().await?;
    Ok(Json(json!({
        "ok": true,
        "declared": root.is_some(),
        "root": root,
        "refused": acts.refused(),
        "resolver": words.resolver().name(),
        "live": live.to_json(),
        "version": env!("CARGO_PKG_VERSION"),
    })))
}

#[derive(Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
pub struct AuditQuery {
    /// Entries per page, 1..=1000 (default 200); more is refused by name.
    #[param(minimum = 1, maximum = 1000)]
    limit: Option<usize>,
    /// The `next` of the previous page, for the entries older than it.
    cursor: Option<String>,
}

/// One page of the root's audit log, newest first in the (instance, seq)
/// merge order reversed. A page reads only what it shows.
#[utoipa::path(get, path = "/api/audit", params(AuditQuery),
    responses(
        (status = 200, description = "`{ok, root, entries, next?}`: `next` is absent on the last page. Or `{ok:false, refused, why}` with no usable root", body = Object),
        (status = 400, description = "limit outside 1..=1000, a cursor this host did not give, or an unknown query parameter"),
        ReadGuard,
    ))]
pub async fn audit(State(acts): State<Arc<Acts>>, query: QueryResult<AuditQuery>) -> Answer {
    let Query(query) = query.map_err(query_error)?;
    let page = PageRequest::new(query.cursor.as_deref(), query.limit)
        .map_err(|refusal| ApiError::new(StatusCode::BAD_REQUEST, refusal.rule, refusal.why))?;
    if acts.page_root().is_some() {
        return Ok(Json(
            acts.relayed(json!({"op": "audit", "cursor": query.cursor, "limit": query.limit}))
                .await,
        ));
    }
    let view = acts.with_host(move |host| host.audit(&page)).await?;
    Ok(Json(match view {
        Ok(view) => json!(view),
        Err(refusal) => json!(Reply::refusal(refusal)),
    }))
}

/// Every audit file of the root checked against its hash chain and the
/// host's anchor (reads the whole log: asked for on its own).
#[utoipa::path(get, path = "/api/audit/verify",
    responses(
        (status = 200, description = "`{ok, root, files}`: per file `entries`, `torn`, `corrupt` and `verdict` (`ok`, `torn` or `broken` with `kind`, `line` and `why`). Or `{ok:false, refused, why}` with no usable root", body = Object),
        ReadGuard,
    ))]
pub async fn verify_audit(State(acts): State<Arc<Acts>>, State(state): State<StateDir>) -> Answer {
    if acts.page_root().is_some() {
        return Ok(Json(acts.relayed(json!({"op": "verifyAudit"})).await));
    }
    // A reader of its own, so the host (and every other request) is not held
    // while the whole log is read.
    let root = acts
        .with_host(|host| host.root().map(Path::to_path_buf))
        .await?;
    let options = state.reader_options();
    let check = tokio::task::spawn_blocking(move || {
        let mut reader = Host::new("verify", ());
        if let Some(root) = root {
            reader.declare_with(&root, options).map_err(|e| {
                Refusal::new(
                    Rule::RootUnreachable,
                    format!("the project root cannot be read: {e}; restore the folder or declare another root"),
                )
            })?;
        }
        reader.verify_audit()
    })
    .await
    .map_err(|_| {
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            Rule::StorageFailed,
            "the audit check failed; the next request is served normally",
        )
    })?;
    Ok(Json(match check {
        Ok(check) => json!(check),
        Err(refusal) => json!(Reply::refusal(refusal)),
    }))
}

fn key_status(state: &StateDir) -> Answer {
    let keys = state.key_status().map_err(|e| {
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            Rule::StorageFailed,
            format!("the keys file cannot be read: {e}"),
        )
    })?;
    Ok(Json(json!({"ok": true, "keys": keys})))
}

/// Which provider keys are set (masked: set or not, and the last 4 characters).
#[utoipa::path(get, path = "/api/keys",
    responses(
        (status = 200, description = "`{ok, keys: {gemini, openai, anthropic: {set, last4?}}}`", body = Object),
        ReadGuard,
        (status = 500, description = "the keys file cannot be read"),
    ))]
pub async fn keys(State(state): State<StateDir>) -> Answer {
    key_status(&state)
}

/// Keys to store (a string) or remove (`null` or `""`).
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct KeysRequest {
    keys: KeyChanges,
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
struct KeyChanges {
    #[serde(default, deserialize_with = "present")]
    gemini: Option<Option<String>>,
    #[serde(default, deserialize_with = "present")]
    openai: Option<Option<String>>,
    #[serde(default, deserialize_with = "present")]
    anthropic: Option<Option<String>>,
}

/// Tells an absent field (`None`) from an explicit `null` (`Some(None)`).
fn present<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Option<String>>, D::Error> {
    Option::<String>::deserialize(d).map(Some)
}

/// Store or remove provider keys (mode 0600, in the state folder, never in a root).
#[utoipa::path(put, path = "/api/keys", request_body = KeysRequest,
    responses(
        (status = 200, description = "the masked status after the change", body = Object),
        (status = 400, description = "malformed body or unknown provider"),
        WriteGuard,
        (status = 500, description = "the keys file cannot be written"),
    ))]
pub async fn put_keys(
    State(state): State<StateDir>,
    StrictJson(request): StrictJson<KeysRequest>,
) -> Answer {
    let changes: BTreeMap<Provider, Option<String>> = [
        (Provider::Gemini, request.keys.gemini),
        (Provider::Openai, request.keys.openai),
        (Provider::Anthropic, request.keys.anthropic),
    ]
    .into_iter()
    .filter_map(|(provider, change)| change.map(|value| (provider, value)))
    .collect();
    state.update_keys(&changes).map_err(|e| {
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            Rule::StorageFailed,
            format!("the keys file cannot be written: {e}"),
        )
    })?;
    tracing::info!(providers = ?changes.keys().map(|p| p.key_name()).collect::<Vec<_>>(), "keys changed");
    key_status(&state)
}

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
    if authority != Authority::HostToken {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            Rule::HostTokenRequired,
            "declaring a folder on this machine needs the person at the host: send the x-voicebox-host-token header, or restart with --root",
        ));
    }
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

#[derive(Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
pub struct FilesQuery {
    /// A folder inside the root (default: the root).
    dir: Option<String>,
}

/// List a folder of the root (an audited `list` act, for the page's file list).
#[utoipa::path(get, path = "/api/files", params(FilesQuery),
    responses(
        (status = 200, description = "`{result}`: a list reply or a named refusal", body = Object),
        (status = 400, description = "unknown query parameter"),
        ReadGuard,
    ))]
pub async fn files(State(acts): State<Arc<Acts>>, query: QueryResult<FilesQuery>) -> Answer {
    let Query(query) = query.map_err(query_error)?;
    let action = match query.dir {
        Some(dir) => json!({"verb": "list", "dir": dir}),
        None => json!({"verb": "list"}),
    };
    let result = acts.act(action, "page".into()).await?;
    Ok(Json(json!({"result": result})))
}

#[derive(Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
pub struct FileQuery {
    /// A file inside the root.
    name: String,
}

/// Read a file of the root (an audited `read` act, for the page's viewer).
#[utoipa::path(get, path = "/api/file", params(FileQuery),
    responses(
        (status = 200, description = "`{result}`: a read reply or a named refusal", body = Object),
        (status = 400, description = "missing `name` or unknown query parameter"),
        ReadGuard,
    ))]
pub async fn file(State(acts): State<Arc<Acts>>, query: QueryResult<FileQuery>) -> Answer {
    let Query(query) = query.map_err(query_error)?;
    let action = json!({"verb": "read", "name": query.name});
    let result = acts.act(action, "page".into()).await?;
    Ok(Json(json!({"result": result})))
}

/// Settings the page may change.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SettingsRequest {
    /// `script`, `gemini`, `openai` or `claude`.
    #[schema(pattern = "^(script|gemini|openai|claude)$")]
    resolver: String,
}

/// Choose how words become actions (`--resolver` at start; this changes it
/// until the server stops). An LLM resolver without its key answers turns
/// unresolved with a note saying which key to set.
#[utoipa::path(put, path = "/api/settings", request_body = SettingsRequest,
    responses(
        (status = 200, description = "`{ok, resolver, ready, why?}`: the resolver now used, and whether its key is set", body = Object),
        (status = 400, description = "malformed body, unknown field or unknown resolver"),
        WriteGuard,
    ))]
pub async fn settings(
    State(words): State<Arc<Words>>,
    StrictJson(request): StrictJson<SettingsRequest>,
) -> Answer {
    let resolver =
        <Resolver as clap::ValueEnum>::from_str(&request.resolver, true).map_err(|_| {
            ApiError::new(
                StatusCode::BAD_REQUEST,
                Rule::MalformedField,
                format!(
                    "{:?} is not a resolver; choose script, gemini, openai or claude",
                    request.resolver
                ),
            )
        })?;
    let ready = words.choose(resolver);
    Ok(Json(
        json!({"ok": true, "resolver": resolver.name(), "ready": ready.is_ok(), "why": ready.err()}),
    ))
}
