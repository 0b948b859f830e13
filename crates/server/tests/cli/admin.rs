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
