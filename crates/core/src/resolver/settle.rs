//! Names settled against the folder: the one step that knows which files
//! exist, applied after any verb family has read the sentence, so the same
//! sentence names the same file for every verb.
//!
//! - An existing name said in full wins over a shorter reading of the same
//!   words ("delete my notes.txt" with `my notes.txt` there is that file, not
//!   `notes.txt`), and takes its spelling ("meeting notes dot txt" →
//!   `Meeting Notes.txt`).
//! - A name said without its extension ("open my notes") is the one file
//!   with that stem; when two fit, the answer asks which, never guesses.
//! - A name that matches nothing is kept as said: a write makes it, the
//!   other verbs answer `not-found` from the executor.

pub use super::folder::{Folder, MAX_NAMES, MAX_NOTES, NOTES_FILE};
use super::mention::{Mention, contains, mentioned, tokens};
use super::{NUMBERS, Resolution, unresolved};

mod again;
mod alone;
pub(super) use alone::typed_alone;
mod put;
pub(super) use put::adds;
mod quoted;
use crate::action::Action;
use again::{folder_named, pointing_back};
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use quoted::quoted;

/// `resolution` with its file names settled against `folder`.
pub fn settle(
    text: &str,
    resolution: Resolution,
    folder: &Folder,
    again: impl Fn(&str) -> Resolution,
) -> Resolution {
    match resolution {
        Resolution::Action(action) => settled_action(text, action, folder),
        Resolution::Guess { action, assumed } => {
            settled_action(text, action, folder).guessed(assumed)
        }
        Resolution::Unresolved { note } => by_mention(text, folder, &again)
            .or_else(|| pointing_back(text, folder, &again))
            .or_else(|| folder_named(text, folder, &again))
            .unwrap_or(Resolution::Unresolved { note }),
    }
}

/// One action, sure or a guess, settled the same way: its name matched to
/// the folder's files, a plain put read as an append, and
/// a rename said without an extension keeping the file's.
fn settled_action(text: &str, action: Action, folder: &Folder) -> Resolution {
    let said = String::from(action.file().unwrap_or_default());
    renamed_alike(
        text,
        &said,
        existing(text, put::adds(text, settled(text, action, folder)), folder),
        folder,
    )
}

/// Where the words `words` of `text` were said before, if they were:
/// "overwrite keys with All keys returned" names `keys.md` where "keys"
/// is first said, not where its text says it again.
fn said_before(
    text: &str,
    words: &core::ops::RangeInclusive<usize>,
) -> Option<core::ops::RangeInclusive<usize>> {
    let parts: Vec<&str> = text.split(' ').collect();
    let bare = |word: &str| {
        word.trim_matches(|c: char| !c.is_alphanumeric())
            .to_lowercase()
    };
    let said: Vec<String> = parts.get(words.clone())?.iter().map(|w| bare(w)).collect();
    let n = said.len();
    (0..*words.start())
        .find(|&at| (0..n).all(|i| parts.get(at + i).is_some_and(|w| bare(w) == said[i])))
        .map(|at| at..=at + n - 1)
}

/// A move or copy of a file said without its extension ("rename the essay
/// to final"), settled on `essay.md`: the new name said without one keeps
/// the file's (`final.md`), unless it is a folder that exists.
fn renamed_alike(
    text: &str,
    said: &str,
    mut resolution: Resolution,
    folder: &Folder,
) -> Resolution {
    let (Resolution::Action(action) | Resolution::Guess { action, .. }) = &mut resolution else {
        return resolution;
    };
    let renames = matches!(action, Action::Move { .. })
        && tokens(text).iter().any(|t| t == "rename" || t == "renamed");
    let (Action::Move { name, to } | Action::Copy { name, to }) = action else {
        return resolution;
    };
    let leaf = |path: &str| String::from(path.rsplit('/').next().unwrap_or(path));
    let is_folder = folder
        .names()
        .iter()
        .any(|n| n.starts_with(&format!("{to}/")));
    // "rename kiln/firing-12.md to firing-12-cracked.md": a new name, not a
    // new place, so it stays in its folder.
    if renames
        && !is_folder
        && !to.contains('/')
        && let Some((dir, _)) = name.rsplit_once('/')
    {
        *to = format!("{dir}/{to}");
    }
    if let Some((_, ext)) = leaf(name).rsplit_once('.')
        && !leaf(said).contains('.')
        && !leaf(to).contains('.')
        && !is_folder
    {
        *to = format!("{to}.{ext}");
    }
    resolution
}

/// Whether `a` and `b` differ only in the separators between words.
fn same_but_separators(a: &str, b: &str) -> bool {
    a.len() == b.len() && unseparated(a) == unseparated(b)
}

/// Whether `said` is `found`'s stem but for separators: "to do" of `todo.md`.
fn stem_alike(found: &str, said: &str) -> bool {
    let stem = found.rsplit_once('.').map_or(found, |(stem, _)| stem);
    let stem = stem.rsplit('/').next().unwrap_or(stem);
    unseparated(stem) == unseparated(said)
}

/// `name` lower-cased with no separators between its words.
pub(super) fn unseparated(name: &str) -> String {
    name.replace(['-', '_', ' '], "").to_lowercase()
}

/// The action with its `name` replaced by the longest existing name said.
pub(super) fn settled(text: &str, mut action: Action, folder: &Folder) -> Action {
    as_on_disk(&mut action, folder);
    if let Action::Mkdir { name } | Action::Write { name, .. } = &mut action {
        in_folders_as_on_disk(name, folder);
    }
    let said = tokens(text);
    let Some(name) = action.file_mut() else {
        return action;
    };
    let parsed = tokens(name);
    let fits: Vec<(&String, usize)> = folder
        .names()
        .iter()
        .map(|existing| (existing, tokens(existing)))
        .filter(|(_, spoken)| contains(&said, spoken) && contains(spoken, &parsed))
        .map(|(existing, spoken)| (existing, spoken.len()))
        .collect();
    let longest = fits.iter().map(|(_, n)| *n).max().unwrap_or(0);
    let mut best = fits.iter().filter(|(_, n)| *n == longest).map(|(e, _)| *e);
    // Two names as long are left as said: the one said exactly stays, and
    // two others are asked about.
    if let (Some(one), None) = (best.next(), best.next()) {
        *name = one.clone();
    }
    action
}

/// A file or folder said in another case or with other separators than it
/// has on disk ("notes/ideas.md" for `Notes/ideas.md`, "list NOTES", "hive
/// log.md" for `hive-log.md`, "to-do.txt" for `todo.txt`): the one name that
/// differs only so, spelled as it is. Two that fit, or one spelled exactly,
/// leave it.
fn as_on_disk(action: &mut Action, folder: &Folder) {
    let folders = || {
        folder
            .names()
            .iter()
            .flat_map(|n| n.match_indices('/').map(move |(at, _)| &n[..at]))
    };
    // "move t44 into closed" for `Closed/`: where it goes, as on disk.
    if let Action::Move { to, .. } | Action::Copy { to, .. } = action {
        match one_alike(folders(), to) {
            Some(found) => *to = found.into(),
            None => in_folders_as_on_disk(to, folder),
        }
    }
    if let Some(name) = action.file_mut() {
        let files = folder.names().iter().map(String::as_str);
        if let Some(found) = one_alike(files, name).or_else(|| one_alike(folders(), name)) {
            *name = found.into();
        }
        return;
    }
    let dir = match action {
        Action::List { dir: Some(dir) }
        | Action::Grep { dir: Some(dir), .. }
        | Action::Find { dir: Some(dir), .. } => dir,
        _ => return,
    };
    if let Some(found) = one_alike(folders(), dir) {
        *dir = found.into();
    }
}

/// A new path whose folders exist in another case ("Recipes/desserts" for
/// `recipes/`): those folders spelled as they are on disk, when exactly one
/// fits.
fn in_folders_as_on_disk(path: &mut String, folder: &Folder) {
    let Some((dir, leaf)) = path.rsplit_once('/') else {
        return;
    };
    let folders = folder
        .names()
        .iter()
        .flat_map(|n| n.match_indices('/').map(move |(at, _)| &n[..at]));
    let mut fits = folders.filter(|f| f.eq_ignore_ascii_case(dir));
    if let Some(found) = fits.next()
        && found != dir
        && fits.all(|other| other == found)
    {
        *path = format!("{found}/{leaf}");
    }
}

/// The one of `names` that is `said` but for case and word separators, if
/// exactly one is and none is `said` exactly.
fn one_alike<'n>(names: impl Iterator<Item = &'n str>, said: &str) -> Option<&'n str> {
    // Lower case, separators dropped, a number said in words as its digits.
    let key = |name: &str| -> String {
        let mut key = String::new();
        let mut word = String::new();
        let flush = |word: &mut String, key: &mut String| {
            match NUMBERS.iter().position(|n| *n == word.as_str()) {
                Some(n) => key.push_str(&format!("{n}")),
                None => key.push_str(word),
            }
            word.clear();
        };
        for c in name.chars() {
            match c {
                ' ' | '-' | '_' => flush(&mut word, &mut key),
                '.' | '/' => {
                    flush(&mut word, &mut key);
                    key.push(c);
                }
                c => word.extend(c.to_lowercase()),
            }
        }
        flush(&mut word, &mut key);
        key
    };
    let said_key = key(said);
    let mut found: Option<&str> = None;
    for name in names.filter(|n| key(n) == said_key) {
        if name == said {
            return None;
        }
        match found {
            Some(seen) if seen != name => return None,
            _ => found = Some(name),
        }
    }
    found
}

/// An action on a file that is not there, when the sentence mentions one
/// that is: "remove the groceries file" is `groceries.txt`, "what's in
/// ideas?" (no folder `ideas`) reads `ideas.md`; two that fit are asked
/// about. A new file (a create, an asset) is never settled.
fn existing(text: &str, mut action: Action, folder: &Folder) -> Resolution {
    if let Action::List { dir: Some(dir) } = &action {
        let is_folder = folder
            .names()
            .iter()
            .any(|n| n.starts_with(&format!("{dir}/")));
        let about_a_folder = tokens(text).iter().any(|t| LISTING.contains(&t.as_str()));
        if is_folder || about_a_folder {
            return Resolution::Action(action);
        }
        return match mentioned(text, folder.names()) {
            Mention::One { name, .. } if contains(&tokens(name), &tokens(dir)) => {
                Resolution::Action(Action::Read {
                    name: name.into(),
                    first: None,
                    last: None,
                    at: None,
                })
            }
            Mention::Several(names) => ask(&names),
            _ => Resolution::Action(action),
        };
    }
    let creates = matches!(
        action,
        Action::Write {
            mode: Some(crate::action::WriteMode::Create),
            ..
        }
    );
    let Some(name) = action.file_mut().filter(|_| !creates) else {
        return Resolution::Action(action);
    };
    // "hive log dot md" with `hive-log.md` and `hive_log.md` there: a name
    // joined from speech fits both, so which is asked.
    let alike: Vec<&str> = folder
        .names()
        .iter()
        .filter(|n| same_but_separators(n, name))
        .map(String::as_str)
        .collect();
    if alike.len() > 1 && !text.contains(name.as_str()) {
        return ask(&alike);
    }
    if folder.names().iter().any(|n| n == name) {
        return Resolution::Action(action);
    }
    // "recipes/recipes" for `recipes/recipes.md`: the one file that is the
    // path said with an extension (in any case). A bare stem is left to the
    // mention below, which asks when a longer stem fits too.
    let with_extension: Vec<&String> = folder
        .names()
        .iter()
        .filter(|n| {
            n.rsplit_once('.')
                .is_some_and(|(stem, ext)| !ext.contains('/') && stem.eq_ignore_ascii_case(name))
        })
        .collect();
    if let ([one], true) = (with_extension.as_slice(), name.contains('/')) {
        *name = (*one).clone();
        return Resolution::Action(action);
    }
    match mentioned(text, folder.names()) {
        Mention::One { name: found, .. }
            if contains(&tokens(found), &tokens(name)) || stem_alike(found, name) =>
        {
            *name = found.into();
            Resolution::Action(action)
        }
        Mention::Loose { name: found, .. } if holds_every_word(found, name) => {
            let assumed = loosely(name, found);
            *name = found.into();
            Resolution::Action(action).guessed(assumed)
        }
        Mention::Several(names) if names.iter().all(|n| contains(&tokens(n), &tokens(name))) => {
            ask(&names)
        }
        _ => {
            // "the guest list" of `guests.md`: the one file whose stem is
            // the name said with a plural "s".
            let plural = format!("{name}s.");
            let mut fits = folder.names().iter().filter(|n| {
                let leaf = n.rsplit('/').next().unwrap_or(n);
                leaf.to_lowercase().starts_with(&plural.to_lowercase()) && !name.contains('.')
            });
            if let (Some(one), None) = (fits.next(), fits.next()) {
                *name = one.clone();
            }
            Resolution::Action(action)
        }
    }
}

/// What was assumed when `said` was settled on `found` by some of its words.
fn loosely(said: &str, found: &str) -> String {
    format!("I took '{said}' to mean {found}")
}

/// The words `words` of `text` (split on spaces), as said.
fn said_words(text: &str, words: &core::ops::RangeInclusive<usize>) -> String {
    let parts: Vec<&str> = text.split(' ').collect();
    parts
        .get(*words.start()..=*words.end())
        .map(|said| said.join(" "))
        .unwrap_or_default()
        .trim_matches(|c: char| !c.is_alphanumeric())
        .into()
}

/// Whether every word of `said` (a name the sentence gave) is a word of
/// `existing`'s name: "taxes" of `2024-taxes.pdf`.
fn holds_every_word(existing: &str, said: &str) -> bool {
    let have = tokens(existing);
    tokens(said)
        .iter()
        .filter(|t| t.chars().any(char::is_alphanumeric))
        .all(|t| have.contains(t))
}

/// Words that make "what's in X" about a folder, not a file.
const LISTING: &[&str] = &["list", "folder", "directory", "dir", "files", "subfolder"];

/// The question when several files fit.
fn ask(names: &[&str]) -> Resolution {
    let names: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
    unresolved(format!(
        "Which file did you mean: {}? Say its full name.",
        names.join(" or ")
    ))
}

/// For a sentence no family could act on: the existing file it mentions
/// (by full name or stem, see [`mentioned`]) put in as its exact quoted
/// name, and the sentence read again; several that fit are asked about.
fn by_mention(
    text: &str,
    folder: &Folder,
    again: &impl Fn(&str) -> Resolution,
) -> Option<Resolution> {
    match mentioned(text, folder.names()) {
        Mention::Nothing => None,
        Mention::Several(names) => Some(ask(&names)),
        Mention::One { name, words } => core::iter::once(words.clone())
            .chain(said_before(text, &words))
            .find_map(|words| match again(&quoted(text, name, words)) {
                Resolution::Unresolved { .. } => None,
                action => Some(action),
            })
            .or_else(|| alone::looked_at(text, name, &words)),
        Mention::Loose { name, words } => {
            let said = said_words(text, &words);
            match again(&quoted(text, name, words)) {
                Resolution::Unresolved { .. } => None,
                action => Some(action.guessed(loosely(&said, name))),
            }
        }
    }
}
