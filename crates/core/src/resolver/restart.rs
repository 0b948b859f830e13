//! False starts, as a recogniser writes them: "overwrite plan.txt with uh no
//! wait with meet at seven", "make week.md with I mean containing gym". The
//! words taken back — from the last earlier say of the word the speaker
//! starts again with, or else the one word before the marker — are dropped
//! with the marker, and the sentence read again. What comes of it is a
//! guess: a change is asked first.

use super::phrases::{self, Phrases};
use alloc::string::String;
use alloc::vec::Vec;

/// Words that take back what was just said, and whether they do only as a
/// name for a name ("read a.txt, sorry, b.txt": "sorry" is also courtesy).
const MARKERS: &[(Phrases, bool)] = &[
    (
        Phrases::new("no wait | i mean | or rather | sorry i mean"),
        false,
    ),
    (Phrases::new("sorry | oops"), true),
];

/// Sounds of hesitation around a false start.
const FILLERS: &[&str] = &["uh", "um", "er", "erm", "uhh", "umm", "no", "sorry", "oops"];

/// `text` with its last false start taken out, if it has one.
pub fn repaired(text: &str) -> Option<String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let key = |w: &str| {
        w.trim_matches(|c: char| !c.is_alphanumeric() && c != '\'')
            .to_lowercase()
    };
    let keys: Vec<String> = words.iter().map(|w| key(w)).collect();
    let (at, len, names_only) = (1..keys.len()).rev().find_map(|at| {
        phrases::tagged(MARKERS, &keys[at..], |n| keys.len() > at + n)
            .map(|(names_only, n)| (at, n, names_only))
    })?;
    let again = &keys[at + len];
    // "delete kites dot md, I mean it": said for emphasis, not again.
    if keys.len() == at + len + 1 && ["it", "that", "this"].contains(&again.as_str()) {
        return None;
    }
    // The words before the marker, fillers dropped from their end.
    let mut before = at;
    while before > 0 && FILLERS.contains(&keys[before - 1].as_str()) {
        before -= 1;
    }
    let names_again = keys[at + len..]
        .iter()
        .take(6)
        .any(|k| k == "dot" || k.contains('.'));
    let name_for_name = names_again && (1..before).contains(&name_start(&keys, before));
    if names_only && !name_for_name {
        return None;
    }
    // "change S-04, I mean replace S-04 with …": a request said again
    // from its command word takes back the one said before it.
    let commanded = super::typo::is_command_word(again)
        .then(|| {
            (0..before)
                .rev()
                .find(|&i| super::typo::is_command_word(&keys[i]))
        })
        .flatten();
    let from = match (0..before).rev().find(|&i| keys[i] == *again).or(commanded) {
        Some(said) if !names_only => said,
        _ if names_only => name_start(&keys, before),
        // "delete old dot txt i mean new dot txt": a name for a name.
        None if name_for_name => name_start(&keys, before),
        None if before >= 1 => before - 1,
        _ => return None,
    };
    let mut kept: Vec<&str> = words[..from].to_vec();
    kept.extend(&words[at + len..]);
    Some(kept.join(" "))
}

/// Where the file name that ends at `end` starts ("old dot t x t",
/// "old.txt"); `end` when the words before it are no name.
fn name_start(keys: &[String], end: usize) -> usize {
    const JOINERS: &[&str] = &["dot", "slash", "underscore", "dash"];
    let joiner = |i: usize| keys.get(i).is_some_and(|k| JOINERS.contains(&k.as_str()));
    let last = match end.checked_sub(1) {
        Some(last)
            if keys[last].contains('.')
                || (last > 0 && joiner(last - 1))
                || keys[last].len() == 1 =>
        {
            last
        }
        _ => return end,
    };
    let mut start = last;
    while start > 0 {
        let prev = start - 1;
        let linked =
            joiner(prev) || joiner(start) || (keys[prev].len() == 1 && keys[start].len() == 1);
        if !linked {
            break;
        }
        start = prev;
    }
    start
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
        assert_eq!(
            repaired("delete old dot t x t i mean new dot txt").as_deref(),
            Some("delete new dot txt"),
            "a name said again replaces the whole name"
        );
        assert_eq!(
            repaired("open uh i mean read notes.md").as_deref(),
            Some("read notes.md")
        );
        assert_eq!(repaired("read notes.md"), None);
        assert_eq!(repaired("no wait"), None, "nothing after the marker");
    }
}
