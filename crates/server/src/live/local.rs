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
//! Messages to the thread: `{"audio": base64}`, `{"text": typed}` (resolved
//! like a typed turn), `{"reply": text}` (echoed back once the calls ran, so
//! the grammar can follow the root's new files). From it: `{"ready": true}`,
//! `{"typed": text, "action" | "note"}`, `{"heard": text, "action": {...}}`,
//! `{"heard": text, "note": why}`, `{"heard": text, "unsure": true}`,
//! `{"reply": text}`, `{"error": why}`.

use super::grammar;
use super::hearing::{Design, Ears};
use super::moonshine::{self, Moonshine};
use super::sphinx::{self, Model, Sphinx};
use super::tools::{Answered, Call};
use super::vendor::{Event, LiveVendor, Who, base64, unbase64};
use crate::serve::Acts;
use serde_json::{Value, json};
use std::collections::HashSet;
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::handshake::client::Request;
use voicebox_core::Action;
use voicebox_core::resolver::{Folder, Resolution};

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

    /// Typed words go to the decoder thread, which resolves them against
    /// the root's files as it does what it heard.
    fn text(&self, text: &str) -> Vec<Value> {
        vec![json!({"text": text})]
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
        if let Some(typed) = message["typed"].as_str() {
            // Typed, so never misheard: resolved as a typed turn is, and
            // not echoed (the page showed what it sent).
            return match Action::from_json(&message["action"]) {
                Ok(action) => {
                    self.calls += 1;
                    let id = format!("local-{}", self.calls);
                    let call = match message["assumed"].is_string() {
                        true => Call::guessed(id, action),
                        false => Call::typed(id, action),
                    };
                    vec![Event::Calls(vec![call])]
                }
                Err(_) => {
                    let note = message["note"].as_str().unwrap_or(NOTHING_HEARD);
                    tracing::info!(typed = %typed, "typed into offline voice, unresolved");
                    vec![Event::Reply(note.into())]
                }
            };
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
                let id = format!("local-{}", self.calls);
                let call = match message["assumed"].is_string() {
                    true => Call::guessed(id, action),
                    false => Call::heard(id, action),
                };
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
        return match (
            plan.strip_prefix("I heard: "),
            result["confirm"]["rephrase"] == true,
        ) {
            (Some(heard), _) => format!("I heard: {heard}. Click Yes if that is right, No if not."),
            (None, true) => format!(
                "{} Click Yes if so, No if not.",
                result["confirm"]["question"].as_str().unwrap_or(plan)
            ),
            (None, false) => format!("Click Yes or No on the page to {plan}."),
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
        if let Some(text) = message["text"].as_str() {
            let typed = match voicebox_core::resolver::resolve_in(text, &folder()) {
                Resolution::Action(action) => json!({"typed": text, "action": action.to_json()}),
                Resolution::Guess { action, assumed } => {
                    json!({"typed": text, "action": action.to_json(), "assumed": assumed})
                }
                Resolution::Unresolved { note } => json!({"typed": text, "note": note}),
            };
            if outbox.send(typed).is_err() {
                return;
            }
            continue;
        }
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
            let mut ears = Ears {
                sphinx: &mut recogniser.sphinx,
                whisper: recogniser.whisper.as_mut(),
            };
            let heard = ears.understand(design, grammar, &utterance, &folder());
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
