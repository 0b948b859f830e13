//! Sure, a guess, or nothing: each kind of sentence the resolver reads
//! loosely beside a sibling it reads surely, or one it must not act on.

use super::super::{Resolution, resolve};
use super::{assert_table, assert_table_in, edit, guess, nothing, proposed_id, sure};
use crate::action::Action;

#[test]
fn a_typo_in_the_command_word_is_a_guess_and_the_word_itself_is_sure() {
    let read = Action::Read {
        name: "notes.md".into(),
        first: None,
        last: None,
        at: None,
    };
    assert_eq!(guess("raed notes.md"), read);
    assert_eq!(sure("read notes.md"), read);
    assert_table(
        r#"
        apend eggs to todo.txt ?=> append todo.txt | eggs
        # Only the command word is bent: the content keeps its own words.
        chnage Bob to Robert in notes.md ?=> edit notes.md | Bob | Robert
        "#,
    );
    nothing("the reed was tall");
}

#[test]
fn noting_verbs_and_content_after_a_colon_append_and_write_replaces() {
    assert_table(
        r#"
        log ran 5k to workout.txt => append workout.txt | ran 5k
        note that the wifi password is on the fridge in house.md => append house.md | the wifi password is on the fridge
        workout.log: log 5k run => append workout.log | 5k run
        add eggs to my list in groceries.md => append groceries.md | eggs
        "#,
    );
    assert!(matches!(
        sure("write ran 5k to workout.txt"),
        Action::Write { mode: None, .. }
    ));
}

#[test]
fn a_folder_said_in_words_is_not_doubled_nor_its_case_kept() {
    assert_table_in(
        &["drafts/plan.md", "Notes/ideas.md"],
        r#"
        open plan in drafts ~> read drafts/plan.md
        open drafts/plan.md in drafts ~> read drafts/plan.md
        read ideas.md in the notes folder ~> read Notes/ideas.md
        read ideas.md ~> read Notes/ideas.md
        "#,
    );
}

#[test]
fn search_framing_is_no_part_of_the_query_and_quotes_keep_it() {
    assert_table(
        r#"
        could you look for where I mentioned the dentist => grep dentist
        find anything that says wifi password => grep wifi password
        search for "the dentist" => grep the dentist
        "#,
    );
}

#[test]
fn a_change_asked_about_is_a_diff_and_the_change_asked_for_is_itself() {
    let diff = Action::Diff {
        name: "version.txt".into(),
        content: Some("2.0".into()),
        against: None,
    };
    assert_eq!(guess("what would change if I set version.txt to 2.0"), diff);
    assert_eq!(
        guess("hypothetically, if version.txt said 2.0, how would it differ"),
        diff
    );
    assert_eq!(guess("dry run: write 2.0 to version.txt"), diff);
    assert!(matches!(
        sure("write 2.0 to version.txt"),
        Action::Write { .. }
    ));
    assert!(matches!(
        sure("would you write hi to notes.md"),
        Action::Write { .. }
    ));
}

#[test]
fn edits_said_as_updates_and_pointing_at_the_old_text() {
    let bump = edit("config.txt", "1.2", "1.3");
    assert_eq!(sure("bump the version in config.txt from 1.2 to 1.3"), bump);
    assert_eq!(
        sure("in config.txt, where it says 1.2, change it to 1.3"),
        bump
    );
    assert_eq!(sure("update config.txt, 1.2 becomes 1.3"), bump);
    assert_eq!(
        sure("config.txt says 1.2 but it should say 1.3, fix that"),
        bump
    );
    // A described old text is not the words in the file: asked.
    assert_eq!(
        guess("update the version in config.txt to 1.3"),
        edit("config.txt", "the version", "1.3")
    );
}

#[test]
fn put_it_back_is_undo_and_putting_something_somewhere_is_not() {
    assert_table(
        r#"
        put it back => undo
        # Also said of the words just dictated: asked.
        scratch that ?=> undo
        strike that ?=> undo
        go back to how it was before => undo
        "#,
    );
    assert!(!matches!(
        resolve("put it back in notes.md"),
        Resolution::Action(Action::Undo { .. })
    ));
}

#[test]
fn the_ask_inside_a_rambling_sentence_and_a_false_start_are_guesses() {
    assert_eq!(
        guess("so I was thinking, could you read todo.txt for me because I forgot"),
        Action::Read {
            name: "todo.txt".into(),
            first: None,
            last: None,
            at: None,
        }
    );
    assert_eq!(
        guess("overwrite plan.txt with uh no wait with meet at seven"),
        Action::Write {
            name: "plan.txt".into(),
            content: "meet at seven".into(),
            mode: None,
            expect: None,
        }
    );
    nothing("my cat is cute and the sky is blue");
    nothing("delete notes.md, no wait, don't");
}

#[test]
fn a_proposal_is_named_as_said_or_after_its_purpose_as_a_guess() {
    assert_eq!(
        proposed_id(sure("make a tool, name it clock, that tells the time")),
        "clock"
    );
    assert_eq!(
        proposed_id(sure(
            "propose an extension with the id today that returns the date"
        )),
        "today"
    );
    assert_eq!(
        proposed_id(guess("I want a new tool that reverses the lines of a file")),
        "reverse-line"
    );
    nothing("make a tool");
}

#[test]
fn statements_with_a_verb_and_a_file_are_not_requests() {
    for said in [
        "I wrote todo.txt yesterday",
        "my todo.txt is getting long",
        "I need to delete todo.txt later but not now",
    ] {
        nothing(said);
    }
}
