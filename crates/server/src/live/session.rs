//! One live session's state machine, without I/O: what each page frame and
//! each upstream message means, given whether the provider is ready, and
//! what follows from it (an [`Outbox`]). The bridge carries the outbox out.
//!
//! - Page audio is checked frame by frame; a bad frame is refused by name
//!   and the session lives. Audio before the provider is ready is counted
//!   and dropped, and the count is reported when it is.
//! - Tool calls before ready are refused by name, unrun.
//! - A cancelled call that already changed the folder is reported as a
//!   change that stands, never as undone.
//! - The session ends exactly once, whoever ends it.

use super::Provider;
use super::choice::Choice;
use super::frames::{PageFrame, Reason, ToPage};
use super::tools::{Answered, Call};
use super::vendor::{Event, LiveVendor, OUTPUT_RATE, Who};
use crate::strict::{self, Misfit};
use serde::Deserialize;
use serde_json::Value;
use std::collections::HashMap;
use voicebox_core::Rule;

/// The longest typed turn a session takes (the same bound as a spoken
/// utterance's words, well past any one request).
const MAX_TYPED: usize = 8 * 1024;

/// What follows from one input, in the order the bridge carries it out:
/// upstream messages, page frames, then the calls to run.
#[derive(Debug, Default)]
pub(crate) struct Outbox {
    pub upstream: Vec<Value>,
    pub page: Vec<PageFrame>,
    pub run: Vec<Call>,
}

impl Outbox {
    fn page(frame: ToPage) -> Outbox {
        Outbox {
            page: vec![PageFrame::Json(frame)],
            ..Outbox::default()
        }
    }

    pub fn is_empty(&self) -> bool {
        self.upstream.is_empty() && self.page.is_empty() && self.run.is_empty()
    }

    pub(crate) fn merge(&mut self, other: Outbox) {
        self.upstream.extend(other.upstream);
        self.page.extend(other.page);
        self.run.extend(other.run);
    }
}

/// A text frame from the page.
#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "lowercase", deny_unknown_fields)]
enum PageText {
    /// Stop the reply (braced, so a field it does not have is refused).
    Interrupt {},
    /// A typed user turn.
    Text { text: String },
}

/// What a cancellation needs to know about a call that ran.
struct Ran {
    name: String,
    changed: bool,
}

pub struct Session {
    provider: Provider,
    vendor: Box<dyn LiveVendor>,
    ready: bool,
    /// What the calls since the person last spoke or typed changed: a
    /// stopped reply leaves these standing, and the page says so.
    stands: Vec<String>,
    /// Whether the model was given the project's notes (`AGENTS.md`).
    notes: bool,
    /// Valid audio frames dropped because the provider was not ready.
    dropped: u64,
    ran: HashMap<String, Ran>,
    ended: Option<Reason>,
}

impl Session {
    pub fn new(provider: Provider, choice: &Choice) -> Session {
        Session {
            provider,
            vendor: provider.vendor(choice),
            ready: false,
            stands: Vec::new(),
            notes: false,
            dropped: 0,
            ran: HashMap::new(),
            ended: None,
        }
    }

    pub fn vendor(&self) -> &dyn LiveVendor {
        self.vendor.as_ref()
    }

    pub fn provider(&self) -> Provider {
        self.provider
    }

    /// Records whether the instruction carried the project's notes.
    pub fn notes(&mut self, given: bool) {
        self.notes = given;
    }

    pub fn ready(&self) -> bool {
        self.ready
    }

    pub fn ended(&self) -> Option<Reason> {
        self.ended
    }

    /// The first frame the page gets: the rate to send at, and who listens.
    pub fn rate(&self) -> Outbox {
        Outbox::page(ToPage::Rate {
            input_rate: self.provider.input_rate(),
            output_rate: OUTPUT_RATE,
            provider: self.provider.name(),
        })
    }

    /// The provider's configuration, sent first.
    pub fn opening(&self, instruction: &str) -> Outbox {
        Outbox {
            upstream: vec![self.vendor.opening(instruction)],
            ..Outbox::default()
        }
    }

    /// One binary frame from the page.
    pub(crate) fn page_audio(&mut self, pcm: &[u8]) -> Outbox {
        if self.ended.is_some() {
            return Outbox::default();
        }
        if let Err((rule, why)) = check_audio(pcm, self.provider.input_rate()) {
            return Outbox::page(error(rule, &why));
        }
        if !self.ready {
            self.dropped += 1;
            return Outbox::default();
        }
        Outbox {
            upstream: vec![self.vendor.audio(pcm)],
            ..Outbox::default()
        }
    }

    /// One text frame from the page: `{"type": "interrupt"}` (stop the
    /// reply: the provider is told, and the page hears what stands) or
    /// `{"type": "text", "text"}` (a typed user turn).
    /// The frame is read strictly ([`strict`]): a key said twice is
    /// `duplicate-key`, anything else that does not fit is named too.
    pub(crate) fn page_text(&mut self, text: &str) -> Outbox {
        if self.ended.is_some() {
            return Outbox::default();
        }
        let frame = match strict::from_slice::<PageText>(text.as_bytes()) {
            Ok(frame) => frame,
            Err(misfit) => {
                let rule = match misfit {
                    Misfit::DuplicateKey(_) => Rule::DuplicateKey,
                    Misfit::Malformed(_) => Rule::MalformedFrame,
                    Misfit::UnknownField(_) | Misfit::UnknownVariant(_) => Rule::UnknownFrame,
                };
                return Outbox::page(error(
                    rule,
                    &format!(
                        "{misfit}; the page sends PCM16 audio as binary frames, and {{\"type\":\"interrupt\"}} or {{\"type\":\"text\",\"text\"}} as text; nothing else"
                    ),
                ));
            }
        };
        match frame {
            // Before ready there is nothing to interrupt, and Gemini takes
            // nothing but the setup until it is acknowledged.
            PageText::Interrupt {} if !self.ready => Outbox::default(),
            PageText::Interrupt {} => {
                let mut outbox = Outbox {
                    upstream: vec![self.vendor.interrupt()],
                    ..Outbox::default()
                };
                outbox.merge(Outbox::page(ToPage::Stopped {
                    stands: self.stands.clone(),
                }));
                outbox
            }
            PageText::Text { text } => self.typed(&text),
        }
    }

    /// A typed turn: one line of words, sent on as the provider's user turn.
    fn typed(&mut self, text: &str) -> Outbox {
        let text = match text.trim() {
            text if text.len() > MAX_TYPED => {
                return Outbox::page(error(
                    Rule::TooLarge,
                    &format!("a typed turn is at most {MAX_TYPED} bytes; say less at once"),
                ));
            }
            "" => {
                return Outbox::page(error(
                    Rule::MalformedFrame,
                    "a text frame is {\"type\":\"text\",\"text\":\"...\"} with some words in `text`",
                ));
            }
            text => text,
        };
        if !self.ready {
            return Outbox::page(error(
                Rule::NotReady,
                "the live session is not set up yet; send the words again once it says it is listening",
            ));
        }
        self.stands.clear();
        Outbox {
            upstream: self.vendor.text(text),
            ..Outbox::default()
        }
    }

    /// One JSON message from the provider.
    pub fn upstream(&mut self, message: &Value) -> Outbox {
        if self.ended.is_some() {
            return Outbox::default();
        }
        let mut outbox = Outbox::default();
        for event in self.vendor.read(message) {
            outbox.merge(self.event(event));
        }
        outbox
    }

    fn event(&mut self, event: Event) -> Outbox {
        match event {
            Event::Ready if self.ready => Outbox::default(),
            Event::Ready => {
                self.ready = true;
                let notes = self.notes.then_some(voicebox_core::resolver::NOTES_FILE);
                Outbox::page(ToPage::Ready {
                    dropped_before_ready: self.dropped,
                    notes,
                })
            }
            Event::Audio(pcm) => Outbox {
                page: vec![PageFrame::Audio(pcm)],
                ..Outbox::default()
            },
            Event::Transcript { who, text } => {
                if who == Who::Person {
                    self.stands.clear();
                }
                Outbox::page(ToPage::Transcript {
                    who: who.wire(),
                    text,
                })
            }
            Event::Interrupted => Outbox::page(ToPage::Interrupted),
            Event::Calls(calls) if calls.is_empty() => Outbox::default(),
            Event::Calls(calls) if !self.ready => {
                let why = "the live session is not set up yet; nothing was run";
                let refused: Vec<Answered> = calls
                    .into_iter()
                    .map(|call| Answered::refused(call, Rule::NotReady, why))
                    .collect();
                self.answered(refused)
            }
            Event::Calls(calls) => Outbox {
                run: calls,
                ..Outbox::default()
            },
            Event::Cancelled(ids) => {
                let mut outbox = Outbox::default();
                for id in ids {
                    outbox.merge(Outbox::page(self.cancelled(&id)));
                }
                outbox
            }
            Event::GoAway(time_left) => Outbox::page(ToPage::GoAway { time_left }),
            Event::Error(why) if !self.ready => self.end(Reason::SetupFailed, &why),
            Event::Error(why) => Outbox::page(error(Rule::VendorError, &why)),
            Event::Reply(text) => Outbox::page(ToPage::Reply { text }),
        }
    }

    /// A withdrawn call: the calls of a batch run before the next message
    /// is read, so a cancellation always comes after the act.
    fn cancelled(&self, id: &str) -> ToPage {
        let (name, changed, why) = match self.ran.get(id) {
            Some(ran) if ran.changed => (
                Some(ran.name.clone()),
                true,
                "the provider withdrew this call after it had already changed the folder; the change stands (say undo to revert it)",
            ),
            Some(ran) => (
                Some(ran.name.clone()),
                false,
                "the provider withdrew this call; it had changed nothing",
            ),
            None => (
                None,
                false,
                "the provider withdrew a call this session never ran",
            ),
        };
        tracing::info!(call = id, changed, "live call cancelled");
        ToPage::Cancelled {
            id: id.to_string(),
            name,
            changed,
            why,
        }
    }

    /// A batch has been answered: the provider and the page are told.
    pub fn answered(&mut self, batch: Vec<Answered>) -> Outbox {
        if self.ended.is_some() || batch.is_empty() {
            return Outbox::default();
        }
        for answered in &batch {
            if answered.changed {
                let what = answered.call.args["name"]
                    .as_str()
                    .unwrap_or(&answered.call.name);
                self.stands.push(what.to_string());
            }
            self.ran.insert(
                answered.call.id.clone(),
                Ran {
                    name: answered.call.name.clone(),
                    changed: answered.changed,
                },
            );
        }
        let calls: Vec<Value> = batch.iter().map(Answered::for_page).collect();
        Outbox {
            upstream: self.vendor.answers(&batch),
            page: vec![PageFrame::Json(ToPage::Tool { calls })],
            run: Vec::new(),
        }
    }

    /// The provider closed the socket: before ready the setup failed;
    /// after, a normal close is a close and any other code an error.
    pub(crate) fn upstream_closed(&mut self, code: Option<u16>, words: &str) -> Outbox {
        let why = match code {
            Some(code) if words.is_empty() => format!("the provider closed the session ({code})"),
            Some(code) => format!("the provider closed the session ({code}: {words})"),
            None => "the provider's connection ended".to_string(),
        };
        let reason = match code {
            _ if !self.ready => Reason::SetupFailed,
            None | Some(1000 | 1001) => Reason::UpstreamClosed,
            Some(_) => Reason::UpstreamError,
        };
        self.end(reason, &why)
    }

    /// The setup was refused before anything was sent upstream.
    pub(crate) fn refuse_setup(&mut self, rule: Rule, why: &str) -> Outbox {
        let mut outbox = Outbox::page(error(rule, why));
        outbox.merge(self.end(Reason::SetupFailed, why));
        outbox
    }

    /// Ends the session; only the first call has any effect.
    pub fn end(&mut self, reason: Reason, why: &str) -> Outbox {
        if self.ended.is_some() {
            return Outbox::default();
        }
        self.ended = Some(reason);
        tracing::info!(
            provider = self.provider.name(),
            reason = reason.id(),
            "live session ended"
        );
        Outbox::page(ToPage::End {
            reason: reason.id(),
            why: why.to_string(),
        })
    }
}

/// A page frame is whole PCM16 samples, at most one second of audio at `rate`.
fn check_audio(pcm: &[u8], rate: u32) -> Result<(), (Rule, String)> {
    let max = rate as usize * 2;
    if pcm.is_empty() {
        Err((
            Rule::AudioEmpty,
            "an empty audio frame carries nothing; send PCM16 samples".into(),
        ))
    } else if pcm.len() % 2 == 1 {
        Err((
            Rule::AudioOddLength,
            format!(
                "{} bytes is not a whole number of 16-bit samples; send PCM16 LE mono",
                pcm.len()
            ),
        ))
    } else if pcm.len() > max {
        Err((
            Rule::AudioTooLarge,
            format!(
                "{} bytes is more than one second of audio ({max} bytes at {rate} Hz); send smaller frames",
                pcm.len()
            ),
        ))
    } else {
        Ok(())
    }
}

fn error(rule: Rule, why: &str) -> ToPage {
    ToPage::Error {
        refused: rule,
        why: why.to_string(),
    }
}

#[cfg(test)]
mod tests;
