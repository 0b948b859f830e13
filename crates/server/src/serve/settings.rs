//! What the person configures from the page or a script: provider keys
//! (stored in the state folder, shown masked) and the resolver in use.

use super::ApiError;
use super::answer::Answer;
use super::error::{ReadGuard, StrictJson, WriteGuard};
use crate::host::resolve::{Resolver, Words};
use crate::live::{Choice, Provider};
use crate::provider::Provider as KeyProvider;
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
pub(crate) struct KeysRequest {
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
pub(crate) async fn put_keys(
    State(state): State<StateDir>,
    StrictJson(request): StrictJson<KeysRequest>,
) -> Answer {
    let changes: BTreeMap<KeyProvider, Option<String>> = [
        (KeyProvider::Gemini, request.keys.gemini),
        (KeyProvider::Openai, request.keys.openai),
        (KeyProvider::Anthropic, request.keys.anthropic),
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

/// Settings the page may change: the resolver, or one live provider's voice
/// and model (or both at once).
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct SettingsRequest {
    /// `script`, `gemini`, `openai` or `claude`.
    #[schema(pattern = "^(script|gemini|openai|claude)$")]
    resolver: Option<String>,
    /// `{provider, voice?, model?}` for `gemini` or `openai`.
    #[schema(value_type = Option<Object>)]
    live: Option<LiveSetting>,
}

/// One remote live provider's voice and model; an absent one is its default.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LiveSetting {
    provider: String,
    #[serde(flatten)]
    choice: Choice,
}

fn bad_field(why: String) -> ApiError {
    ApiError::new(StatusCode::BAD_REQUEST, Rule::MalformedField, why)
}

/// Choose how words become actions, or a live provider's voice and model.
/// Each choice is saved in the state folder: the resolver is used at the
/// next start unless `--resolver` names another, and the voice and model
/// at every live session's setup. An LLM resolver without its key answers
/// turns `key-missing`, saying so; a voice or model the provider does not
/// offer is refused here, before any session opens.
#[utoipa::path(put, path = "/api/settings", request_body = SettingsRequest,
    responses(
        (status = 200, description = "`{ok, resolver, ready, why?, live}`: the resolver now used, whether its key is set, and every live provider's voices and models with the choice in force", body = Object),
        (status = 400, description = "malformed body, unknown field, neither field, an unknown resolver, or a voice or model the provider does not offer (`malformed-field`, naming what it offers)"),
        WriteGuard,
    ))]
pub async fn settings(
    State(words): State<Arc<Words>>,
    State(state): State<StateDir>,
    StrictJson(request): StrictJson<SettingsRequest>,
) -> Answer {
    if request.resolver.is_none() && request.live.is_none() {
        return Err(bad_field(
            "send {\"resolver\"} or {\"live\": {\"provider\", \"voice\", \"model\"}}".into(),
        ));
    }
    // Every part is checked before anything is saved.
    let resolver = request
        .resolver
        .map(|name| {
            <Resolver as clap::ValueEnum>::from_str(&name, true).map_err(|_| {
                bad_field(format!(
                    "{name:?} is not a resolver; choose script, gemini, openai or claude"
                ))
            })
        })
        .transpose()?;
    let live = request
        .live
        .map(|setting| {
            let provider = <Provider as clap::ValueEnum>::from_str(&setting.provider, true)
                .map_err(|_| {
                    bad_field(format!(
                        "{:?} is not a live provider; choose gemini or openai",
                        setting.provider
                    ))
                })?;
            let choice = setting
                .choice
                .checked(provider)
                .map_err(|refusal| bad_field(refusal.why))?;
            Ok::<_, ApiError>((provider, choice))
        })
        .transpose()?;
    if let Some((provider, choice)) = live
        && let Err(e) = state.save_live_choice(provider, choice)
    {
        return Err(ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            Rule::StorageFailed,
            format!("the live voice choice could not be saved: {e}"),
        ));
    }
    let ready = match resolver {
        Some(resolver) => {
            let ready = words.choose(resolver);
            if let Err(e) = state.save_resolver(resolver) {
                tracing::warn!(error = %e, "the resolver setting could not be saved; it holds until the server stops");
            }
            ready
        }
        None => words.ready().map_err(|refusal| refusal.why),
    };
    let settings = state.settings();
    Ok(Json(json!({
        "ok": true,
        "resolver": words.resolver().name(),
        "ready": ready.is_ok(),
        "why": ready.err(),
        "live": crate::live::offers(|p| settings.live_choice(p)),
    })))
}
