//! The shared development set: every sentence must resolve to exactly its action.
//!
//! The set lives beside the repository (`shared/resolver/dev-set.yaml`); a
//! missing file fails the test rather than skipping it.

use serde::Deserialize;
use serde_json::Value;
use voicebox_core::resolver::{Resolution, resolve};

const DEV_SET: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../../shared/resolver/dev-set.yaml"
);

#[derive(Deserialize)]
struct DevSet {
    cases: Vec<Case>,
}

#[derive(Deserialize)]
struct Case {
    #[serde(default)]
    action: Option<Value>,
    #[serde(default)]
    unresolved: bool,
    sentences: Vec<String>,
}

/// What a case expects of each of its sentences.
enum Expect {
    Action(Value),
    Unresolved,
}

impl Case {
    fn expect(&self) -> Expect {
        match (&self.action, self.unresolved) {
            (Some(action), false) => Expect::Action(action.clone()),
            (None, true) => Expect::Unresolved,
            _ => panic!(
                "a case needs exactly one of `action` or `unresolved: true`: {:?}",
                self.sentences
            ),
        }
    }
}

/// Why `got` does not meet `expect`, if it does not.
fn mismatch(expect: &Expect, got: &Resolution) -> Option<String> {
    match (expect, got) {
        (Expect::Action(want), Resolution::Action(action)) => {
            let got = serde_json::to_value(action).expect("an action serialises");
            (&got != want).then(|| format!("expected {want}\n    got      {got}"))
        }
        (Expect::Action(want), Resolution::Unresolved { note }) => {
            Some(format!("expected {want}\n    got      unresolved: {note}"))
        }
        (Expect::Unresolved, Resolution::Unresolved { note }) => note
            .trim()
            .is_empty()
            .then(|| String::from("expected unresolved with a note\n    got      an empty note")),
        (Expect::Unresolved, Resolution::Action(action)) => Some(format!(
            "expected unresolved\n    got      {}",
            serde_json::to_value(action).expect("an action serialises")
        )),
    }
}

#[test]
fn every_dev_set_sentence_resolves_exactly() {
    let text = std::fs::read_to_string(DEV_SET)
        .unwrap_or_else(|e| panic!("the dev set must exist at {DEV_SET}: {e}"));
    let set: DevSet = serde_yaml_ng::from_str(&text).expect("the dev set parses");
    let mut total = 0;
    let mut failures = Vec::new();
    for case in &set.cases {
        let expect = case.expect();
        for sentence in &case.sentences {
            total += 1;
            if let Some(why) = mismatch(&expect, &resolve(sentence)) {
                failures.push(format!("{sentence:?}\n    {why}"));
            }
        }
    }
    assert!(total > 0, "the dev set has no sentences");
    assert!(
        failures.is_empty(),
        "{} of {total} dev-set sentences failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
    println!("{total} dev-set sentences passed");
}
