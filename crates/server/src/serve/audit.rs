//! The root's audit log over HTTP: one page at a time, or every file's chain
//! checked.

use super::api::{Answer, QueryResult, query_error};
use super::error::ReadGuard;
use super::{Acts, ApiError};
use crate::state_dir::StateDir;
use axum::Json;
use axum::extract::{Query, State};
use axum::http::StatusCode;
use serde::Deserialize;
use serde_json::json;
use std::path::Path;
use std::sync::Arc;
use utoipa::IntoParams;
use voicebox_core::audit::page::PageRequest;
use voicebox_core::{Refusal, Reply, Rule};

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
    let check = tokio::task::spawn_blocking(move || {
        state
            .audit_reader(root.as_deref())
            .map_err(|e| {
                Refusal::new(
                    Rule::RootUnreachable,
                    format!("the project root cannot be read: {e}; restore the folder or declare another root"),
                )
            })?
            .verify_audit()
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
