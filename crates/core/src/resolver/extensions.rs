//! `list_extensions`: "list extensions", "what tools do you have", "which tools are available".

use super::text::Words;
use super::{Resolution, act};
use crate::action::Action;

/// Words a question about tools may open with.
const HEADS: &[&str] = &[
    "list",
    "ls",
    "show",
    "what",
    "which",
    "display",
    "get",
    "give",
    "tell",
    "enumerate",
    "do",
    "are",
];
const NOUNS: &[&str] = &[
    "extension",
    "extensions",
    "tool",
    "tools",
    "plugin",
    "plugins",
    "add-on",
    "add-ons",
    "addons",
];
/// Mentions of files make "extensions" mean ".md" and ".txt", not tools.
const FILE_WORDS: &[&str] = &["file", "files", "folder", "document", "documents"];

pub fn resolve(words: Words<'_>) -> Option<Resolution> {
    let asks = HEADS.contains(&words.key(0))
        && words.contains_any(NOUNS)
        && !words.contains_any(FILE_WORDS);
    asks.then(|| act(Action::ListExtensions)).flatten()
}
