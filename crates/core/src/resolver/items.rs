//! `check_item` and `remove_item`: "check off milk in shopping.md", "tick
//! eggs on list.md", "mark call Sam as done in todo.md", "uncheck milk in
//! shopping.md", "cross bread off shopping.md", "take milk off list.md".

use super::name::{Target, target};
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
}

const HEADS: &[(&[&str], Does)] = &[
    (&["check", "off"], Does::Tick),
    (&["tick", "off"], Does::Tick),
    (&["tick"], Does::Tick),
    (&["mark", "off"], Does::Tick),
    (&["uncheck"], Does::Untick),
    (&["untick"], Does::Untick),
    (&["un-check"], Does::Untick),
    (&["un-tick"], Does::Untick),
    (&["mark"], Does::Tick),
    (&["check"], Does::Tick),
    (&["cross"], Does::Remove),
    (&["take"], Does::Remove),
    (&["strike"], Does::Remove),
];

/// What may end the item's words, and what it then means.
/// Longest first: "as not done" before "done".
const DONE: &[(&[&str], Option<bool>)] = &[
    (&["as", "not", "done"], Some(false)),
    (&["as", "done"], Some(true)),
    (&["as", "complete"], Some(true)),
    (&["as", "completed"], Some(true)),
    (&["as", "finished"], Some(true)),
    (&["done"], Some(true)),
    (&["as", "undone"], Some(false)),
    (&["as", "todo"], Some(false)),
    (&["as", "to", "do"], Some(false)),
    (&["as", "open"], Some(false)),
    (&["off"], None),
];

/// Words before the file ("on my list in …" is the file after "in").
const PLACES: &[&str] = &["in", "on", "from", "off", "of"];

pub fn resolve(words: Words<'_>) -> Option<Resolution> {
    let (does, rest) = words.after_tagged(HEADS)?;
    let at = rest.keys().rposition(|k| PLACES.contains(&k))?;
    let name = match target(rest.from(at + 1)) {
        Target::File(name) => name,
        _ => return None,
    };
    let mut item = rest.to(at);
    // "cross call mom off the list in todo.md": the item ends at "off".
    if let Some(off) = item.keys().position(|k| k == "off").filter(|&off| off > 0) {
        item = item.to(off + 1);
    }
    // "cross bread off", "take milk off", "mark milk as done": the words
    // before the place, less what says done.
    let mut done = None;
    for (tail, means) in DONE {
        if item.ends_with(tail) {
            item = item.to(item.len() - tail.len());
            done = *means;
            break;
        }
    }
    let item = item.trim_start(&[&["the", "item"], &["item"], &["the"]]);
    if item.is_empty() || item.len() > 12 {
        return None;
    }
    let item: String = item.literal();
    let item = String::from(item.trim_matches(|c| c == '"' || c == '\'' || c == '“' || c == '”'));
    let action = match (does, done) {
        (Does::Remove, _) => {
            // "cross X off" and "take X off" remove; "cross X out" too.
            if !rest.keys().any(|k| k == "off" || k == "out") {
                return None;
            }
            Action::RemoveItem { name, item }
        }
        (Does::Untick, _) | (_, Some(false)) => Action::CheckItem {
            name,
            item,
            done: Some(false),
            expect: None,
        },
        (Does::Tick, _) => Action::CheckItem {
            name,
            item,
            done: None,
            expect: None,
        },
    };
    act(action)
}
