//! `check_item` and `remove_item`: "check off milk in shopping.md", "tick
//! eggs on list.md", "mark call Sam as done in todo.md", "cross bread off
//! shopping.md", "uncheck milk in shopping.md", "take milk off list.md".

use super::name::{Target, target};
use super::phrases::{Phrases, phrases};
use super::text::Words;
use super::{Resolution, act};
use crate::action::Action;
use alloc::string::String;

/// What each head does to the item: tick, un-tick, or remove it.
#[derive(Clone, Copy)]
enum Does {
    Tick,
    Untick,
    Remove,
    /// "set X back to not done in FILE": a state said after the item, as
    /// done or not; without one, "set" is no tick.
    Set,
    /// "remove the item X from FILE": said as an item, so no "off" needed.
    RemoveItem,
    /// "remove X from the shopping list": a list's line; with a number
    /// among its words, a guess (they could be text inside a line: "2kg").
    RemoveFromList,
}

const HEADS: &[(Phrases, Does)] = &[
    (
        Phrases::new("(remove | delete) (the [list] item | item) | drop the item"),
        Does::RemoveItem,
    ),
    (Phrases::new("remove | delete | drop"), Does::RemoveFromList),
    (Phrases::new("(check | tick | mark) [off]"), Does::Tick),
    (Phrases::new("set | put | change"), Does::Set),
    (
        Phrases::new("uncheck | untick | un-check | un-tick"),
        Does::Untick,
    ),
    (Phrases::new("cross | take | strike | get"), Does::Remove),
];

/// What may end the item's words, and what it then means.
/// Longest first: "as not done" before "done".
const DONE: &[(Phrases, Option<bool>)] = &[
    (
        Phrases::new("(as | [back] to) (not done | undone | todo | to do | open | unticked)"),
        Some(false),
    ),
    (
        Phrases::new(
            "(as | to) (done | complete | completed | finished | ticked) | done | complete",
        ),
        Some(true),
    ),
    (Phrases::new("off"), None),
];

/// The states a "set" must end with: said with "as" or "to" ("put X done"
/// is a line to add, not a tick).
const SET_TO: &[(Phrases, Option<bool>)] = &[
    DONE[0],
    (
        Phrases::new("(as | to) (done | complete | completed | finished | ticked)"),
        Some(true),
    ),
];

/// Words before the file ("on my list in …" is the file after "in").
const PLACES: &[&str] = &["in", "on", "from", "off", "of"];

/// "oat milk can come off the shopping list", "tent pegs can go from
/// packing.md": the item said first, then that it may leave the list — a
/// removal, read as "remove ITEM from PLACE".
fn may_leave(words: Words<'_>) -> Option<Resolution> {
    const LEAVE: Phrases = Phrases::new(
        "(can | should | may) (come off | go from | come out of | be (removed | taken | struck) (from | off))",
    );
    let (item, place) = words.around(LEAVE)?;
    let place = place.trim_end(phrases!("now | please"));
    let place_named = matches!(target(place), Target::File(_)) || list_called(place).is_some();
    if !place_named || !plain_item(item) {
        return None;
    }
    let said = alloc::format!("remove {} from {}", item.literal(), place.literal());
    let split = super::text::split(&said);
    resolve(Words::new(&said, &split))
}

pub fn resolve(words: Words<'_>) -> Option<Resolution> {
    if let Some(removed) = may_leave(words) {
        return Some(removed);
    }
    let (does, rest) = words.after_tagged(HEADS)?;
    let at = rest.keys().rposition(|k| PLACES.contains(&k))?;
    let place = rest.from(at + 1).trim_start(phrases!("my | our"));
    let called_a_list = list_called(place);
    let said_a_list = called_a_list.is_some();
    let name = match (target(place), does, called_a_list) {
        (Target::File(name), _, _) => name,
        // "the shopping list": a file of the folder called so; a bare
        // "the list" names none.
        (Target::Bare(name), Does::RemoveFromList, _) if !name.eq_ignore_ascii_case("list") => name,
        // "the members list": the file the folder settles "members" on.
        (_, _, Some(stem)) => stem,
        _ => return None,
    };
    // "remove the Stalker item from screenings.md": said as an item.
    let said_as_item = {
        let item = rest.to(at);
        item.len() > 1 && item.key(item.len() - 1) == "item"
    };
    let does = match (does, said_as_item) {
        (Does::RemoveFromList, true) => Does::RemoveItem,
        (does, _) => does,
    };
    // "drop chain lube from spares.md": "drop" changes no text, so from a
    // file not called a list it is still a line taken off, though asked.
    let dropped = words.key(0) == "drop" && matches!(target(place), Target::File(_));
    if matches!(does, Does::RemoveFromList)
        && !said_a_list
        && !is_a_list(&name, &rest.to(at))
        && !dropped
    {
        return None;
    }
    let unsure_list = dropped && !said_a_list && !is_a_list(&name, &rest.to(at));
    let mut item = rest.to(at);
    // "remove oat milk from the list in shopping.md": the item ends at the
    // first place word.
    if matches!(does, Does::RemoveItem | Does::RemoveFromList)
        && let Some(first) = item
            .keys()
            .position(|k| PLACES.contains(&k))
            .filter(|&p| p > 0)
    {
        item = item.to(first);
    }
    // "cross off 1911 census in …": the "off" said before the item.
    if matches!(does, Does::Remove) && matches!(item.key(0), "off" | "out") {
        item = item.from(1);
    }
    // "cross call mom off the list in todo.md": the item ends at "off" said
    // before the list ("gas off at the bottle" keeps its own "off").
    if let Some(off) = item.keys().position(|k| k == "off").filter(|&off| {
        off > 0
            && (off + 1 == item.len()
                || ["the", "my", "our", "your", "list", "that", "this"]
                    .contains(&item.key(off + 1)))
    }) {
        item = item.to(off + 1);
    }
    // "cross bread off", "take milk off", "mark milk as done": the words
    // before the place, less what says done.
    let mut done = None;
    item = item.trim_end(phrases!("again | now | please"));
    let states = match does {
        Does::Set => SET_TO,
        _ => DONE,
    };
    if let Some((means, before)) = item.before_tagged(states) {
        item = before;
        done = means;
    } else if let Some(before) = as_a_state(item) {
        // "mark Stalker as watched": ticked, whatever the state is called.
        item = before;
    }
    // "The Dispossessed" said mid-sentence is a title: its "The" is kept.
    let titled = item.get(0).is_some_and(|w| w.inner == "The");
    let item = item.trim_start(phrases!(
        "the list item | list item | the item | item | the box (for | next to) | the line (for | with)"
    ));
    let item = match titled {
        false => item.trim_start(phrases!("the")),
        true => item,
    };
    // "remove the sun cream line": the line is named by its words.
    let item = match item.len() > 1 && ["line", "item"].contains(&item.key(item.len() - 1)) {
        true => item.to(item.len() - 1),
        false => item,
    };
    // "untick it": which item is said elsewhere, not here.
    let pronoun = match item.len() {
        1 => ["it", "that", "this", "them", "him", "her"].contains(&item.key(0)),
        2 => ["his", "her", "their", "its"].contains(&item.key(0)),
        _ => false,
    };
    if item.is_empty() || item.len() > 12 || pronoun {
        return None;
    }
    let said = item;
    let item: String = item.literal();
    let item = String::from(item.trim_matches(|c| c == '"' || c == '\'' || c == '“' || c == '”'));
    let action = match (does, done) {
        (Does::Remove, _) => {
            // "take X off" removes, and so do "cross X out" and "strike X
            // from …"; "cross X off" a list marks it done, as a pen does.
            let struck = words.key(0) == "strike" && rest.keys().any(|k| k == "from");
            let off = rest.keys().any(|k| k == "off");
            if !struck && !off && !rest.keys().any(|k| k == "out") {
                return None;
            }
            match words.key(0) == "cross" && off {
                true => Action::CheckItem {
                    name,
                    item,
                    done: None,
                    expect: None,
                },
                false => Action::RemoveItem { name, item },
            }
        }
        (Does::RemoveItem, _) => Action::RemoveItem { name, item },
        (Does::RemoveFromList, _) if !plain_item(said) || unsure_list => {
            let assumed = alloc::format!("I took '{item}' as an item of the list");
            return Some(Resolution::Action(Action::RemoveItem { name, item }).guessed(assumed));
        }
        (Does::RemoveFromList, _) => Action::RemoveItem { name, item },
        (Does::Set, None) => return None,
        (Does::Untick, _) | (_, Some(false)) => Action::CheckItem {
            name,
            item,
            done: Some(false),
            expect: None,
        },
        (Does::Tick | Does::Set, _) => Action::CheckItem {
            name,
            item,
            done: None,
            expect: None,
        },
    };
    act(action)
}

/// Whether `item` reads as a list's line in its own words ("pumpkin soup",
/// "Mr Haddad"): a few words, none of them a number (a piece of a line:
/// "2kg"), a determiner first (a description: "the Le Guin order"), a
/// comma, or a word naming a file or a list. A capitalised word is part of
/// a title ("The Parting Glass").
pub fn plain_item(item: Words<'_>) -> bool {
    const DESCRIBING: &[&str] = &[
        "the", "a", "an", "my", "our", "your", "this", "that", "list", "file", "folder", "line",
        "one",
    ];
    let describing = |at: usize| {
        DESCRIBING.contains(&item.key(at)) && !item.raw(at).starts_with(char::is_uppercase)
    };
    (1..=4).contains(&item.len())
        && !item.literal().contains([',', ';'])
        && !(0..item.len()).any(describing)
        && !item
            .keys()
            .any(|k| k.contains(|c: char| c.is_ascii_digit()))
}

/// "X as watched", "X as bought": the item before a state said in one
/// word that is done to it (a past participle), which ticks it.
fn as_a_state(item: Words<'_>) -> Option<Words<'_>> {
    const DONE_WORDS: &[&str] = &[
        "read", "seen", "paid", "sent", "bought", "sold", "made", "built", "caught", "met", "kept",
        "got", "given", "taken", "written", "eaten", "found", "won", "fixed", "done",
    ];
    let n = item.len();
    let state = item.key(n.checked_sub(1)?);
    let past = (state.len() > 3 && state.ends_with("ed")) || DONE_WORDS.contains(&state);
    (n > 2 && item.key(n - 2) == "as" && past).then(|| item.to(n - 2))
}

/// "the members list", "my packing list": the words that name which list,
/// for the folder to settle on its file; `None` for any other place.
fn list_called(place: Words<'_>) -> Option<String> {
    let place = place.trim_start(phrases!("the | my | our | your"));
    let words = place.to(place.len().checked_sub(1)?);
    let plain = (1..=3).contains(&words.len())
        && words
            .keys()
            .all(|k| k.chars().all(char::is_alphanumeric) && k != "list");
    (place.keys().last() == Some("list") && plain).then(|| words.literal())
}

/// Whether "remove X from NAME" is about a list's item: the file is called
/// a list (or the words say "the list in NAME"), and X is not said as text
/// ("the word …", "the line …").
fn is_a_list(name: &str, item: &Words<'_>) -> bool {
    let name = name.to_ascii_lowercase();
    let listish = [
        "list", "todo", "to-do", "groceries", "shopping", "checklist", "chores", "packing",
        "wishlist", "wish-list", "bucket", "tasks", "jobs", "errands", "inventory", "guests",
        "rota", "roster", "members", "volunteers", "crew", "players", "bookings", "watchlist",
        "playlist", "spares", "supplies", "stock", "prizes",
    ]
    .iter()
    .any(|word| name.contains(word))
        || item.keys().any(|k| k == "list")
        || (item.len() > 2 && item.keys().last() == Some("line"));
    let as_text = [
        "word", "words", "text", "phrase", "line", "lines", "sentence", "paragraph",
    ]
    .iter()
    .any(|word| item.keys().take(2).any(|k| k == *word));
    listish && !as_text && !item.is_empty()
}
