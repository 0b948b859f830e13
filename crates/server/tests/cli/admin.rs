//! The person's own commands at the shell: `doctor`, `admit` and `audit --verify`.

use super::*;

#[test]
fn doctor_reports_each_piece_and_masks_keys() {
    let dir = TempDir::new().unwrap();
    let state = dir.path().join("state");
    voicebox_test_support::put_file(&state, "keys.json", r#"{"openai": "sk-secret-abcd"}"#);
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
    let log = audit_files(dir.path()).remove(0);
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

/// A root written by three `turn`s with the state folder `state`, and its log.
fn written_root(state: &std::path::Path) -> (TempDir, std::path::PathBuf) {
    let dir = TempDir::new().unwrap();
    let root = dir.path().join("root");
    std::fs::create_dir(&root).unwrap();
    for name in ["a", "b", "c"] {
        let action = format!(r#"{{"verb":"write","name":"{name}.txt","content":"x"}}"#);
        let (_, code) = in_state(
            state,
            &[
                "turn",
                "--root",
                root.to_str().unwrap(),
                "--action",
                &action,
            ],
        );
        assert_eq!(code, 0);
    }
    let log = audit_files(&root).remove(0);
    (dir, log)
}

fn verify(state: &std::path::Path, log: &std::path::Path) -> (String, i32) {
    let root = log.parent().unwrap().parent().unwrap().to_str().unwrap();
    in_state(state, &["audit", "--root", root, "--verify"])
}

#[test]
fn audit_verify_names_a_log_gone_renamed_linked_or_emptied_and_exits_one() {
    let state = TempDir::new().unwrap();
    // Control: the intact log passes.
    let (_dir, log) = written_root(state.path());
    let (out, code) = verify(state.path(), &log);
    assert_eq!(code, 0, "{out}");
    assert!(out.starts_with("ok cli-"), "{out}");
    type Tamper = fn(&std::path::Path, &std::path::Path);
    let variants: [(&str, Tamper, &str); 4] = [
        (
            "rm -rf .audit",
            |log, _| std::fs::remove_dir_all(log.parent().unwrap()).unwrap(),
            "missing cli-",
        ),
        (
            "mv the file",
            |log, _| std::fs::rename(log, log.with_extension("jsonl.bak")).unwrap(),
            "missing cli-",
        ),
        (
            "link to an empty folder",
            |log, spare| {
                std::fs::remove_dir_all(log.parent().unwrap()).unwrap();
                std::os::unix::fs::symlink(spare, log.parent().unwrap()).unwrap();
            },
            "missing cli-",
        ),
        (
            "emptied",
            |log, _| std::fs::write(log, "").unwrap(),
            "broken cli-",
        ),
    ];
    for (what, tamper, expect) in variants {
        let state = TempDir::new().unwrap();
        let (dir, log) = written_root(state.path());
        let spare = dir.path().join("spare");
        std::fs::create_dir(&spare).unwrap();
        tamper(&log, &spare);
        let (out, code) = verify(state.path(), &log);
        assert_eq!(code, 1, "{what}: {out}");
        assert!(out.lines().any(|l| l.starts_with(expect)), "{what}: {out}");
    }
}

#[test]
fn audit_verify_names_an_unanchored_tail_and_an_unknown_writer_and_exits_one() {
    let state = TempDir::new().unwrap();
    let (_dir, log) = written_root(state.path());
    // Two lines appended by a writer of the root, the chain recomputed.
    let text = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let mut prev = sha256(lines[lines.len() - 1]);
    let mut forged = text.clone();
    for source in &lines[lines.len() - 2..] {
        let mut entry: Value = serde_json::from_str(source).unwrap();
        entry["seq"] = (entry["seq"].as_u64().unwrap() + 2).into();
        entry["prev"] = prev.into();
        entry["act"]["target"] = "forged-act.txt".into();
        let line = format!("{entry}\n");
        prev = sha256(&line);
        forged.push_str(&line);
    }
    std::fs::write(&log, &forged).unwrap();
    let (out, code) = verify(state.path(), &log);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.starts_with("unanchored-tail cli-") && out.contains("2 entries from line 7"),
        "{out}"
    );
    // A well-formed file for a writer this state folder does not know.
    let other = TempDir::new().unwrap();
    let root = log.parent().unwrap().parent().unwrap().to_str().unwrap();
    let action = r#"{"verb":"write","name":"g.txt","content":"g"}"#;
    assert_eq!(
        in_state(other.path(), &["turn", "--root", root, "--action", action]).1,
        0
    );
    let (out, code) = in_state(other.path(), &["audit", "--root", root, "--verify"]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.lines().any(|l| l.starts_with("unanchored cli-")),
        "{out}"
    );
}

fn sha256(line: &str) -> String {
    voicebox_core::audit::chain::line_hash(line.as_bytes())
}

#[test]
fn doctor_warns_of_a_model_its_vendor_retired_and_passes_the_defaults() {
    let state = TempDir::new().unwrap();
    let doctor = |model: Option<&str>| {
        let mut command = Command::new(env!("CARGO_BIN_EXE_voicebox"));
        command
            .arg("doctor")
            .env("VOICEBOX_STATE_DIR", state.path())
            .env_remove("VOICEBOX_ANTHROPIC_MODEL");
        if let Some(model) = model {
            command.env("VOICEBOX_ANTHROPIC_MODEL", model);
        }
        let out = command.output().unwrap();
        let report: Value = serde_json::from_slice(&out.stdout).unwrap();
        report["models"].as_array().unwrap().clone()
    };
    let defaults = doctor(None);
    assert!(defaults.iter().all(|m| m["ok"] == true), "{defaults:?}");
    let retired = doctor(Some("claude-sonnet-4-5"));
    let claude = retired.iter().find(|m| m["vendor"] == "anthropic").unwrap();
    assert_eq!(claude["ok"], false);
    assert!(
        claude["why"]
            .as_str()
            .unwrap()
            .contains("claude-sonnet-4-6"),
        "{claude}"
    );
}
