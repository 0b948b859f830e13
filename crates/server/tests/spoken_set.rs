//! Offline voice, measured: reports, not checks of speed or of a rate
//! (`--ignored`; docs/VOICE.md records their figures).
//!
//! - `wer`: the project's own twelve sentences, four voices, word error rate.
//! - `blind_spoken_set`: `tests/spoken-set.yaml` (written before the gate and
//!   designs were tuned), three voices, for each offline design: per verb the
//!   word error rate, exact actions, wrong ones (an act other than what was
//!   said, even if asked) and nothing done. It does check one thing: no
//!   wrong change is ever done without the person's yes.
//!
//! `cargo test -p voicebox --test spoken_set -- --ignored --nocapture`

mod common;

use common::Server;
use common::spoken::{Page, available, edits, speak};
use serde::Deserialize;
use serde_json::Value;
use std::collections::BTreeMap;

/// One sentence of each spoken kind of the command list.
const SENTENCES: &[&str] = &[
    "create a file called hello dot txt with hello",
    "write eggs and milk to notes dot md",
    "read hello dot txt",
    "what is in notes dot md",
    "list the files",
    "what files are there",
    "replace eggs with bread in notes dot md",
    "search for milk",
    "diff hello dot txt with goodbye",
    "undo the last change",
    "what tools are there",
    "delete hello dot txt",
];
const VOICES: &[&str] = &["en-us", "en-gb", "en+f3", "en-us+m3"];

async fn page_for(server: &Server, provider: &str) -> Page {
    let mut page = Page::open(server, &format!("?provider={provider}")).await;
    page.expect("rate").await;
    page.expect("ready").await;
    page
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "a report: run with --ignored --nocapture to measure the word error rate"]
async fn wer() {
    if !available() {
        return;
    }
    let server = common::spoken::server();
    let mut page = page_for(&server, "local").await;
    let (mut errors, mut words, mut total) = (0, 0, 0);
    for voice in VOICES {
        for sentence in SENTENCES {
            let answer = page.say(&speak(sentence, voice)).await;
            let reference: Vec<&str> = sentence.split_whitespace().collect();
            let hyp: Vec<&str> = answer.heard.split_whitespace().collect();
            errors += edits(&reference, &hyp);
            words += reference.len();
            total += 1;
        }
    }
    let wer = 100.0 * errors as f64 / words as f64;
    println!("\nWER {wer:.1}% ({errors} edits / {words} words) over {total} utterances");
    assert!(total >= 30);
}

#[derive(Deserialize)]
struct SpokenSet {
    files: BTreeMap<String, String>,
    cases: Vec<SpokenCase>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SpokenCase {
    #[serde(default)]
    action: Option<Value>,
    #[serde(default)]
    unresolved: bool,
    sentences: Vec<String>,
}

/// The voices of the blind set: two accents, two registers.
const SET_VOICES: &[&str] = &["en-us", "en-gb", "en-us+f3"];

/// Per verb: utterances, word edits, reference words, exact, wrong, nothing.
type Tally = BTreeMap<String, [usize; 6]>;

/// Puts the set's files back as they were, and removes any other file.
fn reset(root: &std::path::Path, files: &BTreeMap<String, String>) {
    for entry in std::fs::read_dir(root).unwrap().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if !name.starts_with('.') && entry.file_type().unwrap().is_file() {
            std::fs::remove_file(entry.path()).unwrap();
        }
    }
    for (name, content) in files {
        std::fs::write(root.join(name), content).unwrap();
    }
}

async fn measure(design: &str, set: &SpokenSet) -> Tally {
    let server = tokio::task::block_in_place(|| {
        Server::start_with_env(&[
            ("VOICEBOX_OFFLINE_DESIGN", design),
            ("RUST_LOG", "warn,voicebox::live::local=info"),
        ])
    });
    // `whisper` is its own provider; the others are pocketsphinx designs.
    let provider = if design == "whisper" {
        "whisper"
    } else {
        "local"
    };
    let mut page = page_for(&server, provider).await;
    let mut tally = Tally::new();
    for case in &set.cases {
        let verb = match (&case.action, case.unresolved) {
            (Some(action), false) => action["verb"].as_str().unwrap().to_string(),
            (None, true) => "(nothing meant)".to_string(),
            _ => panic!("a case has an action or unresolved: {:?}", case.sentences),
        };
        for sentence in &case.sentences {
            for voice in SET_VOICES {
                reset(&server.root, &set.files);
                let answer = page.say(&speak(sentence, voice)).await;
                let confidence = server
                    .logs
                    .lock()
                    .unwrap()
                    .iter()
                    .rev()
                    .find(|line| line.contains("offline grammar confidence"))
                    .map(|line| {
                        line.rsplit("confidence")
                            .next()
                            .unwrap_or("")
                            .trim()
                            .to_string()
                    })
                    .unwrap_or_default();
                let reference: Vec<&str> = sentence.split_whitespace().collect();
                let hyp: Vec<&str> = answer.heard.split_whitespace().collect();
                let call = answer.calls.first();
                let row = tally.entry(verb.clone()).or_default();
                row[0] += 1;
                row[1] += edits(&reference, &hyp);
                row[2] += reference.len();
                // Speech has no letter case: fields compare without it.
                let said = |action: &Value| Value::from(action.to_string().to_lowercase());
                let exact =
                    |call: &Value| case.action.as_ref().map(said) == Some(said(&call["action"]));
                let outcome = match (call, &case.action) {
                    (None, None) => "exact",
                    (None, Some(_)) => "nothing",
                    (Some(call), _) if exact(call) => "exact",
                    _ => "wrong",
                };
                println!(
                    "  gate {outcome} {confidence} [{voice}] {sentence:?} heard {:?}",
                    answer.heard
                );
                match (call, &case.action) {
                    (None, None) => row[3] += 1,
                    (None, Some(_)) => row[5] += 1,
                    (Some(call), _) if exact(call) => row[3] += 1,
                    (Some(call), _) => {
                        row[4] += 1;
                        let result = &call["result"];
                        let done = result["ok"] == true && result["confirm"].is_null();
                        let changes = call["name"] != "read"
                            && call["name"] != "list"
                            && call["name"] != "grep"
                            && call["name"] != "diff"
                            && call["name"] != "list_extensions";
                        assert!(
                            !(done && changes),
                            "a wrong change was done without a yes: {sentence:?} ({voice}) → {call}"
                        );
                        println!(
                            "  wrong [{voice}] {sentence:?} heard {:?} → {}",
                            answer.heard, call["action"]
                        );
                    }
                }
            }
        }
    }
    tally
}

fn report(design: &str, tally: &Tally) {
    println!("\n### design `{design}`\n");
    println!("| verb | utterances | WER | exact | wrong | nothing |");
    println!("|---|---|---|---|---|---|");
    let mut all = [0usize; 6];
    for (verb, row) in tally {
        for (sum, n) in all.iter_mut().zip(row) {
            *sum += n;
        }
        print_row(verb, row);
    }
    print_row("**all**", &all);
}

fn print_row(label: &str, row: &[usize; 6]) {
    let pct = |n: usize| 100.0 * n as f64 / row[0].max(1) as f64;
    println!(
        "| {label} | {} | {:.0}% | {} ({:.0}%) | {} ({:.0}%) | {} ({:.0}%) |",
        row[0],
        100.0 * row[1] as f64 / row[2].max(1) as f64,
        row[3],
        pct(row[3]),
        row[4],
        pct(row[4]),
        row[5],
        pct(row[5])
    );
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "a report: run with --ignored --nocapture; VOICEBOX_DESIGNS=grammar,hybrid picks designs"]
async fn blind_spoken_set() {
    if !available() {
        return;
    }
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/spoken-set.yaml"
    ))
    .unwrap();
    let set: SpokenSet = serde_yaml_ng::from_str(&text).unwrap();
    let designs = std::env::var("VOICEBOX_DESIGNS")
        .unwrap_or_else(|_| "grammar,language,hybrid,whisper".into());
    for design in designs.split(',') {
        let tally = measure(design, &set).await;
        report(design, &tally);
    }
}
