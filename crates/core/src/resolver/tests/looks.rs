//! Looks and copies said loosely: a version said before the file or as
//! what a diff compares with, when a file was last updated, what a folder
//! holds, a copy wished for, and places outside the folder said in words.

use super::super::{Resolution, resolve};
use super::{edit, guess, nothing, sure};
use crate::action::Action;

fn read_at(name: &str, at: &str) -> Action {
    Action::Read {
        name: name.into(),
        first: None,
        last: None,
        at: Some(at.into()),
    }
}

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
    ] {
        assert!(
            matches!(resolve(said), Resolution::Unresolved { .. }),
            "{said}"
        );
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
