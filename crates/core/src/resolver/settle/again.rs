//! Sentences read again with a word made plain: "it" as the previous
//! turn's file, a folder's name said without "folder" as that folder.

use super::{Folder, Resolution, unseparated};
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
    // "whats in birth plans" for `birth-plans/`: a folder's name said as
    // two words, taken before one word alone.
    let two = words.windows(2).find_map(|pair| {
        let said = format!("{} {}", pair[0], pair[1]);
        let dir = dirs.clone().find(|dir| {
            last(dir).contains(['-', '_']) && unseparated(&last(dir)) == unseparated(&said)
        })?;
        Some((said, dir))
    });
    let one = || {
        words.iter().enumerate().find_map(|(at, said)| {
            let folder_follows = words.get(at + 1).is_some_and(|next| {
                ["folder", "directory"].contains(&next.to_lowercase().as_str())
            });
            let dir = dirs
                .clone()
                .find(|dir| !said.is_empty() && last(dir).eq_ignore_ascii_case(said))?;
            (!folder_follows).then(|| (said.clone(), dir))
        })
    };
    let (said, dir) = two.or_else(one)?;
    let lower = said.to_lowercase();
    match again(&replace_words(text, &lower, &format!("{dir} folder"))) {
        found @ Resolution::Action(Action::List { .. } | Action::Grep { .. }) => {
            Some(found.guessed(format!("I took '{said}' to be the folder {dir}")))
        }
        _ => None,
    }
}

/// `text` with the first run of whole words `said` (any case) replaced by
/// `name`.
fn replace_words(text: &str, said: &str, name: &str) -> String {
    let count = said.split(' ').count();
    let parts: Vec<&str> = text.split(' ').collect();
    let bare = |part: &str| {
        part.trim_matches(|c: char| !c.is_alphanumeric())
            .to_lowercase()
    };
    let at = (0..parts.len().saturating_sub(count - 1)).find(|&at| {
        let run: Vec<String> = parts[at..at + count].iter().map(|p| bare(p)).collect();
        run.join(" ") == said
    });
    match (at, count) {
        (Some(at), _) if count > 1 => {
            let mut out: Vec<String> = parts[..at].iter().map(|p| String::from(*p)).collect();
            out.push(String::from(name));
            out.extend(parts[at + count..].iter().map(|p| String::from(*p)));
            out.join(" ")
        }
        _ => replace_word(text, said, name),
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
