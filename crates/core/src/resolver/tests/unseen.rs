//! Kinds of sentence a blind set missed, each read by its class — a sure
//! reading, or a guess that is asked — beside a sibling that must stay
//! unresolved or keep its other reading.

use super::super::{Folder, Resolution, resolve, resolve_in};
use super::{append, assert_table, assert_table_in, edit, guess, nothing, proposed_id, sure};
use crate::action::{Action, WriteMode};
use alloc::string::String;

fn write(name: &str, content: &str) -> Action {
    Action::Write {
        name: name.into(),
        content: content.into(),
        mode: None,
        expect: None,
    }
}

fn delete(name: &str) -> Action {
    Action::Delete { name: name.into() }
}

#[test]
fn the_ask_in_the_middle_of_a_rambling_sentence_is_a_guess_unless_taken_back() {
    assert_table(
        r#"
        the party moved, so in party.txt please replace saturday with sunday ?=> edit party.txt | saturday | sunday
        honestly that draft was awful — just bin draft.txt, it's beyond saving ?=> delete draft.txt
        # The file named in an earlier clause is where a later ask happens.
        In contacts.txt Bob moved house: replace Leeds with York. ?=> edit contacts.txt | Leeds | York
        quick one — what did I put in plan.md again? ?=> read plan.md
        "#,
    );
    nothing("the party moved, so replace saturday with sunday, no wait, don't");
    nothing("I wrote todo.txt yesterday, and it was fine");
    nothing("my cat sat on notes.md, and then she slept");
}

#[test]
fn tag_questions_thanks_and_learners_openings_carry_no_meaning() {
    assert_table(
        r#"
        trash draft.txt would you => delete draft.txt
        could you save "hi there" in memo.md for me? thanks a lot => write memo.md | hi there
        i want add call mom to todo.txt => append todo.txt | call mom
        i would like you create new file ideas.md => write ideas.md |  | create
        please you put "closed today" inside sign.txt => write sign.txt | closed today
        # The opening stays when no command word follows it.
        i want a new file called x.txt => write x.txt |  | create
        "#,
    );
    nothing("you deleted notes.md");
    nothing("i want notes.md to be shorter someday");
}

#[test]
fn a_reason_after_a_request_is_no_taking_back() {
    assert_table(
        r#"
        you can remove draft.txt, i not need it anymore => delete draft.txt
        delete old.log, we don't use it => delete old.log
        "#,
    );
    nothing("remove draft.txt, actually don't");
    nothing("delete old.log, no wait");
}

#[test]
fn an_item_described_before_its_file_is_added_as_said_after_the_colon() {
    assert_table(
        r#"
        add one more idea to ideas.txt: a podcast about maps => append ideas.txt | a podcast about maps
        add a task to todo.txt: call the bank => append todo.txt | call the bank
        # With no colon the words before the file are the content.
        add one more idea to ideas.txt => append ideas.txt | one more idea
        put oat milk on the groceries.md list => append groceries.md | oat milk
        "#,
    );
    nothing("put oat milk on the groceries list");
}

fn grep(query: &str, dir: Option<&str>) -> Action {
    Action::Grep {
        query: query.into(),
        dir: dir.map(Into::into),
    }
}

#[test]
fn a_search_said_as_the_shell_or_as_a_question_finds_its_folder() {
    assert_table(
        r#"
        grep budget drafts => grep budget | drafts
        grep -i password config => grep password | config
        grep TODO everywhere => grep TODO
        which files still have FIXME in them => grep FIXME
        is there something about rent in bills? please search => grep rent | bills
        "#,
    );
    // A command word talked about is no request.
    nothing("grep is my favourite command");
    nothing("delete was a strong word for it");
}

#[test]
fn a_file_said_first_with_a_colon_dash_or_shell_sign_is_added_to() {
    assert_table(
        r#"
        books.md — add Dune => append books.md | Dune
        standup.md, add: blocked on review => append standup.md | blocked on review
        >> log.txt deployed => append log.txt | deployed
        shopping.txt += two lemons => append shopping.txt | two lemons
        # With no adding word the line after the colon is a guess, asked.
        groceries.md: oat milk ?=> append groceries.md | oat milk
        "#,
    );
    nothing("notes.md: show me");
    nothing("notes.md: can we talk?");
    nothing("x += 1");
}

#[test]
fn a_sed_script_with_spaces_is_one_edit() {
    assert_table(
        r#"
        sed s/npm install/pnpm install/ docs/setup.md => edit docs/setup.md | npm install | pnpm install
        sed s/teh/the/ essay.md => edit essay.md | teh | the
        "#,
    );
    // Every occurrence is not one edit.
    nothing("sed 's/teh/the/g' essay.md");
}

#[test]
fn an_edit_said_as_a_described_value_an_arrow_or_a_passive_is_sure() {
    assert_table(
        r#"
        update the number 555-0101 to 555-0199 in contacts.txt => edit contacts.txt | 555-0101 | 555-0199
        in app.toml, change the 2.0.1 to 2.0.2 — it is release day => edit app.toml | 2.0.1 | 2.0.2
        party.txt: saturday -> sunday => edit party.txt | saturday | sunday
        in notes.md i want that milk is replaced by bread => edit notes.md | milk | bread
        # A description with no value in it is still a guess.
        update the version to 1.3 in config.txt ?=> edit config.txt | the version | 1.3
        # A quoted new text keeps its dash.
        in notes.md replace milk with "bread — brown" => edit notes.md | milk | bread — brown
        "#,
    );
    nothing("milk is replaced by bread these days");
}

#[test]
fn what_a_whole_file_should_say_is_a_write() {
    assert_table(
        r#"
        status.txt should just say shipped now => write status.txt | shipped
        sign.txt should now read: closed until Monday => write sign.txt | closed until Monday
        I'd like motto.txt to contain only this: less is more => write motto.txt | less is more
        replace whatever is in motd.txt with back at nine => write motd.txt | back at nine
        overwrite env.txt so that it only contains "MODE=debug" => write env.txt | MODE=debug
        wipe the contents of draft.txt but keep the file => write draft.txt | 
        # "read" may judge the file: a guess, asked.
        status.txt should read done ?=> write status.txt | done
        "#,
    );
    nothing("my notes.md should be shorter");
    nothing("i want notes.md to be shorter someday");
}

#[test]
fn reads_and_lists_in_loose_words() {
    assert_table(
        r#"
        i want to see what is written inside notes.md => read notes.md
        can I have a look at plan.md => read plan.md
        what did we put in todo.txt again => read todo.txt
        what there is inside folder drafts? => list drafts
        "#,
    );
    nothing("have a look at the weather");
    nothing("what did we put in the car");
}

fn diff(name: &str, content: &str) -> Action {
    Action::Diff {
        name: name.into(),
        content: Some(content.into()),
        against: None,
    }
}

#[test]
fn a_diff_said_as_the_shell_a_preview_or_a_hypothetical() {
    assert_table(
        r#"
        diff notes.md buy bread => diff notes.md | buy bread
        how would README.md differ from "Hello."? => diff README.md | Hello.
        preview todo.txt as: nothing today => diff todo.txt | nothing today
        # A name without its extension is a guess for the folder to settle.
        diff readme Hello ?=> diff readme | Hello
        show me the diff if I replace notes.md with "buy bread", but do not write it ?=> diff notes.md | buy bread
        what would be different if todo.txt just said buy milk ?=> diff todo.txt | buy milk
        "#,
    );
    nothing("how does my cat differ from a dog");
    nothing("diff notes.md");
    nothing("compare notes.md and todo.txt");
}

#[test]
fn a_three_letter_command_word_missing_a_letter_is_a_guess_where_the_request_starts() {
    assert_table(
        r#"
        lst files ?=> list
        can you lst the files ?=> list
        edt notes.md replace a with b ?=> edit notes.md | a | b
        nte that the boiler works in house.md ?=> append house.md | the boiler works
        "#,
    );
    // Words of their own, and words later in the sentence, are not bent.
    nothing("see notes.md later");
    nothing("my cat can lst");
}

#[test]
fn a_false_start_that_names_the_file_again_replaces_the_whole_name() {
    assert_table(
        r#"
        delete old dot txt i mean new dot txt ?=> delete new.txt
        open uh i mean read notes.md ?=> read notes.md
        "#,
    );
    nothing("delete old dot txt i mean");
}

#[test]
fn a_file_said_first_then_a_lone_dash_and_a_value_bumped_from_one_to_another() {
    assert_table(
        r#"
        todo.txt - add call mom => append todo.txt | call mom
        bump version.txt from 1.2 to 1.3 => edit version.txt | 1.2 | 1.3
        # A dash inside content stays in it.
        add 9 - 5 shift to rota.txt => append rota.txt | 9 - 5 shift
        "#,
    );
}

#[test]
fn speech_shaped_names_fillers_and_false_starts() {
    assert_table(
        r#"
        ok so i need you to add buy bread to the shopping list dot txt => append shopping-list.txt | buy bread
        add eggs to the list dot txt => append list.txt | eggs
        i mean read notes dot txt => read notes.txt
        um can you put down ran 5k at the end of the workout dot log => append workout.log | ran 5k
        "#,
    );
    // A phrase is no name: "the word count of essay dot md" keeps its file.
    nothing("the count of essay dot md is high");
}

#[test]
fn notes_and_lists_said_around_their_file() {
    assert_table(
        r#"
        add a note to diary.md saying went for a run => append diary.md | went for a run
        put call mom on my to do list in todo.txt ?=> append todo.txt | call mom
        # "on sunday" is no list: a put in a file replaces it.
        put call mom on sunday in reminder.txt => write reminder.txt | call mom on sunday
        "#,
    );
}

#[test]
fn previews_and_settings_said_loosely() {
    assert_table(
        r#"
        what would notes.md look like with buy milk => diff notes.md | buy milk
        if i wrote hello to notes.md what would change ?=> diff notes.md | hello
        set the version in config.txt to 2.0 ?=> edit config.txt | the version | 2.0
        search for "tax return" thanks => grep tax return
        # Unquoted, "thanks" may be what is looked for.
        search for tax thanks => grep tax thanks
        "#,
    );
}

#[test]
fn a_tool_wished_for_without_a_name_is_proposed_as_a_guess() {
    assert_eq!(
        proposed_id(guess("a tool that shouts text would be nice")),
        "shout-text"
    );
    assert_eq!(
        proposed_id(guess("can we have a tool that counts words")),
        "count-word"
    );
    assert_eq!(
        proposed_id(guess(
            "propose an extension that converts celsius to kelvin"
        )),
        "convert-celsius"
    );
    nothing("a tool would be nice");
    nothing("that would be nice");
}

#[test]
fn which_files_say_a_thing_is_a_search_and_looking_up_the_world_is_not() {
    for said in [
        "which file says hello",
        "tell me which files contain hello",
        "I need to find every file that says hello",
        "hey can you check if any of my files mention hello",
    ] {
        assert_eq!(sure(said), grep("hello", None), "{said}");
    }
    nothing("look up the capital of Peru");
    nothing("tell me which file you like");
}

#[test]
fn a_file_described_before_its_name_is_placed_in_the_folder_once() {
    assert_table(
        r#"
        create the recipes file recipes.md in the recipes folder => write recipes/recipes.md |  | create
        create drafts/plan.md in the drafts folder => write drafts/plan.md |  | create
        "#,
    );
}

#[test]
fn a_bare_change_said_as_a_question_is_asked_and_a_statement_is_nothing() {
    assert_table(
        r#"
        delete notes.md? ?=> delete notes.md
        could you delete notes.md? => delete notes.md
        could you maybe just delete draft dot txt I don't need it anymore ?=> delete draft.txt
        create a.txt saying how are you? => write a.txt | how are you? | create
        "#,
    );
    for said in [
        "should I delete notes.md",
        "did you delete notes.md?",
        "don't delete notes.md",
        "i am going to delete notes.md",
        "thanks for reading notes.md",
    ] {
        nothing(said);
    }
}

#[test]
fn a_learners_word_order_and_courtesy_inside_the_request() {
    assert_table(
        r#"
        please to delete old dot txt => delete old.txt
        can you to show me notes.md => read notes.md
        is possible to list the files => list
        me want read notes dot txt => read notes.txt
        i want that you write hello in notes.txt => write notes.txt | hello
        delete please the old.txt => delete old.txt
        read for me notes.md => read notes.md
        # "add … in FILE" adds, as "add … to FILE" does; "to my list in FILE" still wins.
        add milk in the list.txt please => append list.txt | milk
        add eggs to my list in groceries.md => append groceries.md | eggs
        erase all in notes.md => write notes.md | 
        "#,
    );
    nothing("to be or not to be");
}

#[test]
fn a_split_name_is_never_cut_after_a_determiner() {
    // Not "pick up dry cleaning to my" added to "do.txt".
    assert_table(
        r#"
        please add pick up dry cleaning to my to do dot txt => append todo.txt | pick up dry cleaning
        add to shopping dot txt two pints of milk => append shopping.txt | two pints of milk
        add to notes dot m d buy milk => append notes.md | buy milk
        "#,
    );
}

#[test]
fn extensions_said_as_words_and_notes_and_reminders_placed_in_a_file() {
    assert_table(
        r#"
        read data dot jason => read data.json
        read notes dot markdown => read notes.md
        read photo dot jay peg => read photo.jpg
        write hi to notes dot text => write notes.txt | hi
        # Spelled letter by letter, as before.
        read index dot h t m l => read index.html
        jot this down in ideas dot txt a robot that waters plants => append ideas.txt | a robot that waters plants
        put a reminder in todo.txt to call the vet => append todo.txt | call the vet
        correct the spelling of recieve to receive in letter.txt => edit letter.txt | recieve | receive
        "#,
    );
    nothing("put a reminder in my head");
}

#[test]
fn stories_with_a_verb_and_a_file_in_a_clause_do_not_act() {
    for said in [
        "yesterday I deleted old.txt, and today I regret it",
        "I was going to read notes.md, but I got busy",
        "my boss said to delete report.txt, but I'm not sure",
        "she asked me to add milk to list.txt",
        "the file notes.md, which I wrote last week, is long",
        "if you delete notes.md I will be sad",
        "tell my friend to read notes.md",
    ] {
        nothing(said);
    }
    assert_table(
        r#"
        ok it's late and I'm tired but please read me the agenda.md before bed ?=> read agenda.md
        before I forget — append call mom to todo.txt — thanks ?=> append todo.txt | call mom
        "#,
    );
}

#[test]
fn stutters_a_described_file_and_a_split_todo_from_a_recogniser() {
    assert_table(
        r#"
        uh delete the uh the old file old dot txt => delete old.txt
        i said read notes dot txt => read notes.txt
        add call the plumber to to do dot txt => append todo.txt | call the plumber
        # A joiner beside the noun makes it part of the name.
        remove temp underscore file dot txt => delete temp_file.txt
        "#,
    );
    nothing("i said hello to notes");
}

#[test]
fn edits_said_as_what_should_be_there_instead() {
    for said in [
        "plan.md has tuesday but it should be wednesday",
        "in plan.md tuesday should read wednesday",
        "in plan.md tuesday needs to be wednesday",
        "in plan.md, instead of tuesday write wednesday",
        "use wednesday instead of tuesday in plan.md",
    ] {
        assert_eq!(
            sure(said),
            edit("plan.md", "tuesday", "wednesday"),
            "{said}"
        );
    }
    nothing("I'd rather have tea instead of coffee");
    nothing("tuesday should be wednesday");
}

#[test]
fn undo_said_as_bringing_back_and_searches_said_as_checks() {
    assert_table(
        r#"
        put the file back => undo
        bring it back => undo
        can you restore what was there before => undo
        I'm trying to find where I wrote down the wifi password => grep wifi password
        can you see if the word wifi appears anywhere => grep wifi
        do I have anything that talks about wifi => grep wifi
        search my documents for the term quarterly => grep quarterly
        "#,
    );
    nothing("bring it on");
    nothing("see if you can");
}

#[test]
fn announced_lines_and_lines_after_a_files_name() {
    for said in [
        "jot down: call mom, in todo.txt",
        "could you add the following line to todo.txt call mom",
        "put this on the todo.txt: call mom",
        "append a line with call mom to todo.txt",
    ] {
        assert_eq!(sure(said), append("todo.txt", "call mom"), "{said}");
    }
    assert_eq!(guess("todo.txt — call mom"), append("todo.txt", "call mom"));
    nothing("notes.md - what a mess");
    nothing("notes.md, please");
}

#[test]
fn a_folder_of_the_root_said_without_folder_or_in_another_case_is_listed_as_a_guess() {
    let folder = Folder::new(alloc::vec!["Drafts/essay.md".into(), "notes.md".into()]);
    let guessed = |said: &str| match resolve_in(said, &folder) {
        Resolution::Guess { action, .. } => action,
        other => panic!("{said:?} should be a guess, got {other:?}"),
    };
    let drafts = Action::List {
        dir: Some("Drafts".into()),
    };
    assert_eq!(guessed("show me the drafts"), drafts);
    assert_eq!(guessed("what's in the DRAFTS"), drafts);
    // No such folder: nothing; a folder cannot be deleted, and "open" asks
    // for one of its files.
    for said in [
        "show me the planets", "delete the drafts", "open the drafts",
    ] {
        assert!(
            matches!(resolve_in(said, &folder), Resolution::Unresolved { .. }),
            "{said}"
        );
    }
    assert_eq!(
        sure("in folder drafts create plan.md"),
        Action::Write {
            name: "drafts/plan.md".into(),
            content: "".into(),
            mode: Some(WriteMode::Create),
            expect: None,
        }
    );
}

#[test]
fn a_careful_writers_announced_content_and_inserts() {
    assert_table(
        r#"
        Add the following to the end of log.txt: "Backup complete." => append log.txt | Backup complete.
        Insert "buy eggs" at the end of shopping.txt. => append shopping.txt | buy eggs
        Update "README.md" so that "v1" reads "v2". => edit README.md | v1 | v2
        "#,
    );
    // Inserting somewhere else is not an append.
    nothing("insert a row into data.csv");
}

#[test]
fn a_remark_after_a_files_name_is_no_line_to_add() {
    nothing("notes.md: I'll look at it later");
    nothing("report.pdf — that's the one from Tuesday");
    nothing("todo.txt: it is fine");
    assert_eq!(
        guess("todo.txt: buy stamps"),
        append("todo.txt", "buy stamps")
    );
}

#[test]
fn more_verbs_of_adding_to_a_list() {
    for said in [
        "pop eggs on the shopping.txt list",
        "chuck eggs onto shopping.txt",
        "include eggs in shopping.txt",
        "enter eggs in shopping.txt",
        "keep a note of eggs in shopping.txt",
    ] {
        assert_eq!(sure(said), append("shopping.txt", "eggs"), "{said}");
    }
    assert_table(
        r#"
        save the idea "solar kettle" to ideas.txt => write ideas.txt | solar kettle
        throw away scratch.txt => delete scratch.txt
        "#,
    );
    nothing("throw the ball");
    nothing("include me in the plan");
}

#[test]
fn previews_said_as_dry_runs_and_comparisons_of_what_is_there() {
    for said in [
        "dry-run writing goodbye to notes.md",
        "preview: write goodbye to notes.md",
        "test writing goodbye to notes.md without saving",
    ] {
        assert_eq!(guess(said), diff("notes.md", "goodbye"), "{said}");
    }
    for said in [
        "how different would notes.md be with goodbye",
        "what's the diff if notes.md becomes goodbye",
        "compare what's in notes.md to goodbye",
    ] {
        assert_eq!(sure(said), diff("notes.md", "goodbye"), "{said}");
    }
    // A command word is no file's name.
    nothing("preview write");
    nothing("notes.md will be with me");
}

#[test]
fn more_ways_to_replace_a_whole_file_or_make_a_new_one() {
    for said in [
        "replace all of notes.txt with hello",
        "fill notes.txt with hello",
        "rewrite notes.txt as hello",
        "write over notes.txt with hello",
        "save this as notes.txt: hello",
    ] {
        assert_eq!(sure(said), write("notes.txt", "hello"), "{said}");
    }
    let created = Action::Write {
        name: "notes.txt".into(),
        content: "hello".into(),
        mode: Some(WriteMode::Create),
        expect: None,
    };
    assert_eq!(
        sure("open a new file called notes.txt and write hello"),
        created
    );
    assert_eq!(sure("put hello in a new file called notes.txt"), created);
    // Opening a file that exists stays a read.
    assert_eq!(
        sure("open notes.txt"),
        Action::Read {
            name: "notes.txt".into(),
            first: None,
            last: None,
            at: None,
        }
    );
    nothing("fill the tank");
}

#[test]
fn more_ways_to_delete_and_a_file_that_can_go_is_asked() {
    for said in [
        "toss scratch.txt",
        "kill scratch.txt",
        "erase scratch.txt completely",
    ] {
        assert_eq!(sure(said), delete("scratch.txt"), "{said}");
    }
    assert_eq!(guess("scratch.txt can go"), delete("scratch.txt"));
    nothing("the kids can go");
    nothing("kill time");
}

/// The organising verbs' command words, a letter or two off, are guesses
/// like every other verb's; ordinary words near them are left alone.
#[test]
fn organising_words_mistyped_are_guesses() {
    let moved = Action::Move {
        name: "draft.md".into(),
        to: "final.md".into(),
    };
    assert_eq!(sure("rename draft.md to final.md"), moved);
    assert_eq!(guess("renmae draft.md to final.md"), moved);
    assert_eq!(guess("mvoe draft.md to final.md"), moved);
    let copied = Action::Copy {
        name: "draft.md".into(),
        to: "backup.md".into(),
    };
    assert_eq!(guess("cpoy draft.md to backup.md"), copied);
    nothing("more draft.md to final.md is what I want one day");
    nothing("I renamed draft.md to final.md yesterday");
}

/// What a sentence comes to in `folder`, sure or guessed alike; `None`
/// when it does nothing.
fn in_folder(said: &str, names: &[&str]) -> Option<Action> {
    let folder = Folder::new(names.iter().map(|n| String::from(*n)).collect());
    match resolve_in(said, &folder) {
        Resolution::Action(action) | Resolution::Guess { action, .. } => Some(action),
        Resolution::Unresolved { .. } => None,
    }
}

/// A file said without its extension and renamed or copied to a new name
/// said without one: the new name keeps the file's extension, unless it
/// is a folder that exists.
#[test]
fn a_file_said_loosely_keeps_its_extension_under_its_new_name() {
    let names = ["report.txt", "cv.md", "archive/old.md"];
    assert_eq!(
        in_folder("rename the report to summary", &names),
        Some(Action::Move {
            name: "report.txt".into(),
            to: "summary.txt".into(),
        })
    );
    assert_eq!(
        in_folder("copy my cv to cv-2027", &names),
        Some(Action::Copy {
            name: "cv.md".into(),
            to: "cv-2027.md".into(),
        })
    );
    // A new name with an extension of its own keeps it.
    assert_eq!(
        in_folder("rename the report to summary.md", &names),
        Some(Action::Move {
            name: "report.txt".into(),
            to: "summary.md".into(),
        })
    );
}

/// The content of a new file announced after its name as "the content is:",
/// "and inside write …": that content, never an empty file.
#[test]
fn content_announced_after_a_new_files_name_is_its_content() {
    assert_table(
        r#"
        create notes.md, the text is: call the bank => write notes.md | call the bank | create
        make a file todo.txt and inside put water the plants => write todo.txt | water the plants | create
        create the file plan.md, the content is: ship on monday => write plan.md | ship on monday | create
        # Said with nothing after, it is still an empty new file.
        create plan.md => write plan.md |  | create
        "#,
    );
}

/// "which file has X inside": where it is looked for is no part of what is.
#[test]
fn inside_at_the_end_of_a_search_says_where_not_what() {
    let grep = |query: &str| Action::Grep {
        query: query.into(),
        dir: None,
    };
    assert_table(
        r#"
        which files have invoice inside => grep invoice
        which file has Porto inside it => grep Porto
        "#,
    );
    assert_eq!(
        sure("which files mention \"inside\""),
        grep("inside"),
        "a quoted word is the query"
    );
}

/// A name with a number in it said with the number apart, as a word or as
/// digits: "chapter three" is `chapter3.md`, "week 1" `Week1.txt`.
#[test]
fn a_number_joined_to_a_name_may_be_said_apart() {
    let book = ["part1.md", "part2.md", "part12.md", "preface.md"];
    assert_table_in(
        &book,
        r#"
        read part two ~> read part2.md
        open part 12 ~> read part12.md
        show me part one ~> read part1.md
        "#,
    );
    assert_eq!(in_folder("read part four", &book), None);
    let logs = ["Logs/Day3.txt", "Logs/Day4.txt", "song.mp3"];
    assert_table_in(
        &logs,
        r#"
        read day three ~> read Logs/Day3.txt
        # An extension with a digit in it stays whole.
        delete song dot mp3 ~> delete song.mp3
        "#,
    );
}

/// The kind of a file said beside its name, where the kind is its folder's
/// name ("the pancakes recipe", "the recipe for pancakes" of
/// `Recipes/Pancakes.md`).
#[test]
fn a_file_said_with_its_folders_kind_is_that_file() {
    let names = [
        "Poems/Winter.md", "Poems/Spring.md", "Letters/to-bank.txt", "todo.txt",
    ];
    assert_table_in(
        &names,
        r#"
        read the winter poem ~> read Poems/Winter.md
        open the poem about spring ~> read Poems/Spring.md
        show me the letter to the bank ~> read Letters/to-bank.txt
        "#,
    );
    // A kind no folder has is not folded in.
    assert_eq!(in_folder("read the winter song", &names), None);
}

/// A remark after the ask ("…, that'd be lovely", "…, and that's all",
/// "…, she'll want it") comments on it; it is no part of the content.
#[test]
fn a_remark_after_the_ask_is_not_its_content() {
    assert_table(
        r#"
        long day today, could you add feed the cat to chores.txt, that'd be lovely ?=> append chores.txt | feed the cat
        the meeting moved, could you overwrite plan.txt with friday at ten, and that's all ?=> write plan.txt | friday at ten
        oops I typed it wrong, in names.txt can you change Ana to Anna, she'll notice ?=> edit names.txt | Ana | Anna
        # Content that goes on after its comma without a remark is kept whole.
        long day today, could you add eggs, flour to list.txt ?=> append list.txt | eggs, flour
        "#,
    );
}

/// A name taken back with "sorry" or "oops" and said again ("open a.txt,
/// sorry, a.md"): the second name, asked or said as assumed. "sorry" as
/// courtesy takes nothing back.
#[test]
fn a_name_taken_back_with_sorry_is_the_name_said_after() {
    assert_table(
        r#"
        read plans.txt, sorry, plans.md ?=> read plans.md
        delete temp.txt oops temp.log ?=> delete temp.log
        add eggs to list.txt sorry list.md ?=> append list.md | eggs
        "#,
    );
    assert_eq!(
        sure("sorry, delete temp.txt"),
        delete("temp.txt"),
        "a courtesy before the ask takes nothing back"
    );
    assert_eq!(
        sure("write sorry for the delay to reply.txt"),
        write("reply.txt", "sorry for the delay"),
        "\"sorry\" in content takes nothing back"
    );
}

/// A file said with the folder it is in ("scan_07 in old scans", "from the
/// Old Scans folder"): the folder is where it is, no part of the request.
#[test]
fn a_file_said_with_its_own_folder_is_that_file() {
    let names = ["Old Scans/scan_07.png", "Old Scans/scan_08.png", "notes.md"];
    for said in [
        "delete scan_07 in old scans",
        "remove scan_07 from the Old Scans folder",
        "get rid of scan 07 inside old scans",
    ] {
        assert_eq!(
            in_folder(said, &names),
            Some(delete("Old Scans/scan_07.png")),
            "{said}"
        );
    }
    // Another folder than its own is not folded in: that file is not it.
    assert_ne!(
        in_folder("delete scan_07 in new scans", &names),
        Some(delete("Old Scans/scan_07.png"))
    );
}

/// A read said as a learner says it: the article dropped before "content
/// of", or "write" for "written".
#[test]
fn a_read_in_a_learners_words_reads() {
    assert_table(
        r#"
        show me content of plan.md => read plan.md
        give me text of memo.txt => read memo.txt
        what is write in memo.txt => read memo.txt
        what is wrote in diary.md? => read diary.md
        "#,
    );
    nothing("give me content of the week");
    nothing("what is write in english");
}

/// The file said first and an adding word right after it, with no colon or
/// dash between, as speech writes it: the same append as with one.
#[test]
fn a_file_then_an_adding_word_without_a_separator_appends() {
    assert_table(
        r#"
        shopping dot txt add rice => append shopping.txt | rice
        todo.md add call the vet => append todo.md | call the vet
        "#,
    );
    assert_eq!(
        in_folder(
            "packing list add sunscreen",
            &["Packing List.md", "old/x.md"]
        ),
        Some(append("Packing List.md", "sunscreen"))
    );
    // A word that is no file before "add" is no file to add to.
    nothing("salt add to taste");
}

/// A change asked about with the file as "it" or "its content", or as how
/// the file would look or differ with new text: a diff, never a write.
#[test]
fn a_change_asked_about_by_likeness_or_by_it_is_a_diff() {
    assert_table(
        r#"
        how would motto.md look different with carpe diem ?=> diff motto.md | carpe diem
        show me how plan dot txt would differ with rest on sunday ?=> diff plan.txt | rest on sunday
        preview the change to rate.txt if I set it to 4.5 ?=> diff rate.txt | 4.5
        show me a diff of readme.md if its content were "Hello there" ?=> diff readme.md | Hello there
        "#,
    );
    // No file named: no diff.
    nothing("how would life look different with a dog");
}

/// "diff NAME against TEXT" with the name said bare: the joiner is no part
/// of the text.
#[test]
fn a_joiner_after_a_bare_name_to_diff_is_no_part_of_the_text() {
    assert_table(
        r#"
        diff intro against hello there ?=> diff intro | hello there
        diff intro vs we are open ?=> diff intro | we are open
        # Without a joiner the words after the name are the text, whole.
        diff intro versions differ ?=> diff intro | versions differ
        "#,
    );
}

/// A sentence about searching that looks for a pronoun ("… and find
/// nothing") names no text: nothing is searched; a quoted one is.
#[test]
fn a_search_for_a_pronoun_alone_is_no_search() {
    nothing("it annoys me when I look everywhere and find nothing");
    nothing("I searched all day and could not find anything");
    nothing("find something");
    assert_eq!(
        sure("search for \"nothing\""),
        Action::Grep {
            query: "nothing".into(),
            dir: None,
        }
    );
    assert_eq!(
        sure("search for nothing burger"),
        Action::Grep {
            query: "nothing burger".into(),
            dir: None,
        }
    );
}

/// "in which files did I write X", and a learner's "in which file I
/// mentioned X": a search for X.
#[test]
fn in_which_files_someone_wrote_something_is_a_search() {
    assert_table(
        r#"
        in which files did I write Porto? => grep Porto
        in which file I mentioned the dentist => grep dentist
        in what files have we noted budget => grep budget
        "#,
    );
    nothing("in which files did I go wrong with my life and career plans");
    nothing("in which country did I write my thesis");
}

/// A tool's id spelled letter by letter, as speech writes it ("w c",
/// "c r c 32"): the id, run as typed.
#[test]
fn a_tool_id_spelled_letter_by_letter_is_that_id() {
    let tool = |id: &str, name: &str| Action::Tool {
        id: id.into(),
        name: Some(name.into()),
    };
    assert_eq!(sure("run w c on essay dot txt"), tool("wc", "essay.txt"));
    assert_eq!(
        sure("use c r c 32 on backup.zip"),
        tool("crc32", "backup.zip")
    );
    assert_eq!(sure("run the w c tool on notes.md"), tool("wc", "notes.md"));
    // A single letter is no tool said letter by letter, and no file: nothing.
    nothing("run a mile on sunday");
}

/// "edit FILE, X should become Y" where the old text opens with a word that
/// is also a swapping verb ("turn", "change", "swap"): the change said
/// with "become".
#[test]
fn old_text_opening_with_a_swapping_word_still_becomes_the_new() {
    assert_table(
        r#"
        edit route.md, turn north should become turn south => edit route.md | turn north | turn south
        edit notes.md, change later should be change now => edit notes.md | change later | change now
        "#,
    );
    // With no "become", nothing says what it becomes: asked what to change.
    nothing("edit route.md, turn north");
}

/// The root said as "the folder" with no name ("show me my folder", "list
/// the whole directory"): it is listed; a folder with a name is that one.
#[test]
fn the_folder_said_with_no_name_is_the_root() {
    let root = Action::List { dir: None };
    assert_eq!(sure("show me my folder"), root);
    assert_eq!(sure("list the whole directory"), root);
    assert_eq!(sure("what's in the folder"), root);
    assert_eq!(
        sure("show me the drafts folder"),
        Action::List {
            dir: Some("drafts".into())
        }
    );
    nothing("show me the folder you like");
}

/// "find every X in the files": a search for X; without the files it is
/// no search.
#[test]
fn every_word_found_in_the_files_is_a_search() {
    assert_table(
        r#"
        find every FIXME in my files => grep FIXME
        find all XXX in the files => grep XXX
        "#,
    );
    nothing("find every restaurant nearby");
}

/// A list's line said as an item is removed as one, and so is "remove X
/// from" a list of a few plain words; text said as text stays an edit.
#[test]
fn items_said_as_items_are_removed_as_items() {
    let removed = |name: &str, item: &str| Action::RemoveItem {
        name: name.into(),
        item: item.into(),
    };
    assert_eq!(
        sure("delete the item rye bread from pantry.md"),
        removed("pantry.md", "rye bread")
    );
    assert_eq!(
        sure("remove the list item 'call the vet' from tasks.md"),
        removed("tasks.md", "call the vet")
    );
    assert_eq!(
        sure("remove item batteries from packing.md"),
        removed("packing.md", "batteries")
    );
    assert_eq!(
        sure("remove tinned tomatoes from grocery-list.md"),
        removed("grocery-list.md", "tinned tomatoes")
    );
    assert_eq!(
        sure("drop sunscreen from packing-list.txt"),
        removed("packing-list.txt", "sunscreen")
    );
    // Text said as text, or a file not called a list, is not an item.
    assert!(!matches!(
        resolve("remove the word very from essay.md"),
        Resolution::Action(Action::RemoveItem { .. })
            | Resolution::Guess {
                action: Action::RemoveItem { .. },
                ..
            }
    ));
    assert!(!matches!(
        resolve("remove the second paragraph from letter.md"),
        Resolution::Action(Action::RemoveItem { .. })
            | Resolution::Guess {
                action: Action::RemoveItem { .. },
                ..
            }
    ));
}

/// A new file named before a colon is made with what follows; "change the
/// name of" renames; an item said only as "it" is not taken as an item.
#[test]
fn new_files_before_a_colon_renames_in_words_and_items_said_as_it() {
    assert_table(
        r#"
        new file limerick.txt: there once was a cat => write limerick.txt | there once was a cat | create
        pantry.md: rolled oats ?=> append pantry.md | rolled oats
        "#,
    );
    assert_eq!(
        sure("change the name of plan-b.md to plan-c.md"),
        Action::Move {
            name: "plan-b.md".into(),
            to: "plan-c.md".into(),
        }
    );
    assert!(!matches!(
        resolve("the vet visit is not done, untick it in pets.md"),
        Resolution::Action(Action::CheckItem { ref item, .. }) if item == "it"
    ));
}

/// Headings said with their kind ("the heading X", "the X section"), an
/// item's end at its place word, and a remark on how a whole file is
/// written, are not part of what is written.
#[test]
fn headings_items_and_remarks_keep_only_their_words() {
    assert_table(
        r#"
        add renew passport under the heading Admin in life.md => append life.md | renew passport | Admin
        add renew passport to life.md under the Admin section => append life.md | renew passport | Admin
        remove sunscreen from the list in packing.md => remove_item packing.md | sunscreen
        "#,
    );
    nothing("remove sunscreen from the list");
    assert_table(
        r#"
        motd.txt should say closed today and nothing else => write motd.txt | closed today
        I want banner.txt to contain only 'sale ends friday', overwrite it => write banner.txt | sale ends friday
        "#,
    );
}
