//! Transport-level refusals: a status code and the same `{ok:false, refused,
//! why}` shape the executor answers with.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use voicebox_core::{Refusal, Reply, Rule};

/// A refusal answered with an HTTP status other than 200.
#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub refusal: Refusal,
}

impl ApiError {
    pub fn new(status: StatusCode, rule: Rule, why: impl Into<String>) -> ApiError {
        ApiError {
            status,
            refusal: Refusal::new(rule, why),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, Json(Reply::refusal(self.refusal))).into_response()
    }
}
