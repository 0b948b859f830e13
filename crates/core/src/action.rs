//! A typed action: what the resolver produces and the executor performs.
//!
//! Parsing goes through [`crate::command::check`] first, so every problem has a
//! named rule; serde then builds the typed value, which cannot fail for JSON the
//! command list accepted (a test checks the two agree for every verb).

use crate::command::{self, Kind, Verb};
use crate::rule::{Refusal, Rule};
use alloc::string::String;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One structured action. Serialises as `{"verb": ..., <fields>}`.
/// The `name` of an action that names a file, borrowed as the action is.
macro_rules! named_file {
    ($action:expr) => {
        match $action {
            Action::Read { name, .. }
            | Action::Write { name, .. }
            | Action::Append { name, .. }
            | Action::Delete { name }
            | Action::Edit { name, .. }
            | Action::Diff { name, .. }
            | Action::Move { name, .. }
            | Action::Copy { name, .. }
            | Action::Mkdir { name }
            | Action::Info { name }
            | Action::CheckItem { name, .. }
            | Action::RemoveItem { name, .. }
            | Action::Undo { name: Some(name) }
            | Action::History {
                name: Some(name), ..
            }
            | Action::Tool {
                name: Some(name), ..
            } => Some(name),
            _ => None,
        }
    };
}

#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "verb", deny_unknown_fields)]
pub enum Action {
    #[serde(rename = "list")]
    List { dir: Option<String> },
    #[serde(rename = "read")]
    Read {
        name: String,
        first: Option<u64>,
        last: Option<u64>,
        at: Option<String>,
    },
    #[serde(rename = "write")]
    Write {
        name: String,
        content: String,
        mode: Option<WriteMode>,
        expect: Option<String>,
    },
    #[serde(rename = "append")]
    Append {
        name: String,
        content: String,
        under: Option<String>,
        expect: Option<String>,
    },
    #[serde(rename = "delete")]
    Delete { name: String },
    #[serde(rename = "edit")]
    Edit {
        name: String,
        #[serde(rename = "oldText")]
        old_text: String,
        #[serde(rename = "newText")]
        new_text: String,
        expect: Option<String>,
    },
    #[serde(rename = "diff")]
    Diff {
        name: String,
        content: Option<String>,
        against: Option<String>,
    },
    #[serde(rename = "grep")]
    Grep { query: String, dir: Option<String> },
    #[serde(rename = "undo")]
    Undo { name: Option<String> },
    #[serde(rename = "move")]
    Move { name: String, to: String },
    #[serde(rename = "copy")]
    Copy { name: String, to: String },
    #[serde(rename = "mkdir")]
    Mkdir { name: String },
    #[serde(rename = "find")]
    Find {
        pattern: String,
        dir: Option<String>,
    },
    #[serde(rename = "info")]
    Info { name: String },
    #[serde(rename = "check_item")]
    CheckItem {
        name: String,
        item: String,
        done: Option<bool>,
        expect: Option<String>,
    },
    #[serde(rename = "remove_item")]
    RemoveItem { name: String, item: String },
    #[serde(rename = "list_extensions")]
    ListExtensions,
    #[serde(rename = "create_asset")]
    CreateAsset {
        name: String,
        kind: String,
        body: String,
    },
    #[serde(rename = "tool")]
    Tool { id: String, name: Option<String> },
    #[serde(rename = "make-tool")]
    MakeTool { descriptor: Value },
    #[serde(rename = "propose_extension")]
    ProposeExtension { descriptor: Value },
    #[serde(rename = "call_extension")]
    CallExtension {
        id: String,
        tool: String,
        args: Option<Value>,
    },
    #[serde(rename = "changes")]
    Changes { since: Option<String> },
    #[serde(rename = "history")]
    History {
        name: Option<String>,
        limit: Option<u64>,
    },
}

/// Whether a write may replace a file that exists.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum WriteMode {
    /// The person asked for a new file: on one that exists, ask first.
    Create,
    /// Overwrite (the default); the answer says what was replaced.
    Replace,
}

impl Action {
    /// Parses action JSON, refusing by name (see [`command::check`]).
    pub fn from_json(value: &Value) -> Result<Action, Refusal> {
        let command = command::check(value)?;
        let mut cleaned = value.clone();
        if let Some(object) = cleaned.as_object_mut() {
            object.retain(|_, v| !v.is_null());
            // Counts and flags may arrive as text; the check accepted them.
            for (key, slot) in object.iter_mut() {
                let param = command.params.iter().find(|p| p.field.wire() == key);
                match param.map(|p| p.field.kind()) {
                    Some(Kind::Count) => {
                        if let Some(n) = command::count_of(slot) {
                            *slot = Value::from(n);
                        }
                    }
                    Some(Kind::Flag) => {
                        if let Some(b) = command::flag_of(slot) {
                            *slot = Value::Bool(b);
                        }
                    }
                    _ => {}
                }
            }
        }
        serde_json::from_value(cleaned).map_err(|e| {
            Refusal::new(
                Rule::MalformedField,
                alloc::format!("the action does not fit its verb: {e}"),
            )
        })
    }

    /// Parses action JSON given as text.
    pub fn from_json_str(text: &str) -> Result<Action, Refusal> {
        let value: Value = serde_json::from_str(text).map_err(|e| {
            Refusal::new(
                Rule::MalformedField,
                alloc::format!("the action is not valid JSON ({e})"),
            )
        })?;
        Action::from_json(&value)
    }

    /// The file the action names (a tool's input too).
    pub fn file(&self) -> Option<&str> {
        named_file!(self).map(String::as_str)
    }

    /// [`Action::file`], for settling it against the folder or placing it in one.
    pub fn file_mut(&mut self) -> Option<&mut String> {
        named_file!(self)
    }

    pub fn to_json(&self) -> Value {
        serde_json::to_value(self).expect("an action always serialises")
    }

    pub fn verb(&self) -> Verb {
        match self {
            Action::List { .. } => Verb::List,
            Action::Read { .. } => Verb::Read,
            Action::Write { .. } => Verb::Write,
            Action::Append { .. } => Verb::Append,
            Action::Delete { .. } => Verb::Delete,
            Action::Edit { .. } => Verb::Edit,
            Action::Diff { .. } => Verb::Diff,
            Action::Grep { .. } => Verb::Grep,
            Action::Undo { .. } => Verb::Undo,
            Action::Move { .. } => Verb::Move,
            Action::Copy { .. } => Verb::Copy,
            Action::Mkdir { .. } => Verb::Mkdir,
            Action::Find { .. } => Verb::Find,
            Action::Info { .. } => Verb::Info,
            Action::CheckItem { .. } => Verb::CheckItem,
            Action::RemoveItem { .. } => Verb::RemoveItem,
            Action::ListExtensions => Verb::ListExtensions,
            Action::CreateAsset { .. } => Verb::CreateAsset,
            Action::Tool { .. } => Verb::Tool,
            Action::MakeTool { .. } => Verb::MakeTool,
            Action::ProposeExtension { .. } => Verb::ProposeExtension,
            Action::CallExtension { .. } => Verb::CallExtension,
            Action::Changes { .. } => Verb::Changes,
            Action::History { .. } => Verb::History,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::command::{COMMANDS, Field, Param};
    use serde_json::{Map, json};

    fn full_action(params: &[Param]) -> Value {
        let mut object = Map::new();
        for p in params {
            let value = match p.field {
                field if field.is_object() => json!({"k": "v"}),
                Field::Mode => Value::String("create".into()),
                field if field.kind() == Kind::Count => json!(5),
                field if field.kind() == Kind::Flag => json!(false),
                _ => Value::String("x.txt".into()),
            };
            object.insert(p.field.wire().into(), value);
        }
        Value::Object(object)
    }

    #[test]
    fn every_command_row_parses_into_the_typed_action_and_round_trips() {
        for command in COMMANDS {
            let mut value = full_action(command.params);
            value
                .as_object_mut()
                .unwrap()
                .insert("verb".into(), command.verb.into());
            let action = Action::from_json(&value).expect(command.verb);
            assert_eq!(action.verb(), command.id);
            assert_eq!(action.to_json(), value, "{}", command.verb);
        }
    }

    #[test]
    fn refusals_are_named_and_the_good_sibling_passes() {
        let ok = Action::from_json(&json!({"verb":"read","name":"a.txt"}));
        assert!(ok.is_ok());
        let cases = [
            (
                json!({"verb":"read","name":"a","mode":"x"}),
                Rule::UnknownField,
            ),
            (json!({"verb":"read"}), Rule::MissingArgument),
            (json!({"verb":"read","name":null}), Rule::MissingArgument),
            (json!({"verb":"read","name":3}), Rule::MalformedField),
            (json!({"verb":"launch"}), Rule::UnknownVerb),
            (json!({"name":"a"}), Rule::MissingArgument),
            (json!(["read"]), Rule::MalformedField),
        ];
        for (value, rule) in cases {
            let refusal = Action::from_json(&value).unwrap_err();
            assert_eq!(refusal.rule, rule, "{value}");
            assert!(!refusal.why.is_empty());
        }
    }

    #[test]
    fn empty_content_is_a_valid_write_and_oversize_content_is_too_large() {
        let empty = Action::from_json(&json!({"verb":"write","name":"e.txt","content":""}));
        assert_eq!(
            empty.unwrap(),
            Action::Write {
                name: "e.txt".into(),
                content: String::new(),
                mode: None,
                expect: None,
            }
        );
        let big = "x".repeat(command::MAX_CONTENT_BYTES + 1);
        let refusal =
            Action::from_json(&json!({"verb":"write","name":"e.txt","content":big})).unwrap_err();
        assert_eq!(refusal.rule, Rule::TooLarge);
    }

    #[test]
    fn a_write_mode_is_create_or_replace_and_nothing_else() {
        for (mode, want) in [
            ("create", WriteMode::Create),
            ("replace", WriteMode::Replace),
        ] {
            let write = json!({"verb": "write", "name": "a.txt", "content": "", "mode": mode});
            let Action::Write {
                mode: Some(got), ..
            } = Action::from_json(&write).unwrap()
            else {
                panic!("{write} is a write with a mode");
            };
            assert_eq!(got, want);
        }
        let odd = json!({"verb": "write", "name": "a.txt", "content": "", "mode": "merge"});
        assert_eq!(
            Action::from_json(&odd).unwrap_err().rule,
            Rule::MalformedField
        );
    }
}
