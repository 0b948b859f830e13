//! Requests in shapes the earlier sets had not shown: a phrase between a new
//! thing's noun and its name, `head` and `tail` typed with their flags, a
//! list's line that "can come off" it, a title among an item's words, the
//! folders above said as `..`, and "scratch that" (also said of the words
//! just dictated, so asked).

use super::super::resolve;
use super::{assert_table, assert_table_in, guess, nothing, sure};
use crate::action::Action;

#[test]
fn a_phrase_between_the_noun_and_the_name_is_what_it_is_for_or_where_it_goes() {
    assert_table(
        r#"
        create a file in crews called masters.md with Stroke: Dave => write crews/masters.md | Stroke: Dave | create
        create a file for the star party called star-party.md with Red torches only => write star-party.md | Red torches only | create
        make a new directory for the events called star-parties => mkdir star-parties
        make a folder in recipes called breakfast => mkdir recipes/breakfast
        "#,
    );
    // A place outside the folder is no folder to put it in.
    assert!(!matches!(
        resolve("create a file in my home directory called budget.md"),
        super::super::Resolution::Action(Action::Write { ref name, .. }) if name.contains('/')
    ));
}

#[test]
fn head_and_tail_are_read_with_their_flags_or_a_count_said_after() {
    let read = |name: &str, first: Option<u64>, last: Option<u64>| Action::Read {
        name: name.into(),
        first,
        last,
        at: None,
    };
    assert_eq!(
        sure("head -n 5 pairings.md"),
        read("pairings.md", Some(5), None)
    );
    assert_eq!(
        sure("head -5 pairings.md"),
        read("pairings.md", Some(5), None)
    );
    assert_eq!(
        sure("tail -n 20 server.log"),
        read("server.log", None, Some(20))
    );
    assert_eq!(
        sure("tail of cleans.md, last 8 lines"),
        read("cleans.md", None, Some(8))
    );
    assert_eq!(sure("tail notes.md"), read("notes.md", None, Some(10)));
    assert_eq!(sure("less notes.md"), read("notes.md", None, None));
    // A flag that is not a count, or words that are not a file, are no read.
    nothing("head -x pairings.md");
    nothing("head over to the station");
}

#[test]
fn a_line_that_can_come_off_a_list_is_removed_and_a_title_is_an_item() {
    assert_table_in(
        &["shopping-list.md", "orders.md"],
        r#"
        oat milk can come off the shopping list => remove_item shopping-list.md | oat milk
        remove The Parting Glass from repertoire.md => remove_item repertoire.md | The Parting Glass
        "#,
    );
    // A number among the words may be a piece of a line: asked, not sure.
    assert!(matches!(
        resolve("remove 2 pints of milk from groceries.md"),
        super::super::Resolution::Guess { .. }
    ));
    nothing("I think it can go from here");
}

#[test]
fn the_folders_above_said_as_dots_are_kept_for_the_executor_to_refuse() {
    assert_table(
        r#"
        list .. => list ..
        list ../.. => list ../..
        is there a file called vows? => find vows
        "#,
    );
    // The positive control: the folder itself.
    assert_eq!(sure("list the files"), Action::List { dir: None });
}

#[test]
fn scratch_that_alone_is_asked_and_with_undo_it_is_an_undo() {
    assert_eq!(guess("scratch that"), Action::Undo { name: None });
    assert_eq!(sure("scratch that, undo it"), Action::Undo { name: None });
    assert_eq!(sure("undo"), Action::Undo { name: None });
}

#[test]
fn looks_said_in_new_words() {
    assert_table(
        r#"
        anything mentioning Andromeda => grep Andromeda
        have any files changed today? => changes today
        copy the template orders/template.md to orders/friday.md => copy orders/template.md | orders/friday.md
        drag vows.md into the ceremony folder => move vows.md | ceremony/vows.md
        pls make gear.md w/ hoops x10 => write gear.md | hoops x10 | create
        "#,
    );
    assert_eq!(
        sure("open the last committed version of plots.md"),
        super::read_at("plots.md", "last commit")
    );
}
