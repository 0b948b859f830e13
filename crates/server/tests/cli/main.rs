//! The command line, run as a person would: each command prints one JSON
//! object and exits 0 unless the command line itself is wrong.

mod admin;
mod history;
mod state_folder;
mod understanding;
mod verbs;

use serde_json::Value;
use std::path::Path;
use std::process::Command;
use tempfile::TempDir;
use voicebox_test_support::audit_files;

fn voicebox(args: &[&str]) -> (Value, i32) {
    let state = TempDir::new().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_voicebox"))
        .args(args)
        .env_remove("VOICEBOX_ROOT")
        .env("VOICEBOX_STATE_DIR", state.path())
        .output()
        .unwrap();
    let code = out.status.code().unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let value = serde_json::from_str(&stdout).unwrap_or(Value::Null);
    (value, code)
}

fn turn(root: &Path, text: &str) -> Value {
    let (out, code) = voicebox(&["turn", "--root", root.to_str().unwrap(), text]);
    assert_eq!(code, 0);
    out
}

#[test]
fn resolve_prints_the_action_or_a_note() {
    let (out, code) = voicebox(&["resolve", "create a file called hello.txt with hi"]);
    assert_eq!(code, 0);
    assert_eq!(
        out["action"],
        serde_json::json!({"verb":"write","name":"hello.txt","content":"hi","mode":"create"})
    );
    let (out, _) = voicebox(&["resolve", "book me a flight to Lisbon"]);
    assert!(out["action"].is_null());
    assert!(out["note"].as_str().unwrap().len() > 10);
}

#[test]
fn write_in_one_process_read_back_in_another() {
    let (dir, state) = (TempDir::new().unwrap(), TempDir::new().unwrap());
    let root = dir.path().to_str().unwrap();
    // One host: the processes share its state folder (and its audit anchors).
    let turn = |text: &str| with_state(&["turn", "--root", root, text], state.path()).0;
    let wrote = turn("create a file called hello.txt with hi");
    assert_eq!(wrote["action"]["verb"], "write");
    assert_eq!(wrote["result"]["ok"], true);
    assert_eq!(wrote["result"]["action"], "wrote hello.txt (2 bytes)");
    assert_eq!(wrote["result"]["root"]["kind"], "machine");
    let read = turn("read hello dot txt");
    assert_eq!(read["result"]["content"], "hi");
    let (audit, _, _) = with_state(&["audit", "--root", root], state.path());
    assert_eq!(audit["ok"], true);
    let seqs: Vec<u64> = audit["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["seq"].as_u64().unwrap())
        .collect();
    assert_eq!(
        seqs,
        [3, 2, 1],
        "newest first: read, outcome, attempt — seq resumed in the second process"
    );
}

#[test]
fn the_failure_table_answers_by_name() {
    let dir = TempDir::new().unwrap();
    // No root declared.
    let (out, code) = voicebox(&["turn", "list files"]);
    assert_eq!(
        (code, out["result"]["refused"].as_str()),
        (0, Some("root-not-declared"))
    );
    // A folder that does not exist, and a file instead of a folder.
    let missing = dir.path().join("missing");
    let out = turn(&missing, "list files");
    assert_eq!(out["result"]["refused"], "root-unreachable");
    assert!(!missing.exists());
    std::fs::write(dir.path().join("file"), "x").unwrap();
    let out = turn(&dir.path().join("file"), "list files");
    assert_eq!(out["result"]["refused"], "root-unreachable");
    assert!(
        out["result"]["why"]
            .as_str()
            .unwrap()
            .contains("not a folder")
    );
    // An escape and a dotfile, beside the accepted sibling.
    let root = dir.path().join("root");
    std::fs::create_dir(&root).unwrap();
    let (out, _) = voicebox(&[
        "turn",
        "--root",
        root.to_str().unwrap(),
        "--action",
        r#"{"verb":"write","name":"../x.txt","content":"x"}"#,
    ]);
    assert_eq!(out["result"]["refused"], "outside-root");
    assert!(!dir.path().join("x.txt").exists());
    let (out, _) = voicebox(&[
        "turn",
        "--root",
        root.to_str().unwrap(),
        "--action",
        r#"{"verb":"write","name":".env","content":"x"}"#,
    ]);
    assert_eq!(out["result"]["refused"], "dotfile-refused");
    let (out, _) = voicebox(&[
        "turn",
        "--root",
        root.to_str().unwrap(),
        "--action",
        r#"{"verb":"write","name":"x.txt","content":"x"}"#,
    ]);
    assert_eq!(out["result"]["ok"], true);
    // An unresolved utterance: no action, a note, nothing done.
    let out = turn(&root, "book me a flight to Lisbon");
    assert!(out["action"].is_null() && out["result"].is_null());
    assert!(out["note"].is_string());
    // Malformed action JSON is a named refusal, not a crash.
    let (out, code) = voicebox(&[
        "turn",
        "--root",
        root.to_str().unwrap(),
        "--action",
        "{not json",
    ]);
    assert_eq!(
        (code, out["result"]["refused"].as_str()),
        (0, Some("malformed-field"))
    );
}

#[test]
fn delete_waits_for_yes() {
    let dir = TempDir::new().unwrap();
    std::fs::write(dir.path().join("old.txt"), "bye").unwrap();
    let asked = turn(dir.path(), "delete old.txt");
    assert_eq!(asked["result"]["ok"], false);
    assert_eq!(asked["result"]["confirm"]["rule"], "delete");
    assert!(
        dir.path().join("old.txt").exists(),
        "without --yes nothing is deleted"
    );
    let (done, _) = voicebox(&[
        "turn",
        "--root",
        dir.path().to_str().unwrap(),
        "--yes",
        "delete old.txt",
    ]);
    assert_eq!(done["asked"]["confirm"]["rule"], "delete");
    assert_eq!(done["result"]["ok"], true);
    assert!(!dir.path().join("old.txt").exists());
    let undone = turn(dir.path(), "undo");
    assert_eq!(
        undone["result"]["action"],
        "undid the delete of old.txt: restored it (3 bytes)"
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("old.txt")).unwrap(),
        "bye"
    );
}

#[test]
fn create_asset_and_shelf_tools_from_the_command_line() {
    let (dir, state) = (TempDir::new().unwrap(), TempDir::new().unwrap());
    let root = dir.path().to_str().unwrap();
    let act =
        |action: &str| with_state(&["turn", "--root", root, "--action", action], state.path()).0;
    let out = act(r#"{"verb":"create_asset","name":"dot.svg","kind":"svg","body":"<svg/>"}"#);
    assert_eq!(out["result"]["ok"], true, "{out}");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("assets/dot.svg")).unwrap(),
        "<svg/>"
    );
    let out = act(r#"{"verb":"tool","id":"crc32","name":"assets/dot.svg"}"#);
    assert_eq!(
        out["result"]["output"].as_str().map(str::len),
        Some(8),
        "{out}"
    );
    let (audit, _, _) = with_state(&["audit", "--root", root], state.path());
    let tools: Vec<&str> = audit["entries"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|e| e["act"]["tool"].as_str())
        .collect();
    assert_eq!(
        tools,
        ["crc32", "create-asset", "create-asset"],
        "newest first"
    );

    // The same in words, as the README's tour says them.
    let made = turn(
        dir.path(),
        "create an svg asset called ring.svg with <svg/>",
    );
    assert_eq!(made["action"]["verb"], "create_asset", "{made}");
    assert_eq!(made["result"]["ok"], true, "{made}");
    assert!(dir.path().join("assets/ring.svg").exists());
    let counted = turn(dir.path(), "run the wc tool on assets/ring.svg");
    assert_eq!(counted["action"]["verb"], "tool", "{counted}");
    assert_eq!(counted["result"]["ok"], true, "{counted}");
    // Words name only the tools the host has: an unknown one is no action,
    // and the note says which there are; sent as an action, the executor
    // refuses it by name.
    let unknown = turn(dir.path(), "run the nope tool on assets/ring.svg");
    assert!(unknown["action"].is_null(), "{unknown}");
    assert!(
        unknown["note"].as_str().unwrap().contains("wc"),
        "{unknown}"
    );
    let (sent, _) = voicebox(&[
        "turn",
        "--root",
        root,
        "--action",
        r#"{"verb":"tool","id":"nope","name":"assets/ring.svg"}"#,
    ]);
    assert_eq!(sent["result"]["refused"], "tool-unavailable", "{sent}");
}

#[test]
fn a_wrong_command_line_exits_non_zero() {
    let (_, code) = voicebox(&["turn"]);
    assert_eq!(code, 2);
}

#[test]
fn export_web_writes_a_static_folder_with_the_browser_core() {
    let dir = TempDir::new().unwrap();
    let out = dir.path().join("site");
    let (reply, code) = voicebox(&["export-web", out.to_str().unwrap()]);
    assert_eq!((code, reply["ok"].as_bool()), (0, Some(true)), "{reply}");
    let core = std::fs::read(out.join("env/voicebox_web.wasm")).unwrap();
    assert_eq!(&core[..4], b"\0asm");
    assert_eq!(
        &std::fs::read(out.join("env/create-asset.wasm")).unwrap()[..4],
        b"\0asm"
    );
    assert!(
        std::fs::read_to_string(out.join("index.html"))
            .unwrap()
            .contains("url=env/")
    );
    assert!(
        out.join("js/dom.js").exists(),
        "the page's shared modules come along"
    );
}

/// Runs `voicebox` with `VOICEBOX_STATE_DIR=state`.
fn run_in_state(args: &[&str], state: &Path) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_voicebox"))
        .args(args)
        .env_remove("VOICEBOX_ROOT")
        .env("VOICEBOX_STATE_DIR", state)
        .output()
        .unwrap()
}

/// Runs `voicebox` with `VOICEBOX_STATE_DIR=state`: stdout (JSON, or null),
/// stderr and the exit code.
fn with_state(args: &[&str], state: &Path) -> (Value, String, i32) {
    let out = run_in_state(args, state);
    let value = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    let stderr = String::from_utf8(out.stderr).unwrap();
    (value, stderr, out.status.code().unwrap())
}

/// Every entry under `dir` (not following links): its kind, its bytes or
/// link target, and its modification time, so a file made and removed again
/// still shows in its folder's time.
fn tree(dir: &Path) -> Vec<(std::path::PathBuf, String, Vec<u8>, std::time::SystemTime)> {
    let mut out = Vec::new();
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        let meta = std::fs::symlink_metadata(&path).unwrap();
        let modified = meta.modified().unwrap();
        if meta.is_symlink() {
            let target = std::fs::read_link(&path).unwrap();
            out.push((
                path,
                "link".into(),
                target.into_os_string().into_encoded_bytes(),
                modified,
            ));
        } else if meta.is_dir() {
            out.push((path.clone(), "dir".into(), Vec::new(), modified));
            out.extend(tree(&path));
        } else {
            let bytes = std::fs::read(&path).unwrap();
            out.push((path, "file".into(), bytes, modified));
        }
    }
    out
}

/// `voicebox audit --verify` and `--all` with one state folder for the
/// writing turns and the check (the anchors live there): stdout and the exit code.
fn in_state(state: &Path, args: &[&str]) -> (String, i32) {
    let out = run_in_state(args, state);
    (
        String::from_utf8(out.stdout).unwrap(),
        out.status.code().unwrap(),
    )
}
