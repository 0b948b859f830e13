//! The script resolver: deterministic, zero-key, text → one action or `unresolved`.

use crate::action::Action;
use alloc::string::String;
use serde::Serialize;

/// What a resolver made of an utterance.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Resolution {
    /// The one action the utterance asks for.
    Action(Action),
    /// No action: the note says why, in words a person can act on.
    Unresolved { note: String },
}

/// Resolves one utterance.
pub fn resolve(text: &str) -> Resolution {
    let _ = text;
    Resolution::Unresolved {
        note: "not implemented".into(),
    }
}
