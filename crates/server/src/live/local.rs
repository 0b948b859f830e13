//! The offline provider: pocketsphinx on this machine instead of a model
//! over the network. It fits the same session as the remote providers:
//! [`Local`] is a [`LiveVendor`] whose "upstream" is a decoder thread fed
//! through a channel (JSON messages, as a socket would carry), and what the
//! thread hears goes through the core's script resolver into the same tool
//! calls — and so the same executor — as a remote model's.
//!
//! What it hears is never acted on blindly: an utterance the decoder is not
//! sure of ([`Gate`]) is "I didn't catch that", and a change it heard is
//! a [`Call::heard`], which the executor shows as heard and asks first.
//! How an utterance becomes words is a [`Design`] (measured in
//! docs/VOICE.md): the command grammar, the full English model, or the
//! grammar when it is sure and the full model when it is not.
//!
//! Messages to the thread: `{"audio": base64}`, `{"reply": text}` (echoed
//! back once the calls ran, so the grammar can follow the root's new files).
//! From it: `{"ready": true}`, `{"heard": text, "action": {...}}`,
//! `{"heard": text, "note": why}`, `{"heard": text, "unsure": true}`,
//! `{"reply": text}`, `{"error": why}`.

use super::grammar;
use super::moonshine::{self, Moonshine};
use super::sphinx::{self, Confidence, Heard, Model, Sphinx};
use super::tools::{Answered, Call};
use super::vendor::{Event, LiveVendor, Who, base64, unbase64};
use crate::serve::Acts;
use serde_json::{Value, json};
use std::collections::HashSet;
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::handshake::client::Request;
use voicebox_core::Action;
use voicebox_core::resolver::{Folder, Resolution, resolve_in};

/// The recogniser's rate; the page sends PCM16 at it.
pub const INPUT_RATE: u32 = 16_000;

/// The answer when the decoder heard speech but no command in it.
const NOTHING_HEARD: &str =
    "I did not catch a command; try 'list the files' or 'read notes dot md'.";

/// The answer when the decoder is not sure what it heard: nothing is done.
const NOT_CAUGHT: &str =
    "I didn't catch that, so nothing was done. Say it again, a little slower, or type it.";

/// The local vendor: resolves what the decoder heard into calls.
#[derive(Default)]
pub struct Local {
    /// Calls made so far (their ids).
    calls: u64,
}

impl LiveVendor for Local {
    fn request(&self, _key: &str) -> Result<Request, String> {
        Err("the local provider has no upstream socket".into())
    }

    fn opening(&self, _instruction: &str) -> Value {
        json!({"open": true})
    }

    fn audio(&self, pcm: &[u8]) -> Value {
        json!({"audio": base64(pcm)})
    }

    fn interrupt(&self) -> Value {
        // The local voice does not speak, so there is nothing to stop.
        json!({"interrupt": true})
    }

    fn answers(&self, batch: &[Answered]) -> Vec<Value> {
        let text: Vec<String> = batch.iter().map(say).collect();
        vec![json!({"reply": text.join(" ")})]
    }

    fn read(&mut self, message: &Value) -> Vec<Event> {
        if message["ready"] == true {
            return vec![Event::Ready];
        }
        if let Some(why) = message["error"].as_str() {
            return vec![Event::Error(why.to_string())];
        }
        if let Some(text) = message["reply"].as_str() {
            return vec![Event::Reply(text.to_string())];
        }
        let Some(heard) = message["heard"].as_str() else {
            return Vec::new();
        };
        if message["unsure"] == true || heard.trim().is_empty() {
            // Speech it could not be sure of: say so rather than act or stay mute.
            let note = if heard.trim().is_empty() {
                NOTHING_HEARD
            } else {
                NOT_CAUGHT
            };
            return vec![Event::Reply(note.into())];
        }
        let transcript = Event::Transcript {
            who: Who::Person,
            text: heard.to_string(),
        };
        match Action::from_json(&message["action"]) {
            Ok(action) => {
                self.calls += 1;
                let call = Call::heard(format!("local-{}", self.calls), action);
                vec![transcript, Event::Calls(vec![call])]
            }
            Err(_) => {
                let note = message["note"].as_str().unwrap_or(NOTHING_HEARD);
                vec![transcript, Event::Reply(note.into())]
            }
        }
    }
}

/// One sentence the page may speak for an answered call.
fn say(answered: &Answered) -> String {
    let result = &answered.result;
    let text = |key: &str| result[key].as_str().map(String::from);
    if let Some(plan) = result["confirm"]["plan"].as_str() {
        return match plan.strip_prefix("I heard: ") {
            Some(heard) => format!("I heard: {heard}. Click Yes if that is right, No if not."),
            None => format!("Click Yes or No on the page to {plan}."),
        };
    }
    if let Some(why) = text("why") {
        return why;
    }
    if let (Some(file), Some(content)) = (text("file"), text("content")) {
        return format!("{file} says: {content}");
    }
    if let Some(files) = result["files"].as_array() {
        let names: Vec<&str> = files.iter().filter_map(|f| f["name"].as_str()).collect();
        return match names.len() {
            0 => "The folder is empty.".into(),
            _ => format!("The files are {}.", names.join(", ")),
        };
    }
    text("action").unwrap_or_else(|| "Done.".into())
}

/// The channel ends of a started decoder: what the bridge sends to it,
/// and what it says back (JSON text, as a socket's frames).
pub struct Link {
    pub to: mpsc::UnboundedSender<Value>,
    pub from: mpsc::UnboundedReceiver<Value>,
}

/// Checks that offline voice can run here and starts its decoder thread;
/// the error names the Debian packages to install.
/// `whisper`: the Whisper-class design (Moonshine); otherwise the
/// pocketsphinx design `VOICEBOX_OFFLINE_DESIGN` names.
pub fn start(acts: &Acts, whisper: bool) -> Result<Link, String> {
    let model = sphinx::available()?;
    let design = match whisper {
        true => {
            moonshine::available()?;
            Design::Whisper
        }
        false => Design::from_env()?,
    };
    let (to, inbox) = mpsc::unbounded_channel();
    let (outbox, from) = mpsc::unbounded_channel();
    let host = acts.host();
    let folder = move || host.lock().unwrap_or_else(|p| p.into_inner()).folder();
    std::thread::Builder::new()
        .name("voicebox-sphinx".into())
        .spawn(move || decode(model, design, folder, inbox, outbox))
        .map_err(|e| format!("the offline recogniser could not start: {e}"))?;
    Ok(Link { to, from })
}

/// The names the grammar spells: the root's top-level files (the folder's
/// names as the executor lists them), sorted and bounded.
fn files(folder: &Folder) -> Vec<String> {
    let mut names: Vec<String> = folder
        .names()
        .iter()
        .filter(|name| !name.contains('/'))
        .take(GRAMMAR_NAMES)
        .cloned()
        .collect();
    names.sort();
    names
}

/// The most file names the grammar spells.
const GRAMMAR_NAMES: usize = 200;

/// How an utterance becomes words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Design {
    /// The command grammar alone: a small vocabulary, content included.
    Grammar,
    /// The full English language model, resolved as typed text.
    Language,
    /// The grammar when it is sure of the utterance, else the full model.
    Hybrid,
    /// Moonshine's words, with the grammar's verb and file when the two
    /// agree on what is asked (see [`Recogniser::whispered`]).
    Whisper,
}

impl Design {
    /// `VOICEBOX_OFFLINE_DESIGN` (`grammar`, `language` or `hybrid`), for
    /// measuring; by default the one docs/VOICE.md found best.
    fn from_env() -> Result<Design, String> {
        match std::env::var("VOICEBOX_OFFLINE_DESIGN").as_deref() {
            Err(_) | Ok("") => Ok(DEFAULT_DESIGN),
            Ok("grammar") => Ok(Design::Grammar),
            Ok("language") => Ok(Design::Language),
            Ok("hybrid") => Ok(Design::Hybrid),
            Ok(other) => Err(format!(
                "VOICEBOX_OFFLINE_DESIGN is {other:?}; use grammar, language or hybrid (the Whisper-class design is --live-provider whisper)"
            )),
        }
    }
}

const DEFAULT_DESIGN: Design = Design::Hybrid;

/// When a decode is sure enough to act on (asked first, if a change).
#[derive(Clone, Copy, Debug)]
struct Gate {
    /// At least this share of the utterance is inside words.
    speech: f32,
    /// At least this path score per word frame.
    score: f32,
}

impl Gate {
    fn passes(self, confidence: Confidence) -> bool {
        confidence.speech >= self.speech && confidence.score >= self.score
    }
}

/// Whether the grammar's hearing may be acted on: a look with no free text
/// passes the looser [`LOOK_GATE`]; anything that carries words the person
/// chose, or changes a file, the calibrated [`GRAMMAR_GATE`].
fn sure_of(grammar: &Heard, folder: &Folder) -> bool {
    let gate = match resolve_in(&grammar.text, folder) {
        Resolution::Action(action) if !has_free_text(&action) && !action.verb().changes_files() => {
            LOOK_GATE
        }
        _ => GRAMMAR_GATE,
    };
    gate.passes(grammar.confidence)
}

/// For a look the grammar heard whole (read, list, the tool list): a wrong
/// look changes nothing, so only speech the grammar was plainly forced onto
/// is dropped.
const LOOK_GATE: Gate = Gate {
    speech: 0.2,
    score: -100.0,
};

/// Calibrated on the spoken blind set's first run (docs/VOICE.md): of the
/// grammar's right answers, 34 of 46 score at or above −50 per word frame;
/// of its wrong ones, 10 of 41 do. Below it the grammar was forced onto
/// words it does not hold (free content, most of all).
const GRAMMAR_GATE: Gate = Gate {
    speech: 0.2,
    score: -50.0,
};
const LANGUAGE_GATE: Gate = Gate {
    speech: 0.5,
    score: -100.0,
};

/// The most audio one utterance keeps for a second decode (30 s).
const UTTERANCE_SAMPLES: usize = 30 * INPUT_RATE as usize;

/// A decoder with the grammar for the root's current files.
struct Recogniser {
    sphinx: Sphinx,
    /// The Whisper-class model, for that design.
    whisper: Option<Moonshine>,
    model: Model,
    files: Option<Vec<String>>,
    /// Words added to the decoder's dictionary (a word is added once).
    added: HashSet<String>,
}

impl Recogniser {
    /// Regenerates the grammar when the root's files changed.
    fn follow(&mut self, files: Vec<String>) -> Result<(), String> {
        if self.files.as_ref() == Some(&files) {
            return Ok(());
        }
        let grammar = grammar::grammar(&files);
        let dictionary = sphinx::dictionary(&self.model.dict);
        for word in &grammar.words {
            if !dictionary.contains_key(word) && !self.added.contains(word) {
                let phones = grammar::spelled_phones(word, dictionary)
                    .ok_or_else(|| format!("`{word}` cannot be pronounced"))?;
                self.sphinx.add_word(word, &phones)?;
                self.added.insert(word.clone());
            }
        }
        self.sphinx.grammar(&grammar.jsgf)?;
        self.files = Some(files);
        Ok(())
    }
}

/// The decoder thread: utterances are cut where the decoder's voice
/// activity detection hears silence after speech.
fn decode(
    model: Model,
    design: Design,
    folder: impl Fn() -> Folder,
    mut inbox: mpsc::UnboundedReceiver<Value>,
    outbox: mpsc::UnboundedSender<Value>,
) {
    let started = Sphinx::new(&model).and_then(|sphinx| {
        let whisper = match design {
            Design::Whisper => Some(Moonshine::load()?),
            _ => None,
        };
        let mut recogniser = Recogniser {
            sphinx,
            whisper,
            model,
            files: None,
            added: HashSet::new(),
        };
        if matches!(design, Design::Language | Design::Hybrid) {
            let lm = recogniser.model.lm.clone().ok_or_else(|| {
                format!("the {design:?} design needs the full English model en-us.lm.bin (Debian's pocketsphinx-en-us)")
            })?;
            recogniser.sphinx.language_model(&lm)?;
        }
        recogniser.follow(files(&folder()))?;
        recogniser.sphinx.start()?;
        Ok(recogniser)
    });
    let mut recogniser = match started {
        Ok(recogniser) => recogniser,
        Err(why) => {
            let _ = outbox.send(json!({"error": why}));
            return;
        }
    };
    let _ = outbox.send(json!({"ready": true}));
    let mut speaking = false;
    let mut utterance: Vec<i16> = Vec::new();
    while let Some(message) = inbox.blocking_recv() {
        if let Some(text) = message["reply"].as_str() {
            // The calls ran: between utterances, follow the root's files.
            if !speaking {
                recogniser.sphinx.end();
                if let Err(why) = recogniser.follow(files(&folder())) {
                    tracing::warn!("the offline grammar was not updated: {why}");
                }
                if let Err(why) = recogniser.sphinx.start() {
                    let _ = outbox.send(json!({"error": why}));
                    return;
                }
                utterance.clear();
            }
            let _ = outbox.send(json!({"reply": text}));
            continue;
        }
        let Some(pcm) = message["audio"].as_str().and_then(unbase64) else {
            continue;
        };
        let samples: Vec<i16> = pcm
            .chunks_exact(2)
            .map(|b| i16::from_le_bytes([b[0], b[1]]))
            .collect();
        if utterance.len() + samples.len() <= UTTERANCE_SAMPLES {
            utterance.extend_from_slice(&samples);
        }
        let in_speech = recogniser.sphinx.feed(&samples);
        if in_speech {
            speaking = true;
        } else if speaking {
            speaking = false;
            let grammar = recogniser.sphinx.end();
            let heard = recogniser.understand(design, grammar, &utterance, &folder());
            utterance.clear();
            tracing::info!(heard = %heard, "offline voice heard");
            if outbox.send(heard).is_err() {
                return;
            }
            if let Err(why) = recogniser.sphinx.start() {
                let _ = outbox.send(json!({"error": why}));
                return;
            }
        }
    }
    recogniser.sphinx.end();
}

impl Recogniser {
    /// What one utterance says, as the message for the session: the words
    /// the design settles on, resolved against the folder, or `unsure`.
    fn understand(
        &mut self,
        design: Design,
        grammar: Heard,
        audio: &[i16],
        folder: &Folder,
    ) -> Value {
        if design == Design::Whisper {
            return self.whispered(grammar, audio, folder);
        }
        let grammar_sure = sure_of(&grammar, folder);
        let sure = match design {
            Design::Grammar => grammar_sure.then_some(grammar.text.clone()),
            Design::Hybrid if grammar_sure => Some(grammar.text.clone()),
            Design::Whisper => unreachable!("answered above"),
            Design::Language | Design::Hybrid => match self.sphinx.free_speech(audio) {
                Ok(free) if LANGUAGE_GATE.passes(free.confidence) => Some(free.text),
                Ok(_) => None,
                Err(why) => {
                    tracing::warn!("the full model could not decode: {why}");
                    None
                }
            },
        };
        tracing::info!(
            speech = grammar.confidence.speech,
            score = grammar.confidence.score,
            "offline grammar confidence"
        );
        let Some(text) = sure else {
            return json!({"heard": grammar.text, "unsure": true});
        };
        match resolve_in(&text, folder) {
            Resolution::Action(action) => json!({"heard": text, "action": action}),
            Resolution::Unresolved { note } => json!({"heard": text, "note": note}),
        }
    }
}

/// What a recogniser of words may have heard for a command's first word
/// (it hears the sound, not the request): "and oat milk to …" was "add".
const SOUNDS_LIKE: &[(&str, &str)] = &[
    ("and", "add"),
    ("an", "add"),
    ("at", "add"),
    ("but", "put"),
    ("right", "write"),
    ("rite", "write"),
    ("same", "save"),
    ("compared", "compare"),
    ("reed", "read"),
    ("red", "read"),
    ("lissed", "list"),
];

/// `words` as heard, then with a first word that sounds like a verb read as
/// that verb.
fn readings(words: &str) -> Vec<String> {
    let mut readings = vec![String::from(words)];
    let (first, rest) = words.split_once(' ').unwrap_or((words, ""));
    let bare = first
        .trim_matches(|c: char| !c.is_alphanumeric())
        .to_lowercase();
    if let Some((_, verb)) = SOUNDS_LIKE.iter().find(|(sound, _)| *sound == bare) {
        readings.push(format!("{verb} {rest}"));
    }
    readings
}

/// A reading of `words` with one run of up to six of them replaced by the
/// quoted `file` that `accept` takes: the longest such run (all of the
/// mangled name, none of it left in the content), the earliest of those.
fn renamed(words: &str, file: &str, accept: impl Fn(&str) -> Option<Action>) -> Option<Action> {
    let parts: Vec<&str> = words.split_whitespace().collect();
    (1..=parts.len().min(6)).rev().find_map(|run| {
        (0..=parts.len() - run).find_map(|at| {
            let mut said: Vec<String> = parts[..at].iter().map(|p| String::from(*p)).collect();
            said.push(format!("\"{file}\""));
            said.extend(parts[at + run..].iter().map(|p| String::from(*p)));
            accept(&said.join(" "))
        })
    })
}

/// Whether an action carries words the person chose (content, a query,
/// old or new text), which a closed grammar can only approximate.
fn has_free_text(action: &Action) -> bool {
    matches!(
        action,
        Action::Write { .. }
            | Action::Append { .. }
            | Action::Edit { .. }
            | Action::Diff { .. }
            | Action::Grep { .. }
            | Action::CreateAsset { .. }
    )
}

impl Recogniser {
    /// The Whisper-class design: Moonshine hears the words (content most of
    /// all) and the grammar, held to its gate, hears the command and the
    /// file names it was made from. When both resolve to the same verb,
    /// Moonshine's action wins, with the grammar's file when Moonshine's is
    /// not one the folder has; when they differ, Moonshine's wins if its file
    /// exists (or it names none), else the grammar's.
    fn whispered(&mut self, grammar: Heard, audio: &[i16], folder: &Folder) -> Value {
        let words = match self.whisper.as_mut().map(|m| m.transcribe(audio)) {
            Some(Ok(words)) => words,
            Some(Err(why)) => {
                tracing::warn!("the Whisper-class recogniser failed: {why}");
                String::new()
            }
            None => String::new(),
        };
        let words = words.trim().trim_end_matches(['.', '!']).to_string();
        let exists = |file: &str| folder.names().iter().any(|n| n == file);
        let heard = |text: &str| match resolve_in(text, folder) {
            Resolution::Action(action) => Some(action),
            Resolution::Unresolved { .. } => None,
        };
        let framed = sure_of(&grammar, folder)
            .then(|| heard(&grammar.text))
            .flatten();
        // Moonshine hears words better than file names ("notes not M. D."):
        // the file the grammar heard, put in for the words that mangled it.
        let named = heard(&grammar.text).and_then(|g| g.file().map(String::from));
        let whispered = readings(&words).into_iter().find_map(|said| {
            heard(&said).or_else(|| {
                let file = named.as_deref()?;
                renamed(&said, file, |text| {
                    heard(text).filter(|a| a.file() == Some(file))
                })
            })
        });
        let known = |action: &Action| action.file().is_none_or(exists);
        let chosen = match (whispered, framed) {
            (Some(mut w), Some(g)) if w.verb() == g.verb() => {
                if let (Some(file), Some(theirs)) = (g.file().map(String::from), w.file_mut())
                    && !exists(theirs)
                {
                    *theirs = file;
                }
                Some(w)
            }
            (Some(w), Some(g)) => Some(if known(&w) { w } else { g }),
            // A file that is not there, where the grammar heard one that is.
            (Some(mut w), None) => {
                let creates = matches!(w, Action::Write { .. } | Action::CreateAsset { .. });
                if let (Some(file), Some(theirs)) = (named.clone(), w.file_mut())
                    && !exists(theirs)
                    && !creates
                    && exists(&file)
                {
                    *theirs = file;
                }
                Some(w)
            }
            // The grammar's own words for free text are a guess from its
            // small vocabulary: only an act with no free text is taken from it.
            (None, Some(g)) if !has_free_text(&g) => Some(g),
            (None, _) => None,
        };
        let text = if words.is_empty() {
            grammar.text
        } else {
            words
        };
        match chosen {
            Some(action) => json!({"heard": text, "action": action}),
            None if text.is_empty() => json!({"heard": "", "unsure": true}),
            None => match resolve_in(&text, folder) {
                Resolution::Unresolved { note } => json!({"heard": text, "note": note}),
                Resolution::Action(_) => json!({"heard": text, "unsure": true}),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_is_heard_becomes_one_call_through_the_resolver() {
        let mut local = Local::default();
        let events = local.read(&json!({"heard": "read hello dot txt", "action": {"verb": "read", "name": "hello.txt"}}));
        assert_eq!(
            events[0],
            Event::Transcript {
                who: Who::Person,
                text: "read hello dot txt".into()
            }
        );
        let Event::Calls(calls) = &events[1] else {
            panic!("{events:?}");
        };
        assert_eq!(calls[0].name, "read");
        assert_eq!(calls[0].args, json!({"name": "hello.txt"}));
        let unresolved = local.read(&json!({"heard": "please", "note": "say more"}));
        assert_eq!(unresolved.last(), Some(&Event::Reply("say more".into())));
        assert_eq!(
            local.read(&json!({"heard": "delete the the", "unsure": true})),
            vec![Event::Reply(NOT_CAUGHT.into())],
            "an unsure hearing is not acted on, nor shown as what was said"
        );
        assert_eq!(
            local.read(&json!({"heard": ""})),
            vec![Event::Reply(NOTHING_HEARD.into())]
        );
        assert_eq!(local.read(&json!({"ready": true})), vec![Event::Ready]);
    }
}
