//! The notes verbs from the command line (`turn --action`), each done in
//! the folder with its refused sibling beside it; a move over a file waits
//! for `--yes`, and an undo of one file leaves the others.

use super::with_state;
use serde_json::{Value, json};
use std::path::Path;
use tempfile::TempDir;

fn act(root: &Path, state: &Path, action: Value, yes: bool) -> Value {
    let root = root.to_str().unwrap();
    let action = action.to_string();
    let mut args = vec!["turn", "--root", root, "--action", &action];
    if yes {
        args.push("--yes");
    }
    let (out, _, code) = with_state(&args, state);
    assert_eq!(code, 0, "{out}");
    out
}

#[test]
fn the_notes_verbs_from_the_command_line() {
    let (dir, state) = (TempDir::new().unwrap(), TempDir::new().unwrap());
    let (root, state) = (dir.path(), state.path());
    let file = |name: &str| std::fs::read_to_string(root.join(name)).ok();
    // Every act here but the last goes without `--yes`.
    let turn = |action: Value| act(root, state, action, false);
    std::fs::write(root.join("draft.md"), "- [ ] milk\n- [ ] eggs\n").unwrap();
    std::fs::write(root.join("other.md"), "other").unwrap();

    let renamed = turn(json!({"verb": "move", "name": "draft.md", "to": "list.md"}));
    assert_eq!(renamed["result"]["ok"], true, "{renamed}");
    assert_eq!(renamed["changes"], true);
    assert!(file("list.md").is_some() && file("draft.md").is_none());
    let out = turn(json!({"verb": "move", "name": "list.md", "to": "../list.md"}));
    assert_eq!(out["result"]["refused"], "outside-root");

    let asked = turn(json!({"verb": "move", "name": "other.md", "to": "list.md"}));
    assert_eq!(asked["result"]["confirm"]["rule"], "move-over-existing");
    assert_eq!(
        file("other.md").as_deref(),
        Some("other"),
        "not without --yes"
    );
    let ticked = turn(json!({"verb": "check_item", "name": "list.md", "item": "eggs"}));
    assert_eq!(ticked["result"]["ok"], true, "{ticked}");
    assert_eq!(file("list.md").as_deref(), Some("- [ ] milk\n- [x] eggs\n"));
    let unknown = turn(json!({"verb": "remove_item", "name": "list.md", "item": "bread"}));
    assert_eq!(unknown["result"]["refused"], "item-not-found");

    let made = turn(json!({"verb": "mkdir", "name": "old"}));
    assert_eq!(made["result"]["ok"], true);
    assert!(root.join("old").is_dir());
    let found = turn(json!({"verb": "find", "pattern": "*.md"}));
    assert_eq!(found["result"]["total"], 2, "{found}");
    let info = turn(json!({"verb": "info", "name": "old"}));
    assert_eq!(info["result"]["info"]["kind"], "folder");
    let first = turn(json!({"verb": "read", "name": "list.md", "first": 1}));
    assert_eq!(first["result"]["content"], "- [ ] milk\n");

    // One file's newest change: the tick, though the mkdir came after it.
    let undone = turn(json!({"verb": "undo", "name": "list.md"}));
    assert_eq!(undone["result"]["ok"], true, "{undone}");
    assert_eq!(file("list.md").as_deref(), Some("- [ ] milk\n- [ ] eggs\n"));
    assert!(root.join("old").is_dir(), "the later mkdir stays");
    let done = act(
        root,
        state,
        json!({"verb": "move", "name": "other.md", "to": "list.md"}),
        true,
    );
    assert_eq!(done["result"]["ok"], true, "{done}");
    assert_eq!(file("list.md").as_deref(), Some("other"));
}

/// "today's note" names the day's file by the setting, made with its folder
/// on the first append; a setting that leaves the root is refused by name.
#[test]
fn todays_note_is_the_days_file_by_the_setting() {
    let (dir, state) = (TempDir::new().unwrap(), TempDir::new().unwrap());
    let root = dir.path();
    let said = |sentence: &str, pattern: &str| -> Value {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_voicebox"))
            .args(["turn", "--root", root.to_str().unwrap(), sentence])
            .env_remove("VOICEBOX_ROOT")
            .env("VOICEBOX_STATE_DIR", state.path())
            .env("VOICEBOX_DAILY_NOTE", pattern)
            .env("TZ", "UTC")
            .output()
            .unwrap();
        serde_json::from_slice(&out.stdout).unwrap()
    };
    let today = |ms: u128| voicebox_core::time::day(ms as u64, 0);
    let now = || {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_millis()
    };
    let before = today(now());
    let added = said(
        "add pick up dry cleaning to today's note",
        "journal/{date}.md",
    );
    let after = today(now());
    assert_eq!(added["result"]["ok"], true, "{added}");
    let named = added["action"]["name"].as_str().unwrap().to_owned();
    assert!(
        [
            format!("journal/{before}.md"),
            format!("journal/{after}.md")
        ]
        .contains(&named),
        "{named}"
    );
    assert_eq!(
        std::fs::read_to_string(root.join(&named)).unwrap(),
        "pick up dry cleaning"
    );
    let read = said("what's in my daily note", "journal/{date}.md");
    assert_eq!(read["result"]["content"], "pick up dry cleaning", "{read}");
    // The sibling: a setting outside the folder names a file the executor refuses.
    let out = said("add milk to today's note", "../{date}.md");
    assert_eq!(out["result"]["refused"], "outside-root", "{out}");
    assert!(!root.parent().unwrap().join(format!("{after}.md")).exists());
}
