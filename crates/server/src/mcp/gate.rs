//! What `/mcp` checks before rmcp reads a request, so its refusals are the
//! API's own: a body over the one cap was already refused by the guard
//! (`body-too-large`); here a body is read strictly (`duplicate-key`,
//! `malformed-body`), a session id this server does not hold is
//! `mcp-session-unknown` (404, as MCP asks), and an `initialize` when every
//! session is busy is `mcp-sessions-full`.

use super::sessions::Sessions;
use crate::serve::{ApiError, MAX_BODY_BYTES};
use crate::strict;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use serde_json::Value;
use std::sync::Arc;
use voicebox_core::Rule;

/// The header MCP's streamable HTTP transport names a session with.
const SESSION_HEADER: &str = "mcp-session-id";

pub async fn gate(State(sessions): State<Arc<Sessions>>, request: Request, next: Next) -> Response {
    match check(&sessions, request).await {
        Ok(request) => next.run(request).await,
        Err(error) => {
            tracing::info!(rule = %error.refusal.rule, status = %error.status, "refused at /mcp");
            error.into_response()
        }
    }
}

async fn check(sessions: &Sessions, request: Request) -> Result<Request, ApiError> {
    let session = request
        .headers()
        .get(SESSION_HEADER)
        .map(|id| id.to_str().unwrap_or_default().to_string());
    if let Some(id) = &session
        && !sessions.holds(id)
    {
        return Err(ApiError::new(
            StatusCode::NOT_FOUND,
            Rule::McpSessionUnknown,
            "this server holds no MCP session by that id (it was idle too long, gave way to newer ones, or was closed); initialize a new one",
        ));
    }
    if request.method() != Method::POST {
        return Ok(request);
    }
    let (parts, body) = request.into_parts();
    // The guard has read the body already, within the cap.
    let bytes = axum::body::to_bytes(body, MAX_BODY_BYTES)
        .await
        .map_err(|e| {
            ApiError::new(
                StatusCode::BAD_REQUEST,
                Rule::MalformedBody,
                format!("the body could not be read: {e}"),
            )
        })?;
    let message: Value = strict::from_slice(&bytes)?;
    if session.is_none() && message["method"] == "initialize" && !sessions.room() {
        return Err(ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            Rule::McpSessionsFull,
            "every MCP session this server holds is busy with a request; initialize again in a moment",
        ));
    }
    Ok(Request::from_parts(parts, Body::from(bytes)))
}
