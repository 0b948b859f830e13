//! How an utterance becomes words, and when they may be acted on: the
//! offline [`Design`]s (measured in docs/VOICE.md), the confidence
//! [`Gate`]s, and the Whisper-class merge of Moonshine's words with the
//! grammar's file names. What comes out is the session's message: an
//! action, a note, or `unsure` (nothing is done).

use super::moonshine::Moonshine;
use super::sphinx::{Confidence, Heard, Sphinx};
use serde_json::{Value, json};
use voicebox_core::Action;
use voicebox_core::action::WriteMode;
use voicebox_core::resolver::heard::settle_heard;
use voicebox_core::resolver::{Folder, Resolution, resolve_in};

/// Heard words resolved, their file settled on the folder by sound and a
/// new name in the case a person types (see [`settle_heard`]).
fn heard_in(text: &str, folder: &Folder) -> Resolution {
    settle_heard(resolve_in(text, folder), folder)
}

/// The decoders one utterance is heard with.
pub(crate) struct Ears<'a> {
    pub sphinx: &'a mut Sphinx,
    pub whisper: Option<&'a mut Moonshine>,
}

/// How an utterance becomes words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Design {
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
    pub(crate) fn from_env() -> Result<Design, String> {
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
pub(super) struct Gate {
    /// At least this share of the utterance is inside words.
    pub(super) speech: f32,
    /// At least this path score per word frame.
    pub(super) score: f32,
}

impl Gate {
    pub(super) fn passes(self, confidence: Confidence) -> bool {
        confidence.speech >= self.speech && confidence.score >= self.score
    }
}

/// The gate the grammar's hearing must pass: the looser [`LOOK_GATE`] for a
/// look with no free text, the calibrated [`GRAMMAR_GATE`] for anything that
/// carries words the person chose or changes a file.
fn gate_for(framed: &Resolution) -> Gate {
    match framed {
        Resolution::Action(action) if !has_free_text(action) && !action.verb().changes_files() => {
            LOOK_GATE
        }
        _ => GRAMMAR_GATE,
    }
}

/// For a look the grammar heard whole (read, list, the tool list): a wrong
/// look changes nothing, so a little more is let through — "list the files"
/// scores −64 to −68 per word frame on the spoken set, its wrong looks lower.
const LOOK_GATE: Gate = Gate {
    speech: 0.2,
    score: -70.0,
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

impl Ears<'_> {
    /// What one utterance says, as the message for the session: the words
    /// the design settles on, resolved against the folder, or `unsure`.
    pub(crate) fn understand(
        &mut self,
        design: Design,
        grammar: Heard,
        audio: &[i16],
        folder: &Folder,
    ) -> Value {
        tracing::info!(
            speech = grammar.confidence.speech,
            score = grammar.confidence.score,
            "offline grammar confidence"
        );
        let framed = heard_in(&grammar.text, folder);
        let grammar_sure = gate_for(&framed).passes(grammar.confidence);
        let (text, resolution) = match design {
            Design::Whisper => return self.whispered(grammar, framed, audio, folder),
            Design::Grammar | Design::Hybrid if grammar_sure => (grammar.text, framed),
            Design::Grammar => return unsure(grammar.text),
            Design::Language | Design::Hybrid => match self.sphinx.free_speech(audio) {
                Ok(free) if log_free(&free) && LANGUAGE_GATE.passes(free.confidence) => {
                    let resolution = heard_in(&free.text, folder);
                    (free.text, resolution)
                }
                Ok(_) => return unsure(grammar.text),
                Err(why) => {
                    tracing::warn!("the full model could not decode: {why}");
                    return unsure(grammar.text);
                }
            },
        };
        match resolution {
            Resolution::Action(action) => json!({"heard": text, "action": action}),
            Resolution::Guess { action, assumed } => {
                json!({"heard": text, "action": action, "assumed": assumed})
            }
            Resolution::Unresolved { note } => json!({"heard": text, "note": note}),
        }
    }
}

/// Logs the full model's words, gated or not: what it hears of free speech
/// is measured on recordings of people (`spoken_set.rs`). Always true.
fn log_free(free: &Heard) -> bool {
    tracing::info!("full model heard: {}", free.text);
    true
}

/// The message for an utterance nothing may be done on.
fn unsure(heard: String) -> Value {
    json!({"heard": heard, "unsure": true})
}

/// `action` on `file` (the one the grammar heard) instead of a file that is
/// not there; a create keeps its new name.
fn on_heard_file(mut action: Action, file: Option<&str>, exists: impl Fn(&str) -> bool) -> Action {
    let creates = matches!(
        action,
        Action::Write {
            mode: Some(WriteMode::Create),
            ..
        } | Action::CreateAsset { .. }
    );
    if let (Some(file), Some(theirs)) = (file, action.file_mut())
        && !creates
        && !exists(theirs)
        && exists(file)
    {
        *theirs = file.into();
    }
    action
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
/// that verb, then each of those with its last "and" read as the place
/// word it sounds like ("replace eggs with bread and notes.md": "in").
/// Only the first that resolves is taken, and any but the first is a guess.
fn readings(words: &str) -> Vec<String> {
    let mut readings = vec![String::from(words)];
    let (first, rest) = words.split_once(' ').unwrap_or((words, ""));
    let bare = first
        .trim_matches(|c: char| !c.is_alphanumeric())
        .to_lowercase();
    if let Some((_, verb)) = SOUNDS_LIKE.iter().find(|(sound, _)| *sound == bare) {
        readings.push(format!("{verb} {rest}"));
    }
    let placed: Vec<String> = readings
        .iter()
        .filter_map(|reading| {
            let (before, after) = reading.rsplit_once(" and ")?;
            Some(format!("{before} in {after}"))
        })
        .collect();
    readings.extend(placed);
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

impl Ears<'_> {
    /// The Whisper-class design: Moonshine hears the words (content most of
    /// all) and the grammar, held to its gate, hears the command and the
    /// file names it was made from. When both resolve to the same verb,
    /// Moonshine's action wins, with the grammar's file when Moonshine's is
    /// not one the folder has; when they differ, Moonshine's wins if its file
    /// exists (or it names none), else the grammar's.
    fn whispered(
        &mut self,
        grammar: Heard,
        framed: Resolution,
        audio: &[i16],
        folder: &Folder,
    ) -> Value {
        let words = match self.whisper.as_deref_mut().map(|m| m.transcribe(audio)) {
            Some(Ok(words)) => words,
            Some(Err(why)) => {
                tracing::warn!("the Whisper-class recogniser failed: {why}");
                String::new()
            }
            None => String::new(),
        };
        let words = words.trim().trim_end_matches(['.', '!']).to_string();
        let exists = |file: &str| folder.names().iter().any(|n| n == file);
        // A change heard is asked first however sure the resolver is.
        let heard = |text: &str| heard_in(text, folder).into_action();
        let framed = framed.into_action();
        // Moonshine hears words better than file names ("notes not M. D."):
        // the file the grammar heard, put in for the words that mangled it.
        let named = framed.as_ref().and_then(|g| g.file().map(String::from));
        // Held to the strict gate even for a look: Moonshine heard words, so
        // a grammar that heard a different command was likely forced onto it.
        let framed = framed.filter(|_| GRAMMAR_GATE.passes(grammar.confidence));
        // A reading that made a sound into another word ("and" → "add",
        // "and" → "in") changed what is asked: unsure, so asked as a guess.
        let mut assumed = None;
        let whispered = readings(&words)
            .into_iter()
            .enumerate()
            .find_map(|(at, said)| {
                let action = heard(&said).or_else(|| {
                    let file = named.as_deref()?;
                    renamed(&said, file, |text| {
                        heard(text).filter(|a| a.file() == Some(file))
                    })
                })?;
                if at > 0 {
                    assumed = Some(format!("heard '{words}' and read it as '{said}'"));
                }
                Some(action)
            });
        let known = |action: &Action| action.file().is_none_or(exists);
        let chosen = match (whispered, framed) {
            (Some(w), Some(g)) if w.verb() != g.verb() && !known(&w) => Some(g),
            (Some(w), _) => Some(on_heard_file(w, named.as_deref(), exists)),
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
            Some(action) => match assumed {
                Some(assumed) => json!({"heard": text, "action": action, "assumed": assumed}),
                None => json!({"heard": text, "action": action}),
            },
            None if text.is_empty() => json!({"heard": "", "unsure": true}),
            None => match heard_in(&text, folder) {
                Resolution::Unresolved { note } => json!({"heard": text, "note": note}),
                Resolution::Action(_) | Resolution::Guess { .. } => {
                    json!({"heard": text, "unsure": true})
                }
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::readings;

    #[test]
    fn a_sound_is_read_as_the_word_its_sentence_needs_after_the_words_as_heard() {
        assert_eq!(
            readings("and oat milk to groceries.md"),
            [
                "and oat milk to groceries.md",
                "add oat milk to groceries.md"
            ]
        );
        assert_eq!(
            readings("replace eggs with bread and notes.md"),
            [
                "replace eggs with bread and notes.md",
                "replace eggs with bread in notes.md"
            ]
        );
        // Words with no sound-alike are read only as heard.
        assert_eq!(readings("read notes.md"), ["read notes.md"]);
    }
}
