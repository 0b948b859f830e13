//! The held-out set: sentences written before reading the resolver, to measure
//! how it generalises beyond the shared development set.
//!
//! The test prints the pass rate (run with `--nocapture` to see it) and fails
//! unless every sentence resolves exactly to its case's expectation.

use serde::Deserialize;
use serde_json::Value;
use voicebox_core::resolver::{Resolution, resolve};

const HELD_OUT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/held-out.yaml");

#[derive(Deserialize)]
struct HeldOut {
    cases: Vec<Case>,
}

/// One expected action (or `unresolved: true`) and the sentences that must produce it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    #[serde(default)]
    action: Option<Value>,
    #[serde(default)]
    unresolved: bool,
    sentences: Vec<String>,
}

impl Case {
    /// The action JSON every sentence must produce; `None` means unresolved.
    fn expected(&self) -> Option<&Value> {
        match (&self.action, self.unresolved) {
            (Some(action), false) => Some(action),
            (None, true) => None,
            _ => panic!(
                "a case needs exactly one of `action` or `unresolved: true`: {:?}",
                self.sentences
            ),
        }
    }
}

/// Why `got` does not meet `want` (`None` = unresolved), if it does not.
fn mismatch(want: Option<&Value>, got: &Resolution) -> Option<String> {
    let got = match got {
        Resolution::Action(action) => serde_json::to_value(action).expect("an action serialises"),
        Resolution::Unresolved { note } if note.trim().is_empty() => {
            return Some("an unresolved answer must carry a note".into());
        }
        Resolution::Unresolved { note } => {
            return want.map(|want| format!("expected {want}\n    got      unresolved: {note}"));
        }
    };
    match want {
        Some(want) if *want == got => None,
        Some(want) => Some(format!("expected {want}\n    got      {got}")),
        None => Some(format!("expected unresolved\n    got      {got}")),
    }
}

#[test]
fn every_held_out_sentence_resolves_exactly() {
    let text = std::fs::read_to_string(HELD_OUT)
        .unwrap_or_else(|e| panic!("the held-out set must exist at {HELD_OUT}: {e}"));
    let set: HeldOut = serde_yaml_ng::from_str(&text).expect("the held-out set parses");
    let mut total = 0;
    let mut failures = Vec::new();
    for case in &set.cases {
        let want = case.expected();
        for sentence in &case.sentences {
            total += 1;
            if let Some(why) = mismatch(want, &resolve(sentence)) {
                failures.push(format!("{sentence:?}\n    {why}"));
            }
        }
    }
    assert!(total > 0, "the held-out set has no sentences");
    let passed = total - failures.len();
    println!(
        "held-out pass rate: {passed}/{total} ({:.1}%)",
        100.0 * passed as f64 / total as f64
    );
    assert!(
        failures.is_empty(),
        "{} of {total} held-out sentences failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
