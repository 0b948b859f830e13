//! A text said first and the request after it, pointing back at it:
//! "'head torch' — put that in kit.md", "Maureen bringing the walking foot —
//! add that to quilts.md, cheers", "\"Bring a sleeping mat\": make a new file
//! called kit-note.md with that", "Goldcrest x3 — add to species-counts.md".
//!
//! Read before the families, which would take the request alone: it is
//! resolved again with its "that" (or "this", "it") replaced by the text
//! said before the dash, colon or first comma, and only a write or an
//! append that then carries exactly that text counts, or a tick or removal
//! of that item after a dash or colon, asked (an item ticked after a
//! remark and a comma is [`super::antecedent`]'s).

use super::text::Words;
use super::{Resolution, claim_text, content};
use crate::action::Action;
use alloc::format;

/// Words that stand for the text said first.
const POINTING: &[&str] = &["that", "this", "it"];

pub fn resolve(words: Words<'_>) -> Option<Resolution> {
    goes_in(words).or_else(|| pointed_back(words))
}

/// "'tench 3lb, peg 14' goes in the catch log": a quoted text and where it
/// goes, added there.
fn goes_in(words: Words<'_>) -> Option<Resolution> {
    let text = words
        .get(0)
        .filter(|w| w.quoted && !w.inner.contains('"'))?;
    let place = words.from(1).after_any(super::phrases::phrases!(
        "(goes | go | belongs) (in | into | on | under)"
    ))?;
    let answer = claim_text(&format!("add \"{}\" to {}", text.inner, place.literal()))?;
    matches!(answer, Resolution::Action(Action::Append { .. })).then_some(answer)
}

/// Words said first that are no text to add ("ok, add that to …" points
/// further back than the sentence).
const NO_TEXT: &[&str] = &[
    "ok", "okay", "right", "yes", "yeah", "so", "and", "then", "also", "great", "thanks", "thank",
    "you", "cheers", "please", "hi", "hello", "well", "now", "oh", "oops", "sorry",
];

/// Words that make what is said before a comma a remark ("we're out of
/// oat milk, add it …", "passport is packed, tick it …"), whose item or
/// text is read where the pointing back is ([`super::antecedent`]).
const REMARKING: &[&str] = &[
    "i", "we", "he", "she", "they", "it", "you", "there", "is", "are", "was", "were", "has",
    "have", "had", "got", "done", "not", "isn't", "aren't", "i've", "we've", "we're",
];

/// Whether a text ends in a state said of it ("Kenya AA delivered"), which
/// the pointing-back reader takes off the item.
fn stated(text: Words<'_>) -> bool {
    let last = text.key(text.len().saturating_sub(1));
    last.len() > 3 && last.ends_with("ed")
}

/// "'head torch' — put that in kit.md", "oat milk, add that to
/// groceries.md": the request after the text (a dash, a colon, or the
/// sentence's first comma between them).
fn pointed_back(words: Words<'_>) -> Option<Resolution> {
    let first_comma = (1..words.len()).find(|&at| words.raw(at - 1).ends_with(','));
    let at = (1..words.len())
        .find(|&at| {
            let gap = words.gap_after(at - 1);
            gap.contains(['—', '–']) || gap.contains(" - ") || words.raw(at - 1).ends_with(':')
        })
        .or(first_comma)?;
    let text = content::text(words.to(at))?;
    let text = text.trim_end_matches([':', ',']).trim();
    let filler = words.to(at).keys().all(|key| NO_TEXT.contains(&key));
    if text.is_empty() || text.contains('"') || filler {
        return None;
    }
    let by_comma = Some(at) == first_comma && !words.raw(at - 1).ends_with(':');
    let remark = words.to(at).keys().any(|key| REMARKING.contains(&key));
    // "the penguins had 4kg of sprats, note that in penguins": a remark
    // noted or logged is the text, whole.
    let noting = matches!(words.key(at), "note" | "log" | "jot" | "record");
    if by_comma && ((remark && !noting) || at > 8) {
        return None;
    }
    let request = words.from(at);
    // "Goldcrest x3 — add to species-counts.md": no pointer, the text goes
    // where the verb's object would stand.
    let unsaid = matches!(request.key(1), "to" | "in" | "into" | "onto").then_some(0);
    let pointer = (0..request.len())
        .find(|&i| POINTING.contains(&request.key(i)))
        .or(unsaid)?;
    let (before, after) = match unsaid.is_some() && pointer == 0 {
        true => (request.to(1), request.from(1)),
        false => (request.to(pointer), request.from(pointer + 1)),
    };
    // "… add that to quilts.md" with the text in its place; "… make that a
    // new file called owls.md" with the text said after the file.
    [
        format!("{} \"{text}\" {}", before.literal(), after.literal()),
        format!("{} {} with \"{text}\"", before.literal(), after.literal()),
    ]
    .iter()
    .find_map(|named| {
        let answer = claim_text(named)?;
        match &answer {
            Resolution::Action(Action::Append { content, .. } | Action::Write { content, .. })
                if content == text =>
            {
                Some(answer)
            }
            // "PE kit — tick that off in school.md": the item is the text,
            // asked; a remark or a state said with it ("isn't done", "Kenya
            // AA delivered"), or a comma, is the pointing-back reader's.
            Resolution::Action(
                Action::CheckItem { item, .. } | Action::RemoveItem { item, .. },
            ) if item == text && !by_comma && !remark && !stated(words.to(at)) => {
                Some(answer.guessed(format!("I took '{text}' as the item")))
            }
            _ => None,
        }
    })
}
