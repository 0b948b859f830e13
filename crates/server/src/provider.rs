//! The vendors whose API keys this host keeps. Each has one name, used by
//! the keys file, `GET`/`PUT /api/keys`, the notes that say which key to
//! set, and the REST resolvers and live voice that read the key; and one
//! environment variable read when no key is stored.

/// A vendor with a key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Provider {
    Gemini,
    Openai,
    Anthropic,
}

impl Provider {
    /// Every provider, in the order `GET /api/keys` has always named them.
    pub const ALL: [Provider; 3] = [Provider::Gemini, Provider::Openai, Provider::Anthropic];

    /// The name in the keys file and in `/api/keys`.
    pub(crate) fn key_name(self) -> &'static str {
        match self {
            Provider::Gemini => "gemini",
            Provider::Openai => "openai",
            Provider::Anthropic => "anthropic",
        }
    }

    /// The environment variable that holds the key when none is stored.
    pub fn key_env(self) -> &'static str {
        match self {
            Provider::Gemini => "GEMINI_API_KEY",
            Provider::Openai => "OPENAI_API_KEY",
            Provider::Anthropic => "ANTHROPIC_API_KEY",
        }
    }
}
