//! Sentence sets the script resolver must resolve exactly: the project's
//! development set (`tests/dev-set.yaml`, copied in so the suite needs
//! nothing outside the repository) and our held-out set (`tests/held-out.yaml`, written before reading the
//! resolver, to measure how it generalises). Each case lists sentences and the
//! one action they must all produce, field for field, or `unresolved: true`.
//! A missing file fails rather than skips; each test prints its pass rate.

use serde::Deserialize;
use serde_json::Value;
use voicebox_core::resolver::{Resolution, resolve};

#[derive(Deserialize)]
struct Set {
    cases: Vec<Case>,
}

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

/// Checks every sentence of the set at `path`, reporting all failures at once.
fn check_set(label: &str, path: &str) {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("the {label} must exist at {path}: {e}"));
    let set: Set =
        serde_yaml_ng::from_str(&text).unwrap_or_else(|e| panic!("the {label} parses: {e}"));
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
    assert!(total > 0, "the {label} has no sentences");
    let passed = total - failures.len();
    println!(
        "{label} pass rate: {passed}/{total} ({:.1}%)",
        100.0 * passed as f64 / total as f64
    );
    assert!(
        failures.is_empty(),
        "{} of {total} {label} sentences failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn every_dev_set_sentence_resolves_exactly() {
    check_set(
        "dev set",
        concat!(env!("CARGO_MANIFEST_DIR"), "/tests/dev-set.yaml"),
    );
}

#[test]
fn every_held_out_sentence_resolves_exactly() {
    check_set(
        "held-out set",
        concat!(env!("CARGO_MANIFEST_DIR"), "/tests/held-out.yaml"),
    );
}
