//! Understanding with the folder in view, from the command line: a name said
//! in full names that file for every verb, `resolve --root` only looks, a
//! create over an existing file asks, and an append adds a line.

use super::*;

fn folder_with(files: &[(&str, &str)]) -> TempDir {
    let dir = TempDir::new().unwrap();
    for (name, content) in files {
        std::fs::write(dir.path().join(name), content).unwrap();
    }
    dir
}

#[test]
fn the_file_said_in_full_is_the_one_acted_on_and_its_sibling_is_itself() {
    let dir = folder_with(&[("my notes.txt", "scratch"), ("notes.txt", "important")]);
    let asked = turn(dir.path(), "delete my notes.txt");
    assert_eq!(asked["action"]["name"], "my notes.txt", "{asked}");
    assert!(
        asked["result"]["confirm"]["plan"]
            .as_str()
            .unwrap()
            .contains("my notes.txt")
    );
    let read = turn(dir.path(), "what's in my notes dot txt");
    assert_eq!(read["result"]["content"], "scratch", "{read}");
    let sibling = turn(dir.path(), "read notes.txt");
    assert_eq!(sibling["result"]["content"], "important", "{sibling}");
    // `resolve --root` settles the same name and writes nothing into the folder.
    let fresh = folder_with(&[("my notes.txt", "scratch"), ("notes.txt", "important")]);
    let where_ = fresh.path().to_str().unwrap();
    let (resolved, code) = voicebox(&["resolve", "--root", where_, "delete my notes.txt"]);
    assert_eq!(
        (code, &resolved["action"]["name"]),
        (0, &"my notes.txt".into())
    );
    let (plain, _) = voicebox(&["resolve", "delete my notes.txt"]);
    assert_eq!(
        plain["action"]["name"], "notes.txt",
        "without the folder, the words alone"
    );
    assert!(!fresh.path().join(".audit").exists(), "resolve only looks");
}

#[test]
fn two_files_that_fit_are_asked_about_and_one_is_acted_on() {
    let two = folder_with(&[("notes.txt", "a"), ("notes.md", "b")]);
    let asked = turn(two.path(), "open my notes");
    assert!(asked["action"].is_null(), "{asked}");
    let note = asked["note"].as_str().unwrap();
    assert!(
        note.contains("notes.txt") && note.contains("notes.md"),
        "{note}"
    );
    let one = folder_with(&[("notes.txt", "a"), ("todo.md", "b")]);
    assert_eq!(turn(one.path(), "open my notes")["result"]["content"], "a");
}

#[test]
fn create_over_a_file_asks_first_and_append_adds_a_line() {
    let dir = folder_with(&[("notes.txt", "keep me")]);
    let asked = turn(dir.path(), "create a file called notes.txt");
    assert_eq!(
        asked["result"]["confirm"]["rule"], "create-over-existing",
        "{asked}"
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("notes.txt")).unwrap(),
        "keep me"
    );
    let added = turn(dir.path(), "add call mom to notes.txt");
    assert_eq!(added["action"]["verb"], "append", "{added}");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("notes.txt")).unwrap(),
        "keep me\ncall mom"
    );
    let made = turn(dir.path(), "create a file called fresh.txt with hi");
    assert_eq!(
        made["result"]["ok"], true,
        "a new file is made at once: {made}"
    );
}

#[test]
fn a_path_outside_the_folder_is_refused_by_name_not_misheard() {
    let dir = TempDir::new().unwrap();
    for text in [
        "read /etc/passwd", "write hi to /tmp/x.txt", "read ~/notes.txt", "read ../../etc/shadow",
    ] {
        let answer = turn(dir.path(), text);
        assert_eq!(
            answer["result"]["refused"], "outside-root",
            "{text}: {answer}"
        );
    }
    assert_eq!(
        turn(dir.path(), "write hi to inside.txt")["result"]["ok"],
        true
    );
}

#[test]
fn resolve_says_whether_it_is_sure() {
    let (sure, _) = voicebox(&["resolve", "append eggs to todo.txt"]);
    assert_eq!(sure["sure"], true, "{sure}");
    assert_eq!(sure["action"]["verb"], "append");
    let (guess, _) = voicebox(&["resolve", "apend eggs to todo.txt"]);
    assert_eq!(guess["sure"], false, "{guess}");
    assert_eq!(guess["action"]["verb"], "append");
    assert!(guess["assumed"].as_str().unwrap().contains("'apend'"));
    let (none, _) = voicebox(&["resolve", "book me a flight to Lisbon"]);
    assert_eq!(none["sure"], false);
    assert!(none["action"].is_null());
}

#[test]
fn a_guessed_change_is_asked_as_did_you_mean_and_done_on_yes() {
    let dir = folder_with(&[("todo.txt", "milk\n")]);
    let asked = turn(dir.path(), "apend eggs to todo.txt");
    let confirm = &asked["result"]["confirm"];
    assert_eq!(confirm["rule"], "unsure-change", "{asked}");
    assert_eq!(confirm["question"], "Did you mean: add 'eggs' to todo.txt?");
    assert_eq!(confirm["rephrase"], true);
    assert_eq!(
        std::fs::read_to_string(dir.path().join("todo.txt")).unwrap(),
        "milk\n",
        "nothing is done on a guess"
    );
    let root = dir.path().to_str().unwrap();
    let (done, _) = voicebox(&["turn", "--root", root, "--yes", "apend eggs to todo.txt"]);
    assert_eq!(done["asked"]["confirm"]["rule"], "unsure-change", "{done}");
    assert_eq!(done["result"]["ok"], true, "{done}");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("todo.txt")).unwrap(),
        "milk\neggs"
    );
    // The control: the same change said surely is done at once.
    let sure = turn(dir.path(), "append bread to todo.txt");
    assert!(sure["result"]["confirm"].is_null(), "{sure}");
    assert_eq!(sure["result"]["ok"], true);
}

#[test]
fn a_guessed_look_runs_and_says_what_it_assumed() {
    let dir = folder_with(&[("todo.txt", "milk\n")]);
    let read = turn(dir.path(), "raed todo.txt");
    assert_eq!(read["result"]["content"], "milk\n", "{read}");
    assert!(read["note"].as_str().unwrap().contains("'raed' as 'read'"));
    let sure = turn(dir.path(), "read todo.txt");
    assert!(sure["note"].is_null(), "{sure}");
}
