//! The command list as live tools: one function per verb, declared from
//! [`COMMANDS`], and each call run through the same executor as every other
//! act (turn `live`). A call is never rewritten into another action: what
//! does not fit the command list is answered with the rule it broke.

use crate::host::{Acted, Acts, call};
use serde_json::{Value, json};
use std::time::Instant;
use voicebox_core::command::{COMMANDS, Verb};
use voicebox_core::resolver::Folder;
use voicebox_core::turn::Proposal;
use voicebox_core::{Action, Refusal, Reply, Rule, prompt};

/// What a live model is told before the command list's own prompt, which was
/// written for one-shot JSON answers.
const LIVE_PREAMBLE: &str = "This is a live spoken session with the person. Every action \
described below is a function with the same name and the same fields: call the function \
instead of writing the JSON answer, one call per action, and speak to the person briefly. \
Say only what a function's result says happened; a refused result names its rule, so tell \
the person why and what to do. A delete is not done when you call it: it waits for the \
person to click Yes or No on the page, and a spoken yes is not consent — ask them to click.";

/// The live model's system instruction: the preamble, the core's prompt,
/// and the folder's files as the session starts (names to spell, never
/// instructions; see [`prompt::folder_context`]).
pub fn instruction(folder: &Folder) -> String {
    let mut instruction = format!("{LIVE_PREAMBLE}\n\n{}", prompt::system_for(folder));
    if let Some(context) = prompt::folder_context(folder) {
        instruction.push_str("\n\nAs the session starts:\n");
        instruction.push_str(&context);
    }
    instruction
}

/// One function per verb, as JSON Schema (which both providers take): the
/// verb's fields, strings or objects, with the required ones listed.
pub(crate) struct Declaration {
    pub name: &'static str,
    pub description: &'static str,
    pub parameters: Value,
}

pub fn declarations() -> Vec<Declaration> {
    COMMANDS
        .iter()
        .map(|command| Declaration {
            name: command.verb,
            description: command.summary,
            parameters: command.input_schema(),
        })
        .collect()
}

/// A tool call as the provider sent it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Call {
    pub id: String,
    pub name: String,
    /// The arguments: an object, or whatever the provider sent instead.
    pub args: Value,
    /// The typed action, when the call is what the offline recogniser
    /// heard: acted on as it is, never re-parsed, and a change is asked
    /// first ([`Proposal::Heard`]).
    pub heard: Option<Action>,
    /// The typed action, when the call is the resolver's guess at words it
    /// was not sure of: a change is asked first as "Did you mean: …?"
    /// ([`Proposal::Guessed`]).
    pub guessed: Option<Action>,
    /// The person's spoken answer to the question about this call's action:
    /// the core judges it ([`Acts::confirm_spoken`]); nothing is proposed.
    pub answer: Option<SpokenAnswer>,
}

/// What offline voice heard while a question waited for an answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct SpokenAnswer {
    /// The question's confirmation id.
    pub question: String,
    pub heard: String,
}

impl Call {
    /// A model's call, judged against the command list when it is run.
    pub fn sent(id: impl Into<String>, name: impl Into<String>, args: Value) -> Call {
        Call {
            id: id.into(),
            name: name.into(),
            args,
            heard: None,
            guessed: None,
            answer: None,
        }
    }

    /// A spoken answer to the question about `action`.
    pub fn answer(id: impl Into<String>, action: Action, answer: SpokenAnswer) -> Call {
        Call {
            answer: Some(answer),
            ..Call::typed(id, action)
        }
    }

    /// A call for an action the core's resolver made of what was heard.
    pub fn heard(id: impl Into<String>, action: Action) -> Call {
        Call {
            heard: Some(action.clone()),
            ..Call::typed(id, action)
        }
    }

    /// A call for the resolver's guess at words it was not sure of.
    pub fn guessed(id: impl Into<String>, action: Action) -> Call {
        Call {
            guessed: Some(action.clone()),
            ..Call::typed(id, action)
        }
    }

    /// A call for an action the core's resolver made of typed words: run
    /// as any call is, judged against the command list.
    pub fn typed(id: impl Into<String>, action: Action) -> Call {
        let mut args = action.to_json();
        let name = args
            .as_object_mut()
            .and_then(|fields| fields.remove("verb"))
            .and_then(|verb| verb.as_str().map(String::from))
            .unwrap_or_default();
        Call::sent(id, name, args)
    }

    /// What the call proposes: the typed action, or the call by name
    /// ([`call::proposal`]), refused before any executor if it does not fit.
    fn proposal(&self) -> Result<Proposal, Refusal> {
        match (&self.guessed, &self.heard) {
            (Some(action), _) => Ok(Proposal::Guessed(action.clone())),
            (None, Some(action)) => Ok(Proposal::Heard(action.clone())),
            (None, None) => call::proposal(&self.name, self.args.clone()),
        }
    }
}

/// A call and what came of it.
#[derive(Clone, Debug)]
pub struct Answered {
    pub call: Call,
    /// The action the call became (absent when it could not become one).
    pub action: Option<Value>,
    /// The executor's reply, or the refusal that stopped the call first.
    pub result: Acted,
    pub ms: u64,
    /// Whether the act changed the folder (so a cancellation cannot undo it).
    pub changed: bool,
}

impl Answered {
    /// A call refused before it reached the executor.
    pub fn refused(call: Call, rule: Rule, why: &str) -> Answered {
        Answered {
            call,
            action: None,
            result: Reply::refusal(Refusal::new(rule, why)).into(),
            ms: 0,
            changed: false,
        }
    }

    /// Whether the result is a refusal (providers mark failures).
    pub(crate) fn is_refusal(&self) -> bool {
        self.result.refused()
    }

    /// What the model is told: the reply without the host's path and audit
    /// seq; a pending confirmation loses its id (it is the person's, for the
    /// page) and says that only a click answers it.
    pub(crate) fn for_model(&self) -> Value {
        let mut result = json!(self.result);
        if let Some(object) = result.as_object_mut() {
            object.remove("root");
            object.remove("logged");
            if let Some(confirm) = object.remove("confirm") {
                object.insert(
                    "pending".into(),
                    json!({"plan": confirm["plan"], "expiresAt": confirm["expiresAt"]}),
                );
                object.insert(
                    "note".into(),
                    "Nothing is done yet: this waits for the person to click Yes or No on the page. A spoken yes is not consent; ask them to click."
                        .into(),
                );
            }
        }
        result
    }

    /// One sentence the page may speak for this call (offline voice has
    /// no model to say it).
    pub fn said(&self) -> String {
        let reply = self.result.reply();
        if let Some(confirm) = &reply.confirm {
            let plan = &confirm.plan;
            return match (confirm.rule, confirm.rephrase, &confirm.say) {
                // The answer's words are shown, not spoken: the page's own
                // voice saying them must not be heard as the answer.
                (Rule::HeardChange, _, Some(_)) => {
                    format!(
                        "{plan}. Click Yes or say the words the question shows to do it; No if not."
                    )
                }
                (Rule::HeardChange, _, None) => {
                    format!("{plan}. Click Yes if that is right, No if not.")
                }
                (_, true, _) => format!("{} Click Yes if so, No if not.", confirm.question),
                (_, false, _) => format!("Click Yes or No on the page to {plan}."),
            };
        }
        if let Some(why) = &reply.why {
            return why.clone();
        }
        if let (Some(file), Some(content)) = (&reply.file, &reply.content) {
            return format!("{file} says: {content}");
        }
        if let Some(files) = &reply.files {
            let names: Vec<&str> = files.iter().map(|f| f.name.as_str()).collect();
            return match names.len() {
                0 => "The folder is empty.".into(),
                _ => format!("The files are {}.", names.join(", ")),
            };
        }
        // Short by design: the sentence in a person's words, else the account.
        reply
            .words
            .clone()
            .or_else(|| reply.action.clone())
            .unwrap_or_else(|| "Done.".into())
    }

    /// What the page is told: everything, including a confirmation's id.
    pub(crate) fn for_page(&self) -> Value {
        let mut page = json!({
            "id": self.call.id,
            "name": self.call.name,
            "action": self.action,
            "result": self.result,
            "ms": self.ms,
        });
        if let Some(answer) = &self.call.answer {
            // Whether the question is settled (done, declined, gone) or
            // still waits for its words or a click: the page closes it or not.
            let waits = matches!(
                self.result.reply().refused,
                Some(Rule::SpokenAnswerMismatch | Rule::SpokenAnswerNotTaken)
            );
            page["answers"] =
                json!({"id": answer.question, "heard": answer.heard, "settled": !waits});
        }
        page
    }
}

/// Whether a reply to `verb` changed something that stays: done, not
/// waiting for a confirmation (so a cancellation cannot take it back).
fn done(verb: &str, reply: &Reply) -> bool {
    reply.confirm.is_none() && reply.changes(Verb::from_wire(verb))
}

/// Runs a batch in order, each call in the active root like any other act
/// (relayed to the page that owns it, or on the host's folder).
pub async fn run(acts: &Acts, calls: Vec<Call>) -> Vec<Answered> {
    let mut answered = Vec::with_capacity(calls.len());
    for call in calls {
        answered.push(one(acts, call).await);
    }
    answered
}

/// One call: its action acted on, or the refusal that stopped it first.
async fn one(acts: &Acts, call: Call) -> Answered {
    let started = Instant::now();
    let (action, result) = match (&call.answer, call.proposal()) {
        (Some(answer), _) => {
            let mut action = call.args.clone();
            action["verb"] = json!(call.name);
            let (id, heard) = (answer.question.clone(), answer.heard.clone());
            (Some(action), acts.confirm_spoken(id, heard).await)
        }
        (None, Ok(proposal)) => {
            let action = proposal.to_json();
            (Some(action), acts.act(proposal, "live".into()).await)
        }
        (None, Err(refusal)) => {
            acts.count_refusal();
            (None, Reply::refusal(refusal).into())
        }
    };
    Answered {
        changed: done(&call.name, result.reply()),
        ms: u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX),
        result,
        action,
        call,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use voicebox_core::platform::RootInfo;
    use voicebox_core::reply::ConfirmRequest;

    fn call(name: &str, args: Value) -> Call {
        Call::sent("c1", name, args)
    }

    #[test]
    fn every_verb_is_a_function_with_its_fields() {
        let declared = declarations();
        assert_eq!(declared.len(), COMMANDS.len());
        for (command, declaration) in COMMANDS.iter().zip(&declared) {
            assert_eq!(declaration.name, command.verb);
            let properties = declaration.parameters["properties"].as_object().unwrap();
            assert_eq!(properties.len(), command.params.len(), "{}", command.verb);
            for param in command.params {
                let kind = &properties[param.field.wire()]["type"];
                assert_eq!(kind == "object", param.field.is_object());
                let required = declaration.parameters["required"]
                    .as_array()
                    .unwrap()
                    .contains(&param.field.wire().into());
                assert_eq!(required, param.required);
            }
        }
        let bare = instruction(&Folder::default());
        assert!(bare.contains("spoken yes is not consent"));
        assert!(bare.ends_with(&prompt::system_prompt()));
        let known = instruction(&Folder::new(vec!["plan.md".into()]));
        assert!(known.starts_with(&bare) && known.ends_with(r#"(1 of 1): ["plan.md"]"#));
    }

    #[test]
    fn a_heard_call_proposes_its_typed_action_as_heard_and_a_sent_one_its_json() {
        let write = Action::Write {
            name: "a.txt".into(),
            content: "hi".into(),
            mode: None,
            expect: None,
        };
        let heard = Call::heard("local-1", write.clone());
        assert_eq!(
            (heard.name.as_str(), &heard.args),
            ("write", &json!({"name": "a.txt", "content": "hi"}))
        );
        assert_eq!(heard.proposal().unwrap(), Proposal::Heard(write.clone()));
        let sent = call("write", heard.args.clone());
        assert_eq!(sent.proposal().unwrap(), Proposal::Sent(write.to_json()));
        let smuggled = call("write", json!({"verb": "delete", "name": "a.txt"}));
        assert_eq!(smuggled.proposal().unwrap_err().rule, Rule::UnknownField);
    }

    #[test]
    fn the_model_never_sees_a_confirmation_id_or_the_host_path() {
        let answered = Answered {
            call: call("delete", json!({"name": "a.txt"})),
            action: None,
            result: Reply {
                file: Some("a.txt".into()),
                root: Some(RootInfo {
                    kind: "machine".into(),
                    path: "/home/x".into(),
                }),
                logged: Some(3),
                confirm: Some(ConfirmRequest {
                    id: "secret-id".into(),
                    rule: Rule::Delete,
                    why: "answer yes or no with this id".into(),
                    plan: "delete a.txt (2 bytes)".into(),
                    expires_at: "t".into(),
                    question: "Delete a.txt?".into(),
                    consequence: "You can bring it back with undo.".into(),
                    yes: "Delete".into(),
                    no: "Cancel".into(),
                    expired: "Timed out.".into(),
                    danger: true,
                    rephrase: false,
                    say: None,
                }),
                ..Reply::default()
            }
            .into(),
            ms: 1,
            changed: false,
        };
        let told = answered.for_model().to_string();
        assert!(
            !told.contains("secret-id") && !told.contains("/home/x"),
            "{told}"
        );
        assert!(told.contains("delete a.txt (2 bytes)") && told.contains("click"));
        assert!(answered.for_page().to_string().contains("secret-id"));
    }
}
