//! "find strat in the repairs folder", "find henderson": the verb `find`
//! said of a word or two that starts words of names in the folder finds
//! those files, as a guess that says how to search their text instead; a
//! word no name holds stays a search of what the files say.

use super::super::{Folder, Resolution};
use crate::action::Action;
use crate::executor::name_matches;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

/// Words that may come before "find" without changing the request.
const BEFORE: &[&str] = &[
    "please", "can", "could", "you", "just", "now", "ok", "okay", "so",
];

/// `resolution` read again for the folder's names: a search opened with
/// "find" for a word or two that names files there becomes a find.
pub(in crate::resolver) fn by_name(
    text: &str,
    resolution: Resolution,
    folder: &Folder,
) -> Resolution {
    let Resolution::Action(Action::Grep { query, dir }) = &resolution else {
        return resolution;
    };
    let said: Vec<String> = text
        .split_whitespace()
        .map(|word| {
            word.trim_matches(|c: char| !c.is_alphanumeric())
                .to_lowercase()
        })
        .skip_while(|word| BEFORE.contains(&word.as_str()))
        .collect();
    let plain = |word: &str| {
        word.chars()
            .all(|c| c.is_alphanumeric() || c == '-' || c == '_')
    };
    let few_plain_words =
        (1..=2).contains(&query.split_whitespace().count()) && query.split_whitespace().all(plain);
    if said.first().map(String::as_str) != Some("find")
        || text.contains(['"', '\'', '“', '‘'])
        || !few_plain_words
    {
        return resolution;
    }
    let within = |name: &&String| match dir {
        Some(dir) => name.starts_with(&format!("{}/", dir.trim_end_matches('/'))),
        None => true,
    };
    let named = folder
        .names()
        .iter()
        .filter(within)
        .map(|name| name.rsplit('/').next().unwrap_or(name))
        .any(|leaf| name_matches(query, leaf) && starts_words(query, leaf));
    match named {
        true => Resolution::Action(Action::Find {
            pattern: query.clone(),
            dir: dir.clone(),
        })
        .guessed(format!(
            "I looked for files named like '{query}'; say 'search for {query}' to search what the files say"
        )),
        false => resolution,
    }
}

/// Whether each word of `query` starts a word of `leaf` ("strat" of
/// `strat-neck.md`, "chapter" of `chapter1.md`; not "rent" of `current.md`).
fn starts_words(query: &str, leaf: &str) -> bool {
    let leaf = leaf.to_lowercase();
    let words: Vec<&str> = leaf.split(|c: char| !c.is_alphanumeric()).collect();
    query
        .to_lowercase()
        .split_whitespace()
        .all(|word| words.iter().any(|w| w.starts_with(word)))
}
