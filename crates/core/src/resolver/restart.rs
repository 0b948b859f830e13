//! False starts, as a recogniser writes them: "overwrite plan.txt with uh no
//! wait with meet at seven", "make week.md with I mean containing gym". The
//! words taken back — from the last earlier say of the word the speaker
//! starts again with, or else the one word before the marker — are dropped
//! with the marker, and the sentence read again. What comes of it is a
//! guess: a change is asked first.

use alloc::string::String;
use alloc::vec::Vec;

/// Words that take back what was just said.
const MARKERS: &[&[&str]] = &[
    &["no", "wait"],
    &["i", "mean"],
    &["or", "rather"],
    &["sorry", "i", "mean"],
];

/// Sounds of hesitation around a false start.
const FILLERS: &[&str] = &["uh", "um", "er", "erm", "uhh", "umm", "no"];

/// `text` with its last false start taken out, if it has one.
pub fn repaired(text: &str) -> Option<String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let key = |w: &str| {
        w.trim_matches(|c: char| !c.is_alphanumeric() && c != '\'')
            .to_lowercase()
    };
    let keys: Vec<String> = words.iter().map(|w| key(w)).collect();
    let (at, len) = (1..keys.len()).rev().find_map(|at| {
        MARKERS
            .iter()
            .find(|m| keys.len() > at + m.len() && keys[at..].starts_with_all(m))
            .map(|m| (at, m.len()))
    })?;
    let again = &keys[at + len];
    // The words before the marker, fillers dropped from their end.
    let mut before = at;
    while before > 0 && FILLERS.contains(&keys[before - 1].as_str()) {
        before -= 1;
    }
    let from = match (0..before).rev().find(|&i| keys[i] == *again) {
        Some(said) => said,
        None if before > 1 => before - 1,
        None => return None,
    };
    let mut kept: Vec<&str> = words[..from].to_vec();
    kept.extend(&words[at + len..]);
    Some(kept.join(" "))
}

trait StartsWithAll {
    fn starts_with_all(&self, phrase: &[&str]) -> bool;
}

impl StartsWithAll for [String] {
    fn starts_with_all(&self, phrase: &[&str]) -> bool {
        self.len() >= phrase.len() && self.iter().zip(phrase).all(|(a, b)| a == b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_words_taken_back_go_with_the_marker() {
        for (said, meant) in [
            (
                "overwrite plan dot t x t with uh no wait with meet at seven",
                "overwrite plan dot t x t with meet at seven",
            ),
            (
                "uh make a new file week dot m d with I mean containing gym",
                "uh make a new file week dot m d containing gym",
            ),
            (
                "uh add um no wait add pick up the dry cleaning to todo dot t x t",
                "uh add pick up the dry cleaning to todo dot t x t",
            ),
        ] {
            assert_eq!(repaired(said).as_deref(), Some(meant), "{said}");
        }
        assert_eq!(repaired("read notes.md"), None);
        assert_eq!(repaired("no wait"), None, "nothing after the marker");
    }
}
