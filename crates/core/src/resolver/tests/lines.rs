//! A list's lines and a file's sections said the ways people say them: a
//! line pointed back at ("untick him"), a state it is marked as, a heading
//! said before the text, and today's note written as a journal is.

use super::super::{Folder, Resolution, resolve, resolve_in};
use super::{append, appended_under, assert_table, nothing, sure};
use crate::action::Action;
use alloc::vec;

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
    assert_table(
        r#"
        Mrs Jones has paid already, untick her in invoices.md ?=> check_item invoices.md | Mrs Jones | false
        Priya's dropped out of the relay, take her off relay.md ?=> remove_item relay.md | Priya
        the leaky gutter got sorted, tick it off in jobs.md ?=> check_item jobs.md | leaky gutter
        finished: sand the tabletop. tick it in workshop.md ?=> check_item workshop.md | sand the tabletop
        Mr Osei cancelled, remove his order from bakes.md ?=> remove_item bakes.md | Mr Osei
        # What happened to it said as a verb of its own ("delivered", "died").
        Kenya AA delivered — check it off in greens.md ?=> check_item greens.md | Kenya AA
        the Egremont Russet died, remove it from trees.md ?=> remove_item trees.md | Egremont Russet
        # What the person did it to, when they are the subject.
        I've changed the air filter, tick it off in service.md ?=> check_item service.md | air filter
        got the hypo clear, take it off shopping.md ?=> remove_item shopping.md | hypo clear
        # Of a file no list's name says, who was pointed at is still a line.
        Keiko can't come, remove her from attendees.md ?=> remove_item attendees.md | Keiko
        # The first clause names a file: "it" is that file.
        I don't need old-rota.md anymore, delete it => delete old-rota.md
        "#,
    );
    // A pronoun with nothing before it to point at names no line.
    nothing("untick him in invoices.md");
}

/// "mark X as watched" ticks X, whatever the state is called; "as not
/// done" unticks; words of the item that merely end in "as" stay.
#[test]
fn a_line_marked_as_a_state_is_ticked() {
    assert_table(
        r#"
        mark Solaris as watched in films.md => check_item films.md | Solaris
        mark oak dowels as ordered in timber.md => check_item timber.md | oak dowels
        mark the rent as paid in bills.md => check_item bills.md | rent
        mark milk as not done in todo.md => check_item todo.md | milk | false
        # "as" then a word that is no state is part of the item.
        tick same as before in notes.md => check_item notes.md | same as before
        "#,
    );
}

/// "remove the X item from FILE" and "remove X from FILE" of a few plain
/// words remove a line (a file with no list items refuses by name); words
/// that may be a piece of a line (a number, a description) are asked as
/// the words taken out; said as text, they are taken out, sure.
#[test]
fn a_line_said_as_an_item_is_removed_as_a_line() {
    for said in [
        "remove the Solaris item from films.md",
        "remove Solaris from films.md",
        "get Solaris off the films list",
    ] {
        assert_eq!(
            resolve_in(said, &Folder::new(vec!["films.md".into()])),
            Resolution::Action(remove("films.md", "Solaris")),
            "{said}"
        );
    }
    for said in [
        "remove 2 sugars from tea.md",
        "remove the old intro from essay.md",
    ] {
        assert!(
            matches!(
                resolve(said),
                Resolution::Guess {
                    action: Action::Edit { .. },
                    ..
                }
            ),
            "{said}"
        );
    }
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

/// A text said first, then a request pointing back at it with "that":
/// the text is what is written or added; a request that is no write or
/// append is not read so.
#[test]
fn a_text_said_before_its_request_is_what_is_written() {
    assert_table(
        r#"
        'spare batteries' — put that in kit.md => write kit.md | spare batteries
        Tom brings the urn — add that to rota.md, thanks => append rota.md | Tom brings the urn
        "Doors open 7pm": make a new file called poster.md with that => write poster.md | Doors open 7pm | create
        'Gandalf the barn owl, 340g' - make that a new file called owls.md => write owls.md | Gandalf the barn owl, 340g | create
        'tench 3lb, peg 14' goes in catch-log.md => append catch-log.md | tench 3lb, peg 14
        "#,
    );
    nothing("the urn is broken — that's a shame");
}

/// A plain put adds to the file, whether or not the folder has it (a file
/// that is not there is made, as an append makes it); replacing is said so.
#[test]
fn a_plain_put_adds_to_the_file() {
    let folder = Folder::new(vec!["cellar.md".into()]);
    let put = |said: &str| resolve_in(said, &folder);
    assert_eq!(
        put("put 2 bottles of Rioja in cellar.md"),
        Resolution::Action(Action::Append {
            name: "cellar.md".into(),
            content: "2 bottles of Rioja".into(),
            under: None,
            expect: None,
        })
    );
    assert!(matches!(
        put("put sold out in new.md"),
        Resolution::Action(Action::Append { content, .. }) if content == "sold out"
    ));
    assert!(matches!(
        resolve_in("put sold out in new.md", &Folder::new(vec![])),
        Resolution::Action(Action::Append { content, .. }) if content == "sold out"
    ));
    // Replacing is said so.
    for (said, content) in [
        (
            "clear out cellar.md and just put empty for now",
            "empty for now",
        ),
        ("just put sold out in cellar.md", "sold out"),
        ("overwrite cellar.md with sold out", "sold out"),
    ] {
        assert!(
            matches!(put(said), Resolution::Action(Action::Write { content: c, .. }) if c == content),
            "{said}"
        );
    }
}

/// A heading said before the text, with the text after the file's colon,
/// or named with its kind before "of" the file.
#[test]
fn a_heading_said_first_or_with_its_kind_takes_the_text_after_it() {
    assert_eq!(
        appended_under("add under Saturday in regatta.md: launch at 10"),
        (
            "regatta.md".into(),
            "launch at 10".into(),
            "Saturday".into()
        )
    );
    assert_eq!(
        appended_under("add Capablanca under the Openings heading of chess.md"),
        ("chess.md".into(), "Capablanca".into(), "Openings".into())
    );
    // "2 cups of flour": an "of" that follows no heading word is the text's.
    assert_eq!(
        appended_under("add 2 cups of flour under Ingredients in cake.md"),
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

/// A "please" between the file and the colon is no part of either.
#[test]
fn please_before_the_colon_is_courtesy() {
    let folder = Folder::new(alloc::vec![]).with_daily("daily/2026-12-02.md".into());
    let today = |said: &str| resolve_in(said, &folder).into_action();
    for said in [
        "today's note please: three new customers on the round",
        "today's note: three new customers on the round",
    ] {
        assert_eq!(
            today(said),
            Some(append(
                "daily/2026-12-02.md",
                "three new customers on the round"
            )),
            "{said}"
        );
    }
    assert_table("todo.txt please: call mom ?=> append todo.txt | call mom");
    // A "please" after a comma is still no line to add, nor a request
    // after the colon.
    nothing("todo.txt, please");
    nothing("essay.md: please shorten the intro");
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
    assert_table(
        r#"
        overwrite closing.md with - [ ] lock the back door => write closing.md | - [ ] lock the back door
        # A dash joining clauses is still no part of the text.
        todo.txt - add milk => append todo.txt | milk
        new file hops.md, text: Cascade 30g => write hops.md | Cascade 30g | create
        pls create hops.md, put Cascade 30g => write hops.md | Cascade 30g | create
        create a text file called a.txt with hi => write a.txt | hi | create
        Create meetup.md — Thursday 7pm, Cafe Lumen => write meetup.md | Thursday 7pm, Cafe Lumen | create
        in stout.md change S-04, I mean replace S-04 with WLP001 ?=> edit stout.md | S-04 | WLP001
        delete kites dot md, I mean it => delete kites.md
        read a.txt, I mean b.txt ?=> read b.txt
        "#,
    );
}

/// What a new file says, said as "the header …" or "Content should be: …";
/// a capitalised "Um" inside a name is a word of it; "cross off X" takes X.
#[test]
fn texts_named_by_what_they_are_and_names_with_hesitation_words() {
    assert_table(
        r#"
        make shipments.csv with the header supplier,origin,kg => write shipments.csv | supplier,origin,kg | create
        Can you create a file named projects.md? Content should be: Purple arete => write projects.md | Purple arete | create
        # A word that should become another is still an edit.
        essay.txt: teh should be the => edit essay.txt | teh | the
        change Mingus Ah Um to Mingus Ah Um (any pressing) in wants.md => edit wants.md | Mingus Ah Um | Mingus Ah Um (any pressing)
        um, read wants.md => read wants.md
        cross off 1911 census in sources.md => check_item sources.md | 1911 census
        strike call the tyre place from todo.md => remove_item todo.md | call the tyre place
        in roasts dot txt, 9:10 should say 9:40 => edit roasts.txt | 9:10 | 9:40
        add the blue traverse to my Projects section in bouldering.md => append bouldering.md | the blue traverse | Projects
        "#,
    );
}

/// Today's note written "in" with no comma is added to, as a journal is;
/// a file named first with no comma takes a write too.
#[test]
fn a_note_written_in_a_file_said_first() {
    let folder = Folder::new(vec![]).with_daily("daily/2026-12-02.md".into());
    assert_eq!(
        resolve_in(
            "in my daily note write quilting circle moved to the library",
            &folder
        ),
        Resolution::Action(append(
            "daily/2026-12-02.md",
            "quilting circle moved to the library"
        ))
    );
    assert_table(
        r#"
        in notes.md write hello there => write notes.md | hello there
        in notes.md add eggs => append notes.md | eggs
        "#,
    );
}

/// A text's own last words stay its own ("… wants Wednesdays too"); said
/// after the file, "too" closes the request. A heading's markdown is not
/// its name; one quoted text among words saying where it goes is the text.
#[test]
fn a_text_keeps_its_own_words_and_only_them() {
    assert_table(
        r#"
        add a note to bookings.md: Pilates group wants Wednesdays too => append bookings.md | Pilates group wants Wednesdays too
        add tape to shopping.md too => append shopping.md | tape
        under ## Drones in kit.md add Mavic 3 => append kit.md | Mavic 3 | Drones
        create volunteers.md and write inside 'Anna Monday morning' => write volunteers.md | Anna Monday morning | create
        new file called repairs.md, with 'Lamp, flex frayed' as the first line => write repairs.md | Lamp, flex frayed | create
        delete the line balloons from party.md => remove_item party.md | balloons
        add rear pads at 40% to car.md in the Brakes section => append car.md | rear pads at 40% | Brakes
        add to the Engine section of boat.md: new impeller fitted => append boat.md | new impeller fitted | Engine
        could you set up a new file called log.md with 'oil changed' in it? thanks => write log.md | oil changed | create
        please you add in shifts.md the line 'Maria Sunday evening' => append shifts.md | Maria Sunday evening
        please in boat.md you change 'oil' into 'diesel' => edit boat.md | oil | diesel
        "#,
    );
}
