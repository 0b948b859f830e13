//! A folder whose `.voicebox`, `.audit` or a folder under them is a link, a
//! pipe or a file is not worked in: `serve`, `turn` and `mcp` say so by name
//! and exit non-zero, the folder switch refuses it, and nothing in the folder
//! changes — the old files an archive or a clone brought stay. The same
//! folder without the plant opens.

mod common;
#[path = "../../machine/tests/planted/mod.rs"]
mod planted;

use serde_json::{Value, json};
use std::os::unix::fs::symlink;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use tempfile::TempDir;

const RULE: &str = "host-folder-not-a-folder";

/// Runs `voicebox args` with the state folder `state` and nothing on stdin,
/// killed (and failed) if it has not exited within a minute: stdout, stderr
/// and the exit code.
fn run(args: &[&str], state: &Path) -> (String, String, i32) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_voicebox"));
    common::clean_env(&mut command);
    let mut child = command
        .args(args)
        .env("VOICEBOX_STATE_DIR", state)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > Duration::from_secs(60) {
            child.kill().unwrap();
            panic!("{args:?} kept running on a refused folder");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
        out.status.code().unwrap(),
    )
}

/// The commands that open a root.
fn commands(root: &str) -> [Vec<&str>; 3] {
    [
        vec!["turn", "--root", root, "--action", r#"{"verb":"list"}"#],
        vec!["mcp", "--root", root],
        vec!["serve", "--port", "0", "--root", root],
    ]
}

/// Every file under `dir` (links not followed, never opening a pipe) and its
/// bytes, sorted.
fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let meta = std::fs::symlink_metadata(&path).unwrap();
        let name = path.display().to_string();
        if meta.is_dir() {
            out.push((name, Vec::new()));
            out.extend(files(&path));
        } else if meta.is_file() {
            out.push((name, std::fs::read(&path).unwrap()));
        } else {
            out.push((name, b"(not a file)".to_vec()));
        }
    }
    out.sort();
    out
}

#[test]
fn a_link_in_the_host_folder_stops_serve_turn_and_mcp_by_name_and_keeps_every_file() {
    let dir = TempDir::new().unwrap();
    let (root, state) = (dir.path().join("root"), dir.path().join("state"));
    std::fs::create_dir_all(root.join(".voicebox")).unwrap();
    planted::old_files(&root);
    symlink("..", root.join(".voicebox/tmp")).unwrap();
    let before = files(&root);
    for args in commands(root.to_str().unwrap()) {
        let (_, stderr, code) = run(&args, &state);
        assert_ne!(code, 0, "{args:?}: {stderr}");
        assert!(
            stderr.contains(RULE) && stderr.contains(".voicebox/tmp") && stderr.contains("a link"),
            "{args:?}: {stderr}"
        );
        assert_eq!(files(&root), before, "{args:?}: nothing removed or made");
    }
    // Positive control: the link gone, every command works there and the
    // old files stay.
    std::fs::remove_file(root.join(".voicebox/tmp")).unwrap();
    let (out, stderr, code) = run(&commands(root.to_str().unwrap())[0], &state);
    assert_eq!(code, 0, "{stderr}");
    let out: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(out["result"]["ok"], true, "{out}");
    planted::assert_old_files_kept(&root);
}

#[test]
fn host_folders_that_are_links_pipes_or_files_are_refused_by_name() {
    for (plant, name, found) in planted::plants() {
        let dir = TempDir::new().unwrap();
        let (root, state) = (dir.path().join("root"), dir.path().join("state"));
        std::fs::create_dir_all(root.join("pub")).unwrap();
        plant(&root);
        let before = files(&root);
        let (_, stderr, code) = run(&commands(root.to_str().unwrap())[0], &state);
        assert_eq!(code, 2, "{name}: {stderr}");
        assert!(
            stderr.starts_with(&format!("voicebox turn: {RULE}: {name} in ")),
            "{name}: {stderr}"
        );
        assert!(stderr.contains(found), "{name}: {stderr}");
        assert_eq!(files(&root), before, "{name}: nothing written through it");
    }
}

#[tokio::test]
async fn the_folder_switch_refuses_a_root_whose_log_folder_is_a_link() {
    let server = common::Server::start_with(false);
    let dir = TempDir::new().unwrap();
    let root = dir.path().join("cloned");
    std::fs::create_dir_all(root.join("pub")).unwrap();
    symlink("pub", root.join(".audit")).unwrap();
    let (status, reply) = server
        .post_with_token("/api/root", json!({"path": root}))
        .await;
    assert_eq!(status, 200);
    common::assert_refused_saying(&reply, RULE, "remove or rename .audit");
    assert_eq!(std::fs::read_dir(root.join("pub")).unwrap().count(), 0);
    let (_, now) = server.get("/api/root").await;
    assert_eq!(now["declared"], false, "{now}");
    // Positive control: an ordinary `.audit` folder is switched to.
    std::fs::remove_file(root.join(".audit")).unwrap();
    std::fs::create_dir(root.join(".audit")).unwrap();
    let (_, reply) = server
        .post_with_token("/api/root", json!({"path": root}))
        .await;
    assert_eq!(reply["declared"], true, "{reply}");
}
