//! `find` and `info`: "where's the budget file", "find files named *.md",
//! "which file is called budget", "how big is notes.md", "when did
//! notes.md change", "how many lines are in notes.md" (a file's lines and a
//! folder's entries are `info`'s; its words are the shelf's `wc`).

mod by_name;

use super::name::{Target, target};
use super::phrases::{Phrases, phrases};
use super::text::Words;
use super::{Resolution, act};
use crate::action::Action;
use alloc::string::String;
use alloc::vec::Vec;
pub(super) use by_name::by_name;

/// Heads of finding a file by its name; the rest is the name's words.
const FIND: Phrases = Phrases::new(
    "where is [the | my] | where are (the | my)
     | find [me] [the file [called | named] | [any | all [the]] files (called | named | matching) | my | the]
     | locate | look for ([a | the] file [called | named] | files (named | matching))
     | search for ([a | the] file (called | named) | files (named | called | matching))
     | which file is called | is there [a | any] (file | files) (called | named)
     | are there any files (called | named | matching)
     | which files are called | list files (named | matching)",
);

/// Nouns said around the name ("the budget file", "my tax documents").
const NOUNS: &[&str] = &[
    "file", "files", "document", "documents", "doc", "docs", "note", "notes", "one", "called",
    "named",
];

/// Nouns that make a finding about a file's name.
const FILE_NOUNS: &[&str] = &["file", "files", "document", "documents", "doc", "docs"];

/// Words that ask about what files say, not what they are called (grep's).
const TEXT_WORDS: &[&str] = &[
    "that", "which", "mentions", "mention", "mentioned", "says", "say", "with", "about",
    "containing", "contains", "every", "all", "any", "me",
];

/// Heads that ask what a file is; the rest names it.
const INFO: Phrases = Phrases::new(
    "how (big | large | long) is | what size is | [what is the] size of
     | when did (i | we | anyone | someone | somebody) [last] (change | update | edit | modify | touch)
     | when (was | did)
     | [(give | show | get) me | get] [the] [file] (info | information | details | stats) (on | about | for | of)
     | tell me about | stat | stats (on | for | of)
     | how many (lines | entries | files | items) [are | is] [there] (in | inside)
     | how many lines (does | has | is) | count [the] lines (in | of)
     | [the] number of (lines | entries) (in | of) | [the] line count (of | for)",
);

/// Words after the name in an info question ("… last changed", "… have").
const INFO_TAIL: Phrases = Phrases::new(
    "[last] [get | got] (changed | modified | edited | change | updated | update | touched | saved)
         | have | has | get | got | please",
);

/// Heads of asking which files a name has in it.
const NAME_HAS_HEADS: Phrases = Phrases::new(
    "(which | what) [of my] (files | file) (have | has | contain | contains) | (find | list | show [me] | locate)
     [me] [every | all | any] [the] (file | files) with | look for [a | the] (file | files) with
     | (find | list | show [me] | locate | look for) [me] [a | the | every | all] (file | files)
     whose (name | names) (has | have | contains | contain | includes | include)
     | is there [a | any] file with | are there [any] files with
     | where is the file with | (have (i | we) got | do (i | we) have) [a | any] (file | files) with
     | any (file | files) with",
);

/// Heads that say the words are in the names, so need no closing words:
/// "find file names with swarm".
const NAMES_WITH: Phrases = Phrases::new(
    "(find | list | show [me] | search) [the | all] [file] names (with | containing | that contain)",
);

/// Words that close it: "… in their name" ("… in them" asks about text).
const NAME_HAS_TAIL: Phrases =
    Phrases::new("in (their | the | its) (name | names | filename | filenames)");

/// "which files have invoice in their name", "find every file with setlist
/// in the name", "look for a file whose name has 2026 in it": the words a
/// name holds, found by name (a look, so a loose reading costs nothing).
fn name_has(words: Words<'_>) -> Option<Resolution> {
    let (rest, whose) = match words.after_any(NAMES_WITH) {
        Some(rest) => (rest, true),
        None => (
            words.after_any(NAME_HAS_HEADS)?,
            words.keys().any(|k| k == "whose"),
        ),
    };
    let said = rest.trim_end(phrases!("please | somewhere | anywhere"));
    let said = match said.trim_end(NAME_HAS_TAIL) {
        trimmed if trimmed.len() < said.len() => trimmed,
        // "… whose name has 2026 [in it]": after "whose" it is the name's.
        trimmed if whose => trimmed.trim_end(phrases!("in (it | them)")),
        _ => return None,
    };
    let kept: Vec<&str> = said.keys().collect();
    if kept.is_empty() || kept.len() > 3 || kept.iter().any(|k| matches!(*k, "in" | "inside")) {
        return None;
    }
    act(Action::Find {
        pattern: kept.join(" "),
        dir: None,
    })
}

/// "has defects.md changed recently", "have the notes been edited today":
/// a yes-or-no about a file's changing, which its info answers.
fn has_changed(words: Words<'_>) -> Option<Resolution> {
    // "is race-results.md big?": how big it is, which its info says.
    if let Some(rest) = words.after_any(phrases!("is | are")) {
        let named = rest.trim_end(phrases!(
            "[very | too | getting] (big | large | huge | long)"
        ));
        if named.len() < rest.len()
            && let Target::File(name) = target(named)
        {
            return act(Action::Info { name });
        }
    }
    let rest = words.after_any(phrases!("has | have"))?;
    let rest = rest.trim_end(phrases!(
        "recently | lately | today | this week | since yesterday | at all | when"
    ));
    let named = rest.trim_end(INFO_TAIL).trim_end(phrases!("been"));
    match target(named) {
        Target::File(name) | Target::Folder(Some(name)) if named.len() < rest.len() => {
            act(Action::Info { name })
        }
        _ => None,
    }
}

pub fn resolve(words: Words<'_>) -> Option<Resolution> {
    if let Some(changed) = has_changed(words) {
        return Some(changed);
    }
    if let Some(rest) = words.after_any(INFO) {
        return match target(rest.trim_end(INFO_TAIL)) {
            Target::File(name) | Target::Folder(Some(name)) => act(Action::Info { name }),
            _ => None,
        };
    }
    if let Some(found) = name_has(words) {
        return Some(found);
    }
    // "search file names for receipt": the names searched, not the text.
    if let Some(rest) = words.after_any(phrases!(
        "(search | look through | check) [the | my] (file names | filenames) for"
    )) && (1..=3).contains(&rest.len())
    {
        return act(Action::Find {
            pattern: rest.literal().trim_end_matches(['?', '.']).into(),
            dir: None,
        });
    }
    if let Some(rest) = words.after_any(phrases!(
        "(which | what) of my files are | [are there] any | (list | show [me]) [all | every]"
    )) && let Some(found) = of_kind(rest)
    {
        return Some(found);
    }
    let rest = words.after_any(FIND)?;
    if let Some(found) = glob(rest).or_else(|| of_kind(rest)) {
        return Some(found);
    }
    // "where is the budget file": a "where" question ends in its noun
    // ("where are my files stored" asks something else).
    if words.key(0) == "where" && !rest.keys().last().is_some_and(|k| FILE_NOUNS.contains(&k)) {
        return None;
    }
    let rest = rest.trim_end(phrases!(
        "somewhere | anywhere | around | please | something"
    ));
    if let Some(found) = named_in_folder(rest).or_else(|| called_in_folder(words, rest)) {
        return Some(found);
    }
    // "find milk in notes.md" is a search of a file's text: not a name.
    if rest
        .keys()
        .any(|k| k == "in" || k == "inside" || k == "containing")
    {
        return None;
    }
    if rest.len() == 1 && is_glob(rest.raw(0)) {
        return act(Action::Find {
            pattern: rest.raw(0).trim_end_matches(['?', '.', ',', '!']).into(),
            dir: None,
        });
    }
    // A name is asked for only with a file noun ("the budget file", "find
    // the file called budget"); "find me a restaurant" and "where is Lisbon
    // mentioned" are not about names.
    if !words.keys().any(|k| FILE_NOUNS.contains(&k)) {
        return None;
    }
    let kept: Vec<&str> = rest
        .keys()
        .filter(|k| !NOUNS.contains(k) && !matches!(*k, "the" | "my" | "a" | "an"))
        .collect();
    let about_text = kept.iter().any(|k| TEXT_WORDS.contains(k));
    if kept.is_empty() || kept.len() > 4 || about_text || kept.iter().any(|k| k.contains('.')) {
        return None;
    }
    act(Action::Find {
        pattern: kept.join(" "),
        dir: None,
    })
}

/// "kit files in the camp folder": a name's words, a file noun, and the
/// folder to look in.
fn named_in_folder(rest: Words<'_>) -> Option<Resolution> {
    let rest = rest.trim_start(phrases!("all | the | my | every | any"));
    let noun = (1..rest.len()).find(|&at| FILE_NOUNS.contains(&rest.key(at)))?;
    let dir = looked_in(rest.from(noun + 1))??;
    let said = rest.to(noun);
    let plain = said.len() <= 3
        && said
            .keys()
            .all(|k| k.chars().all(char::is_alphanumeric) && !TEXT_WORDS.contains(&k));
    plain.then(|| {
        Resolution::Action(Action::Find {
            pattern: said.literal(),
            dir: Some(dir),
        })
    })
}

/// "find files named kettle in the tickets folder": a name said as a name,
/// then the folder to look in.
fn called_in_folder(words: Words<'_>, rest: Words<'_>) -> Option<Resolution> {
    if !words.contains_any(&["named", "called", "matching"]) {
        return None;
    }
    let at = (1..rest.len()).find(|&at| rest.key(at) == "in")?;
    let dir = looked_in(rest.from(at))??;
    let said = rest.to(at);
    let plain = said.len() <= 3 && !said.keys().any(|k| TEXT_WORDS.contains(&k));
    plain.then(|| {
        Resolution::Action(Action::Find {
            pattern: said.literal(),
            dir: Some(dir),
        })
    })
}

/// A pattern of names, with words about files around it and perhaps the
/// folder to look in: "all the *.md files", "ep*.md in episodes", "*.txt
/// files in the walks folder".
fn glob(rest: Words<'_>) -> Option<Resolution> {
    let at = (0..rest.len()).find(|&i| is_glob(rest.raw(i)))?;
    let before_ok = rest
        .to(at)
        .keys()
        .all(|k| matches!(k, "all" | "the" | "my" | "every" | "any" | "of" | "like"));
    let dir = looked_in(rest.from(at + 1).trim_start(phrases!("file | files")))?;
    if !before_ok {
        return None;
    }
    act(Action::Find {
        pattern: rest.raw(at).trim_end_matches(['?', '.', ',', '!']).into(),
        dir,
    })
}

/// A name pattern: a `*`, or a `?` inside the word (one at its end closes a
/// question).
fn is_glob(raw: &str) -> bool {
    let raw = raw.trim_end_matches(['?', '.', ',', '!']);
    raw.contains('*') || raw.contains('?')
}

/// Kinds of file said by name, and the pattern each is.
const KINDS: &[(Phrases, &str)] = &[
    (Phrases::new("markdown | md"), "*.md"),
    (Phrases::new("text | txt"), "*.txt"),
    (Phrases::new("csv | spreadsheet"), "*.csv"),
    (Phrases::new("pdf"), "*.pdf"),
    (Phrases::new("json"), "*.json"),
    (Phrases::new("wav"), "*.wav"),
    (Phrases::new("mp3"), "*.mp3"),
    (Phrases::new("jpg | jpeg"), "*.jpg"),
    (Phrases::new("png"), "*.png"),
    (Phrases::new("svg"), "*.svg"),
    (Phrases::new("gpx"), "*.gpx"),
    (Phrases::new("html"), "*.html"),
    (Phrases::new("log"), "*.log"),
];

/// "all the markdown files", "csv files in the shop folder": a kind of
/// file found by its extension, in the folder said.
fn of_kind(rest: Words<'_>) -> Option<Resolution> {
    let rest = rest.trim_start(phrases!("all | the | my | every | of"));
    // ".md files": the extension said with its dot.
    let dotted = rest
        .get(0)
        .map(|w| w.inner)
        .filter(|w| w.len() > 1 && w.starts_with('.') && w[1..].chars().all(char::is_alphanumeric));
    if let Some(extension) = dotted {
        let dir = looked_in(
            rest.from(1)
                .after_any(phrases!("files | documents | ones"))?,
        )?;
        return act(Action::Find {
            pattern: alloc::format!("*{extension}"),
            dir,
        });
    }
    let (pattern, after) = rest
        .after_tagged(KINDS)
        .and_then(|(pattern, after)| {
            Some((
                pattern,
                after.after_any(phrases!("files | file | documents | ones"))?,
            ))
        })
        .or_else(|| plural_kind(rest))?;
    let dir = looked_in(after)?;
    act(Action::Find {
        pattern: pattern.into(),
        dir,
    })
}

/// "pdfs in here": a kind said in the plural needs no noun after it; the
/// pattern, and the words after the kind.
fn plural_kind(rest: Words<'_>) -> Option<(&'static str, Words<'_>)> {
    let one = rest.key(0).strip_suffix('s')?;
    let split = super::text::split(one);
    let (pattern, left) = Words::new(one, &split).after_tagged(KINDS)?;
    left.is_empty().then(|| (pattern, rest.from(1)))
}

/// What may follow what is looked for: nothing, or the folder to look in
/// ("in the walks folder"); `None` for any other words.
fn looked_in(after: Words<'_>) -> Option<Option<String>> {
    let after = after.trim_end(phrases!(
        "in here | here | in this folder | in my folder | please"
    ));
    match after.after_any(phrases!("in | inside | under")) {
        Some(place) => match target(place) {
            Target::Folder(Some(dir)) | Target::Bare(dir) => Some(Some(dir)),
            _ => None,
        },
        None => after
            .trim_end(phrases!("please | here"))
            .is_empty()
            .then_some(None),
    }
}
