//! What offline voice heard: a change is shown as heard and asked first
//! (`heard-change`), and is done only on yes; a look runs at once.

use super::{Rig, refused, write};
use serde_json::{Value, json};
use voicebox_core::audit::{EntryDecision, EntryResult};
use voicebox_core::platform::Storage;
use voicebox_core::turn::Proposal;
use voicebox_core::{Action, Reply, Rule};

impl<S: Storage> Rig<S> {
    /// Runs `action` as offline voice heard it.
    pub fn hear(&mut self, action: Value) -> Reply {
        let action = Action::from_json(&action).expect("a valid action");
        pollster::block_on(self.ex.run(&Proposal::Heard(action), Some("live")))
    }
}

pub fn heard_changes_are_asked_first<S: Storage>(rig: &mut Rig<S>) {
    assert!(rig.run(write("todo.txt", "milk")).ok);

    // A look runs at once.
    let read = rig.hear(json!({"verb": "read", "name": "todo.txt"}));
    assert_eq!(read.content.as_deref(), Some("milk"), "{read:?}");
    assert!(rig.hear(json!({"verb": "list"})).ok);

    // A change is asked, and the file is untouched until yes.
    let heard = json!({"verb": "write", "name": "todo.txt", "content": "pick up the kids"});
    let ask = rig.hear(heard.clone());
    let request = ask.confirm.clone().expect("a heard write asks");
    assert_eq!(request.rule, Rule::HeardChange);
    assert!(
        request
            .plan
            .starts_with("I heard: write 'pick up the kids' to todo.txt"),
        "{}",
        request.plan
    );
    let asked = rig.entry(ask.logged);
    assert_eq!(
        (asked.decision, asked.result, asked.rule),
        (
            EntryDecision::Confirm,
            EntryResult::Pending,
            Some(Rule::HeardChange)
        )
    );
    assert_eq!(rig.file("todo.txt").as_deref(), Some("milk"));
    assert_eq!(refused(&rig.confirm(&request.id, false)), Rule::Declined);
    assert_eq!(rig.file("todo.txt").as_deref(), Some("milk"), "no keeps it");

    // Yes does it, as typed, and its attempt names the ask.
    let again = rig.hear(heard);
    rig.yes_to(&again);
    assert_eq!(rig.file("todo.txt").as_deref(), Some("pick up the kids"));

    // A heard delete, or create over a file, is asked once, not twice.
    for (action, gone) in [
        (
            json!({"verb": "write", "name": "todo.txt", "content": "x", "mode": "create"}),
            false,
        ),
        (json!({"verb": "delete", "name": "todo.txt"}), true),
    ] {
        let ask = rig.hear(action.clone());
        let request = ask.confirm.expect("asked");
        assert_eq!(request.rule, Rule::HeardChange, "{action}");
        let yes = rig.confirm(&request.id, true);
        assert!(
            yes.ok && yes.confirm.is_none(),
            "done on the one yes: {yes:?}"
        );
        assert_eq!(rig.file("todo.txt").is_none(), gone, "{action}");
    }

    // Undo, heard, is asked too; a name outside the folder is refused by name, not asked.
    let undo = rig.hear(json!({"verb": "undo"}));
    let request = undo.confirm.expect("a heard undo asks");
    assert!(request.plan.starts_with("I heard: undo the last change"));
    assert!(rig.confirm(&request.id, true).ok);
    assert_eq!(
        rig.file("todo.txt").as_deref(),
        Some("x"),
        "the delete was undone"
    );
    let outside = rig.hear(json!({"verb": "write", "name": "/etc/x", "content": "y"}));
    assert_eq!(refused(&outside), Rule::OutsideRoot);
    assert!(outside.confirm.is_none());
}
