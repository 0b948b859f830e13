//! The guard in front of every route.
//!
//! - `Host` must be a loopback name with this server's port (DNS rebinding).
//! - A mutating request (POST, PUT, PATCH, DELETE) must come from this
//!   server's own page (`Origin`) or carry the host token, must say
//!   `Content-Type: application/json`, and its body is capped. A cross-site
//!   `text/plain` form post therefore reaches no handler.
//! - Every response carries a strict Content-Security-Policy.

use super::ApiError;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::sync::Arc;
use subtle::ConstantTimeEq;
use voicebox_core::Rule;

/// The largest request body: a 1 MiB write, JSON-escaped, with room to spare.
pub const MAX_BODY_BYTES: usize = 8 << 20;
/// The header that carries the host token.
pub const TOKEN_HEADER: &str = "x-voicebox-host-token";

/// What requests are checked against: the host token and the port actually
/// bound (the `Host` and `Origin` names must carry it).
pub struct Guard {
    token: String,
    port: u16,
}

/// Who vouched for a mutating request; handlers that need the person at the
/// host (declaring a machine root) require [`Authority::HostToken`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Authority {
    OwnPage,
    HostToken,
}

/// `'wasm-unsafe-eval'` lets the page's worker compile WebAssembly (the
/// browser core and tools) without allowing any JavaScript eval.
const CSP: &str = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' blob: data:; connect-src 'self'; media-src 'self' blob:; worker-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'";

pub async fn security_headers(request: Request, next: Next) -> Response {
    let api = request.uri().path().starts_with("/api/");
    let mut response = next.run(request).await;
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CSP),
    );
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    if api {
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    }
    response
}

pub async fn guard(State(guard): State<Arc<Guard>>, request: Request, next: Next) -> Response {
    match guard.check(request).await {
        Ok(request) => next.run(request).await,
        Err(error) => {
            tracing::info!(rule = %error.refusal.rule, status = %error.status, "refused by the guard");
            error.into_response()
        }
    }
}

impl Guard {
    pub fn new(token: String, port: u16) -> Guard {
        Guard { token, port }
    }

    async fn check(&self, request: Request) -> Result<Request, ApiError> {
        if !loopback_host(request.headers(), self.port) {
            return Err(ApiError::new(
                StatusCode::FORBIDDEN,
                Rule::ForeignHost,
                "this server answers only to 127.0.0.1, localhost or [::1] on its own port; open the address it printed",
            ));
        }
        if !mutating(request.method()) {
            return Ok(request);
        }
        let authority = self.authority(request.headers())?;
        if !json_content_type(request.headers()) {
            return Err(ApiError::new(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                Rule::UnsupportedContentType,
                "send the body as JSON with Content-Type: application/json",
            ));
        }
        let (mut parts, body) = request.into_parts();
        let bytes = axum::body::to_bytes(body, MAX_BODY_BYTES)
            .await
            .map_err(|_| {
                ApiError::new(
                    StatusCode::PAYLOAD_TOO_LARGE,
                    Rule::BodyTooLarge,
                    format!("the body is over {} MiB; send less", MAX_BODY_BYTES >> 20),
                )
            })?;
        parts.extensions.insert(authority);
        Ok(Request::from_parts(parts, Body::from(bytes)))
    }

    /// WebSockets carry no token: only this server's own page may open one
    /// (`what` names it in the refusal), checked before the upgrade.
    pub fn own_page(&self, headers: &HeaderMap, what: &str) -> Result<(), ApiError> {
        let origin = headers.get(header::ORIGIN).and_then(|o| o.to_str().ok());
        if origin.is_some_and(|origin| own_origin(origin, self.port)) {
            return Ok(());
        }
        tracing::info!(rule = %Rule::ForeignOrigin, what, "refused by the origin check");
        Err(ApiError::new(
            StatusCode::FORBIDDEN,
            Rule::ForeignOrigin,
            format!(
                "{what} opens only from Voicebox's own page; open the address the server printed"
            ),
        ))
    }

    /// The host token wins when present (and must be right); otherwise the
    /// Origin must be this server's page.
    fn authority(&self, headers: &HeaderMap) -> Result<Authority, ApiError> {
        if let Some(token) = headers.get(TOKEN_HEADER) {
            return if bool::from(token.as_bytes().ct_eq(self.token.as_bytes())) {
                Ok(Authority::HostToken)
            } else {
                Err(ApiError::new(
                    StatusCode::FORBIDDEN,
                    Rule::BadHostToken,
                    "the host token is wrong; read it from the state folder's host-token file",
                ))
            };
        }
        match headers.get(header::ORIGIN).and_then(|o| o.to_str().ok()) {
            Some(origin) if own_origin(origin, self.port) => Ok(Authority::OwnPage),
            _ => Err(ApiError::new(
                StatusCode::FORBIDDEN,
                Rule::ForeignOrigin,
                "this request did not come from Voicebox's own page; use the page, or send the x-voicebox-host-token header",
            )),
        }
    }
}

fn mutating(method: &Method) -> bool {
    matches!(
        *method,
        Method::POST | Method::PUT | Method::PATCH | Method::DELETE
    )
}

/// The loopback names this server answers to, with its port.
fn loopback_host(headers: &HeaderMap, port: u16) -> bool {
    let Some(host) = headers.get(header::HOST).and_then(|h| h.to_str().ok()) else {
        return false;
    };
    ["127.0.0.1", "localhost", "[::1]"]
        .iter()
        .any(|name| host == format!("{name}:{port}"))
}

/// Whether `origin` is this server's own page.
fn own_origin(origin: &str, port: u16) -> bool {
    ["127.0.0.1", "localhost", "[::1]"]
        .iter()
        .any(|name| origin == format!("http://{name}:{port}"))
}

fn json_content_type(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|v| v.trim().eq_ignore_ascii_case("application/json"))
}
