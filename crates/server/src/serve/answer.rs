//! What a route answers: JSON, or a refusal with its status.

use super::ApiError;
use axum::Json;
use serde_json::{Value, json};

pub type Answer = Result<Json<Value>, ApiError>;

/// A route's `{result}` answer: what an act (or a refusal before any act) came to.
pub fn result(result: impl serde::Serialize) -> Answer {
    Ok(Json(json!({ "result": result })))
}
