//! A heard change answered by voice over `/live?provider=local`, spoken by
//! espeak-ng as the other offline voice tests are: the file's name confirms
//! a heard append and a bare "yes" does not; "delete groceries" confirms a
//! heard delete and the name alone does not; the audit keeps what was heard.
//! The named refusals for a stale or a second answer are the core's
//! (`crates/core/tests/spoken_answer.rs`); the false confirmations measured
//! on recorded non-answers are in `spoken_set.rs` and docs/VOICE.md.

mod common;

use common::spoken::{
    Answer, ONE_DECODER, Page, Voice, available, hearing_on_page, server, speak, whisper_available,
};
use serde_json::{Value, json};
use voicebox_test_support::audit_files;

/// The call a spoken answer became, if any.
fn answer_call(answer: &Answer) -> Option<&Value> {
    answer.calls.iter().find(|c| c["answers"].is_object())
}

/// Says a request until a call comes of it, as a person says it again,
/// in turn in the other accent: the decoder settles its levels on a
/// session's first words (and a shelved decoder on the last session's), so
/// a first request is often not caught; a fourth miss still fails the test.
trait Request {
    async fn request(&mut self, sentence: &str) -> Answer;
}

impl Request for Page {
    async fn request(&mut self, sentence: &str) -> Answer {
        let mut heard = self.say(&speak(sentence, "en-gb")).await;
        for voice in ["en-us", "en-gb", "en-us"] {
            if !heard.calls.is_empty() {
                break;
            }
            heard = self.say(&speak(sentence, voice)).await;
        }
        heard
    }
}

/// Every audit line of the root written so far.
fn audit(root: &std::path::Path) -> Vec<Value> {
    let mut lines = Vec::new();
    for file in audit_files(root) {
        let text = std::fs::read_to_string(file).unwrap_or_default();
        lines.extend(text.lines().filter_map(|l| serde_json::from_str(l).ok()));
    }
    lines
}

#[tokio::test(flavor = "multi_thread")]
async fn the_name_confirms_a_heard_append_and_the_verb_and_name_a_delete() {
    let Some((_one, server, mut page)) = hearing_on_page("groceries.md", "eggs\n").await else {
        return;
    };
    let groceries = server.root.join("groceries.md");

    let add = ask(
        &mut page,
        &groceries,
        "append milk to groceries dot md",
        "groceries",
    )
    .await;
    let confirm = &add.calls[0]["result"]["confirm"];
    assert_eq!(
        (&confirm["rule"], &confirm["say"]),
        (&json!("heard-change"), &json!("groceries")),
        "{add:?}"
    );
    assert!(
        add.reply.contains("say the words the question shows"),
        "the page's voice points at the words, never says them alone: {add:?}"
    );

    // "yes" is no answer: refused by name, the question still waits.
    let yes = page.say(&speak("yes", "en-us")).await;
    let call = answer_call(&yes).expect("heard as an attempt at an answer");
    assert_eq!(
        call["result"]["refused"], "spoken-answer-mismatch",
        "{yes:?}"
    );
    assert_eq!(std::fs::read_to_string(&groceries).unwrap(), "eggs\n");

    let name = page.say(&speak("groceries", "en-us")).await;
    let call = answer_call(&name).unwrap_or_else(|| panic!("the name answers: {name:?}"));
    assert_eq!(call["answers"]["id"], confirm["id"], "{name:?}");
    assert_eq!(call["result"]["ok"], true, "{name:?}");
    assert_eq!(std::fs::read_to_string(&groceries).unwrap(), "eggs\nmilk");
    let attempt = audit(&server.root)
        .into_iter()
        .find(|e| e["decision"] == "attempt" && e["spoken"].is_string())
        .expect("the attempt records the spoken answer");
    assert_eq!(attempt["spoken"], "groceries", "{attempt}");
    assert_eq!(attempt["act"]["target"], "groceries.md", "{attempt}");

    let delete = ask(
        &mut page,
        &groceries,
        "delete groceries dot md",
        "delete groceries",
    )
    .await;
    let confirm = &delete.calls[0]["result"]["confirm"];
    assert_eq!(confirm["say"], "delete groceries", "{delete:?}");

    // The name alone, which the question says, deletes nothing.
    let alone = page.say(&speak("groceries", "en-us")).await;
    assert!(
        answer_call(&alone).is_none_or(|c| c["result"]["ok"] != true),
        "{alone:?}"
    );
    assert!(
        groceries.exists(),
        "the name alone is no answer to a delete"
    );

    let both = page.say(&speak("delete groceries", "en-us")).await;
    let call = answer_call(&both).expect("the verb and the name answer");
    assert_eq!(call["result"]["ok"], true, "{both:?}");
    assert!(!groceries.exists());
}

/// Asks `request` until the question that takes `answer` waits.
async fn ask(page: &mut Page, groceries: &std::path::Path, request: &str, answer: &str) -> Answer {
    std::fs::write(groceries, "eggs\n").unwrap();
    for _ in 0..4 {
        let asked = page.request(request).await;
        let say = asked.calls.first().map(|c| &c["result"]["confirm"]["say"]);
        if say == Some(&json!(answer)) {
            return asked;
        }
        if say.is_some_and(Value::is_string) {
            page.say(&speak("no", "en-gb")).await;
        }
    }
    panic!("{request:?} was never heard");
}

/// What people and rooms say that is not the answer: assent, other names,
/// the name without the verb, the verb without the name, talk.
const NOT_ANSWERS: &[&str] = &[
    "yes",
    "okay",
    "sure",
    "do it",
    "yes please",
    "go ahead",
    "that's right",
    "notes",
    "todo",
    "plan",
    "delete",
    "delete notes",
    "overwrite groceries",
    "add milk to groceries",
    "the weather will be lovely tomorrow",
    "turn the volume down a little",
    "what time is it",
    "i will call you back later",
    "and now the news at six",
];

/// The voices the measure speaks with: espeak-ng's, or those
/// `VOICEBOX_VOICES` names (comma-separated, as [`Voice::parse`] reads them:
/// `flite:rms,flite:awb,festival:slt,piper:joe` for voices closer to a
/// person than formant synthesis).
fn voices() -> Vec<String> {
    match std::env::var("VOICEBOX_VOICES") {
        Ok(names) => names.split(',').map(String::from).collect(),
        Err(_) => ["en-us", "en-gb", "en-us+m3", "en+f3"]
            .map(String::from)
            .to_vec(),
    }
}

/// Measures false confirmations: a heard append (answer "groceries") and a
/// heard delete (answer "delete groceries") wait, and every voice says
/// every non-answer (and, for the delete, the bare name) and then the page's
/// own spoken question; each confirmation is counted (the Whisper-class
/// design, which hears the requests surely; answers are heard by the same
/// answer grammar in every offline design). Then the answers
/// themselves, to show how often the right words are heard. Printed as the
/// table in docs/VOICE.md:
/// `cargo test -p voicebox --test spoken_answer -- --ignored --nocapture`
#[tokio::test(flavor = "multi_thread")]
#[ignore = "a measurement (several minutes); its figures are in docs/VOICE.md"]
async fn false_confirmations_on_recorded_non_answers() {
    let _one = ONE_DECODER.lock().await;
    let voices = voices();
    if !available() || !whisper_available() || !voices.iter().all(|v| Voice::parse(v).here()) {
        return;
    }
    let server = server();
    let groceries = server.root.join("groceries.md");
    for name in ["notes.md", "todo.txt", "plan.md"] {
        std::fs::write(server.root.join(name), "x\n").unwrap();
    }
    let mut page = Page::ready(&server, "whisper").await;
    let (mut said, mut false_yes, mut heard_as_answer) = (0, 0, 0);
    let (mut answers, mut answered) = (0, 0);
    for (request, answer) in [
        ("append milk to groceries dot md", "groceries"),
        ("delete groceries dot md", "delete groceries"),
    ] {
        let mut not_answers: Vec<String> = NOT_ANSWERS.iter().map(|s| s.to_string()).collect();
        if answer.starts_with("delete") {
            not_answers.push("groceries".into());
        }
        for voice in &voices {
            let asked = ask(&mut page, &groceries, request, answer).await;
            not_answers.push(asked.reply.clone());
            for words in &not_answers {
                let heard = page.say(&speak(words, voice)).await;
                said += 1;
                // A non-answer that is itself a request ("add milk to
                // groceries") asks a question of its own, whose answer the
                // next words may be: the question measured is asked again.
                let another = heard
                    .calls
                    .iter()
                    .any(|c| c["result"]["confirm"].is_object());
                if another {
                    println!("ANOTHER QUESTION {voice} {words:?} heard {:?}", heard.heard);
                    ask(&mut page, &groceries, request, answer).await;
                }
                if let Some(call) = answer_call(&heard) {
                    heard_as_answer += 1;
                    println!(
                        "ATTEMPT {voice} {words:?} heard {:?}: {}",
                        heard.heard, call["result"]["refused"]
                    );
                    if call["result"]["ok"] == true {
                        false_yes += 1;
                        println!("FALSE YES {voice} {words:?} heard {:?}", heard.heard);
                        ask(&mut page, &groceries, request, answer).await;
                    }
                }
            }
            not_answers.pop();
            // Asked afresh: a non-answer heard as "no" settled the question.
            ask(&mut page, &groceries, request, answer).await;
            let heard = page.say(&speak(answer, voice)).await;
            answers += 1;
            let done = answer_call(&heard).is_some_and(|c| c["result"]["ok"] == true);
            answered += usize::from(done);
            println!(
                "ANSWER {voice} {answer:?} heard {:?} done {done}",
                heard.heard
            );
            if !done {
                // Cleared for the next voice: a no settles the question.
                page.say(&speak("no", voice)).await;
            }
        }
    }
    println!(
        "non-answers said: {said}, heard as attempts at an answer: {heard_as_answer}, false confirmations: {false_yes}"
    );
    println!("answers said: {answers}, confirmed: {answered}");
    assert_eq!(false_yes, 0, "no non-answer confirms");
}
