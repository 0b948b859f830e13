//! One turn, the same on every entry point (HTTP, the CLI, the browser
//! worker, offline live voice): the person's words or a structured action
//! in; words resolved once into a typed [`Action`] that is never turned back
//! into JSON to be parsed again; one act; one answer shape.
//!
//! Where the act runs (an executor here, a page over a channel) and how words
//! are resolved (the script resolver, an LLM) are the caller's: they are the
//! two closures [`run_turn`] takes.

use crate::action::Action;
use crate::command::Verb;
use crate::reply::Reply;
use crate::resolver::{Folder, Resolution};
use crate::rule::{Refusal, Rule};
use alloc::string::String;
use core::future::Future;
use serde::Serialize;
use serde_json::Value;

/// What a turn starts from.
#[derive(Clone, Debug, PartialEq)]
pub enum TurnInput {
    /// What the person said or typed, still to be resolved.
    Words(String),
    /// An action a client already structured (`{"verb": ..., <fields>}`).
    Action(Value),
}

impl TurnInput {
    /// The wire's `{transcript}` or `{action}`: exactly one of the two.
    pub fn new(transcript: Option<String>, action: Option<Value>) -> Result<TurnInput, Refusal> {
        match (transcript, action) {
            (Some(text), None) => Ok(TurnInput::Words(text)),
            (None, Some(action)) => Ok(TurnInput::Action(action)),
            _ => Err(Refusal::new(
                Rule::MissingArgument,
                "send either {\"transcript\": \"...\"} or {\"action\": {\"verb\": ...}}",
            )),
        }
    }
}

/// The action a turn carries out: resolved from words (already typed), or
/// sent as JSON by a client or a model (validated once, by the executor).
#[derive(Clone, Debug, PartialEq)]
pub enum Proposal {
    Resolved(Action),
    Sent(Value),
    /// Resolved from what a recogniser that can mishear heard (offline
    /// voice): a change is shown as heard and asked first (`heard-change`).
    Heard(Action),
    /// The resolver's best guess at words it was not sure of: a change is
    /// asked first as "Did you mean: …?" (`unsure-change`), a look runs.
    Guessed(Action),
}

impl Proposal {
    /// The action as the wire shows it, for answers and relays.
    pub fn to_json(&self) -> Value {
        match self {
            Proposal::Resolved(action) | Proposal::Heard(action) | Proposal::Guessed(action) => {
                action.to_json()
            }
            Proposal::Sent(value) => value.clone(),
        }
    }

    /// The verb it names, if it names a known one.
    pub fn verb(&self) -> Option<Verb> {
        match self {
            Proposal::Resolved(action) | Proposal::Heard(action) | Proposal::Guessed(action) => {
                Some(action.verb())
            }
            Proposal::Sent(value) => value
                .get("verb")
                .and_then(Value::as_str)
                .and_then(Verb::from_wire),
        }
    }
}

/// What an act answered, wherever it ran; `changes` says whether it changed
/// the project's files (done, or once confirmed), so no client keeps a verb
/// list of its own to know when to re-list.
pub trait Outcome: Serialize {
    fn changes(&self, verb: Option<Verb>) -> bool;
}

impl Outcome for Reply {
    fn changes(&self, verb: Option<Verb>) -> bool {
        Reply::changes(self, verb)
    }
}

/// The answer to every turn: `action` is null and `note` says why when the
/// words did not resolve (then nothing was acted on, and `result` is null);
/// a look done on a guess has its action and result, and a `note` saying
/// what was assumed.
#[derive(Clone, Debug, Serialize)]
pub struct TurnAnswer<R> {
    pub transcript: Option<String>,
    pub action: Value,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    pub result: Option<R>,
    pub changes: bool,
}

impl<R> TurnAnswer<R> {
    /// The file the turn's action named, if any: what "it" means next turn.
    pub fn file(&self) -> Option<&str> {
        self.action.get("name").and_then(Value::as_str)
    }

    /// A turn answered before its words could be resolved (the resolver
    /// in use cannot work yet, or what came was not words or an action):
    /// `result` is the refusal that says why.
    pub fn before_resolving(transcript: Option<String>, result: R) -> TurnAnswer<R> {
        TurnAnswer {
            transcript,
            action: Value::Null,
            note: None,
            result: Some(result),
            changes: false,
        }
    }

    fn unresolved(transcript: String, note: String) -> TurnAnswer<R> {
        TurnAnswer {
            transcript: Some(transcript),
            action: Value::Null,
            note: Some(note),
            result: None,
            changes: false,
        }
    }
}

/// What a conversation keeps from one turn to the next: the file the latest
/// turn named, so that "delete it" next means that file. Every entry point
/// that takes words keeps one, and builds each turn's folder through it.
#[derive(Clone, Debug, Default)]
pub struct Conversation {
    previous: Option<String>,
}

impl Conversation {
    /// The folder a turn's words settle against: the root's `folder`, with
    /// the file "it" means and the path of today's note.
    pub fn folder(&self, folder: Folder, daily: String) -> Folder {
        folder.after(self.previous.clone()).with_daily(daily)
    }

    /// Keeps the file `answer` named for the next turn (a turn that named
    /// none leaves "it" as it was).
    pub fn remember<R>(&mut self, answer: &TurnAnswer<R>) {
        if let Some(name) = answer.file() {
            self.previous = Some(name.into());
        }
    }
}

/// Runs one turn: resolves words with `resolve` (an action is taken as sent),
/// then hands the one proposal to `act` and answers in the one shape.
pub async fn run_turn<R, Resolve, Resolving, Act, Acting>(
    input: TurnInput,
    resolve: Resolve,
    act: Act,
) -> TurnAnswer<R>
where
    R: Outcome,
    Resolve: FnOnce(String) -> Resolving,
    Resolving: Future<Output = Resolution>,
    Act: FnOnce(Proposal) -> Acting,
    Acting: Future<Output = R>,
{
    // A look done on a guess says what it assumed.
    let mut note = None;
    let (transcript, proposal) = match input {
        TurnInput::Action(value) => (None, Proposal::Sent(value)),
        TurnInput::Words(text) => match resolve(text.clone()).await {
            Resolution::Action(action) => (Some(text), Proposal::Resolved(action)),
            Resolution::Guess { action, assumed } => {
                note = (!action.verb().changes_files()).then(|| assumed_note(&assumed));
                (Some(text), Proposal::Guessed(action))
            }
            Resolution::Unresolved { note } => return TurnAnswer::unresolved(text, note),
        },
    };
    let (action, verb) = (proposal.to_json(), proposal.verb());
    let result = act(proposal).await;
    TurnAnswer {
        transcript,
        action,
        note,
        changes: result.changes(verb),
        result: Some(result),
    }
}

/// The note a look done on a guess carries.
fn assumed_note(assumed: &str) -> String {
    alloc::format!("Not sure I understood: {assumed}.")
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;
    use serde_json::json;

    fn run(input: TurnInput) -> TurnAnswer<Reply> {
        let resolve = async |text: String| crate::resolver::resolve(&text);
        let act = async |proposal: Proposal| match proposal {
            Proposal::Resolved(action) => Reply::done(alloc::format!("typed {:?}", action.verb())),
            Proposal::Sent(value) => Reply::done(alloc::format!("sent {value}")),
            Proposal::Heard(action) => Reply::done(alloc::format!("heard {:?}", action.verb())),
            Proposal::Guessed(action) => Reply::done(alloc::format!("guessed {:?}", action.verb())),
        };
        pollster::block_on(run_turn(input, resolve, act))
    }

    #[test]
    fn words_reach_the_act_typed_and_an_action_as_sent() {
        let spoken = run(TurnInput::Words("write hello.txt saying hi".into()));
        assert_eq!(
            spoken.result.unwrap().action.as_deref(),
            Some("typed Write")
        );
        assert_eq!(spoken.action["verb"], "write");
        assert!(spoken.changes, "a done write changes the files");

        let sent = run(TurnInput::Action(json!({"verb": "read", "name": "a.txt"})));
        assert!(sent.result.unwrap().action.unwrap().starts_with("sent "));
        assert_eq!(sent.transcript, None);
        assert!(!sent.changes, "a read changes nothing");
    }

    #[test]
    fn unresolved_words_act_on_nothing_and_say_why() {
        let answer = run(TurnInput::Words("sing me a song about the sea".into()));
        assert!(answer.result.is_none() && answer.action.is_null());
        assert!(answer.note.as_deref().is_some_and(|note| !note.is_empty()));
        let wire = serde_json::to_value(answer).unwrap();
        assert_eq!(wire["result"], Value::Null);
    }

    #[test]
    fn a_turn_is_words_or_an_action_never_both_or_neither() {
        for (transcript, action) in [
            (None, None),
            (Some(String::from("hi")), Some(json!({"verb": "list"}))),
        ] {
            let refusal = TurnInput::new(transcript, action).unwrap_err();
            assert_eq!(refusal.rule, Rule::MissingArgument);
        }
        let cases = vec![
            (
                TurnInput::new(Some("hi".into()), None),
                TurnInput::Words("hi".into()),
            ),
            (
                TurnInput::new(None, Some(json!({"verb": "list"}))),
                TurnInput::Action(json!({"verb": "list"})),
            ),
        ];
        for (got, want) in cases {
            assert_eq!(got.unwrap(), want);
        }
    }

    #[test]
    fn it_means_the_file_the_latest_turn_named_until_another_is_named() {
        let mut conversation = Conversation::default();
        let names = || Folder::new(vec!["notes.md".into(), "todo.md".into()]);
        let it = |conversation: &Conversation| {
            let folder = conversation.folder(names(), "daily/2026-12-02.md".into());
            crate::resolver::resolve_in("delete it", &folder)
                .into_action()
                .and_then(|action| action.file().map(String::from))
        };
        // The control: no turn yet, so "it" names nothing.
        assert_eq!(it(&conversation), None);
        conversation.remember(&run(TurnInput::Words("read todo.md".into())));
        assert_eq!(it(&conversation).as_deref(), Some("todo.md"));
        // A turn that names no file leaves "it" as it was.
        conversation.remember(&run(TurnInput::Words("list the files".into())));
        assert_eq!(it(&conversation).as_deref(), Some("todo.md"));
        conversation.remember(&run(TurnInput::Words("read notes.md".into())));
        assert_eq!(it(&conversation).as_deref(), Some("notes.md"));
    }
}
