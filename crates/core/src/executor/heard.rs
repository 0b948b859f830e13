//! Changes heard by a recogniser that can mishear (offline voice): never
//! done on hearing. The person is shown what was heard — "I heard: write
//! 'pick up the kids' to todo.txt" — and asked first (the tier table's
//! `heard-change`, one `confirm` entry like every ask). A yes carries the
//! action out as if typed, with the ask as its consent: an act that would
//! ask again (a delete, a create over a file) is done at once, and its
//! attempt entry names the ask. Looks (read, list, grep, diff) run at once.

use super::ask::Ask;
use super::{Consent, Executor};
use crate::action::{Action, WriteMode};
use crate::audit::ActRecord;
use crate::confirm::Deferred;
use crate::contain::{self, RelPath};
use crate::platform::{Abilities, Env, Storage};
use crate::reply::Reply;
use crate::tier::Act;
use alloc::format;
use alloc::string::String;

/// The longest stretch of heard words a plan quotes.
const QUOTED: usize = 120;

impl<S: Storage, E: Env, A: Abilities> Executor<S, E, A> {
    /// Runs what offline voice heard: a look at once, a change asked first.
    pub(super) async fn hear(&mut self, action: Action, turn: Option<&str>) -> Reply {
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
        let verdict = self.table.decide(&Act::heard(kind));
        let seen = self.store().observe(&path).await;
        let ask = Ask {
            record: ActRecord::new(kind, target.as_deref().unwrap_or("")),
            plan: format!("I heard: {}", heard(&action)),
            path,
            verdict,
            deferred: Deferred::Heard(action),
        };
        self.ask(ask, &seen, turn).await
    }

    /// A heard action the person said yes to: carried out as typed, with
    /// `consent` (the ask's seq) answering any ask of its own.
    pub(super) async fn heard_and_approved(
        &mut self,
        action: Action,
        ask_seq: Option<u64>,
        turn: Option<&str>,
    ) -> Reply {
        self.consent = Some(Consent { ask_seq });
        let reply = self.execute_action(action, turn).await;
        self.consent = None;
        reply
    }
}

/// What was heard, in the words a person checks it by.
fn heard(action: &Action) -> String {
    match action {
        Action::Write {
            name,
            content,
            mode,
        } => match (mode, content.is_empty()) {
            (Some(WriteMode::Create), true) => format!("create an empty file {name}"),
            (Some(WriteMode::Create), false) => {
                format!("create {name} with {}", quoted(content))
            }
            (_, true) => format!("empty {name}"),
            (_, false) => format!("write {} to {name}", quoted(content)),
        },
        Action::Append { name, content } => format!("add {} to {name}", quoted(content)),
        Action::Edit {
            name,
            old_text,
            new_text,
        } => format!(
            "change {} to {} in {name}",
            quoted(old_text),
            quoted(new_text)
        ),
        Action::Delete { name } => format!("delete {name}"),
        Action::Undo => "undo the last change".into(),
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
