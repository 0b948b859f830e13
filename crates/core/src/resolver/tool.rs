//! `tool`: "run the wc tool on notes.md", "use crc32 on report.pdf", "run the
//! wc tool". A sentence is a tool run only when it names a tool ("… tool …")
//! or a file to run it on ("run wc on notes.md"); "run the tests" and "run
//! the numbers on sales.csv" are not ours.
//! Which tools exist is the host's to say: an unknown id is refused there.

use super::name::{Target, target};
use super::phrases::Phrases;
use super::text::Words;
use super::{Resolution, act, claim_unresolved};
use crate::action::Action;
use crate::extension::valid_entry_id;
use alloc::string::String;

const HEADS: Phrases = Phrases::new("run | use | apply | execute | invoke | call | start");
const THE: Phrases = Phrases::new("the | a");
const TOOL: Phrases = Phrases::new("tool | extension");
const ON: Phrases = Phrases::new("on | over | against | with | for | in");

pub fn resolve(words: Words<'_>) -> Option<Resolution> {
    let after_head = words.after_any(HEADS)?;
    let rest = after_head.trim_start(THE);
    let article = rest.len() < after_head.len();
    // "the tool wc …" or "the wc tool …"
    let (said_tool, rest) = match rest.after_any(TOOL) {
        Some(rest) => (true, rest),
        None => (false, rest),
    };
    let (id, used) = spelled_id(rest);
    if rest.is_empty() || !valid_entry_id(&id) {
        return said_tool.then(|| {
            claim_unresolved("Which tool? Say e.g. 'run the wc tool on notes.md'; 'what tools do you have' lists them.")
        })?;
    }
    let id = id.as_str();
    let rest = rest.from(used);
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

/// The tool's id and how many words say it: one word, or an id spelled
/// letter by letter as speech writes it ("w c", "c r c 32").
fn spelled_id(words: Words<'_>) -> (String, usize) {
    let letters = (0..words.len())
        .take_while(|&at| {
            let key = words.key(at);
            key.chars().count() == 1 && key.chars().all(|c| c.is_ascii_alphabetic())
                || at > 0 && key.chars().all(|c| c.is_ascii_digit()) && !key.is_empty()
        })
        .count();
    match letters {
        0 | 1 => (String::from(words.key(0)), 1),
        n => ((0..n).map(|at| words.key(at)).collect(), n),
    }
}

fn tool(id: &str, name: Option<String>) -> Action {
    Action::Tool {
        id: id.into(),
        name,
    }
}

/// How people ask for a tool by what it does, without naming it: a sentence
/// that says one of these of a named file runs the tool for it ("count the
/// words in essay.txt", "what's the checksum of backup.zip"). Each row: words
/// of which one must be said, and words of which one must be said with them
/// (empty: none needed). The tool's id is the word said; which tool that is
/// the host's tools say ([`super::shelf`]).
const PURPOSES: &[(&[&str], &[&str])] = &[
    // Lines are counted by `info`, which needs no tool.
    (
        &["words", "word", "characters"],
        &["count", "many", "number"],
    ),
    (&["wc"], &[]),
    (
        &[
            "checksum", "crc", "crc32", "sha256", "sha-256", "hash", "digest", "md5", "md5sum",
        ],
        &[],
    ),
];

/// Heads of other verbs: a sentence that starts with one is theirs ("write
/// the word count to …"), never a tool's by purpose.
const OTHER_VERBS: &[&str] = &[
    "write", "save", "put", "append", "add", "delete", "remove", "replace", "change", "edit",
    "create", "make", "search", "find", "grep", "list", "undo",
];

/// A tool asked for by what it does, on the file the sentence names.
pub fn by_purpose(words: Words<'_>) -> Option<Resolution> {
    if OTHER_VERBS.contains(&words.key(0)) {
        return None;
    }
    let said = |keys: &[&str]| words.keys().find(|key| keys.contains(key));
    let id = PURPOSES
        .iter()
        .find_map(|(what, with)| said(what).filter(|_| with.is_empty() || said(with).is_some()))?;
    let name = super::name::first_file(words)?;
    act(tool(id, Some(name)))
}
