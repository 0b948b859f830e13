//! The page, embedded from `web/` at build time ([`crate::assets`]) and served at `/`.

use super::{ApiError, AppState};
use crate::assets::{WEB, env_extras};
use axum::Router;
use axum::extract::Path;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::get;
use voicebox_core::Rule;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/", get(|| async { asset("index.html") }))
        .route("/environment", get(|| async { Redirect::to("/env/") }))
        .route("/env/", get(|| async { asset("env/index.html") }))
        .route(
            "/{*path}",
            get(|Path(path): Path<String>| async move { asset(&path) }),
        )
}

/// Any route or method that does not exist: a named 404, never an empty body.
pub(crate) async fn no_such_route(method: axum::http::Method, uri: axum::http::Uri) -> Response {
    ApiError::new(
        StatusCode::NOT_FOUND,
        Rule::NoSuchRoute,
        format!("there is no {method} {}; the page is at /, the API under /api/ (see /api/openapi.json)", uri.path()),
    )
    .into_response()
}

fn asset(path: &str) -> Response {
    let extra = path
        .strip_prefix("env/")
        .and_then(|name| env_extras().into_iter().find(|(n, _)| *n == name))
        .map(|(_, bytes)| bytes)
        .filter(|bytes| !bytes.is_empty());
    match extra.or_else(|| WEB.get_file(path).map(|f| f.contents())) {
        Some(contents) => {
            let mut response = contents.into_response();
            response.headers_mut().insert(
                header::CONTENT_TYPE,
                HeaderValue::from_static(content_type(path)),
            );
            response
        }
        None => ApiError::new(
            StatusCode::NOT_FOUND,
            Rule::NoSuchRoute,
            format!("there is nothing at /{path}; the page is at /, the API under /api/"),
        )
        .into_response(),
    }
}

fn content_type(path: &str) -> &'static str {
    match path.rsplit('.').next() {
        Some("html") => "text/html; charset=utf-8",
        Some("js" | "mjs") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("svg") => "image/svg+xml",
        Some("json") => "application/json",
        Some("webmanifest") => "application/manifest+json",
        Some("wasm") => "application/wasm",
        Some("png") => "image/png",
        Some("ico") => "image/x-icon",
        _ => "application/octet-stream",
    }
}
