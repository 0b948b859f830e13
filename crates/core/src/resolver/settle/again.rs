//! Sentences read again with a word made plain: "it" as the previous
//! turn's file, a folder's name said without "folder" as that folder.

use super::{Folder, Resolution};
use crate::action::Action;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

/// Words that point back at the previous turn's file.
const POINTERS: &[&str] = &["it", "that"];

/// "delete it", "what's in that" right after a turn on a file: the pointer
/// replaced by that file's name, and the sentence read again; only an
/// action counts.
pub(super) fn pointing_back(
    text: &str,
    folder: &Folder,
    again: &impl Fn(&str) -> Resolution,
) -> Option<Resolution> {
    let previous = folder.previous()?;
    let pointer = text
        .split_whitespace()
        .map(|w| {
            w.trim_matches(|c: char| !c.is_alphanumeric())
                .to_lowercase()
        })
        .find(|w| POINTERS.contains(&w.as_str()))?;
    let named = replace_word(text, &pointer, &format!("\"{previous}\""));
    match again(&named) {
        Resolution::Unresolved { .. } => None,
        action => Some(action),
    }
}

/// "show me the drafts", "what's in the Drafts": a word that is one of the
/// root's folders (in any case) said without "folder", read again as that
/// folder — a guess, so what it assumed is said.
pub(super) fn folder_named(
    text: &str,
    folder: &Folder,
    again: &impl Fn(&str) -> Resolution,
) -> Option<Resolution> {
    // Every folder a name is in ("a/b/c.md": "a" and "a/b").
    let dirs = folder
        .names()
        .iter()
        .flat_map(|name| name.match_indices('/').map(move |(at, _)| &name[..at]));
    let last = |dir: &str| dir.rsplit('/').next().unwrap_or(dir).to_string();
    let word = |w: &str| String::from(w.trim_matches(|c: char| !c.is_alphanumeric()));
    let words: Vec<String> = text.split_whitespace().map(word).collect();
    // "open the journal" asks for one of its files, not for the folder.
    const READS: &[&str] = &["open", "read", "cat", "view"];
    if words
        .iter()
        .any(|w| READS.contains(&w.to_lowercase().as_str()))
    {
        return None;
    }
    let (said, dir) = words.iter().enumerate().find_map(|(at, said)| {
        let folder_follows = words
            .get(at + 1)
            .is_some_and(|next| ["folder", "directory"].contains(&next.to_lowercase().as_str()));
        let dir = dirs
            .clone()
            .find(|dir| !said.is_empty() && last(dir).eq_ignore_ascii_case(said))?;
        (!folder_follows).then_some((said, dir))
    })?;
    let lower = said.to_lowercase();
    match again(&replace_word(text, &lower, &format!("{dir} folder"))) {
        found @ Resolution::Action(Action::List { .. } | Action::Grep { .. }) => {
            Some(found.guessed(format!("I took '{said}' to be the folder {dir}")))
        }
        _ => None,
    }
}

/// `text` with the first whole-word `word` (any case) replaced by `name`.
fn replace_word(text: &str, word: &str, name: &str) -> String {
    let mut out = Vec::new();
    let mut done = false;
    for part in text.split(' ') {
        let bare = part.trim_matches(|c: char| !c.is_alphanumeric());
        if !done && bare.to_lowercase() == word {
            out.push(part.replacen(bare, name, 1));
            done = true;
        } else {
            out.push(part.to_string());
        }
    }
    out.join(" ")
}
