//! The script resolver: deterministic, zero-key, text → one action or `unresolved`.
//!
//! An utterance is split into [`text::Words`] (keys for matching, spans for
//! verbatim names and content), courtesy is dropped from both ends, and each
//! verb family in [`FAMILIES`] is asked in turn whether the sentence is of its
//! kind. A family answers `None` ("not mine"), an action, or an unresolved note
//! naming what is missing. Nothing claims → a note saying what the resolver can
//! do, unless its last clause asks for something done to "it" and an earlier
//! clause named the file ([`antecedent`]). Adding a verb is adding one family
//! module and one row.
//!
//! It refuses rather than guesses: names must look like names (an extension,
//! or "the file called …"), "everything" is never a file, and a verb without
//! its required parts says which part is missing.

mod antecedent;
mod append;
mod aside;
mod asset;
mod content;
mod courtesy;
pub mod daily;
mod delete;
mod diff;
mod edges;
mod edit;
mod extensions;
mod find;
mod folder;
mod fronted;
mod grep;
pub mod heard;
mod history;
mod hypothetical;
mod inside;
mod interposed;
mod items;
mod list;
mod mention;
mod name;
mod organise;
pub mod phrases;
mod placed;
mod pointed;
mod proposal;
mod read;
mod restart;
pub mod settle;
mod shelf;
mod shell;
pub mod spoken;
mod text;
mod tool;
mod typo;
mod undo;
mod unsupported;
mod write;

#[cfg(test)]
mod tests;

use crate::action::{self, Action};
use alloc::string::String;
use inside::takes_back;
use placed::{folders_said, in_folder_first};
use serde::Serialize;
use text::Words;

/// What a resolver made of an utterance.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Resolution {
    /// The one action the utterance asks for.
    Action(Action),
    /// The best reading of words that could mean something else (a typo
    /// corrected, a name settled loosely, a reading another verb also
    /// claims): a change is asked about before it is done, a look runs and
    /// says what it assumed.
    Guess {
        action: Action,
        /// What was assumed, in words ("took 'raed' as 'read'").
        assumed: String,
    },
    /// No action: the note says why, in words a person can act on.
    Unresolved { note: String },
}

impl Resolution {
    /// The action, sure or guessed.
    pub fn action(&self) -> Option<&Action> {
        match self {
            Resolution::Action(action) | Resolution::Guess { action, .. } => Some(action),
            Resolution::Unresolved { .. } => None,
        }
    }

    /// The action, sure or guessed, taken.
    pub fn into_action(self) -> Option<Action> {
        match self {
            Resolution::Action(action) | Resolution::Guess { action, .. } => Some(action),
            Resolution::Unresolved { .. } => None,
        }
    }

    /// Whether the action is the one reading of the words (no action is
    /// never sure).
    pub fn sure(&self) -> bool {
        matches!(self, Resolution::Action(_))
    }

    /// The same action, no longer sure, with what was assumed (a second
    /// assumption joins the first).
    fn guessed(self, why: impl Into<String>) -> Resolution {
        let why = why.into();
        match self {
            Resolution::Action(action) => Resolution::Guess {
                action,
                assumed: why,
            },
            Resolution::Guess { action, assumed } => Resolution::Guess {
                action,
                assumed: alloc::format!("{assumed}; {why}"),
            },
            unresolved => unresolved,
        }
    }

    /// The same answer, its action (sure or guessed) made by `f`.
    fn map_action(self, f: impl FnOnce(Action) -> Action) -> Resolution {
        match self {
            Resolution::Action(action) => Resolution::Action(f(action)),
            Resolution::Guess { action, assumed } => Resolution::Guess {
                action: f(action),
                assumed,
            },
            unresolved => unresolved,
        }
    }

    /// This answer, or `other`'s action when this one is unresolved and
    /// `other` finds one.
    fn or_else_unresolved(self, other: impl FnOnce() -> Option<Resolution>) -> Resolution {
        match self {
            Resolution::Unresolved { .. } => other().unwrap_or(self),
            action => action,
        }
    }
}

/// One verb family: `None` when the sentence is not of its kind.
type Family = fn(Words<'_>) -> Option<Resolution>;

/// Most specific first: "replace … in notes.md" is an edit before anything
/// else reads "in notes.md", and "what tools …" is not a listing of files.
const FAMILIES: &[Family] = &[
    shell::resolve,
    proposal::resolve,
    history::resolve,
    undo::resolve,
    organise::resolve,
    items::resolve,
    find::resolve,
    extensions::resolve,
    asset::resolve,
    tool::resolve,
    edit::resolve,
    diff::resolve,
    grep::asked,
    grep::resolve,
    tool::by_purpose,
    append::resolve,
    write::resolve,
    delete::resolve,
    list::resolve,
    read::resolve,
    unsupported::resolve,
];

/// What the resolver can do, for sentences nothing claims.
const HELP: &str = "I can make, read, add to, change, search, list, rename, move, copy and delete \
the files in your folder, make folders, tick items off lists, undo changes, and say what changed \
since a commit or a day. Try “what's in \
notes.md”, “add milk to notes.md” or “list the files”.";

/// The longest utterance the resolver reads: one request, not a document.
/// Bounding it keeps every resolution fast whatever the input.
pub const MAX_UTTERANCE_BYTES: usize = 8 * 1024;

pub(crate) use mention::NUMBERS;
pub use settle::{Folder, MAX_NOTES, NOTES_FILE};

/// Resolves one utterance knowing the files in the folder (see
/// [`settle`]): the name said settles on the file that exists, and a name
/// two files fit is asked about. With an empty folder, as [`resolve`].
pub fn resolve_in(text: &str, folder: &Folder) -> Resolution {
    let named = folder.daily().and_then(|path| daily::named(text, path));
    let resolution = match (&named, folder.daily()) {
        (Some(said), Some(path)) => daily::kept(said, path, resolve(said)),
        _ => resolve(text),
    };
    let text = named.as_deref().unwrap_or(text);
    let resolution = pointed::settled(text, resolution, folder.names());
    let resolution = match folder.is_empty() {
        true => resolution.map_action(|action| settle::adds(text, action)),
        false => find::by_name(
            text,
            settle::settle(text, resolution, folder, |again| {
                settle::settle(again, resolve(again), folder, |_| unresolved(HELP))
            }),
            folder,
        ),
    };
    shelf::settle(resolution, folder)
}

/// Another resolver's answer (an LLM's) with its file names settled
/// against `folder` as the script resolver's are, so every resolver names
/// the same file for the same words.
pub fn settled(text: &str, resolution: Resolution, folder: &Folder) -> Resolution {
    match resolution {
        Resolution::Action(action) => Resolution::Action(settle::settled(text, action, folder)),
        unresolved => unresolved,
    }
}

/// Resolves one utterance: its one reading, a guess when the words could
/// mean something else, or what is missing.
pub fn resolve(text: &str) -> Resolution {
    if text.len() > MAX_UTTERANCE_BYTES {
        return unresolved(alloc::format!(
            "That is {} bytes, too long for one request (at most {MAX_UTTERANCE_BYTES}); say one thing at a time, or send the content as an action.",
            text.len()
        ));
    }
    if let Some(again) = restart::repaired(text)
        && let Some(action) = resolve(&again).into_action()
    {
        return Resolution::Action(action).guessed(alloc::format!(
            "I took it that you started again: '{again}'"
        ));
    }
    if let Some(said) = folders_said(text).or_else(|| interposed::unfolded(text)) {
        return resolve(&said);
    }
    let read = match read(text) {
        // "how would notes.md differ if it said milk instead": not "instead".
        Resolution::Action(Action::Diff {
            name,
            content: Some(content),
            against: None,
        }) => Resolution::Action(Action::Diff {
            name,
            content: Some(hypothetical::untailed(&content)),
            against: None,
        }),
        read => match hypothetical::resolve(text) {
            Some(diff) => return diff,
            None => read,
        },
    };
    match read {
        Resolution::Unresolved { note } => typo_corrected(text)
            .or_else(|| ask_inside(text))
            .or_else(|| settle::typed_alone(text).filter(|look| !names_web_address(look)))
            .unwrap_or(Resolution::Unresolved { note }),
        resolution => edges::unsure(text, questioned(text, resolution)),
    }
}

/// "delete notes.md?": a change said bare as a question may be one asked
/// about, not for — a guess, so it is asked first. A polite question
/// ("could you delete notes.md?") is a request.
fn questioned(text: &str, resolution: Resolution) -> Resolution {
    let first = text.split_whitespace().next().unwrap_or("").to_lowercase();
    // "create a.txt saying how are you?": the question is the content's.
    let content_asks = match resolution.action() {
        Some(Action::Write { content, .. } | Action::Append { content, .. }) => {
            content.ends_with('?')
        }
        Some(Action::Edit { new_text, .. }) => new_text.ends_with('?'),
        _ => false,
    };
    let changes = !content_asks
        && resolution
            .action()
            .is_some_and(|a| a.verb().changes_files());
    match changes && text.trim_end().ends_with('?') && typo::is_command_word(&first) {
        true => resolution.guessed("you said it as a question"),
        false => resolution,
    }
}

/// For a rambling sentence nothing claims whole: the ask found inside it
/// (see [`inside`]), read alone — a guess, never sure.
fn ask_inside(text: &str) -> Option<Resolution> {
    // "oops, untick …": "oops" is an undo only said alone.
    let (action, ask) = inside::ask(text, takes_back, |said| match courtesy::owning_up(said) {
        true => None,
        false => read(said).into_action(),
    })?;
    Some(Resolution::Action(action).guessed(alloc::format!("I took the request to be '{ask}'")))
}

/// The reading of `text` with a command word a letter or two off
/// corrected (see [`typo`]): a guess, never sure.
fn typo_corrected(text: &str) -> Option<Resolution> {
    let (fixed, taken) = typo::corrected(text)?;
    let action = read(&fixed).into_action()?;
    let said: alloc::vec::Vec<String> = taken
        .iter()
        .map(|(typed, meant)| alloc::format!("'{typed}' as '{meant}'"))
        .collect();
    Some(Resolution::Action(action).guessed(alloc::format!("I took {}", said.join(", "))))
}

/// What the families make of `text`, its name checked for a web address.
fn read(text: &str) -> Resolution {
    let resolution = in_folder_first(text)
        .unwrap_or_else(|| plain(text))
        .or_else_unresolved(|| aside::dropped(text));
    match names_web_address(&resolution) {
        true => unresolved(WEB_ADDRESS),
        false => resolution,
    }
}

const WEB_ADDRESS: &str = "That is a web address, not a file in this folder: I only work with \
the folder's files (a tool with the http-get capability can fetch a page).";

/// Whether `resolution` acts on a web address rather than a file.
fn names_web_address(resolution: &Resolution) -> bool {
    resolution
        .action()
        .and_then(Action::file)
        .is_some_and(web_address)
}

/// "https://example.com", "www.example.org", "google.com": a place on the
/// web, never a file the person keeps here.
fn web_address(name: &str) -> bool {
    const DOMAINS: &[&str] = &["com", "org", "net", "io", "gov", "edu", "dev", "app", "co"];
    let lower = name.to_lowercase();
    lower.contains("://")
        || lower.starts_with("www.")
        || (!lower.contains('/')
            && lower
                .rsplit_once('.')
                .is_some_and(|(host, tld)| !host.is_empty() && DOMAINS.contains(&tld)))
}

/// What the families make of `text` as one request.
fn plain(text: &str) -> Resolution {
    command(text, |words| {
        fronted::resolve(words)
            .or_else(|| claim(words))
            .or_else(|| antecedent::resolve(words))
    })
    .unwrap_or_else(|| unresolved(HELP))
}

/// `answer` for the words of `text` that carry the command; `None` when
/// there are none.
fn command(text: &str, answer: impl FnOnce(Words<'_>) -> Option<Resolution>) -> Option<Resolution> {
    let mut words = text::split(text);
    let kept = courtesy::core(Words::new(text, &words));
    courtesy::plain_verb_after_mind(&mut words, &kept);
    let asked = courtesy::asked(Words::new(text, &words[..kept.start]));
    words.truncate(kept.end);
    words.drain(..kept.start);
    text::end_sentence(&mut words, text);
    if asked {
        text::end_question(&mut words, text);
    }
    let words = Words::new(text, &words);
    if words.is_empty() || about_a_command_word(words) {
        return None;
    }
    answer(words)
}

/// "grep is my favourite command", "delete was a strong word": a command
/// word talked about, not a request.
fn about_a_command_word(words: Words<'_>) -> bool {
    typo::is_command_word(words.key(0))
        && words.len() > 2
        && ["is", "was", "are", "were", "sounds", "seems"].contains(&words.key(1))
}

/// The answer of the first family that claims `words`: a guess when it is
/// a change and a later family reads the same words as another verb as
/// surely (the margin between the two best readings is none). A later reading as a new
/// file is no rival: creating over a file that exists is asked anyway.
fn claim(words: Words<'_>) -> Option<Resolution> {
    let mut claims = FAMILIES.iter().filter_map(|family| family(words));
    let first = claims.next()?;
    let Some(verb) = first
        .action()
        .map(Action::verb)
        .filter(|v| v.changes_files())
    else {
        return Some(first);
    };
    let rival = |a: &Action| a.verb() != verb && !creates(a);
    // A rival that is itself a guess leaves a sure first reading sure.
    let second = claims.find_map(|other| match (&first, other) {
        (Resolution::Action(_), Resolution::Guess { .. }) => None,
        (_, other) => other.into_action().filter(rival),
    });
    Some(match second {
        Some(other) => first.guessed(alloc::format!(
            "it could also mean: {}",
            crate::confirm::in_words(&other)
        )),
        None => first,
    })
}

/// Whether `action` makes a new file.
fn creates(action: &Action) -> bool {
    matches!(
        action,
        Action::Write {
            mode: Some(action::WriteMode::Create),
            ..
        }
    )
}

/// What the families alone make of `text`: for a clause rebuilt by
/// [`antecedent`], which must not look back again.
fn claim_text(text: &str) -> Option<Resolution> {
    command(text, claim)
}

/// An unresolved answer with `note`.
fn unresolved(note: impl Into<String>) -> Resolution {
    Resolution::Unresolved { note: note.into() }
}

/// The answer for an action.
fn act(action: Action) -> Option<Resolution> {
    Some(Resolution::Action(action))
}

/// The note for a bare word where a file name was wanted ("delete notes").
fn full_name(verb: &str, name: &str) -> String {
    alloc::format!(
        "Which file? Say its full name with the extension, e.g. '{verb} {name}.txt', or '{verb} the file called {name}'."
    )
}

/// An unresolved answer, as a family's claim.
fn claim_unresolved(note: impl Into<String>) -> Option<Resolution> {
    Some(unresolved(note))
}
