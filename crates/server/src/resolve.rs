//! Turning words into one action on the server: the resolver a turn uses.

use voicebox_core::resolver::{self, Resolution};

/// The resolvers the server can use. Only the built-in script resolver needs
/// no key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Resolver {
    /// Deterministic, zero-key, in the core.
    Script,
}

impl Resolver {
    pub fn name(self) -> &'static str {
        match self {
            Resolver::Script => "script",
        }
    }

    pub fn resolve(self, text: &str) -> Resolution {
        match self {
            Resolver::Script => resolver::resolve(text),
        }
    }
}
