//! Words a recogniser heard, settled against what exists: a recogniser
//! hears sounds, so its words may differ from the folder's names and the
//! file's text in case, in spelling, or as another word that sounds alike.
//!
//! - A name the folder does not hold settles on the one name that sounds
//!   the same ([`sound`], a Metaphone-style key of its stem): "grossaries"
//!   → `groceries.md`, a guess (a change is asked anyway); two that sound
//!   alike are asked about, never chosen.
//! - A new name keeps the case a person would type: the recogniser's
//!   sentence case ("Meeting.md") is not the person's, so it is `meeting.md`.
//! - An edit's old text settles on the file's own text ([`old_text`]): the
//!   same words in another case first, then one near spelling; several are
//!   asked about with the candidates; none leaves the words as heard.

use super::{Folder, Resolution, unresolved};
use crate::action::{Action, WriteMode};
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

/// The most places in a file offered as candidates.
const MAX_CANDIDATES: usize = 5;

/// `resolution` (of heard words) with its file settled on the folder by
/// sound, and a new file's name in the case a person would type.
pub fn settle_heard(resolution: Resolution, folder: &Folder) -> Resolution {
    let (mut action, assumed) = match resolution {
        Resolution::Action(action) => (action, None),
        Resolution::Guess { action, assumed } => (action, Some(assumed)),
        unresolved => return unresolved,
    };
    let creates = matches!(
        action,
        Action::Write {
            mode: Some(WriteMode::Create),
            ..
        } | Action::CreateAsset { .. }
    );
    let exists = |name: &str| folder.names().iter().any(|n| n == name);
    let mut sounded = None;
    if let Some(name) = action.file_mut()
        && !exists(name)
    {
        let alike: Vec<&String> = folder
            .names()
            .iter()
            .filter(|n| sound(stem(n)) == sound(stem(name)) && !sound(stem(name)).is_empty())
            .collect();
        match alike.as_slice() {
            [one] if !creates => {
                sounded = Some(format!("took '{name}' as '{one}', which sounds the same"));
                *name = (*one).clone();
            }
            [_, _, ..] if !creates => {
                let names: Vec<&str> = alike.iter().map(|n| n.as_str()).collect();
                return unresolved(format!(
                    "'{name}' sounds like {}: say which, with its letters",
                    names.join(" and ")
                ));
            }
            _ => *name = typed_case(name),
        }
    }
    match (assumed, sounded) {
        (None, None) => Resolution::Action(action),
        (Some(a), None) | (None, Some(a)) => Resolution::Guess { action, assumed: a },
        (Some(a), Some(b)) => Resolution::Guess {
            action,
            assumed: format!("{a}; {b}"),
        },
    }
}

/// A name in the case a person types: a recogniser's sentence case (a
/// capital first letter and no other) is lowered; any other case is kept.
pub fn typed_case(name: &str) -> String {
    let (folder, last) = match name.rsplit_once('/') {
        Some((folder, last)) => (Some(folder), last),
        None => (None, name),
    };
    let mut chars = last.chars();
    let sentence_case = chars.next().is_some_and(char::is_uppercase)
        && !chars.clone().any(char::is_uppercase)
        && chars.any(char::is_lowercase);
    let last = match sentence_case {
        true => last.to_lowercase(),
        false => last.to_string(),
    };
    match folder {
        Some(folder) => format!("{folder}/{last}"),
        None => last,
    }
}

/// A name's last part without its extension.
fn stem(name: &str) -> &str {
    let last = name.rsplit('/').next().unwrap_or(name);
    match last.rsplit_once('.') {
        Some((stem, _)) if !stem.is_empty() => stem,
        _ => last,
    }
}

/// A Metaphone-style key: how a word sounds, not how it is spelled, so
/// "groceries", "grossaries" and "grocerys" share one. Letters only, in
/// lowercase; a vowel counts only as the first sound; letters that sound
/// alike share one symbol (c/k/q, s/z/x, ph/f, soft g/j, ...); silent
/// openings ("kn", "wr", "ps") lose their first letter; a sound said twice
/// in a row counts once.
pub fn sound(word: &str) -> String {
    let w: Vec<char> = word
        .chars()
        .filter(char::is_ascii_alphabetic)
        .map(|c| c.to_ascii_lowercase())
        .collect();
    let at = |i: usize| w.get(i).copied().unwrap_or(' ');
    let soft = |c: char| matches!(c, 'e' | 'i' | 'y');
    let vowel = |c: char| matches!(c, 'a' | 'e' | 'i' | 'o' | 'u');
    let start = match (at(0), at(1)) {
        ('k' | 'g' | 'p', 'n') | ('w', 'r') | ('p', 's') => 1,
        _ => 0,
    };
    let mut key = String::new();
    let mut i = start;
    while i < w.len() {
        let (c, next) = (w[i], at(i + 1));
        // (the sound, how many letters make it)
        let (sound, letters) = match c {
            _ if vowel(c) => (Some('a').filter(|_| i == start), 1),
            'c' | 's' if next == 'h' => (Some('x'), 2),
            'c' if soft(next) => (Some('s'), 1),
            'c' | 'k' | 'q' => (Some('k'), 1),
            'g' if next == 'h' => (None, 2),
            'g' if soft(next) => (Some('j'), 1),
            'p' if next == 'h' => (Some('f'), 2),
            't' if next == 'h' => (Some('0'), 2),
            'x' | 'z' => (Some('s'), 1),
            'h' | 'w' | 'y' if !vowel(next) => (None, 1),
            other => (Some(other), 1),
        };
        if let Some(sound) = sound
            && !key.ends_with(sound)
        {
            key.push(sound);
        }
        i += letters;
    }
    key
}

/// Where an edit's heard old text settles in the file.
#[derive(Debug, PartialEq, Eq)]
pub enum OldText {
    /// The file's own text for it (the same words, or one place close to them).
    Found(String),
    /// Several places could be meant: asked, with them.
    Candidates(Vec<String>),
    /// Nothing like it: the words stay as heard (the edit says not found).
    Missing,
}

/// Settles `heard` on `content`: as it is; else the same characters in
/// another case (one distinct text); else one run of the file's words a
/// few letters from it (at most one edit in five letters).
pub fn old_text(content: &str, heard: &str) -> OldText {
    let heard = heard.trim();
    if heard.is_empty() || content.contains(heard) {
        return OldText::Found(heard.into());
    }
    let chars: Vec<(usize, char)> = content.char_indices().collect();
    let n = heard.chars().count();
    let mut same: Vec<String> = Vec::new();
    for start in 0..chars.len().saturating_sub(n - 1) {
        let from = chars[start].0;
        let to = chars.get(start + n).map_or(content.len(), |(at, _)| *at);
        let window = &content[from..to];
        if window.to_lowercase() == heard.to_lowercase() && !same.iter().any(|s| s == window) {
            same.push(window.into());
        }
    }
    if !same.is_empty() {
        return chosen(same);
    }
    let words: Vec<&str> = content.split_whitespace().collect();
    let count = heard.split_whitespace().count().max(1);
    let allowed = (heard.len() / 5).max(1);
    let lowered = heard.to_lowercase();
    let mut near: Vec<String> = Vec::new();
    for run in [count, count + 1, count.saturating_sub(1)] {
        if run == 0 || run > words.len() {
            continue;
        }
        for window in words.windows(run) {
            let said = window.join(" ");
            let close = super::typo::distance(&said.to_lowercase(), &lowered) <= allowed;
            if close && content.contains(&said) && !near.contains(&said) {
                near.push(said);
            }
        }
    }
    match near.is_empty() {
        true => OldText::Missing,
        false => chosen(near),
    }
}

fn chosen(mut found: Vec<String>) -> OldText {
    match found.len() {
        1 => OldText::Found(found.remove(0)),
        _ => {
            found.truncate(MAX_CANDIDATES);
            OldText::Candidates(found)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    fn folder(names: &[&str]) -> Folder {
        Folder::new(names.iter().map(|n| n.to_string()).collect())
    }

    fn append(name: &str) -> Resolution {
        Resolution::Action(Action::Append {
            name: name.into(),
            content: "milk".into(),
            under: None,
            expect: None,
        })
    }

    #[test]
    fn a_name_settles_on_the_one_that_sounds_the_same_and_two_are_asked() {
        let groceries = folder(&["groceries.md", "notes.md"]);
        let settled = settle_heard(append("grossaries.md"), &groceries);
        assert_eq!(
            settled.action().and_then(Action::file),
            Some("groceries.md")
        );
        assert!(
            matches!(settled, Resolution::Guess { .. }),
            "a guess: {settled:?}"
        );
        // Sure when it is there; nothing that sounds alike stays as said.
        assert_eq!(
            settle_heard(append("notes.md"), &groceries),
            append("notes.md")
        );
        assert_eq!(
            settle_heard(append("plan.md"), &groceries),
            append("plan.md")
        );
        // Two that sound alike: asked, never chosen.
        let two = folder(&["groceries.md", "grossaries.txt"]);
        assert!(matches!(
            settle_heard(append("grocerys.md"), &two),
            Resolution::Unresolved { .. }
        ));
        assert_eq!(sound("groceries"), sound("grossaries"));
        assert_eq!(sound("phone"), sound("fone"));
        assert_ne!(sound("groceries"), sound("notes"));
    }

    #[test]
    fn a_new_name_keeps_the_case_a_person_types() {
        let create = |name: &str| {
            Resolution::Action(Action::Write {
                name: name.into(),
                content: String::new(),
                mode: Some(WriteMode::Create),
                expect: None,
            })
        };
        let empty = folder(&[]);
        let made = settle_heard(create("Meeting.md"), &empty);
        assert_eq!(made.action().and_then(Action::file), Some("meeting.md"));
        // A name with capitals of its own keeps them, and so does one that exists.
        for kept in ["README.md", "MeetingNotes.md", "drafts/PlanB.md"] {
            let made = settle_heard(create(kept), &empty);
            assert_eq!(made.action().and_then(Action::file), Some(kept));
        }
        let there = folder(&["Meeting.md"]);
        assert_eq!(
            settle_heard(append("Meeting.md"), &there),
            append("Meeting.md")
        );
        // A create never settles onto a file that sounds alike.
        let groceries = folder(&["groceries.md"]);
        let made = settle_heard(create("grossaries.md"), &groceries);
        assert_eq!(made.action().and_then(Action::file), Some("grossaries.md"));
    }

    #[test]
    fn old_text_settles_on_the_files_text_case_first_then_one_near_spelling() {
        let file = "Buy Oat Milk\ncall the plumber\n";
        assert_eq!(
            old_text(file, "oat milk"),
            OldText::Found("Oat Milk".into())
        );
        assert_eq!(
            old_text(file, "call the plumer"),
            OldText::Found("call the plumber".into())
        );
        assert_eq!(
            old_text(file, "Oat Milk"),
            OldText::Found("Oat Milk".into())
        );
        // Too far from anything: left as heard.
        assert_eq!(old_text(file, "walk the dog"), OldText::Missing);
        // Two places that fit: asked with both.
        let twice = "Milk\nmilk\n";
        assert_eq!(
            old_text(twice, "MILK"),
            OldText::Candidates(vec!["Milk".into(), "milk".into()])
        );
        assert_eq!(
            old_text("walk the cat\ntalk the cat\n", "balk the cat"),
            OldText::Candidates(vec!["walk the cat".into(), "talk the cat".into()])
        );
    }
}
