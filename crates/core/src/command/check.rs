//! Checking action JSON against the command table, naming the first problem.

use super::{COMMANDS, Command, Kind, MAX_LINES, Param};
use crate::rule::{Refusal, Rule};
use alloc::format;
use alloc::string::String;
use serde_json::{Map, Value};

/// Checks action JSON against the command list and names the first problem.
///
/// Order: not an object / no verb → `missing-argument`; unknown verb →
/// `unknown-verb`; unknown field → `unknown-field`; a field that is not a
/// string → `malformed-field`; a required field absent → `missing-argument`;
/// a value over its size limit → `too-large`. `null` counts as absent.
pub fn check(value: &Value) -> Result<&'static Command, Refusal> {
    let Some(object) = value.as_object() else {
        return Err(Refusal::new(
            Rule::MalformedField,
            "an action is a JSON object like {\"verb\":\"read\",\"name\":\"notes.md\"}",
        ));
    };
    let command = verb_of(object)?;
    for (key, val) in object {
        if key == "verb" {
            continue;
        }
        let Some(param) = command.params.iter().find(|p| p.field.wire() == key) else {
            return Err(Refusal::new(
                Rule::UnknownField,
                format!(
                    "`{}` takes no field `{key}`; its fields are: {}",
                    command.verb,
                    field_list(command)
                ),
            ));
        };
        check_value(key, val, param)?;
    }
    for param in command.params.iter().filter(|p| p.required) {
        if object.get(param.field.wire()).is_none_or(Value::is_null) {
            return Err(Refusal::new(
                Rule::MissingArgument,
                format!(
                    "`{}` needs `{}` ({})",
                    command.verb,
                    param.field.wire(),
                    param.describe
                ),
            ));
        }
    }
    Ok(command)
}

/// One field's value: the right JSON type, within its size.
fn check_value(key: &str, value: &Value, param: &Param) -> Result<(), Refusal> {
    let size = match (value, param.field.kind()) {
        (Value::Null, _) => return Ok(()),
        (Value::String(s), Kind::Text) => s.len(),
        (Value::Object(_), Kind::Object) => {
            serde_json::to_string(value).map_or(usize::MAX, |s| s.len())
        }
        (_, Kind::Count) => {
            return count_of(value).map(|_| ()).ok_or_else(|| {
                Refusal::new(
                    Rule::MalformedField,
                    format!("`{key}` must be a whole number from 1 to {MAX_LINES}"),
                )
            });
        }
        (_, Kind::Flag) => {
            return flag_of(value).map(|_| ()).ok_or_else(|| {
                Refusal::new(
                    Rule::MalformedField,
                    format!("`{key}` must be true or false"),
                )
            });
        }
        (_, kind) => {
            let kind = if kind == Kind::Object {
                "an object"
            } else {
                "a string"
            };
            return Err(Refusal::new(
                Rule::MalformedField,
                format!("`{key}` must be {kind}"),
            ));
        }
    };
    if size > param.max_bytes {
        return Err(Refusal::new(
            Rule::TooLarge,
            format!(
                "`{key}` is {size} bytes; the limit is {} bytes — send less",
                param.max_bytes
            ),
        ));
    }
    Ok(())
}

/// A count field's value: a number, or its digits as text (a model whose
/// answer schema is all strings writes it so), from 1 to [`MAX_LINES`].
pub fn count_of(value: &Value) -> Option<u64> {
    let n = match value {
        Value::Number(n) => n.as_u64()?,
        Value::String(s) => s.trim().parse().ok()?,
        _ => return None,
    };
    (1..=MAX_LINES).contains(&n).then_some(n)
}

/// A flag field's value: a boolean, or `true`/`false` as text.
pub fn flag_of(value: &Value) -> Option<bool> {
    match value {
        Value::Bool(b) => Some(*b),
        Value::String(s) => match s.trim() {
            "true" => Some(true),
            "false" => Some(false),
            _ => None,
        },
        _ => None,
    }
}

fn verb_of(object: &Map<String, Value>) -> Result<&'static Command, Refusal> {
    match object.get("verb") {
        None | Some(Value::Null) => Err(Refusal::new(
            Rule::MissingArgument,
            format!("an action needs a `verb`, one of: {}", verb_list()),
        )),
        Some(Value::String(verb)) => COMMANDS.iter().find(|c| c.verb == verb).ok_or_else(|| {
            Refusal::new(
                Rule::UnknownVerb,
                format!("`{verb}` is not a verb here; use one of: {}", verb_list()),
            )
        }),
        Some(_) => Err(Refusal::new(
            Rule::MalformedField,
            "`verb` must be a string",
        )),
    }
}

/// The verbs, comma-separated, for messages and prompts.
pub fn verb_list() -> String {
    let verbs: alloc::vec::Vec<&str> = COMMANDS.iter().map(|c| c.verb).collect();
    verbs.join(", ")
}

fn field_list(command: &Command) -> String {
    if command.params.is_empty() {
        return "none".into();
    }
    let fields: alloc::vec::Vec<&str> = command.params.iter().map(|p| p.field.wire()).collect();
    fields.join(", ")
}
