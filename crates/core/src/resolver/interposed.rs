//! A phrase said between a new file's or folder's noun and its name: "create
//! a file for the star party called star-party.md" and "a new directory for
//! the events called star-parties" (what it is for is no part of it), and
//! "create a file in crews called masters.md" (where it goes: the name is
//! put in that folder). The sentence is said again without the phrase.

use super::name;
use super::text::{self, Words};
use alloc::format;
use alloc::string::String;

/// The nouns of a thing made and named.
const NOUNS: &[&str] = &["file", "folder", "directory", "note", "document"];

/// The longest purpose said between the noun and its name ("for the star
/// party"): longer runs are more likely part of something else.
const MOST_WORDS: usize = 5;

/// `text` with the phrase between the noun and "called"/"named" dropped or
/// folded into the name, when there is one.
pub(super) fn unfolded(text: &str) -> Option<String> {
    let split = text::split(text);
    let words = Words::new(text, &split);
    let noun = (0..words.len()).find(|&at| NOUNS.contains(&words.key(at)))?;
    let called = (noun + 2..words.len())
        .take(MOST_WORDS + 1)
        .find(|&at| matches!(words.key(at), "called" | "named"))?;
    let between = words.range(noun + 1, called);
    let (cut_from, _) = words.offsets(noun + 1)?;
    let (cut_to, _) = words.offsets(called)?;
    let (name_at, _) = words.offsets(called + 1)?;
    let (head, naming, named) = (&text[..cut_from], &text[cut_to..name_at], &text[name_at..]);
    match between.key(0) {
        "for" if !between.is_quoted() => Some(format!("{head}{naming}{named}")),
        "in" | "inside" | "under" | "within" if !name::elsewhere(between.from(1)) => {
            let dir = name::folder(between.from(1))??;
            (!name::leaves_the_folder(&dir) && !dir.contains(' '))
                .then(|| format!("{head}{naming}{dir}/{named}"))
        }
        _ => None,
    }
}
