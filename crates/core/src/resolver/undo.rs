//! `undo`: "undo", "undo that", "revert the last change", "take that back".

use super::name::{Target, target};
use super::phrases::Phrases;
use super::text::Words;
use super::{Resolution, act, claim_unresolved};
use crate::action::Action;
use alloc::string::String;

/// Heads that can only mean undo.
const STRONG: Phrases =
    Phrases::new("undo | revert | roll back | rollback | (ctrl | control | command | cmd) z");
/// Heads that mean undo only when nothing else follows.
const WEAK: Phrases = Phrases::new(
    "(take | put | roll) (that | it) back | reverse | go back [to how it was] | oops
     | bring [it | that] back | put (the file | things) back | restore | recover | undelete
     | put it back how it was | make it how it was | scratch that | strike that | scrap that",
);

/// Heads a person also says of their own words just said ("scratch that":
/// drop what I dictated): an undo, asked first.
const LOOSE: Phrases = Phrases::new("scratch that | strike that | scrap that");

/// What "bring back" / "restore" may name: the thing just changed, never a
/// file by name ("restore notes.md from yesterday" is not the last change).
const JUST_CHANGED: &[&str] = &["file", "deleted", "removed", "changed", "wrote", "written"];

/// Words that may follow the head without changing what is undone.
const FILLER: &[&str] = &[
    "that", "it", "this", "the", "my", "your", "last", "latest", "previous", "recent", "most",
    "just", "change", "edit", "action", "step", "thing", "bit", "operation", "command", "write",
    "delete", "deletion", "what", "i", "you", "we", "did", "done", "made", "make", "back", "one",
    "to", "please", "thanks", "thank", "cheers", "now", "undo", "way", "was", "before", "there",
    "how", "as", "used", "be", "whatever",
];

/// Words that ask for more than the one last change.
const MANY: &[&str] = &[
    "all", "everything", "changes", "edits", "steps", "actions", "two", "three", "four", "five",
    "several",
];

/// The file an undo names: the whole rest ("revert notes.md"), or after
/// "to", "in", "on", "of" or "for" ("the last change to notes.md").
fn named(rest: Words<'_>) -> Option<String> {
    let whole = core::iter::once(rest);
    let after = rest
        .keys()
        .rposition(|k| matches!(k, "to" | "in" | "on" | "of" | "for"))
        .filter(|&at| {
            rest.to(at)
                .keys()
                .all(|k| FILLER.contains(&k) || k == "changes")
        })
        .map(|at| rest.from(at + 1));
    whole.chain(after).find_map(|words| match target(words) {
        Target::File(name) => Some(name),
        _ => None,
    })
}

/// How a file was before: what may follow "put X back".
const AS_IT_WAS: Phrases = Phrases::new(
    "[to] (how | the way | as) (it | they) (was | were | used to be) | [to] its old self
     | [to] what it was | to normal",
);

/// "put menu.md back how it was", "put cellar back the way it was before
/// your change": that file's newest change undone. A name said without its
/// extension is settled on the folder's file.
fn put_back(words: Words<'_>) -> Option<Resolution> {
    let rest = words.after_any(Phrases::new("put | set | change | get | turn"))?;
    let back = rest.keys().position(|k| k == "back").filter(|&at| at > 0)?;
    let after = rest.from(back + 1);
    let tail = after.after_any(AS_IT_WAS)?;
    if !tail
        .keys()
        .all(|k| FILLER.contains(&k) || k == "change" || k == "your")
    {
        return None;
    }
    match target(rest.to(back)) {
        Target::File(name) | Target::Bare(name) => act(Action::Undo { name: Some(name) }),
        _ => None,
    }
}

pub fn resolve(words: Words<'_>) -> Option<Resolution> {
    if let Some(undone) = put_back(words) {
        return Some(undone);
    }
    // "scratch that, undo it" says which it is: read on.
    if words
        .after_any(LOOSE)
        .is_some_and(|rest| rest.keys().all(|k| matches!(k, "please" | "now")))
    {
        return act(Action::Undo { name: None })
            .map(|undo| undo.guessed("I took it as undoing the last change, not your last words"));
    }
    let (strong, rest) = words.after_either(STRONG, WEAK)?;
    // "oops, that wasn't done — untick …": a slip said of something not
    // done is no undo of the last change.
    let denied = (0..rest.len()).any(|i| {
        rest.raw(i).to_lowercase().contains("n't") || matches!(rest.key(i), "not" | "never")
    });
    if (strong || !denied)
        && rest
            .keys()
            .all(|k| FILLER.contains(&k) || (!strong && JUST_CHANGED.contains(&k)))
    {
        return act(Action::Undo { name: None });
    }
    // "undo the change to groceries.txt", "revert notes.md": that file's newest change.
    if strong && let Some(name) = named(rest) {
        return act(Action::Undo { name: Some(name) });
    }
    if rest.contains_any(MANY) || rest.keys().any(|k| k.parse::<u32>().is_ok()) {
        return claim_unresolved("I undo one change at a time, the last one — say 'undo'.");
    }
    strong.then(|| {
        super::unresolved(
            "Undo reverts the last change, whichever file it touched — say just 'undo'.",
        )
    })
}
