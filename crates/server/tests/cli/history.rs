//! "What did I change today" at the command line, over a repository the
//! test builds with gitoxide: answered by reading `.git` in the process,
//! with no `git` (or any other program) run — strace sees one execve, the
//! binary's own. Without strace the test skips loudly, except under CI.

use super::voicebox;
use std::path::Path;
use std::process::Command;
use tempfile::TempDir;

#[path = "../common/repo.rs"]
mod repo;

/// A folder whose repository committed `notes.md` three days ago; the
/// note has changed since.
fn changed_repository() -> TempDir {
    let dir = TempDir::new().unwrap();
    repo::changed_repository(dir.path());
    dir
}

#[test]
fn what_did_i_change_today_is_answered_from_the_repository() {
    let dir = changed_repository();
    let root = dir.path().to_str().unwrap();
    let (out, code) = voicebox(&["turn", "--root", root, "what did I change today"]);
    assert_eq!(code, 0);
    assert_eq!(out["action"]["verb"], "changes", "{out}");
    assert_eq!(out["result"]["ok"], true, "{out}");
    assert_eq!(out["result"]["changes"][0]["path"], "notes.md");
    assert_eq!(out["result"]["changes"][0]["added"], 1);
    // The control: a folder with no repository is refused by name.
    let bare = TempDir::new().unwrap();
    let (out, _) = voicebox(&[
        "turn",
        "--root",
        bare.path().to_str().unwrap(),
        "what did I change today",
    ]);
    assert_eq!(out["result"]["refused"], "not-a-repository", "{out}");
}

#[test]
fn reading_the_history_runs_no_program() {
    if !Path::new("/usr/bin/strace").exists() {
        assert!(
            std::env::var("CI").is_err(),
            "strace is missing under CI: scripts/test installs it"
        );
        eprintln!("SKIPPED: strace is not installed; install it to check no process is spawned");
        return;
    }
    let dir = changed_repository();
    let state = TempDir::new().unwrap();
    let trace = state.path().join("trace.txt");
    let bin = env!("CARGO_BIN_EXE_voicebox");
    let out = Command::new("/usr/bin/strace")
        .args(["-f", "-e", "trace=execve", "-o"])
        .arg(&trace)
        .arg(bin)
        .args([
            "turn",
            "--root",
            dir.path().to_str().unwrap(),
            "what did I change today",
        ])
        .env_remove("VOICEBOX_ROOT")
        .env("VOICEBOX_STATE_DIR", state.path())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("\"changes\""), "{stdout}");
    let trace = std::fs::read_to_string(&trace).unwrap();
    let execs: Vec<&str> = trace.lines().filter(|l| l.contains("execve(")).collect();
    assert_eq!(execs.len(), 1, "{trace}");
    assert!(execs[0].contains(bin), "{trace}");
}
