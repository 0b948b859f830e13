//! `make-tool` in words: "create a tool called clock that tells the time",
//! "make an extension named fetcher that gets https://example.com", "build a
//! tool called lister to list the files".
//!
//! The sentence becomes a descriptor (data: nothing loads until the person at
//! the host admits it, and the gate judges it first). What the tool does is
//! read from its description: the time, listing files, reading a named file,
//! or fetching from the address said (bounded to that host). A description
//! that fits none is proposed with no tools, and the gate says why it cannot
//! stand; a proposal without a name gets one made of what it is for, as a
//! guess (asked first, like every guessed change).

use super::name::first_file;
use super::phrases::Phrases;
use super::text::Words;
use super::{Resolution, act, claim_unresolved};
use crate::action::Action;
use crate::extension::valid_entry_id;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;
use serde_json::{Value, json};

const HEADS: Phrases = Phrases::new(
    "create | make | build | propose | define | write | add | set up
     | i (would like | want | need)",
);

/// Openings of a wish for a tool ("can we have a tool that …").
const WISHED_FOR: Phrases = Phrases::new(
    "(can | could) (we | i) have | can i get | it would be nice to have
     | i wish (i had | there was) | we need | let us have",
);

/// Words between the head and the noun ("make me a new tool").
const BEFORE_NOUN: Phrases = Phrases::new("me | us | a | an | new | little");

const NOUNS: Phrases = Phrases::new("tool | extension | plugin");

const NAMING: Phrases = Phrases::new("called | named | (name | call) it | [with [the]] id");

/// Words a name made of a purpose leaves out.
const NOT_IN_NAME: &[&str] = &[
    "the", "a", "an", "of", "from", "me", "to", "that", "my", "it", "for", "in", "on", "and", "us",
    "you", "i", "what", "is", "tells", "gets", "returns", "current", "daily",
];

/// Words that start what the tool is for.
const PURPOSE: Phrases = Phrases::new("that | which | to | for | who");

/// Endings that make a described tool a wish ("a tool that shouts would be nice").
const WISH_ENDS: Phrases =
    Phrases::new("would be (nice | great | handy | useful | cool) | would help | please");

pub fn resolve(words: Words<'_>) -> Option<Resolution> {
    let wish = words.trim_end(WISH_ENDS);
    let rest = match words.after_any(HEADS) {
        Some(rest) => rest.trim_end(WISH_ENDS),
        None if wish.len() < words.len() => wish,
        None => words.after_any(WISHED_FOR)?,
    };
    let mut rest = rest;
    while let Some(after) = rest.after_any(BEFORE_NOUN) {
        rest = after;
    }
    let rest = rest.after_any(NOUNS)?;
    let Some(named) = rest.after_any(NAMING) else {
        return unnamed(rest);
    };
    let id = named.key(0);
    if named.is_empty() || !valid_entry_id(id) {
        return claim_unresolved(
            "A tool's name is lowercase letters, digits and dashes, e.g. 'create a tool called word-counter that …'.",
        );
    }
    let purpose = named.from(1);
    let purpose = purpose.after_any(PURPOSE).unwrap_or(purpose);
    let description = match purpose.is_empty() {
        true => String::from(id),
        false => purpose.literal(),
    };
    act(Action::MakeTool {
        descriptor: descriptor(id, &description, purpose),
    })
}

/// "a tool that reverses the lines of a file": named by what it is for
/// ("reverse-lines"), as a guess; with no purpose either, asked.
fn unnamed(rest: Words<'_>) -> Option<Resolution> {
    const ASK: &str = "What should the tool be called? Say e.g. 'create a tool called clock that tells the time'.";
    let Some(purpose) = rest.after_any(PURPOSE) else {
        return claim_unresolved(ASK);
    };
    let parts: Vec<String> = purpose
        .keys()
        .filter(|k| !NOT_IN_NAME.contains(k) && !k.contains(['.', '/', ':']))
        .filter(|k| k.chars().all(|c| c.is_ascii_alphanumeric()))
        .take(2)
        .map(|k| String::from(singular(k)))
        .collect();
    let id = parts.join("-");
    if parts.is_empty() || !valid_entry_id(&id) {
        return claim_unresolved(ASK);
    }
    let proposal = Resolution::Action(Action::MakeTool {
        descriptor: descriptor(&id, &purpose.literal(), purpose),
    });
    Some(proposal.guessed(alloc::format!(
        "I named the tool '{id}' after what it is for"
    )))
}

/// "fetches" → "fetch", "lines" → "line", "class" stays.
fn singular(word: &str) -> &str {
    if ["ches", "shes", "xes"]
        .iter()
        .any(|end| word.ends_with(end))
    {
        return &word[..word.len() - 2];
    }
    match word.strip_suffix('s') {
        // "celsius", "analysis" are no plurals.
        Some(stem) if !stem.ends_with(['s', 'u', 'i']) => stem,
        _ => word,
    }
}

/// The descriptor for `id`: one tool whose primitive the purpose names.
fn descriptor(id: &str, description: &str, purpose: Words<'_>) -> Value {
    let said = |keys: &[&str]| purpose.keys().any(|key| keys.contains(&key));
    let url = (0..purpose.len())
        .map(|i| purpose.raw(i))
        .find(|raw| raw.starts_with("https://") || raw.starts_with("http://"));
    let (primitive, capabilities, bounds): (&str, Vec<&str>, Value) = if let Some(url) = url {
        let host = url
            .split("://")
            .nth(1)
            .and_then(|rest| rest.split(['/', ':', '?']).next())
            .unwrap_or("");
        (
            "http-get",
            vec!["network"],
            json!({"hosts": [host], "maxRequests": 10}),
        )
    } else if said(&["time", "clock", "date"]) {
        ("now", vec![], json!({}))
    } else if said(&["list", "lists", "listing", "count", "counts"])
        && said(&["files", "file", "folder"])
    {
        ("list-files", vec!["read"], json!({}))
    } else if said(&["read", "reads", "show", "shows"]) && first_file(purpose).is_some() {
        ("read-file", vec!["read"], json!({}))
    } else {
        return json!({"id": id, "description": description, "capabilities": [], "tools": []});
    };
    json!({
        "id": id,
        "description": description,
        "capabilities": capabilities,
        "bounds": bounds,
        "tools": [{"name": id, "primitive": primitive}],
    })
}
