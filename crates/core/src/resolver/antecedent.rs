//! "it" pointing back at a file named earlier in the sentence: "I don't need
//! old.txt anymore, delete it", "notes.md is ready so read it".
//!
//! Only for sentences no family claims whole: the last clause is resolved
//! again with its "it" (the word itself, not "it's") replaced by the first
//! file the sentence named, and only an action counts, so a preamble never
//! turns a request into a refusal.

use super::name::first_file;
use super::text::Words;
use super::{Resolution, claim_text};
use alloc::format;

/// Words that open a new clause.
const LINKS: &[&str] = &["and", "so", "then"];
/// Punctuation that closes a clause.
const STOPS: &[char] = &[',', ';', '.', ':'];

pub fn resolve(words: Words<'_>) -> Option<Resolution> {
    let start = last_clause(words)?;
    let clause = words.from(start);
    let at = (0..clause.len()).find(|&i| {
        clause
            .get(i)
            .is_some_and(|w| w.inner.eq_ignore_ascii_case("it"))
    })?;
    let name = first_file(words.to(start))?;
    // Quoted, so a name with spaces stays one name.
    let named = format!(
        "{} \"{name}\" {}",
        clause.to(at).literal(),
        clause.from(at + 1).literal()
    );
    claim_text(&named).filter(|answer| matches!(answer, Resolution::Action(_)))
}

/// Where the last clause begins, if there are two or more.
fn last_clause(words: Words<'_>) -> Option<usize> {
    (1..words.len())
        .rev()
        .find(|&at| LINKS.contains(&words.key(at)) || words.raw(at - 1).ends_with(STOPS))
}
