//! `delete`: "delete old.txt", "remove the file old.txt", "get rid of old dot txt".
//!
//! "remove milk from notes.md" takes a list's line out of a file; "remove the
//! word \"draft\" from notes.md" takes words out: an edit to nothing.

use super::name::{Target, target};
use super::phrases::{Phrases, phrases};
use super::text::Words;
use super::{Resolution, act, claim_unresolved};
use super::{content, items};
use crate::action::Action;
use alloc::format;
use alloc::string::String;

const HEADS: Phrases = Phrases::new(
    "delete | remove | erase | trash | rm | del | discard | destroy | scrap | unlink | nuke
     | purge | bin | get rid of | throw (away | out) | toss [out] | ditch | kill",
);

/// Where a file is deleted from, which adds nothing ("remove old.txt from
/// the folder").
const FROM_HERE: Phrases = Phrases::new(
    "from (the folder | this folder | my folder | the project | my files | here) | for good
     | permanently | completely | entirely | now",
);

/// "… but keep the file": the file stays, only its text goes.
pub const KEEPING: Phrases = Phrases::new("but keep (the file | it)");

/// Said after a file, a wish that it go ("scratch.txt can go").
const CAN_GO: Phrases =
    Phrases::new("(can | should) go | can be (deleted | removed | trashed) | should be deleted");

/// "scratch.txt can go": a file and that it may go — a guess, asked first.
fn can_go(words: Words<'_>) -> Option<Resolution> {
    let at = (1..words.len()).find(|&at| {
        words
            .from(at)
            .after_any(CAN_GO)
            .is_some_and(|rest| rest.trim_start(FROM_HERE).is_empty())
    })?;
    match target(words.to(at)) {
        Target::File(name) => Some(
            Resolution::Action(Action::Delete { name })
                .guessed("I took it that the file should be deleted"),
        ),
        _ => None,
    }
}

/// "I'd like minutes-old.md deleted": a file and that it should be gone,
/// said as a wish.
fn wished_gone(words: Words<'_>) -> Option<Resolution> {
    let rest = words.after_any(phrases!(
        "(i | we) (would like | want | need) | (can | could) you get | get"
    ))?;
    let gone = rest.len().checked_sub(1)?;
    if !matches!(
        rest.key(gone),
        "deleted" | "removed" | "gone" | "binned" | "trashed"
    ) {
        return None;
    }
    match target(rest.to(gone)) {
        Target::File(name) => act(Action::Delete { name }),
        _ => None,
    }
}

pub fn resolve(words: Words<'_>) -> Option<Resolution> {
    if let Some(gone) = can_go(words).or_else(|| wished_gone(words)) {
        return Some(gone);
    }
    // "delete please the old.txt": courtesy between the verb and the file.
    let rest = words
        .after_any(HEADS)?
        .trim_start(phrases!("please | for me"))
        .trim_end(FROM_HERE);
    // "erase everything in todo.txt (but keep the file)": its text, not the file.
    if let Some(Target::File(name)) = rest
        .trim_end(KEEPING)
        .after_any(content::WHOLE_OF)
        .map(target)
    {
        return act(Action::Write {
            name,
            content: String::new(),
            mode: None,
            expect: None,
        });
    }
    if let Some(cut) = cut_from_file(rest) {
        return cut;
    }
    match target(rest) {
        Target::File(name) => act(Action::Delete { name }),
        Target::Files(_) => {
            claim_unresolved("I delete one file at a time — name it, e.g. 'delete old.txt'.")
        }
        // An empty folder is deleted like a file (the executor asks, and
        // refuses one that holds anything).
        Target::Folder(Some(name)) => act(Action::Delete { name }),
        Target::Folder(None) => claim_unresolved(
            "The project's folder itself is never deleted — name a file or an empty folder in it.",
        ),
        Target::Bare(name) => claim_unresolved(super::full_name("delete", &name)),
        Target::Missing | Target::Unclear => {
            claim_unresolved("Which file should I delete? Say e.g. 'delete old.txt'.")
        }
    }
}

/// "remove X from notes.md": an edit that replaces X with nothing; `None`
/// when the sentence does not take text out of a file.
fn cut_from_file(words: Words<'_>) -> Option<Option<Resolution>> {
    let at = words.keys().rposition(|k| k == "from")?;
    let Target::File(name) = target(words.from(at + 1)) else {
        return None;
    };
    // "remove the item X from …" takes out a list's line, not these words;
    // so does "delete the line X from …".
    let cut = words.to(at);
    if cut
        .after_any(phrases!("[the] item | the list item"))
        .is_some()
    {
        return None;
    }
    if let Some(line) = cut.after_any(phrases!("the line | the line saying | the line with"))
        && let Some(item) = content::needle(line)
    {
        return Some(act(Action::RemoveItem { name, item }));
    }
    // "remove pumpkin soup from specials.md": a few plain words are a line of
    // a list (a file without list items refuses by name, and nothing
    // changes); other words ("remove 2kg from …", "remove the old intro
    // from …") may be a piece of a line, so taking out just them is asked.
    let plain = !content::said_as_text(cut) && cut.len() <= 4;
    if plain
        && items::plain_item(cut)
        && let Some(item) = content::needle(cut)
    {
        return Some(act(Action::RemoveItem { name, item }));
    }
    let Some(old_text) = content::needle(cut) else {
        return Some(claim_unresolved(format!(
            "What should I take out of {name}? Say e.g. 'remove \"milk\" from {name}'."
        )));
    };
    let assumed = format!(
        "I took '{old_text}' as words to take out of {name}; to take out its whole line, say 'remove the item {old_text} from {name}'"
    );
    let cut = Resolution::Action(Action::Edit {
        name,
        old_text,
        new_text: String::new(),
        expect: None,
    });
    Some(Some(match plain {
        true => cut.guessed(assumed),
        false => cut,
    }))
}
