//! "it" pointing back at a file named earlier in the sentence: "I don't need
//! old.txt anymore, delete it", "notes.md is ready so read it" — or at a
//! list's line: "Mr Hughes hasn't collected, untick him in orders.md".
//!
//! Only for sentences no family claims whole: the last clause is resolved
//! again with its "it" (the word itself, not "it's") replaced by the first
//! file the sentence named, and only an action counts, so a preamble never
//! turns a request into a refusal. A line pointed back at is taken from the
//! first clause's subject, and is a guess: the person is asked.

use super::name::first_file;
use super::text::Words;
use super::{Resolution, claim_text};
use crate::action::Action;
use alloc::format;
use alloc::string::String;

/// Words that open a new clause.
const LINKS: &[&str] = &["and", "so", "then"];
/// Punctuation that closes a clause.
const STOPS: &[char] = &[',', ';', '.', ':'];

pub fn resolve(words: Words<'_>) -> Option<Resolution> {
    let start = last_clause(words)?;
    a_file(words, start).or_else(|| a_line(words, start))
}

/// "I don't need old.txt anymore, delete it".
fn a_file(words: Words<'_>, start: usize) -> Option<Resolution> {
    let clause = words.from(start);
    let at = (0..clause.len()).find(|&i| {
        clause
            .get(i)
            .is_some_and(|w| w.inner.eq_ignore_ascii_case("it"))
    })?;
    let name = first_file(words.to(start))?;
    // Quoted, so a name with spaces stays one name.
    let named = format!(
        "{} \"{name}\" {}",
        clause.to(at).literal(),
        clause.from(at + 1).literal()
    );
    claim_text(&named).filter(|answer| matches!(answer, Resolution::Action(_)))
}

/// Where the last clause begins, if there are two or more.
fn last_clause(words: Words<'_>) -> Option<usize> {
    (1..words.len()).rev().find(|&at| {
        LINKS.contains(&words.key(at))
            || words.raw(at - 1).ends_with(STOPS)
            || words.gap_after(at - 1).contains(['—', '–'])
            || words.gap_after(at - 1).contains(" - ")
    })
}

/// Words that point back at a person or thing rather than name it: a
/// list's line ("untick him", "remove her item") here, a file ("open her
/// file") in [`super::pointed`].
pub(super) const POINTING: &[&str] = &["it", "its", "him", "her", "them", "his", "their"];

/// "Oliver's left the team, take him off the rota": a tick, untick or
/// removal whose line is a word pointing back, read with the line the first
/// clause is about, as a guess.
fn a_line(words: Words<'_>, start: usize) -> Option<Resolution> {
    let clause = words.from(start);
    let at = (0..clause.len()).find(|&i| POINTING.contains(&clause.key(i)))?;
    // "her item": the pointing word and the noun after it are the line.
    let end = match clause.key(at + 1) {
        "item" | "line" | "entry" | "order" => at + 2,
        _ => at + 1,
    };
    let line = latest_subject(words.to(start))?;
    // "remove her item from …" stays said as an item.
    let noun = match end - at {
        2 => "the item ",
        _ => "",
    };
    let named = format!(
        "{} {noun}\"{line}\" {}",
        clause.to(at).literal(),
        clause.from(end).literal()
    );
    let action = match claim_text(&named)? {
        // "Keiko can't come, remove her from attendees.md": who was pointed
        // at is a line of the file, not words in it.
        Resolution::Action(Action::Edit {
            name,
            old_text,
            new_text,
            ..
        })
        | Resolution::Guess {
            action:
                Action::Edit {
                    name,
                    old_text,
                    new_text,
                    ..
                },
            ..
        } if new_text.is_empty() && old_text == line => Action::RemoveItem {
            name,
            item: old_text,
        },
        Resolution::Action(action) | Resolution::Guess { action, .. } => action,
        Resolution::Unresolved { .. } => return None,
    };
    if !matches!(action, Action::CheckItem { .. } | Action::RemoveItem { .. }) {
        return None;
    }
    let said = clause.range(at, end).literal();
    Some(Resolution::Action(action).guessed(format!("I took '{said}' as '{line}'")))
}

/// The subject of the clause said last before the request: "print answer
/// sheets" of "the printer jammed so print answer sheets isn't done"; the
/// first clause's when the last has none ("Mr Brown dropped out and won't
/// come").
fn latest_subject(said: Words<'_>) -> Option<String> {
    const JOINS: &[&str] = &["so", "and", "but", "because", "since"];
    (1..said.len())
        .rev()
        .filter(|&at| JOINS.contains(&said.key(at)))
        .find_map(|at| subject(said.from(at + 1)))
        .or_else(|| subject(said))
}

/// Words that end a clause's subject: what it did or what happened to it.
const AFTER_SUBJECT: &[&str] = &[
    "is", "was", "are", "were", "has", "have", "had", "hasnt", "hasn't", "havent", "haven't",
    "got", "gets", "did", "didnt", "didn't", "does", "doesnt", "doesn't", "can", "cant", "can't",
    "will", "wont", "won't", "just", "finally", "already", "cancelled", "canceled", "left", "quit",
    "paid", "came", "arrived", "collected", "dropped", "finished", "went", "died",
];

/// What the first clause is about: "Mr Hughes" of "Mr Hughes hasn't
/// collected", "front door lock" of "the front door lock got fixed",
/// "Oliver" of "Oliver's left the team", and what follows "done:". `None`
/// when it is no short phrase of plain words or names a file.
fn subject(first: Words<'_>) -> Option<String> {
    let first = first.trim_start(super::phrases::phrases!("the | my | our"));
    if matches!(first.key(0), "done" | "finished" | "completed") && first.raw(0).ends_with(':') {
        let rest = first.from(1);
        return plain_phrase(rest, rest.len());
    }
    // "I've changed the air filter", "got the hypo clear": what the person
    // did it to, the person said or not.
    const DID: &[&str] = &[
        "bought", "got", "made", "paid", "sent", "done", "found", "sold",
    ];
    let said_did = DID.contains(&first.key(0)) && first.len() > 1;
    if matches!(first.key(0), "i" | "we") || said_did {
        let did = (0..first.len()).find(|&i| {
            (i > 0 && first.key(i).len() > 3 && first.key(i).ends_with("ed"))
                || DID.contains(&first.key(i))
        })?;
        let object = first
            .from(did + 1)
            .trim_start(super::phrases::phrases!("the | my | our | a | an | some"));
        return plain_phrase(object, object.len()).filter(|s| !s.is_empty());
    }
    let end = (0..first.len()).find(|&i| {
        AFTER_SUBJECT.contains(&first.key(i))
            // "Kenya AA delivered", "Tom Reyes moved away": what happened.
            || (i > 0 && first.key(i).len() > 4 && first.key(i).ends_with("ed"))
            || first.get(i).is_some_and(|w| {
                (w.inner.ends_with("'s") || w.inner.ends_with("\u{2019}s")) && i + 1 < first.len()
            })
    })?;
    // "Oliver's left": the name without its "'s".
    let possessive = first.get(end).is_some_and(|w| {
        !AFTER_SUBJECT.contains(&first.key(end))
            && (w.inner.ends_with("'s") || w.inner.ends_with("\u{2019}s"))
    });
    match possessive {
        true => {
            let name = plain_phrase(first, end)?;
            let own = first.get(end)?.inner;
            let own = own.trim_end_matches("'s").trim_end_matches("\u{2019}s");
            Some(match name.is_empty() {
                true => String::from(own),
                false => format!("{name} {own}"),
            })
        }
        false => plain_phrase(first, end).filter(|s| !s.is_empty()),
    }
}

/// The first `end` words as a line's text: at most five plain words, with
/// no file's name among them.
fn plain_phrase(words: Words<'_>, end: usize) -> Option<String> {
    let phrase = words.to(end);
    let plain = phrase.len() <= 5
        && first_file(phrase).is_none()
        && phrase
            .keys()
            .all(|k| k.chars().all(|c| c.is_alphanumeric() || c == '-'));
    plain.then(|| String::from(phrase.literal().trim_end_matches(['.', ',', ';', ':'])))
}
