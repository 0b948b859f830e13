//! The JSON API (DESIGN §8). Every act goes through the same core executor as
//! the CLI, on a blocking thread, one at a time per root.

use super::guard::Authority;
use super::{ApiError, AppState};
use axum::body::Bytes;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Extension, Json, Router};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use utoipa::{IntoParams, ToSchema};
use voicebox_core::platform::{Env, Storage};
use voicebox_core::resolver::Resolution;
use voicebox_core::{Reply, Rule};
use voicebox_machine::{Host, MachineEnv, WasmTools};

pub type Answer = Result<Json<Value>, ApiError>;

pub fn routes() -> Router<Arc<AppState>> {
    Router::new()
        .route("/api/turn", post(turn))
        .route("/api/confirm", post(confirm))
        .route("/api/health", get(health))
        .route("/api/audit", get(audit))
        .route("/api/keys", get(keys).put(put_keys))
        .route(
            "/api/root",
            get(root).post(declare_root).delete(undeclare_root),
        )
        .route("/api/files", get(files))
        .route("/api/file", get(file))
}

/// Runs `f` on the host on a blocking thread (the executor does file I/O).
pub async fn with_host<R: Send + 'static>(
    app: &Arc<AppState>,
    f: impl FnOnce(&mut Host<WasmTools>) -> R + Send + 'static,
) -> Result<R, ApiError> {
    let host = app.host.clone();
    tokio::task::spawn_blocking(move || {
        let mut host = host.lock().unwrap_or_else(|p| p.into_inner());
        f(&mut host)
    })
    .await
    .map_err(|_| {
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            Rule::StorageFailed,
            "the host failed while acting; the next request is served normally — check the audit log",
        )
    })
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

/// Parses a JSON body strictly: unknown fields and bad JSON are named 400s.
pub fn parse<T: DeserializeOwned>(body: &Bytes) -> Result<T, ApiError> {
    serde_json::from_slice(body).map_err(|e| {
        let words = e.to_string();
        let rule = if words.contains("unknown field") {
            Rule::UnknownField
        } else {
            Rule::MalformedBody
        };
        ApiError::new(
            StatusCode::BAD_REQUEST,
            rule,
            format!("the body does not fit this route: {words}"),
        )
    })
}

/// Counts a refusal for `GET /api/health`.
pub fn counted(app: &AppState, reply: &Reply) {
    if reply.refused.is_some() {
        app.refused.fetch_add(1, Ordering::Relaxed);
    }
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
        (status = 403, description = "foreign Host, foreign Origin without the host token, or a wrong host token"),
        (status = 413, description = "body too large"),
        (status = 415, description = "Content-Type is not application/json"),
    ))]
pub async fn turn(State(app): State<Arc<AppState>>, body: Bytes) -> Answer {
    let request: TurnRequest = parse(&body)?;
    let (transcript, action) = match (request.transcript, request.action) {
        (Some(text), None) => match app.resolver.resolve(&app.llm, &app.state, &text).await {
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
    let act = action.clone();
    let result = with_host(&app, move |host| host.execute(&act, Some(&turn_id()))).await?;
    counted(&app, &result);
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
        (status = 403, description = "foreign Host, foreign Origin, or a wrong host token"),
        (status = 413, description = "body too large"),
        (status = 415, description = "Content-Type is not application/json"),
    ))]
pub async fn confirm(State(app): State<Arc<AppState>>, body: Bytes) -> Answer {
    let request: ConfirmRequest = parse(&body)?;
    let result = with_host(&app, move |host| {
        host.confirm(&request.id, request.approved)
    })
    .await?;
    counted(&app, &result);
    Ok(Json(json!({"result": result})))
}

/// Whether a root is declared, refusals so far, the resolver and the version.
#[utoipa::path(get, path = "/api/health",
    responses(
        (status = 200, description = "`{ok, declared, root, refused, resolver, live: {created, running}, version}`", body = Object),
        (status = 403, description = "foreign Host"),
    ))]
pub async fn health(State(app): State<Arc<AppState>>) -> Answer {
    let root = with_host(&app, |host| {
        host.executor().storage().map(Storage::root_info)
    })
    .await?;
    Ok(Json(json!({
        "ok": true,
        "declared": root.is_some(),
        "root": root,
        "refused": app.refused.load(Ordering::Relaxed),
        "resolver": app.resolver.name(),
        "live": app.live.to_json(),
        "version": env!("CARGO_PKG_VERSION"),
    })))
}

/// The root's audit log, merged by (instance, seq).
#[utoipa::path(get, path = "/api/audit",
    responses(
        (status = 200, description = "`{ok, root, files, entries}`, or `{ok:false, refused, why}` with no usable root", body = Object),
        (status = 403, description = "foreign Host"),
    ))]
pub async fn audit(State(app): State<Arc<AppState>>) -> Answer {
    let view = with_host(&app, |host| host.audit()).await?;
    Ok(Json(match view {
        Ok(view) => json!(view),
        Err(refusal) => json!(Reply::refusal(refusal)),
    }))
}

fn key_status(app: &AppState) -> Answer {
    let keys = app.state.key_status().map_err(|e| {
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
        (status = 403, description = "foreign Host"),
        (status = 500, description = "the keys file cannot be read"),
    ))]
pub async fn keys(State(app): State<Arc<AppState>>) -> Answer {
    key_status(&app)
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
        (status = 403, description = "foreign Host, foreign Origin without the host token, or a wrong host token"),
        (status = 413, description = "body too large"),
        (status = 415, description = "Content-Type is not application/json"),
        (status = 500, description = "the keys file cannot be written"),
    ))]
pub async fn put_keys(State(app): State<Arc<AppState>>, body: Bytes) -> Answer {
    let request: KeysRequest = parse(&body)?;
    let changes: BTreeMap<String, Option<String>> = [
        ("gemini", request.keys.gemini),
        ("openai", request.keys.openai),
        ("anthropic", request.keys.anthropic),
    ]
    .into_iter()
    .filter_map(|(provider, change)| change.map(|value| (provider.to_string(), value)))
    .collect();
    app.state.update_keys(&changes).map_err(|e| {
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            Rule::StorageFailed,
            format!("the keys file cannot be written: {e}"),
        )
    })?;
    tracing::info!(providers = ?changes.keys().collect::<Vec<_>>(), "keys changed");
    key_status(&app)
}

/// The declared root, if any.
#[utoipa::path(get, path = "/api/root",
    responses(
        (status = 200, description = "`{declared, root}`", body = Object),
        (status = 403, description = "foreign Host"),
    ))]
pub async fn root(State(app): State<Arc<AppState>>) -> Answer {
    let root = with_host(&app, |host| {
        host.executor().storage().map(Storage::root_info)
    })
    .await?;
    Ok(Json(json!({"declared": root.is_some(), "root": root})))
}

/// A machine folder to declare as the root.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RootRequest {
    /// `machine` (the only kind this route declares).
    #[serde(default)]
    kind: Option<String>,
    /// The folder.
    path: String,
}

/// Declare a machine folder as the project root (needs the host token).
#[utoipa::path(post, path = "/api/root", request_body = RootRequest,
    responses(
        (status = 200, description = "`{ok:true, declared, root}`, or `{ok:false, refused:\"root-unreachable\", why}`", body = Object),
        (status = 400, description = "malformed body, unknown field or unknown kind"),
        (status = 403, description = "no host token (the page alone cannot declare a machine folder), foreign Host or Origin, or a wrong token"),
        (status = 413, description = "body too large"),
        (status = 415, description = "Content-Type is not application/json"),
    ))]
pub async fn declare_root(
    State(app): State<Arc<AppState>>,
    Extension(authority): Extension<Authority>,
    body: Bytes,
) -> Answer {
    let request: RootRequest = parse(&body)?;
    if request.kind.as_deref().is_some_and(|k| k != "machine") {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            Rule::MalformedField,
            "`kind` must be \"machine\"",
        ));
    }
    if authority != Authority::HostToken {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            Rule::HostTokenRequired,
            "declaring a folder on this machine needs the person at the host: send the x-voicebox-host-token header, or restart with --root",
        ));
    }
    let path = PathBuf::from(request.path);
    let declared = with_host(&app, move |host| {
        host.declare(&path)
            .map(|()| host.executor().storage().map(Storage::root_info))
    })
    .await?;
    Ok(Json(match declared {
        Ok(root) => json!({"ok": true, "declared": true, "root": root}),
        Err(e) => json!(Reply::refusal(voicebox_core::Refusal::new(
            Rule::RootUnreachable,
            format!("the folder cannot be used as a root: {e}; name an existing folder"),
        ))),
    }))
}

/// Un-declare the root: every act then answers `root-not-declared`.
#[utoipa::path(delete, path = "/api/root",
    responses(
        (status = 200, description = "`{ok:true, declared:false}`", body = Object),
        (status = 403, description = "foreign Host, foreign Origin without the host token, or a wrong token"),
        (status = 415, description = "Content-Type is not application/json"),
    ))]
pub async fn undeclare_root(State(app): State<Arc<AppState>>) -> Answer {
    with_host(&app, |host| host.undeclare()).await?;
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
        (status = 403, description = "foreign Host"),
    ))]
pub async fn files(State(app): State<Arc<AppState>>, query: QueryResult<FilesQuery>) -> Answer {
    let Query(query) = query.map_err(query_error)?;
    let action = match query.dir {
        Some(dir) => json!({"verb": "list", "dir": dir}),
        None => json!({"verb": "list"}),
    };
    let result = with_host(&app, move |host| host.execute(&action, Some("page"))).await?;
    counted(&app, &result);
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
        (status = 403, description = "foreign Host"),
    ))]
pub async fn file(State(app): State<Arc<AppState>>, query: QueryResult<FileQuery>) -> Answer {
    let Query(query) = query.map_err(query_error)?;
    let action = json!({"verb": "read", "name": query.name});
    let result = with_host(&app, move |host| host.execute(&action, Some("page"))).await?;
    counted(&app, &result);
    Ok(Json(json!({"result": result})))
}
