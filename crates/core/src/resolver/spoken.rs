//! How each verb may be said aloud, as phrase templates with slots: the one
//! table the offline recogniser's grammar is made from, and that the
//! resolver is tested on (every phrasing, its slots filled, resolves to its
//! verb). A phrasing added here reaches speech at once, and the test proves
//! typed words understand it too.
//!
//! The slots, written as JSGF rule names so a template is a JSGF rule body
//! as it stands: `<file>` a file of the folder, `<name>` any file's name,
//! `<words>` a few words of content, `<word>` one word.

use super::phrases::{Phrases, phrases};
use crate::command::Verb;
use alloc::string::String;
use alloc::vec::Vec;

/// Each verb a person says aloud: what it does, in a few words for the
/// page's help, and the phrasings the grammar allows. Verbs no one says
/// aloud (tools, extensions, assets) have no row.
const FORMS: &[(Verb, &str, Phrases)] = &[
    (
        Verb::Write,
        "Create or replace a file",
        phrases!(
            "(create | make) a file called <name> (with | containing | saying) <words>
             | write <words> to <name>"
        ),
    ),
    (
        Verb::Read,
        "Read a file",
        phrases!(
            "(read | open | show [me]) [the file [called]] <file> | what is in <file>
             | read the (first | last) (two | three | five | ten) lines of <file>"
        ),
    ),
    (
        Verb::Append,
        "Add to a file, or under one of its headings",
        phrases!("(add | append) <words> to <file> [under <word>]"),
    ),
    (
        Verb::Edit,
        "Change words in a file",
        phrases!("replace <words> with <words> in <file>"),
    ),
    (
        Verb::CheckItem,
        "Tick an item of a list",
        phrases!("(check off | tick) <words> in <file> | cross <words> off <file>"),
    ),
    (
        Verb::RemoveItem,
        "Take an item off a list",
        phrases!("take <words> off <file>"),
    ),
    (
        Verb::List,
        "See the files",
        phrases!("(list | show [me]) [all] [the | my] files | what files are there"),
    ),
    (
        Verb::Grep,
        "Search the files' text",
        phrases!("search for <words>"),
    ),
    (
        Verb::Find,
        "Find a file by its name",
        phrases!("where is the <word> file"),
    ),
    (
        Verb::Info,
        "A file's size and when it changed",
        phrases!("how big is <file>"),
    ),
    (
        Verb::Move,
        "Rename or move a file",
        phrases!("(rename | move) <file> to <name>"),
    ),
    (Verb::Copy, "Copy a file", phrases!("copy <file> to <name>")),
    (
        Verb::Mkdir,
        "Make a folder",
        phrases!("(make | create) a folder called <word>"),
    ),
    (
        Verb::Delete,
        "Delete a file (asked first)",
        phrases!("(delete | remove) [the file [called]] <file>"),
    ),
    (
        Verb::Diff,
        "See a change before making it",
        phrases!("diff <file> with <words>"),
    ),
    (
        Verb::Undo,
        "Undo the last change",
        phrases!("undo [that | the last change] | undo the change to <file>"),
    ),
    (
        Verb::Changes,
        "What changed, in the folder's git history",
        phrases!(
            "what (did i change | has changed | changed)
             [today | since yesterday | this week | since the last commit]"
        ),
    ),
    (
        Verb::History,
        "A file's commits",
        phrases!("show [me] the history [of <file>]"),
    ),
    (
        Verb::ListExtensions,
        "See the tools",
        phrases!("(list | what) extensions [are there] | what tools are there"),
    ),
];

/// The spoken form of `verb`; `None` for verbs no one says aloud.
pub fn form(verb: Verb) -> Option<Phrases> {
    FORMS
        .iter()
        .find(|(said, ..)| *said == verb)
        .map(|(.., phrases)| *phrases)
}

/// One line of the help: what a verb does and a few ways to say it, made
/// from the same phrasings the grammar and the tests use.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Help {
    pub verb: Verb,
    pub does: &'static str,
    pub says: Vec<String>,
}

/// How many ways to say a verb the help shows.
const SAYINGS: usize = 2;

/// The help, verb by verb, in the order a newcomer needs them: for each,
/// the shortest phrasing of each of its first words (up to [`SAYINGS`]),
/// its slots filled with an example.
pub fn help() -> Vec<Help> {
    FORMS
        .iter()
        .map(|(verb, does, phrases)| {
            let mut says: Vec<Vec<&str>> = Vec::new();
            for phrasing in phrases.expand() {
                match says
                    .iter_mut()
                    .find(|kept| kept.first() == phrasing.first())
                {
                    Some(kept) if phrasing.len() < kept.len() => *kept = phrasing,
                    Some(_) => {}
                    None => says.push(phrasing),
                }
            }
            Help {
                verb: *verb,
                does,
                says: says
                    .iter()
                    .take(SAYINGS)
                    .map(|words| example(words))
                    .collect(),
            }
        })
        .collect()
}

/// A phrasing with its slots filled by an example, as a person would type it.
fn example(words: &[&str]) -> String {
    let mut said = 0;
    let filled: Vec<&str> = words
        .iter()
        .map(|word| match *word {
            "<file>" => "notes.md",
            "<name>" => "plan.md",
            "<word>" => "receipts",
            "<words>" => {
                said += 1;
                match said {
                    1 => "buy milk",
                    _ => "oat milk",
                }
            }
            word => word,
        })
        .collect();
    filled.join(" ")
}

/// Whether `word` of a template is a slot (`<file>`), not a word to say.
pub fn is_slot(word: &str) -> bool {
    word.len() > 2 && word.starts_with('<') && word.ends_with('>')
}
