//! What every live provider provides: a [`LiveVendor`] turns the session's
//! intents into the provider's messages and the provider's messages into
//! [`Event`]s. It does no I/O, so the session state machine and the bridge
//! are the same for every provider.

use super::tools::{Answered, Call};
use serde_json::Value;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::handshake::client::Request;
use tokio_tungstenite::tungstenite::http::HeaderValue;

/// The remote providers speak PCM16 LE mono at 24 kHz to the page.
pub(crate) const OUTPUT_RATE: u32 = 24_000;

/// One provider's wire format.
pub(crate) trait LiveVendor: Send + Sync {
    /// The upstream WebSocket request, authenticated with `key`.
    fn request(&self, key: &str) -> Result<Request, String>;
    /// The session's configuration, sent right after connecting, with the
    /// model's system instruction (see [`super::tools::instruction`]).
    fn opening(&self, instruction: &str) -> Value;
    /// One validated frame of the page's PCM.
    fn audio(&self, pcm: &[u8]) -> Value;
    /// The person interrupted: stop the current answer.
    fn interrupt(&self) -> Value;
    /// The person typed `text` into the session: one user turn.
    fn text(&self, text: &str) -> Vec<Value>;
    /// The answers to one batch of calls, in the order they are sent.
    fn answers(&self, batch: &[Answered]) -> Vec<Value>;
    /// What one upstream message means (vendors that assemble a batch over
    /// several messages keep state).
    fn read(&mut self, message: &Value) -> Vec<Event>;
}

/// What an upstream message means to the session.
#[derive(Debug, PartialEq)]
pub enum Event {
    /// The provider acknowledged the configuration.
    Ready,
    /// Model speech, PCM16 at [`OUTPUT_RATE`].
    Audio(Vec<u8>),
    Transcript {
        who: Who,
        text: String,
    },
    /// Barge-in: the page should drop the speech it has queued.
    Interrupted,
    /// One batch of tool calls, each to be answered by its id.
    Calls(Vec<Call>),
    /// The provider withdrew these calls.
    Cancelled(Vec<String>),
    /// The provider will close soon (time left, as it says it).
    GoAway(String),
    /// The provider reported an error in words.
    Error(String),
    /// Words for the page to speak (the local provider's answer).
    Reply(String),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Who {
    Person,
    Model,
}

impl Who {
    pub fn wire(self) -> &'static str {
        match self {
            Who::Person => "person",
            Who::Model => "model",
        }
    }
}

/// A client request for `url` with one auth header; the key travels only
/// there, never in the URL (which errors and logs may quote).
pub(crate) fn authorised(url: &str, header: &'static str, value: &str) -> Result<Request, String> {
    let mut request = url
        .into_client_request()
        .map_err(|e| format!("the live URL `{url}` cannot be used: {e}"))?;
    let value = HeaderValue::from_str(value)
        .map_err(|_| "the API key has characters a header cannot carry".to_string())?;
    request.headers_mut().insert(header, value);
    Ok(request)
}

/// Standard base64, as both providers carry audio in JSON.
pub fn base64(bytes: &[u8]) -> String {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// Decoded base64 audio; audio that does not decode is dropped.
pub fn unbase64(text: &str) -> Option<Vec<u8>> {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD.decode(text).ok()
}
