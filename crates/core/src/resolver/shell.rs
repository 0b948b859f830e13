//! Shell idioms a terse person types: `echo hi > a.txt`, `echo hi >> a.txt`,
//! `sed s/teh/the/ essay.md`, `less notes.md`, and a verb typed as its wire
//! name (`list_extensions`). Only the idiom's own shape is read; anything
//! else (a pipe, a second command) is not one request and is left alone.

use super::content;
use super::name::{Target, target};
use super::text::Words;
use super::{Resolution, act};
use crate::action::Action;
use alloc::string::String;

/// Pagers and viewers: each reads one file (`head` and `tail` its first or
/// last ten lines, as the commands do).
const VIEWERS: &[&str] = &["less", "more", "head", "tail", "bat", "view"];

pub fn resolve(words: Words<'_>) -> Option<Resolution> {
    match words.key(0) {
        ">>" => appended(words.range(1, 2), words.from(2)),
        _ if words.key(1) == "+=" => appended(words.to(1), words.from(2)),
        "echo" => echoed(words.from(1)),
        "sed" => substituted(words.from(1)),
        "list_extensions" | "list-extensions" if words.len() == 1 => act(Action::ListExtensions),
        // "tail intake.md, 15 lines": the count said after the file.
        "head" | "tail" if words.len() == 4 && words.key(3).starts_with("line") => {
            let Target::File(name) = target(words.range(1, 2)) else {
                return None;
            };
            let n = words
                .key(2)
                .parse::<u64>()
                .ok()?
                .min(crate::command::MAX_LINES);
            let tail = words.key(0) == "tail";
            act(Action::Read {
                name,
                first: (!tail).then_some(n),
                last: tail.then_some(n),
                at: None,
            })
        }
        viewer if VIEWERS.contains(&viewer) && words.len() == 2 => match target(words.from(1)) {
            Target::File(name) => act(Action::Read {
                name,
                first: (viewer == "head").then_some(10),
                last: (viewer == "tail").then_some(10),
                at: None,
            }),
            _ => None,
        },
        _ => None,
    }
}

/// `echo TEXT > NAME` writes, `echo TEXT >> NAME` appends.
fn echoed(words: Words<'_>) -> Option<Resolution> {
    let at = (1..words.len())
        .rev()
        .find(|&i| matches!(words.key(i), ">" | ">>"))?;
    let Target::File(name) = target(words.from(at + 1)) else {
        return None;
    };
    let content = content::text(words.to(at))?;
    if words.keys().any(|k| k == "|") {
        return None;
    }
    act(match words.key(at) {
        ">>" => Action::Append {
            name,
            content,
            expect: None,
            under: None,
        },
        _ => Action::Write {
            name,
            content,
            mode: None,
            expect: None,
        },
    })
}

/// `>> NAME TEXT` (the redirection said first) and `NAME += TEXT` (as a
/// program adds to a string): the text appended to the file named.
fn appended(name: Words<'_>, text: Words<'_>) -> Option<Resolution> {
    let Target::File(name) = target(name) else {
        return None;
    };
    let content = content::text(text)?;
    act(Action::Append {
        name,
        content,
        expect: None,
        under: None,
    })
}

/// `sed s/OLD/NEW/ NAME` (one substitution, any delimiter, the texts with
/// spaces or without): an edit.
fn substituted(words: Words<'_>) -> Option<Resolution> {
    // The script runs to the word that holds its third delimiter.
    let delimiter = words
        .raw(0)
        .trim_start_matches(['\'', '"'])
        .chars()
        .nth(1)?;
    let mut seen = 0;
    let last = (0..words.len()).find(|&at| {
        seen += words.raw(at).matches(delimiter).count();
        seen >= 3
    })?;
    let script = words.to(last + 1).literal();
    let words = words.from(last);
    let script = script.trim_matches(|c| c == '\'' || c == '"');
    let mut chars = script.chars();
    let (Some('s'), Some(delimiter)) = (chars.next(), chars.next()) else {
        return None;
    };
    if delimiter.is_alphanumeric() || delimiter.is_whitespace() {
        return None;
    }
    let parts: alloc::vec::Vec<&str> = script[2..].split(delimiter).collect();
    let [old, new, flags] = parts.as_slice() else {
        return None;
    };
    if old.is_empty() || !flags.is_empty() {
        return None;
    }
    let Target::File(name) = target(words.from(1)) else {
        return None;
    };
    act(Action::Edit {
        name,
        old_text: String::from(*old),
        new_text: String::from(*new),
        expect: None,
    })
}
