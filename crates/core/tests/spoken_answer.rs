//! A heard change answered by voice: only the challenge bound to its plan
//! says yes (the file's name; the verb and the name for a change that loses
//! something), never "yes"; an answer that does not fit, comes too late or
//! comes a second time is refused by name; the audit says it was spoken.

use serde_json::{Value, json};
use std::cell::Cell;
use std::rc::Rc;
use voicebox_core::audit::page::{MAX_LIMIT, PageRequest};
use voicebox_core::audit::{Entry, EntryDecision, EntryResult};
use voicebox_core::confirm::CONFIRM_TTL_MS;
use voicebox_core::executor::Executor;
use voicebox_core::memory::MemoryStorage;
use voicebox_core::platform::Env;
use voicebox_core::tier::Placement;
use voicebox_core::turn::Proposal;
use voicebox_core::{Action, Reply, Rule};

/// A clock the test moves, and counted ids.
#[derive(Clone, Default)]
struct Clock {
    now: Rc<Cell<u64>>,
    ids: Rc<Cell<u64>>,
}

impl Env for Clock {
    fn now_ms(&self) -> u64 {
        self.now.get()
    }

    fn random_id(&self) -> String {
        self.ids.set(self.ids.get() + 1);
        format!("{:032x}", self.ids.get())
    }
}

struct Rig {
    ex: Executor<MemoryStorage, Clock>,
    clock: Clock,
}

impl Rig {
    fn new() -> Rig {
        let clock = Clock::default();
        clock.now.set(1_000_000);
        let mut ex = Executor::new(Placement::Machine, "test", clock.clone(), ());
        ex.declare(MemoryStorage::new("mem", "test"), "mem@test");
        let mut rig = Rig { ex, clock };
        let made = pollster::block_on(rig.ex.execute(
            &json!({"verb": "write", "name": "groceries.md", "content": "eggs\n"}),
            Some("t"),
        ));
        assert!(made.ok, "{made:?}");
        rig
    }

    /// Asks about `action` as offline voice heard it; the question's id.
    fn hear(&mut self, action: Value) -> (String, Reply) {
        let action = Action::from_json(&action).unwrap();
        let asked = pollster::block_on(self.ex.run(&Proposal::Heard(action), Some("live")));
        let id = asked
            .confirm
            .as_ref()
            .expect("a heard change asks")
            .id
            .clone();
        (id, asked)
    }

    fn say(&mut self, id: &str, heard: &str) -> Reply {
        pollster::block_on(self.ex.confirm_spoken(id, heard))
    }

    fn file(&self) -> Option<String> {
        let bytes = self.ex.storage().unwrap().file("groceries.md")?;
        Some(String::from_utf8(bytes).unwrap())
    }

    fn entry(&self, seq: Option<u64>) -> Entry {
        let page = PageRequest::first(MAX_LIMIT);
        let entries = pollster::block_on(self.ex.audit(&page)).unwrap().entries;
        entries.into_iter().find(|e| Some(e.seq) == seq).unwrap()
    }
}

fn append() -> Value {
    json!({"verb": "append", "name": "groceries.md", "content": "oat milk"})
}

fn refused(reply: &Reply) -> Rule {
    reply
        .refused
        .unwrap_or_else(|| panic!("a refusal: {reply:?}"))
}

#[test]
fn the_name_confirms_a_heard_append_and_yes_does_not() {
    let mut rig = Rig::new();
    let (id, asked) = rig.hear(append());
    assert_eq!(
        asked.confirm.as_ref().unwrap().say.as_deref(),
        Some("groceries")
    );

    for not in ["yes", "okay", "sure", "do it", "yes please"] {
        let reply = rig.say(&id, not);
        assert_eq!(refused(&reply), Rule::SpokenAnswerMismatch, "{not}");
        let entry = rig.entry(reply.logged);
        assert_eq!(entry.spoken.as_deref(), Some(not), "what was heard is kept");
    }
    assert_eq!(
        rig.file().as_deref(),
        Some("eggs\n"),
        "nothing done on a yes"
    );

    // The question still waits: its words do it, once.
    let done = rig.say(&id, "groceries");
    assert!(done.ok, "{done:?}");
    assert_eq!(rig.file().as_deref(), Some("eggs\noat milk"));
    let done_entry = rig.entry(done.logged);
    let attempt = rig.entry(done_entry.attempt);
    assert_eq!(attempt.decision, EntryDecision::Attempt);
    assert_eq!(attempt.attempt, asked.logged, "the attempt names the ask");
    assert_eq!(
        attempt.spoken.as_deref(),
        Some("groceries"),
        "confirmed by voice"
    );

    // A second answer finds nothing waiting.
    assert_eq!(
        refused(&rig.say(&id, "groceries")),
        Rule::ConfirmationUnknown
    );
    assert_eq!(rig.file().as_deref(), Some("eggs\noat milk"));
}

#[test]
fn a_delete_takes_the_verb_and_the_name() {
    let mut rig = Rig::new();
    let (id, asked) = rig.hear(json!({"verb": "delete", "name": "groceries.md"}));
    assert_eq!(
        asked.confirm.as_ref().unwrap().say.as_deref(),
        Some("delete groceries")
    );
    for not in ["groceries", "delete", "yes", "delete notes"] {
        assert_eq!(
            refused(&rig.say(&id, not)),
            Rule::SpokenAnswerMismatch,
            "{not}"
        );
    }
    assert!(rig.file().is_some(), "the name alone deletes nothing");
    let done = rig.say(&id, "Delete groceries.");
    assert!(done.ok, "{done:?}");
    assert!(rig.file().is_none());
}

#[test]
fn no_declines_by_voice_and_a_click_still_answers() {
    let mut rig = Rig::new();
    let (id, _) = rig.hear(append());
    let no = rig.say(&id, "cancel");
    assert_eq!(refused(&no), Rule::Declined);
    let entry = rig.entry(no.logged);
    assert_eq!(
        (entry.result, entry.spoken.as_deref()),
        (EntryResult::Refused, Some("cancel"))
    );
    assert_eq!(rig.file().as_deref(), Some("eggs\n"));

    let (id, _) = rig.hear(append());
    let clicked = pollster::block_on(rig.ex.confirm(&id, true));
    assert!(clicked.ok, "{clicked:?}");
    let attempt = rig.entry(rig.entry(clicked.logged).attempt);
    assert_eq!(attempt.spoken, None, "a click is no spoken answer");
    assert_eq!(
        refused(&rig.say(&id, "groceries")),
        Rule::ConfirmationUnknown
    );
}

#[test]
fn a_stale_answer_is_refused_and_a_question_not_heard_takes_none() {
    let mut rig = Rig::new();
    let (id, _) = rig.hear(append());
    rig.clock.now.set(rig.clock.now.get() + CONFIRM_TTL_MS);
    assert_eq!(
        refused(&rig.say(&id, "groceries")),
        Rule::ConfirmationExpired
    );
    assert_eq!(rig.file().as_deref(), Some("eggs\n"));

    // A typed delete is asked by click only; its positive control is the
    // heard delete above.
    let typed = pollster::block_on(rig.ex.execute(
        &json!({"verb": "delete", "name": "groceries.md"}),
        Some("t"),
    ));
    let request = typed.confirm.expect("a delete asks");
    assert_eq!(request.say, None);
    assert_eq!(
        refused(&rig.say(&request.id, "delete groceries")),
        Rule::SpokenAnswerNotTaken
    );
    assert!(rig.file().is_some());
    assert!(pollster::block_on(rig.ex.confirm(&request.id, true)).ok);
    assert!(rig.file().is_none());
}

/// A heard edit's old text settles on the file's own text: in another case
/// or a letter off it is the file's words the question shows (and yes
/// changes); two places that fit are refused by name with both, never chosen.
#[test]
fn a_heard_edit_settles_on_the_files_text_and_two_places_are_asked() {
    let mut rig = Rig::new();
    let write =
        json!({"verb": "write", "name": "groceries.md", "content": "Oat Milk\ncall the plumber\n"});
    assert!(pollster::block_on(rig.ex.execute(&write, Some("t"))).ok);
    let (id, asked) = rig.hear(
        json!({"verb": "edit", "name": "groceries.md", "oldText": "oat milk", "newText": "soy milk"}),
    );
    let plan = &asked.confirm.as_ref().unwrap().plan;
    assert!(plan.contains("'Oat Milk'"), "the file's words: {plan}");
    assert!(pollster::block_on(rig.ex.confirm(&id, true)).ok);
    assert_eq!(rig.file().as_deref(), Some("soy milk\ncall the plumber\n"));
    let (id, _) = rig.hear(
        json!({"verb": "edit", "name": "groceries.md", "oldText": "call the plumer", "newText": "call Ann"}),
    );
    assert!(pollster::block_on(rig.ex.confirm(&id, true)).ok);
    assert_eq!(rig.file().as_deref(), Some("soy milk\ncall Ann\n"));

    let twice = json!({"verb": "write", "name": "groceries.md", "content": "Milk\nmilk\n"});
    assert!(pollster::block_on(rig.ex.execute(&twice, Some("t"))).ok);
    let action = Action::from_json(
        &json!({"verb": "edit", "name": "groceries.md", "oldText": "MILK", "newText": "tea"}),
    )
    .unwrap();
    let unsure = pollster::block_on(rig.ex.run(&Proposal::Heard(action), Some("live")));
    assert_eq!(refused(&unsure), Rule::HeardTextUnsure);
    assert_eq!(
        unsure.candidates,
        Some(vec!["Milk".to_string(), "milk".to_string()])
    );
    assert_eq!(rig.file().as_deref(), Some("Milk\nmilk\n"));
}
