//! The command line, run as a person would: each command prints one JSON
//! object and exits 0 unless the command line itself is wrong.

use serde_json::Value;
use std::path::Path;
use std::process::Command;
use tempfile::TempDir;

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
        serde_json::json!({"verb":"write","name":"hello.txt","content":"hi"})
    );
    let (out, _) = voicebox(&["resolve", "book me a flight to Lisbon"]);
    assert!(out["action"].is_null());
    assert!(out["note"].as_str().unwrap().len() > 10);
}

#[test]
fn write_in_one_process_read_back_in_another() {
    let dir = TempDir::new().unwrap();
    let wrote = turn(dir.path(), "create a file called hello.txt with hi");
    assert_eq!(wrote["action"]["verb"], "write");
    assert_eq!(wrote["result"]["ok"], true);
    assert_eq!(wrote["result"]["action"], "wrote hello.txt (2 bytes)");
    assert_eq!(wrote["result"]["root"]["kind"], "machine");
    let read = turn(dir.path(), "read hello dot txt");
    assert_eq!(read["result"]["content"], "hi");
    let (audit, _) = voicebox(&["audit", "--root", dir.path().to_str().unwrap()]);
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
    let dir = TempDir::new().unwrap();
    let root = dir.path().to_str().unwrap();
    let (out, _) = voicebox(&[
        "turn",
        "--root",
        root,
        "--action",
        r#"{"verb":"create_asset","name":"dot.svg","kind":"svg","body":"<svg/>"}"#,
    ]);
    assert_eq!(out["result"]["ok"], true, "{out}");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("assets/dot.svg")).unwrap(),
        "<svg/>"
    );
    let (out, _) = voicebox(&[
        "turn",
        "--root",
        root,
        "--action",
        r#"{"verb":"tool","id":"crc32","name":"assets/dot.svg"}"#,
    ]);
    assert_eq!(
        out["result"]["output"].as_str().map(str::len),
        Some(8),
        "{out}"
    );
    let (audit, _) = voicebox(&["audit", "--root", root]);
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
    let unknown = turn(dir.path(), "run the nope tool on assets/ring.svg");
    assert_eq!(
        unknown["result"]["refused"], "tool-unavailable",
        "{unknown}"
    );
}

#[test]
fn a_wrong_command_line_exits_non_zero() {
    let (_, code) = voicebox(&["turn"]);
    assert_eq!(code, 2);
}

#[test]
fn doctor_reports_each_piece_and_masks_keys() {
    let dir = TempDir::new().unwrap();
    let state = dir.path().join("state");
    std::fs::create_dir_all(&state).unwrap();
    std::fs::write(state.join("keys.json"), r#"{"openai": "sk-secret-abcd"}"#).unwrap();
    let root = dir.path().join("root");
    std::fs::create_dir(&root).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_voicebox"))
        .args([
            "doctor",
            "--root",
            root.to_str().unwrap(),
            "--state-dir",
            state.to_str().unwrap(),
            "--port",
            "0",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let report: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(report["root"]["ok"], true);
    assert_eq!(report["stateDir"]["ok"], true);
    assert_eq!(report["port"]["ok"], true);
    assert_eq!(
        report["keys"]["openai"],
        serde_json::json!({"set": true, "last4": "abcd"})
    );
    assert!(!text.contains("sk-secret"), "keys are masked");
    assert_eq!(
        report["resolver"],
        serde_json::json!({"name": "script", "ok": true})
    );
    let token = std::fs::read_to_string(state.join("host-token")).unwrap();
    assert!(!text.contains(token.trim()), "the token is never printed");
    // A missing root is reported, not fatal.
    let out = Command::new(env!("CARGO_BIN_EXE_voicebox"))
        .args([
            "doctor",
            "--root",
            "/nonexistent/voicebox",
            "--state-dir",
            state.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["root"]["ok"], false);
    let out = Command::new(env!("CARGO_BIN_EXE_voicebox"))
        .args([
            "doctor",
            "--resolver",
            "gemini",
            "--state-dir",
            state.to_str().unwrap(),
        ])
        .env_remove("GEMINI_API_KEY")
        .output()
        .unwrap();
    let gemini: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(gemini["resolver"]["ok"], false, "no gemini key is set");
    let why = gemini["resolver"]["why"].as_str().unwrap();
    assert!(why.contains("GEMINI_API_KEY"), "{why}");
    let missing = report["root"]["why"].as_str().unwrap();
    assert!(missing.contains("does not exist"), "{missing}");
}

#[test]
fn admit_at_the_shell_is_audited_in_the_root() {
    let dir = TempDir::new().unwrap();
    let (root, state) = (dir.path().join("root"), dir.path().join("state"));
    std::fs::create_dir(&root).unwrap();
    let run = |args: &[&str]| -> Value {
        let out = Command::new(env!("CARGO_BIN_EXE_voicebox"))
            .args(args)
            .args(["--root", root.to_str().unwrap()])
            .env("VOICEBOX_STATE_DIR", &state)
            .output()
            .unwrap();
        serde_json::from_slice(&out.stdout).unwrap()
    };
    let descriptor = r#"{"verb":"propose_extension","descriptor":{"id":"clock","description":"tells the time","capabilities":[],"tools":[{"name":"now","primitive":"now"}]}}"#;
    assert_eq!(run(&["turn", "--action", descriptor])["result"]["ok"], true);
    let call = r#"{"verb":"call_extension","id":"clock","tool":"now"}"#;
    assert_eq!(
        run(&["turn", "--action", call])["result"]["refused"],
        "not-admitted"
    );
    let admitted = run(&["admit", "clock"]);
    assert_eq!(admitted["ok"], true, "{admitted}");
    assert!(
        run(&["turn", "--action", call])["result"]["output"]
            .as_str()
            .unwrap()
            .ends_with('Z')
    );
    assert_eq!(
        run(&["admit", "nothing-proposed"])["refused"],
        "not-admitted"
    );
    let audit = run(&["audit"]);
    let rules: Vec<&str> = audit["entries"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|e| e["rule"].as_str())
        .collect();
    assert!(
        rules.contains(&"admitted-by-person") && rules.contains(&"proposal-pending"),
        "{rules:?}"
    );
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

/// The commands that act on a root with a state folder, each given the root.
fn commands_on(root: &str) -> [Vec<&str>; 4] {
    [
        vec!["turn", "--root", root, "list files"],
        vec!["audit", "--root", root],
        vec!["admit", "clock", "--root", root],
        vec!["serve", "--port", "0", "--root", root],
    ]
}

#[test]
fn a_state_folder_inside_the_root_refuses_every_command_by_name() {
    let dir = TempDir::new().unwrap();
    let root = dir.path().join("root");
    std::fs::create_dir_all(root.join("notes")).unwrap();
    std::fs::write(root.join("notes/a.txt"), "mine").unwrap();
    let before = tree(dir.path());
    let inside = root.to_str().unwrap();
    let link = dir.path().join("link");
    std::os::unix::fs::symlink(&root, &link).unwrap();
    let before_link = tree(dir.path());
    let cases = [
        (root.join("state"), inside, "state-in-root"),
        (root.clone(), inside, "state-in-root"),
        (link.join("state"), inside, "state-in-root"),
        (dir.path().join("link/notes/state"), inside, "state-in-root"),
        (dir.path().to_path_buf(), inside, "root-in-state"),
        (
            dir.path().to_path_buf(),
            link.to_str().unwrap(),
            "root-in-state",
        ),
    ];
    for (state, root_arg, rule) in cases {
        for args in commands_on(root_arg) {
            let (out, stderr, code) = with_state(&args, &state);
            let what = format!("{args:?} with the state folder {}", state.display());
            assert_eq!(code, 2, "{what}: {stderr}");
            assert!(out.is_null(), "{what} printed {out}");
            assert!(
                stderr.starts_with(&format!("voicebox {}: {rule}: ", args[0])),
                "{what}: {stderr}"
            );
            assert!(stderr.contains("--state-dir"), "{what}: {stderr}");
        }
    }
    assert_eq!(
        tree(dir.path()),
        before_link,
        "nothing made in the root or the state folder"
    );
    assert_eq!(
        before_link.len(),
        before.len() + 1,
        "only the test's own link was added"
    );

    // Positive control: the same commands with the state folder beside the root.
    let state = dir.path().join("state");
    for args in commands_on(inside).into_iter().take(3) {
        let (out, stderr, code) = with_state(&args, &state);
        assert_eq!(code, 0, "{args:?}: {stderr}");
        assert!(out.is_object(), "{args:?}: {out}");
    }
    assert_eq!(
        with_state(&commands_on(inside)[0], &state).0["result"]["ok"],
        true
    );
    assert!(state.join("shelf").is_dir() && root.join(".audit").is_dir());
}

#[test]
fn serve_refuses_to_start_with_the_state_folder_inside_the_root_and_starts_beside_it() {
    let dir = TempDir::new().unwrap();
    let root = dir.path().join("root");
    std::fs::create_dir(&root).unwrap();
    let (_, stderr, code) = with_state(
        &["serve", "--port", "0", "--root", root.to_str().unwrap()],
        &root.join("state"),
    );
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("state-in-root"), "{stderr}");
    assert!(
        !root.join("state").exists(),
        "no host token was made in the root"
    );
    // Positive control: beside the root it starts and makes its token.
    let state = dir.path().join("state");
    let mut child = Command::new(env!("CARGO_BIN_EXE_voicebox"))
        .args(["serve", "--port", "0", "--root", root.to_str().unwrap()])
        .env_remove("VOICEBOX_ROOT")
        .env("VOICEBOX_STATE_DIR", &state)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    std::io::BufRead::read_line(
        &mut std::io::BufReader::new(child.stdout.take().unwrap()),
        &mut line,
    )
    .unwrap();
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(line.starts_with("listening on "), "{line:?}");
    assert!(state.join("host-token").is_file());
}

#[test]
fn doctor_writes_nothing_into_the_root_it_checks() {
    let dir = TempDir::new().unwrap();
    let root = dir.path().join("root");
    std::fs::create_dir_all(root.join("drafts")).unwrap();
    std::fs::write(root.join("drafts/plan.md"), "plan").unwrap();
    let root_arg = root.to_str().unwrap();
    let doctor = ["doctor", "--root", root_arg, "--port", "0"];

    // Beside the root: every check passes, and the root is as it was.
    let before = tree(&root);
    let state = dir.path().join("state");
    let (report, stderr, code) = with_state(&doctor, &state);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(report["root"]["ok"], true, "{report}");
    assert_eq!(report["stateDir"]["ok"], true, "{report}");
    assert_eq!(report["hostToken"]["present"], true, "{report}");
    assert_eq!(tree(&root), before, "doctor left the root byte for byte");
    assert!(!root.join(".audit").exists());

    // Inside the root: a failing check by name, exit non-zero, still nothing written.
    let (report, stderr, code) = with_state(&doctor, &root.join("drafts/state"));
    assert_eq!(code, 2, "{report}");
    assert!(
        stderr.starts_with("voicebox doctor: state-in-root: "),
        "{stderr}"
    );
    assert_eq!(report["root"]["ok"], true, "{report}");
    assert_eq!(
        (
            report["stateDir"]["ok"].as_bool(),
            report["stateDir"]["refused"].as_str()
        ),
        (Some(false), Some("state-in-root")),
        "{report}"
    );
    assert_eq!(report["hostToken"]["present"], false, "{report}");
    assert_eq!(tree(&root), before, "no token, no audit file in the root");

    // A root that cannot be written is a failing check, found without writing.
    let locked = dir.path().join("locked");
    std::fs::create_dir(&locked).unwrap();
    std::fs::set_permissions(&locked, std::os::unix::fs::PermissionsExt::from_mode(0o500)).unwrap();
    let (report, _, code) = with_state(
        &["doctor", "--root", locked.to_str().unwrap(), "--port", "0"],
        &state,
    );
    let writable = std::fs::write(locked.join("probe"), "x").is_ok();
    assert_eq!(code, 0);
    assert_eq!(report["root"]["ok"], writable, "{report}");
    if !writable {
        let why = report["root"]["why"].as_str().unwrap();
        assert!(why.contains("cannot be written"), "{why}");
    }
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

#[test]
fn audit_verify_exits_zero_on_an_intact_log_and_non_zero_where_it_breaks() {
    let (dir, state) = (TempDir::new().unwrap(), TempDir::new().unwrap());
    let root = dir.path().to_str().unwrap();
    for name in ["a", "b", "c"] {
        let action = format!(r#"{{"verb":"write","name":"{name}.txt","content":"x"}}"#);
        let (_, code) = in_state(state.path(), &["turn", "--root", root, "--action", &action]);
        assert_eq!(code, 0);
    }
    let (out, code) = in_state(state.path(), &["audit", "--root", root, "--verify"]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.starts_with("ok cli-") && out.contains("6 entries"),
        "{out}"
    );
    let (all, code) = in_state(state.path(), &["audit", "--root", root, "--all"]);
    assert_eq!(code, 0);
    let seqs: Vec<u64> = all
        .lines()
        .map(|l| {
            serde_json::from_str::<Value>(l).unwrap()["seq"]
                .as_u64()
                .unwrap()
        })
        .collect();
    assert_eq!(seqs, [6, 5, 4, 3, 2, 1], "every entry, newest first");

    // Whole lines cut from the end: only the anchor in the state folder sees it.
    let log = std::fs::read_dir(dir.path().join(".audit"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let text = std::fs::read_to_string(&log).unwrap();
    let kept: String = text.split_inclusive('\n').take(4).collect();
    std::fs::write(&log, kept).unwrap();
    let (out, code) = in_state(state.path(), &["audit", "--root", root, "--verify"]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.starts_with("broken cli-") && out.contains("truncated"),
        "{out}"
    );
}
