//! The command list as live tools: one function per verb, declared from
//! [`COMMANDS`], and each call run through the same executor as every other
//! act (turn `live`). A call is never rewritten into another action: what
//! does not fit the command list is answered with the rule it broke.

use crate::host::Acts;
use serde_json::{Map, Value, json};
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
pub struct Declaration {
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
pub struct Call {
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
        Call {
            id: id.into(),
            name,
            args,
            heard: None,
            guessed: None,
        }
    }

    /// What the call proposes: the typed action, or the call's JSON
    /// ([`action`]), refused before any executor if it does not fit.
    fn proposal(&self) -> Result<Proposal, Refusal> {
        match (&self.guessed, &self.heard) {
            (Some(action), _) => Ok(Proposal::Guessed(action.clone())),
            (None, Some(action)) => Ok(Proposal::Heard(action.clone())),
            (None, None) => action(self).map(Proposal::Sent),
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
    pub result: Value,
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
            result: json!({"ok": false, "refused": rule, "why": why}),
            ms: 0,
            changed: false,
        }
    }

    /// Whether the result is a refusal (providers mark failures).
    pub fn is_refusal(&self) -> bool {
        self.result.get("refused").is_some()
    }

    /// What the model is told: the reply without the host's path and audit
    /// seq; a pending confirmation loses its id (it is the person's, for the
    /// page) and says that only a click answers it.
    pub fn for_model(&self) -> Value {
        let mut result = self.result.clone();
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

    /// What the page is told: everything, including a confirmation's id.
    pub fn for_page(&self) -> Value {
        json!({
            "id": self.call.id,
            "name": self.call.name,
            "action": self.action,
            "result": self.result,
            "ms": self.ms,
        })
    }
}

/// The action a call names: its function name is the verb, its arguments
/// the fields. Arguments that are not an object, or that try to name the
/// verb themselves, are refused rather than guessed at.
fn action(call: &Call) -> Result<Value, Refusal> {
    let mut fields = match &call.args {
        Value::Object(fields) => fields.clone(),
        Value::Null => Map::new(),
        _ => {
            return Err(Refusal::new(
                Rule::MalformedField,
                format!("the arguments of `{}` must be a JSON object", call.name),
            ));
        }
    };
    if fields.contains_key("verb") {
        return Err(Refusal::new(
            Rule::UnknownField,
            format!(
                "`{}` takes no field `verb`; the function's name is the verb",
                call.name
            ),
        ));
    }
    fields.insert("verb".into(), call.name.clone().into());
    Ok(Value::Object(fields))
}

/// Whether a successful reply to `verb` changed something that stays: done
/// (not waiting for a confirmation), by a verb whose act is not a read
/// ([`Verb::changes_files`], the same table the page's `changes` comes from).
fn changes(verb: &str, reply: &Value) -> bool {
    reply["ok"] == true
        && reply.get("confirm").is_none_or(Value::is_null)
        && Verb::from_wire(verb).is_some_and(Verb::changes_files)
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
    let (action, result) = match call.proposal() {
        Ok(proposal) => {
            let action = proposal.to_json();
            (Some(action), json!(acts.act(proposal, "live".into()).await))
        }
        Err(refusal) => {
            acts.count_refusal();
            (None, json!(Reply::refusal(refusal)))
        }
    };
    Answered {
        changed: changes(&call.name, &result),
        ms: u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX),
        result,
        action,
        call,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn calls_become_actions_by_name_and_never_by_argument() {
        let write = call("write", json!({"name": "a.txt", "content": "hi"}));
        assert_eq!(
            action(&write).unwrap(),
            json!({"verb": "write", "name": "a.txt", "content": "hi"})
        );
        assert_eq!(
            action(&call("undo", Value::Null)).unwrap(),
            json!({"verb": "undo"})
        );
        let smuggled = call("read", json!({"verb": "delete", "name": "a.txt"}));
        assert_eq!(action(&smuggled).unwrap_err().rule, Rule::UnknownField);
        let text = call("read", json!("{\"name\": \"a.txt\""));
        assert_eq!(action(&text).unwrap_err().rule, Rule::MalformedField);
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
            result: json!({"ok": false, "file": "a.txt", "root": {"path": "/home/x"}, "logged": 3,
                "confirm": {"id": "secret-id", "plan": "delete a.txt (2 bytes)", "expiresAt": "t", "why": "answer yes or no with this id"}}),
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
