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
        "read /etc/passwd",
        "write hi to /tmp/x.txt",
        "read ~/notes.txt",
        "read ../../etc/shadow",
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
