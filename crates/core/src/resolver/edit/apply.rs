//! An edit's two sides made into its action: the old text as the file says
//! it, the new text, or a whole file replaced.

use super::super::content;
use super::super::name::{Target, target};
use super::super::text::Words;
use super::super::write;
use super::super::{Resolution, claim_unresolved};
use super::{SAYS, WHOLE};
use crate::action::Action;
use alloc::format;
use alloc::string::String;

/// The action for replacing `old` with `new` in `file`.
pub(super) fn apply(file: Option<String>, old: Words<'_>, new: Words<'_>) -> Option<Resolution> {
    if let Some(name) = whole_of(old, file.as_deref()) {
        return Some(write::whole(name, new));
    }
    let Some(name) = file else {
        return says(old, new).or_else(|| {
            claim_unresolved("Which file? Say e.g. 'in notes.md replace milk with bread'.")
        });
    };
    if !old.is_quoted() && old.contains_any(&["all", "every", "each", "occurrences"]) {
        return claim_unresolved(
            "An edit replaces one occurrence at a time — name the exact text once.",
        );
    }
    let Some(old_text) = content::needle(old) else {
        return claim_unresolved(what_to_change(&name));
    };
    // "where it says 1.2, change it to 1.3": the comma is no part of the text.
    let old_text = match old.is_quoted() {
        true => old_text,
        false => String::from(old_text.trim_end_matches([',', ';'])),
    };
    let Some(new_text) = new_text(new, old_text.contains(" - ")) else {
        return claim_unresolved(format!(
            "Replace it with what? Say e.g. 'in {name} replace milk with bread'."
        ));
    };
    let new_text = match new.is_quoted() {
        true => new_text,
        false => String::from(new_text.trim_end_matches([',', ';'])),
    };
    // "the number 555-0101", "the 0.3.1": the value, not its description.
    let old_text = valued(old).unwrap_or(old_text);
    // "update the version to 1.3": a described text, not the words there.
    let described = !old.is_quoted()
        && old_text
            .split_once(' ')
            .is_some_and(|(first, _)| DESCRIBED.contains(&first.to_lowercase().as_str()));
    let assumed = format!("I took '{old_text}' as the exact words to change");
    let edit = Resolution::Action(Action::Edit {
        name,
        old_text,
        new_text,
        expect: None,
    });
    match described {
        true => Some(edit.guessed(assumed)),
        false => Some(edit),
    }
}

/// The value a described old text ends with ("the number 555-0101" →
/// "555-0101", "the 0.3.1" → "0.3.1"): one word with a digit after a
/// determiner and at most two nouns, none of them with a digit.
fn valued(old: Words<'_>) -> Option<String> {
    let last = old.len().checked_sub(1)?;
    let digit = |i: usize| {
        old.get(i)
            .is_some_and(|w| w.inner.contains(|c: char| c.is_ascii_digit()))
    };
    let described = !old.is_quoted()
        && (2..=4).contains(&old.len())
        && DESCRIBED.contains(&old.key(0))
        && digit(last)
        && !(0..last).any(digit);
    described.then(|| old.from(last).literal())
}

/// Words that open a description of text rather than the text itself.
const DESCRIBED: &[&str] = &["the", "my", "our", "its", "his", "her", "their"];

/// The file whose whole text `old` names: "the contents of notes.md", or
/// "everything" when the file is named elsewhere.
fn whole_of(old: Words<'_>, file: Option<&str>) -> Option<String> {
    if let Some(Target::File(name)) = old.after_any(content::WHOLE_OF).map(target) {
        return Some(name);
    }
    let everything = old.after_any(WHOLE).is_some_and(Words::is_empty);
    file.filter(|_| everything).map(String::from)
}

/// "change notes.md to say hi": a whole-file write.
fn says(old: Words<'_>, new: Words<'_>) -> Option<Resolution> {
    let Target::File(name) = target(old) else {
        return None;
    };
    Some(write::whole(name, new.after_any(SAYS)?))
}

/// The new text, where "nothing" means the empty string; a remark after a
/// dash is no part of it ("0.3.2 — we are cutting a release"), unless the
/// old text has a dash of its own there (`dashed`: "la abeja - the wasp"
/// becomes "la abeja - the bee").
fn new_text(new: Words<'_>, dashed: bool) -> Option<String> {
    let new = match (0..new.len()).find(|&at| new.gap_after(at).contains(['—', '–', '-'])) {
        Some(at) if !new.is_quoted() && !dashed => new.to(at + 1),
        _ => new,
    };
    if content::is_nothing(new) {
        Some(String::new())
    } else {
        content::text(new)
    }
}

pub(super) fn what_to_change(name: &str) -> String {
    format!("What should change in {name}? Say e.g. 'in {name} replace milk with bread'.")
}
