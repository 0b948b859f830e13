//! `tool`: "run the wc tool on notes.md", "use crc32 on report.pdf", "run the
//! wc tool". A sentence is a tool run only when it names a tool ("… tool …")
//! or a file to run it on ("run wc on notes.md"); "run the tests" and "run
//! the numbers on sales.csv" are not ours.
//! Which tools exist is the host's to say: an unknown id is refused there.

use super::name::{Target, target};
use super::text::Words;
use super::{Resolution, act, claim_unresolved};
use crate::action::Action;
use crate::extension::valid_id;
use alloc::string::String;

const HEADS: &[&[&str]] = &[
    &["run"],
    &["use"],
    &["apply"],
    &["execute"],
    &["invoke"],
    &["call"],
    &["start"],
];
const THE: &[&[&str]] = &[&["the"], &["a"]];
const TOOL: &[&[&str]] = &[&["tool"], &["extension"]];
const ON: &[&[&str]] = &[
    &["on"],
    &["over"],
    &["against"],
    &["with"],
    &["for"],
    &["in"],
];

pub fn resolve(words: Words<'_>) -> Option<Resolution> {
    let after_head = words.after_any(HEADS)?;
    let rest = after_head.trim_start(THE);
    let article = rest.len() < after_head.len();
    // "the tool wc …" or "the wc tool …"
    let (said_tool, rest) = match rest.after_any(TOOL) {
        Some(rest) => (true, rest),
        None => (false, rest),
    };
    let id = rest.key(0);
    if rest.is_empty() || !valid_id(id) {
        return said_tool.then(|| {
            claim_unresolved("Which tool? Say e.g. 'run the wc tool on notes.md'; 'what tools do you have' lists them.")
        })?;
    }
    let rest = rest.from(1);
    let (said_tool, rest) = match rest.after_any(TOOL) {
        Some(rest) => (true, rest),
        None => (said_tool, rest),
    };
    if rest.is_empty() {
        return said_tool.then(|| act(tool(id, None)))?;
    }
    // "run the numbers on sales.csv" is a noun phrase, not a tool's name.
    if article && !said_tool {
        return None;
    }
    let on = rest.after_any(ON)?;
    match target(on) {
        Target::File(name) => act(tool(id, Some(name))),
        _ if said_tool => claim_unresolved(
            "Which file should the tool run on? Say e.g. 'run the wc tool on notes.md'.",
        ),
        _ => None,
    }
}

fn tool(id: &str, name: Option<String>) -> Action {
    Action::Tool {
        id: id.into(),
        name,
    }
}
