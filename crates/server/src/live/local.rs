//! The offline provider: pocketsphinx on this machine instead of a model
//! over the network. It fits the same session as the remote providers:
//! [`Local`] is a [`LiveVendor`] whose "upstream" is a decoder thread fed
//! through a channel (JSON messages, as a socket would carry), and what the
//! thread hears goes through the core's script resolver into the same tool
//! calls — and so the same executor — as a remote model's.
//!
//! Messages to the thread: `{"audio": base64}`, `{"reply": text}` (echoed
//! back once the calls ran, so the grammar can follow the root's new files).
//! From it: `{"ready": true}`, `{"heard": text}`, `{"reply": text}`,
//! `{"error": why}`.

use super::grammar;
use super::sphinx::{self, Model, Sphinx};
use super::tools::{Answered, Call};
use super::vendor::{Event, LiveVendor, Who, base64, unbase64};
use crate::serve::Acts;
use serde_json::{Value, json};
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::handshake::client::Request;
use voicebox_core::resolver::{Resolution, resolve};

/// The recogniser's rate; the page sends PCM16 at it.
pub const INPUT_RATE: u32 = 16_000;

/// The answer when the decoder heard speech but no command in it.
const NOTHING_HEARD: &str =
    "I did not catch a command; try 'list the files' or 'read notes dot md'.";

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

    fn opening(&self) -> Value {
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
        if heard.trim().is_empty() {
            // Speech the grammar could not match: say so rather than stay mute.
            return vec![Event::Reply(NOTHING_HEARD.into())];
        }
        let transcript = Event::Transcript {
            who: Who::Person,
            text: heard.to_string(),
        };
        match resolve(heard) {
            Resolution::Action(action) => {
                self.calls += 1;
                let call = Call::resolved(format!("local-{}", self.calls), action);
                vec![transcript, Event::Calls(vec![call])]
            }
            Resolution::Unresolved { note } => vec![transcript, Event::Reply(note)],
        }
    }
}

/// One sentence the page may speak for an answered call.
fn say(answered: &Answered) -> String {
    let result = &answered.result;
    let text = |key: &str| result[key].as_str().map(String::from);
    if let Some(plan) = result["confirm"]["plan"].as_str() {
        return format!("Click Yes or No on the page to {plan}.");
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
pub fn start(acts: &Acts) -> Result<Link, String> {
    let model = sphinx::available()?;
    let (to, inbox) = mpsc::unbounded_channel();
    let (outbox, from) = mpsc::unbounded_channel();
    let host = acts.host();
    let root = move || {
        let host = host.lock().unwrap_or_else(|p| p.into_inner());
        host.root().map(Path::to_path_buf)
    };
    std::thread::Builder::new()
        .name("voicebox-sphinx".into())
        .spawn(move || decode(model, root, inbox, outbox))
        .map_err(|e| format!("the offline recogniser could not start: {e}"))?;
    Ok(Link { to, from })
}

/// The names of the files at the top of `root`, sorted.
fn files(root: Option<PathBuf>) -> Vec<String> {
    let Some(root) = root else {
        return Vec::new();
    };
    let mut names: Vec<String> = std::fs::read_dir(root)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .filter_map(|e| e.file_name().into_string().ok())
        .collect();
    names.sort();
    names
}

/// A decoder with the grammar for the root's current files.
struct Recogniser {
    sphinx: Sphinx,
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
    root: impl Fn() -> Option<PathBuf>,
    mut inbox: mpsc::UnboundedReceiver<Value>,
    outbox: mpsc::UnboundedSender<Value>,
) {
    let started = Sphinx::new(&model).and_then(|sphinx| {
        let mut recogniser = Recogniser {
            sphinx,
            model,
            files: None,
            added: HashSet::new(),
        };
        recogniser.follow(files(root()))?;
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
    while let Some(message) = inbox.blocking_recv() {
        if let Some(text) = message["reply"].as_str() {
            // The calls ran: between utterances, follow the root's files.
            if !speaking {
                recogniser.sphinx.end();
                if let Err(why) = recogniser.follow(files(root())) {
                    tracing::warn!("the offline grammar was not updated: {why}");
                }
                if let Err(why) = recogniser.sphinx.start() {
                    let _ = outbox.send(json!({"error": why}));
                    return;
                }
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
        let in_speech = recogniser.sphinx.feed(&samples);
        if in_speech {
            speaking = true;
        } else if speaking {
            speaking = false;
            let heard = recogniser.sphinx.end();
            tracing::info!(heard = heard.as_str(), "offline voice heard");
            if outbox.send(json!({"heard": heard})).is_err() {
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
        let events = local.read(&json!({"heard": "read hello dot txt"}));
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
        let unresolved = local.read(&json!({"heard": "please"}));
        assert!(matches!(unresolved.last(), Some(Event::Reply(_))));
        assert_eq!(
            local.read(&json!({"heard": ""})),
            vec![Event::Reply(NOTHING_HEARD.into())]
        );
        assert_eq!(local.read(&json!({"ready": true})), vec![Event::Ready]);
    }
}
