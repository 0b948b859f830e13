//! What the person configures from the page or a script: provider keys
//! (stored in the state folder, shown masked) and the resolver in use.

use super::ApiError;
use super::api::Answer;
use super::error::{ReadGuard, StrictJson, WriteGuard};
use crate::provider::Provider;
use crate::resolve::{Resolver, Words};
use crate::state_dir::StateDir;
use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use serde::Deserialize;
use serde_json::json;
use std::collections::BTreeMap;
use std::sync::Arc;
use utoipa::ToSchema;
use voicebox_core::Rule;

fn key_status(state: &StateDir) -> Answer {
    let keys = state.key_status().map_err(|e| {
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            Rule::StorageFailed,
            format!("the keys file cannot be read: {e}"),
        )
    })?;
    Ok(Json(json!({"ok": true, "keys": keys})))
}

/// Which provider keys are set (masked: set or not, and the last 4 characters).
#[utoipa::path(get, path = "/api/keys",
    responses(
        (status = 200, description = "`{ok, keys: {gemini, openai, anthropic: {set, last4?}}}`", body = Object),
        ReadGuard,
        (status = 500, description = "the keys file cannot be read"),
    ))]
pub async fn keys(State(state): State<StateDir>) -> Answer {
    key_status(&state)
}

/// Keys to store (a string) or remove (`null` or `""`).
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct KeysRequest {
    keys: KeyChanges,
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
struct KeyChanges {
    #[serde(default, deserialize_with = "present")]
    gemini: Option<Option<String>>,
    #[serde(default, deserialize_with = "present")]
    openai: Option<Option<String>>,
    #[serde(default, deserialize_with = "present")]
    anthropic: Option<Option<String>>,
}

/// Tells an absent field (`None`) from an explicit `null` (`Some(None)`).
fn present<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Option<String>>, D::Error> {
    Option::<String>::deserialize(d).map(Some)
}

/// Store or remove provider keys (mode 0600, in the state folder, never in a root).
#[utoipa::path(put, path = "/api/keys", request_body = KeysRequest,
    responses(
        (status = 200, description = "the masked status after the change", body = Object),
        (status = 400, description = "malformed body or unknown provider"),
        WriteGuard,
        (status = 500, description = "the keys file cannot be written"),
    ))]
pub async fn put_keys(
    State(state): State<StateDir>,
    StrictJson(request): StrictJson<KeysRequest>,
) -> Answer {
    let changes: BTreeMap<Provider, Option<String>> = [
        (Provider::Gemini, request.keys.gemini),
        (Provider::Openai, request.keys.openai),
        (Provider::Anthropic, request.keys.anthropic),
    ]
    .into_iter()
    .filter_map(|(provider, change)| change.map(|value| (provider, value)))
    .collect();
    state.update_keys(&changes).map_err(|e| {
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            Rule::StorageFailed,
            format!("the keys file cannot be written: {e}"),
        )
    })?;
    tracing::info!(providers = ?changes.keys().map(|p| p.key_name()).collect::<Vec<_>>(), "keys changed");
    key_status(&state)
}

/// Settings the page may change.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SettingsRequest {
    /// `script`, `gemini`, `openai` or `claude`.
    #[schema(pattern = "^(script|gemini|openai|claude)$")]
    resolver: String,
}

/// Choose how words become actions; the choice is saved in the state folder
/// and used at the next start unless `--resolver` names another. An LLM
/// resolver without its key answers turns `key-missing`, saying so.
#[utoipa::path(put, path = "/api/settings", request_body = SettingsRequest,
    responses(
        (status = 200, description = "`{ok, resolver, ready, why?}`: the resolver now used, and whether its key is set", body = Object),
        (status = 400, description = "malformed body, unknown field or unknown resolver"),
        WriteGuard,
    ))]
pub async fn settings(
    State(words): State<Arc<Words>>,
    State(state): State<StateDir>,
    StrictJson(request): StrictJson<SettingsRequest>,
) -> Answer {
    let resolver =
        <Resolver as clap::ValueEnum>::from_str(&request.resolver, true).map_err(|_| {
            ApiError::new(
                StatusCode::BAD_REQUEST,
                Rule::MalformedField,
                format!(
                    "{:?} is not a resolver; choose script, gemini, openai or claude",
                    request.resolver
                ),
            )
        })?;
    let ready = words.choose(resolver);
    if let Err(e) = state.save_resolver(resolver) {
        tracing::warn!(error = %e, "the resolver setting could not be saved; it holds until the server stops");
    }
    Ok(Json(
        json!({"ok": true, "resolver": resolver.name(), "ready": ready.is_ok(), "why": ready.err()}),
    ))
}
