//! The root's audit log over HTTP: one page at a time, or every file's chain
//! checked.

use super::ApiError;
use super::answer::Answer;
use super::error::{ReadGuard, ReadQuery, StrictQuery};
use crate::host::Acts;
use crate::state_dir::StateDir;
use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use serde::Deserialize;
use std::sync::Arc;
use utoipa::IntoParams;
use voicebox_core::audit::page::PageRequest;
use voicebox_core::worker::AuditPage;

#[derive(Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
pub(crate) struct AuditQuery {
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
        (status = 200, description = "`{ok, root, entries, next?, skipped?}`: `next` is absent on the last page; `skipped` names lines passed over as longer than any entry (`file`, `at`, `bytes`). Or `{ok:false, refused, why}` with no usable root", body = Object),
        ReadQuery,
        (status = 400, description = "limit outside 1..=1000, a cursor this host did not give, or an unknown query parameter"),
    ))]
pub async fn audit(
    State(acts): State<Arc<Acts>>,
    State(state): State<StateDir>,
    StrictQuery(query): StrictQuery<AuditQuery>,
) -> Answer {
    let page = PageRequest::new(query.cursor.as_deref(), query.limit)
        .map_err(|refusal| ApiError::new(StatusCode::BAD_REQUEST, refusal.rule, refusal.why))?;
    let wire = AuditPage {
        cursor: query.cursor,
        limit: query.limit,
    };
    Ok(Json(acts.audit(page, wire, state).await?))
}

/// Every audit file of the root checked against its hash chain and the
/// host's anchor (reads the whole log: asked for on its own).
#[utoipa::path(get, path = "/api/audit/verify",
    responses(
        (status = 200, description = "`{ok, root, files}`: per file `entries`, `torn`, `corrupt` and `verdict`: `ok` or `torn` pass; `broken` (with `kind`, `line`, `why`), `missing` (a file the host's anchors name that is gone or not a file), `unanchored` (no anchor names it), `unanchored-tail` (entries after the host's last line: `anchored_seq`, `line`, `after`) and `unreadable` (an entry of the folder that is not a log file) fail. Or `{ok:false, refused, why}` with no usable root", body = Object),
        ReadGuard,
    ))]
pub(crate) async fn verify_audit(
    State(acts): State<Arc<Acts>>,
    State(state): State<StateDir>,
) -> Answer {
    Ok(Json(acts.verify_audit(state).await?))
}
