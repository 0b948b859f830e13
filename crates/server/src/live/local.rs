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
//! A question it asked may be answered by voice ([`answer`]): the reply
//! carries the question (`asked`), and while it waits each utterance is also
//! heard against the question's own words.
//!
//! Messages to the thread: `{"audio": base64}`, `{"text": typed}` (resolved
//! like a typed turn), `{"reply": text, "asked"?: {id, say, action}}`
//! (echoed back once the calls ran, so the grammar can follow the root's new
//! files). From it: `{"ready": true}`,
//! `{"typed": text, "action" | "note"}`, `{"heard": text, "action": {...}}`,
//! `{"heard": text, "note": why}`, `{"heard": text, "unsure": true}`,
//! `{"answer": {id, action}, "heard": text}`, `{"reply": text}`, `{"error": why}`.

mod answer;
mod recogniser;

use super::grammar;
use super::hearing::{Design, Ears};
use super::moonshine::{self, Moonshine};
use super::sphinx::{self, Model, Sphinx};
use super::tools::{Answered, Call, SpokenAnswer};
use super::vendor::{Event, LiveVendor, Who, base64, unbase64};
use crate::host::Acts;
use answer::Question;
use serde_json::{Value, json};
use std::collections::HashSet;
use std::sync::{Arc, Mutex};
use tokio::sync::{OwnedSemaphorePermit, mpsc};
use tokio_tungstenite::tungstenite::handshake::client::Request;
use voicebox_core::Action;
use voicebox_core::resolver::{Folder, Resolution};

/// The recogniser's rate; the page sends PCM16 at it.
pub(crate) const INPUT_RATE: u32 = 16_000;

/// The answer when the decoder heard speech but no command in it.
const NOTHING_HEARD: &str =
    "I did not catch a command; try 'list the files' or 'read notes dot md'.";

/// The answer when the decoder is not sure what it heard: nothing is done.
const NOT_CAUGHT: &str =
    "I didn't catch that, so nothing was done. Say it again, a little slower, or type it.";

/// The local vendor: resolves what the decoder heard into calls.
#[derive(Default)]
pub(crate) struct Local {
    /// Calls made so far (their ids).
    calls: u64,
}

impl Local {
    /// The next call's id: `local-1`, `local-2`, … for this session.
    fn next_id(&mut self) -> String {
        self.calls += 1;
        format!("local-{}", self.calls)
    }

    /// The call for `action`: a guess when the page says what it assumed,
    /// else made by `sure` (typed or heard).
    fn call(&mut self, message: &Value, action: Action, sure: fn(String, Action) -> Call) -> Call {
        let id = self.next_id();
        match message["assumed"].is_string() {
            true => Call::guessed(id, action),
            false => sure(id, action),
        }
    }
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

    /// The reply, and the last question it asks that a spoken answer may
    /// answer: its id, its words and the action it is about.
    fn answers(&self, batch: &[Answered]) -> Vec<Value> {
        let text: Vec<String> = batch.iter().map(Answered::said).collect();
        let mut reply = json!({"reply": text.join(" ")});
        let asked = batch.iter().rev().find_map(|answered| {
            let confirm = answered.result.reply().confirm.as_ref()?;
            Some(json!({"id": confirm.id, "say": confirm.say.as_ref()?, "action": answered.action}))
        });
        if let Some(asked) = asked {
            reply["asked"] = asked;
        }
        vec![reply]
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
                    let call = self.call(message, action, Call::typed);
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
        let transcript = Event::Transcript {
            who: Who::Person,
            text: heard.to_string(),
        };
        if let (Some(question), Ok(action)) = (
            message["answer"]["id"].as_str(),
            Action::from_json(&message["answer"]["action"]),
        ) {
            let answer = SpokenAnswer {
                question: question.into(),
                heard: heard.into(),
            };
            let call = Call::answer(self.next_id(), action, answer);
            return vec![transcript, Event::Calls(vec![call])];
        }
        if message["unsure"] == true || heard.trim().is_empty() {
            // Speech it could not be sure of: say so rather than act or stay mute.
            let note = if heard.trim().is_empty() {
                NOTHING_HEARD
            } else {
                NOT_CAUGHT
            };
            return vec![Event::Reply(note.into())];
        }
        match Action::from_json(&message["action"]) {
            Ok(action) => {
                let call = self.call(message, action, Call::heard);
                vec![transcript, Event::Calls(vec![call])]
            }
            Err(_) => {
                let note = message["note"].as_str().unwrap_or(NOTHING_HEARD);
                vec![transcript, Event::Reply(note.into())]
            }
        }
    }
}

/// The channel ends of a started decoder: what the bridge sends to it,
/// and what it says back (JSON text, as a socket's frames). `from` ends
/// when the thread has freed its decoder.
pub(crate) struct Link {
    pub to: mpsc::Sender<Value>,
    pub from: mpsc::UnboundedReceiver<Value>,
}

/// How many messages may wait for the decoder: a page that sends audio
/// faster than it is decoded waits (its socket is not read) instead of
/// queueing it in memory.
const INBOX: usize = 32;

/// Checks that offline voice can run here and starts its decoder thread;
/// the error names the Debian packages to install. `place` is the session's
/// share of the server's recognisers: the thread holds it until its decoder
/// is shelved or freed. `whisper`: the Whisper-class design (Moonshine);
/// otherwise the pocketsphinx design `VOICEBOX_OFFLINE_DESIGN` names. The
/// names it listens for and settles against are the active root's, as a
/// typed turn's are ([`Acts::folder`]): the page's when a page owns it.
pub fn start(acts: Arc<Acts>, whisper: bool, place: OwnedSemaphorePermit) -> Result<Link, String> {
    let model = sphinx::available()?;
    let design = match whisper {
        true => {
            moonshine::available()?;
            Design::Whisper
        }
        false => Design::from_env()?,
    };
    let (to, inbox) = mpsc::channel(INBOX);
    let (outbox, from) = mpsc::unbounded_channel();
    let runtime = tokio::runtime::Handle::current();
    let folder = move || runtime.block_on(acts.folder());
    std::thread::Builder::new()
        .name("voicebox-sphinx".into())
        .spawn(move || {
            decode(model, design, folder, inbox, &outbox);
            released();
            // After the decoder is dropped, so the place is free only once
            // its memory is; `outbox` goes last, telling the bridge so.
            drop(place);
        })
        .map_err(|e| format!("the offline recogniser could not start: {e}"))?;
    Ok(Link { to, from })
}

/// Gives freed decoder memory back to the system. glibc keeps what a
/// thread freed in that thread's arena for reuse, so without this each
/// session's working memory (and each decoder not kept, about 100 MB with
/// the full English model) stayed resident after it ended.
fn released() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only returns free pages of the allocator's own
    // heaps to the system; it touches no memory in use.
    unsafe {
        libc::malloc_trim(0);
    }
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

/// What the decoder thread keeps between frames: whether speech is going
/// on, the utterance so far, and the question waiting for a spoken answer.
type Listening<'a> = (&'a mut bool, &'a mut Vec<i16>, &'a mut Option<Question>);

/// The most file names the grammar spells.
const GRAMMAR_NAMES: usize = 200;

/// The most audio one utterance keeps for a second decode (30 s).
const UTTERANCE_SAMPLES: usize = 30 * INPUT_RATE as usize;

/// The audio kept before the decoder hears speech begin (1 s): its voice
/// detector says so a few frames after the first sound, and the page's
/// frames are a quarter second.
const PRE_ROLL_SAMPLES: usize = INPUT_RATE as usize;

/// Drops all but the last [`PRE_ROLL_SAMPLES`] while no one speaks. The
/// page streams the room's silence between requests: kept, it was decoded
/// again with every utterance (Moonshine's whole-utterance decode and the
/// full model's), and after 30 s it filled the buffer so that the speech
/// that followed was not kept at all.
fn keep_pre_roll(utterance: &mut Vec<i16>) {
    let over = utterance.len().saturating_sub(PRE_ROLL_SAMPLES);
    utterance.drain(..over);
}

/// A decoder with the grammar for the root's current files.
struct Recogniser {
    design: Design,
    sphinx: Sphinx,
    /// The Whisper-class model, for that design.
    whisper: Option<Moonshine>,
    model: Model,
    files: Option<Vec<String>>,
    /// Words added to the decoder's dictionary (a word is added once).
    added: HashSet<String>,
}

/// The decoder thread: utterances are cut where the decoder's voice
/// activity detection hears silence after speech. Every failure of the
/// library is a message to the session (`error`), the thread ends and the
/// decoder is freed; when the session ends, the decoder is shelved.
fn decode(
    model: Model,
    design: Design,
    folder: impl Fn() -> Folder,
    mut inbox: mpsc::Receiver<Value>,
    outbox: &mpsc::UnboundedSender<Value>,
) {
    let mut recogniser = match Recogniser::take(model, design, &folder) {
        Ok(recogniser) => recogniser,
        Err(why) => {
            let _ = outbox.send(json!({"error": why}));
            return;
        }
    };
    let _ = outbox.send(json!({"ready": true}));
    let mut speaking = false;
    let mut utterance: Vec<i16> = Vec::new();
    let mut question: Option<Question> = None;
    while let Some(message) = inbox.blocking_recv() {
        let said = if let Some(text) = message["text"].as_str() {
            Ok(Some(typed(text, &folder())))
        } else if let Some(text) = message["reply"].as_str() {
            if let Some(asked) = Question::from_message(&message["asked"]) {
                question = Some(asked);
            }
            // The calls ran: between utterances, follow the root's files.
            let followed = match speaking {
                true => Ok(()),
                false => {
                    utterance.clear();
                    recogniser.refollow(files(&folder()))
                }
            };
            followed.map(|()| Some(json!({"reply": text})))
        } else if let Some(pcm) = message["audio"].as_str().and_then(unbase64) {
            let samples: Vec<i16> = pcm
                .chunks_exact(2)
                .map(|b| i16::from_le_bytes([b[0], b[1]]))
                .collect();
            if utterance.len() + samples.len() <= UTTERANCE_SAMPLES {
                utterance.extend_from_slice(&samples);
            }
            question.take_if(|q| q.expired());
            let ears = (&mut speaking, &mut utterance, &mut question);
            let heard = recogniser.hear(design, &samples, ears, &folder);
            if !speaking {
                keep_pre_roll(&mut utterance);
            }
            heard
        } else {
            Ok(None)
        };
        let sent = match said {
            Ok(Some(message)) => outbox.send(message),
            Ok(None) => Ok(()),
            Err(why) => {
                let _ = outbox.send(json!({"error": why}));
                return;
            }
        };
        if sent.is_err() {
            break;
        }
    }
    recogniser.shelve();
}

/// A decoder that served a session, kept for the next one: loading one
/// takes seconds, and building its grammar leaks about 100 KB inside
/// pocketsphinx 5prealpha each time, so a decoder is made once and its
/// grammar rebuilt only when the root's files change. One is kept (about
/// 120 MB with the full English model); a second, running beside it, is
/// freed when its session ends.
static SHELF: Mutex<Vec<Recogniser>> = Mutex::new(Vec::new());

/// How many decoders the shelf keeps.
const KEPT: usize = 1;

fn shelf() -> std::sync::MutexGuard<'static, Vec<Recogniser>> {
    SHELF.lock().unwrap_or_else(|p| p.into_inner())
}

/// A typed turn, resolved as typed words are.
fn typed(text: &str, folder: &Folder) -> Value {
    match voicebox_core::resolver::resolve_in(text, folder) {
        Resolution::Action(action) => json!({"typed": text, "action": action.to_json()}),
        Resolution::Guess { action, assumed } => {
            json!({"typed": text, "action": action.to_json(), "assumed": assumed})
        }
        Resolution::Unresolved { note } => json!({"typed": text, "note": note}),
    }
}

#[cfg(test)]
mod tests;
