//! `grep`: "search for TODO", "grep TODO", "find TODO in my files",
//! "look for invoice in the receipts folder", "search drafts for plan",
//! "which files mention invoice".
//!
//! An unquoted query that starts like a request for the world ("find me a …",
//! "search for a flight") is refused with a tip to quote it.

use super::content;
use super::name::{Target, folder, target};
use super::text::Words;
use super::{Resolution, act, refuse};
use crate::action::Action;
use alloc::string::String;

/// Heads followed by the query ("search for TODO in drafts").
const QUERY_FIRST: &[&[&str]] = &[
    &["search"],
    &["search", "for"],
    &["grep"],
    &["grep", "for"],
    &["find"],
    &["look", "for"],
    &["hunt", "for"],
    &["scan", "for"],
    &["search", "everywhere", "for"],
];
/// Heads followed by a folder, then "for" and the query ("search drafts for TODO").
const FOLDER_FIRST: &[&[&str]] = &[
    &["search"],
    &["search", "through"],
    &["grep"],
    &["scan"],
    &["check"],
    &["look", "through"],
    &["look", "in"],
    &["go", "through"],
];
/// Heads asking which files hold the query.
const WHICH_FILES: &[&[&str]] = &[
    &["which", "files"],
    &["what", "files"],
    &["which", "file"],
    &["what", "file"],
    &["which", "documents"],
    &["what", "documents"],
    &["find", "files"],
    &["find", "all", "files"],
    &["find", "the", "files"],
    &["show", "me", "files"],
    &["list", "files"],
    &["files"],
];
/// Verbs after "which files" that make it a search.
const MENTION: &[&[&str]] = &[
    &["mention"],
    &["mentions"],
    &["mentioning"],
    &["contain"],
    &["contains"],
    &["containing"],
    &["include"],
    &["includes"],
    &["including"],
    &["reference"],
    &["references"],
    &["refer", "to"],
    &["talk", "about"],
    &["say"],
    &["have"],
    &["has"],
    &["use"],
    &["with"],
];
/// Words before the query that say what kind of hit is wanted.
const QUERY_LEADING: &[&[&str]] = &[
    &["that"],
    &["which"],
    &["all", "mentions", "of"],
    &["mentions", "of"],
    &["all", "occurrences", "of"],
    &["occurrences", "of"],
    &["instances", "of"],
    &["references", "to"],
    &["the", "word"],
    &["the", "text"],
    &["the", "phrase"],
    &["the", "string"],
];
/// Openings of "where is Q mentioned".
const WHERE: &[&[&str]] = &[&["where", "is"], &["where", "are"], &["where", "does"], &["where", "do"]];
/// Endings that make "where is Q …" a search.
const WHERE_ENDS: &[&[&str]] = &[
    &["mentioned"],
    &["used"],
    &["written"],
    &["referenced"],
    &["appear"],
    &["appears"],
    &["come", "up"],
    &["comes", "up"],
    &["show", "up"],
    &["shows", "up"],
];
/// Openings followed directly by the query.
const WHERE_MENTION: &[&[&str]] = &[
    &["where", "do", "i", "mention"],
    &["where", "did", "i", "mention"],
    &["where", "do", "we", "mention"],
    &["where", "did", "we", "mention"],
];
/// Prepositions before the folder searched ("… in receipts").
const DIR_PREPS: &[&str] = &["in", "inside", "within", "under", "across", "throughout"];
/// Places this resolver cannot search.
const ELSEWHERE: &[&str] = &["web", "internet", "online", "google"];
/// Query openings that show the sentence is not a search ("what files have I got").
const SUBJECTS: &[&str] = &["i", "we", "you", "there", "been"];
/// Unquoted query openings that ask for something in the world.
const WORLDLY: &[&str] = &["me", "us", "a", "an", "some", "out"];

pub fn resolve(words: Words<'_>) -> Option<Resolution> {
    let (query, dir) = which_files(words)
        .or_else(|| where_mentioned(words))
        .or_else(|| folder_first(words))
        .or_else(|| query_first(words))?;
    if words.contains_any(ELSEWHERE) {
        return refuse("I can only search the files in this project.");
    }
    let query = query.trim_start(QUERY_LEADING);
    if !query.is_quoted() && SUBJECTS.contains(&query.key(0)) {
        return None;
    }
    if query.is_empty() {
        return refuse("What should I search for? Say e.g. 'search for TODO'.");
    }
    if !query.is_quoted() && WORLDLY.contains(&query.key(0)) {
        return refuse(
            "I search the text of your files — put what to find in quotes, e.g. search for 'a plan'.",
        );
    }
    if !query.is_quoted()
        && query.contains_any(&["file"])
        && matches!(target(query), Target::File(_))
    {
        return refuse("I search inside files, not for file names — say 'list files' to see them.");
    }
    let dir = match dir {
        Some(Place::Folder(dir)) => dir,
        Some(Place::File(name)) => {
            return refuse(alloc::format!(
                "I search folders — to see {name} say 'read {name}'."
            ));
        }
        None => None,
    };
    let query = match query.is_quoted() {
        true => query.literal(),
        false => content::unasked(query.literal()),
    };
    act(Action::Grep { query, dir })
}

/// Where to search: a folder (`None` for the root), or a file given by mistake.
enum Place {
    Folder(Option<String>),
    File(String),
}

/// "which files mention Q (in D)".
fn which_files(words: Words<'_>) -> Option<(Words<'_>, Option<Place>)> {
    let rest = words.after_any(WHICH_FILES)?;
    let rest = rest.trim_start(&[
        &["are", "there", "that"],
        &["that"],
        &["which"],
        &["do", "not"],
    ]);
    let rest = rest.after_any(MENTION)?;
    Some(split_place(rest))
}

/// "where is Q mentioned (in D)", "where do I mention Q".
fn where_mentioned(words: Words<'_>) -> Option<(Words<'_>, Option<Place>)> {
    if let Some(rest) = words.after_any(WHERE_MENTION) {
        return Some(split_place(rest));
    }
    let (query, place) = split_place(words.after_any(WHERE)?);
    let bare = query.trim_end(WHERE_ENDS);
    (bare.len() < query.len()).then_some((bare, place))
}

/// "search D for Q".
fn folder_first(words: Words<'_>) -> Option<(Words<'_>, Option<Place>)> {
    let rest = words.after_any(FOLDER_FIRST)?;
    let at = (1..rest.len()).find(|&at| rest.key(at) == "for")?;
    let dir = folder(rest.to(at).trim_start(&[&["through"], &["in"]]))?;
    Some((rest.from(at + 1), Some(Place::Folder(dir))))
}

/// "search for Q (in D)".
fn query_first(words: Words<'_>) -> Option<(Words<'_>, Option<Place>)> {
    let rest = skip_flags(words.after_any(QUERY_FIRST)?);
    let rest = match rest.after_any(WHICH_FILES).map(|r| r.after_any(MENTION)) {
        Some(Some(after)) => after,
        _ => rest,
    };
    Some(split_place(rest))
}

/// Drops command-line flags ("grep -r TODO").
fn skip_flags(words: Words<'_>) -> Words<'_> {
    let flags = words.keys().take_while(|k| k.starts_with('-')).count();
    words.from(flags)
}

/// Splits the place searched off a query: "… in D", or "\"Q\" D" as grep has it.
fn split_place(words: Words<'_>) -> (Words<'_>, Option<Place>) {
    let after_quote = words.get(0).filter(|w| w.quoted).and_then(|_| {
        let dir = folder(words.from(1)).filter(|_| words.len() > 1)?;
        Some((words.to(1), Some(Place::Folder(dir))))
    });
    after_quote.or_else(|| in_place(words)).unwrap_or((words, None))
}

/// "… in D", when D is a place.
fn in_place(words: Words<'_>) -> Option<(Words<'_>, Option<Place>)> {
    (1..words.len())
        .rev()
        .filter(|&at| DIR_PREPS.contains(&words.key(at)))
        .find_map(|at| {
            let tail = words.from(at + 1);
            let place = match target(tail) {
                Target::File(name) => Place::File(name),
                _ => Place::Folder(folder(tail)?),
            };
            Some((words.to(at), Some(place)))
        })
}
