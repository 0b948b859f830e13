//! The page, embedded from `web/` at build time and served at `/`.

use super::{ApiError, AppState};
use axum::Router;
use axum::extract::Path;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use include_dir::{Dir, include_dir};
use std::sync::Arc;
use voicebox_core::Rule;

static WEB: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/../../web");

pub fn routes() -> Router<Arc<AppState>> {
    Router::new()
        .route("/", get(|| async { asset("index.html") }))
        .route(
            "/{*path}",
            get(|Path(path): Path<String>| async move { asset(&path) }),
        )
}

/// Any route or method that does not exist: a named 404, never an empty body.
pub async fn no_such_route(method: axum::http::Method, uri: axum::http::Uri) -> Response {
    ApiError::new(
        StatusCode::NOT_FOUND,
        Rule::NoSuchRoute,
        format!("there is no {method} {}; the page is at /, the API under /api/ (see /api/openapi.json)", uri.path()),
    )
    .into_response()
}

fn asset(path: &str) -> Response {
    match WEB.get_file(path) {
        Some(file) => {
            let mut response = file.contents().into_response();
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
        Some("wasm") => "application/wasm",
        Some("png") => "image/png",
        Some("ico") => "image/x-icon",
        _ => "application/octet-stream",
    }
}
