//! The state folder: apart from the root, its secrets private, its keys masked.
use super::*;

#[test]
fn the_token_is_created_once_with_mode_0600() {
    let dir = tempfile::TempDir::new().unwrap();
    let state = StateDir::new(Some(dir.path().join("state")));
    let token = state.host_token().unwrap();
    assert_eq!(token.len(), 64);
    assert_eq!(state.host_token().unwrap(), token);
    let mode = fs::metadata(dir.path().join("state/host-token"))
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o600);
}

/// A parent folder holding `root/` and `root/inside/`.
fn layout() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::TempDir::new().unwrap();
    let root = dir.path().join("root");
    fs::create_dir_all(root.join("inside")).unwrap();
    (dir, root)
}

fn overlap(root: &Path, state: PathBuf) -> Option<Rule> {
    StateDir::new(Some(state))
        .apart_from(root)
        .err()
        .map(|refusal| refusal.rule)
}

/// Why `state` is not apart from `root` (it must not be).
fn refused_why(root: &Path, state: PathBuf) -> String {
    StateDir::new(Some(state)).apart_from(root).unwrap_err().why
}

#[test]
fn a_state_folder_beside_the_root_is_apart() {
    let (dir, root) = layout();
    assert_eq!(overlap(&root, dir.path().join("state")), None);
    // A name that only starts with the root's is beside it, not inside.
    assert_eq!(overlap(&root, dir.path().join("root-state")), None);
    assert_eq!(overlap(&root.join("inside"), root.join("state")), None);
    // Not made yet, and spelled with `..` back out of the root.
    assert_eq!(overlap(&root, root.join("new/../../state")), None);
}

#[test]
fn a_state_folder_in_the_root_or_the_root_itself_is_refused() {
    let (_dir, root) = layout();
    assert_eq!(overlap(&root, root.clone()), Some(Rule::StateInRoot));
    assert_eq!(overlap(&root, root.join("inside")), Some(Rule::StateInRoot));
    // Not made yet: compared where it would be made.
    assert_eq!(
        overlap(&root, root.join("not/yet/state")),
        Some(Rule::StateInRoot)
    );
    assert_eq!(
        overlap(&root, root.join("inside/../state")),
        Some(Rule::StateInRoot)
    );
    let why = refused_why(&root, root.join("state"));
    assert!(why.contains("--state-dir"), "{why}");
}

#[test]
fn a_dangling_link_is_compared_where_it_points() {
    let (dir, root) = layout();
    let into_root = dir.path().join("dangle");
    std::os::unix::fs::symlink(root.join("not-yet"), &into_root).unwrap();
    assert_eq!(overlap(&root, into_root), Some(Rule::StateInRoot));
    // Positive control: a dangling link that points beside the root.
    let beside = dir.path().join("beside");
    std::os::unix::fs::symlink(dir.path().join("later"), &beside).unwrap();
    assert_eq!(overlap(&root, beside), None);
    // A relative target is read from the link's own folder.
    let relative = dir.path().join("relative");
    std::os::unix::fs::symlink("root/inside/later", &relative).unwrap();
    assert_eq!(overlap(&root, relative), Some(Rule::StateInRoot));
}

#[test]
fn a_root_inside_the_state_folder_is_refused() {
    let (_dir, root) = layout();
    assert_eq!(
        overlap(&root.join("inside"), root.clone()),
        Some(Rule::RootInState)
    );
    let why = refused_why(&root.join("inside"), root.clone());
    assert!(why.contains("outside"), "{why}");
}

#[test]
fn symlinked_spellings_are_compared_as_real_paths() {
    let (dir, root) = layout();
    let link = dir.path().join("link-to-root");
    std::os::unix::fs::symlink(&root, &link).unwrap();
    assert_eq!(overlap(&link, root.join("state")), Some(Rule::StateInRoot));
    assert_eq!(overlap(&root, link.join("state")), Some(Rule::StateInRoot));
    assert_eq!(
        overlap(&link.join("inside"), root.clone()),
        Some(Rule::RootInState)
    );
    // A link inside the root to a state folder outside it: apart.
    fs::create_dir(dir.path().join("state")).unwrap();
    std::os::unix::fs::symlink(dir.path().join("state"), root.join("state-link")).unwrap();
    assert_eq!(overlap(&root, root.join("state-link")), None);
}

#[test]
fn keys_store_remove_and_mask() {
    let dir = tempfile::TempDir::new().unwrap();
    let state = StateDir::new(Some(dir.path().to_path_buf()));
    let mut changes = BTreeMap::new();
    changes.insert(Provider::Gemini, Some("sk-secret-1234".to_string()));
    state.update_keys(&changes).unwrap();
    let status = state.key_status().unwrap();
    assert_eq!(
        status["gemini"],
        KeyStatus {
            set: true,
            last4: Some("1234".into())
        }
    );
    assert!(!status["openai"].set);
    let mode = fs::metadata(dir.path().join("keys.json"))
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o600);
    changes.insert(Provider::Gemini, Some(String::new()));
    state.update_keys(&changes).unwrap();
    assert!(!state.key_status().unwrap()["gemini"].set);
}

fn mode(path: &Path) -> u32 {
    fs::symlink_metadata(path).unwrap().permissions().mode() & 0o777
}

#[test]
fn a_stale_open_temporary_lends_the_keys_no_mode_and_a_link_no_target() {
    let dir = tempfile::TempDir::new().unwrap();
    let state = StateDir::new(Some(dir.path().to_path_buf()));
    // What the old fixed temporary name was: stale, 0666, and a link.
    let stale = dir.path().join(".keys.json.tmp");
    fs::write(&stale, "").unwrap();
    fs::set_permissions(&stale, fs::Permissions::from_mode(0o666)).unwrap();
    let outside = dir.path().join("outside");
    std::os::unix::fs::symlink(&outside, dir.path().join(".host-token.tmp")).unwrap();
    let changes = BTreeMap::from([(Provider::Openai, Some("sk-test-1234".to_string()))]);
    state.update_keys(&changes).unwrap();
    assert_eq!(mode(&dir.path().join("keys.json")), 0o600);
    state.host_token().unwrap();
    assert_eq!(mode(&dir.path().join("host-token")), 0o600);
    assert!(!outside.exists(), "nothing was written through the link");
    let leftovers = fs::read_dir(dir.path())
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .file_name()
                .to_string_lossy()
                .ends_with(".tmp")
        })
        .count();
    assert_eq!(leftovers, 2, "only the two planted files");
}

#[test]
fn secrets_others_could_read_are_repaired_and_the_token_replaced() {
    let dir = tempfile::TempDir::new().unwrap();
    let state = StateDir::new(Some(dir.path().to_path_buf()));
    let token = state.host_token().unwrap();
    // The 0600 sibling: the same token, read again.
    assert_eq!(state.host_token().unwrap(), token);
    let token_file = dir.path().join("host-token");
    fs::set_permissions(&token_file, fs::Permissions::from_mode(0o644)).unwrap();
    let fresh = state.host_token().unwrap();
    assert_ne!(fresh, token, "a token others could read is replaced");
    assert_eq!(mode(&token_file), 0o600);
    let keys = dir.path().join("keys.json");
    fs::write(&keys, r#"{"openai": "sk-kept-9876"}"#).unwrap();
    fs::set_permissions(&keys, fs::Permissions::from_mode(0o666)).unwrap();
    assert_eq!(state.keys().unwrap()["openai"], "sk-kept-9876");
    assert_eq!(mode(&keys), 0o600);
    // A link in a secret's place is refused, never followed.
    fs::remove_file(&keys).unwrap();
    fs::write(dir.path().join("elsewhere"), "{}").unwrap();
    std::os::unix::fs::symlink(dir.path().join("elsewhere"), &keys).unwrap();
    assert!(state.keys().is_err());
}
