//! Transport-level refusals: a status code and the same `{ok:false, refused,
//! why}` shape the executor answers with; the strict JSON body extractor
//! whose rejections are such refusals; and the statuses the guard answers
//! before any handler, documented once for the OpenAPI document.

use crate::host::Failed;
use crate::strict::{self, Misfit};
use axum::Json;
use axum::body::Bytes;
use axum::extract::rejection::QueryRejection;
use axum::extract::{FromRequest, FromRequestParts, Query, Request};
use axum::http::StatusCode;
use axum::http::request::Parts;
use axum::response::{IntoResponse, Response};
use serde::de::DeserializeOwned;
use std::collections::BTreeMap;
use utoipa::openapi::{RefOr, ResponseBuilder};
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

/// A host thread that failed is the server's fault: a 500, `storage-failed`.
impl From<Failed> for ApiError {
    fn from(failed: Failed) -> ApiError {
        ApiError {
            status: StatusCode::INTERNAL_SERVER_ERROR,
            refusal: failed.refusal,
        }
    }
}

/// A body that does not fit its route is a 400: `unknown-field` for a field
/// the route does not take, `duplicate-key` for a key said twice in one
/// object, `malformed-body` for anything else (bad JSON, a
/// missing field, a wrong type, a value no variant has).
impl From<Misfit> for ApiError {
    fn from(misfit: Misfit) -> ApiError {
        let rule = match misfit {
            Misfit::UnknownField(_) => Rule::UnknownField,
            Misfit::DuplicateKey(_) => Rule::DuplicateKey,
            Misfit::Malformed(_) | Misfit::UnknownVariant(_) => Rule::MalformedBody,
        };
        ApiError::new(
            StatusCode::BAD_REQUEST,
            rule,
            format!("the body does not fit this route: {misfit}"),
        )
    }
}

/// A JSON body read strictly ([`crate::strict`]); handlers take it instead
/// of `Json<T>`, whose rejections are plain text and do not tell an unknown
/// field from bad JSON. The guard has already checked the content type and
/// capped the body.
pub(crate) struct StrictJson<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for StrictJson<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, ApiError> {
        let body = Bytes::from_request(request, state).await.map_err(|e| {
            ApiError::new(
                StatusCode::BAD_REQUEST,
                Rule::MalformedBody,
                format!("the body could not be read: {}", e.body_text()),
            )
        })?;
        Ok(StrictJson(strict::from_slice(&body)?))
    }
}

/// A query string read as `T`; handlers take it instead of `Query<T>`, so
/// a query that does not fit the route (an unknown or missing parameter, a
/// wrong type) is a 400 `malformed-field` refusal, not axum's plain text.
pub(crate) struct StrictQuery<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequestParts<S> for StrictQuery<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        let Query(query) = Query::from_request_parts(parts, state)
            .await
            .map_err(query_error)?;
        Ok(StrictQuery(query))
    }
}

fn query_error(rejection: QueryRejection) -> ApiError {
    ApiError::new(
        StatusCode::BAD_REQUEST,
        Rule::MalformedField,
        format!(
            "the query does not fit this route: {}",
            rejection.body_text()
        ),
    )
}

/// What the guard answers on every route before its handler: a foreign
/// `Host`, a declared body over the cap. Listed in a route's
/// `responses(...)` after its own statuses. (A header said twice is a 400
/// `duplicate-header` on every route; it is not listed here because an entry
/// here would replace the route's own 400 description.)
pub(crate) struct ReadGuard;

/// What the guard answers on every mutating route before its handler: a
/// foreign Host, Origin or token, an unsupported content type, a body over
/// the cap. A route whose own 403 says more lists it after this set (later
/// entries replace earlier ones).
pub(crate) struct WriteGuard;

/// [`ReadGuard`] and the 400 of a route whose only query misfit is its
/// shape (an unknown parameter). A route whose own 400 says more lists it
/// after this set.
pub(crate) struct ReadQuery;

/// [`WriteGuard`] and the 400 of a route whose only body misfit is its
/// shape (a malformed body or an unknown field). A route whose own 400 says
/// more lists it after this set.
pub(crate) struct WriteBody;

fn described(description: &str) -> RefOr<utoipa::openapi::Response> {
    ResponseBuilder::new()
        .description(description)
        .build()
        .into()
}

impl utoipa::IntoResponses for ReadGuard {
    fn responses() -> BTreeMap<String, RefOr<utoipa::openapi::Response>> {
        BTreeMap::from([
            (
                "401".into(),
                described("neither the page's session nor the host token (`no-authority`)"),
            ),
            (
                "403".into(),
                described("foreign Host, or a wrong host token (`foreign-host`, `bad-host-token`)"),
            ),
            (
                "413".into(),
                described("a declared body over the cap (`body-too-large`)"),
            ),
        ])
    }
}

impl utoipa::IntoResponses for WriteGuard {
    fn responses() -> BTreeMap<String, RefOr<utoipa::openapi::Response>> {
        BTreeMap::from([
            (
                "401".into(),
                described("neither the page's session nor the host token (`no-authority`)"),
            ),
            (
                "403".into(),
                described(
                    "foreign Host, the page's session from a foreign Origin, or a wrong host token (`foreign-host`, `foreign-origin`, `bad-host-token`)",
                ),
            ),
            (
                "408".into(),
                described("the body did not arrive in time (`body-timeout`)"),
            ),
            ("413".into(), described("body too large (`body-too-large`)")),
            (
                "415".into(),
                described("Content-Type is not application/json (`unsupported-content-type`)"),
            ),
        ])
    }
}

impl utoipa::IntoResponses for ReadQuery {
    fn responses() -> BTreeMap<String, RefOr<utoipa::openapi::Response>> {
        let mut responses = ReadGuard::responses();
        responses.insert("400".into(), described("unknown query parameter"));
        responses
    }
}

impl utoipa::IntoResponses for WriteBody {
    fn responses() -> BTreeMap<String, RefOr<utoipa::openapi::Response>> {
        let mut responses = WriteGuard::responses();
        responses.insert("400".into(), described("malformed body or unknown field"));
        responses
    }
}
