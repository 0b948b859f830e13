//! Gemini Live (`BidiGenerateContent`, v1beta): `setup` first, audio up as
//! base64 PCM at 16 kHz, `toolCall` answered by one `toolResponse` per batch.
//! Server frames may arrive as text or binary; the bridge reads both.

use super::choice::Choice;
use super::tools::{self, Answered, Call};
use super::vendor::{Event, LiveVendor, Who, authorised, base64, unbase64};
use crate::models::setting;
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::handshake::client::Request;

const URL_ENV: &str = "VOICEBOX_GEMINI_LIVE_URL";
const DEFAULT_URL: &str = "wss://generativelanguage.googleapis.com/ws/google.ai.generativelanguage.v1beta.GenerativeService.BidiGenerateContent";
pub(crate) const RATE: u32 = 16_000;

pub struct Gemini {
    url: String,
    /// The model's resource name, `models/...`.
    model: String,
    /// The prebuilt voice chosen, if any (else the model's own).
    voice: Option<String>,
}

impl Gemini {
    /// The endpoint from the environment, with the person's `choice` of
    /// voice and model (else the model the environment or the default names).
    pub(crate) fn from_env(choice: &Choice) -> Gemini {
        let model = choice
            .model
            .clone()
            .unwrap_or_else(|| crate::models::GEMINI_LIVE.model());
        let model = if model.starts_with("models/") {
            model
        } else {
            format!("models/{model}")
        };
        Gemini {
            url: setting(URL_ENV, DEFAULT_URL),
            model,
            voice: choice.voice.clone(),
        }
    }
}

impl LiveVendor for Gemini {
    /// The key goes in `x-goog-api-key` (as python-genai sends it), not `?key=`.
    fn request(&self, key: &str) -> Result<Request, String> {
        authorised(&self.url, "x-goog-api-key", key)
    }

    /// Function declarations use `parametersJsonSchema`, so object fields
    /// (an extension descriptor, tool arguments) can be objects: Gemini's own
    /// schema refuses an OBJECT without properties.
    fn opening(&self, instruction: &str) -> Value {
        let declarations: Vec<Value> = tools::declarations()
            .into_iter()
            .map(|d| json!({"name": d.name, "description": d.description, "parametersJsonSchema": d.parameters}))
            .collect();
        let mut generation = json!({"responseModalities": ["AUDIO"]});
        if let Some(voice) = &self.voice {
            generation["speechConfig"] =
                json!({"voiceConfig": {"prebuiltVoiceConfig": {"voiceName": voice}}});
        }
        json!({"setup": {
            "model": self.model,
            "generationConfig": generation,
            "systemInstruction": {"parts": [{"text": instruction}]},
            "tools": [{"functionDeclarations": declarations}],
            "inputAudioTranscription": {},
            "outputAudioTranscription": {},
        }})
    }

    fn audio(&self, pcm: &[u8]) -> Value {
        json!({"realtimeInput": {"audio": {"mimeType": "audio/pcm;rate=16000", "data": base64(pcm)}}})
    }

    /// Any `clientContent` interrupts the current generation; with no turns
    /// and `turnComplete: false` it adds nothing and asks for nothing.
    fn interrupt(&self) -> Value {
        json!({"clientContent": {"turnComplete": false}})
    }

    /// A typed turn is client content that completes the turn, so the model answers.
    fn text(&self, text: &str) -> Vec<Value> {
        vec![
            json!({"clientContent": {"turns": [{"role": "user", "parts": [{"text": text}]}], "turnComplete": true}}),
        ]
    }

    /// One `toolResponse` for the whole batch; a refusal goes under
    /// `error`, anything else under `output` (`response` must be an object).
    fn answers(&self, batch: &[Answered]) -> Vec<Value> {
        let responses: Vec<Value> = batch
            .iter()
            .map(|answered| {
                let key = if answered.is_refusal() {
                    "error"
                } else {
                    "output"
                };
                json!({"id": answered.call.id, "name": answered.call.name, "response": {key: answered.for_model()}})
            })
            .collect();
        vec![json!({"toolResponse": {"functionResponses": responses}})]
    }

    fn read(&mut self, message: &Value) -> Vec<Event> {
        let mut events = Vec::new();
        if message.get("setupComplete").is_some() {
            events.push(Event::Ready);
        }
        if let Some(content) = message.get("serverContent") {
            server_content(content, &mut events);
        }
        if let Some(calls) = message.pointer("/toolCall/functionCalls") {
            events.push(Event::Calls(function_calls(calls)));
        }
        if let Some(ids) = message.pointer("/toolCallCancellation/ids") {
            let ids = ids.as_array().into_iter().flatten();
            events.push(Event::Cancelled(
                ids.filter_map(Value::as_str).map(String::from).collect(),
            ));
        }
        if let Some(away) = message.get("goAway") {
            let left = away["timeLeft"].as_str().unwrap_or("a short while");
            events.push(Event::GoAway(left.to_string()));
        }
        events
    }
}

/// Model audio and text, both transcripts, and barge-in.
fn server_content(content: &Value, events: &mut Vec<Event>) {
    let parts = content
        .pointer("/modelTurn/parts")
        .and_then(Value::as_array);
    for part in parts.into_iter().flatten() {
        if let Some(pcm) = part.pointer("/inlineData/data").and_then(Value::as_str) {
            events.extend(unbase64(pcm).map(Event::Audio));
        }
        if let Some(text) = part["text"].as_str()
            && part["thought"] != true
        {
            events.push(transcript(Who::Model, text));
        }
    }
    for (key, who) in [
        ("inputTranscription", Who::Person),
        ("outputTranscription", Who::Model),
    ] {
        if let Some(text) = content
            .pointer(&format!("/{key}/text"))
            .and_then(Value::as_str)
        {
            events.push(transcript(who, text));
        }
    }
    if content["interrupted"] == true {
        events.push(Event::Interrupted);
    }
}

fn transcript(who: Who, text: &str) -> Event {
    Event::Transcript {
        who,
        text: text.to_string(),
    }
}

/// `args` is already an object (absent for a call with no arguments).
fn function_calls(calls: &Value) -> Vec<Call> {
    calls
        .as_array()
        .into_iter()
        .flatten()
        .map(|call| {
            Call::sent(
                call["id"].as_str().unwrap_or_default(),
                call["name"].as_str().unwrap_or_default(),
                call.get("args").cloned().unwrap_or(Value::Null),
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn server_messages_become_events() {
        let mut gemini = Gemini::from_env(&Choice::default());
        assert_eq!(
            gemini.read(&json!({"setupComplete": {"sessionId": "s"}})),
            [Event::Ready]
        );
        let turn = json!({"serverContent": {"modelTurn": {"parts": [
            {"inlineData": {"mimeType": "audio/pcm;rate=24000", "data": "AQID"}},
            {"text": "thinking", "thought": true}, {"text": "Done."}
        ]}, "outputTranscription": {"text": " done"}, "interrupted": true}, "usageMetadata": {}});
        assert_eq!(
            gemini.read(&turn),
            [
                Event::Audio(vec![1, 2, 3]),
                transcript(Who::Model, "Done."),
                transcript(Who::Model, " done"),
                Event::Interrupted
            ]
        );
        let calls = json!({"toolCall": {"functionCalls": [{"id": "a", "name": "undo"}]}});
        assert_eq!(
            gemini.read(&calls),
            [Event::Calls(vec![Call::sent("a", "undo", Value::Null)])]
        );
        assert_eq!(
            gemini.read(&json!({"goAway": {"timeLeft": "10s"}})),
            [Event::GoAway("10s".into())]
        );
        assert!(
            gemini
                .read(&json!({"sessionResumptionUpdate": {}}))
                .is_empty()
        );
    }
}
