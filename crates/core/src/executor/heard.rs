//! Changes from words that may not be what the person meant — heard by a
//! recogniser that can mishear (offline voice), or guessed by the resolver
//! from words it was not sure of — are never done at once. The person is
//! shown the action in words — "I heard: write 'pick up the kids' to
//! todo.txt", "Did you mean: add 'milk' to todo.txt?" — and asked first (the
//! tier table's `heard-change` or `unsure-change`, one `confirm` entry like
//! every ask). A yes carries the action out as if typed, with the ask as its
//! consent: an act that would ask again (a delete, a create over a file) is
//! done at once, and its attempt entry names the ask. Looks (read, list,
//! grep, diff) run at once.

use super::ask::Ask;
use super::{Consent, Executor};
use crate::action::Action;
use crate::audit::ActRecord;
use crate::confirm::{Deferred, in_words};
use crate::contain::{self, RelPath};
use crate::platform::{Abilities, Env, Storage};
use crate::reply::Reply;
use crate::resolver::heard::{OldText, old_text};
use crate::rule::{Refusal, Rule};
use crate::tier::{Act, ActKind};
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

/// Why the words behind an action are checked with the person.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Check {
    /// Offline voice heard them.
    Heard,
    /// The resolver guessed at them.
    Guessed,
}

impl Check {
    fn act(self, kind: ActKind) -> Act {
        match self {
            Check::Heard => Act::heard(kind),
            Check::Guessed => Act::guessed(kind),
        }
    }

    fn plan(self, action: &Action) -> String {
        match self {
            Check::Heard => format!("I heard: {}", in_words(action)),
            Check::Guessed => format!("I guessed: {}", in_words(action)),
        }
    }

    fn deferred(self, action: Action) -> Deferred {
        match self {
            Check::Heard => Deferred::Heard(action),
            Check::Guessed => Deferred::Guessed(action),
        }
    }
}

impl<S: Storage, E: Env, A: Abilities> Executor<S, E, A> {
    /// Runs an action whose words are checked first: a look at once, a
    /// change asked first.
    pub(super) async fn check(
        &mut self,
        action: Action,
        check: Check,
        turn: Option<&str>,
    ) -> Reply {
        let Some(kind) = action.verb().command().act else {
            return self.execute_action(action, turn).await;
        };
        if !action.verb().changes_files() {
            return self.execute_action(action, turn).await;
        }
        if let Err(refusal) = self.root_ready().await {
            return Reply::refusal(refusal);
        }
        // A name that leaves the folder is refused by name, never asked about.
        let target = action.file().map(String::from);
        let path = match &target {
            Some(name) => match contain::contain(self.store(), name).await {
                Ok(path) => path,
                Err(_) => return self.execute_action(action, turn).await,
            },
            None => RelPath::root(),
        };
        let action = match (check, action) {
            (
                Check::Heard,
                Action::Edit {
                    name,
                    old_text,
                    new_text,
                    expect,
                },
            ) => match self.settled_old_text(&path, old_text).await {
                Ok(old_text) => Action::Edit {
                    name,
                    old_text,
                    new_text,
                    expect,
                },
                Err((refusal, candidates)) => {
                    let record = ActRecord::new(kind, target.as_deref().unwrap_or(""));
                    let mut reply = self.refuse(refusal, record, turn).await;
                    reply.candidates = Some(candidates);
                    return reply;
                }
            },
            (_, action) => action,
        };
        let verdict = self.table.decide(&check.act(kind));
        let seen = self.store().observe(&path).await;
        let ask = Ask {
            record: ActRecord::new(kind, target.as_deref().unwrap_or("")),
            plan: check.plan(&action),
            path,
            verdict,
            deferred: check.deferred(action),
        };
        self.ask(ask, &seen, turn).await
    }

    /// A heard edit's old text, settled on the file's own text (see
    /// [`old_text`]): in another case or a letter or two off, the file's
    /// words are what the question shows; several places are refused by
    /// name with them as candidates; a file that cannot be read, or nothing
    /// like the words, leaves them as heard (the edit says why on yes).
    async fn settled_old_text(
        &self,
        path: &RelPath,
        heard: String,
    ) -> Result<String, (Refusal, Vec<String>)> {
        let Ok(content) = self.read_text(path).await else {
            return Ok(heard);
        };
        match old_text(&content, &heard) {
            OldText::Found(found) => Ok(found),
            OldText::Missing => Ok(heard),
            OldText::Candidates(candidates) => {
                let refusal = Refusal::new(
                    Rule::HeardTextUnsure,
                    format!(
                        "I heard '{heard}', which fits more than one place in {path}; nothing was done. Say the change again with more of the words you mean"
                    ),
                );
                Err((refusal, candidates))
            }
        }
    }

    /// A checked action the person said yes to: carried out as typed, with
    /// `consent` (the ask's seq) answering any ask of its own; `spoken`, the
    /// words of a yes said by voice, is written on its attempt entries.
    pub(super) async fn heard_and_approved(
        &mut self,
        action: Action,
        ask_seq: Option<u64>,
        spoken: Option<String>,
        turn: Option<&str>,
    ) -> Reply {
        self.consent = Some(Consent { ask_seq });
        self.spoken = spoken;
        let reply = self.execute_action(action, turn).await;
        self.consent = None;
        self.spoken = None;
        reply
    }
}
