//! The guard in front of every route.
//!
//! - `Host`, `Origin`, `Content-Type` and the token are said at most once:
//!   two of one is ambiguous (which would a proxy, or a check, read?).
//! - `Host` must be a loopback name with this server's port (DNS rebinding),
//!   and so must an absolute-form target's authority, which replaces it.
//! - A declared `Content-Length` over the cap is refused before the body is
//!   read.
//! - `GET <page>?token=<secret>` trades the printed secret for the page's
//!   session ([`PageSecret`]).
//! - Every `/api/*` route but `GET /api/health`, both WebSockets and every
//!   mutating request need authority: the host token, or the page's session
//!   (a header, or a socket's subprotocol; never a cookie, which the browser
//!   would also send to every other port of the host). With the session, a
//!   browser's `Sec-Fetch-Site` must say the page itself asked, and a change
//!   or a socket must also come with this server's own `Origin` (defence in
//!   depth against CSRF). An `Origin` header alone authorizes nothing.
//!   Refused requests reach no handler.
//! - A mutating request (POST, PUT, PATCH, DELETE) must say
//!   `Content-Type: application/json`, and its body is capped and must
//!   arrive within the body timeout. A cross-site `text/plain` form post
//!   therefore reaches no handler.
//! - Every response carries a strict Content-Security-Policy.

use super::ApiError;
use super::session::{PageSecret, SESSION_HEADER};
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::sync::Arc;
use std::time::Duration;
use subtle::ConstantTimeEq;
use voicebox_core::Rule;
use voicebox_core::platform::MAX_FILE_BYTES;

/// The one body cap (axum's own is disabled). A write of the largest file,
/// 1 MiB, escaped as JSON at worst (every byte a control character written
/// `\u0000`: 6 bytes each) is 6 MiB; 8 MiB leaves room for the rest of the
/// request. Anything larger is `body-too-large`.
pub const MAX_BODY_BYTES: usize = 8 << 20;
const _: () = assert!(MAX_BODY_BYTES as u64 >= 6 * MAX_FILE_BYTES + (1 << 20));
/// How long a request body may take to arrive, by default.
pub(crate) const BODY_TIMEOUT: Duration = Duration::from_secs(30);
/// Headers that must not come twice: each decides who is asking or what
/// the body is.
const SINGLE_HEADERS: [&str; 5] = [
    "host", "origin", "content-type", TOKEN_HEADER, SESSION_HEADER,
];
/// The header that carries the host token.
pub(crate) const TOKEN_HEADER: &str = "x-voicebox-host-token";

/// What requests are checked against: the host token and the port actually
/// bound (the `Host` and `Origin` names must carry it), and how long a body
/// may take.
#[derive(Clone)]
pub struct Guard {
    token: String,
    page: PageSecret,
    port: u16,
    body_timeout: Duration,
}

/// Who vouched for a request; handlers that need the person at the host
/// (declaring a machine root) require [`Authority::HostToken`]. A request
/// with neither has no `Authority` extension (only `GET /api/health` and the
/// page's files are answered without one).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Authority {
    OwnPage,
    HostToken,
}

impl Authority {
    /// Some acts are for the person at the host only: without the host
    /// token they are a 403 `host-token-required`, in words `why` gives.
    pub(crate) fn need_host_token(self, why: &str) -> Result<(), ApiError> {
        if self == Authority::HostToken {
            Ok(())
        } else {
            Err(ApiError::new(
                StatusCode::FORBIDDEN,
                Rule::HostTokenRequired,
                why,
            ))
        }
    }
}

/// `'wasm-unsafe-eval'` lets the page's worker compile WebAssembly (the
/// browser core and tools) without allowing any JavaScript eval.
const CSP: &str = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' blob: data:; connect-src 'self'; media-src 'self' blob:; worker-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'";

pub(crate) async fn security_headers(request: Request, next: Next) -> Response {
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
        Ok(Checked::Pass(request)) => next.run(request).await,
        Ok(Checked::Answered(response)) => response,
        Err(error) => {
            tracing::info!(rule = %error.refusal.rule, status = %error.status, "refused by the guard");
            error.into_response()
        }
    }
}

/// What the guard made of a request: pass it on, or it is answered already
/// (the page secret traded for the session).
enum Checked {
    Pass(Request),
    Answered(Response),
}

impl Guard {
    pub fn new(token: String, page: PageSecret, port: u16) -> Guard {
        Guard {
            token,
            page,
            port,
            body_timeout: BODY_TIMEOUT,
        }
    }

    /// This start's page secret and session.
    pub fn page(&self) -> &PageSecret {
        &self.page
    }

    /// The same guard, waiting at most `timeout` for a body.
    pub(crate) fn with_body_timeout(self, timeout: Duration) -> Guard {
        Guard {
            body_timeout: timeout,
            ..self
        }
    }

    async fn check(&self, request: Request) -> Result<Checked, ApiError> {
        if let Some(name) = SINGLE_HEADERS
            .into_iter()
            .find(|name| request.headers().get_all(*name).iter().nth(1).is_some())
        {
            return Err(ApiError::new(
                StatusCode::BAD_REQUEST,
                Rule::DuplicateHeader,
                format!(
                    "the {name} header came more than once, so which one counts is ambiguous; send it once"
                ),
            ));
        }
        if declared_length(request.headers()).is_some_and(|length| length > MAX_BODY_BYTES as u64) {
            return Err(too_large());
        }
        if !loopback_host(request.headers(), self.port)
            || !loopback_target(request.uri(), self.port)
        {
            return Err(ApiError::new(
                StatusCode::FORBIDDEN,
                Rule::ForeignHost,
                "this server answers only to 127.0.0.1, localhost or [::1] on its own port; open the address it printed",
            ));
        }
        let path = request.uri().path();
        if request.method() == Method::GET
            && !needs_authority(path)
            && let Some(answer) = self.page.exchange(request.uri())
        {
            return Ok(Checked::Answered(answer));
        }
        let changes = mutating(request.method());
        let guarded = needs_authority(path);
        let authority = self.authority(request.headers(), changes, socket(path))?;
        let mut request = request;
        if let Some(authority) = authority {
            request.extensions_mut().insert(authority);
        } else if changes || guarded {
            return Err(ApiError::new(
                StatusCode::UNAUTHORIZED,
                Rule::NoAuthority,
                "this request carries neither the page's session nor the host token: open the address `voicebox serve` printed (`voicebox url` prints it again), or send the x-voicebox-host-token header",
            ));
        }
        if !changes {
            return Ok(Checked::Pass(request));
        }
        if !json_content_type(request.headers()) {
            return Err(ApiError::new(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                Rule::UnsupportedContentType,
                "send the body as JSON with Content-Type: application/json",
            ));
        }
        let (parts, body) = request.into_parts();
        let bytes = tokio::time::timeout(
            self.body_timeout,
            axum::body::to_bytes(body, MAX_BODY_BYTES),
        )
        .await
        .map_err(|_| {
            ApiError::new(
                StatusCode::REQUEST_TIMEOUT,
                Rule::BodyTimeout,
                format!(
                    "the body did not arrive within {} s; send it at once",
                    self.body_timeout.as_secs_f32()
                ),
            )
        })?
        .map_err(|_| too_large())?;
        Ok(Checked::Pass(Request::from_parts(parts, Body::from(bytes))))
    }

    /// The host token wins when present (and must be right); otherwise the
    /// page's session, asked for by the page itself (`Sec-Fetch-Site`, where
    /// the browser says it), and for a change or a socket with this server's
    /// own `Origin`. `None`: no authority at all.
    fn authority(
        &self,
        headers: &HeaderMap,
        changes: bool,
        socket: bool,
    ) -> Result<Option<Authority>, ApiError> {
        if let Some(token) = headers.get(TOKEN_HEADER) {
            return if bool::from(token.as_bytes().ct_eq(self.token.as_bytes())) {
                Ok(Some(Authority::HostToken))
            } else {
                Err(ApiError::new(
                    StatusCode::FORBIDDEN,
                    Rule::BadHostToken,
                    "the host token is wrong; read it from the state folder's host-token file",
                ))
            };
        }
        if !self.page.in_session(headers, socket) {
            return Ok(None);
        }
        let origin = headers.get(header::ORIGIN).and_then(|o| o.to_str().ok());
        let own = origin.is_some_and(|origin| own_origin(origin, self.port));
        if !asked_by_the_page(headers) || ((changes || socket) && !own) {
            return Err(ApiError::new(
                StatusCode::FORBIDDEN,
                Rule::ForeignOrigin,
                "this request did not come from Voicebox's own page; use the page, or send the x-voicebox-host-token header",
            ));
        }
        Ok(Some(Authority::OwnPage))
    }
}

/// Whether the browser says the request is the page's own (`same-origin`)
/// or the person's (`none`: typed, a bookmark). A client that is no browser
/// says nothing, and is judged by the rest.
fn asked_by_the_page(headers: &HeaderMap) -> bool {
    headers
        .get("sec-fetch-site")
        .is_none_or(|site| matches!(site.as_bytes(), b"same-origin" | b"none"))
}

/// The routes that answer only with authority: the API (but its health
/// check, which says only that the server is up), both WebSockets and MCP.
fn needs_authority(path: &str) -> bool {
    (path.starts_with("/api/") && path != "/api/health") || socket(path) || path == "/mcp"
}

/// The WebSocket routes: a socket acts, so it is held to a change's rules.
fn socket(path: &str) -> bool {
    matches!(path, "/live" | "/channel")
}

fn too_large() -> ApiError {
    ApiError::new(
        StatusCode::PAYLOAD_TOO_LARGE,
        Rule::BodyTooLarge,
        format!(
            "the body is over {} MiB; send less (a write's content is at most {} MiB)",
            MAX_BODY_BYTES >> 20,
            MAX_FILE_BYTES >> 20
        ),
    )
}

/// The `Content-Length` a request declares (hyper has already refused two
/// that disagree, and one that is no number).
fn declared_length(headers: &HeaderMap) -> Option<u64> {
    headers
        .get(header::CONTENT_LENGTH)?
        .to_str()
        .ok()?
        .parse()
        .ok()
}

fn mutating(method: &Method) -> bool {
    matches!(
        *method,
        Method::POST | Method::PUT | Method::PATCH | Method::DELETE
    )
}

/// Whether the `Host` header is one of this server's own names.
fn loopback_host(headers: &HeaderMap, port: u16) -> bool {
    headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .is_some_and(|host| loopback(host, port))
}

/// An absolute-form target (`GET http://host:port/path`) names the host it
/// asks for, and that replaces `Host` (RFC 9112 §3.2.2): its authority is
/// held to the same rule. An origin-form target (`/path`) names none.
fn loopback_target(uri: &axum::http::Uri, port: u16) -> bool {
    uri.authority()
        .is_none_or(|authority| loopback(authority.as_str(), port))
}

/// The loopback names this server answers to, with its port.
fn loopback(host: &str, port: u16) -> bool {
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
