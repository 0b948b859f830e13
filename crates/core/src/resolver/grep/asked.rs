//! A search asked as a question: "is there anything about coffee in my
//! files", "in which files did I write Lisbon", "find every file that
//! mentions Paris".

use super::super::content;
use super::super::phrases::{Phrases, phrases};
use super::super::text::Words;
use super::super::{Resolution, act};
use super::{ANYWHERE, MENTION, Scope, in_file, in_place, without_the};
use crate::action::Action;

/// Openings of a question about where some text is that [`super::resolve`] does
/// not read: "where is the word invoice", "is there anything about coffee in
/// my files", "find every file that mentions Paris". The query follows.
const ASKED: Phrases = Phrases::new(
    "where is the (word | phrase | text) | is there (anything | something) about
     | is anything about | is there anything in my files about
     | (has | did) anyone (write | written | mention | mentioned) [anything about]
     | do i have anything (about | that (mentions | says | talks about))
     | is there anything that (mentions | says | talks about) | anything about
     | (does | do) (anything | any file | any of my files) (have | contain | mention | say)
     | (has | have) (anything | any file | any of my files) got
     | [is there | find] anything (mentioning | saying | that mentions | that says)",
);

/// "in which files did I write Lisbon", "in which file I mentioned the
/// dentist" (a learner's word order): the words after who wrote them.
fn written_where(words: Words<'_>) -> Option<Words<'_>> {
    const WHICH: Phrases = Phrases::new("in (which | what) (files | file)");
    const WROTE: Phrases = Phrases::new(
        "write | wrote | written | mention | mentioned | put | note | noted | save | saved",
    );
    words
        .after_any(WHICH)?
        .trim_start(phrases!("did | have | do"))
        .after_any(phrases!("i | we"))?
        .trim_start(phrases!("have"))
        .after_any(WROTE)
}

/// "find every TODO in the files", "find all FIXME in my files": every
/// occurrence of a word, said to be in the files (without them, "find every
/// restaurant" is no search).
fn every_in_files(words: Words<'_>) -> Option<Words<'_>> {
    let query = words.after_any(phrases!("find every | find all"))?;
    let bare = query.trim_end(IN_MY_FILES);
    let files = ["file", "files", "the", "my"].contains(&bare.key(0));
    (bare.len() < query.len() && !bare.is_empty() && !files).then_some(bare)
}

/// What may come between "find" and the verb of a files question.
const EVERY_FILE: Phrases =
    Phrases::new("every file | all [the] files | any (file | files) | [the] files");

/// Endings that only say where to look, which is everywhere.
const IN_MY_FILES: Phrases = Phrases::new(
    "in (my | the) files | in any file | in any of my files | in my folder | in here
     | anywhere",
);

/// A search asked as a question ([`ASKED`]) or as "find every file that
/// mentions …"; the query is the rest, quoted or up to a few plain words.
pub fn asked(words: Words<'_>) -> Option<Resolution> {
    let query = words
        .after_any(ASKED)
        .or_else(|| written_where(words))
        .or_else(|| every_in_files(words))
        .or_else(|| {
            let files = words
                .after_any(phrases!("find | show me | list"))?
                .after_any(EVERY_FILE)?;
            files
                .trim_start(phrases!("that | which"))
                .after_any(MENTION)
        })?;
    // "anything about awning? search for awning": the question ends it.
    let query = match (0..query.len().saturating_sub(1)).find(|&at| query.raw(at).ends_with('?')) {
        Some(at) => query.to(at + 1),
        None => query,
    };
    let query = query
        .trim_end(SEARCH_PLEASE)
        .trim_end(IN_MY_FILES)
        .trim_end(ANYWHERE)
        .trim_end(phrases!("mentioned | written"));
    let query = without_the(query);
    let (query, dir) = match in_place(query) {
        Some((query, Scope::Folder(dir))) => (query, dir),
        Some((query, Scope::File(name))) => {
            let text = content::needle(query)?;
            return in_file(content::unasked(text), &name);
        }
        None => (query, None),
    };
    let text = content::needle(query)?;
    if !query.is_quoted() && query.len() > 4 {
        return None;
    }
    act(Action::Grep {
        query: content::unasked(text),
        dir,
    })
}

/// A question's closing request to search ("…? please search").
const SEARCH_PLEASE: Phrases =
    Phrases::new("please (search | check | look) | (search | check) please");
