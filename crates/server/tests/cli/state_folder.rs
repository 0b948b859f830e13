//! Where the state folder may be: every command refuses one inside the root by
//! name, and a check of a root leaves nothing in it.

use super::*;

/// The commands that act on a root with a state folder, each given the root.
fn commands_on(root: &str) -> [Vec<&str>; 4] {
    [
        vec!["turn", "--root", root, "list files"],
        vec!["audit", "--root", root],
        vec!["admit", "clock", "--root", root],
        vec!["serve", "--port", "0", "--root", root],
    ]
}

/// `dir/root`, holding one file `name` (its folders made) with `text`.
fn root_holding(dir: &TempDir, name: &str, text: &str) -> std::path::PathBuf {
    let root = dir.path().join("root");
    voicebox_test_support::put_file(&root, name, text);
    root
}

#[test]
fn a_state_folder_inside_the_root_refuses_every_command_by_name() {
    let dir = TempDir::new().unwrap();
    let root = root_holding(&dir, "notes/a.txt", "mine");
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
    let (line, _) = serve_once(&root, &state);
    assert!(line.starts_with("listening on "), "{line:?}");
    assert!(state.join("host-token").is_file());
}

#[test]
fn doctor_writes_nothing_into_the_root_it_checks() {
    let dir = TempDir::new().unwrap();
    let root = root_holding(&dir, "drafts/plan.md", "plan");
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

/// Starts `serve` on `root` with the state folder `state`, reads the line
/// it prints first, stops it, and returns that line and all it logged.
fn serve_once(root: &std::path::Path, state: &std::path::Path) -> (String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_voicebox"))
        .args(["serve", "--port", "0", "--root", root.to_str().unwrap()])
        .env_remove("VOICEBOX_ROOT")
        .env("VOICEBOX_STATE_DIR", state)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    std::io::BufRead::read_line(
        &mut std::io::BufReader::new(child.stdout.take().unwrap()),
        &mut line,
    )
    .unwrap();
    child.kill().unwrap();
    let mut logged = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut logged).unwrap();
    child.wait().unwrap();
    (line, logged)
}

/// A first run names a folder that does not exist yet: it is made, the
/// console says so, and the server starts in it; a second start on it says
/// nothing of it and leaves what it holds.
#[test]
fn serve_makes_a_missing_root_and_says_so() {
    let dir = TempDir::new().unwrap();
    let (root, state) = (dir.path().join("voicebox-notes"), dir.path().join("state"));
    let (line, logged) = serve_once(&root, &state);
    assert!(line.starts_with("listening on "), "{line:?}");
    assert!(logged.contains("made the folder"), "{logged:?}");
    assert!(root.is_dir(), "the declared folder was made");

    std::fs::write(root.join("kept.txt"), "kept").unwrap();
    let (line, logged) = serve_once(&root, &state);
    assert!(line.starts_with("listening on "), "{line:?}");
    assert!(!logged.contains("made the folder"), "{logged}");
    assert_eq!(
        std::fs::read_to_string(root.join("kept.txt")).unwrap(),
        "kept"
    );
}
