//! Courtesy around a command ("hey voicebox, could you …, please") carries no meaning here.

use super::text::Words;
use core::ops::Range;

/// Openings dropped from the front, again and again ("ok so could you please …").
const OPENINGS: &[&[&str]] = &[
    &["please"],
    &["pls"],
    &["kindly"],
    &["hey"],
    &["ok"],
    &["okay"],
    &["so"],
    &["now"],
    &["just"],
    &["um"],
    &["uh"],
    &["and"],
    &["also"],
    &["then"],
    &["voicebox"],
    &["hi", "voicebox"],
    &["hello", "voicebox"],
    &["can", "you"],
    &["could", "you"],
    &["would", "you"],
    &["will", "you"],
    &["can", "u"],
    &["can", "i"],
    &["could", "i"],
    &["may", "i"],
    &["i", "want", "to"],
    &["i", "want", "you", "to"],
    &["i", "would", "like", "to"],
    &["i", "would", "like", "you", "to"],
    &["i", "need", "to"],
    &["i", "need", "you", "to"],
    &["go", "ahead", "and"],
    &["let", "us"],
    &["help", "me"],
    &["quickly"],
    &["like"],
];

/// The words that carry the command: `words` without courtesy at either end.
pub fn core(words: Words<'_>) -> Range<usize> {
    let start = words.len() - words.trim_start(OPENINGS).len();
    let mut end = words.len();
    while end > start {
        let closing = closing_len(words.range(start, end));
        if closing == 0 {
            break;
        }
        end -= closing;
    }
    start..end
}

/// How many words of trailing courtesy end `words`: "please" always; "thanks"
/// and "thank you" only after a comma or full stop, since "… saying thank you"
/// may be content.
fn closing_len(words: Words<'_>) -> usize {
    if words.ends_with(&["please"]) {
        return 1;
    }
    let Some(n) = [&["thanks"][..], &["thank", "you"], &["thx"], &["cheers"]]
        .into_iter()
        .find(|t| words.ends_with(t))
        .map(<[&str]>::len)
    else {
        return 0;
    };
    let after_clause = n < words.len()
        && words
            .raw(words.len() - n - 1)
            .ends_with([',', '.', '!', ';']);
    if after_clause { n } else { 0 }
}
