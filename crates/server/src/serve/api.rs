//! The JSON API: the route table, and the routes that act (a
//! turn, its confirmation, the page's file list and viewer) or report
//! (health). Every act goes through the same core executor as the CLI, on a
//! blocking thread, one at a time per root.

use super::answer::{Answer, result};
use super::audit::{audit, verify_audit};
use super::error::{ReadGuard, ReadQuery, StrictJson, StrictQuery, WriteBody, WriteGuard};
use super::extensions;
use super::guard::Authority;
use super::root::{declare_root, make_and_switch, root, switch_to, undeclare_root};
use super::settings::{keys, put_keys, settings};
use super::switch::{Answered, Switches};
use super::{ApiError, AppState};
use crate::host::Acts;
use crate::host::resolve::Words;
use crate::live::Live;
use crate::state_dir::StateDir;
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::{get, post, put};
use axum::{Extension, Json, Router};
use serde::Deserialize;
use serde_json::{Value, json};
use std::sync::Arc;
use utoipa::{IntoParams, ToSchema};
use voicebox_core::Action;
use voicebox_core::platform::Env;
use voicebox_core::turn::{Proposal, TurnInput};
use voicebox_machine::MachineEnv;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/turn", post(turn))
        .route("/api/confirm", post(confirm))
        .route("/api/health", get(health))
        .route("/api/help", get(help))
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
        .route("/api/extensions", get(extensions::list))
        .route("/api/extensions/proposals", post(extensions::propose))
        .route("/api/extensions/admit", post(extensions::admit))
        .route(
            "/api/extensions/approval-request",
            post(extensions::approval_request),
        )
        .route("/api/extensions/approve", post(extensions::approve))
        .route("/api/extensions/revoke", post(extensions::revoke))
        .route("/api/extensions/withdraw", post(extensions::withdraw))
}

fn turn_id() -> String {
    format!("http-{}", &MachineEnv.random_id()[..8])
}

/// A turn: words (`transcript`) or a structured action (`action`), not both.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct TurnRequest {
    /// What the person said or typed.
    transcript: Option<String>,
    /// Or an action: `{"verb": ..., <fields>}` from the command list.
    #[schema(value_type = Option<Object>)]
    action: Option<Value>,
}

/// Resolve the words (or take the action) and execute it.
#[utoipa::path(post, path = "/api/turn", request_body = TurnRequest,
    responses(
        (status = 200, description = "`{transcript, action, result, changes}`; an unresolved utterance has `action: null` and a `note`; executor refusals have `result.ok: false`; `changes` says whether the turn changed the root's files (done, or once confirmed)", body = Object),
        (status = 400, description = "malformed body, unknown field, or neither or both of transcript and action"),
        WriteGuard,
    ))]
pub async fn turn(
    State(acts): State<Arc<Acts>>,
    State(words): State<Arc<Words>>,
    StrictJson(request): StrictJson<TurnRequest>,
) -> Answer {
    let input = TurnInput::new(request.transcript, request.action)
        .map_err(|refusal| ApiError::new(StatusCode::BAD_REQUEST, refusal.rule, refusal.why))?;
    Ok(Json(json!(acts.turn(&words, input, turn_id()).await)))
}

/// The person's answer to a tier-2 confirmation.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct ConfirmBody {
    id: String,
    approved: bool,
}

/// Answer a pending confirmation (yes performs the act, no declines it).
#[utoipa::path(post, path = "/api/confirm", request_body = ConfirmBody,
    responses(
        (status = 200, description = "`{result}`: the act's outcome, or `declined`, `confirmation-unknown`, `confirmation-expired`; a folder switch's yes also has `{ok, declared, root}`", body = Object),
        WriteBody,
    ))]
pub async fn confirm(
    State(acts): State<Arc<Acts>>,
    State(state): State<StateDir>,
    State(switches): State<Arc<Switches>>,
    StrictJson(request): StrictJson<ConfirmBody>,
) -> Answer {
    let current = acts.machine_root().await?;
    match switches.answer(&request.id, request.approved, current.as_deref()) {
        None => result(acts.confirm(request.id, request.approved).await),
        Some(Answered::Kept(reply)) => result(*reply),
        Some(Answered::Switch { folder, make }) => {
            let how = "the page, confirmed";
            Ok(Json(if make {
                make_and_switch(&acts, &state, folder, how).await?
            } else {
                switch_to(&acts, &state, folder, how).await?
            }))
        }
    }
}

/// Whether the server is up. With authority (the page's session or the host
/// token) also whether a root is declared, refusals so far, the resolver and
/// live voice; without it only `{ok, version}`, so a stranger learns no path.
#[utoipa::path(get, path = "/api/health",
    responses(
        (status = 200, description = "`{ok, version}`; with authority also `{declared, root, refused, resolver, resolvers, live: {created, running, offline: {decoding, max}, default, providers: [{name, label, available, why?, fix?}], voices: [{provider, voices, models, voice, model}]}, offlineVoice: [{provider, engine, ok, why?, install?}]}`", body = Object),
        ReadGuard,
    ))]
pub async fn health(
    State(acts): State<Arc<Acts>>,
    State(words): State<Arc<Words>>,
    State(live): State<Arc<Live>>,
    State(state): State<StateDir>,
    authority: Option<Extension<Authority>>,
) -> Answer {
    let version = env!("CARGO_PKG_VERSION");
    if authority.is_none() {
        return Ok(Json(json!({"ok": true, "version": version})));
    }
    let root = acts.active_root().await?;
    Ok(Json(json!({
        "ok": true,
        "declared": root.is_some(),
        "root": root,
        "refused": acts.refused(),
        "resolver": words.resolver().name(),
        "resolvers": words.each_ready(),
        "live": live.to_json(&state),
        "offlineVoice": crate::live::offline_engines(false),
        "version": version,
    })))
}

/// What a person can say, verb by verb, made from the phrasings the
/// built-in resolver and the offline grammar share (the page's `?` help).
#[utoipa::path(get, path = "/api/help",
    responses(
        (status = 200, description = "`{ok, help: [{verb, does, says: [sentence]}]}`", body = Object),
        ReadGuard,
    ))]
pub async fn help() -> Answer {
    let help: Vec<Value> = voicebox_core::resolver::spoken::help()
        .into_iter()
        .map(|line| json!({"verb": line.verb.wire(), "does": line.does, "says": line.says}))
        .collect();
    Ok(Json(json!({"ok": true, "help": help})))
}

#[derive(Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
pub(crate) struct FilesQuery {
    /// A folder inside the root (default: the root).
    dir: Option<String>,
}

/// List a folder of the root (an audited `list` act, for the page's file list).
#[utoipa::path(get, path = "/api/files", params(FilesQuery),
    responses(
        (status = 200, description = "`{result}`: a list reply or a named refusal", body = Object),
        ReadQuery,
    ))]
pub async fn files(
    State(acts): State<Arc<Acts>>,
    StrictQuery(query): StrictQuery<FilesQuery>,
) -> Answer {
    page_act(&acts, Action::List { dir: query.dir }).await
}

/// An act the page asks for by route rather than by words.
async fn page_act(acts: &Acts, action: Action) -> Answer {
    result(acts.act(Proposal::Resolved(action), "page".into()).await)
}

#[derive(Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
pub(crate) struct FileQuery {
    /// A file inside the root.
    name: String,
}

/// Read a file of the root (an audited `read` act, for the page's viewer).
#[utoipa::path(get, path = "/api/file", params(FileQuery),
    responses(
        (status = 200, description = "`{result}`: a read reply or a named refusal", body = Object),
        ReadQuery,
        (status = 400, description = "missing `name` or unknown query parameter"),
    ))]
pub async fn file(
    State(acts): State<Arc<Acts>>,
    StrictQuery(query): StrictQuery<FileQuery>,
) -> Answer {
    page_act(
        &acts,
        Action::Read {
            name: query.name,
            first: None,
            last: None,
            at: None,
        },
    )
    .await
}
