//! Pending tier-2 confirmations: single-use ids that expire.

pub mod spoken;

use crate::action::{Action, WriteMode};
use crate::contain::RelPath;
use crate::rule::{Refusal, Rule};
use crate::tier::ActKind;
use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;

/// The longest stretch of the person's words a question quotes.
const QUOTED: usize = 120;

/// How long a person has to answer a confirmation.
pub const CONFIRM_TTL_MS: u64 = 5 * 60 * 1000;
/// At most this many confirmations wait at once; the oldest goes first.
pub const MAX_PENDING: usize = 64;

/// What a pending act will do once the person says yes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Deferred {
    Delete,
    /// Remove the (empty) folder.
    RemoveFolder,
    /// Move the file to `to`, replacing the file there.
    Move {
        to: RelPath,
    },
    /// Copy `from` to the file, replacing what it holds.
    Copy {
        from: RelPath,
    },
    /// Write this content (a create over a file that exists).
    Write {
        content: String,
    },
    /// Carry out this action as heard (offline voice), the person having
    /// checked what was heard.
    Heard(Action),
    /// Carry out the resolver's best guess at words it was not sure of,
    /// the person having said it is what they meant.
    Guessed(Action),
}

/// How a question is put to a person: the question, what yes means, and
/// the two answers' labels (the page shows them as they are).
pub struct Words {
    pub question: String,
    pub consequence: &'static str,
    pub yes: &'static str,
    pub no: &'static str,
    /// What a question left unanswered until it expired came to.
    pub expired: &'static str,
    /// A no leaves the person's words to say again: the question was a
    /// guess at them.
    pub rephrase: bool,
}

impl Words {
    /// A question whose yes deletes (undo brings it back).
    fn deleting(question: String) -> Words {
        Words {
            question,
            consequence: "You can bring it back with undo.",
            yes: "Delete",
            no: "Cancel",
            expired: "Timed out — nothing deleted.",
            rephrase: false,
        }
    }

    /// A question whose yes replaces what a file holds (undo brings it back).
    fn replacing(question: String, no: &'static str, expired: &'static str) -> Words {
        Words {
            question,
            consequence: "What it holds now is replaced; Undo brings it back.",
            yes: "Replace",
            no,
            expired,
            rephrase: false,
        }
    }

    /// A question whose yes does what the person's words were taken to mean.
    fn checking(question: String, consequence: &'static str, rephrase: bool) -> Words {
        Words {
            question,
            consequence,
            yes: "Yes, do it",
            no: "No",
            expired: "Timed out — nothing was done.",
            rephrase,
        }
    }
}

impl Deferred {
    /// The question about this act on `path`, in plain words.
    pub fn words(&self, path: &str) -> Words {
        match self {
            Deferred::Delete => Words::deleting(format!("Delete {path}?")),
            Deferred::RemoveFolder => Words::deleting(format!("Delete the empty folder {path}?")),
            Deferred::Move { to } => Words::replacing(
                format!("Move {path} over {to}?"),
                "Keep both",
                "Timed out — nothing moved.",
            ),
            Deferred::Copy { from } => Words::replacing(
                format!("Copy {from} over {path}?"),
                "Keep it",
                "Timed out — nothing copied.",
            ),
            Deferred::Write { .. } => Words::replacing(
                format!("Replace {path}?"),
                "Keep it",
                "Timed out — nothing replaced.",
            ),
            Deferred::Heard(_) => Words::checking(
                "Is this what you said?".into(),
                "Nothing changes until you say yes.",
                false,
            ),
            Deferred::Guessed(action) => Words::checking(
                format!("Did you mean: {}?", in_words(action)),
                "Nothing changes until you say yes; if it is not what you meant, say it in other words.",
                true,
            ),
        }
    }

    /// Whether yes loses what a file holds (undo may bring it back).
    pub fn loses_something(&self) -> bool {
        matches!(
            self,
            Deferred::Delete
                | Deferred::Write { .. }
                | Deferred::Move { .. }
                | Deferred::Copy { .. }
        )
    }

    pub fn kind(&self) -> ActKind {
        match self {
            Deferred::Delete | Deferred::RemoveFolder => ActKind::Delete,
            Deferred::Write { .. } | Deferred::Move { .. } | Deferred::Copy { .. } => {
                ActKind::Write
            }
            Deferred::Heard(action) | Deferred::Guessed(action) => {
                action.verb().command().act.unwrap_or(ActKind::Write)
            }
        }
    }

    /// The action a yes carries out as asked, when the question was about
    /// the words (heard or guessed) rather than the act.
    pub fn checked(&self) -> Option<&Action> {
        match self {
            Deferred::Heard(action) | Deferred::Guessed(action) => Some(action),
            _ => None,
        }
    }
}

/// An action in the words a person checks it by ("add 'milk' to
/// todo.txt"): what was heard, or what was guessed.
pub fn in_words(action: &Action) -> String {
    match action {
        Action::Write {
            name,
            content,
            mode,
            ..
        } => match (mode, content.is_empty()) {
            (Some(WriteMode::Create), true) => format!("create an empty file {name}"),
            (Some(WriteMode::Create), false) => {
                format!("create {name} with {}", quoted(content))
            }
            (_, true) => format!("empty {name}"),
            (_, false) => format!("write {} to {name}", quoted(content)),
        },
        Action::Append {
            name,
            content,
            under: None,
            ..
        } => format!("add {} to {name}", quoted(content)),
        Action::Append {
            name,
            content,
            under: Some(under),
            ..
        } => format!("add {} to {name} under {}", quoted(content), quoted(under)),
        Action::Edit {
            name,
            old_text,
            new_text,
            ..
        } => format!(
            "change {} to {} in {name}",
            quoted(old_text),
            quoted(new_text)
        ),
        Action::Delete { name } => format!("delete {name}"),
        Action::Undo { name: None } => "undo the last change".into(),
        Action::Undo { name: Some(name) } => format!("undo the last change to {name}"),
        Action::Move { name, to } => format!("move {name} to {to}"),
        Action::Copy { name, to } => format!("copy {name} to {to}"),
        Action::Mkdir { name } => format!("make the folder {name}"),
        Action::CheckItem {
            name, item, done, ..
        } => match done {
            Some(false) => format!("un-tick {} in {name}", quoted(item)),
            _ => format!("tick {} in {name}", quoted(item)),
        },
        Action::RemoveItem { name, item } => format!("remove {} from {name}", quoted(item)),
        Action::CreateAsset { name, kind, .. } => format!("make the {kind} asset {name}"),
        other => match other.file() {
            Some(name) => format!("{} {name}", other.verb().wire()),
            None => String::from(other.verb().wire()),
        },
    }
}

/// `text` in quotes, cut at [`QUOTED`] characters.
fn quoted(text: &str) -> String {
    match text.char_indices().nth(QUOTED) {
        Some((cut, _)) => format!("'{}…'", &text[..cut]),
        None => format!("'{text}'"),
    }
}

/// One act waiting for the person's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PendingAct {
    pub deferred: Deferred,
    pub path: RelPath,
    pub turn: Option<String>,
    /// The audit seq of the ask entry (if it was written).
    pub ask_seq: Option<u64>,
    /// What a spoken answer must say (a heard change only; else a click).
    pub challenge: Option<spoken::Challenge>,
    pub created_ms: u64,
    pub expires_ms: u64,
}

/// What waits for a person's answer: when it was asked and until when.
pub trait Waiting {
    fn created_ms(&self) -> u64;
    fn expires_ms(&self) -> u64;
}

impl Waiting for PendingAct {
    fn created_ms(&self) -> u64 {
        self.created_ms
    }

    fn expires_ms(&self) -> u64 {
        self.expires_ms
    }
}

/// The table of questions waiting for the person (the executor's acts; a
/// host may keep its own, e.g. a folder switch the page asked for).
#[derive(Debug)]
pub struct Pending<T = PendingAct> {
    acts: BTreeMap<String, T>,
}

impl<T> Default for Pending<T> {
    fn default() -> Self {
        Pending {
            acts: BTreeMap::new(),
        }
    }
}

impl<T: Waiting> Pending<T> {
    /// Files an act under a fresh id, dropping expired ones and, past the
    /// cap, the oldest.
    pub fn insert(&mut self, id: String, act: T) {
        let now = act.created_ms();
        self.acts.retain(|_, a| a.expires_ms() > now);
        while self.acts.len() >= MAX_PENDING {
            let oldest = self
                .acts
                .iter()
                .min_by_key(|(_, a)| a.created_ms())
                .map(|(id, _)| id.clone());
            match oldest {
                Some(id) => self.acts.remove(&id),
                None => break,
            };
        }
        self.acts.insert(id, act);
    }

    /// Takes an act by id: each id answers once; an expired id is refused.
    pub fn take(&mut self, id: &str, now_ms: u64) -> Result<T, Refusal> {
        let act = self.acts.remove(id).ok_or_else(|| {
            Refusal::new(
                Rule::ConfirmationUnknown,
                "no act is waiting under that confirmation id (it was answered already or never existed); ask again",
            )
        })?;
        if act.expires_ms() <= now_ms {
            return Err(Refusal::new(
                Rule::ConfirmationExpired,
                "that confirmation expired before it was answered; ask again",
            ));
        }
        Ok(act)
    }

    /// Whether `id` is one of this table's (answered or not yet expired).
    pub fn holds(&self, id: &str) -> bool {
        self.acts.contains_key(id)
    }

    pub fn len(&self) -> usize {
        self.acts.len()
    }

    pub fn is_empty(&self) -> bool {
        self.acts.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn act(created: u64) -> PendingAct {
        PendingAct {
            deferred: Deferred::Delete,
            path: RelPath::root(),
            turn: None,
            ask_seq: None,
            challenge: None,
            created_ms: created,
            expires_ms: created + CONFIRM_TTL_MS,
        }
    }

    #[test]
    fn ids_are_single_use_and_expire() {
        let mut pending = Pending::default();
        pending.insert("a".into(), act(0));
        assert!(pending.take("a", 1).is_ok());
        assert_eq!(
            pending.take("a", 1).unwrap_err().rule,
            Rule::ConfirmationUnknown
        );
        pending.insert("b".into(), act(0));
        assert_eq!(
            pending.take("b", CONFIRM_TTL_MS).unwrap_err().rule,
            Rule::ConfirmationExpired
        );
    }

    #[test]
    fn the_table_is_bounded() {
        let mut pending = Pending::default();
        for i in 0..(MAX_PENDING as u64 + 10) {
            pending.insert(alloc::format!("{i}"), act(i));
        }
        assert_eq!(pending.len(), MAX_PENDING);
        assert!(pending.take("0", 100).is_err());
        assert!(
            pending
                .take(&alloc::format!("{}", MAX_PENDING + 9), 100)
                .is_ok()
        );
    }
}
