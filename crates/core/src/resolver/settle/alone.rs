//! A file's name said on its own — "Kennel board please", "shifts.md,
//! what have I got next week", "what were the erg scores" — as a look at that file: a guess, so it
//! runs and says what it assumed. A name said loosely counts only where the
//! folder holds it; a name typed whole ("readings.md?") counts anywhere, and
//! a file that is not there is then answered so by the executor.

use super::Resolution;
use crate::action::Action;
use crate::resolver::name::has_extension;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::ops::RangeInclusive;

/// Words that may stand around a name said on its own, or in a question
/// about what it holds ("what were the erg scores", "what's on the café
/// menu?").
const AROUND: &[&str] = &[
    "please", "pls", "the", "my", "our", "thanks", "thank", "you", "now", "again", "ok", "okay",
    "so", "just", "quickly", "what", "what's", "whats", "is", "are", "was", "were", "show", "me",
    "can", "could", "i", "see", "look", "at",
];

/// `name`, said as `words` of `text` (split on spaces), read as a look when
/// nothing else was said but courtesy — a remark after a comma that
/// follows the name (what the person wants to see in it) aside.
pub(super) fn looked_at(
    text: &str,
    name: &str,
    words: &RangeInclusive<usize>,
) -> Option<Resolution> {
    let parts: Vec<&str> = text.split(' ').collect();
    let comma = (*words.end()..parts.len()).find(|&i| parts[i].ends_with(','));
    let end = comma.map_or(parts.len(), |at| at + 1);
    let bare = |word: &str| {
        word.trim_matches(|c: char| !c.is_alphanumeric())
            .to_lowercase()
    };
    let only_courtesy = (0..end)
        .filter(|i| !words.contains(i))
        .all(|i| AROUND.contains(&bare(parts[i]).as_str()));
    only_courtesy.then(|| look(name))
}

/// A look at `name`, as a guess that says so.
fn look(name: &str) -> Resolution {
    Resolution::Action(Action::Read {
        name: String::from(name),
        first: None,
        last: None,
        at: None,
    })
    .guessed(format!("I took it you wanted to see {name}"))
}

/// A file's whole name (a stem, a dot, an extension) typed with nothing but
/// courtesy around it ("readings.md?", "shopping.txt please"), read as
/// [`looked_at`] reads a name the folder holds; a name closed by a comma or
/// a colon opens a request or a remark, and a path typed as a command
/// ("./deploy.sh") asks to run it, so neither is a look by itself.
pub(in crate::resolver) fn typed_alone(text: &str) -> Option<Resolution> {
    let parts: Vec<&str> = text.split_whitespace().collect();
    let bare = |word: &str| {
        word.trim_matches(|c: char| !c.is_alphanumeric())
            .to_lowercase()
    };
    // The name as typed: quotes or brackets around it, and a closing
    // question mark or full stop, are no part of it.
    let name_of = |part: &'_ str| {
        String::from(
            part.trim_start_matches(['(', '"', '\'', '“', '‘'])
                .trim_end_matches(['?', '!', '.', ')', '"', '\'', '”', '’']),
        )
    };
    let is_name = |part: &str| {
        let name = name_of(part);
        // A stem with a letter: "10.30am" is a time, "so...what" no name.
        let stem = name.rsplit_once('.').map_or("", |(stem, _)| stem);
        has_extension(&name)
            && stem.chars().any(char::is_alphabetic)
            && !stem.ends_with('.')
            && !part.ends_with([',', ':', ';'])
            // "./deploy.sh" asks to run it, which no verb does.
            && !part.starts_with(['.', '/', '~', '$'])
    };
    let mut names = parts.iter().filter(|part| is_name(part));
    let name = name_of(names.next()?);
    let alone = names.next().is_none()
        && parts
            .iter()
            .filter(|part| !is_name(part))
            .all(|part| AROUND.contains(&bare(part).as_str()));
    alone.then(|| look(&name))
}
