//! The notes verbs over every adapter: organise (`move`, `copy`, `mkdir`,
//! the delete of an empty folder), read part, `find`, `info`, the list
//! verbs, `append` under a heading, `undo` of one file, and `expect`. Each
//! check has its positive control beside its refused siblings, asserting on
//! rule ids and on the world.

use super::{Rig, refused, write};
use serde_json::{Value, json};
use voicebox_core::Rule;
use voicebox_core::contain::resolve_inside_root;
use voicebox_core::journal::digest;
use voicebox_core::platform::{Observation, Storage};
use voicebox_core::reply::InfoKind;

impl<S: Storage> Rig<S> {
    /// What the adapter shows at `path` (a folder too), asked directly.
    pub fn seen(&self, path: &str) -> Observation {
        let storage = self.ex.storage().expect("a declared root");
        pollster::block_on(storage.observe(&resolve_inside_root(path).unwrap()))
    }

    fn is_dir(&self, path: &str) -> bool {
        let seen = self.seen(path);
        seen.exists && seen.is_dir
    }
}

fn act(verb: &str, fields: Value) -> Value {
    let mut action = fields;
    action["verb"] = json!(verb);
    action
}

pub fn move_renames_and_undo_moves_it_back<S: Storage>(rig: &mut Rig<S>) {
    assert!(rig.run(write("draft.md", "v1")).ok);
    let moved = rig.done(act("move", json!({"name": "draft.md", "to": "final.md"})));
    assert_eq!(
        moved.words.as_deref(),
        Some("Renamed draft.md to final.md; Undo moves it back.")
    );
    assert_eq!(moved.to.as_deref(), Some("final.md"));
    assert_eq!(rig.file("final.md").as_deref(), Some("v1"));
    assert!(rig.file("draft.md").is_none());
    let entry = rig.entry(moved.logged);
    assert_eq!(entry.act.to.as_deref(), Some("final.md"));
    assert!(entry.observed.unwrap().exists, "the new name is observed");

    let into = rig.done(act(
        "move",
        json!({"name": "final.md", "to": "archive/2026/final.md"}),
    ));
    assert!(into.words.unwrap().starts_with("Moved"));
    assert_eq!(rig.file("archive/2026/final.md").as_deref(), Some("v1"));

    rig.done(json!({"verb": "undo"}));
    assert_eq!(rig.file("final.md").as_deref(), Some("v1"));
    rig.done(json!({"verb": "undo"}));
    assert_eq!(rig.file("draft.md").as_deref(), Some("v1"));
    assert!(rig.file("final.md").is_none());

    for (to, rule) in [
        ("../out.md", Rule::OutsideRoot),
        (".env", Rule::DotfileRefused),
        (".audit/x.jsonl", Rule::ProtectedAudit),
        (".voicebox/undo/x.bin", Rule::ProtectedAudit),
        ("draft.md", Rule::AlreadyExists),
    ] {
        let reply = rig.run(act("move", json!({"name": "draft.md", "to": to})));
        assert_eq!(refused(&reply), rule, "{to}: {reply:?}");
        assert_eq!(rig.file("draft.md").as_deref(), Some("v1"), "{to}");
    }
    for (name, rule) in [
        ("missing.md", Rule::NotFound),
        (".audit", Rule::ProtectedAudit),
        ("../x", Rule::OutsideRoot),
        (".", Rule::IsADirectory),
    ] {
        let reply = rig.run(act("move", json!({"name": name, "to": "moved"})));
        assert_eq!(refused(&reply), rule, "{name}: {reply:?}");
    }
    assert!(!rig.seen("moved").exists);
}

pub fn move_over_a_file_asks_first_and_undo_restores_both<S: Storage>(rig: &mut Rig<S>) {
    assert!(rig.run(write("a.md", "new")).ok);
    assert!(rig.run(write("b.md", "old")).ok);
    let asked = rig.run(act("move", json!({"name": "a.md", "to": "b.md"})));
    let confirm = asked
        .confirm
        .clone()
        .expect("a move over a file asks first");
    assert_eq!(confirm.rule, Rule::MoveOverExisting);
    assert_eq!(rig.file("b.md").as_deref(), Some("old"), "nothing yet");
    let no = rig.confirm(&confirm.id, false);
    assert_eq!(refused(&no), Rule::Declined);
    assert_eq!(rig.file("a.md").as_deref(), Some("new"));
    assert_eq!(rig.file("b.md").as_deref(), Some("old"));

    let asked = rig.run(act("move", json!({"name": "a.md", "to": "b.md"})));
    let yes = rig.yes_to(&asked);
    assert_eq!(yes.to.as_deref(), Some("b.md"));
    assert_eq!(rig.file("b.md").as_deref(), Some("new"));
    assert!(rig.file("a.md").is_none());
    rig.done(json!({"verb": "undo"}));
    assert_eq!(rig.file("a.md").as_deref(), Some("new"));
    assert_eq!(
        rig.file("b.md").as_deref(),
        Some("old"),
        "the replaced file is back"
    );
}

pub fn folders_move_whole_and_never_into_themselves<S: Storage>(rig: &mut Rig<S>) {
    assert!(rig.run(write("notes/a.md", "a")).ok);
    assert!(rig.run(write("notes/sub/b.md", "b")).ok);
    assert!(rig.run(write("file.txt", "f")).ok);
    for (to, rule) in [
        ("notes/sub/inner", Rule::MoveIntoItself),
        ("file.txt", Rule::AlreadyExists),
    ] {
        let reply = rig.run(act("move", json!({"name": "notes", "to": to})));
        assert_eq!(refused(&reply), rule, "{to}");
    }
    assert!(rig.run(act("mkdir", json!({"name": "archive"}))).ok);
    // Onto a folder: into it, as `mv` does.
    let moved = rig.done(act("move", json!({"name": "notes", "to": "archive"})));
    assert_eq!(moved.to.as_deref(), Some("archive/notes"));
    assert_eq!(rig.file("archive/notes/sub/b.md").as_deref(), Some("b"));
    assert!(!rig.seen("notes").exists);
    rig.done(json!({"verb": "undo"}));
    assert_eq!(rig.file("notes/sub/b.md").as_deref(), Some("b"));
    assert!(!rig.seen("archive/notes").exists);
}

pub fn copy_makes_a_second_file_and_undo_removes_it<S: Storage>(rig: &mut Rig<S>) {
    assert!(rig.run(write("plan.md", "plan")).ok);
    let copied = rig.done(act(
        "copy",
        json!({"name": "plan.md", "to": "backup/plan.md"}),
    ));
    assert_eq!(rig.file("backup/plan.md").as_deref(), Some("plan"));
    assert_eq!(rig.file("plan.md").as_deref(), Some("plan"));
    assert_eq!(
        rig.entry(copied.logged).act.to.as_deref(),
        Some("backup/plan.md")
    );
    assert!(rig.run(json!({"verb": "undo"})).ok);
    assert!(rig.file("backup/plan.md").is_none());
    assert_eq!(rig.file("plan.md").as_deref(), Some("plan"));

    assert!(rig.run(write("other.md", "other")).ok);
    let asked = rig.run(act("copy", json!({"name": "plan.md", "to": "other.md"})));
    assert_eq!(asked.confirm.as_ref().unwrap().rule, Rule::MoveOverExisting);
    assert_eq!(rig.file("other.md").as_deref(), Some("other"));
    rig.yes_to(&asked);
    assert_eq!(rig.file("other.md").as_deref(), Some("plan"));
    assert!(rig.run(json!({"verb": "undo"})).ok);
    assert_eq!(rig.file("other.md").as_deref(), Some("other"));

    for (name, to, rule) in [
        ("plan.md", "plan.md", Rule::AlreadyExists),
        ("backup", "b2", Rule::IsADirectory),
        ("missing.md", "m.md", Rule::NotFound),
        ("plan.md", ".plan.md", Rule::DotfileRefused),
        ("plan.md", "../plan.md", Rule::OutsideRoot),
        (".audit/x", "x", Rule::ProtectedAudit),
    ] {
        let reply = rig.run(act("copy", json!({"name": name, "to": to})));
        assert_eq!(refused(&reply), rule, "{name} → {to}: {reply:?}");
    }
    assert!(rig.file("m.md").is_none() && rig.file("x").is_none());
}

pub fn mkdir_makes_folders_and_empty_ones_are_deleted_after_asking<S: Storage>(rig: &mut Rig<S>) {
    rig.done(act("mkdir", json!({"name": "projects/2026"})));
    assert!(rig.is_dir("projects/2026"));
    let again = rig.run(act("mkdir", json!({"name": "projects/2026"})));
    assert!(again.ok, "an existing folder is fine: {again:?}");
    assert_eq!(
        again.words.as_deref(),
        Some("The folder projects/2026 is there already.")
    );
    assert!(rig.run(write("f.txt", "x")).ok);
    for (name, rule) in [
        ("f.txt", Rule::AlreadyExists),
        (".hidden", Rule::DotfileRefused),
        ("../up", Rule::OutsideRoot),
    ] {
        assert_eq!(
            refused(&rig.run(act("mkdir", json!({"name": name})))),
            rule,
            "{name}"
        );
    }

    // Deleting a folder that holds something is refused before asking.
    let full = rig.run(json!({"verb": "delete", "name": "projects"}));
    assert_eq!(refused(&full), Rule::FolderNotEmpty);
    assert!(full.confirm.is_none());
    let asked = rig.run(json!({"verb": "delete", "name": "projects/2026"}));
    assert_eq!(asked.confirm.as_ref().unwrap().rule, Rule::Delete);
    assert!(rig.is_dir("projects/2026"), "nothing before the yes");
    rig.yes_to(&asked);
    assert!(!rig.seen("projects/2026").exists);
    rig.done(json!({"verb": "undo"}));
    assert!(rig.is_dir("projects/2026"));
    // Undoing the mkdir removes the folder it made, while it is empty.
    rig.done(json!({"verb": "undo", "name": "projects/2026"}));
    assert!(!rig.seen("projects/2026").exists);
}

pub fn read_part_says_which_lines_of_how_many<S: Storage>(rig: &mut Rig<S>) {
    let text = "one\ntwo\nthree\nfour\nfive\n";
    assert!(rig.run(write("log.txt", text)).ok);
    let last = rig.run(json!({"verb": "read", "name": "log.txt", "last": 2}));
    assert_eq!(last.content.as_deref(), Some("four\nfive\n"));
    let lines = last.lines.unwrap();
    assert_eq!((lines.from, lines.to, lines.of), (4, 5, 5));
    assert_eq!(
        last.words.as_deref(),
        Some("The last 2 lines of log.txt (lines 4–5 of 5):")
    );
    assert_eq!(
        last.sha256.as_deref(),
        Some(digest(text.as_bytes()).as_str())
    );
    let first = rig.run(json!({"verb": "read", "name": "log.txt", "first": "3"}));
    assert_eq!(first.content.as_deref(), Some("one\ntwo\nthree\n"));
    let whole = rig.run(json!({"verb": "read", "name": "log.txt"}));
    assert_eq!(whole.content.as_deref(), Some(text));
    assert!(whole.lines.is_none());
    for (action, rule) in [
        (
            json!({"verb": "read", "name": "log.txt", "first": 2, "last": 2}),
            Rule::MalformedField,
        ),
        (
            json!({"verb": "read", "name": "log.txt", "first": 0}),
            Rule::MalformedField,
        ),
        (
            json!({"verb": "read", "name": "log.txt", "last": 10001}),
            Rule::MalformedField,
        ),
        (
            json!({"verb": "read", "name": "log.txt", "last": "ten"}),
            Rule::MalformedField,
        ),
    ] {
        rig.assert_refused(action, rule);
    }
}

pub fn find_and_info_answer_about_names<S: Storage>(rig: &mut Rig<S>) {
    assert!(rig.run(write("Budget 2026.md", "a\nb\n")).ok);
    assert!(rig.run(write("old/budget-2025.csv", "x")).ok);
    assert!(rig.run(write("notes.md", "n")).ok);
    let found = rig.run(json!({"verb": "find", "pattern": "budget"}));
    let names: Vec<String> = found.found.unwrap().into_iter().map(|f| f.name).collect();
    assert_eq!(names, ["Budget 2026.md", "old/budget-2025.csv"]);
    let md = rig.run(json!({"verb": "find", "pattern": "*.MD"}));
    assert_eq!(md.total, Some(2));
    let inside = rig.run(json!({"verb": "find", "pattern": "budget", "dir": "old"}));
    assert_eq!(inside.total, Some(1));
    let none = rig.run(json!({"verb": "find", "pattern": "receipt"}));
    assert_eq!(none.total, Some(0));
    assert_eq!(none.words.as_deref(), Some("No name matches “receipt”."));
    for (action, rule) in [
        (
            json!({"verb": "find", "pattern": " "}),
            Rule::MalformedField,
        ),
        (
            json!({"verb": "find", "pattern": "a", "dir": ".."}),
            Rule::OutsideRoot,
        ),
        (
            json!({"verb": "find", "pattern": "a", "dir": ".audit"}),
            Rule::ProtectedAudit,
        ),
    ] {
        rig.assert_refused(action, rule);
    }
    // Host files are never found.
    let audit = rig.run(json!({"verb": "find", "pattern": "*.jsonl"}));
    assert_eq!(audit.total, Some(0));

    let info = rig.run(json!({"verb": "info", "name": "Budget 2026.md"}));
    let about = info.info.unwrap();
    assert_eq!(
        (about.kind, about.bytes, about.lines),
        (InfoKind::File, Some(4), Some(2))
    );
    let folder = rig
        .run(json!({"verb": "info", "name": "old"}))
        .info
        .unwrap();
    assert_eq!((folder.kind, folder.entries), (InfoKind::Folder, Some(1)));
    rig.assert_refused(json!({"verb": "info", "name": "nope.md"}), Rule::NotFound);
    rig.assert_refused(
        json!({"verb": "info", "name": ".audit"}),
        Rule::ProtectedAudit,
    );
}

const LIST: &str = "# Shopping\n- [ ] oat milk\n- [ ] eggs\n- [ ] milk chocolate\n";

pub fn list_items_are_ticked_and_removed_by_their_words<S: Storage>(rig: &mut Rig<S>) {
    assert!(rig.run(write("shopping.md", LIST)).ok);
    let ticked = rig.done(act(
        "check_item",
        json!({"name": "shopping.md", "item": "Eggs"}),
    ));
    assert_eq!(
        ticked.words.as_deref(),
        Some("Ticked “eggs” in shopping.md.")
    );
    assert_eq!(
        rig.file("shopping.md").as_deref(),
        Some("# Shopping\n- [ ] oat milk\n- [x] eggs\n- [ ] milk chocolate\n")
    );
    let again = rig.run(act(
        "check_item",
        json!({"name": "shopping.md", "item": "eggs"}),
    ));
    assert!(again.ok, "ticking a ticked item is fine: {again:?}");
    let untick = rig.run(act(
        "check_item",
        json!({"name": "shopping.md", "item": "eggs", "done": false}),
    ));
    assert!(untick.ok);
    assert_eq!(rig.file("shopping.md").as_deref(), Some(LIST));

    let several = rig.run(act(
        "check_item",
        json!({"name": "shopping.md", "item": "milk"}),
    ));
    assert_eq!(refused(&several), Rule::ItemNotUnique);
    assert_eq!(
        several.candidates.unwrap(),
        ["oat milk", "milk chocolate"],
        "the answer asks which"
    );
    let none = rig.run(act(
        "check_item",
        json!({"name": "shopping.md", "item": "bread"}),
    ));
    assert_eq!(refused(&none), Rule::ItemNotFound);
    assert_eq!(none.candidates.unwrap().len(), 3);
    assert_eq!(rig.file("shopping.md").as_deref(), Some(LIST));

    rig.done(act(
        "remove_item",
        json!({"name": "shopping.md", "item": "oat milk"}),
    ));
    assert_eq!(
        rig.file("shopping.md").as_deref(),
        Some("# Shopping\n- [ ] eggs\n- [ ] milk chocolate\n")
    );
    assert!(rig.run(json!({"verb": "undo"})).ok);
    assert_eq!(rig.file("shopping.md").as_deref(), Some(LIST));
    rig.assert_refused(
        act("remove_item", json!({"name": "missing.md", "item": "x"})),
        Rule::NotFound,
    );

    rig.done(act(
        "append",
        json!({"name": "shopping.md", "content": "bread"}),
    ));
    assert!(rig.file("shopping.md").unwrap().ends_with("- [ ] bread"));
}

pub fn append_under_a_heading_goes_at_the_end_of_its_section<S: Storage>(rig: &mut Rig<S>) {
    assert!(
        rig.run(write(
            "week.md",
            "## Monday\n- gym\n\n## Tuesday\n- dentist\n"
        ))
        .ok
    );
    rig.done(act(
        "append",
        json!({"name": "week.md", "content": "call Sam", "under": "monday"}),
    ));
    assert_eq!(
        rig.file("week.md").as_deref(),
        Some("## Monday\n- gym\n- call Sam\n\n## Tuesday\n- dentist\n")
    );
    let made = rig.run(act(
        "append",
        json!({"name": "daily/2026-12-02.md", "content": "pick up dry cleaning", "under": "Errands"}),
    ));
    assert!(made.ok);
    assert_eq!(
        rig.file("daily/2026-12-02.md").as_deref(),
        Some("## Errands\npick up dry cleaning\n")
    );
    rig.assert_refused(
        act(
            "append",
            json!({"name": ".week.md", "content": "x", "under": "a"}),
        ),
        Rule::DotfileRefused,
    );
}

pub fn undo_of_one_file_leaves_the_others<S: Storage>(rig: &mut Rig<S>) {
    assert!(rig.run(write("groceries.txt", "milk")).ok);
    assert!(rig.run(write("groceries.txt", "milk, eggs")).ok);
    assert!(rig.run(write("todo.txt", "call Sam")).ok);
    rig.done(json!({"verb": "undo", "name": "groceries.txt"}));
    assert_eq!(rig.file("groceries.txt").as_deref(), Some("milk"));
    assert_eq!(
        rig.file("todo.txt").as_deref(),
        Some("call Sam"),
        "untouched"
    );
    // The undone change is forgotten; the plain undo is still todo.txt's.
    let plain = rig.run(json!({"verb": "undo"}));
    assert!(plain.ok);
    assert!(rig.file("todo.txt").is_none());
    rig.assert_refused(
        json!({"verb": "undo", "name": "elsewhere.txt"}),
        Rule::NothingToUndo,
    );
    rig.assert_refused(json!({"verb": "undo", "name": "../x"}), Rule::OutsideRoot);
    // Changed since by someone else: refused, nothing overwritten.
    assert!(rig.run(write("groceries.txt", "milk, bread")).ok);
    let storage = rig.ex.storage().unwrap();
    let path = resolve_inside_root("groceries.txt").unwrap();
    pollster::block_on(storage.write(&path, b"theirs")).unwrap();
    rig.assert_refused(
        json!({"verb": "undo", "name": "groceries.txt"}),
        Rule::UndoStale,
    );
    assert_eq!(rig.file("groceries.txt").as_deref(), Some("theirs"));
}

pub fn a_change_on_an_old_copy_is_refused<S: Storage>(rig: &mut Rig<S>) {
    assert!(rig.run(write("note.md", "- [ ] a\n")).ok);
    let read = rig.run(json!({"verb": "read", "name": "note.md"}));
    let held = read.sha256.clone().unwrap();
    let saved = rig.done(json!({"verb": "write", "name": "note.md", "content": "- [ ] a\n- [ ] b\n", "expect": held}));
    let newer = saved.sha256.clone().unwrap();
    assert_eq!(
        newer,
        digest(b"- [ ] a\n- [ ] b\n"),
        "a write answers the new digest"
    );
    for action in [
        json!({"verb": "write", "name": "note.md", "content": "lost", "expect": held}),
        json!({"verb": "edit", "name": "note.md", "oldText": "a", "newText": "z", "expect": held}),
        json!({"verb": "append", "name": "note.md", "content": "c", "expect": held}),
        json!({"verb": "check_item", "name": "note.md", "item": "a", "expect": held}),
        json!({"verb": "write", "name": "gone.md", "content": "x", "expect": held}),
    ] {
        let reply = rig.run(action.clone());
        assert_eq!(refused(&reply), Rule::ChangedSinceRead, "{action}");
    }
    assert_eq!(rig.file("note.md").as_deref(), Some("- [ ] a\n- [ ] b\n"));
    assert!(rig.file("gone.md").is_none());
    let ticked = rig.run(json!({"verb": "check_item", "name": "note.md", "item": "a", "expect": newer.to_uppercase()}));
    assert!(ticked.ok, "the digest is read case aside: {ticked:?}");
    assert_eq!(rig.file("note.md").as_deref(), Some("- [x] a\n- [ ] b\n"));
}
