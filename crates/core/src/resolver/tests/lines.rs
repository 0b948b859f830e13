//! A list's lines and a file's sections said the ways people say them: a
//! line pointed back at ("untick him"), a state it is marked as, a heading
//! said before the text, and today's note written as a journal is.

use super::super::{Folder, Resolution, resolve, resolve_in};
use super::{append, guess, nothing, sure};
use crate::action::Action;

fn check(name: &str, item: &str, done: Option<bool>) -> Action {
    Action::CheckItem {
        name: name.into(),
        item: item.into(),
        done,
        expect: None,
    }
}

fn remove(name: &str, item: &str) -> Action {
    Action::RemoveItem {
        name: name.into(),
        item: item.into(),
    }
}

/// A line pointed back at is the first clause's subject, asked, never
/// done sure; a file pointed back at keeps its own reading.
#[test]
fn a_line_pointed_back_at_is_what_the_first_clause_was_about() {
    assert_eq!(
        guess("Mrs Jones has paid already, untick her in invoices.md"),
        check("invoices.md", "Mrs Jones", Some(false))
    );
    assert_eq!(
        guess("Priya's dropped out of the relay, take her off relay.md"),
        remove("relay.md", "Priya")
    );
    assert_eq!(
        guess("the leaky gutter got sorted, tick it off in jobs.md"),
        check("jobs.md", "leaky gutter", None)
    );
    assert_eq!(
        guess("finished: sand the tabletop. tick it in workshop.md"),
        check("workshop.md", "sand the tabletop", None)
    );
    assert_eq!(
        guess("Mr Osei cancelled, remove his order from bakes.md"),
        remove("bakes.md", "Mr Osei")
    );
    // What happened to it said as a verb of its own ("delivered", "died").
    assert_eq!(
        guess("Kenya AA delivered — check it off in greens.md"),
        check("greens.md", "Kenya AA", None)
    );
    assert_eq!(
        guess("the Egremont Russet died, remove it from trees.md"),
        remove("trees.md", "Egremont Russet")
    );
    // Of a file no list's name says, who was pointed at is still a line.
    assert_eq!(
        guess("Keiko can't come, remove her from attendees.md"),
        remove("attendees.md", "Keiko")
    );
    // A pronoun with nothing before it to point at names no line.
    assert!(!matches!(
        resolve("untick him in invoices.md"),
        Resolution::Action(Action::CheckItem { .. })
    ));
    // The first clause names a file: "it" is that file.
    assert_eq!(
        sure("I don't need old-rota.md anymore, delete it"),
        Action::Delete {
            name: "old-rota.md".into()
        }
    );
}

/// "mark X as watched" ticks X, whatever the state is called; "as not
/// done" unticks; words of the item that merely end in "as" stay.
#[test]
fn a_line_marked_as_a_state_is_ticked() {
    assert_eq!(
        sure("mark Solaris as watched in films.md"),
        check("films.md", "Solaris", None)
    );
    assert_eq!(
        sure("mark oak dowels as ordered in timber.md"),
        check("timber.md", "oak dowels", None)
    );
    assert_eq!(
        sure("mark the rent as paid in bills.md"),
        check("bills.md", "rent", None)
    );
    assert_eq!(
        sure("mark milk as not done in todo.md"),
        check("todo.md", "milk", Some(false))
    );
    // "as" then a word that is no state is part of the item.
    assert_eq!(
        sure("tick same as before in notes.md"),
        check("notes.md", "same as before", None)
    );
}

/// "remove the X item from FILE" removes the line, whatever the file is
/// called; "remove X from FILE" of a file that is no list is an edit,
/// asked, since a few plain words may be a whole line; said as text, sure.
#[test]
fn a_line_said_as_an_item_is_removed_as_a_line() {
    assert_eq!(
        resolve("remove the Solaris item from films.md")
            .action()
            .cloned(),
        Some(remove("films.md", "Solaris"))
    );
    assert!(matches!(
        resolve("remove Solaris from films.md"),
        Resolution::Guess {
            action: Action::Edit { .. },
            ..
        }
    ));
    for said in [
        "remove \"Solaris\" from films.md",
        "remove the word Solaris from films.md",
    ] {
        assert!(
            matches!(resolve(said), Resolution::Action(Action::Edit { .. })),
            "{said}"
        );
    }
}

/// A heading said before the text, with the text after the file's colon,
/// or named with its kind before "of" the file.
#[test]
fn a_heading_said_first_or_with_its_kind_takes_the_text_after_it() {
    let under = |said: &str| match sure(said) {
        Action::Append {
            name,
            content,
            under,
            ..
        } => (name, content, under.unwrap_or_default()),
        other => panic!("{said:?}: {other:?}"),
    };
    assert_eq!(
        under("add under Saturday in regatta.md: launch at 10"),
        (
            "regatta.md".into(),
            "launch at 10".into(),
            "Saturday".into()
        )
    );
    assert_eq!(
        under("add Capablanca under the Openings heading of chess.md"),
        ("chess.md".into(), "Capablanca".into(), "Openings".into())
    );
    // "2 cups of flour": an "of" that follows no heading word is the text's.
    assert_eq!(
        under("add 2 cups of flour under Ingredients in cake.md"),
        (
            "cake.md".into(),
            "2 cups of flour".into(),
            "Ingredients".into()
        )
    );
    // A file said first, then "add to the X section:" is not read as
    // adding "to the X section" to the file.
    assert!(!matches!(
        resolve("in standup.md add to the Done section: fixed the build"),
        Resolution::Action(Action::Append { ref content, .. }) if content.starts_with("to ")
    ));
    assert_eq!(
        sure("in shopping.md add oat milk"),
        append("shopping.md", "oat milk")
    );
}

/// Putting a line in today's note adds it, as a journal is written; saying
/// to replace it still writes it anew.
#[test]
fn todays_note_keeps_what_is_in_it() {
    let folder = Folder::new(alloc::vec![]).with_daily("daily/2026-12-02.md".into());
    let today = |said: &str| resolve_in(said, &folder).into_action();
    assert_eq!(
        today("put 'bought fish food' in my daily note"),
        Some(append("daily/2026-12-02.md", "bought fish food"))
    );
    assert_eq!(
        today("in today's note add fed the fish at 8"),
        Some(append("daily/2026-12-02.md", "fed the fish at 8"))
    );
    assert!(matches!(
        today("replace my daily note with a fresh start"),
        Some(Action::Write { .. })
    ));
    // Another file put into stays a write.
    assert!(matches!(
        sure("put hello in greeting.txt"),
        Action::Write { .. }
    ));
    nothing("in today's note");
}

/// A place said before a colon is not the text written there.
#[test]
fn a_place_said_before_the_text_is_not_written() {
    assert!(matches!(
        sure("make a new file called leak.md and write inside: tap drips"),
        Action::Write { ref content, .. } if content == "tap drips"
    ));
    assert!(matches!(
        sure("write inside jokes to notes.md"),
        Action::Write { ref content, .. } if content == "inside jokes"
    ));
}

/// A task box said before the text is the text's; text labelled "text:"
/// and "put" after a new file's name are what it says; a request said
/// again from its command word takes back the one before it, and "I mean
/// it" after a request is said for emphasis.
#[test]
fn what_a_new_file_says_and_requests_said_again() {
    assert_eq!(
        sure("overwrite closing.md with - [ ] lock the back door"),
        Action::Write {
            name: "closing.md".into(),
            content: "- [ ] lock the back door".into(),
            mode: None,
            expect: None,
        }
    );
    // A dash joining clauses is still no part of the text.
    assert_eq!(sure("todo.txt - add milk"), append("todo.txt", "milk"));
    for said in [
        "new file hops.md, text: Cascade 30g",
        "pls create hops.md, put Cascade 30g",
    ] {
        assert!(
            matches!(sure(said), Action::Write { ref content, .. } if content == "Cascade 30g"),
            "{said}"
        );
    }
    assert!(matches!(
        sure("create a text file called a.txt with hi"),
        Action::Write { ref name, .. } if name == "a.txt"
    ));
    assert_eq!(
        guess("in stout.md change S-04, I mean replace S-04 with WLP001"),
        super::edit("stout.md", "S-04", "WLP001")
    );
    assert_eq!(
        sure("delete kites dot md, I mean it"),
        Action::Delete {
            name: "kites.md".into()
        }
    );
    assert!(matches!(
        guess("read a.txt, I mean b.txt"),
        Action::Read { ref name, .. } if name == "b.txt"
    ));
}

/// What a new file says, said as "the header …" or "Content should be: …";
/// a capitalised "Um" inside a name is a word of it; "cross off X" takes X.
#[test]
fn texts_named_by_what_they_are_and_names_with_hesitation_words() {
    assert!(matches!(
        sure("make shipments.csv with the header supplier,origin,kg"),
        Action::Write { ref content, .. } if content == "supplier,origin,kg"
    ));
    assert!(matches!(
        sure("Can you create a file named projects.md? Content should be: Purple arete"),
        Action::Write { ref content, .. } if content == "Purple arete"
    ));
    // A word that should become another is still an edit.
    assert_eq!(
        sure("essay.txt: teh should be the"),
        super::edit("essay.txt", "teh", "the")
    );
    assert_eq!(
        sure("change Mingus Ah Um to Mingus Ah Um (any pressing) in wants.md"),
        super::edit("wants.md", "Mingus Ah Um", "Mingus Ah Um (any pressing)")
    );
    assert!(matches!(
        sure("um, read wants.md"),
        Action::Read { ref name, .. } if name == "wants.md"
    ));
    assert_eq!(
        sure("cross off 1911 census in sources.md"),
        remove("sources.md", "1911 census")
    );
}
