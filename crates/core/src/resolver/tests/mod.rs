//! Held-out sentences (none of them in the dev set) and a no-panic sweep.

use super::{Folder, MAX_UTTERANCE_BYTES, Resolution, resolve, resolve_in};
use crate::action::Action;
use crate::command::Verb;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use serde_json::{Map, Value};

mod forms;
mod guesses;
mod history;
mod lines;
mod looks;
mod notes;
mod settle;
mod shapes;
mod spoken;
mod unseen;

/// An append of `content` to `name`, as a sentence's wanted reading.
fn append(name: &str, content: &str) -> Action {
    Action::Append {
        name: name.into(),
        content: content.into(),
        expect: None,
        under: None,
    }
}

/// An edit of `old` to `new` in `name`, as a sentence's wanted reading.
fn edit(name: &str, old: &str, new: &str) -> Action {
    Action::Edit {
        name: name.into(),
        old_text: old.into(),
        new_text: new.into(),
        expect: None,
    }
}

/// The id of the tool `action` proposes.
/// A read of `name` as it was at `at` ("yesterday", "last commit").
fn read_at(name: &str, at: &str) -> Action {
    Action::Read {
        name: name.into(),
        first: None,
        last: None,
        at: Some(at.into()),
    }
}

fn proposed_id(action: Action) -> String {
    match action {
        Action::MakeTool { descriptor } => String::from(descriptor["id"].as_str().unwrap()),
        other => panic!("not a proposal: {other:?}"),
    }
}

/// The one sure reading of `text`.
fn sure(text: &str) -> Action {
    match resolve(text) {
        Resolution::Action(action) => action,
        other => panic!("{text:?} should be sure, got {other:?}"),
    }
}

/// The file, text and heading of the sure append `said` is read as.
fn appended_under(said: &str) -> (String, String, String) {
    match sure(said) {
        Action::Append {
            name,
            content,
            under,
            ..
        } => (name, content, under.unwrap_or_default()),
        other => panic!("{said:?}: {other:?}"),
    }
}

/// The guess `text` is read as; a guess always says what it assumed.
fn guess(text: &str) -> Action {
    match resolve(text) {
        Resolution::Guess { action, assumed } => {
            assert!(
                !assumed.is_empty(),
                "{text:?}: a guess says what it assumed"
            );
            action
        }
        other => panic!("{text:?} should be a guess, got {other:?}"),
    }
}

/// `text` is not read as `verb` (done or guessed).
fn not_a(text: &str, verb: Verb) {
    let read = resolve(text);
    assert_ne!(
        read.action().map(Action::verb),
        Some(verb),
        "{text}: {read:?}"
    );
}

/// `text` is read as no request at all.
fn nothing(text: &str) {
    let got = resolve(text);
    assert!(
        matches!(got, Resolution::Unresolved { .. }),
        "{text:?} should not act, got {got:?}"
    );
}

/// How a row's sentence must be read.
#[derive(Clone, Copy, PartialEq)]
enum Reading {
    /// `=>`: its one sure reading.
    Sure,
    /// `?=>`: a guess that says what it assumed, asked and not done.
    Asked,
    /// `~>`: acted on, sure or asked.
    Either,
}

/// One row of a phrasing table: `sentence => verb field | field …`, the
/// fields in the command list's order; an empty field is an empty string and
/// a field left off is absent. The arrow says how the sentence is read
/// ([`Reading`]).
fn row(line: &str) -> (&str, Reading, Action) {
    let (sentence, reading, action) = [
        (" ?=> ", Reading::Asked),
        (" ~> ", Reading::Either),
        (" => ", Reading::Sure),
    ]
    .into_iter()
    .find_map(|(arrow, reading)| {
        let (sentence, action) = line.split_once(arrow)?;
        Some((sentence, reading, action))
    })
    .unwrap_or_else(|| panic!("a row is `sentence => action`: {line:?}"));
    let (verb, fields) = action.split_once(' ').unwrap_or((action, ""));
    let command = Verb::from_wire(verb)
        .unwrap_or_else(|| panic!("{verb:?} is a verb"))
        .command();
    let mut json = Map::new();
    json.insert("verb".into(), verb.into());
    if !fields.is_empty() {
        for (param, value) in command.params.iter().zip(fields.split('|')) {
            json.insert(param.field.wire().into(), value.trim().into());
        }
    }
    let action = Action::from_json(&Value::Object(json))
        .unwrap_or_else(|refusal| panic!("{line:?}: {refusal:?}"));
    (sentence, reading, action)
}

/// Resolves every sentence of `table` (rows as [`row`] reads them; blank
/// lines and `#` notes skipped) and fails listing each one that missed.
fn assert_table(table: &str) {
    assert_rows(table, resolve);
}

/// As [`assert_table`], each sentence said over a folder holding `names`.
fn assert_table_in(names: &[&str], table: &str) {
    let folder = Folder::new(names.iter().map(|n| String::from(*n)).collect());
    assert_rows(table, |sentence| resolve_in(sentence, &folder));
}

/// Reads every row of `table` with `resolve` and fails listing each miss.
fn assert_rows(table: &str, resolve: impl Fn(&str) -> Resolution) {
    let missed: Vec<String> = table
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(row)
        .filter_map(|(sentence, reading, want)| {
            let got = resolve(sentence);
            let read = match &got {
                Resolution::Action(action) if reading != Reading::Asked => Some(action),
                Resolution::Guess { action, assumed }
                    if reading != Reading::Sure && !assumed.is_empty() =>
                {
                    Some(action)
                }
                _ => None,
            };
            (read != Some(&want)).then(|| format!("{sentence:?}\n  want {want:?}\n  got  {got:?}"))
        })
        .collect();
    assert!(missed.is_empty(), "{}", missed.join("\n"));
}

/// A tool asked for by what it does is the host's tool whose description
/// says so; one the host does not have is no action (the control: the same
/// words with no tools named by the host keep the word said, for the host
/// to refuse by name).
#[test]
fn a_tool_said_by_its_purpose_is_the_hosts_tool_for_it() {
    let shelf = Folder::default().with_tools([
        (
            "wc".into(),
            "count the lines, words and bytes of a file".into(),
        ),
        ("crc32".into(), "the CRC-32 checksum of a file".into()),
    ]);
    let tool = |id: &str, name: &str| {
        Resolution::Action(Action::Tool {
            id: id.into(),
            name: Some(name.into()),
        })
    };
    assert_eq!(
        resolve_in("how many words are in diary.md", &shelf),
        tool("wc", "diary.md")
    );
    // Lines are counted by the built-in info, which needs no tool.
    assert_eq!(
        resolve_in("how many lines are in diary.md", &shelf),
        Resolution::Action(Action::Info {
            name: "diary.md".into()
        })
    );
    assert_eq!(
        resolve_in("what's the checksum of photos dot zip", &shelf),
        tool("crc32", "photos.zip")
    );
    for missing in [
        "run md5sum on photos.zip",
        "what's the sha256 of photos.zip",
    ] {
        assert!(
            matches!(resolve_in(missing, &shelf), Resolution::Unresolved { note } if note.contains("crc32")),
            "{missing}"
        );
    }
    assert_eq!(
        resolve("what's the checksum of photos dot zip"),
        tool("checksum", "photos.zip")
    );
}

#[test]
fn phrasings_that_name_a_kind_of_request_not_a_verb() {
    assert_table(
        r#"
        where's the word invoice in my files => grep invoice
        is there anything about coffee here in my files => grep coffee here
        find every file that mentions Lisbon => grep Lisbon
        which file has the word receipt in it => grep receipt
        in the drafts folder, read plan.md => read drafts/plan.md
        inside archive, delete old.txt => delete archive/old.txt
        read /etc/hosts => read /etc/hosts
        save hi in ~/x.txt => write ~/x.txt | hi
        restore the file I just deleted => undo
        read report dot m d => read report.md
        open Project Plan dot txt => read Project Plan.txt
        "#,
    );
}

#[test]
fn a_tool_in_words_is_a_proposal_of_data() {
    let Resolution::Action(Action::MakeTool { descriptor }) =
        resolve("create a tool called timer that tells the time")
    else {
        panic!("a proposal");
    };
    assert_eq!(descriptor["id"], "timer");
    assert_eq!(descriptor["tools"][0]["primitive"], "now");
    let Resolution::Action(Action::MakeTool { descriptor }) =
        resolve("make an extension named getter that gets https://example.org/feed")
    else {
        panic!("a proposal");
    };
    assert_eq!(descriptor["bounds"]["hosts"][0], "example.org");
    assert!(
        matches!(resolve("create a tool"), Resolution::Unresolved { .. }),
        "no name: asked"
    );
}

#[test]
fn append_phrasings() {
    assert_table(
        r#"
        add call mom to todo.txt => append todo.txt | call mom
        append oat milk to groceries dot txt => append groceries.txt | oat milk
        put call mom at the end of todo.txt => append todo.txt | call mom
        could you add a line saying buy bread to notes.md please => append notes.md | buy bread
        write see you at 5 at the bottom of memo.txt => append memo.txt | see you at 5
        append to log.txt: server restarted => append log.txt | server restarted
        tack on remember the milk to list.md => append list.md | remember the milk
        add a file called ideas.txt with fly => write ideas.txt | fly | create
        put the meeting notes in plan.md => write plan.md | the meeting notes
        add sandpaper 120 grit to shopping.md cheers => append shopping.md | sandpaper 120 grit
        add tape to shopping.md thank you => append shopping.md | tape
        add thank you to card.md => append card.md | thank you
        add many thanks to card.md => append card.md | many thanks
        "#,
    );
}

#[test]
fn write_phrasings() {
    assert_table(
        r#"
        please make a new file called todo dot txt containing call mom => write todo.txt | call mom | create
        hey voicebox, could you write "Dear John," to letter.txt please => write letter.txt | Dear John,
        save 'don't panic' in guide.md => write guide.md | don't panic
        put the meeting notes in drafts slash plan dot md => write drafts/plan.md | the meeting notes
        make a note called shopping.md saying eggs, flour and milk => write shopping.md | eggs, flour and milk | create
        create an empty file called log.txt => write log.txt | | create
        new file readme.md with Hello World! => write readme.md | Hello World! | create
        I'd like you to create report.md with the text Q3 was good. => write report.md | Q3 was good | create
        create a file called hello.txt in drafts with hi => write drafts/hello.txt | hi | create
        create a file with the name x.txt and content hello => write x.txt | hello | create
        make a file called a.txt and write hello in it => write a.txt | hello | create
        Write Hello World to Hello.TXT => write Hello.TXT | Hello World
        write “smart quotes” to q.txt => write q.txt | smart quotes
        create my underscore notes dot md with x => write my_notes.md | x | create
        create a file called shopping list dot txt with eggs => write shopping-list.txt | eggs | create
        create a.txt saying how are you? => write a.txt | how are you? | create
        create card.txt saying thank you => write card.txt | thank you | create
        clear notes.md => write notes.md |
        create notes.md: buy milk => write notes.md | buy milk | create
        write "" to empty.txt => write empty.txt |
        replace the contents of notes.md with fresh start => write notes.md | fresh start
        "#,
    );
}

#[test]
fn read_phrasings() {
    assert_table(
        r#"
        cat notes.md => read notes.md
        display my report dot pdf => read report.pdf
        what does todo.txt say? => read todo.txt
        tell me what notes.md contains => read notes.md
        can you show me what's in drafts/plan.md => read drafts/plan.md
        open up the file called README.md => read README.md
        read the file todo => read todo
        read todo.txt in drafts => read drafts/todo.txt
        what are the contents of notes.md => read notes.md
        Hey Voicebox, what's in notes.md? => read notes.md
        "#,
    );
}

#[test]
fn list_phrasings() {
    assert_table(
        r#"
        ls => list
        ls drafts => list drafts
        what files do I have => list
        Could you please list my files? => list
        what's in the root => list
        show me the files in drafts => list drafts
        what is in drafts slash old => list drafts/old
        list the contents of the receipts folder => list receipts
        open the drafts folder => list drafts
        what files are in drafts => list drafts
        what's in here => list
        show me the contents of drafts => list drafts
        "#,
    );
}

#[test]
fn delete_phrasings() {
    assert_table(
        r#"
        trash drafts slash old dot md => delete drafts/old.md
        get rid of old.txt please => delete old.txt
        rm old.txt => delete old.txt
        delete old.txt from drafts => delete drafts/old.txt
        delete the notes.md file => delete notes.md
        delete the file called old => delete old
        would you mind deleting old.txt => delete old.txt
        I don't need old.txt anymore, delete it => delete old.txt
        the file called old dot txt, get rid of it => delete old.txt
        remove the file at logs/app.log => delete logs/app.log
        "#,
    );
}

#[test]
fn edit_phrasings() {
    assert_table(
        r#"
        In notes.md, change "milk" to "bread". => edit notes.md | milk | bread
        swap milk for bread in todo.txt => edit todo.txt | milk | bread
        substitute bread for milk in notes.md => edit notes.md | milk | bread
        open notes.md and replace 2023 with 2024 => edit notes.md | 2023 | 2024
        update todo.txt, change monday to tuesday => edit todo.txt | monday | tuesday
        replace "with" with "by" in notes.md => edit notes.md | with | by
        delete the word milk from notes.md => edit notes.md | milk |
        replace notes.txt with nothing much => write notes.txt | nothing much
        replace the notes.md file with buy milk => write notes.md | buy milk
        replace v1.2 with v1.3 in notes.md => edit notes.md | v1.2 | v1.3
        in spanish.md replace la abeja - the wasp with la abeja - the bee => edit spanish.md | la abeja - the wasp | la abeja - the bee
        in notes.md change 9 - 5 to 10 - 6 => edit notes.md | 9 - 5 | 10 - 6
        in notes.md change 0.3.1 to 0.3.2 - we are cutting a release => edit notes.md | 0.3.1 | 0.3.2
        "#,
    );
    // A named file with no extension is not taken for the file (the control).
    nothing("replace v1.2 with v1.3");
}

#[test]
fn diff_grep_undo_and_extension_phrasings() {
    assert_table(
        r#"
        compare notes.md with Buy bread => diff notes.md | Buy bread
        what would be different if notes.md said Buy bread? => diff notes.md | Buy bread
        what would change if I wrote hello to notes.md => diff notes.md | hello
        how would notes dot md change if it said hi there? => diff notes.md | hi there
        search for "to be or not" in drafts => grep to be or not | drafts
        which files mention invoice? => grep invoice
        search the receipts folder for invoice => grep invoice | receipts
        where is Lisbon mentioned => grep Lisbon
        grep -ri 'todo' src => grep todo | src
        undo that please => undo
        take that back => undo
        undo the last thing I did => undo
        which tools are available => list_extensions
        what extensions are installed => list_extensions
        "#,
    );
}

#[test]
fn asset_and_tool_phrasings() {
    assert_table(
        r#"
        create an svg asset called logo.svg with <svg xmlns='http://www.w3.org/2000/svg'/> => create_asset logo.svg | svg | <svg xmlns='http://www.w3.org/2000/svg'/>
        please make me a text asset named note.txt saying hello there => create_asset note.txt | text | hello there
        draw an svg image called dot.svg containing <svg/> => create_asset dot.svg | svg | <svg/>
        add an asset called assets/page.html with <p>hi</p> => create_asset page.html | html | <p>hi</p>
        new html asset index.htm: <h1>Hi</h1> => create_asset index.htm | html | <h1>Hi</h1>
        run the wc tool on notes.md => tool wc | notes.md
        use crc32 on report.txt => tool crc32 | report.txt
        run the tool wc against drafts/plan.md => tool wc | drafts/plan.md
        could you run the wc tool => tool wc
        # Not assets, not tools: their own verbs, or nothing.
        create a text file called a.txt with hi => write a.txt | hi | create
        "#,
    );
    for sentence in [
        "run the tests",
        "run the numbers on sales.csv",
        "run wc",
        "call mom",
    ] {
        assert!(
            matches!(resolve(sentence), Resolution::Unresolved { .. }),
            "{sentence}: {:?}",
            resolve(sentence)
        );
    }
}

/// Every asset or tool sentence the resolver accepts passes the command list.
#[test]
fn asset_and_tool_actions_pass_the_command_list() {
    let sentences = [
        "create an asset called drafts/x.svg with <svg/>",
        "create an asset called ../x.svg with <svg/>",
        "create an asset called .hidden.svg with <svg/>",
        "create an svg asset called a b c.svg with x",
        "make a text asset called notes dot txt with hi",
        "create an asset called assets/ with x",
        "run the wc tool on ../../etc/passwd",
        "run the WC tool on notes.md",
        "use the tool x-y-z on a.txt",
        "run the tool on notes.md",
    ];
    for sentence in sentences {
        assert_sound(sentence);
    }
    let acted = sentences
        .iter()
        .filter(|s| matches!(resolve(s), Resolution::Action(_)))
        .count();
    assert!(
        acted >= 4,
        "the sweep must reach the command list: {acted} actions"
    );
}

#[test]
fn refusals_say_why() {
    let cases = [
        ("", "I can"),
        ("   ", "I can"),
        ("play some music", "I can"),
        ("set a timer for 5 minutes", "I can"),
        ("open the door", "I can"),
        ("delete everything", "one file at a time"),
        ("remove all the files", "one file at a time"),
        ("delete it", "Which file"),
        ("delete notes", "full name"),
        ("remove", "Which file"),
        ("create a file", "called"),
        ("write to notes.md", "What should notes.md say"),
        ("save it as notes.md", "What should notes.md say"),
        ("add to todo.txt", "What should I add"),
        ("read todo", "full name"),
        ("change milk to bread", "Which file"),
        (
            "make an svg asset called logo.svg",
            "What should logo.svg contain",
        ),
        ("create a new asset", "To make an asset"),
        ("use the tool", "Which tool"),
        ("run the wc tool on everything", "Which file"),
        (
            "replace every milk with bread in notes.md",
            "one occurrence",
        ),
        ("compare notes.md and todo.md", "not two files"),
        ("diff notes.md", "against what"),
        ("find me a restaurant", "quotes"),
        ("search the web for cats", "only search"),
        ("undo the last three changes", "one change at a time"),
        ("move every file to old", "one file or folder at a time"),
        ("zip a.txt", "can't zip"),
        ("what's in the news", "I can"),
        ("what tools do I need to fix a bike", "I can"),
        ("replace \"\" with \"x\" in a.txt", "What should change"),
        ("which files do not mention invoice", "I can"),
        ("delete *.txt", "one file at a time"),
        ("remove every file in drafts", "one file at a time"),
        ("is the weather nice anywhere", "I can"),
        ("is it mentioned anywhere", "search for"),
        ("reading is fun", "I can"),
        ("my cat is cute, delete it", "I can"),
        ("set a timer for 5 minutes", "I can"),
        ("search amazon for batteries", "only search"),
    ];
    for (sentence, hint) in cases {
        match resolve(sentence) {
            Resolution::Unresolved { note } => {
                assert!(
                    note.contains(hint),
                    "{sentence:?}: note {note:?} lacks {hint:?}"
                )
            }
            acted => panic!("{sentence:?} should be refused, got {acted:?}"),
        }
    }
}

/// A small deterministic generator (xorshift), so the sweep needs no dependency.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// Keywords and joiners, to meet every branch.
const WORDS: &str = "create write read delete list edit replace change with to in from for \
    file called dot slash underscore notes .md notes.md all everything if said between and \
    undo tools search find what's the folder please thanks";

/// Quotes, punctuation and odd characters.
const ODD: &[&str] = &[
    "\"", "'", "“", "”", "‘", "’", "«", "»", ".", ",", "?", "!", "…", "—", "-", "..", "/", ":",
    "é", "e\u{301}", "日本", "🦀", "\u{200b}", "\t", "\n", "\u{0}", "ß", "İ", "",
];

fn odd_sentence(rng: &mut Rng) -> String {
    let pieces: Vec<&str> = WORDS
        .split_whitespace()
        .chain(ODD.iter().copied())
        .collect();
    let mut sentence = String::new();
    for _ in 0..rng.below(24) {
        sentence.push_str(pieces[rng.below(pieces.len())]);
        if rng.below(3) > 0 {
            sentence.push(' ');
        }
    }
    sentence
}

/// Every answer is an action with non-empty names, or a note with words in it.
fn assert_sound(sentence: &str) {
    let resolution = resolve(sentence);
    match resolution.action() {
        Some(action) => {
            let json = action.to_json();
            for path in ["name", "dir"].map(|field| json[field].as_str()) {
                assert!(
                    path.is_none_or(|name| !name.trim().is_empty()),
                    "{sentence:?} gave an empty name"
                );
            }
            assert!(
                Action::from_json(&json).is_ok(),
                "{sentence:?} gave an action the command list refuses: {action:?}"
            );
            assert_eq!(resolve(sentence), resolution, "{sentence:?}");
        }
        None => assert!(
            matches!(&resolution, Resolution::Unresolved { note } if !note.is_empty()),
            "{sentence:?}"
        ),
    }
}

#[test]
fn odd_input_never_panics() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for _ in 0..20_000 {
        assert_sound(&odd_sentence(&mut rng));
    }
}

#[test]
fn long_input_stays_fast_and_sound() {
    // Adversarial patterns cut to just under the limit must still resolve soundly...
    let cut = |s: String| -> String {
        let mut end = MAX_UTTERANCE_BYTES.min(s.len());
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        String::from(&s[..end])
    };
    let many_tos = cut(format!("write {} notes.md", "hi to ".repeat(2_000)));
    let open_quotes = cut("'a \"b “c ".repeat(2_000));
    let joiners = cut(format!("read {}", "a dot ".repeat(2_000)));
    let one_word = cut("x".repeat(MAX_UTTERANCE_BYTES));
    for sentence in [many_tos, open_quotes, joiners, one_word] {
        assert_sound(&sentence);
    }
    // ...and anything longer is refused with a note, unread.
    let Resolution::Unresolved { note } = resolve(&"x ".repeat(MAX_UTTERANCE_BYTES)) else {
        panic!("an over-long utterance resolved");
    };
    assert!(note.contains("too long"));
}
