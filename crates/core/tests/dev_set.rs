//! Sentence sets the script resolver must resolve exactly: the project's
//! development set (`tests/dev-set.yaml`, copied in so the suite needs
//! nothing outside the repository) and our held-out set (`tests/held-out.yaml`, written before reading the
//! resolver, to measure how it generalises). Each case lists sentences and the
//! one action they must all produce, field for field, or `unresolved: true`.
//! A missing file fails rather than skips; each test prints its pass rate.

use serde::Deserialize;
use serde_json::Value;
use voicebox_core::resolver::{Folder, Resolution, resolve_in};

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
    /// Only the listed fields of `action` must match.
    #[serde(default)]
    partial: bool,
    /// The files in the folder when the sentence is said.
    #[serde(default)]
    folder: Vec<String>,
    /// The resolver must ask which of these files is meant (its note names each).
    #[serde(default)]
    ask: Vec<String>,
    sentences: Vec<String>,
}

impl Case {
    /// What the resolver makes of `sentence` with this case's folder.
    fn resolve(&self, sentence: &str) -> Resolution {
        resolve_in(sentence, &Folder::new(self.folder.clone()))
    }

    /// The action JSON every sentence must produce; `None` means unresolved.
    fn expected(&self) -> Option<&Value> {
        match (&self.action, self.unresolved || !self.ask.is_empty()) {
            (Some(action), false) => Some(action),
            (None, true) => None,
            _ => panic!(
                "a case needs exactly one of `action`, `ask` or `unresolved: true`: {:?}",
                self.sentences
            ),
        }
    }

    /// Why `got` does not meet this case, if it does not.
    fn mismatch(&self, got: &Resolution) -> Option<String> {
        if let (Resolution::Unresolved { note }, false) = (got, self.ask.is_empty()) {
            let missing: Vec<&String> = self
                .ask
                .iter()
                .filter(|n| !note.contains(n.as_str()))
                .collect();
            return (!missing.is_empty())
                .then(|| format!("the question {note:?} does not name {missing:?}"));
        }
        if let (Resolution::Action(action), true, Some(want)) = (got, self.partial, &self.action) {
            let got = serde_json::to_value(action).expect("an action serialises");
            return (!contains(&got, want))
                .then(|| format!("expected at least {want}\n    got      {got}"));
        }
        mismatch(self.expected(), got)
    }
}

/// Whether `got` holds every field of `want`, recursively.
fn contains(got: &Value, want: &Value) -> bool {
    match (got, want) {
        (Value::Object(got), Value::Object(want)) => want
            .iter()
            .all(|(key, value)| got.get(key).is_some_and(|g| contains(g, value))),
        _ => got == want,
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

/// Resolves every sentence of the set at `path`: how many, and each miss.
fn run_set(label: &str, path: &str) -> (usize, Vec<String>) {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("the {label} must exist at {path}: {e}"));
    let set: Set =
        serde_yaml_ng::from_str(&text).unwrap_or_else(|e| panic!("the {label} parses: {e}"));
    let mut total = 0;
    let mut failures = Vec::new();
    for case in &set.cases {
        case.expected();
        for sentence in &case.sentences {
            total += 1;
            if let Some(why) = case.mismatch(&case.resolve(sentence)) {
                let folder = match case.folder.is_empty() {
                    true => String::new(),
                    false => format!(" (folder {:?})", case.folder),
                };
                failures.push(format!("{sentence:?}{folder}\n    {why}"));
            }
        }
    }
    assert!(total > 0, "the {label} has no sentences");
    (total, failures)
}

/// Checks every sentence of the set at `path`, reporting all failures at once.
fn check_set(label: &str, path: &str) {
    let (total, failures) = run_set(label, path);
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

/// The blind sets (written before reading the resolver, for issue 14; the
/// second by someone who had seen neither the rules nor the first set):
/// measured, not yet required whole. Each floor is the rate last recorded
/// in docs/VOICE.md, so a change can raise it but not lower it; every miss
/// is listed for whoever works on the resolver.
fn check_blind_set(file: &str, floor: usize) {
    let path = format!("{}/tests/{file}", env!("CARGO_MANIFEST_DIR"));
    let (total, failures) = run_set(file, &path);
    let passed = total - failures.len();
    println!(
        "{file} pass rate: {passed}/{total} ({:.1}%)\n{}\n{}",
        100.0 * passed as f64 / total as f64,
        tally(&path),
        failures.join("\n")
    );
    assert!(
        passed >= floor,
        "{file} fell below its recorded floor: {passed} < {floor}"
    );
}

#[test]
fn the_first_blind_set_passes_at_least_as_often_as_recorded() {
    check_blind_set("blind-set.yaml", 476);
}

#[test]
fn the_second_blind_set_passes_at_least_as_often_as_recorded() {
    check_blind_set("blind-set-2.yaml", 455);
}

#[test]
fn the_third_blind_set_passes_at_least_as_often_as_recorded() {
    check_blind_set("blind-set-3.yaml", 421);
}

/// Per expected verb: sentences, exact, wrong action (an action other than
/// the one meant), false accepts (an action where none, or a question, was
/// meant) and misses (no action where one was meant), as a Markdown table.
fn tally(path: &str) -> String {
    let set: Set = serde_yaml_ng::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let mut rows: std::collections::BTreeMap<String, [usize; 5]> = Default::default();
    for case in &set.cases {
        let group = match &case.action {
            _ if !case.ask.is_empty() => "(ask)".to_string(),
            Some(action) => action["verb"].as_str().unwrap_or("?").to_string(),
            None => "(unresolved)".to_string(),
        };
        for sentence in &case.sentences {
            let got = case.resolve(sentence);
            let row = rows.entry(group.clone()).or_default();
            row[0] += 1;
            let exact = case.mismatch(&got).is_none();
            let acted = matches!(got, Resolution::Action(_));
            let meant = case.expected().is_some();
            let column = match (exact, acted, meant) {
                (true, _, _) => 1,
                (false, true, true) => 2,
                (false, true, false) => 3,
                (false, false, _) => 4,
            };
            row[column] += 1;
        }
    }
    let mut table = String::from(
        "| verb | sentences | exact | wrong action | false accept | missed |\n|---|---|---|---|---|---|\n",
    );
    for (group, [n, exact, wrong, false_accept, missed]) in rows {
        table += &format!("| {group} | {n} | {exact} | {wrong} | {false_accept} | {missed} |\n");
    }
    table
}
