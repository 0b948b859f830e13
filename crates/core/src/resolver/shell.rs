//! Shell idioms a terse person types: `echo hi > a.txt`, `echo hi >> a.txt`,
//! `sed s/teh/the/ essay.md`, `less notes.md`, and a verb typed as its wire
//! name (`list_extensions`). Only the idiom's own shape is read; anything
//! else (a pipe, a second command) is not one request and is left alone.

use super::content;
use super::name::{Target, target};
use super::phrases::phrases;
use super::text::Words;
use super::{Resolution, act};
use crate::action::Action;
use alloc::string::String;

/// Pagers and viewers: each reads one file whole.
const VIEWERS: &[&str] = &["less", "more", "bat", "view"];

pub fn resolve(words: Words<'_>) -> Option<Resolution> {
    match words.key(0) {
        ">>" => appended(words.range(1, 2), words.from(2)),
        _ if words.key(1) == "+=" => appended(words.to(1), words.from(2)),
        "echo" => echoed(words.from(1)),
        "sed" => substituted(words.from(1)),
        "list_extensions" | "list-extensions" if words.len() == 1 => act(Action::ListExtensions),
        "head" | "tail" => paged(words),
        viewer if VIEWERS.contains(&viewer) && words.len() == 2 => match target(words.from(1)) {
            Target::File(name) => act(Action::Read {
                name,
                first: None,
                last: None,
                at: None,
            }),
            _ => None,
        },
        _ => None,
    }
}

/// `head` and `tail` as typed: `tail notes.md` (ten lines, as the commands
/// do), `head -n 5 notes.md`, `head -5 notes.md`, `tail intake.md, 15
/// lines`, `tail of cleans.md, last 8 lines`.
fn paged(words: Words<'_>) -> Option<Resolution> {
    let tail = words.key(0) == "tail";
    let rest = words.from(1).trim_start(phrases!("of"));
    let flag = rest.key(0);
    let (flagged, rest) = match flag.strip_prefix('-') {
        Some("n") => (Some(rest.key(1).parse::<u64>().ok()?), rest.from(2)),
        Some(digits) => (
            Some(digits.trim_start_matches('n').parse::<u64>().ok()?),
            rest.from(1),
        ),
        None => (None, rest),
    };
    let Target::File(name) = target(rest.to(1)) else {
        return None;
    };
    let after = rest
        .from(1)
        .trim_start(phrases!("[the] (first | last | top | bottom)"));
    let n = match (flagged, after.len()) {
        (Some(n), 0) => n,
        (None, 0) => 10,
        (None, 2) if after.key(1).starts_with("line") => after.key(0).parse::<u64>().ok()?,
        _ => return None,
    }
    .min(crate::command::MAX_LINES);
    act(Action::Read {
        name,
        first: (!tail).then_some(n),
        last: tail.then_some(n),
        at: None,
    })
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
