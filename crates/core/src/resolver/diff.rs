//! `diff`: "diff hello.txt with hello world", "compare notes.md against 'new text'",
//! "what would change if hello.txt said hello world".
//!
//! A diff compares a file with proposed text, so "compare a.txt and b.txt" (two
//! files) is refused rather than read as the text "b.txt".

use super::content;
use super::name::{Target, target};
use super::text::Words;
use super::{Resolution, act, refuse};
use crate::action::Action;
use alloc::format;

/// Heads followed by "FILE with TEXT".
const HEADS: &[&[&str]] = &[
    &["diff"],
    &["compare"],
    &["preview"],
    &["show", "me", "the", "diff", "of"],
    &["show", "the", "diff", "of"],
    &["show", "me", "the", "diff", "for"],
    &["show", "the", "diff", "for"],
];
const JOINERS: &[&str] = &["with", "against", "to", "and", "versus", "vs"];

/// Words that make "… if FILE said TEXT" or "… between FILE and TEXT" a diff.
const CHANGE_WORDS: &[&str] = &[
    "change",
    "changes",
    "changed",
    "different",
    "diff",
    "difference",
    "differences",
    "differ",
];
/// Verbs between the file and the text in "if FILE said TEXT".
const SAID: &[&str] = &[
    "said",
    "says",
    "say",
    "contained",
    "contains",
    "contain",
    "were",
    "was",
    "read",
    "reads",
    "had",
    "became",
];
/// Openings of a question, whose "?" is not part of the text.
const QUESTIONS: &[&str] = &["what", "how", "would", "will", "could", "show"];

const USAGE: &str = "Diff which file against what? Say e.g. 'diff notes.md with the new text'.";

pub fn resolve(words: Words<'_>) -> Option<Resolution> {
    let (strong, rest, joiners) = shape(words)?;
    let found = (1..rest.len())
        .filter(|&at| joiners.contains(&rest.key(at)))
        .find_map(|at| match target(rest.to(at)) {
            Target::File(name) => Some((name, rest.from(at + 1))),
            _ => None,
        });
    let Some((name, proposed)) = found else {
        return match target(rest) {
            Target::File(name) => refuse(format!(
                "Diff {name} against what? Say e.g. 'diff {name} with the new text'."
            )),
            _ if strong => refuse(USAGE),
            _ => None,
        };
    };
    if !proposed.is_quoted() && matches!(target(proposed), Target::File(_)) {
        return refuse(
            "I compare a file with proposed text, not two files — say e.g. 'diff notes.md with hello'.",
        );
    }
    let question = QUESTIONS.contains(&words.key(0));
    match content::text(proposed) {
        _ if content::is_nothing(proposed) => act(Action::Diff {
            name,
            content: alloc::string::String::new(),
        }),
        Some(text) => act(Action::Diff {
            name,
            content: if question && !proposed.is_quoted() {
                content::unasked(text)
            } else {
                text
            },
        }),
        None => refuse(format!(
            "Diff {name} against what? Say e.g. 'diff {name} with the new text'."
        )),
    }
}

/// The words holding file and text, the joiners between them, and whether
/// the head can only mean a diff.
fn shape(words: Words<'_>) -> Option<(bool, Words<'_>, &'static [&'static str])> {
    if let Some(rest) = words.after_any(HEADS) {
        let rest = rest.after_any(&[&["between"]]).unwrap_or(rest);
        return Some((true, rest, JOINERS));
    }
    let asks_change =
        |at: usize| words.to(at).contains_any(CHANGE_WORDS) || (at == 1 && words.key(0) == "what");
    let between = words.keys().position(|k| k == "between");
    if let Some(at) = between.filter(|&at| asks_change(at)) {
        return Some((false, words.from(at + 1), &["and"]));
    }
    let at = words
        .keys()
        .position(|k| k == "if")
        .filter(|&at| asks_change(at))?;
    Some((false, words.from(at + 1), SAID))
}
