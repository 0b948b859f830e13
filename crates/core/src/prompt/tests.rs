use super::*;
use crate::command::Verb;

#[test]
fn a_question_carries_the_folder_as_data_and_nothing_when_it_is_unknown() {
    assert_eq!(question("list files", &Folder::default()), "list files");
    let folder = Folder::new(alloc::vec!["my notes.txt".into(), "say \"hi\".md".into()])
        .after(Some("my notes.txt".into()));
    let asked = question("delete my notes", &folder);
    assert!(asked.starts_with("delete my notes\n\n"), "{asked}");
    assert!(
        asked.contains(r#"(2 of 2): ["my notes.txt","say \"hi\".md"]"#),
        "{asked}"
    );
    assert!(asked.ends_with(r#"The previous turn acted on: "my notes.txt""#));
}

#[test]
fn a_large_folder_is_shown_in_part_and_says_how_much() {
    let names = (0..1000).map(|i| format!("f{i}.txt")).collect();
    let asked = question("read f1.txt", &Folder::new(names));
    assert!(asked.contains("(300 of 1000)"), "{asked}");
    assert!(asked.contains("\"f299.txt\"") && !asked.contains("\"f300.txt\""));
}

#[test]
fn every_verb_and_field_of_the_table_is_in_the_prompt_and_the_schema() {
    let prompt = system_prompt();
    let schema = answer_schema();
    let verbs = schema["properties"]["verb"]["enum"].as_array().unwrap();
    for command in COMMANDS {
        assert!(prompt.contains(&format!("- {}: {}", command.verb, command.summary)));
        assert!(verbs.iter().any(|v| v == command.verb), "{}", command.verb);
        for param in command.params {
            let wire = param.field.wire();
            assert!(prompt.contains(param.describe), "{wire}");
            let property = &schema["properties"][wire];
            assert_eq!(property["type"], "string", "{wire}");
            let description = property["description"].as_str().unwrap();
            assert!(description.contains(command.verb), "{wire}: {description}");
            assert!(description.contains(param.describe), "{wire}");
        }
    }
    assert_eq!(verbs.len(), COMMANDS.len());
    assert_eq!(
        schema["properties"].as_object().unwrap().len(),
        answer_keys().len()
    );
}

#[test]
fn the_prompt_says_the_rules() {
    let prompt = system_prompt();
    for needle in [
        "Voicebox",
        "exactly one JSON object",
        "{\"unresolved\": \"<why>\"}",
        "keep the speaker's case",
        "\"hello dot txt\" means hello.txt",
        "Never invent paths outside the folder",
    ] {
        assert!(prompt.contains(needle), "{needle}");
    }
}

#[test]
fn the_schema_uses_only_what_every_vendor_accepts() {
    /// A schema node: a single type name, and only keywords all three take.
    fn check(node: &Value) {
        let node = node.as_object().unwrap();
        for key in node.keys() {
            assert!(
                ["type", "description", "enum", "properties"].contains(&key.as_str()),
                "{key}"
            );
        }
        assert!(node["type"].is_string(), "no type unions");
        for property in node
            .get("properties")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
        {
            check(property.1);
        }
    }
    let schema = answer_schema();
    check(&schema);
    assert_eq!(schema["type"], "object");
}

#[test]
fn the_examples_read_back_as_what_they_show() {
    for (sentence, answer) in EXAMPLES {
        let value: Value = serde_json::from_str(answer).unwrap();
        let read = resolution(&value);
        match read {
            Resolution::Action(action) | Resolution::Guess { action, .. } => {
                assert_eq!(action.to_json(), value, "{sentence}")
            }
            Resolution::Unresolved { note } => {
                assert_eq!(value[UNRESOLVED], note.as_str(), "{sentence}")
            }
        }
    }
}

#[test]
fn answers_that_are_not_actions_are_unresolved_naming_the_rule() {
    let cases = [
        (json!({"verb": "launch_rockets"}), "unknown-verb"),
        (
            json!({"verb": "write", "name": "a.txt"}),
            "missing-argument",
        ),
        (
            json!({"verb": "read", "name": "a.txt", "mode": "fast"}),
            "unknown-field",
        ),
        (json!({}), "missing-argument"),
        (json!({"verb": "read", "name": 7}), "malformed-field"),
        (json!(["read"]), "not a JSON object"),
        (json!({"unresolved": 3}), "not a reason in words"),
    ];
    for (answer, needle) in cases {
        match resolution(&answer) {
            Resolution::Unresolved { note } => assert!(note.contains(needle), "{note}"),
            other => panic!("{answer} became {other:?}"),
        }
    }
}

#[test]
fn unresolved_wins_and_empty_or_null_keys_are_absent() {
    let why = resolution(&json!({"unresolved": "not about files", "verb": "list"}));
    assert_eq!(
        why,
        Resolution::Unresolved {
            note: "not about files".into()
        }
    );
    let list = resolution(&json!({"verb": "list", "unresolved": "", "dir": null}));
    assert_eq!(list, Resolution::Action(Action::List { dir: None }));
}

#[test]
fn object_fields_given_as_json_text_are_decoded() {
    let answer =
        json!({"verb": "call_extension", "id": "clock", "tool": "now", "args": "{\"tz\":\"UTC\"}"});
    let Resolution::Action(action) = resolution(&answer) else {
        panic!("not an action");
    };
    assert_eq!(action.verb(), Verb::CallExtension);
    assert_eq!(action.to_json()["args"], json!({"tz": "UTC"}));
    let text = resolution(&json!({"verb": "make-tool", "descriptor": "not json"}));
    assert!(matches!(text, Resolution::Unresolved { note } if note.contains("malformed-field")));
}
