//! Sentence sets the script resolver must resolve exactly: the project's
//! development set (`tests/dev-set.yaml`, copied in so the suite needs
//! nothing outside the repository) and our held-out set (`tests/held-out.yaml`, written before reading the
//! resolver, to measure how it generalises). Each case lists sentences and the
//! one action they must all produce, field for field, or `unresolved: true`.
//! A missing file fails rather than skips; each test prints its pass rate.

use serde::Deserialize;
use serde_json::Value;
use voicebox_core::Action;
use voicebox_core::contain;
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
    /// Another action that answers these sentences as well as `action`
    /// does: "how many lines does essay.md have" is answered by the `wc`
    /// tool and by `info` alike.
    #[serde(default)]
    also: Option<Value>,
    sentences: Vec<String>,
}

impl Case {
    /// What the resolver makes of `sentence` with this case's folder, the
    /// host's shelf and today's note's path, as every turn the host takes
    /// is given them.
    fn resolve(&self, sentence: &str) -> Resolution {
        resolve_in(
            sentence,
            &Folder::new(self.folder.clone())
                .with_tools(shelf())
                .with_daily(String::from("daily/2026-12-02.md")),
        )
    }

    /// The action JSON every sentence must produce; `None` means unresolved.
    fn expected(&self) -> Option<&Value> {
        assert!(
            self.also.is_none() || (self.action.is_some() && !self.partial),
            "`also` names a second whole action beside `action`: {:?}",
            self.sentences
        );
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
        let Some(action) = got.action() else {
            return mismatch(self.expected(), got);
        };
        let got = self.as_done(serde_json::to_value(action).expect("an action serialises"));
        match (self.partial, &self.action, self.expected()) {
            (true, Some(want), _) => (!contains(&got, &self.as_done(want.clone())))
                .then(|| format!("expected at least {want}\n    got      {got}")),
            (_, _, Some(want)) if self.as_done(want.clone()) == got => None,
            (_, _, Some(_))
                if self.also.clone().map(|also| self.as_done(also)) == Some(got.clone()) =>
            {
                None
            }
            (_, _, Some(want)) => Some(format!("expected {want}\n    got      {got}")),
            (_, _, None) => Some(format!("expected unresolved\n    got      {got}")),
        }
    }

    /// `action` as the executor carries it out in this case's folder: a
    /// move or copy to a folder that is there puts the file inside it, so
    /// "to": "brews" and "to": "brews/ipa.md" are one act; and a file the
    /// folder does not hold is made with the text whether it is written
    /// (in either mode) or appended to, so those are one act too.
    fn as_done(&self, mut action: Value) -> Value {
        let verb = String::from(action["verb"].as_str().unwrap_or_default());
        let verb = verb.as_str();
        let plain_append = verb == "append" && action.get("under").is_none();
        let held = |name: &str| self.folder.iter().any(|path| path == name);
        if (verb == "write" || plain_append)
            && action.get("expect").is_none()
            && !action["name"].as_str().is_some_and(held)
            && let Some(fields) = action.as_object_mut()
        {
            fields.insert("verb".into(), "made with its text".into());
            fields.remove("mode");
            return action;
        }
        let (Some(name), Some(to)) = (action["name"].as_str(), action["to"].as_str()) else {
            return action;
        };
        let folder = to.trim_end_matches('/');
        let is_folder = self
            .folder
            .iter()
            .any(|path| path.starts_with(&format!("{folder}/")));
        if matches!(verb, "move" | "copy") && is_folder {
            let leaf = name.rsplit('/').next().unwrap_or(name);
            action["to"] = Value::from(format!("{folder}/{leaf}"));
        }
        action
    }
}

/// The tools of the shelf the host installs (`tools/shelf/manifest.json`):
/// the tools the resolver is told the host can run.
fn shelf() -> Vec<(String, String)> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tools/shelf/manifest.json"
    );
    let manifest: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    manifest["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|tool| {
            let text = |key: &str| tool[key].as_str().unwrap().to_string();
            (text("id"), text("description"))
        })
        .collect()
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
        Resolution::Action(action) | Resolution::Guess { action, .. } => {
            serde_json::to_value(action).expect("an action serialises")
        }
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
    let text = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        !text.contains("\n    also:"),
        "the {label} resolves exactly: no case of it may take a second answer"
    );
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

/// The blind sets (written before reading the resolver; the
/// second by someone who had seen neither the rules nor the first set; the
/// later ones by someone who had not read the resolver): measured, not yet
/// required whole. Each floor is the figure last recorded in docs/VOICE.md,
/// so a change can raise it but not lower it: at least `floor.offered`
/// sentences get the right action (done, or asked about with it as the
/// guess), at least `floor.unasked` get it with no question, and at most
/// `floor.wrong` are acted on wrongly with no question. Every miss is
/// listed for whoever works on the resolver, unless
/// `VOICEBOX_AGGREGATE_ONLY` is set (a new set's first, blind score).
fn check_blind_set(file: &str, floor: Floor) {
    let path = format!("{}/tests/{file}", env!("CARGO_MANIFEST_DIR"));
    let (_, failures) = run_set(file, &path);
    let shares = Shares::of(&path);
    let misses = match std::env::var_os("VOICEBOX_AGGREGATE_ONLY") {
        Some(_) => String::new(),
        None => format!(
            "{}\n{}\nguesses:\n{}",
            tally(&path),
            failures.join("\n"),
            guesses(&path).join("\n")
        ),
    };
    println!("{file}:\n{}\n{misses}", shares.report());
    assert!(
        shares.offered() >= floor.offered
            && shares.unasked() >= floor.unasked
            && shares.wrong() <= floor.wrong,
        "{file} fell below its recorded floor: offered {} (floor {}), unasked {} (floor {}), acted wrong {} (ceiling {})",
        shares.offered(),
        floor.offered,
        shares.unasked(),
        floor.unasked,
        shares.wrong(),
        floor.wrong
    );
}

/// Each sentence the resolver was not sure of, with what it assumed.
fn guesses(path: &str) -> Vec<String> {
    let set: Set = serde_yaml_ng::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let mut out = Vec::new();
    for case in &set.cases {
        for sentence in &case.sentences {
            if let Resolution::Guess { assumed, .. } = case.resolve(sentence) {
                out.push(format!("{sentence:?}: {assumed}"));
            }
        }
    }
    out
}

/// The recorded figures a blind set may not fall below (see [`check_blind_set`]).
struct Floor {
    offered: usize,
    unasked: usize,
    wrong: usize,
}

#[test]
fn the_first_blind_set_passes_at_least_as_often_as_recorded() {
    check_blind_set(
        "blind-set.yaml",
        Floor {
            offered: 475,
            unasked: 475,
            wrong: 1,
        },
    );
}

#[test]
fn the_second_blind_set_passes_at_least_as_often_as_recorded() {
    check_blind_set(
        "blind-set-2.yaml",
        Floor {
            offered: 456,
            unasked: 456,
            wrong: 0,
        },
    );
}

#[test]
fn the_third_blind_set_passes_at_least_as_often_as_recorded() {
    check_blind_set(
        "blind-set-3.yaml",
        Floor {
            offered: 427,
            unasked: 423,
            wrong: 1,
        },
    );
}

#[test]
fn the_fourth_blind_set_passes_at_least_as_often_as_recorded() {
    check_blind_set(
        "blind-set-4.yaml",
        Floor {
            offered: 625,
            unasked: 593,
            wrong: 2,
        },
    );
}

#[test]
fn the_fifth_blind_set_passes_at_least_as_often_as_recorded() {
    check_blind_set(
        "blind-set-5.yaml",
        Floor {
            offered: 404,
            unasked: 391,
            wrong: 0,
        },
    );
}

/// What became of one sentence.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Came {
    // A sentence that asks for an action (or for a question naming files).
    /// The right answer, sure.
    ExactSure,
    /// The right look, done on a guess that says what it assumed.
    LookedRight,
    /// The right change, asked about as the guess.
    AskedRight,
    /// A wrong guess: asked about (a change) or done saying so (a look).
    AskedWrong,
    /// A wrong action, done sure: the dangerous one.
    ActedWrong,
    /// No action where one was meant.
    NotUnderstood,
    // A sentence that must not act.
    /// Nothing done.
    RightlyNotActed,
    /// A guess: a change asked about, a look done saying what it assumed.
    Asked,
    /// An action done sure.
    Acted,
    /// An action naming a path outside the folder: the executor refuses it
    /// by name (`outside-root`) before it touches anything.
    RefusedOutside,
}

impl Came {
    fn of(case: &Case, got: &Resolution) -> Came {
        let meant = case.expected().is_some() || !case.ask.is_empty();
        let exact = case.mismatch(got).is_none();
        let changes = got.action().is_some_and(|a| a.verb().changes_files());
        match (meant, exact, got) {
            (true, true, Resolution::Guess { .. }) if changes => Came::AskedRight,
            (true, true, Resolution::Guess { .. }) => Came::LookedRight,
            (true, true, _) => Came::ExactSure,
            (true, false, Resolution::Guess { .. }) => Came::AskedWrong,
            (true, false, Resolution::Action(_)) => Came::ActedWrong,
            (true, false, Resolution::Unresolved { .. }) => Came::NotUnderstood,
            (false, _, Resolution::Unresolved { .. }) => Came::RightlyNotActed,
            (false, _, Resolution::Guess { .. }) => Came::Asked,
            (false, _, _) if got.action().is_some_and(leaves_the_root) => Came::RefusedOutside,
            (false, _, Resolution::Action(_)) => Came::Acted,
        }
    }
}

/// Whether an action names a path the executor's containment refuses
/// (`outside-root` and its kin, and the host's own folders) before anything
/// is touched.
fn leaves_the_root(action: &Action) -> bool {
    let json = action.to_json();
    ["name", "to", "dir"].iter().any(|field| {
        json[field]
            .as_str()
            .is_some_and(|path| match contain::resolve_inside_root(path) {
                Ok(inside) => contain::check_visible(&inside).is_err(),
                Err(_) => true,
            })
    })
}

/// The share of a set's sentences in each [`Came`], and the changes done
/// on a wrong reading.
struct Shares {
    counts: std::collections::BTreeMap<Came, usize>,
    meant: usize,
    not_meant: usize,
    /// Sure and wrong (or acting where nothing was meant), and a change.
    wrong_changes: usize,
}

impl Shares {
    fn of(path: &str) -> Shares {
        let set: Set = serde_yaml_ng::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        let mut shares = Shares {
            counts: Default::default(),
            meant: 0,
            not_meant: 0,
            wrong_changes: 0,
        };
        for case in &set.cases {
            for sentence in &case.sentences {
                let got = case.resolve(sentence);
                let came = Came::of(case, &got);
                match came {
                    Came::RightlyNotActed | Came::RefusedOutside | Came::Asked | Came::Acted => {
                        shares.not_meant += 1
                    }
                    _ => shares.meant += 1,
                }
                let changes = got.action().is_some_and(|a| a.verb().changes_files());
                if matches!(came, Came::ActedWrong | Came::Acted) && changes {
                    shares.wrong_changes += 1;
                }
                *shares.counts.entry(came).or_default() += 1;
            }
        }
        shares
    }

    fn count(&self, came: Came) -> usize {
        self.counts.get(&came).copied().unwrap_or(0)
    }

    /// Meant sentences given the right action, done or asked about, with
    /// the not-meant ones left undone.
    fn offered(&self) -> usize {
        self.unasked() + self.count(Came::AskedRight)
    }

    /// Sentences answered right with no question: the right action done,
    /// or nothing done where nothing was meant.
    fn unasked(&self) -> usize {
        self.count(Came::ExactSure)
            + self.count(Came::LookedRight)
            + self.count(Came::RightlyNotActed)
            + self.count(Came::RefusedOutside)
    }

    /// Sentences acted on wrongly with no question.
    fn wrong(&self) -> usize {
        self.count(Came::ActedWrong) + self.count(Came::Acted)
    }

    fn report(&self) -> String {
        let share =
            |n: usize, of: usize| format!("{n} ({:.1}%)", 100.0 * n as f64 / of.max(1) as f64);
        let all = self.meant + self.not_meant;
        let mut out = format!(
            "{} sentences: {} that ask for something, {} that must not act\n",
            all, self.meant, self.not_meant
        );
        for (label, came) in [
            ("exact and sure", Came::ExactSure),
            ("right look, done on a guess", Came::LookedRight),
            ("asked right", Came::AskedRight),
            ("asked wrong", Came::AskedWrong),
            ("acted wrong", Came::ActedWrong),
            ("not understood", Came::NotUnderstood),
        ] {
            out += &format!("  {label}: {}\n", share(self.count(came), self.meant));
        }
        for (label, came) in [
            ("correctly not acted", Came::RightlyNotActed),
            (
                "refused by the executor (outside the folder)",
                Came::RefusedOutside,
            ),
            ("asked", Came::Asked),
            ("acted", Came::Acted),
        ] {
            out += &format!(
                "  must not act, {label}: {}\n",
                share(self.count(came), self.not_meant)
            );
        }
        out += &format!(
            "  of all: right done or offered {}, done right with no question {}, a change done on a wrong reading {}",
            share(self.offered(), all),
            share(self.unasked(), all),
            share(self.wrong_changes, all)
        );
        out
    }
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
            let meant = case.expected().is_some();
            // Nothing meant, and a path the executor refuses: nothing is done.
            let refused = !meant && got.action().is_some_and(leaves_the_root);
            let exact = case.mismatch(&got).is_none() || refused;
            let acted = matches!(got, Resolution::Action(_));
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

#[test]
fn the_sixth_blind_set_passes_at_least_as_often_as_recorded() {
    check_blind_set(
        "blind-set-6.yaml",
        Floor {
            offered: 612,
            unasked: 588,
            wrong: 0,
        },
    );
}

#[test]
fn the_seventh_blind_set_passes_at_least_as_often_as_recorded() {
    check_blind_set(
        "blind-set-7.yaml",
        Floor {
            offered: 579,
            unasked: 554,
            wrong: 6,
        },
    );
}

#[test]
fn the_eighth_blind_set_passes_at_least_as_often_as_recorded() {
    check_blind_set(
        "blind-set-8.yaml",
        Floor {
            offered: 631,
            unasked: 592,
            wrong: 4,
        },
    );
}

#[test]
fn the_ninth_blind_set_passes_at_least_as_often_as_recorded() {
    check_blind_set(
        "blind-set-9.yaml",
        Floor {
            offered: 683,
            unasked: 671,
            wrong: 2,
        },
    );
}

#[test]
fn the_tenth_blind_set_passes_at_least_as_often_as_recorded() {
    check_blind_set(
        "blind-set-10.yaml",
        Floor {
            offered: 664,
            unasked: 642,
            wrong: 1,
        },
    );
}

#[test]
fn the_eleventh_blind_set_passes_at_least_as_often_as_recorded() {
    check_blind_set(
        "blind-set-11.yaml",
        Floor {
            offered: 626,
            unasked: 601,
            wrong: 3,
        },
    );
}

#[test]
fn the_twelfth_blind_set_passes_at_least_as_often_as_recorded() {
    check_blind_set(
        "blind-set-12.yaml",
        Floor {
            offered: 623,
            unasked: 589,
            wrong: 10,
        },
    );
}

#[test]
fn the_thirteenth_blind_set_passes_at_least_as_often_as_recorded() {
    check_blind_set(
        "blind-set-13.yaml",
        Floor {
            offered: 650,
            unasked: 617,
            wrong: 3,
        },
    );
}

#[test]
fn the_fourteenth_blind_set_passes_at_least_as_often_as_recorded() {
    check_blind_set(
        "blind-set-14.yaml",
        Floor {
            offered: 644,
            unasked: 615,
            wrong: 8,
        },
    );
}

#[test]
fn the_fifteenth_blind_set_passes_at_least_as_often_as_recorded() {
    check_blind_set(
        "blind-set-15.yaml",
        Floor {
            offered: 630,
            unasked: 602,
            wrong: 7,
        },
    );
}

#[test]
fn the_sixteenth_blind_set_passes_at_least_as_often_as_recorded() {
    check_blind_set(
        "blind-set-16.yaml",
        Floor {
            offered: 654,
            unasked: 636,
            wrong: 1,
        },
    );
}

#[test]
fn the_seventeenth_blind_set_passes_at_least_as_often_as_recorded() {
    check_blind_set(
        "blind-set-17.yaml",
        Floor {
            offered: 658,
            unasked: 616,
            wrong: 6,
        },
    );
}

#[test]
fn the_eighteenth_blind_set_passes_at_least_as_often_as_recorded() {
    check_blind_set(
        "blind-set-18.yaml",
        Floor {
            offered: 660,
            unasked: 641,
            wrong: 5,
        },
    );
}

#[test]
fn the_nineteenth_blind_set_passes_at_least_as_often_as_recorded() {
    check_blind_set(
        "blind-set-19.yaml",
        Floor {
            offered: 644,
            unasked: 619,
            wrong: 2,
        },
    );
}

#[test]
fn the_twentieth_blind_set_passes_at_least_as_often_as_recorded() {
    check_blind_set(
        "blind-set-20.yaml",
        Floor {
            offered: 659,
            unasked: 627,
            wrong: 2,
        },
    );
}

#[test]
fn the_twenty_first_blind_set_passes_at_least_as_often_as_recorded() {
    check_blind_set(
        "blind-set-21.yaml",
        Floor {
            offered: 697,
            unasked: 666,
            wrong: 5,
        },
    );
}

#[test]
fn the_twenty_second_blind_set_passes_at_least_as_often_as_recorded() {
    check_blind_set(
        "blind-set-22.yaml",
        Floor {
            offered: 671,
            unasked: 640,
            wrong: 2,
        },
    );
}

#[test]
fn the_twenty_third_blind_set_passes_at_least_as_often_as_recorded() {
    check_blind_set(
        "blind-set-23.yaml",
        Floor {
            offered: 653,
            unasked: 620,
            wrong: 3,
        },
    );
}

#[test]
fn the_twenty_fourth_blind_set_passes_at_least_as_often_as_recorded() {
    check_blind_set(
        "blind-set-24.yaml",
        Floor {
            offered: 660,
            unasked: 626,
            wrong: 4,
        },
    );
}
