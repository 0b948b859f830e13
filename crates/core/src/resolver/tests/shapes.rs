//! Requests in shapes the earlier sets had not shown: a phrase between a new
//! thing's noun and its name, `head` and `tail` typed with their flags, a
//! list's line that "can come off" it, a title among an item's words, the
//! folders above said as `..`, "scratch that" (also said of the words
//! just dictated, so asked), a slip put right ("it should be A not B"), and
//! a file changed "so it only says …".

use super::super::resolve;
use super::{appended_under, assert_table, assert_table_in, guess, not_a, nothing, sure};
use crate::action::Action;
use crate::command::Verb;

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

#[test]
fn casual_verbs_of_adding_and_a_text_said_before_add_to() {
    assert_table(
        r#"
        pop Stand 14, near the café into exhibition.md => append exhibition.md | Stand 14, near the café
        whack Chicken of the woods on species-list.md => append species-list.md | Chicken of the woods
        Goldcrest x3 — add to species-counts.md => append species-counts.md | Goldcrest x3
        I need Co-op: 6 crates of pasta added to donations.md => append donations.md | Co-op: 6 crates of pasta
        oh and while you're at it add Mo can do Saturdays to volunteers.md => append volunteers.md | Mo can do Saturdays
        ad Net 7 guy rope to nets.md ?=> append nets.md | Net 7 guy rope
        "#,
    );
    // "write … into" still writes; a two-letter word that is a word of its
    // own is never bent.
    assert_table("write hello into notes.md => write notes.md | hello");
    nothing("at the end of the day");
    nothing("I need the cat fed");
}

#[test]
fn looks_and_copies_said_the_way_people_talk() {
    assert_table(
        r#"
        what have we got in bookings.md => read bookings.md
        stats on playlist.md please => info playlist.md
        when did anyone last touch lane-rota.md => info lane-rota.md
        have we got a file with lifeguard in its name somewhere => find lifeguard
        anything changed this week? => changes this week
        what have I changed that isn't committed yet => changes
        clone layout.md into layout-exhibition.md => copy layout.md | layout-exhibition.md
        could I get a copy of hire-rates.md at hall/hire-rates.md => copy hire-rates.md | hall/hire-rates.md
        can I get a new file, recaptures.md, with Robin retrapped => write recaptures.md | Robin retrapped | create
        scrap that last change, I didn't mean it => undo
        uh undo that last bit => undo
        scrap that ?=> undo
        "#,
    );
    nothing("can I get a coffee");
}

#[test]
fn reads_at_a_moment_edits_made_into_and_files_asked_for_alone() {
    assert_eq!(
        sure("glazes.md as it was at the last commit please"),
        super::read_at("glazes.md", "last commit")
    );
    assert_eq!(
        sure("the version of complaints.md from yesterday please"),
        super::read_at("complaints.md", "yesterday")
    );
    assert_table(
        r#"
        make 11.2g into 12.1g in ringing-log.md => edit ringing-log.md | 11.2g | 12.1g
        in ringing-log.md make 11.2g into 12.1g => edit ringing-log.md | 11.2g | 12.1g
        files please => list
        find where chickpeas is mentioned => grep chickpeas
        "#,
    );
    // No file named, no name alone, no request: none of these is read.
    nothing("make notes.md into a list");
    nothing("I was at the park yesterday");
    nothing("notes from yesterday");
    nothing("files are a pain");
}

#[test]
fn a_heading_said_with_its_kind_before_the_adding_and_a_name_given() {
    assert_eq!(
        appended_under("glazes.md, Reds section: add Copper red, reduction only"),
        (
            "glazes.md".into(),
            "Copper red, reduction only".into(),
            "Reds".into()
        )
    );
    assert_eq!(
        appended_under("in boat-jobs.md, Electrics heading, add Replace bilge pump fuse"),
        (
            "boat-jobs.md".into(),
            "Replace bilge pump fuse".into(),
            "Electrics".into()
        )
    );
    assert_table(
        r#"
        give notes.md the name diary.md => move notes.md | diary.md
        give forays.md a new name, forays-2026.md => move forays.md | forays-2026.md
        "#,
    );
    nothing("notes.md, the title is wrong");
    nothing("give me a new name");
}

#[test]
fn the_line_pointed_back_at_is_the_subject_of_the_clause_said_last() {
    assert_eq!(
        guess("the printer jammed so print answer sheets isn't done, untick it in quiz-jobs.md"),
        Action::CheckItem {
            name: "quiz-jobs.md".into(),
            item: "print answer sheets".into(),
            done: Some(false),
            expect: None,
        }
    );
    // A last clause with no subject of its own leaves the first clause's.
    assert_eq!(
        guess("Mr Brown dropped out and won't be coming, remove him from guests.md"),
        Action::RemoveItem {
            name: "guests.md".into(),
            item: "Mr Brown".into(),
        }
    );
}

#[test]
fn a_file_said_as_whose_it_is_and_a_name_said_again_in_the_text() {
    assert_table_in(
        &[
            "dad/meds.md", "dad/appointments.md", "dad/diary.md", "bills.md",
        ],
        r#"
        read dad's appointments => read dad/appointments.md
        tick evening tablets in dad's meds => check_item dad/meds.md | evening tablets
        what have I got in dad's folder => list dad
        "#,
    );
    assert_table_in(
        &["keys.md", "lessons.md"],
        r#"
        overwrite keys with All keys returned => write keys.md | All keys returned
        overwrite lessons so it just says No lessons over Christmas => write lessons.md | No lessons over Christmas
        "#,
    );
}

#[test]
fn names_searched_as_names() {
    assert_table(
        r#"
        any files with invoice in the filename? => find invoice
        search file names for receipt => find receipt
        find anything mentioning Heaton => grep Heaton
        clear clubs.md out completely => write clubs.md |
        "#,
    );
    // Files with words in them, not in their names, are searched.
    assert_table("any files with milk in them => grep milk");
}

#[test]
fn a_slip_put_right_says_the_new_text_then_the_old_after_not() {
    assert_table(
        r#"
        oops in collections.md it should be £612.40 not £621.40 => edit collections.md | £621.40 | £612.40
        whoops, plan.md should read 3pm rather than 2pm => edit plan.md | 2pm | 3pm
        rota.md should say Tuesday, not Monday ?=> edit rota.md | Monday | Tuesday
        "#,
    );
    assert_table(
        "it was Mill Road not Mill Lane, fix that in intake.md => edit intake.md | Mill Lane | Mill Road",
    );
    // No file named: nothing to put right.
    nothing("the date should be the 5th not the 4th");
    nothing("it was good not bad, I liked it");
}

#[test]
fn searches_asked_as_where_i_wrote_it_or_whether_anything_has_it() {
    assert_table(
        r#"
        where have I written Rolo => grep Rolo
        where have we mentioned the boiler => grep boiler
        has anything got hedgehog in it => grep hedgehog
        does any file contain badger => grep badger
        "#,
    );
}

#[test]
fn an_item_dropped_set_back_or_set_done_and_a_copy_wanted_again() {
    assert_table(
        r#"
        drop chain lube from spares.md => remove_item spares.md | chain lube
        drop the pedals from parts.md ?=> remove_item parts.md | pedals
        set buy milk to done in todo.md => check_item todo.md | buy milk
        I want a second copy of packing.md named packing-pbp.md => copy packing.md | packing-pbp.md
        could I have an extra copy of notes.md as notes-old.md => copy notes.md | notes-old.md
        "#,
    );
    assert_eq!(
        sure("set run the western back to not done in experiments.md"),
        Action::CheckItem {
            name: "experiments.md".into(),
            item: "run the western".into(),
            done: Some(false),
            expect: None,
        }
    );
    // "put X done" is a line to add, not a tick: a "set" needs "as" or "to".
    assert_table_in(
        &["todo.md"],
        "put Hartley Rd done in todo.md => append todo.md | Hartley Rd done",
    );
    // The controls: no file to drop from, and "set" with no state ticks nothing.
    nothing("drop the meeting from the calendar");
    nothing("set the alarm in todo.md");
}

#[test]
fn a_file_changed_so_it_says_blanked_or_scrapped_and_asked_whether_it_changed() {
    assert_table(
        r#"
        change letting-agent.md so it only says Managed by Hollis => write letting-agent.md | Managed by Hollis
        update plan.md so that it just says cancelled => write plan.md | cancelled
        blank the whole of expenses.md => write expenses.md |
        ok so scrap what's in controls.md and put Control 1: Chepstow Tesco instead => write controls.md | Control 1: Chepstow Tesco
        has defects.md changed recently? => info defects.md
        has plan.md been changed lately => info plan.md
        what's in my folder at the moment => list
        "#,
    );
    // A statement of a change made is no request; "scrap" alone still deletes.
    nothing("I changed notes.md so it says hello");
    assert_table("scrap notes.md => delete notes.md");
}

#[test]
fn a_name_said_on_its_own_is_a_look_at_it_asked_and_a_preview_said_as_what_it_would_look_like() {
    let folder = ["kennel-board.md", "meds-due.md", "shifts.md"];
    assert_table_in(
        &folder,
        r#"
        Kennel board please ?=> read kennel-board.md
        shifts.md please, what have I got next week ?=> read shifts.md
        "#,
    );
    // The controls: a remark about the file, and a name the folder lacks.
    let in_folder = |text: &str| {
        let names = folder
            .iter()
            .map(|n| alloc::string::String::from(*n))
            .collect();
        super::super::resolve_in(text, &super::super::Folder::new(names))
    };
    for remark in [
        "kennel board is a mess",
        "I hate the kennel board",
        "rota please",
    ] {
        assert!(
            matches!(
                in_folder(remark),
                super::super::Resolution::Unresolved { .. }
            ),
            "{remark}: {:?}",
            in_folder(remark)
        );
    }
    assert_table(
        r#"
        before I do it, show me what overwriting packing.md with lights, lock, phone would look like ?=> diff packing.md | lights, lock, phone
        what would change if controls.md just said Control 1: Exeter services? don't save anything ?=> diff controls.md | Control 1: Exeter services
        "#,
    );
}

#[test]
fn a_text_said_before_a_comma_and_pointed_back_at_is_what_is_added() {
    assert_table(
        r#"
        oat milk, add that to groceries.md => append groceries.md | oat milk
        topped up coolant, log that in engine-log.md => append engine-log.md | topped up coolant
        "#,
    );
    // The controls: courtesy is no text, and a remark before the comma is
    // read for its item where it is pointed at, not added whole.
    assert!(!matches!(
        resolve("we're out of oat milk, add it to pantry.txt"),
        super::super::Resolution::Action(Action::Append { ref content, .. }) if content.starts_with("we")
    ));
    assert!(!matches!(
        resolve("thanks, add that to groceries.md"),
        super::super::Resolution::Action(Action::Append { .. })
    ));
    // After a dash an item is the text, asked; a state said with it is not.
    assert_table("PE kit — tick that off in school.md ?=> check_item school.md | PE kit");
    assert!(!matches!(
        resolve("Kenya AA delivered — check it off in greens.md").action(),
        Some(Action::CheckItem { item, .. }) if item == "Kenya AA delivered"
    ));
    assert_table_in(
        &["rowing/erg-scores.md", "rowing/crews.md"],
        "what were the erg scores ?=> read rowing/erg-scores.md",
    );
}

#[test]
fn an_item_keeps_its_own_off_and_owning_up_is_no_undo() {
    assert_table(
        r#"
        tick off gas off at the bottle in caravan-checklist.md => check_item caravan-checklist.md | gas off at the bottle
        cross call mom off the list in todo.md => check_item todo.md | call mom
        oops => undo
        "#,
    );
    assert_eq!(
        sure("untick gas off at the bottle in caravan-checklist.md"),
        Action::CheckItem {
            name: "caravan-checklist.md".into(),
            item: "gas off at the bottle".into(),
            done: Some(false),
            expect: None,
        }
    );
    assert_table_in(
        &["mum-list.md", "meds.md"],
        "oops, untick collect prescription on mum's list ~> check_item mum-list.md | collect prescription | false",
    );
}

#[test]
fn a_heading_said_first_a_new_line_said_as_such_and_the_git_status() {
    assert_table(
        r#"
        under Furniture in donations.md could you add oak side table, £15 => append donations.md | oak side table, £15 | Furniture
        in the Water section of caravan-checklist.md add drain the water barrel => append caravan-checklist.md | drain the water barrel | Water
        new line in logbook.md: 5 Dec, stalls and steep turns => append logbook.md | 5 Dec, stalls and steep turns
        make finishes.md say only Osmo oil, two coats, nothing else => write finishes.md | Osmo oil, two coats
        clear everything out of benefits.md => write benefits.md |
        I'd prefer deadlines.md to be called due-dates.md, rename it => move deadlines.md | due-dates.md
        what's the git status => changes
        anything about awning? search for awning => grep awning
        what's in this folder then => list
        right so can you tell me what files I've got => list
        "#,
    );
    // The control: a status asked of the world is no look at the folder.
    nothing("what is the status of my order");
}

#[test]
fn a_comma_in_a_text_added_in_a_file_said_first_is_the_texts_own() {
    assert_table(
        r#"
        in handover.md add Porter 4 off sick, cover from agency => append handover.md | Porter 4 off sick, cover from agency
        in handover.md add eggs, milk and bread => append handover.md | eggs, milk and bread
        in the drafts folder, read plan.md => read drafts/plan.md
        I want upvc-parts.md to say nothing but Euro cylinders 35/35 x4 — overwrite it => write upvc-parts.md | Euro cylinders 35/35 x4
        hypothetically, if themes.md said Birds of prey, show me the diff ?=> diff themes.md | Birds of prey
        "#,
    );
}

#[test]
fn a_name_spoken_in_several_words_is_joined_with_hyphens_unless_typed_as_a_title() {
    assert_table(
        r#"
        tick clean the griddle in prep list dot md => check_item prep-list.md | clean the griddle
        create a file called kiln log dot txt with cone 6 => write kiln-log.txt | cone 6 | create
        open Meeting Notes dot txt => read Meeting Notes.txt
        "#,
    );
    // The file on disk is found whatever its separators.
    assert_table_in(
        &["my notes.txt", "notes.txt"],
        "what's in my notes dot txt => read my notes.txt",
    );
    assert_table_in(
        &["todo.md", "shopping.md"],
        r#"
        tick pay rent on my to do list => check_item todo.md | pay rent
        right uh put pick up the dry cleaning on my to do list => append todo.md | pick up the dry cleaning
        "#,
    );
}

#[test]
fn files_of_a_kind_a_file_put_where_another_name_is_and_a_remark_noted() {
    assert_table(
        r#"
        find all the wav files => find *.wav
        find every pdf file in here => find *.pdf
        any pdfs in here => find *.pdf
        find all files matching *.md => find *.md
        what files have I got in here? => list
        show me the folder's commit history => history
        ctrl z that please => undo
        get me the details of offers.md => info offers.md
        "#,
    );
    assert_table_in(
        &["pcr-notes.md", "protocols/western.md"],
        "put pcr-notes.md in protocols ?=> move pcr-notes.md | protocols/pcr-notes.md",
    );
    assert_table_in(
        &["penguins.md", "feeding-log.md"],
        "the penguins had 4kg of sprats, note that in penguins => append penguins.md | the penguins had 4kg of sprats",
    );
    // The control: "find the text" names no kind of file.
    assert!(!matches!(
        resolve("find the text"),
        super::super::Resolution::Action(Action::Find { .. })
    ));
}

#[test]
fn a_file_said_by_its_own_name_and_its_folders_kind_and_a_folder_said_in_two_words() {
    let folder = [
        "birth-plans/lowe.md", "birth-plans/patel.md", "show-notes/ep-41.md",
        "show-notes/ep-40.md", "patterns/coat.md", "library/loans.md",
    ];
    assert_table_in(
        &folder,
        r#"
        read the Lowe birth plan => read birth-plans/lowe.md
        in the ep-41 show notes change Tuesday to Wednesday => edit show-notes/ep-41.md | Tuesday | Wednesday
        copy the ep-41 show notes to show-notes/ep-42.md => copy show-notes/ep-41.md | show-notes/ep-42.md
        whats in birth plans ?=> list birth-plans
        Coat pattern out to Iris — add that to loans => append library/loans.md | Coat pattern out to Iris
        "#,
    );
}

#[test]
fn owning_up_before_a_request_is_no_undo_and_a_file_asked_about_is_its_info() {
    assert_table(
        r#"
        oops — untick oil the clappers in tower-jobs.md => check_item tower-jobs.md | oil the clappers | false
        does anything mention Paddington? => grep Paddington
        has anyone written anything about the bandstand => grep bandstand
        mark strip the wingback complete in upholstery-jobs.md => check_item upholstery-jobs.md | strip the wingback
        is race-results.md big? => info race-results.md
        "#,
    );
    // Owning up to a slip, with a request after it, is never the undo.
    for slip in [
        "oops, that wasn't done",
        "oops, that wasn't done — untick oil the clappers in tower-jobs.md",
    ] {
        assert!(
            !matches!(resolve(slip).action(), Some(Action::Undo { .. })),
            "{slip}"
        );
    }
    // The control: "oops" alone still undoes.
    assert_table("oops => undo");
}

#[test]
fn a_folder_named_after_what_it_is_for_and_who_has_been_changing_a_file() {
    assert_table(
        r#"
        I want a folder for the meerkat stuff, call it meerkats => mkdir meerkats
        make a folder for next year, call it season-2027 => mkdir season-2027
        make a folder for next year and name it season-2027 => mkdir season-2027
        make a folder in recipes for breakfasts, call it breakfast => mkdir recipes/breakfast
        who's been changing league-table.md => history league-table.md
        who has been editing fees.md => history fees.md
        "#,
    );
    // The control: a file made and called something is no folder.
    not_a("make a file for the rota, call it rota.md", Verb::Mkdir);
}

#[test]
fn a_whole_name_typed_alone_is_a_look_and_a_word_of_its_own_before_a_name_its_typo() {
    assert_table(
        r#"
        shopping.txt please ?=> read shopping.txt
        readings.md? ?=> read readings.md
        reed fixtures.md ?=> read fixtures.md
        rad shifts.md ?=> read shifts.md
        "#,
    );
    // The controls: a number is no name, and a name among other words is
    // no look by itself.
    nothing("2.0 please");
    nothing("./deploy.sh");
    nothing("readings.md is what the tutor wants");
}

#[test]
fn how_many_lines_or_files_something_holds_is_its_info() {
    let folder = [
        "memoir/chapter-01.md", "memoir/chapter-02.md", "vet-notes.md",
    ];
    assert_table_in(
        &folder,
        r#"
        how many lines are in timeline.md => info timeline.md
        how many lines does questions.md have => info questions.md
        how many lines is family-tree.md => info family-tree.md
        how many files are in the memoir folder => info memoir
        count the lines in vet-notes.md => info vet-notes.md
        "#,
    );
    // The controls: words are the tool's count, and files with no folder
    // named are the listing's.
    not_a("how many words are in timeline.md", Verb::Info);
    not_a("how many files are there", Verb::Info);
}

#[test]
fn find_said_of_a_word_files_are_named_with_finds_those_files() {
    // After the two finds, the controls: a word no file is named with, a
    // quoted text and a search said as one stay searches of what they say.
    assert_table_in(
        &[
            "repairs/strat-neck.md", "repairs/tele.md", "residents/edna.md", "notes.md",
        ],
        r#"
        find strat in the repairs folder ?=> find strat | repairs
        find edna ?=> find edna
        find invoice => grep invoice
        find tes => grep tes
        find "strat" => grep strat
        search for edna => grep edna
        "#,
    );
}
