//! `diff`: "diff hello.txt with hello world", "compare notes.md against 'new text'",
//! "what would change if hello.txt said hello world".
//!
//! A diff compares a file with proposed text, so "compare a.txt and b.txt" (two
//! files) is refused rather than read as the text "b.txt".

use super::content;
use super::name::{Target, first_file, target};
use super::phrases::{Phrases, phrases};
use super::text::Words;
use super::{Resolution, act, claim_unresolved};
use crate::action::Action;
use alloc::format;
use alloc::string::String;

/// Heads followed by "FILE with TEXT".
const HEADS: Phrases = Phrases::new(
    "diff | compare | preview [replacing | overwriting]
     | show [me] (the | a) diff (of | for)",
);
const JOINERS: &[&str] = &["with", "against", "to", "and", "versus", "vs", "as"];

/// "how would README.md differ from TEXT": the words that join file and text.
const DIFFER_FROM: Phrases = Phrases::new(
    "(differ | differs | be different | look different | different) from
     | (compare | compared) (to | with | against) | (look | be) like with",
);

/// Words that make "… if FILE said TEXT" or "… between FILE and TEXT" a diff.
const CHANGE_WORDS: &[&str] = &[
    "change", "changes", "changed", "different", "diff", "difference", "differences", "differ",
    "happen", "happens", "look",
];
/// Verbs between the file and the text in "if FILE said TEXT".
const SAID: &[&str] = &[
    "said", "says", "say", "contained", "contains", "contain", "were", "was", "read", "reads",
    "had", "became", "becomes",
];
/// Openings of a question, whose "?" is not part of the text.
const QUESTIONS: &[&str] = &["what", "how", "would", "will", "could", "show"];

/// Openings of a proposed write ("what would change if I wrote hello to notes.md").
const WRITES: Phrases =
    Phrases::new("(i | we) wrote | i (write | saved | save | put) | writing | saving | putting");
/// Words before the file in a proposed write.
const DESTINATIONS: &[&str] = &["to", "in", "into"];
/// Stand-ins for a file named before "if" ("how would notes.md change if it said …").
const PRONOUNS: Phrases = Phrases::new("it | this | that | the file");

const USAGE: &str = "Diff which file against what? Say e.g. 'diff notes.md with the new text'.";

/// Where file and proposed text sit in a diff sentence.
struct Shape<'a> {
    /// Whether the head can only mean a diff ("diff", "compare").
    strong: bool,
    /// The words holding file and text.
    rest: Words<'a>,
    /// The words that may separate file from text.
    joiners: &'static [&'static str],
    /// The words before "if", where "it" may find its file.
    before: Words<'a>,
}

pub fn resolve(words: Words<'_>) -> Option<Resolution> {
    if let Some(found) = differs_from(words) {
        return diffed(words, found);
    }
    let shape = shape(words)?;
    let found = joined(&shape)
        .or_else(|| proposed_write(shape.rest))
        .or_else(|| pronoun(&shape));
    let Some((name, proposed)) = found else {
        return match target(shape.rest) {
            Target::File(name) => claim_unresolved(against_what(&name)),
            _ if shape.strong => file_then_text(shape.rest).or_else(|| claim_unresolved(USAGE)),
            _ => None,
        };
    };
    diffed(words, (name, proposed))
}

/// "diff notes.md buy bread", as the shell has it: the file, then the text
/// with no word between. A name said without its extension ("diff readme
/// Hello") is a guess, for the folder to settle; a diff changes nothing.
fn file_then_text(rest: Words<'_>) -> Option<Resolution> {
    let (name, sure) = match target(rest.to(1)) {
        Target::File(name) => (name, true),
        // "preview: write …" is no file called "write".
        Target::Bare(name)
            if !super::typo::is_command_word(rest.key(0))
                && name
                    .chars()
                    .all(|c| c.is_alphanumeric() || "-_".contains(c)) =>
        {
            (name, false)
        }
        _ => return None,
    };
    // "diff about against we fix bikes": a joiner after a bare name is no text.
    let proposed = match sure || !JOINERS.contains(&rest.key(1)) {
        true => rest.from(1),
        false => rest.from(2),
    };
    // "… version.txt if it said 2.0": a condition, read as a hypothetical.
    if proposed.is_empty() || ["if", "when", "once", "after"].contains(&proposed.key(0)) {
        return None;
    }
    let diff = diffed(rest, (name, proposed))?;
    Some(match sure {
        true => diff,
        false => diff.guessed("I took the first word as the file's name"),
    })
}

/// "how would README.md differ from TEXT": the file before the joining
/// words, the text after them.
fn differs_from(words: Words<'_>) -> Option<(String, Words<'_>)> {
    (1..words.len()).find_map(|at| {
        // "how different would notes.md be with TEXT": only after a word of change.
        let with = words
            .from(at)
            .after_any(phrases!("be with"))
            .filter(|_| words.to(at).contains_any(CHANGE_WORDS));
        let text = words.from(at).after_any(DIFFER_FROM).or(with)?;
        Some((first_file(words.to(at))?, text))
    })
}

/// The diff of `name` with the proposed words, checked.
fn diffed(words: Words<'_>, (name, proposed): (String, Words<'_>)) -> Option<Resolution> {
    // "how regatta.md differs from yesterday": a version, not a text.
    // "… since the last commit": the version the change is seen since.
    if !proposed.is_quoted()
        && let Some(version) =
            super::history::version(proposed.trim_start(phrases!("since | from")))
    {
        return act(Action::Diff {
            name,
            content: None,
            against: Some(version.unwrap_or_else(|| String::from("last commit"))),
        });
    }
    if !proposed.is_quoted() && matches!(target(proposed), Target::File(_)) {
        return claim_unresolved(
            "I compare a file with proposed text, not two files — say e.g. 'diff notes.md with hello'.",
        );
    }
    let content = match content::text(proposed) {
        _ if content::is_nothing(proposed) => String::new(),
        Some(text) if QUESTIONS.contains(&words.key(0)) && !proposed.is_quoted() => {
            content::unasked(text)
        }
        Some(text) => text,
        None => return claim_unresolved(against_what(&name)),
    };
    act(Action::Diff {
        name,
        content: Some(content),
        against: None,
    })
}

/// Finds the shape of a diff sentence, if it is one.
fn shape(words: Words<'_>) -> Option<Shape<'_>> {
    if let Some(rest) = words.after_any(HEADS) {
        return Some(Shape {
            strong: true,
            rest: rest
                .after_any(phrases!("between | what is in | the contents of"))
                .unwrap_or(rest),
            joiners: JOINERS,
            before: words.to(0),
        });
    }
    let asks_change =
        |at: usize| words.to(at).contains_any(CHANGE_WORDS) || (at == 1 && words.key(0) == "what");
    let hinge = |key: &str| {
        words
            .keys()
            .position(|k| k == key)
            .filter(|&at| asks_change(at))
    };
    let (at, joiners): (usize, &'static [&'static str]) = match hinge("between") {
        Some(at) => (at, &["and"]),
        None => (hinge("if")?, SAID),
    };
    Some(Shape {
        strong: false,
        rest: words.from(at + 1),
        joiners,
        before: words.to(at),
    })
}

/// "FILE with TEXT", "FILE said TEXT": the first joiner after a file name.
fn joined<'a>(shape: &Shape<'a>) -> Option<(String, Words<'a>)> {
    let rest = shape.rest;
    (1..rest.len())
        .filter(|&at| shape.joiners.contains(&rest.key(at)))
        .find_map(|at| match target(rest.to(at)) {
            Target::File(name) => Some((name, rest.from(at + 1))),
            _ => None,
        })
}

/// "I wrote TEXT to FILE": the last destination followed by a file name.
fn proposed_write(words: Words<'_>) -> Option<(String, Words<'_>)> {
    let rest = words.after_any(WRITES)?;
    (1..rest.len())
        .rev()
        .filter(|&at| DESTINATIONS.contains(&rest.key(at)))
        .find_map(|at| match target(rest.from(at + 1)) {
            Target::File(name) => Some((name, rest.to(at))),
            _ => None,
        })
}

/// "… notes.md … if it said TEXT": the file named before "if".
fn pronoun<'a>(shape: &Shape<'a>) -> Option<(String, Words<'a>)> {
    let rest = shape.rest.after_any(PRONOUNS)?;
    if !SAID.contains(&rest.key(0)) {
        return None;
    }
    Some((first_file(shape.before)?, rest.from(1)))
}

fn against_what(name: &str) -> String {
    format!("Diff {name} against what? Say e.g. 'diff {name} with the new text'.")
}
