//! `find` and `info`: "where's the budget file", "find files named *.md",
//! "which file is called budget", "how big is notes.md", "when did
//! notes.md change". (How many lines or words a file has is the shelf's
//! `wc`, when the host has it.)

use super::name::{Target, target};
use super::phrases::Phrases;
use super::text::Words;
use super::{Resolution, act};
use crate::action::Action;
use alloc::vec::Vec;

/// Heads of finding a file by its name; the rest is the name's words.
const FIND: Phrases = Phrases::new(
    "where is [the | my] | where are (the | my)
     | find [the file [called | named] | files (called | named | matching) | my | the]
     | locate | look for (the file | files named)
     | search for (the file (called | named) | files named) | which file is called
     | which files are called | list files (named | matching)",
);

/// Nouns said around the name ("the budget file", "my tax documents").
const NOUNS: &[&str] = &[
    "file",
    "files",
    "document",
    "documents",
    "doc",
    "docs",
    "note",
    "notes",
    "one",
    "called",
    "named",
];

/// Nouns that make a finding about a file's name.
const FILE_NOUNS: &[&str] = &["file", "files", "document", "documents", "doc", "docs"];

/// Words that ask about what files say, not what they are called (grep's).
const TEXT_WORDS: &[&str] = &[
    "that",
    "which",
    "mentions",
    "mention",
    "mentioned",
    "says",
    "say",
    "with",
    "about",
    "containing",
    "contains",
    "every",
    "all",
    "any",
    "me",
];

/// Heads that ask what a file is; the rest names it.
const INFO: Phrases = Phrases::new(
    "how (big | large | long) is | what size is | [what is the] size of
     | when did i [last] change | when was | info (on | about | for) | details (of | about)
     | tell me about | stat",
);

/// Words after the name in an info question ("… last changed", "… have").
const INFO_TAIL: Phrases =
    Phrases::new("[last] (changed | modified | edited) | change | have | has | get");

pub fn resolve(words: Words<'_>) -> Option<Resolution> {
    if let Some(rest) = words.after_any(INFO) {
        return match target(rest.trim_end(INFO_TAIL)) {
            Target::File(name) | Target::Folder(Some(name)) => act(Action::Info { name }),
            _ => None,
        };
    }
    let rest = words.after_any(FIND)?;
    // "where is the budget file": a "where" question ends in its noun
    // ("where are my files stored" asks something else).
    if words.key(0) == "where" && !rest.keys().last().is_some_and(|k| FILE_NOUNS.contains(&k)) {
        return None;
    }
    // "find milk in notes.md" is a search of a file's text: not a name.
    if rest
        .keys()
        .any(|k| k == "in" || k == "inside" || k == "containing")
    {
        return None;
    }
    if rest.len() == 1 && rest.raw(0).contains(['*', '?']) {
        return act(Action::Find {
            pattern: rest.raw(0).into(),
            dir: None,
        });
    }
    // A name is asked for only with a file noun ("the budget file", "find
    // the file called budget"); "find me a restaurant" and "where is Lisbon
    // mentioned" are not about names.
    if !words.keys().any(|k| FILE_NOUNS.contains(&k)) {
        return None;
    }
    let kept: Vec<&str> = rest
        .keys()
        .filter(|k| !NOUNS.contains(k) && !matches!(*k, "the" | "my" | "a" | "an"))
        .collect();
    let about_text = kept.iter().any(|k| TEXT_WORDS.contains(k));
    if kept.is_empty() || kept.len() > 4 || about_text || kept.iter().any(|k| k.contains('.')) {
        return None;
    }
    act(Action::Find {
        pattern: kept.join(" "),
        dir: None,
    })
}
