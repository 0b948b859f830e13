//! Kinds of sentence the blind sets found missing, each with its
//! refused sibling beside it: the file named before the request, the end
//! named first, the fault before the old text, fillers and trailing time,
//! web addresses.

use super::{assert_table, nothing};
use crate::resolver::{Resolution, resolve};

#[test]
fn the_file_or_its_end_said_first_then_the_request() {
    assert_table(
        r#"
        in memo.txt, write "Meeting moved to 3pm, room 4B." => write memo.txt | Meeting moved to 3pm, room 4B.
        in notes.md, add eggs => append notes.md | eggs
        in notes.md, replace milk with bread => edit notes.md | milk | bread
        todo.txt: add call mom => append todo.txt | call mom
        at the end of notes.md add Q3 budget is 12k => append notes.md | Q3 budget is 12k
        add a line to todo.txt: Call dentist, 555-0142 => append todo.txt | Call dentist, 555-0142
        add a new line to log.txt saying server restarted at 14:05 => append log.txt | server restarted at 14:05
        put eggs on shopping.txt => append shopping.txt | eggs
        "#,
    );
    // "put X in NAME" still replaces; "put on music" is nobody's file.
    assert_table("put eggs in shopping.txt => write shopping.txt | eggs");
    nothing("put on some music");
}

#[test]
fn edits_said_as_fixes_updates_and_corrections() {
    assert_table(
        r#"
        fix the typo teh to the in essay.txt => edit essay.txt | teh | the
        in essay dot txt fix teh to the => edit essay.txt | teh | the
        fix the typo in essay.txt: teh should be the => edit essay.txt | teh | the
        update v1.2 to v1.3 in README.md => edit README.md | v1.2 | v1.3
        "#,
    );
    for vague in ["fix the typo in essay.txt", "update README.md"] {
        let Resolution::Unresolved { note } = resolve(vague) else {
            panic!("{vague}: nothing says what changes");
        };
        assert!(note.contains("What should change"), "{vague}: {note}");
    }
}

#[test]
fn fillers_time_words_and_folder_words_carry_no_meaning() {
    assert_table(
        r#"
        yeah go ahead and delete scratch.md => delete scratch.md
        wait, no — undo! => undo
        I didn't mean that, undo it => undo
        what's in index.html right now? => read index.html
        what's on todo.txt => read todo.txt
        what did I write in diary.md => read diary.md
        remove backup.zip from the folder => delete backup.zip
        which files are in the folder => list
        show me what's here => list
        list the Work Projects folder => list Work Projects
        list /etc => list /etc
        clear the contents of todo.txt => write todo.txt |
        write a new file called hello.txt with hi => write hello.txt | hi | create
        New file: ideas.md => write ideas.md | | create
        find the phrase quarterly report in my files => grep quarterly report
        is there a file that mentions dentist? => grep dentist
        preview replacing notes.txt with hello world => diff notes.txt | hello world
        which tools are on the shelf => list_extensions
        "#,
    );
    // A multi-word search without "the phrase" still asks for quotes.
    nothing("find quarterly report in my files");
}

#[test]
fn web_addresses_are_not_files() {
    for address in [
        "open https://example.com",
        "open google.com",
        "read www.example.org",
    ] {
        let Resolution::Unresolved { note } = resolve(address) else {
            panic!("{address}: a web address is no file here");
        };
        assert!(note.contains("web address"), "{address}: {note}");
    }
    assert_table(
        r#"
        open notes.com.txt => read notes.com.txt
        read drafts/site.html => read drafts/site.html
        "#,
    );
}

#[test]
fn shell_idioms_are_their_one_request_and_nothing_more() {
    assert_table(
        r#"
        echo Hello World > greeting.txt => write greeting.txt | Hello World
        echo buy milk >> todo.txt => append todo.txt | buy milk
        sed s/teh/the/ essay.md => edit essay.md | teh | the
        less src/main.rs => read src/main.rs
        list_extensions => list_extensions
        "#,
    );
    for not_one in ["echo hi | tee a.txt", "sed s/a/b/g notes.md", "echo hello"] {
        nothing(not_one);
    }
}

#[test]
fn hedges_asides_and_hesitations_carry_no_meaning_but_a_taking_back_does() {
    assert_table(
        r#"
        hey um could you maybe read me notes dot m d => read notes.md
        could you maybe make a new file, um, called ideas dot m d => write ideas.md | | create
        delete old dot log, it's just taking up space => delete old.log
        add buy milk to the end of todo dot txt I think => append todo.txt | buy milk
        lemme see config dot yaml => read config.yaml
        Erase everything in todo.txt but keep the file. => write todo.txt |
        "#,
    );
    for taken_back in [
        "delete old dot log, no wait",
        "delete old dot log, actually don't",
    ] {
        nothing(taken_back);
    }
    // A thing that is not said to be a folder is not listed as one.
    let Resolution::Unresolved { note } = resolve("list the planets") else {
        panic!("the planets are no folder here");
    };
    assert!(note.contains("planets folder"), "{note}");
    assert_table("list the planets folder => list planets");
}

/// A file emptied and written again is one write of what follows; content
/// after a bare "content"; a British "ta" closes a request. Beside each, the
/// plain emptying stays an empty write.
#[test]
fn emptied_then_written_and_content_said_bare() {
    assert_table(
        r#"
        wipe plan.txt and write Mon Ana, Tue Ben => write plan.txt | Mon Ana, Tue Ben
        clear out stock.csv and put item,qty as its only content => write stock.csv | item,qty
        empty notes.md and type fresh start in it => write notes.md | fresh start
        create tyres.md, content: front 2.1 rear 2.25 => write tyres.md | front 2.1 rear 2.25 | create
        overwrite menu.txt so it just says soup for 6 => write menu.txt | soup for 6
        create colours.md with sage green. Ta => write colours.md | sage green | create
        wipe plan.txt => write plan.txt |
        clear out stock.csv please => write stock.csv |
        erase npcs.md and put Old Marrow the ferryman in it => write npcs.md | Old Marrow the ferryman
        erase npcs.md => delete npcs.md
        Could you create a file named clients.txt that says two spaniels, Tuesdays? Thanks! => write clients.txt | two spaniels, Tuesdays | create
        can you add call the vet? to notes.md => append notes.md | call the vet?
        create a.txt saying how are you? => write a.txt | how are you? | create
        "#,
    );
}
