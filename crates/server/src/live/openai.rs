//! OpenAI Realtime (GA): `session.update` with function tools and server
//! VAD, audio up as base64 PCM at 24 kHz. A response's function calls are
//! gathered until `response.done`, then answered as one batch: one
//! `function_call_output` item per `call_id`, then exactly one
//! `response.create`. The beta event names and the beta
//! `function_call_arguments.done` without `name` are read too.

use super::choice::Choice;
use super::tools::{self, Answered, Call};
use super::vendor::{Event, LiveVendor, Who, authorised, base64, unbase64};
use crate::models;
use crate::models::setting;
use serde_json::{Value, json};
use std::collections::HashMap;
use tokio_tungstenite::tungstenite::handshake::client::Request;

const URL_ENV: &str = "VOICEBOX_OPENAI_REALTIME_URL";
const DEFAULT_URL: &str = "wss://api.openai.com/v1/realtime";
pub(crate) const RATE: u32 = 24_000;

pub(crate) struct OpenAi {
    url: String,
    model: String,
    /// The voice chosen, if any (else the model's own).
    voice: Option<String>,
    /// The calls of the response in progress, in the order they completed.
    calls: Vec<Call>,
    /// Function names by `call_id`, from `response.output_item.added`
    /// (beta argument events carry no name).
    names: HashMap<String, String>,
}

impl OpenAi {
    /// The endpoint from the environment, with the person's `choice` of
    /// voice and model (else the model the environment or the default names).
    pub(crate) fn from_env(choice: &Choice) -> OpenAi {
        OpenAi {
            url: setting(URL_ENV, DEFAULT_URL),
            model: choice
                .model
                .clone()
                .unwrap_or_else(|| models::OPENAI_LIVE.model()),
            voice: choice.voice.clone(),
            calls: Vec::new(),
            names: HashMap::new(),
        }
    }

    /// Adds a completed call unless it is already in the batch.
    fn gather(&mut self, call_id: &str, name: Option<&str>, arguments: &Value) {
        if self.calls.iter().any(|c| c.id == call_id) {
            return;
        }
        let name = name
            .filter(|n| !n.is_empty())
            .or_else(|| self.names.get(call_id).map(String::as_str))
            .unwrap_or_default()
            .to_string();
        self.calls
            .push(Call::sent(call_id, name, parse_arguments(arguments)));
    }

    /// At `response.done`: calls only listed in its output join the batch,
    /// and the batch is handed over.
    fn finish(&mut self, response: &Value) -> Vec<Event> {
        let items = response["output"].as_array().into_iter().flatten();
        for item in items.filter(|i| i["type"] == "function_call") {
            if let Some(call_id) = item["call_id"].as_str() {
                self.gather(call_id, item["name"].as_str(), &item["arguments"]);
            }
        }
        self.names.clear();
        if self.calls.is_empty() {
            Vec::new()
        } else {
            vec![Event::Calls(std::mem::take(&mut self.calls))]
        }
    }
}

/// `arguments` is a JSON string; text that is not JSON is kept as a string
/// (and refused as not an object).
fn parse_arguments(arguments: &Value) -> Value {
    match arguments {
        Value::String(text) if text.trim().is_empty() => Value::Null,
        Value::String(text) => serde_json::from_str(text).unwrap_or_else(|_| arguments.clone()),
        other => other.clone(),
    }
}

impl LiveVendor for OpenAi {
    /// GA: the bearer key only, no `OpenAI-Beta` header.
    fn request(&self, key: &str) -> Result<Request, String> {
        let separator = if self.url.contains('?') { '&' } else { '?' };
        let url = format!("{}{separator}model={}", self.url, self.model);
        authorised(&url, "authorization", &format!("Bearer {key}"))
    }

    fn opening(&self, instruction: &str) -> Value {
        let tools: Vec<Value> = tools::declarations()
            .into_iter()
            .map(|d| json!({"type": "function", "name": d.name, "description": d.description, "parameters": d.parameters}))
            .collect();
        let format = json!({"type": "audio/pcm", "rate": RATE});
        let mut output = json!({"format": format});
        if let Some(voice) = &self.voice {
            output["voice"] = json!(voice);
        }
        json!({"type": "session.update", "session": {
            "type": "realtime",
            "output_modalities": ["audio"],
            "instructions": instruction,
            "audio": {
                "input": {
                    "format": format,
                    "transcription": {"model": models::OPENAI_LIVE_TRANSCRIPTION.default},
                    "turn_detection": {"type": "server_vad", "create_response": true, "interrupt_response": true},
                },
                "output": output,
            },
            "tools": tools,
            "tool_choice": "auto",
        }})
    }

    fn audio(&self, pcm: &[u8]) -> Value {
        json!({"type": "input_audio_buffer.append", "audio": base64(pcm)})
    }

    fn interrupt(&self) -> Value {
        json!({"type": "response.cancel"})
    }

    /// A typed turn: a user message item, then one response to it.
    fn text(&self, text: &str) -> Vec<Value> {
        vec![
            json!({"type": "conversation.item.create", "item": {"type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]}}),
            json!({"type": "response.create"}),
        ]
    }

    /// `output` must be a string: the model's view of the result, as JSON.
    fn answers(&self, batch: &[Answered]) -> Vec<Value> {
        let mut messages: Vec<Value> = batch
            .iter()
            .map(|answered| {
                json!({"type": "conversation.item.create", "item": {
                    "type": "function_call_output",
                    "call_id": answered.call.id,
                    "output": answered.for_model().to_string(),
                }})
            })
            .collect();
        messages.push(json!({"type": "response.create"}));
        messages
    }

    fn read(&mut self, message: &Value) -> Vec<Event> {
        let text = |who| {
            let text = message["delta"]
                .as_str()
                .or_else(|| message["transcript"].as_str());
            text.map(|text| Event::Transcript {
                who,
                text: text.to_string(),
            })
        };
        match message["type"].as_str().unwrap_or_default() {
            "session.updated" => vec![Event::Ready],
            "response.output_audio.delta" | "response.audio.delta" => message["delta"]
                .as_str()
                .and_then(unbase64)
                .map(Event::Audio)
                .into_iter()
                .collect(),
            "response.output_audio_transcript.delta"
            | "response.audio_transcript.delta"
            | "response.output_text.delta"
            | "response.text.delta" => text(Who::Model).into_iter().collect(),
            "conversation.item.input_audio_transcription.completed" => {
                text(Who::Person).into_iter().collect()
            }
            "input_audio_buffer.speech_started" => vec![Event::Interrupted],
            "response.output_item.added" | "response.output_item.done" => {
                let item = &message["item"];
                if let (Some(call_id), Some(name)) =
                    (item["call_id"].as_str(), item["name"].as_str())
                {
                    self.names.insert(call_id.to_string(), name.to_string());
                }
                Vec::new()
            }
            "response.function_call_arguments.done" => {
                if let Some(call_id) = message["call_id"].as_str() {
                    self.gather(call_id, message["name"].as_str(), &message["arguments"]);
                }
                Vec::new()
            }
            "response.done" => self.finish(&message["response"]),
            "error" => {
                let error = &message["error"];
                let words = error["message"]
                    .as_str()
                    .unwrap_or("an error without words");
                let why = match error["code"].as_str() {
                    Some(code) => format!("{words} ({code})"),
                    None => words.to_string(),
                };
                vec![Event::Error(why)]
            }
            _ => Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calls_are_gathered_until_the_response_is_done() {
        let mut openai = OpenAi::from_env(&Choice::default());
        // Beta shape: the name comes from the output item.
        let added = json!({"type": "response.output_item.added", "item": {"type": "function_call", "call_id": "c1", "name": "read"}});
        assert!(openai.read(&added).is_empty());
        let done = json!({"type": "response.function_call_arguments.done", "call_id": "c1", "arguments": "{\"name\":\"a.txt\"}"});
        assert!(openai.read(&done).is_empty());
        // A call only listed in response.done joins; c1 is not repeated.
        let finished = json!({"type": "response.done", "response": {"status": "completed", "output": [
            {"type": "function_call", "call_id": "c1", "name": "read", "arguments": "{\"name\":\"a.txt\"}"},
            {"type": "function_call", "call_id": "c2", "name": "undo", "arguments": ""},
            {"type": "message", "content": []}
        ]}});
        let events = openai.read(&finished);
        let [Event::Calls(calls)] = events.as_slice() else {
            panic!("{events:?}");
        };
        let seen: Vec<(&str, &str, &Value)> = calls
            .iter()
            .map(|c| (c.id.as_str(), c.name.as_str(), &c.args))
            .collect();
        assert_eq!(
            seen,
            [
                ("c1", "read", &json!({"name": "a.txt"})),
                ("c2", "undo", &Value::Null)
            ]
        );
        assert!(
            openai
                .read(&json!({"type": "response.done", "response": {"output": []}}))
                .is_empty()
        );
    }

    #[test]
    fn errors_audio_and_transcripts_in_both_namings() {
        let mut openai = OpenAi::from_env(&Choice::default());
        let error = json!({"type": "error", "error": {"type": "invalid_request_error", "code": "missing_required_parameter", "message": "Missing required parameter: 'session.type'."}});
        assert_eq!(
            openai.read(&error),
            [Event::Error(
                "Missing required parameter: 'session.type'. (missing_required_parameter)".into()
            )]
        );
        for kind in ["response.output_audio.delta", "response.audio.delta"] {
            assert_eq!(
                openai.read(&json!({"type": kind, "delta": "AQID"})),
                [Event::Audio(vec![1, 2, 3])]
            );
        }
        let person = json!({"type": "conversation.item.input_audio_transcription.completed", "transcript": "hi"});
        assert_eq!(
            openai.read(&person),
            [Event::Transcript {
                who: Who::Person,
                text: "hi".into()
            }]
        );
    }
}
