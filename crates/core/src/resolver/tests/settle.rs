//! Names settled against the folder (`settle.rs`): the name said in full, a
//! stem, some of a name's words, "it", and another resolver's answer.

use crate::action::Action;
use crate::resolver::{Folder, Resolution, resolve_in};
use alloc::string::String;

fn folder(names: &[&str]) -> Folder {
    Folder::new(names.iter().map(|n| String::from(*n)).collect())
}

fn named(text: &str, names: &[&str]) -> Option<String> {
    let action = resolve_in(text, &folder(names)).into_action()?;
    action.to_json()["name"].as_str().map(String::from)
}

/// Each sentence of `rows`, said over a folder holding `names`, names the
/// file beside it.
fn names_each(names: &[&str], rows: &[(&str, &str)]) {
    for (said, want) in rows {
        assert_eq!(named(said, names).as_deref(), Some(*want), "{said}");
    }
}

#[test]
fn the_name_said_in_full_wins_for_every_verb_and_its_sibling_stays_itself() {
    let two = ["my notes.txt", "notes.txt"];
    for text in [
        "delete my notes.txt",
        "what's in my notes dot txt",
        "add buy stamps to my notes.txt",
        "in my notes.txt change milk to bread",
        "write hello to my notes.txt",
    ] {
        assert_eq!(named(text, &two).as_deref(), Some("my notes.txt"), "{text}");
    }
    for text in ["delete notes.txt", "read notes dot txt"] {
        assert_eq!(named(text, &two).as_deref(), Some("notes.txt"), "{text}");
    }
    // Without the folder, the words read as before.
    names_each(&[], &[("delete my notes.txt", "notes.txt")]);
}

#[test]
fn a_stem_one_file_fits_is_that_file_and_one_two_fit_is_asked() {
    names_each(&["notes.txt", "todo.md"], &[("open my notes", "notes.txt")]);
    let Resolution::Unresolved { note } =
        resolve_in("open my notes", &folder(&["notes.txt", "notes.md"]))
    else {
        panic!("two files fit: ask");
    };
    assert!(
        note.contains("notes.txt") && note.contains("notes.md"),
        "{note}"
    );
    names_each(
        &["Meeting Notes.txt"],
        &[("read Meeting Notes dot txt", "Meeting Notes.txt")],
    );
    assert_eq!(
        named("write hi to fresh.txt", &["notes.txt"]).as_deref(),
        Some("fresh.txt"),
        "a new name is kept"
    );
}

#[test]
fn it_after_a_turn_on_a_file_is_that_file_and_without_one_is_not_guessed() {
    let after = Folder::default().after(Some("my notes.txt".into()));
    let Resolution::Action(action) = resolve_in("delete it", &after) else {
        panic!("it is the previous file");
    };
    assert_eq!(action.to_json()["name"], "my notes.txt");
    assert!(matches!(
        resolve_in("delete it", &Folder::default()),
        Resolution::Unresolved { .. }
    ));
    let Resolution::Action(read) = resolve_in("what's in it", &after) else {
        panic!("a read of it");
    };
    assert_eq!(read.to_json()["verb"], "read");
    let named = folder(&["notes.md"]).after(Some("notes.md".into()));
    let Resolution::Action(read) = resolve_in("what's in it", &named) else {
        panic!("a read of it, with the folder's names too");
    };
    assert_eq!(read.to_json()["name"], "notes.md");
}

#[test]
fn another_resolvers_answer_is_settled_the_same_way() {
    let short = Resolution::Action(Action::Delete {
        name: "notes.txt".into(),
    });
    let two = folder(&["my notes.txt", "notes.txt"]);
    let Resolution::Action(action) =
        crate::resolver::settled("delete my notes.txt", short.clone(), &two)
    else {
        panic!("an action stays an action");
    };
    assert_eq!(action.to_json()["name"], "my notes.txt");
    assert_eq!(
        crate::resolver::settled("delete notes.txt", short.clone(), &two),
        short
    );
}

#[test]
fn a_name_said_by_some_of_its_words_is_the_one_file_that_has_them() {
    for (said, names, want) in [
        (
            "open the budget",
            &["Budget 2026.xlsx", "notes.md"][..],
            "Budget 2026.xlsx",
        ),
        (
            "please open the March meeting notes",
            &["Meeting Notes - March.md", "budget.csv"],
            "Meeting Notes - March.md",
        ),
        (
            "open chapter two",
            &["chapter 2.md", "chapter 3.md"],
            "chapter 2.md",
        ),
        ("delete the log", &["server.log", "notes.txt"], "server.log"),
        ("delete the old log", &["old.log", "app.log"], "old.log"),
        ("cat Makefile", &["Makefile", "notes.md"], "Makefile"),
        (
            "Please delete the Q3 report.",
            &["Q3 report.docx", "notes.txt"],
            "Q3 report.docx",
        ),
    ] {
        assert_eq!(named(said, names).as_deref(), Some(want), "{said}");
    }
    // Two that hold the words equally are asked about; none is no guess.
    let Resolution::Unresolved { note } = resolve_in(
        "open my notes",
        &folder(&["photo notes.txt", "trip notes.txt"]),
    ) else {
        panic!("two fit: ask");
    };
    assert!(
        note.contains("photo notes.txt") && note.contains("trip notes.txt"),
        "{note}"
    );
    assert_eq!(named("open the budget", &["notes.md"]), None);
}

#[test]
fn a_name_said_with_other_separators_or_a_number_in_words_is_the_file_on_disk() {
    let files = ["hive-log.md", "todo.txt", "chapter3.md", "Vows_v2.md"];
    names_each(
        &files,
        &[
            ("what's in hive log dot md", "hive-log.md"),
            ("how large is hive log dot md", "hive-log.md"),
            ("add buy grout to to do dot txt", "todo.txt"),
            ("read to-do.txt", "todo.txt"),
            ("open chapter three dot md", "chapter3.md"),
            ("delete vows v2 dot md", "Vows_v2.md"),
        ],
    );
    // Two files alike but for separators: neither is taken for the other.
    let both = ["hive-log.md", "hive_log.md"];
    names_each(&both, &[("read hive-log.md", "hive-log.md")]);
    assert_ne!(
        named("read hive log dot md", &both).as_deref(),
        Some("hive-log.md")
    );
    assert_ne!(
        named("read hive log dot md", &both).as_deref(),
        Some("hive_log.md")
    );
    // Other words are another file: "hive logs" is not `hive-log.md`.
    names_each(&files, &[("read hive logs dot md", "hive-logs.md")]);
}

/// A sentence naming a file the folder lacks is not asked about every file
/// that shares its extension; the control: a stem it does say is found.
#[test]
fn a_name_not_in_the_folder_is_no_question_about_its_extension() {
    let files = ["budget.md", "plan.md", "members.md"];
    let got = resolve_in(
        "let me peek at the final lines of transcript.md",
        &folder(&files),
    );
    assert!(
        !matches!(&got, Resolution::Unresolved { note } if note.contains("budget.md")),
        "{got:?}"
    );
    names_each(&files, &[("show me the budget", "budget.md")]);
}

/// "the members list" names the list file the folder has for "members":
/// its item is taken off (asked, as a list's line is a guess); a bare
/// "the list" names no file.
#[test]
fn a_list_said_by_what_it_lists_is_its_file() {
    let files = ["members.md", "loans.md", "packing-list.md"];
    let got = resolve_in("remove Gerald from the members list", &folder(&files));
    assert_eq!(
        got.action(),
        Some(&Action::RemoveItem {
            name: "members.md".into(),
            item: "Gerald".into()
        }),
        "{got:?}"
    );
    assert!(matches!(got, Resolution::Action(_)));
    names_each(
        &files,
        &[("cross eggs off the packing list", "packing-list.md")],
    );
    assert_eq!(named("remove Gerald from the list", &files), None);
}

/// A new folder or file inside a folder said in another case is made in
/// the folder as it is on disk; the control: a folder that is not there
/// keeps the case it was said in.
#[test]
fn a_new_path_goes_in_its_folder_as_on_disk() {
    let files = ["recipes/pho.md", "shopping.md"];
    names_each(
        &files,
        &[
            ("make a desserts folder inside Recipes", "recipes/desserts"),
            (
                "create a file called RECIPES/dal.md with lentils",
                "recipes/dal.md",
            ),
            ("make a folder called 2026 in Invoices", "Invoices/2026"),
        ],
    );
}

/// Of two files the sentence names as well, the one said where a request
/// names its file (last, after "to" or "in") is meant; a name said twice
/// is meant where it is said last as words of its own.
#[test]
fn the_file_said_last_after_to_is_the_one_acted_on() {
    let files = [
        "bookings.md", "flash/rose.md", "camp/kit.md", "shopping.md", "kit.md",
    ];
    names_each(
        &files,
        &[
            (
                "add Jess, fine-line rose, Thurs 2pm to bookings",
                "bookings.md",
            ),
            ("add first aid kit to the shopping list", "shopping.md"),
        ],
    );
    let camp = ["camp/kit.md", "badges.md"];
    names_each(
        &camp,
        &[("add first aid kit to the kit list", "camp/kit.md")],
    );
    let copy = resolve_in(
        "make a copy of the kit list called kit-winter.md",
        &folder(&["kit.md", "menu.md"]),
    );
    assert_eq!(
        copy.action(),
        Some(&Action::Copy {
            name: "kit.md".into(),
            to: "kit-winter.md".into()
        })
    );
    // Of a stem and a longer one, the longer whose every word is said is
    // meant, asked; the stem alone still asks which.
    let rotas = folder(&["rota.md", "rota-old.md"]);
    assert!(matches!(
        resolve_in("delete the old rota", &rotas),
        Resolution::Guess { action: Action::Delete { ref name }, .. } if name == "rota-old.md"
    ));
    assert!(matches!(
        resolve_in("read the rota", &rotas),
        Resolution::Unresolved { .. }
    ));
    // Neither said where a file is named: which one is asked.
    assert!(matches!(
        resolve_in("rose bookings", &folder(&files)),
        Resolution::Unresolved { .. }
    ));
}

/// Where a file goes, said in another case, is the folder as on disk; a
/// rename keeps the file in its folder; a list said in the singular is the
/// file named in the plural; a copy "saved as" a name.
#[test]
fn places_and_new_names_settle_on_the_folder() {
    let files = [
        "Closed/t1.md", "t44.md", "stall/sold.md", "guests.md", "notes.md",
    ];
    let acted = |said: &str| resolve_in(said, &folder(&files)).into_action();
    let moved = |name: &str, to: &str| {
        Some(Action::Move {
            name: name.into(),
            to: to.into(),
        })
    };
    assert_eq!(acted("move t44.md into closed"), moved("t44.md", "Closed"));
    assert_eq!(
        acted("rename sold to sold-2026.md"),
        moved("stall/sold.md", "stall/sold-2026.md")
    );
    assert_eq!(
        acted("rename kiln/firing-12.md to firing-12-cracked.md"),
        moved("kiln/firing-12.md", "kiln/firing-12-cracked.md")
    );
    // A move names its place: the file goes where it is said to.
    assert_eq!(
        acted("move stall/sold.md to sold.md"),
        moved("stall/sold.md", "sold.md")
    );
    assert_eq!(
        acted("take Oliver off the guest list"),
        Some(Action::RemoveItem {
            name: "guests.md".into(),
            item: "Oliver".into()
        })
    );
    assert_eq!(
        acted("I'd like a copy of notes.md saved as notes-2026.md"),
        Some(Action::Copy {
            name: "notes.md".into(),
            to: "notes-2026.md".into()
        })
    );
}

/// A file said first "on" it, named by what it is ("on the recall list",
/// "on the classes file"), is where the change said after it is made.
#[test]
fn a_change_said_on_a_file_named_first() {
    let files = folder(&["recall.md", "classes.md", "teachers.md"]);
    assert_eq!(
        resolve_in("on the recall list change Mrs Okafor to Dr Okafor", &files).into_action(),
        Some(Action::Edit {
            name: "recall.md".into(),
            old_text: "Mrs Okafor".into(),
            new_text: "Dr Okafor".into(),
            expect: None,
        })
    );
    assert_eq!(
        named(
            "on the classes file swap Yin for Restorative",
            &["classes.md", "teachers.md"]
        )
        .as_deref(),
        Some("classes.md")
    );
    assert!(matches!(
        resolve_in("on the bus change seats", &files),
        Resolution::Unresolved { .. }
    ));
}

/// A file named for a person, said as theirs ("Bruno's notes"), is that
/// file.
#[test]
fn a_file_said_as_someones_is_the_file_named_for_them() {
    let files = ["patients/bruno.md", "patients/luna.md", "rota.md"];
    names_each(
        &files,
        &[
            ("pull up Bruno's notes", "patients/bruno.md"),
            (
                "add stitches out 12 Dec to Luna's notes",
                "patients/luna.md",
            ),
        ],
    );
    assert_eq!(named("pull up Max's notes", &files), None);
}
