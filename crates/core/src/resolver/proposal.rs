//! `make-tool` in words: "create a tool called clock that tells the time",
//! "make an extension named fetcher that gets https://example.com", "build a
//! tool called lister to list the files".
//!
//! The sentence becomes a descriptor (data: nothing loads until the person at
//! the host admits it, and the gate judges it first). What the tool does is
//! read from its description: the time, listing files, reading a named file,
//! or fetching from the address said (bounded to that host). A description
//! that fits none is proposed with no tools, and the gate says why it cannot
//! stand; a proposal without a name is asked about, never guessed.

use super::name::first_file;
use super::text::Words;
use super::{Resolution, act, claim_unresolved};
use crate::action::Action;
use crate::extension::valid_entry_id;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;
use serde_json::{Value, json};

const HEADS: &[&[&str]] = &[
    &["create"],
    &["make"],
    &["build"],
    &["propose"],
    &["define"],
    &["write"],
    &["add"],
];

/// Words between the head and the noun ("make me a new tool").
const BEFORE_NOUN: &[&[&str]] = &[&["me"], &["us"], &["a"], &["an"], &["new"], &["little"]];

const NOUNS: &[&[&str]] = &[&["tool"], &["extension"], &["plugin"]];

const NAMING: &[&[&str]] = &[&["called"], &["named"]];

/// Words that start what the tool is for.
const PURPOSE: &[&[&str]] = &[&["that"], &["which"], &["to"], &["for"], &["who"]];

pub fn resolve(words: Words<'_>) -> Option<Resolution> {
    let rest = words.after_any(HEADS)?;
    let mut rest = rest;
    while let Some(after) = rest.after_any(BEFORE_NOUN) {
        rest = after;
    }
    let rest = rest.after_any(NOUNS)?;
    let Some(named) = rest.after_any(NAMING) else {
        return claim_unresolved(
            "What should the tool be called? Say e.g. 'create a tool called clock that tells the time'.",
        );
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
