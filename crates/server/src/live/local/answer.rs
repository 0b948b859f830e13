//! Hearing the answer to a question offline voice asked: while a heard
//! change waits, each utterance is decoded a second time against a tiny
//! grammar of the question's own words (its challenge: "groceries",
//! "delete groceries"), "no / cancel / stop", and a loop of other words.
//!
//! The loop is the design's guard: a closed grammar of only the expected
//! words forces any speech — a television, a second person, the page's own
//! voice, a "yes" — onto them; with other words to land on, speech that is
//! not the answer is heard as what it is. What was heard goes to the core
//! only when it is the challenge (held to the grammar gate), a decline, or
//! words of assent alone ("yes", "do it"), which the core refuses by name so
//! the person learns the words; anything else is heard as a command.
//! Whether the words answer is the core's decision
//! ([`voicebox_core::confirm::spoken`]); this module only routes.

use super::Recogniser;
use crate::live::hearing::Gate;
use crate::live::sphinx::Heard;
use serde_json::{Value, json};
use std::time::{Duration, Instant};
use voicebox_core::confirm::CONFIRM_TTL_MS;
use voicebox_core::confirm::spoken::DECLINES;

/// Words people say to mean yes: never an answer, but heard as an attempt
/// at one, so the core can say which words are.
const ASSENT: &[&str] = &[
    "yes", "yeah", "yep", "okay", "sure", "do", "it", "go", "ahead", "confirm", "please", "right",
    "correct", "fine", "that's",
];

/// Other everyday words for speech that is no answer to land on.
const OTHER: &[&str] = &[
    "the", "a", "and", "to", "is", "of", "in", "on", "that", "this", "what", "i", "you", "we",
    "they", "he", "she", "was", "have", "not", "can", "will", "would", "there", "here", "so",
    "but", "like", "just", "know", "think", "well", "oh", "now", "then", "time", "today", "good",
    "see", "look", "want", "going", "about", "people", "one", "two", "three", "news", "weather",
    "tonight", "after", "more", "new", "my", "me", "with", "for", "at", "all", "file", "list",
    "add", "read", "write", "show", "open", "remove", "change", "undo", "move", "copy", "notes",
    "milk", "eggs", "bread", "call", "mom", "report", "plan", "ideas", "shopping", "todo", "dot",
    "delete", "overwrite",
];

/// The challenge must score at least this per word frame. A single word
/// said alone scores lower than a sentence the command grammar fits (−58
/// for espeak-ng's "groceries"); calibrated on the answers and non-answers
/// in docs/VOICE.md.
const ANSWER_GATE: Gate = Gate {
    speech: 0.2,
    score: -75.0,
};

/// A question waiting for its answer: its confirmation id, the words that
/// say yes, the action it is about (echoed with the answer), and until when
/// it is listened for (the core refuses a late one anyway).
pub(crate) struct Question {
    id: String,
    say: Vec<String>,
    action: Value,
    until: Instant,
}

impl Question {
    /// The question in a `reply` message's `asked` (see `Local::answers`).
    pub(crate) fn from_message(asked: &Value) -> Option<Question> {
        let say: Vec<String> = asked["say"]
            .as_str()?
            .split_whitespace()
            .map(str::to_lowercase)
            .collect();
        Some(Question {
            id: asked["id"].as_str()?.into(),
            say,
            action: asked["action"].clone(),
            until: Instant::now() + Duration::from_millis(CONFIRM_TTL_MS),
        })
    }

    pub(crate) fn expired(&self) -> bool {
        Instant::now() >= self.until
    }

    /// The answer grammar and every word it holds.
    fn jsgf(&self, names: &[String]) -> (String, Vec<String>) {
        let mut words: Vec<String> =
            ASSENT
                .iter()
                .chain(OTHER)
                .chain(DECLINES)
                .map(|w| w.to_string())
                .chain(self.say.iter().cloned())
                .chain(names.iter().flat_map(|n| {
                    voicebox_core::confirm::spoken::name_words(n).unwrap_or_default()
                }))
                // Short words would let any sound be heard as a run of them.
                .filter(|w| w.len() >= 3 && w.chars().all(|c| c.is_ascii_lowercase() || c == '\''))
                .collect();
        words.sort();
        words.dedup();
        let jsgf = format!(
            "#JSGF V1.0;\ngrammar answer;\npublic <answer> = /5/ <yes> | /5/ <no> | /1/ <other>;\n<yes> = {};\n<no> = {};\n<other> = <word> [<word>] [<word>];\n<word> = {};\n",
            self.say.join(" "),
            DECLINES.join(" | "),
            words.join(" | "),
        );
        (jsgf, words)
    }

    /// The message for the session when `heard` is an answer (or an attempt
    /// at one) to this question, and whether it settles the question (the
    /// challenge or a no; assent alone leaves it waiting); `None` when it is
    /// speech of another kind.
    fn route(&self, heard: &Heard) -> Option<(Value, bool)> {
        let said: Vec<&str> = heard.text.split_whitespace().collect();
        let challenge = said == self.say && ANSWER_GATE.passes(heard.confidence);
        let declines = matches!(said.as_slice(), [one] if DECLINES.contains(one));
        let assents = !said.is_empty() && said.iter().all(|w| ASSENT.contains(w));
        let message = json!({
            "answer": {"id": self.id, "action": self.action},
            "heard": heard.text,
        });
        (challenge || declines || assents).then_some((message, challenge || declines))
    }
}

impl Recogniser {
    /// The utterance decoded against the question's answers: the message
    /// for the session if it answers (or tries to) and whether that settles
    /// the question, else `None`.
    pub(super) fn answered(
        &mut self,
        question: &Question,
        utterance: &[i16],
    ) -> Result<Option<(Value, bool)>, String> {
        let names = self.files.clone().unwrap_or_default();
        let (jsgf, words) = question.jsgf(&names);
        self.know(&words)?;
        let heard = self.sphinx.answer(&jsgf, utterance)?;
        tracing::info!(
            heard = %heard.text,
            score = heard.confidence.score,
            "offline voice heard an answer"
        );
        Ok(question.route(&heard))
    }
}
