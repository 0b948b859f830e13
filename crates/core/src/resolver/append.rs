//! `append`: "add oat milk to groceries.txt", "append call mom to todo.txt",
//! "put call mom at the end of todo.txt", "add a line saying hi to notes.md",
//! "append to notes.md: hi".
//!
//! "add" also starts a new file ("add a file called x.txt"): a sentence whose
//! content would be "a file …" is left to `write`. "put X in NAME" replaces
//! (`write`); only "at / to the end of NAME" makes a put an append.

mod heading;

use super::content;
use super::courtesy;
use super::name::{Target, target};
use super::phrases::{Phrases, phrases};
use super::text::Words;
use super::write::named_then_said;
use super::{Resolution, unresolved};
use crate::action::{Action, WriteMode};
use alloc::format;
use alloc::string::String;

/// How a head reaches its file.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Head {
    /// "append", "add", "tack on": "to NAME" is enough.
    Adds,
    /// "put", "write", "type", "throw": only "at the end of NAME".
    Places,
    /// "pop", "stick", "whack": casual adding, "in", "into" or "on" NAME.
    Drops,
}

const HEADS: &[(Phrases, Head)] = &[
    (
        Phrases::new("append | add | tack [on] | include | enter | (keep | make) a note of"),
        Head::Adds,
    ),
    (
        Phrases::new("throw | put [down] | insert | write [down] | type | jot down"),
        Head::Places,
    ),
    (
        Phrases::new("pop | chuck | stick | whack | bung | shove"),
        Head::Drops,
    ),
];

/// Words before the file that mean its end.
const AT_THE_END: Phrases =
    Phrases::new("(at | to | onto | on) the end of | (at | to | on) the bottom of");

/// Words before the file after an adding head.
const ONTO: &[&str] = &["to", "onto", "into"];
/// The same, as a learner says it ("add milk in list.txt"): read only when
/// no file follows a word of [`ONTO`].
const IN: &[&str] = &["in", "inside"];

/// What a line is called before its text ("a line saying hi").
const LINE_LEADS: Phrases = Phrases::new(
    "a [new] line [with | saying] | a line (containing | that says | reading)
     | another line | the line | a note [with | saying] | a [new] row | an entry
     | a new entry | an item",
);

/// Noting heads followed by the file, then what is noted ("make a note in
/// house.md that the plumber comes Friday", "jot in ideas.txt a podcast").
const NOTE_IN: Phrases = Phrases::new(
    "(jot | write | note) this down in | put a reminder in | add a reminder (to | in)
     | (leave | put | make | add) a note in | make a note on | add a note to
     | (note | jot [down] | write down | log | record) in",
);

/// Words between the file and what a note says.
const SAYING: Phrases = Phrases::new("saying | (that | which) says | reading | with | to");

/// Noting heads after "FILE:" ("workout.log: log 5k run").
const NOTING: Phrases = Phrases::new("log | note | jot [down] | record");

/// Content that is really a new file: the sentence is a create.
const NEW_FILE: Phrases = Phrases::new("[a] [new] file | an empty file");

/// "add in shifts.md the line 'Maria Sunday evening'": the file right
/// after the adding word, then a text said as text (quoted, or "the line
/// …").
fn file_then_line(head: Head, rest: Words<'_>) -> Option<Resolution> {
    if !matches!(head, Head::Adds) {
        return None;
    }
    let rest = rest.after_any(phrases!("in | to | into"))?;
    let Target::File(name) = target(rest.to(1)) else {
        return None;
    };
    let said = rest.from(1);
    if !content::said_as_text(said) {
        return None;
    }
    Some(appended(name, said))
}

/// "I need Co-op: 6 crates added to donations.md", "can you get milk added
/// to shopping.md": the text wished added, then the file.
fn wished_added(words: Words<'_>) -> Option<Resolution> {
    const WISHED: Phrases = Phrases::new(
        "(i | we) (need | want | would like) | (can | could) you get | please get | get",
    );
    let rest = words.after_any(WISHED)?;
    let at = (1..rest.len()).find(|&at| {
        rest.key(at) == "added" && matches!(rest.key(at + 1), "to" | "onto" | "into")
    })?;
    let Target::File(name) = target(rest.from(at + 2)) else {
        return None;
    };
    let content = content::text(rest.to(at))?;
    Some(Resolution::Action(Action::Append {
        name,
        content,
        expect: None,
        under: None,
    }))
}

pub fn resolve(words: Words<'_>) -> Option<Resolution> {
    if let Some(first) = end_first(words)
        .or_else(|| wished_added(words))
        .or_else(|| heading::named_first(words))
        .or_else(|| file_colon_first(words))
        .or_else(|| noted_in(words))
        .or_else(|| new_line(words))
    {
        return Some(first);
    }
    let (head, rest) = words.after_tagged(HEADS)?;
    if rest.after_any(NEW_FILE).is_some() {
        return None;
    }
    if let Some(under) = heading::under(rest)
        .or_else(|| heading::section_of(rest))
        .or_else(|| heading::section_after_file(rest))
        .or_else(|| heading::section_then_text(rest))
    {
        return Some(under);
    }
    if let Some(file_first) = file_then_line(head, rest) {
        return Some(file_first);
    }
    let at_the_end = content_then_end(rest);
    match head {
        Head::Adds => at_the_end
            .or_else(|| described_then_colon(rest))
            .or_else(|| content_to_file(rest, ONTO))
            .or_else(|| content_to_file(rest, IN))
            .or_else(|| file_then_content(rest))
            .or_else(|| rest.after_any(LINE_LEADS).and_then(file_then_content)),
        Head::Places => at_the_end
            .or_else(|| described_then_colon(rest))
            .or_else(|| content_on_file(rest)),
        Head::Drops => at_the_end
            .or_else(|| described_then_colon(rest))
            .or_else(|| content_on_file(rest))
            .or_else(|| content_to_file(rest, ONTO))
            .or_else(|| content_to_file(rest, IN)),
    }
}

/// "at the end of notes.md add X": the end named first, then the adding.
fn end_first(words: Words<'_>) -> Option<Resolution> {
    let rest = words.after_any(AT_THE_END)?;
    (1..rest.len()).find_map(|at| {
        let (_, said) = rest.from(at).after_tagged(HEADS)?;
        match target(courtesy::trim_end(rest.to(at)).trim_end(PLEASE)) {
            Target::File(name) => Some(appended(name, said)),
            _ => None,
        }
    })
}

/// Words that open the making of a new file, before its name and a colon.
const MAKING: Phrases = Phrases::new("[a] new | create | make | start");

/// A "please" said between a file's name and what is added to it.
const PLEASE: Phrases = Phrases::new("please");

/// "todo.txt: add call mom", "books.md — add Dune", "standup.md, add:
/// blocked", "todo dot txt add call mom": the file, a colon, comma or dash
/// (or, spoken, nothing), then what to add. With no
/// adding word ("groceries.md: oat milk") the words after a colon are a
/// line to add, as a guess: a question or a request is no such line.
fn file_colon_first(words: Words<'_>) -> Option<Resolution> {
    let (sep, colon) = (0..words.len()).find_map(|at| {
        let raw = words.raw(at);
        let colon = raw.ends_with(':');
        // "pantry dot txt add oat milk": speech drops the separator before
        // an adding word.
        let adds_next = matches!(
            words.from(at + 1).after_tagged(HEADS),
            Some((Head::Adds, _))
        ) && matches!(target(words.to(at + 1)), Target::File(_));
        (colon || adds_next || raw.ends_with(',') || words.gap_after(at).contains(['—', '–', '-']))
            .then_some((at, colon))
    })?;
    // "notes.md please: oat milk", "today's note please: …".
    let Target::File(name) = target(courtesy::trim_end(words.to(sep + 1)).trim_end(PLEASE)) else {
        return None;
    };
    let rest = words.from(sep + 1);
    // "new file haiku.md: an old pond" makes the file with that content.
    if colon && words.after_any(MAKING).is_some() {
        return content::text(rest).map(|content| {
            Resolution::Action(Action::Write {
                name,
                content,
                mode: Some(WriteMode::Create),
                expect: None,
            })
        });
    }
    if let Some(said) = rest.after_any(NOTING) {
        return Some(appended(name, said.trim_start(phrases!("that"))));
    }
    match rest.after_tagged(HEADS) {
        Some((Head::Adds | Head::Drops, said)) => Some(appended(name, said)),
        Some((Head::Places, _)) => None,
        // "groceries.md: oat milk", "todo.txt — call mom" (not a comma:
        // "notes.md, please").
        None if (colon || !words.raw(sep).ends_with(',')) && a_line(rest) => {
            Some(appended(name.clone(), rest).guessed(format!(
                "I took the words after the file's name as a line to add to {name}"
            )))
        }
        None => None,
    }
}

/// Whether words after "FILE:" read as a line of the file, not as a
/// question or a request about it.
fn a_line(words: Words<'_>) -> bool {
    const ASKING: &[&str] = &[
        "what", "how", "why", "where", "which", "who", "when", "is", "are", "does", "do", "can",
        "could", "would", "will", "should", "please",
    ];
    // "recipe.md: less sweet please, replace …": a request after a clause.
    let asks_later = (1..words.len()).any(|at| {
        words.raw(at - 1).ends_with([',', ';', '.']) && super::typo::is_command_word(words.key(at))
    });
    // "notes.md: I'll look at it later", "report.pdf — that's the one":
    // a remark about the file, said of oneself or of it.
    const REMARKING: &[&str] = &[
        "i", "i'll", "i'm", "i've", "we", "we'll", "you", "that", "it", "this", "its", "he", "she",
        "they", "there",
    ];
    !words.is_empty()
        && !ASKING.contains(&words.key(0))
        && !REMARKING.contains(&words.key(0))
        && !super::typo::is_command_word(words.key(0))
        && !words.contains_any(&["please"])
        && !asks_later
        && !words.raw(words.len() - 1).ends_with('?')
}

/// "make a note in house.md that X", "jot in ideas.txt X": the file right
/// after the noting head, then what is noted.
fn noted_in(words: Words<'_>) -> Option<Resolution> {
    let rest = words.after_any(NOTE_IN)?;
    (1..rest.len()).find_map(|at| {
        let colon = rest.raw(at - 1).ends_with(':');
        let that = rest.key(at) == "that";
        let named = match target(rest.to(at)) {
            Target::File(name) => name,
            _ => return None,
        };
        let said = match (that, colon) {
            (true, _) => rest.from(at + 1),
            _ => rest.from(at),
        };
        // "add a note to diary.md saying went for a run".
        let said = said.after_any(SAYING).unwrap_or(said);
        Some(appended(named, said))
    })
}

/// "to my reading list in reading-list.md": the file in a described place.
fn described_file(words: Words<'_>) -> Option<String> {
    let at = (1..words.len().min(6)).find(|&at| words.key(at) == "in")?;
    match target(words.from(at + 1)) {
        Target::File(name) => Some(name),
        _ => None,
    }
}

/// Words that open a description of what is added, not the text itself
/// ("one more idea", "a task", "this").
const DESCRIBES: &[&str] = &[
    "a", "an", "one", "another", "this", "these", "the", "some", "my", "following", "more",
];

/// "add one more idea to ideas.txt: a podcast", "add this to todo.txt: call
/// mom": a described item, its file, then after the colon what is added.
fn described_then_colon(words: Words<'_>) -> Option<Resolution> {
    if !DESCRIBES.contains(&words.key(0)) {
        return None;
    }
    let Some(colon) = (1..words.len() - 1).find(|&at| words.raw(at).ends_with(':')) else {
        return following_then_file(words);
    };
    let to = (1..colon)
        .rev()
        .find(|&at| ONTO.contains(&words.key(at)) || words.key(at) == "on")?;
    if to > 4 {
        return None;
    }
    match target(words.range(to + 1, colon + 1)) {
        Target::File(name) => Some(appended(name, words.from(colon + 1))),
        _ => None,
    }
}

/// "add the following line to todo.txt call mom": what follows the file
/// is what was announced.
fn following_then_file(words: Words<'_>) -> Option<Resolution> {
    let rest = words.after_any(phrases!("the following | following"))?;
    let rest = rest.trim_start(phrases!("line | lines | text | item | entry"));
    match ONTO.contains(&rest.key(0)) {
        true => name_then_words(rest.from(1)),
        false => None,
    }
}

/// "put eggs on my shopping list", "put eggs on my list in todo.txt":
/// putting something on a file, or on a list kept in one, adds to it.
fn content_on_file(words: Words<'_>) -> Option<Resolution> {
    (1..words.len()).rev().find_map(|at| {
        if !["on", "onto"].contains(&words.key(at)) {
            return None;
        }
        added_before(words, at)
    })
}

/// The words before `at` added to the file said after it, or to the list
/// kept in a file described there.
fn added_before(words: Words<'_>, at: usize) -> Option<Resolution> {
    let on = words.from(at + 1);
    match target(on) {
        Target::File(name) => Some(appended(name, words.to(at))),
        // "on my list in todo.txt", not "on sunday in reminder.txt".
        _ if on.to(4).contains_any(&["list"]) => {
            described_file(on).map(|name| appended(name, words.to(at)))
        }
        _ => None,
    }
}

/// "X at the end of NAME": the last end-of phrase followed by a file name.
fn content_then_end(words: Words<'_>) -> Option<Resolution> {
    (0..words.len()).rev().find_map(|at| {
        let place = words.from(at).after_any(AT_THE_END)?;
        match target(place) {
            Target::File(name) => Some(appended(name, words.to(at))),
            // "add the following to the end of log.txt: done".
            _ if words.to(at).trim_start(POINTED).is_empty() => {
                let colon = (0..place.len()).find(|&i| place.raw(i).ends_with(':'))?;
                match target(place.to(colon + 1)) {
                    Target::File(name) => Some(appended(name, place.from(colon + 1))),
                    _ => None,
                }
            }
            _ => None,
        }
    })
}

/// Words that point at content said after the file ("the following").
const POINTED: Phrases = Phrases::new("[the] following | the following line | this [line] | these");

/// Words a content does not end with: a split there cut a name in two
/// ("add X to my to do dot txt" is not "my" added to "do.txt").
const NO_END: &[&str] = &[
    "the", "a", "an", "my", "our", "your", "his", "her", "their", "this", "to",
];

/// "add X to NAME": the last "to" followed by a file name.
fn content_to_file(words: Words<'_>, onto: &[&str]) -> Option<Resolution> {
    (1..words.len()).rev().find_map(|at| {
        if !onto.contains(&words.key(at)) || NO_END.contains(&words.key(at - 1)) {
            return None;
        }
        added_before(words, at)
    })
}

/// "append to NAME: X", "add to NAME saying X"; "add to NAME" alone asks
/// what to add.
/// "new line in logbook.md: 5 Dec, dual", "another entry for diary.md:
/// …": a line said as such, with no word of adding, then where it goes.
fn new_line(words: Words<'_>) -> Option<Resolution> {
    let rest = words.after_any(phrases!(
        "[a | one] new (line | entry | row) | another (line | entry | row) | one more (line | entry)"
    ))?;
    let place = rest.after_any(phrases!("in | for | to | on | into | onto"))?;
    let colon = (0..place.len()).find(|&at| place.raw(at).ends_with(':'))?;
    match target(place.to(colon + 1)) {
        Target::File(name) => Some(appended(name, place.from(colon + 1))),
        _ => None,
    }
}

fn file_then_content(words: Words<'_>) -> Option<Resolution> {
    if !ONTO.contains(&words.key(0)) {
        return None;
    }
    // "add to the shopping list in groceries.md: lemons".
    let colon = (1..words.len()).find(|&at| words.raw(at).ends_with(':'));
    if let Some(name) = colon.and_then(|at| described_file(words.range(1, at + 1))) {
        return Some(appended(name, words.from(colon? + 1)));
    }
    named_then_said(words.from(1), appended)
        .or_else(|| match target(words.from(1)) {
            Target::File(name) => Some(appended(name, words.from(words.len()))),
            _ => None,
        })
        .or_else(|| name_then_words(words.from(1)))
}

/// "add to shopping dot txt two pints of milk": the longest run that is a
/// file name, then what is added, with nothing between.
fn name_then_words(words: Words<'_>) -> Option<Resolution> {
    (1..words.len())
        .rev()
        .find_map(|end| match target(words.to(end)) {
            Target::File(name) if !words.to(end).contains_any(&["called", "named"]) => {
                Some(appended(name, words.from(end)))
            }
            _ => None,
        })
}

/// The append of what `said` says to `name`, or a note that nothing was said.
fn appended(name: String, said: Words<'_>) -> Resolution {
    let said = said.after_any(LINE_LEADS).unwrap_or(said);
    match content::text(said) {
        Some(content) if !content.is_empty() => Resolution::Action(Action::Append {
            name,
            content,
            expect: None,
            under: None,
        }),
        _ => unresolved(format!(
            "What should I add to {name}? Say e.g. 'add call mom to {name}'."
        )),
    }
}
