//! LLM resolvers: the sentence goes to a vendor's model with the core's
//! prompt and schema, and the answer comes back through the command list
//! ([`prompt::resolution`]).
//!
//! What differs between vendors (the request, where the answer sits in the
//! reply) is a [`Vendor`]; the rest — the key, the client and its timeout,
//! error bodies, and turning every [`Failure`] into an unresolved note — is
//! here, once. A failure never falls back to another resolver and never
//! invents an action; no note or log line carries the key.

mod anthropic;
mod gemini;
mod openai;

pub use anthropic::ANTHROPIC;
pub use gemini::GEMINI;
pub use openai::OPENAI;

use crate::models::setting;
use crate::provider::Provider;
use crate::state_dir::StateDir;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::time::Duration;
use voicebox_core::prompt;
use voicebox_core::resolver::{self, Folder, MAX_UTTERANCE_BYTES, Resolution};

/// How long one vendor call may take, unless `VOICEBOX_LLM_TIMEOUT_SECS` says otherwise.
const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);
const TIMEOUT_ENV: &str = "VOICEBOX_LLM_TIMEOUT_SECS";
/// The most of a vendor's message a note quotes.
const MAX_QUOTE_CHARS: usize = 300;

/// What differs between vendors.
pub(crate) struct Vendor {
    /// The vendor's name in notes.
    pub label: &'static str,
    /// Whose key it needs.
    pub provider: Provider,
    base_url_env: &'static str,
    default_base_url: &'static str,
    /// The model it asks (see [`crate::models`]).
    model: &'static crate::models::Use,
    /// The HTTP request that asks the model about one sentence.
    request: fn(&reqwest::Client, &Question<'_>) -> reqwest::RequestBuilder,
    /// The model's JSON answer out of a 2xx body, or why there is none.
    answer: fn(&[u8]) -> Result<Value, Failure>,
}

/// One question to a vendor.
struct Question<'a> {
    /// The base URL, without a trailing slash.
    base: &'a str,
    model: &'a str,
    key: &'a str,
    /// The system prompt (with the project's notes, when it has some).
    system: &'a str,
    text: &'a str,
}

/// The request `request` builds for "list files" to model `m-1` with key
/// `k` at `base`, and its JSON body: what each vendor's shape test reads.
#[cfg(test)]
fn sample_request(
    request: fn(&reqwest::Client, &Question<'_>) -> reqwest::RequestBuilder,
    base: &str,
) -> (reqwest::Request, Value) {
    let system = prompt::system_prompt();
    let call = Question {
        base,
        model: "m-1",
        key: "k",
        system: &system,
        text: "list files",
    };
    let request = request(&reqwest::Client::new(), &call).build().unwrap();
    let body = serde_json::from_slice(request.body().unwrap().as_bytes().unwrap()).unwrap();
    (request, body)
}

/// Why a vendor gave no action.
#[derive(Debug, PartialEq, Eq)]
enum Failure {
    NoKey,
    KeysUnreadable(String),
    Unreachable(String),
    Timeout,
    Status {
        code: u16,
        message: String,
    },
    NotJson(String),
    /// Refused, blocked, cut short or empty.
    NoAnswer(String),
}

impl Failure {
    /// A short name for logs, which carry no bodies.
    fn kind(&self) -> &'static str {
        match self {
            Failure::NoKey => "no-key",
            Failure::KeysUnreadable(_) => "keys-unreadable",
            Failure::Unreachable(_) => "unreachable",
            Failure::Timeout => "timeout",
            Failure::Status { .. } => "http-status",
            Failure::NotJson(_) => "not-json",
            Failure::NoAnswer(_) => "no-answer",
        }
    }

    /// The note a person reads: what went wrong and what to do about it.
    fn note(&self, vendor: &Vendor, base: &str, timeout: Duration) -> String {
        let label = vendor.label;
        let why = match self {
            Failure::NoKey => format!(
                "{label} isn't set up yet: add its key in Settings, or choose Built in there \
                 (on the server's computer, setting {} works too)",
                vendor.provider.key_env()
            ),
            Failure::KeysUnreadable(e) => format!("the stored keys cannot be read ({e})"),
            Failure::Unreachable(e) => format!("{label} could not be reached at {base}: {e}"),
            Failure::Timeout => format!(
                "{label} did not answer within {} s (set {TIMEOUT_ENV} to wait longer)",
                timeout.as_secs_f64()
            ),
            Failure::Status { code, message } => format!("{label} answered HTTP {code}: {message}"),
            Failure::NotJson(what) => format!("{label}'s answer is not JSON: {what}"),
            Failure::NoAnswer(why) => format!("{label} gave no answer: {why}"),
        };
        format!("{why}; nothing was done")
    }
}

/// The shared HTTP client (one connection pool) and its timeout.
pub(crate) struct Llm {
    client: reqwest::Client,
    timeout: Duration,
}

impl Llm {
    /// A client with the timeout from `VOICEBOX_LLM_TIMEOUT_SECS` (seconds,
    /// fractions allowed), else 30 s.
    pub(crate) fn from_env() -> Llm {
        let timeout = std::env::var(TIMEOUT_ENV)
            .ok()
            .and_then(|s| s.trim().parse::<f64>().ok())
            .and_then(|s| Duration::try_from_secs_f64(s).ok())
            .filter(|t| !t.is_zero())
            .unwrap_or(DEFAULT_TIMEOUT);
        let client = reqwest::Client::builder()
            .timeout(timeout)
            .build()
            .expect("the HTTP client builds (rustls, no native roots needed)");
        Llm { client, timeout }
    }

    /// Asks `vendor` what `text` means, showing it `folder`'s names (see
    /// [`prompt::question`]); every failure is an unresolved note.
    pub async fn resolve(
        &self,
        vendor: &Vendor,
        state: &StateDir,
        text: &str,
        folder: &Folder,
    ) -> Resolution {
        if text.len() > MAX_UTTERANCE_BYTES {
            // The script resolver's own "too long" note, so every resolver
            // says the same; nothing is sent.
            return resolver::resolve(text);
        }
        let base = setting(vendor.base_url_env, vendor.default_base_url);
        let base = base.trim_end_matches('/');
        let model = vendor.model.model();
        let key = match key(vendor, state) {
            Ok(key) => key,
            Err(failure) => return self.unresolved(vendor, base, &failure, ""),
        };
        let asked = prompt::question(text, folder);
        let system = prompt::system_for(folder);
        let call = Question {
            base,
            model: &model,
            key: &key,
            system: &system,
            text: &asked,
        };
        match self.ask(vendor, &call).await {
            Ok(answer) => prompt::resolution(&answer),
            Err(failure) => self.unresolved(vendor, base, &failure, &key),
        }
    }

    async fn ask(&self, vendor: &Vendor, call: &Question<'_>) -> Result<Value, Failure> {
        let response = (vendor.request)(&self.client, call)
            .send()
            .await
            .map_err(transport)?;
        let status = response.status();
        let body = response.bytes().await.map_err(transport)?;
        if !status.is_success() {
            return Err(Failure::Status {
                code: status.as_u16(),
                message: error_message(&body),
            });
        }
        (vendor.answer)(&body)
    }

    fn unresolved(&self, vendor: &Vendor, base: &str, failure: &Failure, key: &str) -> Resolution {
        let status = match failure {
            Failure::Status { code, .. } => Some(*code),
            _ => None,
        };
        tracing::warn!(
            vendor = vendor.provider.key_name(),
            failure = failure.kind(),
            status,
            "unresolved"
        );
        Resolution::Unresolved {
            note: redact(&failure.note(vendor, base, self.timeout), key),
        }
    }
}

/// Whether `vendor`'s key can be found, or the note that says how to set it.
pub(crate) fn key_ready(vendor: &Vendor, state: &StateDir) -> Result<(), String> {
    api_key(vendor, state).map(|_| ())
}

/// `vendor`'s key, found the way every resolver finds it (the live bridge
/// uses the same keys), or the note that says how to set it.
pub(crate) fn api_key(vendor: &Vendor, state: &StateDir) -> Result<String, String> {
    key(vendor, state)
        .map_err(|failure| failure.note(vendor, vendor.default_base_url, DEFAULT_TIMEOUT))
}

/// The stored key, else the environment's; a keys file that cannot be read
/// is a failure rather than a silent switch to another key.
fn key(vendor: &Vendor, state: &StateDir) -> Result<String, Failure> {
    let stored = state
        .keys()
        .map_err(|e| Failure::KeysUnreadable(e.to_string()))?;
    stored
        .get(vendor.provider.key_name())
        .cloned()
        .or_else(|| std::env::var(vendor.provider.key_env()).ok())
        .map(|k| k.trim().to_string())
        .filter(|k| !k.is_empty())
        .ok_or(Failure::NoKey)
}

fn transport(error: reqwest::Error) -> Failure {
    if error.is_timeout() {
        return Failure::Timeout;
    }
    let error = error.without_url();
    let mut words = error.to_string();
    let mut source = std::error::Error::source(&error);
    while let Some(cause) = source {
        words.push_str(": ");
        words.push_str(&cause.to_string());
        source = cause.source();
    }
    Failure::Unreachable(words)
}

/// All three vendors put a non-2xx reason at `error.message`.
#[derive(Deserialize)]
struct ErrorBody {
    error: ErrorDetail,
}

#[derive(Deserialize)]
struct ErrorDetail {
    message: String,
}

/// The vendor's own words for a non-2xx answer, or the start of the body.
fn error_message(body: &[u8]) -> String {
    match serde_json::from_slice::<ErrorBody>(body) {
        Ok(error) => quote(&error.error.message),
        Err(_) if body.is_empty() => "(empty body)".into(),
        Err(_) => format!("(not JSON) {}", quote(&String::from_utf8_lossy(body))),
    }
}

/// Parses a 2xx body as the vendor's response type.
fn parse_body<T: DeserializeOwned>(body: &[u8]) -> Result<T, Failure> {
    serde_json::from_slice(body)
        .map_err(|e| Failure::NotJson(format!("the reply does not fit the vendor's format ({e})")))
}

/// The model's answer text, which must itself be JSON.
fn model_json(text: &str) -> Result<Value, Failure> {
    if text.trim().is_empty() {
        return Err(Failure::NoAnswer("the answer is empty".into()));
    }
    serde_json::from_str(text)
        .map_err(|e| Failure::NotJson(format!("the model wrote `{}` ({e})", quote(text))))
}

/// A finish reason outside the vendor's `normal` ones means the answer was
/// refused, filtered or cut short: no action is read out of it.
fn finished(reason: Option<&str>, normal: &[&str], detail: Option<&str>) -> Result<(), Failure> {
    match reason {
        Some(reason) if !normal.contains(&reason) => Err(Failure::NoAnswer(match detail {
            Some(detail) => format!("it stopped with {reason}: {}", quote(detail)),
            None => format!("it stopped with {reason}"),
        })),
        _ => Ok(()),
    }
}

/// At most [`MAX_QUOTE_CHARS`] of `text`.
pub fn quote(text: &str) -> String {
    match text.char_indices().nth(MAX_QUOTE_CHARS) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_string(),
    }
}

/// `text` with every occurrence of `key` masked (a vendor may echo it).
pub(crate) fn redact(text: &str, key: &str) -> String {
    if key.is_empty() {
        text.to_string()
    } else {
        text.replace(key, "[key]")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_bodies_give_the_vendors_words_or_the_start_of_the_body() {
        let gemini =
            br#"{"error":{"code":400,"message":"API key not valid.","status":"INVALID_ARGUMENT"}}"#;
        assert_eq!(error_message(gemini), "API key not valid.");
        let anthropic =
            br#"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#;
        assert_eq!(error_message(anthropic), "Overloaded");
        assert_eq!(
            error_message(b"<html>bad gateway</html>"),
            "(not JSON) <html>bad gateway</html>"
        );
        assert_eq!(error_message(b""), "(empty body)");
        let long = "é".repeat(MAX_QUOTE_CHARS + 5);
        assert_eq!(quote(&long).chars().count(), MAX_QUOTE_CHARS + 1);
    }

    #[test]
    fn notes_never_carry_the_key() {
        let failure = Failure::Status {
            code: 401,
            message: "Incorrect API key provided: sk-secret-123".into(),
        };
        let note = redact(
            &failure.note(&OPENAI, "http://x", DEFAULT_TIMEOUT),
            "sk-secret-123",
        );
        assert!(
            !note.contains("sk-secret-123") && note.contains("401"),
            "{note}"
        );
    }

    #[test]
    fn unusual_finish_reasons_are_no_answer() {
        assert_eq!(finished(Some("STOP"), &["STOP"], None), Ok(()));
        assert_eq!(finished(None, &["STOP"], None), Ok(()));
        let safety = finished(Some("SAFETY"), &["STOP"], Some("unsafe")).unwrap_err();
        assert_eq!(
            safety,
            Failure::NoAnswer("it stopped with SAFETY: unsafe".into())
        );
    }

    #[test]
    fn answers_must_be_json() {
        assert_eq!(model_json(r#"{"verb":"undo"}"#).unwrap()["verb"], "undo");
        assert!(matches!(
            model_json("sure! here it is"),
            Err(Failure::NotJson(_))
        ));
        assert!(matches!(model_json("  "), Err(Failure::NoAnswer(_))));
    }
}
