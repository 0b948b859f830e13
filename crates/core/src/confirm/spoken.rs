//! A spoken answer to a heard change: never "yes", but a challenge bound to
//! the plan, so that a mishearing, a television, a second person or the
//! page's own voice cannot pass for consent.
//!
//! - A change that keeps what the file held (a new file, an append, an edit,
//!   a list's item) is confirmed by saying the file's name as a name
//!   ("groceries" for `groceries.md`);
//! - a change that loses something (a delete, an overwrite, a move, a copy,
//!   an undo) by the verb *and* the name ("delete groceries"): the name alone
//!   — what the question itself says — is not enough;
//! - "no", "cancel" or "stop" declines; anything else is no answer.
//!
//! The whole utterance must be the challenge, word for word: a sentence
//! that merely contains it (the page reading the question aloud, a person
//! talking about the file) is no answer. The recogniser listens for exactly
//! these words ([`Challenge::words`], [`DECLINES`]); deciding what they
//! mean is here.

use crate::action::Action;
use crate::resolver::NUMBERS;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

/// Words that decline a question said by voice.
pub const DECLINES: &[&str] = &["no", "cancel", "stop"];

/// The words that answer one question, lowercase, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Challenge {
    words: Vec<String>,
}

/// What a spoken answer came to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spoken {
    /// The challenge, word for word.
    Confirms,
    /// "no", "cancel" or "stop".
    Declines,
    /// Anything else: no answer at all.
    Mismatch,
}

impl Challenge {
    /// The challenge for a heard `action`; `exists` says whether its file is
    /// there now (a write over it is an overwrite). `None` when its name has
    /// nothing to say (no letters or digits): then only a click answers.
    pub fn of(action: &Action, exists: bool) -> Option<Challenge> {
        let verb = match action {
            Action::Delete { .. } => Some("delete"),
            Action::Move { .. } => Some("move"),
            Action::Copy { .. } => Some("copy"),
            Action::Undo { .. } => Some("undo"),
            // A create over a file that exists replaces it too.
            Action::Write { .. } if exists => Some("overwrite"),
            _ => None,
        };
        let name = match action.file() {
            Some(file) => name_words(file)?,
            None => Vec::new(),
        };
        let words: Vec<String> = verb.map(String::from).into_iter().chain(name).collect();
        (!words.is_empty()).then_some(Challenge { words })
    }

    /// The words to say, as the recogniser must hear them.
    pub fn words(&self) -> &[String] {
        &self.words
    }

    /// The words as one phrase ("delete groceries"), for the question.
    pub fn phrase(&self) -> String {
        self.words.join(" ")
    }

    /// What `heard` (a recogniser's words, any case, punctuation aside)
    /// answers: the challenge exactly, a decline, or nothing.
    pub fn judge(&self, heard: &str) -> Spoken {
        let said: Vec<String> = heard
            .split(|c: char| !c.is_alphanumeric() && c != '\'')
            .filter(|w| !w.is_empty())
            .map(str::to_lowercase)
            .collect();
        if said == self.words {
            Spoken::Confirms
        } else if said.len() == 1 && DECLINES.contains(&said[0].as_str()) {
            Spoken::Declines
        } else {
            Spoken::Mismatch
        }
    }
}

/// A file's name said as a name: its last part without the extension,
/// lowercase words, digits as number words ("Meeting-Notes 2.md" →
/// "meeting notes two"); `None` when nothing of it can be said.
pub fn name_words(file: &str) -> Option<Vec<String>> {
    let last = file.trim_end_matches('/').rsplit('/').next()?;
    let stem = match last.rsplit_once('.') {
        // A dot file (".bashrc") is all name.
        Some((stem, _)) if !stem.is_empty() => stem,
        _ => last,
    };
    let mut words = Vec::new();
    for part in stem.split(|c: char| !c.is_alphanumeric()) {
        let mut rest = part;
        while !rest.is_empty() {
            let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
            if digits > 0 {
                words.extend(number_words(&rest[..digits]));
                rest = &rest[digits..];
            } else {
                let letters = rest
                    .find(|c: char| c.is_ascii_digit())
                    .unwrap_or(rest.len());
                words.push(rest[..letters].to_lowercase());
                rest = &rest[letters..];
            }
        }
    }
    (!words.is_empty()).then_some(words)
}

/// "2" → "two", "12" → "twelve", "2026" → "two zero two six".
fn number_words(digits: &str) -> Vec<String> {
    match digits.parse::<usize>() {
        Ok(n) if n < NUMBERS.len() && !(digits.len() > 1 && digits.starts_with('0')) => {
            alloc::vec![NUMBERS[n].to_string()]
        }
        _ => digits
            .bytes()
            .map(|d| NUMBERS[usize::from(d - b'0')].to_string())
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::action::WriteMode;

    fn append(name: &str) -> Action {
        Action::Append {
            name: name.into(),
            content: "oat milk".into(),
            under: None,
            expect: None,
        }
    }

    fn phrase(action: &Action, exists: bool) -> String {
        Challenge::of(action, exists).unwrap().phrase()
    }

    #[test]
    fn a_change_that_keeps_the_file_is_answered_by_its_name_and_yes_is_no_answer() {
        let challenge = Challenge::of(&append("groceries.md"), true).unwrap();
        assert_eq!(challenge.phrase(), "groceries");
        assert_eq!(challenge.judge("groceries"), Spoken::Confirms);
        assert_eq!(challenge.judge("Groceries."), Spoken::Confirms);
        for not in ["yes", "okay", "sure", "do it", "yes groceries", "notes", ""] {
            assert_eq!(challenge.judge(not), Spoken::Mismatch, "{not}");
        }
        for no in ["no", "Cancel", "stop."] {
            assert_eq!(challenge.judge(no), Spoken::Declines, "{no}");
        }
    }

    #[test]
    fn a_change_that_loses_something_takes_the_verb_and_the_name() {
        let delete = Challenge::of(
            &Action::Delete {
                name: "groceries.md".into(),
            },
            true,
        )
        .unwrap();
        assert_eq!(delete.judge("delete groceries"), Spoken::Confirms);
        assert_eq!(delete.judge("groceries"), Spoken::Mismatch);
        assert_eq!(delete.judge("delete"), Spoken::Mismatch);
        assert_eq!(delete.judge("yes delete groceries"), Spoken::Mismatch);
        let write = |mode| Action::Write {
            name: "plan.md".into(),
            content: "x".into(),
            mode,
            expect: None,
        };
        assert_eq!(phrase(&write(None), true), "overwrite plan");
        assert_eq!(
            phrase(&write(Some(WriteMode::Create)), true),
            "overwrite plan"
        );
        // A new file keeps everything: its name is enough.
        assert_eq!(phrase(&write(None), false), "plan");
        let moved = Action::Move {
            name: "a.txt".into(),
            to: "b.txt".into(),
        };
        assert_eq!(phrase(&moved, true), "move a");
        assert_eq!(phrase(&Action::Undo { name: None }, false), "undo");
    }

    #[test]
    fn a_name_is_said_as_words() {
        let said = |file: &str| name_words(file).map(|w| w.join(" "));
        assert_eq!(
            said("drafts/Meeting-Notes 2.md").as_deref(),
            Some("meeting notes two")
        );
        assert_eq!(
            said("budget2026.xlsx").as_deref(),
            Some("budget two zero two six")
        );
        assert_eq!(said(".bashrc").as_deref(), Some("bashrc"));
        assert_eq!(said("todo").as_deref(), Some("todo"));
        assert_eq!(said("__.md"), None);
        assert_eq!(Challenge::of(&append("__.md"), true), None);
    }
}
