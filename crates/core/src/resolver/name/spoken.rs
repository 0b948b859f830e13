//! A name as it is said: "hello dot txt", "drafts slash plan dot m d",
//! "notes dot markdown", or one quoted word.

use super::super::phrases::Phrases;
use super::super::text::Words;
use super::{JOINERS, plausible};
use alloc::string::String;

/// Joins one spoken name: a lone quoted word, or words linked by joiners
/// ("hello dot txt", "drafts/plan dot md"). Two plain words side by side are
/// one name only when `spaced`, kept apart by a space.
pub(super) fn spoken(words: Words<'_>, spaced: bool) -> Option<String> {
    if words.is_quoted() {
        return words
            .get(0)
            .map(|w| String::from(w.inner))
            .filter(|name| plausible(name));
    }
    let mut name = String::new();
    let mut after_part = false;
    // "prep list dot md": words a recogniser wrote apart, in a name said
    // with its joiners, are one name joined as a file's words are; a title
    // typed in capitals ("Meeting Notes dot txt") keeps its spaces.
    let joiner = |at: usize| JOINERS.iter().any(|(k, _)| *k == words.key(at));
    let said = (0..words.len()).any(joiner);
    let titled = (0..words.len())
        .filter(|&at| !(joiner(at) || at > 0 && words.key(at - 1) == "dot"))
        .all(|at| words.raw(at).starts_with(char::is_uppercase));
    let apart = if said && !titled { '-' } else { ' ' };
    let mut i = 0;
    while i < words.len() {
        let word = words.get(i)?;
        if let Some((_, joiner)) = JOINERS.iter().find(|(k, _)| *k == word.key) {
            name.push_str(joiner);
            after_part = false;
            if *joiner == "."
                && let Some((extension, rest)) = words.from(i + 1).after_tagged(SPOKEN_EXTENSIONS)
            {
                name.push_str(extension);
                after_part = true;
                i = words.len() - rest.len();
                continue;
            }
            if *joiner == "." {
                let letters = spelled(words.from(i + 1));
                if letters.len() > 1 {
                    name.push_str(&letters);
                    after_part = true;
                    i += 1 + letters.len();
                    continue;
                }
            }
        } else if word.quoted || (after_part && !spaced) {
            return None;
        } else {
            // "to do dot txt" is how a recogniser writes todo.txt.
            let todo = word.key == "do" && (name == "to" || name.ends_with("/to"));
            if after_part && !todo {
                name.push(apart);
            }
            name.push_str(word.inner);
            after_part = true;
        }
        i += 1;
    }
    plausible(&name).then_some(name)
}

/// Extensions said as words, as a recogniser writes them ("notes dot
/// markdown", "data dot jason").
const SPOKEN_EXTENSIONS: &[(Phrases, &str)] = &[
    (Phrases::new("text"), "txt"),
    (Phrases::new("markdown"), "md"),
    (Phrases::new("jason | jay son"), "json"),
    (Phrases::new("jay peg | jaypeg"), "jpg"),
    (Phrases::new("yammel | yamel"), "yaml"),
    (Phrases::new("pee dee eff"), "pdf"),
    (Phrases::new("see ess vee"), "csv"),
    (Phrases::new("python"), "py"),
];

/// An extension spelled letter by letter after "dot" ("t x t", "m d"): the
/// letters, joined; empty when the next word is not a lone letter.
fn spelled(words: Words<'_>) -> String {
    words
        .keys()
        .take_while(|key| key.len() == 1 && key.bytes().all(|b| b.is_ascii_alphanumeric()))
        .collect()
}
