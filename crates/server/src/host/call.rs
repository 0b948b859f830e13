//! A call by name (an MCP tool call, a live model's function call): its name
//! is the verb, its arguments the fields, and the executor validates them as
//! any sent action. Arguments that are not an object, or that try to name
//! the verb themselves, are refused rather than guessed at.

use serde_json::{Map, Value};
use voicebox_core::turn::Proposal;
use voicebox_core::{Refusal, Rule};

/// The action `name` called with `args` proposes.
pub fn proposal(name: &str, args: Value) -> Result<Proposal, Refusal> {
    let mut fields = match args {
        Value::Object(fields) => fields,
        Value::Null => Map::new(),
        _ => {
            return Err(Refusal::new(
                Rule::MalformedField,
                format!("the arguments of `{name}` must be a JSON object"),
            ));
        }
    };
    if fields.contains_key("verb") {
        return Err(Refusal::new(
            Rule::UnknownField,
            format!("`{name}` takes no field `verb`; the call's name is the verb"),
        ));
    }
    fields.insert("verb".into(), name.into());
    Ok(Proposal::Sent(Value::Object(fields)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_call_is_its_name_and_never_a_verb_smuggled_in_its_arguments() {
        assert_eq!(
            proposal("read", json!({"name": "a.txt"})).unwrap(),
            Proposal::Sent(json!({"verb": "read", "name": "a.txt"}))
        );
        assert_eq!(
            proposal("undo", Value::Null).unwrap(),
            Proposal::Sent(json!({"verb": "undo"}))
        );
        let smuggled = json!({"verb": "delete", "name": "a.txt"});
        assert_eq!(
            proposal("read", smuggled).unwrap_err().rule,
            Rule::UnknownField
        );
        assert_eq!(
            proposal("read", json!(["a.txt"])).unwrap_err().rule,
            Rule::MalformedField
        );
    }
}
