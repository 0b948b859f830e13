//! `write`: "create a file called hello.txt with hi", "write hi to hello.txt",
//! "save 'Buy milk' in notes.md", "create an empty file called log.txt".
//!
//! Two shapes: file then content ("create NAME with CONTENT", "save this to
//! NAME: CONTENT", "set NAME to CONTENT") and content then file ("write
//! CONTENT to NAME"). "create NAME" alone makes an empty file;
//! "write NAME" alone is missing its content. "add X to NAME" appends (see
//! `append`, asked first). A head that creates ("create", "make", "new")
//! gives the write `mode: create`, so a file that exists is not replaced
//! without asking.

use super::content;
use super::name::{Target, target};
use super::phrases::{Phrases, phrases};
use super::text::Words;
use super::{Resolution, act, claim_unresolved};
use crate::action::{Action, WriteMode};
use alloc::format;
use alloc::string::String;

mod should;
use should::should_say;

/// How a head behaves when parts are missing.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Head {
    /// "create", "touch": a name alone makes an empty file.
    Create,
    /// "make", "new": like create, but may be about anything ("make it so").
    Make,
    /// "write", "save", "store": content is required.
    Write,
    /// "put", "type": like write, but may be about anything ("put on music").
    Put,
    /// "note", "jot down", "log", "record": a line added to a record kept
    /// in the file, never its content replaced.
    Note,
    /// "add": a new file, or (refused) appending to one.
    Add,
    /// "clear", "empty": a named file's content becomes empty (see [`cleared`]).
    Clear,
    /// "set": "set the contents of notes.md to hi" (see [`set_to`]).
    Set,
}

impl Head {
    /// Whether the head can only be about files, so a misfit gets a usage note.
    fn strong(self) -> bool {
        matches!(self, Head::Create | Head::Write)
    }

    /// Whether a name alone means an empty file.
    fn creates(self) -> bool {
        matches!(self, Head::Create | Head::Make | Head::Add)
    }

    /// The write's mode: a head that creates asks before replacing a file.
    fn mode(self) -> Option<WriteMode> {
        self.creates().then_some(WriteMode::Create)
    }
}

const HEADS: &[(Phrases, Head)] = &[
    (
        Phrases::new("create | touch | open a new (file | document)"),
        Head::Create,
    ),
    (
        Phrases::new(
            "make | [a] new | generate | start a | set up [a] | i (would like | want | need) (a | an)
             | (can | could | may) (i | we) (get | have) (a | an) | get a new",
        ),
        Head::Make,
    ),
    (
        Phrases::new("write [down | over] | save | store | overwrite | rewrite | fill"),
        Head::Write,
    ),
    (Phrases::new("put | type"), Head::Put),
    (
        Phrases::new("(jot | note) [down] | record | log"),
        Head::Note,
    ),
    (Phrases::new("add"), Head::Add),
    (
        Phrases::new(
            "(clear | empty | wipe | blank) [out] | wipe clean
             | (scrap | bin | ditch) (what is in | everything in | whatever is in | the contents of)",
        ),
        Head::Clear,
    ),
    (Phrases::new("set"), Head::Set),
];

/// A new file said as such after any writing verb.
const NEW_FILE: Phrases = Phrases::new("[a] new file | a brand new file");

/// Nouns that may stand before a colon and the name ("new file: x.md").
const FILE_NOUNS: &[&str] = &["file", "document", "doc", "note"];

/// Who the file is for ("make me a file …") says nothing about it.
const FOR_WHOM: Phrases = Phrases::new("me | us");

/// Words that end a file's name and start its content.
const LEAD_INS: Phrases = Phrases::new(
    "as | so [that] it [only | just] (contains | says) | so that it reads | with | containing
     | saying | [to] say | (that | which) (says | reads | contains)
     | and [the] (content | text) | and contents
     | [and] [just | then] [inside | in it] (write | put) | and type | [the | its] content is
     | [the] text is | the contents are | [the | its] (content | contents | text) should be
     | content | contents",
);

/// "with the name …" names the file; it does not start content.
const NAMING_WITH: Phrases = Phrases::new("with the name | with name");

/// Lead-ins after which content may be wrapped in "… in it" ("with apples in
/// it", "and write apples in it").
const WRAPPING: &[&str] = &["and", "with"];

/// Words after wrapped content.
const INTO_IT: Phrases = Phrases::new("(in | into | to | inside) it");

/// Words before the file in "write CONTENT to NAME".
const DESTINATIONS: &[&str] = &["to", "in", "into", "inside", "as", "onto"];

/// Words pointing at content still to come ("save this to memo.txt: …").
const POINTERS: Phrases = Phrases::new("this | that | [the] following | down");

const USAGE: &str =
    "To write a file say e.g. 'write hello to notes.md' or 'create notes.md with hello'.";

pub fn resolve(words: Words<'_>) -> Option<Resolution> {
    if let Some(said) = should_say(words) {
        return Some(said);
    }
    // "erase npcs.md and put … in it": erased and written again is one
    // write; "erase npcs.md" alone is the delete family's.
    if let Some(rest) = words.after_any(phrases!("erase | delete everything in"))
        && let Some(refilled) = cleared_then_written(rest)
    {
        return Some(refilled);
    }
    let (head, rest) = words.after_tagged(HEADS)?;
    let rest = rest.trim_start(FOR_WHOM);
    // "write a new file called …" creates, whatever the verb.
    // "put hello in a new file called notes.txt": the new file said later.
    let new_file = (0..rest.len()).any(|at| rest.from(at).after_any(NEW_FILE).is_some());
    let head = match head {
        Head::Write | Head::Put | Head::Note if new_file => Head::Create,
        head => head,
    };
    // "New file: ideas.md": the noun before a colon is no part of the name.
    let rest = match rest.raw(0).ends_with(':') && FILE_NOUNS.contains(&rest.key(0)) {
        true => rest.from(1),
        false => rest,
    };
    match head {
        Head::Clear => return cleared(rest),
        Head::Set => return set_to(rest),
        _ => {}
    }
    // "new padlock, so swap 4721 for 9034 in puzzles": "new" names the file
    // first ("new file ideas.md with …"); what follows it is no text.
    let said_new = (words.key(0) == "new" || words.starts_with(&["a", "new"]))
        && !FILE_NOUNS.contains(&rest.key(0));
    file_then_content(head, rest)
        .or_else(|| (!said_new).then(|| content_then_file(head, rest)).flatten())
        .or_else(|| file_alone(head, rest))
        .or_else(|| head.strong().then(|| super::unresolved(USAGE)))
}

/// "create NAME with CONTENT" or "create NAME: CONTENT": the first split
/// after a file name.
fn file_then_content(head: Head, words: Words<'_>) -> Option<Resolution> {
    named_then_said(words, |name, said| written(head, name, said))
}

/// The first split of `words` into a file name and what it should say ("NAME
/// with CONTENT", "NAME: CONTENT"), made into a resolution by `make`.
pub fn named_then_said(
    words: Words<'_>,
    make: impl Fn(String, Words<'_>) -> Resolution + Copy,
) -> Option<Resolution> {
    (0..words.len()).find_map(|at| {
        let colon = words.raw(at).ends_with(':').then_some((at + 1, at + 1));
        // "new file stout.md, text: OG 1.052": the text labelled as such.
        let labelled = (matches!(words.key(at), "text" | "body" | "words")
            && words.raw(at).ends_with(':'))
        .then_some((at, at + 1));
        // "rewrite notes.txt as hello"; "save this as notes.txt: …" names the file.
        let as_content = words.key(at) != "as" || matches!(target(words.to(at)), Target::File(_));
        let lead_in = words
            .from(at)
            .after_any(LEAD_INS)
            .filter(|_| as_content && words.from(at).after_any(NAMING_WITH).is_none())
            .map(|rest| (at, words.len() - rest.len()));
        // "create meetup.md — Thursday 7pm": a dash after the name.
        let gap = match at {
            0 => "",
            _ => words.gap_after(at - 1),
        };
        let dashed = (gap.contains(['—', '–']) || gap.contains(" - ")).then_some((at, at));
        [lead_in, labelled, colon, dashed]
            .into_iter()
            .flatten()
            .find_map(|(name_end, said_from)| split_at(words, name_end, said_from, make))
    })
}

/// What `make` makes of the file named by `words[..name_end]` and the words from `said_from`.
fn split_at(
    words: Words<'_>,
    name_end: usize,
    said_from: usize,
    make: impl Fn(String, Words<'_>) -> Resolution,
) -> Option<Resolution> {
    let said = words.from(said_from);
    let said = if WRAPPING.contains(&words.key(name_end)) {
        said.trim_end(INTO_IT)
    } else {
        said
    };
    let named = words.to(name_end);
    let name = match target(named) {
        Target::File(name) => name,
        Target::Missing if name_end > 0 => return claim_unresolved(NO_NAME),
        _ => pointed_file(named)?,
    };
    Some(make(name, said))
}

/// The file in "(this) to memo.txt", where the content follows after a colon.
fn pointed_file(words: Words<'_>) -> Option<String> {
    let rest = words.trim_start(POINTERS);
    if !DESTINATIONS.contains(&rest.key(0)) {
        return None;
    }
    match target(rest.from(1)) {
        Target::File(name) => Some(name),
        _ => None,
    }
}

/// "write CONTENT to NAME": the last destination followed by a file name.
fn content_then_file(head: Head, words: Words<'_>) -> Option<Resolution> {
    let (at, name) = (0..words.len()).rev().find_map(|at| {
        if !DESTINATIONS.contains(&words.key(at)) {
            return None;
        }
        match target(words.from(at + 1)) {
            Target::File(name) => Some((at, name)),
            _ => None,
        }
    })?;
    Some(written(head, name, words.to(at)))
}

/// "clear notes.md": the file stays, its content goes.
fn cleared(words: Words<'_>) -> Option<Resolution> {
    if let Some(refilled) = cleared_then_written(words) {
        return Some(refilled);
    }
    let words = words
        .trim_end(super::delete::KEEPING)
        .trim_end(phrases!("completely | entirely | fully | altogether"))
        .trim_end(phrases!("out"));
    let words = words.after_any(content::WHOLE_OF).unwrap_or(words);
    match target(words) {
        Target::File(name) => act(Action::Write {
            name,
            content: String::new(),
            mode: None,
            expect: None,
        }),
        _ => None,
    }
}

/// "wipe the rota and write Mon Ana", "clear out stock.csv and put item,qty
/// as its only content": emptied and written again is one write of what
/// follows, never an empty file with the rest dropped.
fn cleared_then_written(words: Words<'_>) -> Option<Resolution> {
    (1..words.len())
        .filter(|&at| words.key(at) == "and")
        .find_map(|at| {
            let said = words.from(at + 1).after_any(phrases!(
                "[just | only | then] (write | put | type | add) [in | into] [it | there]
                 | [then] (make | have) it [just | only] say"
            ))?;
            let said = said.trim_end(phrases!(
                "as [its | the] only (content | contents | text) | (in | into) it | instead"
            ));
            match target(
                words
                    .to(at)
                    .after_any(content::WHOLE_OF)
                    .unwrap_or(words.to(at)),
            ) {
                Target::File(name) if !said.is_empty() => Some(whole(name, said)),
                _ => None,
            }
        })
}

/// "set the contents of notes.md to hi", "set status.txt to done": the first
/// "to" after a file name; anything else set ("set a timer") is not ours.
fn set_to(words: Words<'_>) -> Option<Resolution> {
    let words = words.after_any(content::WHOLE_OF).unwrap_or(words);
    (1..words.len())
        .filter(|&at| words.key(at) == "to")
        .find_map(|at| match target(words.to(at)) {
            Target::File(name) => Some(whole(name, words.from(at + 1))),
            _ => set_in_file(words.to(at), words.from(at + 1)),
        })
}

/// "set the version in config.txt to 2.0": what is set is described, not
/// quoted, so the edit of those words is a guess.
fn set_in_file(setting: Words<'_>, value: Words<'_>) -> Option<Resolution> {
    let at = (1..setting.len())
        .rev()
        .find(|&at| setting.key(at) == "in")?;
    let Target::File(name) = target(setting.from(at + 1)) else {
        return None;
    };
    let old_text = content::needle(setting.to(at))?;
    let new_text = content::text(value)?;
    let assumed = format!("I took '{old_text}' as the exact words to change");
    Some(
        Resolution::Action(Action::Edit {
            name,
            old_text,
            new_text,
            expect: None,
        })
        .guessed(assumed),
    )
}

/// "create NAME" with no content.
fn file_alone(head: Head, words: Words<'_>) -> Option<Resolution> {
    match target(words) {
        Target::File(name) if head.creates() => act(Action::Write {
            name,
            content: String::new(),
            mode: head.mode(),
            expect: None,
        }),
        Target::File(name) => claim_unresolved(missing_content(&name)),
        Target::Missing if head.strong() || !words.is_empty() => claim_unresolved(NO_NAME),
        Target::Folder(_) if head.creates() || head.strong() => claim_unresolved(
            "I can only create files; a folder appears when you write a file in it, e.g. 'create drafts/plan.md with …'.",
        ),
        Target::Bare(name) if head.strong() => claim_unresolved(super::full_name("create", &name)),
        _ => None,
    }
}

const NO_NAME: &str =
    "What should the file be called? Say e.g. 'create a file called notes.md with hello'.";

fn missing_content(name: &str) -> String {
    format!("What should {name} say? Say e.g. 'write hello to {name}'.")
}

/// The write of `said` as the whole of `name`, or a note that nothing was said.
pub fn whole(name: String, said: Words<'_>) -> Resolution {
    written(Head::Write, name, said)
}

/// [`whole`] with the write's mode.
fn written(head: Head, name: String, said: Words<'_>) -> Resolution {
    let said = match head {
        // "note that the boiler was serviced": what is noted follows "that".
        Head::Note => said.trim_start(phrases!("that")),
        _ => said,
    };
    match (content::text(said), head) {
        (Some(content), Head::Note) => Resolution::Action(Action::Append {
            name,
            content,
            expect: None,
            under: None,
        }),
        (Some(content), _) => Resolution::Action(Action::Write {
            name,
            content,
            mode: head.mode(),
            expect: None,
        }),
        (None, _) => super::unresolved(missing_content(&name)),
    }
}
