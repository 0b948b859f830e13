//! Turning words into one action on the server: the resolver a turn uses.

use crate::llm::{self, Llm, Vendor};
use crate::state_dir::StateDir;
use std::sync::RwLock;
use voicebox_core::resolver::{self, Folder, Resolution};
use voicebox_core::{Refusal, Rule};

/// The resolvers the server can use. Only the built-in script resolver needs
/// no key; an LLM resolver without its key answers unresolved, never another
/// resolver's answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Resolver {
    /// Deterministic, zero-key, in the core.
    Script,
    /// Google Gemini (key `gemini` or GEMINI_API_KEY).
    Gemini,
    /// OpenAI chat completions (key `openai` or OPENAI_API_KEY).
    Openai,
    /// Anthropic Claude (key `anthropic` or ANTHROPIC_API_KEY).
    Claude,
}

impl Resolver {
    pub fn name(self) -> &'static str {
        match self {
            Resolver::Script => "script",
            Resolver::Gemini => "gemini",
            Resolver::Openai => "openai",
            Resolver::Claude => "claude",
        }
    }

    /// Whether it asks a model (which is shown the project's notes).
    pub(crate) fn llm(self) -> bool {
        self.vendor().is_some()
    }

    /// The name a person sees, the same on every page and in every note.
    pub fn label(self) -> &'static str {
        match self.vendor() {
            None => "Built in",
            Some(vendor) => vendor.label,
        }
    }

    /// Every resolver with its label and whether it can work now (an LLM
    /// resolver needs its key), for the page's Settings.
    pub(crate) fn each_ready(state: &StateDir) -> serde_json::Value {
        let each = <Resolver as clap::ValueEnum>::value_variants().iter().map(|r| {
            let key = r.vendor().map(|vendor| vendor.provider.key_name());
            serde_json::json!({"name": r.name(), "label": r.label(), "key": key, "ready": r.ready(state).is_ok()})
        });
        serde_json::Value::Array(each.collect())
    }

    fn vendor(self) -> Option<&'static Vendor> {
        match self {
            Resolver::Script => None,
            Resolver::Gemini => Some(&llm::GEMINI),
            Resolver::Openai => Some(&llm::OPENAI),
            Resolver::Claude => Some(&llm::ANTHROPIC),
        }
    }

    /// Whether this resolver can work now: the script resolver always can; an
    /// LLM resolver needs its key (the note says how to set it).
    pub fn ready(self, state: &StateDir) -> Result<(), String> {
        self.vendor()
            .map_or(Ok(()), |vendor| llm::key_ready(vendor, state))
    }

    /// Resolves `text`; an LLM resolver reads its key from `state` (or the
    /// environment) at each call, so a key stored after start is used.
    /// The script resolver settles names against `folder`; an LLM resolver
    /// is shown the folder's names with the sentence, and the names in its
    /// answer are settled against `folder` the same way.
    async fn resolve(self, llm: &Llm, state: &StateDir, text: &str, folder: &Folder) -> Resolution {
        match self.vendor() {
            None => resolver::resolve_in(text, folder),
            Some(vendor) => {
                resolver::settled(text, llm.resolve(vendor, state, text, folder).await, folder)
            }
        }
    }

    /// [`Resolver::resolve`] for the one-shot commands: an LLM resolver
    /// gets a client of its own.
    pub(crate) async fn resolve_once(
        self,
        state: &StateDir,
        text: &str,
        folder: &Folder,
    ) -> Resolution {
        self.resolve(&Llm::from_env(), state, text, folder).await
    }

    /// [`Resolver::resolve_once`] for a command with no runtime: an LLM call
    /// runs on a small current-thread one.
    pub(crate) fn resolve_blocking(
        self,
        state: &StateDir,
        text: &str,
        folder: &Folder,
    ) -> Resolution {
        one_shot_runtime().block_on(self.resolve_once(state, text, folder))
    }
}

/// The runtime a one-shot command drives its turn (and an LLM call) on.
pub(crate) fn one_shot_runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a current-thread tokio runtime")
}

/// How a server's turns become actions: the resolver in use (the page's
/// settings may change it), the client LLM resolvers share, and the state
/// folder their keys are read from at each call.
pub struct Words {
    resolver: RwLock<Resolver>,
    llm: Llm,
    state: StateDir,
}

impl Words {
    pub fn new(resolver: Resolver, state: StateDir) -> Words {
        Words {
            resolver: RwLock::new(resolver),
            llm: Llm::from_env(),
            state,
        }
    }

    /// The resolver turns use now.
    pub fn resolver(&self) -> Resolver {
        *self.resolver.read().unwrap_or_else(|p| p.into_inner())
    }

    /// Makes `resolver` the one turns use until the server stops; whether it
    /// can work now (its key is set) is the answer.
    pub fn choose(&self, resolver: Resolver) -> Result<(), String> {
        *self.resolver.write().unwrap_or_else(|p| p.into_inner()) = resolver;
        resolver.ready(&self.state)
    }

    /// [`Resolver::each_ready`] with this server's keys.
    pub(crate) fn each_ready(&self) -> serde_json::Value {
        Resolver::each_ready(&self.state)
    }

    /// Whether the resolver in use can work now: an LLM resolver without
    /// its key is `key-missing`, answered before any words are sent.
    pub fn ready(&self) -> Result<(), Refusal> {
        self.resolver()
            .ready(&self.state)
            .map_err(|note| Refusal::new(Rule::KeyMissing, note))
    }

    /// Resolves `text` with the resolver in use, knowing `folder`'s files.
    pub async fn resolve(&self, text: &str, folder: &Folder) -> Resolution {
        self.resolver()
            .resolve(&self.llm, &self.state, text, folder)
            .await
    }
}
