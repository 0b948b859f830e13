//! Looks and copies said loosely: a version said before the file or as
//! what a diff compares with, when a file was last updated, what a folder
//! holds, a copy wished for, and places outside the folder said in words.

use super::super::{Resolution, resolve};
use super::{assert_table, edit, guess, nothing, read_at, sure};
use crate::action::Action;

#[test]
fn a_version_said_before_the_file_or_as_a_look_is_read_at_that_moment() {
    assert_eq!(
        sure("read yesterday's version of tides.md"),
        read_at("tides.md", "yesterday")
    );
    assert_eq!(
        sure("show me the committed copy of logbook.md"),
        read_at("logbook.md", "last commit")
    );
    assert_eq!(
        sure("what did logbook.md look like at the last commit?"),
        read_at("logbook.md", "last commit")
    );
    // Without a version, a copy of a file is no read of one.
    assert!(!matches!(
        resolve("read the copy of tides.md"),
        Resolution::Action(Action::Read { at: Some(_), .. })
    ));
    assert!(matches!(
        sure("what did I write in logbook.md"),
        Action::Read { at: None, .. }
    ));
}

#[test]
fn a_diff_with_a_moment_compares_with_that_version_not_with_its_words() {
    assert_eq!(
        sure("show me how kiln.md differs from yesterday"),
        Action::Diff {
            name: "kiln.md".into(),
            content: None,
            against: Some("yesterday".into()),
        }
    );
    assert_eq!(
        sure("how would kiln.md differ from 'cone 6'"),
        Action::Diff {
            name: "kiln.md".into(),
            content: Some("cone 6".into()),
            against: None,
        }
    );
}

#[test]
fn history_and_changes_said_loosely() {
    assert_eq!(
        sure("show me the uncommitted changes"),
        Action::Changes { since: None }
    );
    assert_eq!(
        sure("what have I changed in this folder since I last committed"),
        Action::Changes { since: None }
    );
    assert_eq!(
        sure("last three commits that touched prices.md"),
        Action::History {
            name: Some("prices.md".into()),
            limit: Some(3),
        }
    );
    nothing("show me the uncommitted");
}

#[test]
fn when_a_file_was_updated_and_what_a_folder_holds() {
    let info = |name: &str| Action::Info { name: name.into() };
    assert_eq!(sure("when did I last update tank.md?"), info("tank.md"));
    assert_eq!(sure("file info for tank.md please"), info("tank.md"));
    assert_eq!(
        sure("what files are in my folder"),
        Action::List { dir: None }
    );
    nothing("when did I last update my car");
}

#[test]
fn a_copy_wished_for_is_a_copy() {
    let copy = |name: &str, to: &str| Action::Copy {
        name: name.into(),
        to: to.into(),
    };
    assert_eq!(
        sure("I'd like a copy of fleet.md named fleet-2027.md"),
        copy("fleet.md", "fleet-2027.md")
    );
    assert_eq!(
        sure("make a backup copy of crew.md called crew-backup.md"),
        copy("crew.md", "crew-backup.md")
    );
    nothing("I'd like a copy of the newspaper");
}

#[test]
fn places_outside_the_folder_said_in_words_are_not_listed() {
    for said in [
        "what's in the parent folder?",
        "show me what's in my home folder",
        "list my desktop",
        "list the files in the parent folder",
    ] {
        nothing(said);
    }
    // A folder of the root called so is listed.
    assert_eq!(
        sure("list the parents folder"),
        Action::List {
            dir: Some("parents".into())
        }
    );
}

#[test]
fn thanks_after_undo_and_a_correction_after_sorry() {
    assert_eq!(sure("undo last change thanks"), Action::Undo { name: None });
    assert_eq!(
        guess("in prints.md replace A3 with A4, sorry, I mean A2"),
        edit("prints.md", "A3", "A2")
    );
}

/// Texting spellings ("u", "pls", "plz") are the words they stand for;
/// reads said loosely ("let me have a look at", "how does X look",
/// "remind me what's on"), a day written as a date, a diff asked to be
/// seen, and what we have got in a folder.
#[test]
fn looks_said_loosely_or_in_texting_spellings() {
    let read = |name: &str| Action::Read {
        name: name.into(),
        first: None,
        last: None,
        at: None,
    };
    assert_eq!(sure("plz show hops dot txt"), read("hops.txt"));
    assert_eq!(
        sure("can u delete litter.md pls"),
        Action::Delete {
            name: "litter.md".into()
        }
    );
    assert_eq!(
        sure("let me have a look at kites/box.md"),
        read("kites/box.md")
    );
    assert_eq!(sure("How does erg.md look right now?"), read("erg.md"));
    assert_eq!(sure("remind me what's on wishlist.md"), read("wishlist.md"));
    assert_eq!(
        sure("what was in starter.md on 2026-11-20"),
        read_at("starter.md", "2026-11-20")
    );
    assert_eq!(
        sure("Can I see yesterday's version of budget.md?"),
        read_at("budget.md", "yesterday")
    );
    assert_eq!(
        sure("Can I see a diff of log.md against last commit"),
        Action::Diff {
            name: "log.md".into(),
            content: None,
            against: Some("last commit".into()),
        }
    );
    assert_eq!(
        sure("what have we got in the solar folder"),
        Action::List {
            dir: Some("solar".into())
        }
    );
    assert_eq!(
        sure("Have I modified anything since I last committed?"),
        Action::Changes { since: None }
    );
    // Words that only look like the spellings stay what they are.
    nothing("how does grep work");
    nothing("u2 is a band");
}

/// A line taken off a list, with a remark after it: the remark is dropped;
/// a remark that takes the request back leaves it undone.
#[test]
fn a_line_taken_off_a_list_file_with_a_remark_after_it() {
    assert_eq!(
        sure("remove Inverted Jenny from my wishlist.md, never gonna happen"),
        Action::RemoveItem {
            name: "wishlist.md".into(),
            item: "Inverted Jenny".into(),
        }
    );
    assert_eq!(
        sure("drop ice axe from packing.md"),
        Action::RemoveItem {
            name: "packing.md".into(),
            item: "ice axe".into(),
        }
    );
    // A remark that takes the request back leaves it undone.
    assert!(!matches!(
        resolve("remove Inverted Jenny from my wishlist.md, never mind"),
        Resolution::Action(_) | Resolution::Guess { .. }
    ));
    // Of a file no list's name says, a name is a line too (a file with no
    // list items refuses by name); a number may be a piece of a line, asked.
    assert_table(
        "remove Tom from notes.md => remove_item notes.md | Tom
         remove 2 eggs from notes.md ?=> edit notes.md | 2 eggs | ",
    );
}

/// A search said in words is not read as the shell's `grep PATTERN DIR`,
/// and "my notes" is everything kept here, not a folder called so.
#[test]
fn searches_said_in_words_keep_their_words() {
    let grep = |query: &str, dir: Option<&str>| Action::Grep {
        query: query.into(),
        dir: dir.map(Into::into),
    };
    assert_eq!(sure("grep for Penny Black"), grep("Penny Black", None));
    assert_eq!(sure("grep budget drafts"), grep("budget", Some("drafts")));
    assert_eq!(
        sure("can you search my notes for Capanna"),
        grep("Capanna", None)
    );
    assert_eq!(
        sure("search my notes folder for Capanna"),
        grep("Capanna", Some("notes"))
    );
}

/// A line pointed back at across a dash, and a pronoun never taken as the
/// words to remove.
#[test]
fn a_line_pointed_back_at_across_a_dash() {
    assert_eq!(
        guess("Mr Brown dropped out — remove him from pta/volunteers.md"),
        Action::RemoveItem {
            name: "pta/volunteers.md".into(),
            item: "Mr Brown".into(),
        }
    );
    assert!(matches!(
        resolve("remove him from notes.md"),
        Resolution::Unresolved { .. }
    ));
}

/// Files looked for by a pattern of their names are found by name; the
/// same pattern searched for is searched in their text.
#[test]
fn files_matching_a_pattern_are_found_by_name() {
    assert_eq!(
        sure("look for files matching kite*"),
        Action::Find {
            pattern: "kite*".into(),
            dir: None,
        }
    );
    assert!(matches!(sure("search for kite*"), Action::Grep { .. }));
}

/// The first or last lines said loosely: a count with its noun unsaid
/// ("the bottom ten of X"), no "of" before the file, "a dozen".
#[test]
fn parts_of_a_file_said_loosely() {
    let part = |name: &str, first: Option<u64>, last: Option<u64>| Action::Read {
        name: name.into(),
        first,
        last,
        at: None,
    };
    for (said, want) in [
        ("first 3 lines stock.md", part("stock.md", Some(3), None)),
        (
            "show the bottom ten of attendees.md",
            part("attendees.md", None, Some(10)),
        ),
        (
            "top dozen lines of borrowed.md",
            part("borrowed.md", Some(12), None),
        ),
        (
            "what were my last three entries in sends.txt",
            part("sends.txt", None, Some(3)),
        ),
        (
            "tail intake.md, 15 lines",
            part("intake.md", None, Some(15)),
        ),
    ] {
        assert_eq!(sure(said), want, "{said}");
    }
    // Without a count, a part needs its noun: "the first draft.md" is no part.
    assert!(!matches!(
        resolve("show the first draft.md"),
        Resolution::Action(Action::Read { first: Some(_), .. })
    ));
}

/// Files found by what their names hold, asked a few more ways.
#[test]
fn files_found_by_what_their_names_hold() {
    assert_table(
        r#"
        which file has service in its name => find service
        search for files called roast => find roast
        Can you find any files named manuka? => find manuka
        find me the census 1901 file => find census 1901
        "#,
    );
}

/// History, changes, versions and renames said a few more ways.
#[test]
fn history_versions_and_renames_said_loosely() {
    assert_table(
        r#"
        changes since 3 days ago please => changes 3 days ago
        what files were added or modified since 2026-11-20 => changes 2026-11-20
        Has anything changed in the folder since I last committed? => changes
        anything different in here since yesterday? => changes yesterday
        show me the commit history => history
        rename wants.md -> wantlist.md => move wants.md | wantlist.md
        I'd like timetable.md renamed timetable-autumn.md, thanks => move timetable.md | timetable-autumn.md
        shift family-tree.md over to research/family-tree.md => move family-tree.md | research/family-tree.md
        "#,
    );
    assert_eq!(
        sure("what did stock.md look like yesterday?"),
        read_at("stock.md", "yesterday")
    );
    assert_eq!(
        sure("I want yesterday's version of props.md"),
        read_at("props.md", "yesterday")
    );
    assert_eq!(
        sure("list the 20 most recent commits"),
        Action::History {
            name: None,
            limit: Some(20),
        }
    );
    nothing("the changes are good");
}

/// Looks said in shapes the tables above do not use: a file found by its
/// name "somewhere", by its extension with the dot, or by a word and the
/// folder it is in; when a file last "got" changed; the folder's history;
/// a diff "since" a commit or "compared to" a day. Their near misses stay
/// what they were.
#[test]
fn looks_said_as_questions_about_names_times_and_versions() {
    assert_table(
        r#"
        is there a file called rota somewhere? => find rota
        find all the .md files => find *.md
        find kit files in the camp folder => find kit | camp
        when did layout.md last get modified? => info layout.md
        show me the history of this folder => history
        what's the history of the folder => history
        who's on recall.md? => read recall.md
        remind me of goals.md => read goals.md
        "#,
    );
    let against = |said: &str, name: &str, version: &str| {
        assert_eq!(
            sure(said),
            Action::Diff {
                name: name.into(),
                content: None,
                against: Some(version.into()),
            },
            "{said}"
        );
    };
    against(
        "show me the diff for menu.md since the last commit",
        "menu.md",
        "last commit",
    );
    against(
        "what's different in rota.md compared to yesterday?",
        "rota.md",
        "yesterday",
    );
    // A diff with no text and no version still asks against what.
    nothing("diff notes.md");
    nothing("is there a cafe somewhere near here?");
    nothing("who's on the phone?");
}

/// A search said about one file searches the file's folder, as a guess
/// that says so; one outside the folder is refused; "about the X" looks
/// for X, a title's capital "The" kept.
#[test]
fn searches_said_about_a_file_or_a_thing() {
    for (said, dir) in [
        ("is Heartstopper mentioned in bookclub.md?", None),
        ("find Heartstopper in clubs/bookclub.md", Some("clubs")),
    ] {
        assert_eq!(
            guess(said),
            Action::Grep {
                query: "Heartstopper".into(),
                dir: dir.map(Into::into),
            },
            "{said}"
        );
    }
    assert_eq!(
        guess("is there anything about the bilge pump in maintenance.md?"),
        Action::Grep {
            query: "bilge pump".into(),
            dir: None,
        }
    );
    nothing("grep password in /etc");
    nothing("grep password in ../secrets.txt");
    assert_table(
        r#"
        Is there anything about the walking foot anywhere? => grep walking foot
        is there anything about The Outsiders => grep The Outsiders
        where did we write about the minibus? => grep minibus
        which files mention the boiler? => grep boiler
        which files mention the word landlord => grep landlord
        which files are called rota something? => find rota
        find any file with peal in its name => find peal
        find files named kettle in the tickets folder => find kettle | tickets
        are there any files matching *.csv? => find *.csv
        find files named like kiln-*.md => find kiln-*.md
        find the files whose names have tithe map in them => find tithe map
        where's the file with merlin in the name? => find merlin
        is there anything in my files about insurance? => grep insurance
        has anyone written 'cracked' anywhere? => grep cracked
        show me today's changes => changes today
        show the git history => history
        show me the commit log => history
        who last committed catch-log.md? => history catch-log.md
        what commits touched fixtures.md? => history fixtures.md
        have I got a file with lens in its name => find lens
        "#,
    );
}
