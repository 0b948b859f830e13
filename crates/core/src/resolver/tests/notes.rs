//! The notes verbs, each said a dozen ways (none of them in the dev set),
//! and their near misses that must stay something else.

use super::{assert_table, guess, nothing, resolve, sure};
use crate::action::Action;
use crate::resolver::Resolution;

/// What `said` resolves to, which must be a `verb`.
fn read_as(said: &str, verb: &str) -> Action {
    let got = resolve(said);
    let action = got.action().unwrap_or_else(|| panic!("{said}: {got:?}"));
    assert_eq!(action.verb().wire(), verb, "{said}: {got:?}");
    action.clone()
}

#[test]
fn moves_and_renames_in_a_dozen_ways() {
    assert_table(
        "rename draft.md to final.md => move draft.md|final.md
         rename draft dot md to final => move draft.md|final.md
         please rename notes.txt as ideas.txt => move notes.txt|ideas.txt
         move notes.md into the archive folder => move notes.md|archive/notes.md
         move report.pdf to archive/report.pdf => move report.pdf|archive/report.pdf
         mv a.txt b.txt => move a.txt|b.txt
         could you move plan.md into the old folder => move plan.md|old/plan.md
         relocate todo.txt to done/todo.txt => move todo.txt|done/todo.txt
         rename the drafts folder to archive => move drafts|archive
         move the file called shopping list dot txt to lists => move shopping-list.txt|lists
         rename Meeting Notes.md to Minutes.md => move Meeting Notes.md|Minutes.md
         move budget.xlsx to the finance folder => move budget.xlsx|finance/budget.xlsx
         could you move session-4.md over to campaign/session-4.md please => move session-4.md|campaign/session-4.md
         I'd like draft.md renamed to episode-32.md => move draft.md|episode-32.md
         I want notes.md moved into the archive folder => move notes.md|archive/notes.md
         make a copy of template.md at campaign/session-5.md => copy template.md|campaign/session-5.md
         I need a folder called quotes => mkdir quotes
         could you create a folder quotes for the builders' quotes => mkdir quotes",
    );
    assert_table(
        "please change name of file pancakes.txt, new name is waffles.txt => move pancakes.txt|waffles.txt
         rename notes.md, the new name should be ideas.md => move notes.md|ideas.md
         make a folder called breakfast inside recipes => mkdir recipes/breakfast
         create a folder named 2026 in the archive folder => mkdir archive/2026
         make a folder called in => mkdir in
         back up trip.md to backup/trip.md => copy trip.md|backup/trip.md
         notes.md should be renamed to ideas.md => move notes.md|ideas.md
         rota.md should be called rota-2026 from now on => move rota.md|rota-2026.md",
    );
    // Neither side a file's name: no rename of anything.
    nothing("the meeting should be called off");
    nothing("this file should be called something better");
    // A wish with no file, or a move of no file, is no request.
    nothing("I'd like the gig moved to Friday");
    nothing("we need to move the gig to Friday");
    nothing("I need a holiday");
}

#[test]
fn copies_in_a_dozen_ways() {
    assert_table(
        "copy report.txt to backup.txt => copy report.txt|backup.txt
         cp todo.txt todo.bak => copy todo.txt|todo.bak
         duplicate plan.md as plan-2.md => copy plan.md|plan-2.md
         make a copy of notes.md called notes-old => copy notes.md|notes-old.md
         copy notes.md into the archive folder => copy notes.md|archive/notes.md
         copy budget.csv as budget-2026.csv => copy budget.csv|budget-2026.csv
         please copy a.txt to b.txt => copy a.txt|b.txt
         copy the file called ideas dot md to old/ideas.md => copy ideas.md|old/ideas.md
         copy log.txt to log.old.txt => copy log.txt|log.old.txt
         duplicate report.md into the drafts folder => copy report.md|drafts/report.md
         copy readme.md to docs/readme.md => copy readme.md|docs/readme.md
         could you copy list.md to list-copy.md => copy list.md|list-copy.md",
    );
}

#[test]
fn folders_are_made_in_a_dozen_ways() {
    assert_table(
        "mkdir archive => mkdir archive
         make a folder called archive => mkdir archive
         create a folder named old => mkdir old
         make a new folder called projects => mkdir projects
         create a new directory named drafts => mkdir drafts
         add a folder called receipts => mkdir receipts
         new folder recipes => mkdir recipes
         make the folder 2026 => mkdir 2026
         please create a folder called Work Projects => mkdir Work Projects
         set up a folder called travel => mkdir travel
         make a directory called logs => mkdir logs
         mkdir notes/daily => mkdir notes/daily",
    );
}

#[test]
fn list_items_are_ticked_and_crossed_off_in_a_dozen_ways() {
    assert_table(
        "check off milk in shopping.md => check_item shopping.md|milk
         tick eggs on list.md => check_item list.md|eggs
         mark call Sam as done in todo.md => check_item todo.md|call Sam
         tick off oat milk in groceries.md => check_item groceries.md|oat milk
         check milk off shopping.md => check_item shopping.md|milk
         mark the item bread as complete in list.md => check_item list.md|bread
         uncheck milk in shopping.md => check_item shopping.md|milk|false
         untick eggs on list.md => check_item list.md|eggs|false
         mark call Sam as not done in todo.md => check_item todo.md|call Sam|false
         cross bread off shopping.md => check_item shopping.md|bread
         take milk off list.md => remove_item list.md|milk
         cross call mom off the list in todo.md => check_item todo.md|call mom",
    );
}

#[test]
fn parts_of_a_file_are_read_in_a_dozen_ways() {
    let last = |name: &str, n: u64| {
        Resolution::Action(Action::Read {
            name: name.into(),
            first: None,
            last: Some(n),
            at: None,
        })
    };
    let first = |name: &str, n: u64| {
        Resolution::Action(Action::Read {
            name: name.into(),
            first: Some(n),
            last: None,
            at: None,
        })
    };
    for (said, want) in [
        ("read the last ten lines of log.txt", last("log.txt", 10)),
        ("read the last 10 lines of log.txt", last("log.txt", 10)),
        ("the last three lines of notes.md", last("notes.md", 3)),
        (
            "show me the bottom 5 lines of todo.txt",
            last("todo.txt", 5),
        ),
        ("tail log.txt", last("log.txt", 10)),
        ("read the last line of diary.md", last("diary.md", 1)),
        (
            "what are the final two lines in plan.md",
            last("plan.md", 2),
        ),
        ("read the first 5 lines of notes.md", first("notes.md", 5)),
        (
            "let me see the final 50 lines of transcript.md",
            last("transcript.md", 50),
        ),
        (
            "have a look at the first 3 lines of plan.md",
            first("plan.md", 3),
        ),
        ("show me the top line of plan.md", first("plan.md", 1)),
        ("head notes.md", first("notes.md", 10)),
        (
            "the first twenty lines of report.md",
            first("report.md", 20),
        ),
        (
            "read me the first two lines from list.md",
            first("list.md", 2),
        ),
    ] {
        assert_eq!(resolve(said), want, "{said}");
    }
}

#[test]
fn names_are_found_and_files_described_in_a_dozen_ways() {
    assert_table(
        "where's the budget file => find budget
         where is my tax document => find tax
         find the file called budget => find budget
         find files named *.md => find *.md
         locate the recipes file => find recipes
         which file is called invoice => find invoice
         find the receipts files => find receipts
         how big is notes.md => info notes.md
         when did I last change plan.md => info plan.md
         what is the size of log.txt => info log.txt
         tell me about report.md => info report.md
         when was todo.txt last modified => info todo.txt",
    );
}

/// A pattern anywhere in a finding is about names, with the folder it is
/// looked in; the same words about text, or a pattern with other words
/// around it, are not taken for one.
#[test]
fn a_pattern_or_words_said_of_names_find_by_name() {
    assert_table(
        "find all the *.md files => find *.md
         find *.txt in walks => find *.txt|walks
         find all *.txt files in the walks folder => find *.txt|walks
         find ep*.md in episodes => find ep*.md|episodes
         find file names with swarm => find swarm
         search for a file named swarm => find swarm
         is there a file with quote in its name? => find quote
         find all the markdown files => find *.md
         which of my files are csv files => find *.csv
         find the pdf files in the shop folder => find *.pdf|shop
         when did budget.md last change? => info budget.md
         give me the info for vocab/french.md => info vocab/french.md
         show me the details of plan.md => info plan.md
         find milk in the recipes folder => grep milk|recipes
         is there a file with quotes in it => grep quotes",
    );
    // Two requests in one: the look is offered, never sure.
    assert_eq!(
        guess("find *.md and delete them"),
        Action::Find {
            pattern: "*.md".into(),
            dir: None
        }
    );
    nothing("when did the bees swarm");
}

/// A line ticked in a file said first without a comma; what trails "as
/// done" is no part of the item.
#[test]
fn items_in_a_file_said_first_without_a_comma() {
    assert_table(
        "in plan.md tick off long run => check_item plan.md|long run
         in todo.md cross eggs off => check_item todo.md|eggs
         in notes.md replace milk with bread => edit notes.md|milk|bread",
    );
    assert_eq!(
        resolve("in todo.md mark call Sam as not done again"),
        Resolution::Action(Action::CheckItem {
            name: "todo.md".into(),
            item: "call Sam".into(),
            done: Some(false),
            expect: None,
        })
    );
    assert_table(
        "take The Dispossessed off my list in reading-list.md => remove_item reading-list.md|The Dispossessed
         take the milk off my list in list.md => remove_item list.md|milk",
    );
    // "check" may also mean a search: the tick is offered, not done.
    assert_eq!(
        guess("check the box for sun cream in packing.md"),
        Action::CheckItem {
            name: "packing.md".into(),
            item: "sun cream".into(),
            done: None,
            expect: None
        }
    );
    assert_eq!(
        sure("remove the sun cream line from packing.md"),
        Action::RemoveItem {
            name: "packing.md".into(),
            item: "sun cream".into()
        }
    );
    // Without a comma, a file said first is no target for words run on.
    nothing("in notes.md the milk is off");
    nothing("let me see the final whistle of the match");
}

#[test]
fn one_file_is_undone_and_appended_under_a_heading() {
    assert_table(
        "undo the change to groceries.txt => undo groceries.txt
         undo my last edit to notes.md => undo notes.md
         revert notes.md => undo notes.md
         undo the last change in todo.txt => undo todo.txt
         roll back plan.md => undo plan.md
         undo => undo
         add call Sam under Tuesday in week.md => append week.md|call Sam|Tuesday
         add milk to list.md under Shopping => append list.md|milk|Shopping
         add pick up dry cleaning under the Errands heading in todo.md => append todo.md|pick up dry cleaning|Errands",
    );
}

#[test]
fn a_heading_named_before_the_text_or_as_a_section() {
    assert_table(
        "in plan.md under the Monday heading add water the ferns => append plan.md|water the ferns|Monday
         in plan.md under Monday, put water the ferns => append plan.md|water the ferns|Monday
         under Later in plan.md add: sort the shed => append plan.md|sort the shed|Later
         plan.md, under Next Week: sort the shed => append plan.md|sort the shed|Next Week
         add sort the shed to the Later section of plan.md => append plan.md|sort the shed|Later
         put 'sort the shed' in the To Do part of plan.md => append plan.md|sort the shed|To Do
         append sort the shed to the Later heading of plan dot md => append plan.md|sort the shed|Later",
    );
    // The controls: "under" that names no heading of a file stays what it was.
    for (said, verb) in [
        ("search for under the sea", "grep"),
        ("create under.md with the sea", "write"),
        ("add the Later section to plan.md", "append"),
    ] {
        let action = read_as(said, verb);
        if let Action::Append { under, .. } = &action {
            assert_eq!(under, &None, "{said}: {action:?}");
        }
    }
}

#[test]
fn near_misses_stay_what_they_were() {
    for (said, verb) in [
        ("remove milk from notes.md", "remove_item"),
        ("put milk in notes.md", "write"),
        ("check notes.md", "read"),
        ("search for milk", "grep"),
        ("delete the old folder", "delete"),
        ("create a file called hello.txt with hi", "write"),
    ] {
        read_as(said, verb);
    }
}

/// A place outside the folder said in words is never a folder inside it;
/// the same words naming a folder that is said as one stay a move.
#[test]
fn a_move_out_of_the_folder_in_words_is_not_read_as_a_folder_inside_it() {
    for said in [
        "move stock.csv to the parent folder",
        "copy thesis/draft.md to my Desktop",
        "move notes.md up one level",
        "copy plan.md to my usb stick",
        "move plan.md outside the folder",
    ] {
        let got = resolve(said);
        assert!(got.action().is_none(), "{said}: {got:?}");
    }
    assert_table(
        "move stock.csv to the desktop folder => move stock.csv|desktop/stock.csv
         copy plan.md to the parents folder => copy plan.md|parents/plan.md",
    );
}

/// Files asked for by what their names hold; the same words about what
/// files say stay a search of their text.
#[test]
fn files_found_by_what_their_names_hold() {
    assert_table(
        "which files have invoice in their name => find invoice
         find every file with setlist in the name => find setlist
         look for a file whose name has 2026 in it => find 2026
         show me all files whose names contain draft => find draft
         locate the file with receipt in the name => find receipt",
    );
    for (said, verb) in [
        ("which files have invoice in them", "grep"),
        ("which files mention invoice", "grep"),
    ] {
        read_as(said, verb);
    }
}

/// A rename said as a wish or with "call", and one file's change put back
/// "how it was"; a call to a person and a thing put back somewhere are not
/// read so.
#[test]
fn renames_and_undos_said_as_wishes() {
    assert_table(
        r#"
        I'd like menu-winter.md to be called menu.md from now on => move menu-winter.md | menu.md
        call gear.md kit.md instead => move gear.md | kit.md
        put menu.md back how it was => undo menu.md
        put timetable.md back the way it was before your change => undo timetable.md
        undo whatever you did to greens.md => undo greens.md
        put it back how it was => undo
        "#,
    );
    nothing("call mom");
    nothing("call the plumber about the leak");
    nothing("put the milk back in the fridge");
    nothing("that file used to be called specials");
}

/// "put X in place of Y" is an edit as "put X instead of Y" is, the file
/// said first or last (asked when the words could be a text to write).
#[test]
fn a_text_put_in_place_of_another_is_an_edit() {
    for said in [
        "put wednesday in place of tuesday in plan.md",
        "in plan.md put wednesday in place of tuesday",
    ] {
        assert_eq!(
            resolve(said)
                .action()
                .cloned()
                .unwrap_or_else(|| panic!("{said}")),
            Action::Edit {
                name: "plan.md".into(),
                old_text: "tuesday".into(),
                new_text: "wednesday".into(),
                expect: None,
            },
            "{said}"
        );
    }
    nothing("the bike is in place of the car");
}

/// A folder made "to" or "under" another is made inside it; "one folder"
/// is a folder.
#[test]
fn a_folder_made_inside_another_said_many_ways() {
    assert_table(
        r#"
        add a carols folder to the library folder => mkdir library/carols
        create a folder called 2026 under invoices => mkdir invoices/2026
        please to create one folder 'photos' => mkdir photos
        "#,
    );
    nothing("add notes.md to the archive folder");
}

/// A copy given its name after "and call it"; "oops" before a request is
/// no undo of anything.
#[test]
fn a_copy_named_after_it_is_made_and_an_oops_before_a_request_is_no_undo() {
    assert_table(
        r#"
        take a copy of stops.md and call it stops-winter.md => copy stops.md | stops-winter.md
        make a copy of notes.md and name it notes-old.md => copy notes.md | notes-old.md
        oops, untick lock the van in checklist.md => check_item checklist.md | lock the van | false
        "#,
    );
    assert!(!matches!(
        resolve("oops, open the thing"),
        Resolution::Action(Action::Undo { .. })
    ));
    assert_eq!(resolve("oops").action(), Some(&Action::Undo { name: None }));
}

/// A file put or filed in a folder is moved there; a text put in a file, or
/// a new file put in a folder, is not. A file wished gone is deleted.
#[test]
fn a_file_filed_in_a_folder_is_moved_and_one_wished_gone_is_deleted() {
    assert_table(
        r#"
        put draft.md in the zines folder => move draft.md | zines/draft.md
        file minutes-march.md under minutes => move minutes-march.md | minutes/minutes-march.md
        I'd like minutes-old.md deleted => delete minutes-old.md
        I want notes.md gone => delete notes.md
        put hello in notes.md => write notes.md | hello
        "#,
    );
    assert!(!matches!(
        resolve("put a new file called call-log.txt in notes/"),
        Resolution::Action(Action::Move { .. })
    ));
    nothing("I'd like the meeting cancelled");
}
