//! `grep`: "search for TODO", "grep TODO", "find TODO in my files",
//! "look for invoice in the receipts folder", "search drafts for plan",
//! "which files mention invoice".
//!
//! An unquoted query that starts like a request for the world ("find me a …",
//! "search for a flight") is refused with a tip to quote it.

use super::content;
use super::name::{Target, folder, is_joiner, target};
use super::phrases::{Phrases, phrases};
use super::text::Words;
use super::{Resolution, act, claim_unresolved};
use crate::action::Action;
use alloc::format;
use alloc::string::String;

mod asked;
pub use asked::asked;

/// Heads followed by the query ("search for TODO in drafts").
const QUERY_FIRST: Phrases =
    Phrases::new("search [for | everywhere for] | grep [for] | find | (look | hunt | scan) for");
/// Heads followed by a folder, then "for" and the query ("search drafts for TODO").
const FOLDER_FIRST: Phrases = Phrases::new(
    "search [through] | grep | scan | check | (look | hunt | dig | comb | go) through
     | look in",
);
/// Words that may open a question about which files hold the query, before
/// the noun: "which", "do any of my", "find all the", "show me".
const FILES_ASKED: Phrases = Phrases::new(
    "tell me | check | see | if | whether | is | a | there | which | what | do | does | are
     | find | show me | list | any | of | all | the | my | our | your",
);
/// The noun of a question about which files hold the query.
const FILES: Phrases = Phrases::new("files | file | documents | document | notes");
/// Verbs after "which files" that make it a search.
const MENTION: Phrases = Phrases::new(
    "mention | mentions | mentioning | contain | contains | containing | include | includes
     | including | reference | references | refer to | (talk | talks | are | is) about
     | discuss | discusses | say | says | have | has | use | with",
);
/// Words before the query that say what kind of hit is wanted, and framing
/// around it: "where I mentioned the dentist", "anything that says wifi
/// password", "notes mentioning the dentist".
const QUERY_LEADING: Phrases = Phrases::new(
    "that | which | [all] mentions of | (every | any) mention of | every occurrence of
     | [all] occurrences of | instances of | references to
     | the (word | text | phrase | words | sentence | string | term | keyword)
     | where i (wrote [down | about] | noted | saved | mentioned | said | put)
     | (every place | everywhere) i mentioned | anything that (says | mentions)
     | anything saying | (anything | something) about | about | mentioning
     | that (mention | mentions | say | says)",
);
/// Articles a framed query loses ("mentioning the dentist" looks for "dentist").
const FRAMED_ARTICLES: Phrases = Phrases::new("the | a | an | my");
/// Leads that name the query as several words on purpose.
const PHRASED: Phrases = Phrases::new("the phrase | the words | the sentence");

/// Openings of "where is Q mentioned".
const WHERE: Phrases =
    Phrases::new("where (is | are | does | do) | (find | show me | tell me) where");
/// Openings of a yes/no question about the files: "is Q mentioned anywhere",
/// "does Q appear", "is the word Q anywhere in my files".
const ASKS: Phrases = Phrases::new("is | are | does | do");
/// Words that may close a search without narrowing it ("… appear anywhere",
/// "look for X everywhere").
const ANYWHERE: Phrases =
    Phrases::new("anywhere | everywhere | (in | inside) (it | them) | inside");
/// Endings that make "where is Q …" a search.
const WHERE_ENDS: Phrases = Phrases::new(
    "[is | are] (mentioned | used | written | referenced) | appear | appears
     | (come | comes | show | shows) up",
);
/// Openings followed directly by the query.
const WHERE_MENTION: Phrases = Phrases::new(
    "where (do | did) (i | we) mention | (do | did) i mention | where does it say
     | where (did | do) (i | we) (write | talk) [about] | where (did | do) (i | we) note [down]
     | where (have | had) (i | we) (written | mentioned | noted | put) [down] [about]",
);
/// Prepositions before the folder searched ("… in receipts").
const DIR_PREPS: &[&str] = &["in", "inside", "within", "under", "across", "throughout"];
/// Places this resolver cannot search.
const ELSEWHERE: &[&str] = &[
    "web", "internet", "online", "google", "bing", "wikipedia", "youtube", "amazon",
];
/// Query openings that show the sentence is not a search ("what files have I got").
const SUBJECTS: &[&str] = &["i", "we", "you", "there", "been"];
/// Unquoted words that, alone, are no text to look for.
const NO_TEXT: &[&str] = &["nothing", "anything", "something", "everything"];
/// Unquoted query openings that ask for something in the world.
const WORLDLY: &[&str] = &["me", "us", "a", "an", "some", "out", "my", "your"];

/// What a search sentence asks for, before checks.
struct Search<'a> {
    query: Words<'a>,
    place: Option<Scope>,
    /// Whether an unquoted query may be several words; "find" takes one, so
    /// "find a good restaurant" is not a search.
    loose: bool,
}

/// Where to search: a folder (`None` for the root), or a file given by mistake.
enum Scope {
    Folder(Option<String>),
    File(String),
}

pub fn resolve(words: Words<'_>) -> Option<Resolution> {
    let search = unscoped(words).or_else(|| folder_scoped(words))?;
    // "the phrase quarterly report": words named as a phrase are one query.
    let phrased = search.query.after_any(PHRASED).is_some();
    let framed = search.query.trim_start(QUERY_LEADING);
    // Framing says what follows is what is looked for, however many words.
    let said_as_query = framed.len() < search.query.len();
    let query = match said_as_query && framed.len() > 1 {
        true => framed.trim_start(FRAMED_ARTICLES),
        false => framed,
    }
    .trim_end(ANYWHERE);
    if !query.is_quoted() && SUBJECTS.contains(&query.key(0)) {
        return None;
    }
    // "… and find nothing": an unquoted pronoun alone names no text.
    if !query.is_quoted() && query.len() == 1 && NO_TEXT.contains(&query.key(0)) {
        return None;
    }
    if let Some(why) = out_of_reach(words)
        .or_else(|| unsearchable(query, search.loose || phrased || said_as_query))
    {
        return claim_unresolved(why);
    }
    let text = query.literal();
    let query = if query.is_quoted() {
        text
    } else {
        content::unasked(text)
    };
    match search.place {
        // "is Heartstopper mentioned in bookclub.md?": a search is of a
        // folder, so the file's own folder is searched, and the answer
        // says which of its files have it.
        Some(Scope::File(name)) => in_file(query, &name),
        Some(Scope::Folder(dir)) => act(Action::Grep { query, dir }),
        None => act(Action::Grep { query, dir: None }),
    }
}

/// Why the sentence asks for a search no project search can do.
fn out_of_reach(words: Words<'_>) -> Option<&'static str> {
    if names_elsewhere(words) {
        Some("I can only search the files in this project.")
    } else if words.contains_any(&["not", "without"]) {
        Some("I can only find text that is there — say e.g. 'search for TODO'.")
    } else {
        None
    }
}

/// Whether a word names a place outside the project; one joined into a path
/// ("projects slash web") is a folder.
fn names_elsewhere(words: Words<'_>) -> bool {
    let joined = |at: Option<usize>| at.is_some_and(|at| is_joiner(words.key(at)));
    (0..words.len()).any(|at| {
        ELSEWHERE.contains(&words.key(at)) && !joined(at.checked_sub(1)) && !joined(Some(at + 1))
    })
}

/// Why a query cannot be searched for as said.
fn unsearchable(query: Words<'_>, loose: bool) -> Option<&'static str> {
    if content::needle(query).is_none() {
        return Some("What should I search for? Say e.g. 'search for TODO'.");
    }
    if query.is_quoted() {
        return None;
    }
    if WORLDLY.contains(&query.key(0)) || (!loose && query.len() > 1) {
        return Some(
            "I search the text of your files — put what to find in quotes, e.g. search for 'a plan'.",
        );
    }
    let names_a_file = query.contains_any(&["file"]) && matches!(target(query), Target::File(_));
    names_a_file
        .then_some("I search inside files, not for file names — say 'list files' to see them.")
}

/// A search sentence that does not open with its folder.
fn unscoped(words: Words<'_>) -> Option<Search<'_>> {
    which_files(words)
        .or_else(|| where_mentioned(words))
        .or_else(|| checked(words))
        .or_else(|| folder_first(words))
        .or_else(|| query_first(words))
}

/// "in the docs folder, search for license": the folder, then a search
/// that names no place of its own.
fn folder_scoped(words: Words<'_>) -> Option<Search<'_>> {
    let rest = words.after_any(phrases!("in | inside | within"))?;
    (1..rest.len()).find_map(|at| {
        let dir = folder(rest.to(at))?;
        let search = unscoped(rest.from(at))?;
        search.place.is_none().then_some(Search {
            place: Some(Scope::Folder(dir)),
            ..search
        })
    })
}

/// "which files mention Q (in D)", "do any of my files in D mention Q".
fn which_files(words: Words<'_>) -> Option<Search<'_>> {
    let rest = words.trim_start(FILES_ASKED).after_any(FILES)?;
    let (place, rest) = match folder_before_verb(rest) {
        Some((place, rest)) => (Some(place), rest),
        None => (None, rest),
    };
    let rest = rest
        .trim_start(phrases!("are there that | that | which"))
        .trim_start(STILL);
    let search = split_place(without_the(rest.after_any(MENTION)?), true);
    Some(Search {
        place: search.place.or(place),
        ..search
    })
}

/// Adverbs between the files asked about and their verb ("which files
/// still have TODO in them").
const STILL: Phrases = Phrases::new("still | also | currently | actually | ever | even | already");

/// "in the recipes folder mention …": the folder between the files asked
/// about and their verb, and the words from the verb on.
fn folder_before_verb(words: Words<'_>) -> Option<(Scope, Words<'_>)> {
    if !DIR_PREPS.contains(&words.key(0)) {
        return None;
    }
    (2..words.len())
        .filter(|&at| words.from(at).after_any(MENTION).is_some())
        .find_map(|at| Some((Scope::Folder(folder(words.range(1, at))?), words.from(at))))
}

/// "is Heartstopper mentioned in bookclub.md?": a search is of a folder,
/// so the file's own folder is searched, as a guess, and the answer says
/// which of its files have it; a file outside the folder is refused.
fn in_file(query: String, name: &str) -> Option<Resolution> {
    if outside(name) {
        return claim_unresolved(format!(
            "I only search the files in this folder, so not {name}."
        ));
    }
    let dir = name.rsplit_once('/').map(|(dir, _)| String::from(dir));
    let assumed = format!(
        "I searched {} for '{query}': {name} is among the files found if it has it",
        dir.as_deref()
            .map_or(String::from("every file"), |dir| format!(
                "the {dir} folder"
            ))
    );
    Some(Resolution::Action(Action::Grep { query, dir }).guessed(assumed))
}

/// Whether a path said is outside the folder as the other verbs judge it
/// ([`super::name::leaves_the_folder`]), or is written the way another
/// machine's paths are (a drive, a backslash, `~user`): a search of such
/// a file's folder would search somewhere else than it names.
fn outside(name: &str) -> bool {
    super::name::leaves_the_folder(name)
        || name.starts_with(['~', '\\'])
        || name.contains("..")
        || name.as_bytes().get(1) == Some(&b':')
}

/// "the walking foot" of "anything about the walking foot": what is looked
/// for is "walking foot"; a title's "The", said with its capital, stays.
fn without_the(query: Words<'_>) -> Words<'_> {
    // "the word invoice", "the phrase due date": framing, read as such later.
    let framed = query.after_any(QUERY_LEADING).is_some();
    match !framed && query.get(0).is_some_and(|w| w.inner == "the") && query.len() > 1 {
        true => query.from(1),
        false => query,
    }
}

/// "where is Q mentioned (in D)", "where do I mention Q", "is Q used
/// anywhere", "is Q anywhere in my files". Without a verb like "mentioned",
/// a yes/no question is a search only when it says "anywhere" and names the
/// files, so "is the weather nice anywhere" is not one.
fn where_mentioned(words: Words<'_>) -> Option<Search<'_>> {
    if let Some(rest) = words.after_any(WHERE_MENTION) {
        return Some(split_place(without_the(rest), true));
    }
    let (asked, rest) = match words.after_any(WHERE) {
        Some(rest) => (false, rest),
        None => (true, words.after_any(ASKS)?),
    };
    let search = split_place(rest, true);
    let open = search.query.trim_end(ANYWHERE);
    let bare = open.trim_end(WHERE_ENDS);
    let anywhere_in_files = asked && open.len() < search.query.len() && search.place.is_some();
    (bare.len() < open.len() || anywhere_in_files).then_some(Search {
        query: bare,
        ..search
    })
}

/// Openings of a check whether some text is there ("see if the word wifi
/// appears anywhere").
const CHECK_IF: Phrases = Phrases::new("(see | check | find out) (if | whether)");

/// "see if the word wifi appears anywhere": the text, then where it is.
fn checked(words: Words<'_>) -> Option<Search<'_>> {
    let search = split_place(words.after_any(CHECK_IF)?, true);
    let open = search.query.trim_end(ANYWHERE);
    let bare = open
        .trim_end(WHERE_ENDS)
        .trim_end(phrases!("is there | is in there"));
    (bare.len() < search.query.len() && !bare.is_empty()).then_some(Search {
        query: bare,
        ..search
    })
}

/// "search D for Q".
fn folder_first(words: Words<'_>) -> Option<Search<'_>> {
    let rest = words.after_any(FOLDER_FIRST)?;
    let at = (1..rest.len()).find(|&at| rest.key(at) == "for")?;
    let place = rest.to(at).trim_start(phrases!("through | in"));
    // "search my notes for X": everything kept here, not a folder.
    let everything = place
        .after_any(phrases!(
            "[all] my (notes | files | stuff | documents | docs | things)"
        ))
        .is_some_and(Words::is_empty);
    let dir = match everything {
        true => None,
        false => folder(place)?,
    };
    Some(Search {
        query: rest.from(at + 1),
        place: Some(Scope::Folder(dir)),
        loose: true,
    })
}

/// "search for Q (in D)", "find Q (in D)".
fn query_first(words: Words<'_>) -> Option<Search<'_>> {
    let rest = skip_flags(words.after_any(QUERY_FIRST)?);
    // "grep for Penny Black" is said, not typed as the shell reads it.
    if words.starts_with(&["grep"])
        && !words.starts_with(&["grep", "for"])
        && let Some(search) = pattern_then_path(rest)
    {
        return Some(search);
    }
    Some(split_place(rest, !words.starts_with(&["find"])))
}

/// `grep budget drafts`: as the shell reads it, a pattern and the folder
/// to look in, each one plain word.
fn pattern_then_path(words: Words<'_>) -> Option<Search<'_>> {
    const NOT_PLACES: &[&str] = &["anywhere", "everywhere", "here", "there", "please", "now"];
    let quoted = words.get(0)?.quoted || words.get(1)?.quoted;
    if words.len() != 2 || quoted || NOT_PLACES.contains(&words.key(1)) {
        return None;
    }
    let Target::Bare(dir) = target(words.from(1)) else {
        return None;
    };
    Some(Search {
        query: words.to(1),
        place: Some(Scope::Folder(Some(dir.trim_end_matches('/').into()))),
        loose: false,
    })
}

/// Drops command-line flags ("grep -r TODO").
fn skip_flags(words: Words<'_>) -> Words<'_> {
    let flags = words.keys().take_while(|k| k.starts_with('-')).count();
    words.from(flags)
}

/// Splits the place searched off a query: "… in D", or "\"Q\" D" as grep has it.
fn split_place(words: Words<'_>, loose: bool) -> Search<'_> {
    let after_quote = words.get(0).filter(|w| w.quoted).and_then(|_| {
        let dir = folder(words.from(1)).filter(|_| words.len() > 1)?;
        Some((words.to(1), Scope::Folder(dir)))
    });
    let (query, place) = match after_quote.or_else(|| in_place(words)) {
        Some((query, place)) => (query, Some(place)),
        None => (words, None),
    };
    Search {
        query,
        place,
        loose,
    }
}

/// "… in D", when D is a place.
fn in_place(words: Words<'_>) -> Option<(Words<'_>, Scope)> {
    (1..words.len())
        .rev()
        .filter(|&at| DIR_PREPS.contains(&words.key(at)))
        .find_map(|at| {
            let tail = words.from(at + 1);
            let place = match target(tail) {
                Target::File(name) => Scope::File(name),
                _ => Scope::Folder(folder(tail)?),
            };
            Some((words.to(at), place))
        })
}
