//! Offline voice, measured: reports, not checks of speed or of a rate
//! (`--ignored`; docs/VOICE.md records their figures).
//!
//! - `wer`: the project's own twelve sentences, four voices, word error rate.
//! - `blind_spoken_set`: `tests/spoken-set.yaml` (written before the gate and
//!   designs were tuned), each engine × voice (espeak-ng, flite, Festival,
//!   Piper): exact actions, wrong ones (asked, done or refused), nothing
//!   done, word error rate, and the time from the end of speech to the
//!   answer (p50, p95), spoken in real time. It does check one thing: no
//!   wrong change is ever done without the person's yes.
//! - `human_recordings`: word error rate on the recordings of people in
//!   Debian's pocketsphinx-testdata.
//!
//! `cargo test -p voicebox --test spoken_set -- --ignored --nocapture`

mod common;

use common::Server;
use common::spoken::{Page, Voice, available, edits, pcm, speak, whisper_available};
use serde::Deserialize;
use serde_json::Value;
use std::collections::BTreeMap;
use std::time::Duration;

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

#[tokio::test(flavor = "multi_thread")]
#[ignore = "a report: run with --ignored --nocapture to measure the word error rate"]
async fn wer() {
    if !available() {
        return;
    }
    let server = common::spoken::server();
    let mut page = Page::ready(&server, "local").await;
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

/// The voices of the blind set, by default: espeak-ng's American voice
/// (the formant synthesis the earlier figures used), and four closer to a
/// person: flite's `rms` and `awb`, Festival's HTS `slt`, Piper's `joe`.
/// `VOICEBOX_VOICES` names others (comma-separated, as `Voice::parse` reads).
const SET_VOICES: &str = "espeak:en-us,flite:rms,flite:awb,festival:slt,piper:joe";

/// The engines measured, by default: `hybrid` (the `local` provider's
/// pocketsphinx design) and `whisper` (Moonshine). `VOICEBOX_DESIGNS` names
/// others (`grammar`, `language`).
const SET_DESIGNS: &str = "hybrid,whisper";

/// What one engine made of one voice's utterances.
#[derive(Default)]
struct Tally {
    /// Per verb: utterances, word edits, reference words, exact, wrong and
    /// asked, wrong and done, wrong and refused, nothing.
    verbs: BTreeMap<String, [usize; 8]>,
    /// End of speech to the reply, per utterance.
    latencies: Vec<Duration>,
}

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

/// Words as they are compared for WER: lower case, a dot inside a name said
/// as "dot" ("todo.txt" is "todo dot txt"), other punctuation dropped, so
/// an engine that writes names and sentence case is not counted wrong for it.
fn words(text: &str) -> Vec<String> {
    let spoken = text.to_lowercase().replace(
        |c: char| !(c.is_alphanumeric() || c == '.' || c == '\'' || c.is_whitespace()),
        " ",
    );
    let spaced: Vec<String> = spoken
        .split_whitespace()
        .map(|word| {
            word.trim_matches('.')
                .split('.')
                .filter(|part| !part.is_empty())
                .collect::<Vec<_>>()
                .join(" dot ")
        })
        .collect();
    spaced
        .join(" ")
        .split_whitespace()
        .map(String::from)
        .collect()
}

/// Word edits from `heard` to `said`, and the words said.
fn word_errors(said: &str, heard: &str) -> (usize, usize) {
    let (said, heard) = (words(said), words(heard));
    let said: Vec<&str> = said.iter().map(String::as_str).collect();
    let heard: Vec<&str> = heard.iter().map(String::as_str).collect();
    (edits(&said, &heard), said.len())
}

/// Whether the engine of `design` can run here (skipped loudly if not):
/// the Whisper-class one needs its package and a processor it was built for.
fn runs_here(design: &str) -> bool {
    design != "whisper" || whisper_available()
}

/// A server whose offline voice uses `design`, and a page on it.
async fn engine(design: &str) -> (Server, Page) {
    let server = tokio::task::block_in_place(|| {
        Server::start_with_env(&[
            ("VOICEBOX_OFFLINE_DESIGN", design),
            (
                "RUST_LOG",
                "warn,voicebox::live::local=info,voicebox::live::hearing=info",
            ),
        ])
    });
    // `whisper` is its own provider; the others are pocketsphinx designs.
    let provider = if design == "whisper" {
        "whisper"
    } else {
        "local"
    };
    let page = Page::ready(&server, provider).await;
    (server, page)
}

/// Every sentence of the set in `voice`, said to `page` in real time.
async fn measure(
    server: &Server,
    page: &mut Page,
    set: &SpokenSet,
    voice: &str,
    spoken: &BTreeMap<String, Vec<u8>>,
) -> Tally {
    let mut tally = Tally::default();
    for case in &set.cases {
        let verb = match (&case.action, case.unresolved) {
            (Some(action), false) => action["verb"].as_str().unwrap().to_string(),
            (None, true) => "(nothing meant)".to_string(),
            _ => panic!("a case has an action or unresolved: {:?}", case.sentences),
        };
        for sentence in &case.sentences {
            reset(&server.root, &set.files);
            let (answer, latency) = page.say_timed(&spoken[sentence]).await;
            tally.latencies.push(latency);
            let call = answer.calls.first();
            let row = tally.verbs.entry(verb.clone()).or_default();
            let (edits, words) = word_errors(sentence, &answer.heard);
            row[0] += 1;
            row[1] += edits;
            row[2] += words;
            // Speech has no letter case: fields compare without it.
            let said = |action: &Value| Value::from(action.to_string().to_lowercase());
            let exact =
                |call: &Value| case.action.as_ref().map(said) == Some(said(&call["action"]));
            let outcome = match (call, &case.action) {
                (None, None) => 3,
                (None, Some(_)) => 7,
                (Some(call), _) if exact(call) => 3,
                (Some(call), _) => {
                    let result = &call["result"];
                    let asked = result["confirm"].is_object();
                    let done = result["ok"] == true && !asked;
                    let changes = !["read", "list", "grep", "diff", "list_extensions"]
                        .contains(&call["name"].as_str().unwrap_or(""));
                    assert!(
                        !(done && changes),
                        "a wrong change was done without a yes: {sentence:?} ({voice}) → {call}"
                    );
                    match (asked, done) {
                        (true, _) => 4,
                        (false, true) => 5,
                        (false, false) => 6,
                    }
                }
            };
            row[outcome] += 1;
            let named = [
                "", "", "", "exact", "wrong-asked", "wrong-acted", "wrong-refused", "none",
            ];
            println!(
                "  {} {:.2}s [{voice}] {sentence:?} heard {:?} → {}",
                named[outcome],
                latency.as_secs_f64(),
                answer.heard,
                call.map_or(Value::Null, |c| c["action"].clone())
            );
        }
    }
    tally
}

/// The per-verb table of one engine and voice.
fn report(design: &str, voice: &str, tally: &Tally) {
    println!(
        "\n### `{design}` × `{voice}` (latency p50 {:.2} s, p95 {:.2} s)\n",
        percentile(&tally.latencies, 50.0).as_secs_f64(),
        percentile(&tally.latencies, 95.0).as_secs_f64()
    );
    println!(
        "| verb | utterances | WER | exact | wrong, asked | wrong, acted | wrong, refused | nothing |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    for (verb, row) in &tally.verbs {
        println!("| {verb} | {} |", cells(row));
    }
    println!("| **all** | {} |", cells(&total(tally)));
}

/// All verbs of a tally summed.
fn total(tally: &Tally) -> [usize; 8] {
    let mut all = [0usize; 8];
    for row in tally.verbs.values() {
        for (sum, n) in all.iter_mut().zip(row) {
            *sum += n;
        }
    }
    all
}

fn cells(row: &[usize; 8]) -> String {
    let pct = |n: usize| format!("{n} ({:.0}%)", 100.0 * n as f64 / row[0].max(1) as f64);
    format!(
        "{} | {:.0}% | {} | {} | {} | {} | {}",
        row[0],
        100.0 * row[1] as f64 / row[2].max(1) as f64,
        pct(row[3]),
        pct(row[4]),
        pct(row[5]),
        pct(row[6]),
        pct(row[7])
    )
}

/// The `p`th percentile (nearest rank) of `times`.
fn percentile(times: &[Duration], p: f64) -> Duration {
    let mut sorted = times.to_vec();
    sorted.sort();
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "a report: run with --ignored --nocapture; VOICEBOX_DESIGNS and VOICEBOX_VOICES pick engines and voices"]
async fn blind_spoken_set() {
    let designs = std::env::var("VOICEBOX_DESIGNS").unwrap_or_else(|_| SET_DESIGNS.into());
    let voices = std::env::var("VOICEBOX_VOICES").unwrap_or_else(|_| SET_VOICES.into());
    let voices: Vec<&str> = voices.split(',').collect();
    if !available() || !voices.iter().all(|v| Voice::parse(v).here()) {
        return;
    }
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/spoken-set.yaml"
    ))
    .unwrap();
    let set: SpokenSet = serde_yaml_ng::from_str(&text).unwrap();
    // Each voice's utterances are made once and said to every engine.
    let spoken: BTreeMap<&str, BTreeMap<String, Vec<u8>>> = voices
        .iter()
        .map(|voice| {
            let said = set
                .cases
                .iter()
                .flat_map(|case| &case.sentences)
                .map(|s| (s.clone(), speak(s, voice)))
                .collect();
            (*voice, said)
        })
        .collect();
    let mut table = Vec::new();
    for design in designs.split(',').filter(|d| runs_here(d)) {
        let (server, mut page) = engine(design).await;
        for voice in &voices {
            let tally = measure(&server, &mut page, &set, voice, &spoken[voice]).await;
            report(design, voice, &tally);
            table.push((design.to_string(), voice.to_string(), tally));
        }
    }
    println!(
        "\n| engine | voice | utterances | WER | exact | wrong, asked | wrong, acted | wrong, refused | nothing | latency p50 | p95 |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|");
    for (design, voice, tally) in &table {
        println!(
            "| {design} | {voice} | {} | {:.2} s | {:.2} s |",
            cells(&total(tally)),
            percentile(&tally.latencies, 50.0).as_secs_f64(),
            percentile(&tally.latencies, 95.0).as_secs_f64()
        );
    }
}

/// A recording of a person: the file, and what was said.
struct Recording {
    wav: String,
    said: String,
}

/// Debian's pocketsphinx-testdata: five sentences of a LibriVox reading and
/// five card names, each with its transcription.
fn recordings() -> Vec<Recording> {
    let data = std::path::Path::new(TESTDATA);
    let mut recordings = Vec::new();
    for (folder, list) in [
        ("librivox", "transcription"),
        ("cards", "cards.transcription"),
    ] {
        let text = std::fs::read_to_string(data.join(folder).join(list)).unwrap();
        for line in text.lines() {
            // `<s> words </s> (id)`, the id naming `id.wav` in the folder.
            let Some((words, id)) = line.rsplit_once(" (") else {
                continue;
            };
            let said = words.replace("<s>", "").replace("</s>", "");
            let wav = data
                .join(folder)
                .join(format!("{}.wav", id.trim_end_matches(')')));
            recordings.push(Recording {
                wav: wav.display().to_string(),
                said: said.trim().to_string(),
            });
        }
    }
    recordings
}

const TESTDATA: &str = "/usr/share/pocketsphinx/test/data";

/// Word error rate on people: the recordings of Debian's
/// pocketsphinx-testdata through `/live`, Moonshine's words (`whisper`) and
/// pocketsphinx's full English model (`language`; the grammar holds only
/// commands, so it is not measured on free speech). A recording with pauses
/// may be cut into several utterances: their words are joined.
#[tokio::test(flavor = "multi_thread")]
#[ignore = "a report: run with --ignored --nocapture human_recordings; VOICEBOX_DESIGNS picks engines"]
async fn human_recordings() {
    if !available()
        || !voicebox_test_support::present_or_skip(
            std::path::Path::new(TESTDATA).join("librivox").is_dir(),
            "Debian's pocketsphinx-testdata",
            "apt-get install -y pocketsphinx-testdata",
        )
    {
        return;
    }
    let recordings = recordings();
    let mut rows = Vec::new();
    let designs = std::env::var("VOICEBOX_DESIGNS").unwrap_or_else(|_| "language,whisper".into());
    for design in designs.split(',').filter(|d| runs_here(d)) {
        let (server, mut page) = engine(design).await;
        let (mut edits, mut words, mut latencies) = (0, 0, Vec::new());
        for recording in &recordings {
            let start = server.logs.lock().unwrap().len();
            let (first, latency) = page.say_timed(&pcm(&recording.wav)).await;
            let later = page.more(Duration::from_secs(2)).await;
            latencies.push(latency);
            let heard: Vec<String> = match design {
                // The full model's own words, gated or not.
                "language" => server.logs.lock().unwrap()[start..]
                    .iter()
                    .filter_map(|line| {
                        let (_, words) = line.split_once("full model heard: ")?;
                        Some(words.trim().to_string())
                    })
                    .collect(),
                _ => std::iter::once(first)
                    .chain(later)
                    .map(|a| a.heard)
                    .collect(),
            };
            let heard = heard.join(" ");
            let (e, w) = word_errors(&recording.said, &heard);
            println!(
                "  {design} {e}/{w} said {:?} heard {heard:?}",
                recording.said
            );
            edits += e;
            words += w;
        }
        rows.push(format!(
            "| {design} | {} | {words} | {:.1}% | {:.2} s | {:.2} s |",
            recordings.len(),
            100.0 * edits as f64 / words.max(1) as f64,
            percentile(&latencies, 50.0).as_secs_f64(),
            percentile(&latencies, 95.0).as_secs_f64()
        ));
    }
    println!(
        "\n| engine | recordings | words | WER | latency p50 | p95 |\n|---|---|---|---|---|---|"
    );
    for row in rows {
        println!("{row}");
    }
}

/// What silence before a request costs: the same request (Piper's joe
/// asking to add to a file) said after 0, 10 and 40 s of silence (sent at
/// once), each engine of `VOICEBOX_DESIGNS`
/// (default `hybrid,whisper`); what was heard and the time from the end of
/// the speech to the answer. A page streams the room's silence between
/// requests, so this is what a request after a pause meets.
#[tokio::test(flavor = "multi_thread")]
#[ignore = "a report: run with --ignored --nocapture silence_before"]
async fn silence_before() {
    if !available() {
        return;
    }
    let designs = std::env::var("VOICEBOX_DESIGNS").unwrap_or_else(|_| SET_DESIGNS.into());
    if !Voice::Piper.here() {
        return;
    }
    let request = speak("add fresh eggs to notes dot md", "piper:joe");
    for design in designs.split(',').filter(|d| runs_here(d)) {
        let (server, mut page) = engine(design).await;
        std::fs::write(server.root.join("notes.md"), "milk").unwrap();
        // The first request settles the decoder's levels.
        page.say_timed(&request).await;
        for seconds in [0, 10, 40, 0] {
            let silence = vec![0u8; seconds * 16_000 * 2];
            let mut audio = silence;
            audio.extend_from_slice(&request);
            let (answer, latency) = page.say_timed(&audio).await;
            println!(
                "  {design} after {seconds:>2} s of silence: {:.2} s, heard {:?} → {}",
                latency.as_secs_f64(),
                answer.heard,
                answer
                    .calls
                    .first()
                    .map_or(Value::Null, |c| c["action"].clone())
            );
        }
    }
}
