//! `GET /api/openapi.json`: the API as utoipa sees the annotated handlers.

use super::AppState;
use super::error::ReadGuard;
use super::{api, audit, extensions, root, settings};
use axum::routing::get;
use axum::{Json, Router};
use utoipa::OpenApi;

#[derive(OpenApi)]
#[openapi(
    info(
        title = "Voicebox",
        description = "Carry out spoken or typed requests inside one declared folder. Every route but GET /api/health and the page's files needs the page's session (the x-voicebox-session header; on a WebSocket the subprotocol voicebox.session.<session> beside voicebox) or the x-voicebox-host-token header; with the session, a change or a socket also needs this server's own Origin. Every mutating route needs Content-Type: application/json; every route needs a loopback Host."
    ),
    paths(
        api::turn,
        api::confirm,
        api::health,
        api::help,
        audit::audit,
        audit::verify_audit,
        settings::keys,
        settings::put_keys,
        root::root,
        root::declare_root,
        root::undeclare_root,
        api::files,
        api::file,
        settings::settings,
        extensions::list,
        extensions::propose,
        extensions::admit,
        extensions::approval_request,
        extensions::approve,
        extensions::revoke,
        extensions::withdraw,
        crate::live::socket,
        crate::channel::socket,
        openapi
    ),
    components(schemas(
        api::TurnRequest,
        api::ConfirmBody,
        settings::KeysRequest,
        root::RootRequest,
        settings::SettingsRequest,
        extensions::ProposalRequest,
        extensions::IdRequest,
        extensions::ApproveRequest
    ))
)]
struct ApiDoc;

pub fn routes() -> Router<AppState> {
    Router::new().route("/api/openapi.json", get(openapi))
}

/// This document.
#[utoipa::path(get, path = "/api/openapi.json",
    responses(
        (status = 200, description = "the OpenAPI document", body = Object),
        ReadGuard,
    ))]
pub async fn openapi() -> Json<utoipa::openapi::OpenApi> {
    Json(ApiDoc::openapi())
}
