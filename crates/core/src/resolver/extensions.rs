//! `list_extensions`: "list extensions", "what tools do you have", "which tools are available",
//! or just "extensions?".

use super::text::Words;
use super::{Resolution, act};
use crate::action::Action;

/// Words a question about tools may open with.
const HEADS: &[&str] = &[
    "list", "ls", "show", "what", "which", "display", "get", "give", "tell", "enumerate", "do",
    "are",
];
const NOUNS: &[&str] = &[
    "extension", "extensions", "tool", "tools", "plugin", "plugins", "add-on", "add-ons", "addons",
    "capability", "capabilities", "abilities",
];
/// Every other word such a question may hold; anything else ("what tools do
/// I need to fix a bike", "what extensions do my files have") is another question.
const ALLOWED: &[&str] = &[
    "me", "the", "all", "your", "available", "installed", "any", "of", "a", "are", "is", "there",
    "do", "does", "you", "have", "has", "can", "use", "run", "loaded", "enabled", "i", "we", "got",
    "support", "supported", "currently", "right", "now", "here", "to", "access", "what", "which",
    "list", "show", "get", "give", "tell", "please", "voicebox", "this", "host", "and", "on",
    "shelf", "in", "set", "up",
];

pub fn resolve(words: Words<'_>) -> Option<Resolution> {
    let opening = words.key(0);
    let asks = (HEADS.contains(&opening) || NOUNS.contains(&opening))
        && words.contains_any(NOUNS)
        && words
            .keys()
            .all(|k| NOUNS.contains(&k) || ALLOWED.contains(&k) || HEADS.contains(&k));
    asks.then(|| act(Action::ListExtensions)).flatten()
}
