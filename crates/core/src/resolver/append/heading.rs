//! An addition under a heading of a Markdown file, however the heading is
//! said: after the text ("add call Sam under Tuesday in week.md"), before
//! it with the file ("in garden.md under Weekend add repot the chilli",
//! "under Friday in trip.md add: train at 9:40", "bike.md, under To Do: fix
//! the mudguard"), or as a section ("add Hey Ya to the Encore section of
//! setlist.md", "add rear pads to car.md in the Brakes section", "add to the
//! Engine section of boat.md: new impeller").

use super::super::name::{Target, target};
use super::super::phrases::{Phrases, phrases};
use super::super::text::Words;
use super::{HEADS, ONTO, appended};
use crate::action::Action;
use crate::resolver::Resolution;
use alloc::string::String;

/// What a heading may be called around its own words.
const KINDS: Phrases = phrases!("heading | section | header | title | part");

/// "add call Sam under Tuesday in week.md", "add milk to list.md under
/// Shopping": `rest` is what follows the adding word.
pub(super) fn under(rest: Words<'_>) -> Option<Resolution> {
    let at = rest.keys().position(|k| k == "under")?;
    // "under the Club members heading of chess.md": "of" after a heading.
    let file_at = rest.keys().enumerate().rposition(|(i, k)| {
        ONTO.contains(&k) || k == "in" || (k == "of" && i > 0 && is_kind(rest.key(i - 1)))
    })?;
    // "add under Next week in running-order.md: interview …": the text
    // after the file, past a colon.
    let colon = (file_at + 1..rest.len()).find(|&i| rest.raw(i).ends_with(':'));
    let (said, name, heading) = match (file_at > at, colon) {
        (true, Some(colon)) if at == 0 => (
            rest.from(colon + 1),
            rest.range(file_at + 1, colon + 1),
            rest.range(at + 1, file_at),
        ),
        (true, _) => (
            rest.to(at),
            rest.from(file_at + 1),
            rest.range(at + 1, file_at),
        ),
        (false, _) => (
            rest.to(file_at),
            rest.range(file_at + 1, at),
            rest.from(at + 1),
        ),
    };
    let Target::File(name) = target(name) else {
        return None;
    };
    appended_under(name, said, heading)
}

/// Whether `key` is a word a heading is called by.
fn is_kind(key: &str) -> bool {
    ["heading", "section", "header", "title", "part"].contains(&key)
}

/// "in garden.md under Weekend add repot the chilli", "under Friday in
/// trip.md add: train to Porto", "bike.md, under To Do: fix the mudguard":
/// the file and the heading first, then the adding (a word of adding, or a
/// colon after the heading).
pub(super) fn named_first(words: Words<'_>) -> Option<Resolution> {
    let Some(at) = words.keys().position(|k| k == "under") else {
        return kind_first(words).or_else(|| section_of_file_first(words));
    };
    let (end, said) = (at + 2..words.len()).find_map(|end| {
        if let Some((_, said)) = words.from(end).after_tagged(HEADS) {
            return Some((end, said));
        }
        // "under To Do: fix the mudguard": the colon ends the heading.
        words
            .raw(end - 1)
            .ends_with(':')
            .then(|| (end, words.from(end)))
    })?;
    let before = words.to(at).trim_start(phrases!("in | inside | into"));
    // "under Furniture in donations.md could you add …": the asking is no
    // part of the heading or the file.
    let between = words.range(at + 1, end).trim_end(ASKING);
    let (name, heading) = match target(before) {
        Target::File(name) => (name, between),
        _ if before.is_empty() => {
            // "under Friday in trip.md add …": the file after the heading.
            let of = between.keys().rposition(|k| k == "in" || k == "of")?;
            let Target::File(name) = target(between.from(of + 1)) else {
                return None;
            };
            (name, between.to(of))
        }
        _ => return None,
    };
    appended_under(name, said, heading)
}

/// Asking between the place and the adding ("… could you add …").
const ASKING: Phrases = Phrases::new("[(could | can | would | will) you] [please]");

/// "in the Water section of caravan-checklist.md add drain the water
/// barrel": the heading with its kind, the file after "of", then the adding.
fn section_of_file_first(words: Words<'_>) -> Option<Resolution> {
    let words = words.trim_start(phrases!("in | inside | into | under"));
    let kind = (1..words.len()).find(|&at| is_kind(words.key(at)))?;
    let rest = words.from(kind + 1).after_any(phrases!("of | in"))?;
    let heading = words.to(kind + 1).trim_start(phrases!("the | my | our"));
    (1..rest.len()).find_map(|end| {
        let Target::File(name) = target(rest.to(end)) else {
            return None;
        };
        let (_, said) = rest.from(end).trim_start(ASKING).after_tagged(HEADS)?;
        appended_under(name, said, heading)
    })
}

/// "glazes.md, Reds section: add Copper red", "in boat-jobs.md, Electrics
/// heading, add a fuse": the file, then the heading said with its kind,
/// then the adding.
fn kind_first(words: Words<'_>) -> Option<Resolution> {
    let kind = (2..words.len()).find(|&at| is_kind(words.key(at)))?;
    let said = match words.from(kind + 1).after_tagged(HEADS) {
        Some((_, said)) => said,
        None if words.raw(kind).ends_with(':') => words.from(kind + 1),
        None => return None,
    };
    let before = words.to(kind).trim_start(phrases!("in | inside | into"));
    let offset = kind - before.len();
    (1..before.len()).find_map(|split| {
        let Target::File(name) = target(before.to(split)) else {
            return None;
        };
        let heading = words.range(offset + split, kind + 1);
        // "add to the Done section: …" is the adding said first: no heading.
        let plain = heading.len() <= 5
            && !heading.contains_any(ONTO)
            && (0..heading.len()).all(|at| heading.from(at).after_tagged(HEADS).is_none());
        plain.then_some(())?;
        appended_under(name, said, heading)
    })
}

/// "add rear pads at 40% to car.md in the Brakes section": the text, the
/// file, then the section it goes in.
pub(super) fn section_after_file(rest: Words<'_>) -> Option<Resolution> {
    let kind = rest
        .len()
        .checked_sub(1)
        .filter(|&k| is_kind(rest.key(k)))?;
    let place = (1..kind)
        .rev()
        .find(|&at| matches!(rest.key(at), "in" | "under"))?;
    let into = (1..place).rev().find(|&at| {
        ONTO.contains(&rest.key(at)) && matches!(target(rest.range(at + 1, place)), Target::File(_))
    })?;
    let Target::File(name) = target(rest.range(into + 1, place)) else {
        return None;
    };
    appended_under(name, rest.to(into), rest.range(place + 1, kind))
}

/// "add to the Engine section of boat.md: new impeller fitted": the section
/// and its file first, the text after the colon.
pub(super) fn section_then_text(rest: Words<'_>) -> Option<Resolution> {
    if !ONTO.contains(&rest.key(0)) {
        return None;
    }
    let colon = (1..rest.len()).find(|&at| rest.raw(at).ends_with(':'))?;
    let of = (1..colon).rev().find(|&at| rest.key(at) == "of")?;
    if !is_kind(rest.key(of - 1)) {
        return None;
    }
    let Target::File(name) = target(rest.range(of + 1, colon + 1)) else {
        return None;
    };
    appended_under(name, rest.from(colon + 1), rest.range(1, of))
}

/// "add Hey Ya to the Encore section of setlist.md", "put 'fix the
/// mudguard' in the To Do section of bike.md": `rest` is what follows the
/// adding word.
pub(super) fn section_of(rest: Words<'_>) -> Option<Resolution> {
    // "… to my Projects section in bouldering.md": "in" right after the kind.
    let of = rest
        .keys()
        .enumerate()
        .rposition(|(i, k)| k == "of" || (k == "in" && i > 0 && is_kind(rest.key(i - 1))))?;
    let Target::File(name) = target(rest.from(of + 1)) else {
        return None;
    };
    let before = rest.to(of);
    let kind = (1..before.len()).find(|&at| {
        before
            .from(at)
            .after_any(KINDS)
            .is_some_and(|r| r.is_empty())
    })?;
    // "to the To Do section": the joiner is the one before "the" or "my",
    // not a word of the heading.
    let joiners = before.to(kind);
    let joins = |at: usize| {
        let key = joiners.key(at);
        ONTO.contains(&key) || key == "in"
    };
    let into = (1..joiners.len())
        .rev()
        .find(|&at| joins(at) && matches!(joiners.key(at + 1), "the" | "my"))
        .or_else(|| (1..joiners.len()).rev().find(|&at| joins(at)))?;
    appended_under(name, before.to(into), before.range(into + 1, kind))
}

/// The append of `said` to `name` at the end of the section under the
/// heading `heading` says ("the Tuesday heading", "my Done section": the
/// heading's own words); `None` when either says nothing.
fn appended_under(name: String, said: Words<'_>, heading: Words<'_>) -> Option<Resolution> {
    let heading = heading
        .trim_start(phrases!("the | my | heading | section | header | title"))
        .trim_end(KINDS);
    if heading.is_empty() || said.is_empty() {
        return None;
    }
    // "under ## Drones": the heading's words, not its markdown.
    let heading = String::from(
        heading
            .literal()
            .trim()
            .trim_end_matches([':', ','])
            .trim_start_matches('#')
            .trim_start(),
    );
    if heading.is_empty() {
        return None;
    }
    match appended(name, said) {
        Resolution::Action(Action::Append {
            name,
            content,
            expect,
            ..
        }) => Some(Resolution::Action(Action::Append {
            name,
            content,
            under: Some(heading),
            expect,
        })),
        other => Some(other),
    }
}
