//! The folder's git history in words: what changed, the commits, a file as
//! it was, and the near misses that stay something else.

use super::{assert_table, nothing, read_at, resolve, sure};
use crate::action::Action;
use crate::resolver::Resolution;

fn changes(since: Option<&str>) -> Action {
    Action::Changes {
        since: since.map(Into::into),
    }
}

fn against(name: &str, at: &str) -> Action {
    Action::Diff {
        name: name.into(),
        content: None,
        against: Some(at.into()),
    }
}

#[test]
fn what_changed_is_asked_a_dozen_ways() {
    for (said, since) in [
        ("what did I change today", Some("today")),
        ("What did I change today?", Some("today")),
        ("what changed since yesterday", Some("yesterday")),
        ("what have I changed this week", Some("this week")),
        ("what has changed", None),
        ("what's changed since the last commit", None),
        ("show me my changes", None),
        ("any changes since last week?", Some("last week")),
        ("git status", None),
        ("what did I change in the last 3 days", Some("3 days ago")),
        ("what haven't I committed", None),
        ("what changed in my folder today", Some("today")),
        ("what changed since 3fa9c2e", Some("3fa9c2e")),
        ("which files changed this week?", Some("this week")),
        ("any uncommitted changes?", None),
        ("show me what I've changed since I last committed", None),
    ] {
        assert_eq!(sure(said), changes(since), "{said}");
    }
}

#[test]
fn what_changed_in_one_file_is_a_diff_against_a_commit() {
    for (said, name, at) in [
        ("what did I change in notes.md", "notes.md", "last commit"),
        (
            "what did I change in notes.md since the last commit",
            "notes.md",
            "last commit",
        ),
        (
            "how has notes.md changed since yesterday",
            "notes.md",
            "yesterday",
        ),
        (
            "compare notes.md with yesterday's version",
            "notes.md",
            "yesterday",
        ),
        (
            "diff notes.md against the last commit",
            "notes.md",
            "last commit",
        ),
        (
            "what changed in plans/trip.md this week",
            "plans/trip.md",
            "this week",
        ),
    ] {
        assert_eq!(sure(said), against(name, at), "{said}");
    }
    // The control: a diff with words to compare stays a diff with content.
    assert_eq!(
        sure("diff notes.md with hello world"),
        Action::Diff {
            name: "notes.md".into(),
            content: Some("hello world".into()),
            against: None,
        }
    );
}

#[test]
fn the_history_of_the_folder_or_a_file() {
    assert_table(
        "show me the history of notes.md => history notes.md
         history of plans/trip.md => history plans/trip.md
         git log => history
         show me the commit history => history
         who edited notes.md => history notes.md
         who changed todo.md => history todo.md
         the last three commits to notes.md => history notes.md|3
         show me the git log => history
         list recent commits => history
         list the commits to notes.md => history notes.md",
    );
    // A list of something else is not the history.
    nothing("list recent purchases");
    assert_eq!(
        sure("show me the last 5 commits"),
        Action::History {
            name: None,
            limit: Some(5),
        }
    );
}

#[test]
fn a_file_as_it_was_is_a_read_at_that_moment() {
    for (said, name, at) in [
        ("read notes.md as it was yesterday", "notes.md", "yesterday"),
        ("show me notes.md as of last week", "notes.md", "last week"),
        ("read notes.md from 2 days ago", "notes.md", "2 days ago"),
        ("open notes.md at commit 3fa9c2e", "notes.md", "3fa9c2e"),
        (
            "read notes.md as it was in the last commit",
            "notes.md",
            "last commit",
        ),
    ] {
        assert_eq!(sure(said), read_at(name, at), "{said}");
    }
    // The control: a plain read has no moment.
    assert_eq!(
        sure("read notes.md"),
        Action::Read {
            name: "notes.md".into(),
            first: None,
            last: None,
            at: None,
        }
    );
}

#[test]
fn near_misses_stay_what_they_were() {
    // A restore cannot carry the old content: it says how instead.
    match resolve("restore notes.md to yesterday's version") {
        Resolution::Unresolved { note } => assert!(note.contains("as it was yesterday"), "{note}"),
        other => panic!("{other:?}"),
    }
    assert_eq!(sure("undo"), Action::Undo { name: None });
    nothing("when was the meeting");
    assert!(!matches!(
        sure("what's in notes.md"),
        Action::Changes { .. } | Action::History { .. }
    ));
}
