//! The voice and model a person chose for each remote live provider: what
//! each provider offers (from its published wire format: OpenAI Realtime's
//! `audio.output.voice`, Gemini Live's prebuilt voice names), the
//! choice kept in the state folder, and the check that refuses a voice or
//! model the provider does not offer before any paid session opens.

use super::Provider;
use crate::models;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use voicebox_core::{Refusal, Rule};

/// What one remote provider offers (the first model is the default).
pub struct Offer {
    pub voices: &'static [&'static str],
    pub models: &'static [&'static str],
}

/// OpenAI Realtime's voices (`audio.output.voice`) and realtime models (`?model=`).
const OPENAI: Offer = Offer {
    voices: &[
        "marin", "cedar", "alloy", "ash", "ballad", "coral", "echo", "sage", "shimmer", "verse",
    ],
    models: &[
        models::OPENAI_LIVE.default,
        "gpt-realtime",
        "gpt-realtime-2025-08-28",
    ],
};

/// Gemini Live's prebuilt voices (`speechConfig…voiceName`) and live models (`setup.model`).
const GEMINI: Offer = Offer {
    voices: &[
        "Puck", "Charon", "Kore", "Fenrir", "Aoede", "Leda", "Orus", "Zephyr",
    ],
    models: &[models::GEMINI_LIVE.default, "gemini-3.1-flash-live-preview"],
};

impl Provider {
    /// The model a session uses when the person chose none.
    fn default_model(self) -> String {
        match self {
            Provider::Openai => models::OPENAI_LIVE.model(),
            Provider::Gemini | Provider::Local | Provider::Whisper => models::GEMINI_LIVE.model(),
        }
    }

    /// The models a person may choose: the one the server runs by default
    /// (its setting may name one of its own), then the ones offered.
    fn models(self) -> Vec<String> {
        let mut models = vec![self.default_model()];
        for model in self.offer().map_or(&[][..], |offer| offer.models) {
            if !models.iter().any(|m| m == model) {
                models.push(model.to_string());
            }
        }
        models
    }

    /// What the provider lets a person choose; the offline ones speak with
    /// the browser's own voice and offer nothing here.
    pub fn offer(self) -> Option<&'static Offer> {
        match self {
            Provider::Openai => Some(&OPENAI),
            Provider::Gemini => Some(&GEMINI),
            Provider::Local | Provider::Whisper => None,
        }
    }
}

/// A person's choice for one provider; an absent field is the default.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Choice {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub voice: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
}

impl Choice {
    /// This choice if `provider` offers it; `malformed-field` naming what it
    /// does offer otherwise.
    pub fn checked(self, provider: Provider) -> Result<Choice, Refusal> {
        let Some(offer) = provider.offer() else {
            return match self == Choice::default() {
                true => Ok(self),
                false => Err(Refusal::new(
                    Rule::MalformedField,
                    format!(
                        "the {} provider speaks with the browser's voice and has no voice or model to choose",
                        provider.name()
                    ),
                )),
            };
        };
        let offered = |what: &str, chosen: &Option<String>, list: &[&str]| match chosen {
            Some(name) if !list.contains(&name.as_str()) => Err(Refusal::new(
                Rule::MalformedField,
                format!(
                    "{name:?} is not a {what} {} offers; choose one of: {}",
                    provider.label(),
                    list.join(", ")
                ),
            )),
            _ => Ok(()),
        };
        offered("voice", &self.voice, offer.voices)?;
        let models = provider.models();
        let models: Vec<&str> = models.iter().map(String::as_str).collect();
        offered("model", &self.model, &models)?;
        Ok(self)
    }
}

/// Every remote provider's offer and the choice in force, for the page.
pub fn offers(chosen: impl Fn(Provider) -> Choice) -> Value {
    let each = [Provider::Gemini, Provider::Openai].map(|provider| {
        let offer = provider.offer().expect("a remote provider offers");
        let choice = chosen(provider);
        json!({
            "provider": provider.name(),
            "voices": offer.voices,
            "models": provider.models(),
            // No voice chosen is the model's own; the model in force is
            // the chosen one, else the server's (its setting or default).
            "voice": choice.voice,
            "model": choice.model.unwrap_or_else(|| provider.default_model()),
        })
    });
    Value::Array(each.into())
}
