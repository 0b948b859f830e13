//! A request whose place is said first: "in the drafts folder, read
//! plan.md", "in memo.txt, write hi", and folders written "drafts/". The
//! request is read alone, then placed.

use super::phrases::phrases;
use super::text::{self, Words};
use super::{Resolution, name, plain};
use crate::action::Action;
use alloc::string::String;
use alloc::vec::Vec;

/// "in the drafts folder, read plan.md": the folder said first, then the
/// request, which is resolved alone and then placed in that folder.
pub(super) fn in_folder_first(text: &str) -> Option<Resolution> {
    // "please in maintenance.md change …": the courtesy before the place.
    let text = ["please ", "Please "]
        .iter()
        .find_map(|please| text.strip_prefix(please))
        .unwrap_or(text);
    // "in handover.md add Porter 4 off sick, cover from agency": a comma
    // that ends no place said first is the text's own.
    let (head, request) = text
        .split_once(',')
        .filter(|(head, _)| names_a_place(head))
        .or_else(|| folder_said_first(text))
        .or_else(|| file_said_first(text))?;
    let split = text::split(head);
    let words = Words::new(head, &split);
    let place = words.after_any(phrases!("in | inside | within | on"))?;
    if let name::Target::File(file) = name::target(place) {
        return in_file_first(text, request, &file, text[head.len()..].starts_with(','));
    }
    let dir = name::folder(place)??;
    if request.trim().is_empty() || name::leaves_the_folder(&dir) {
        return None;
    }
    let within = |name: &mut String| *name = name::within(&dir, core::mem::take(name));
    // Read once, without looking for another folder first: bounded however
    // many commas the sentence has.
    let Resolution::Action(mut action) = plain(request) else {
        return None;
    };
    if let Some(name) = action.file_mut() {
        within(name);
        return Some(Resolution::Action(action));
    }
    match &mut action {
        Action::List { dir: inner @ None }
        | Action::Grep {
            dir: inner @ None, ..
        } => *inner = Some(dir.clone()),
        _ => return None,
    }
    Some(Resolution::Action(action))
}

/// Whether `head` is a place and nothing more: "in the drafts folder",
/// "in memo.txt".
fn names_a_place(head: &str) -> bool {
    let split = text::split(head);
    let words = Words::new(head, &split);
    words
        .after_any(phrases!("in | inside | within | on"))
        .is_some_and(|place| {
            matches!(name::target(place), name::Target::File(_))
                || matches!(name::folder(place), Some(Some(_)))
        })
}

/// "in the drafts folder create plan.md": the folder phrase said first with
/// no comma after it, ending at the word "folder".
fn folder_said_first(text: &str) -> Option<(&str, &str)> {
    let lower = text.to_ascii_lowercase();
    // "in folder drafts create plan.md": the noun first, then the name.
    if let Some(named) = [
        "in folder ", "inside folder ", "in the folder ", "inside the folder ",
    ]
    .iter()
    .find_map(|opening| lower.starts_with(opening).then_some(opening.len()))
    {
        let end = text[named..].find(' ').map_or(text.len(), |at| named + at);
        return Some((&text[..end], &text[end..]));
    }
    if !(lower.starts_with("in ") || lower.starts_with("inside ")) {
        return None;
    }
    let at = lower.find(" folder ")? + " folder".len();
    Some((&text[..at], &text[at..]))
}

/// "drafts/" said for a folder: "the drafts folder", as the families read
/// folders; `None` when no word is one.
pub(super) fn folders_said(text: &str) -> Option<String> {
    let is_folder = |word: &str| {
        let bare = word.trim_end_matches([',', '.', '?', '!', ':']);
        bare.len() > 1
            && bare.ends_with('/')
            && !bare.starts_with(['/', '~', '.'])
            // "s/teh/the/" is an expression, not a folder.
            && bare.split('/').next().is_some_and(|first| first.chars().count() > 1)
            && bare[..bare.len() - 1]
                .chars()
                .all(|c| c.is_alphanumeric() || "-_/ ".contains(c))
    };
    // A sed script's delimiters are no folders ("sed s/npm i/pnpm i/ f").
    let sed = text
        .get(..4)
        .is_some_and(|w| w.eq_ignore_ascii_case("sed "));
    if sed || !text.split(' ').any(is_folder) {
        return None;
    }
    let words: Vec<String> = text
        .split(' ')
        .map(|word| match is_folder(word) {
            true => {
                let bare = word.trim_end_matches([',', '.', '?', '!', ':']);
                let tail = &word[bare.len()..];
                alloc::format!("the {} folder{tail}", bare.trim_end_matches('/'))
            }
            false => String::from(word),
        })
        .collect();
    Some(words.join(" "))
}

/// "in memo.txt, write hi": when the sentence read whole is no action (as
/// "in notes.md, replace milk with bread" is), the request said with its
/// file after it.
fn in_file_first(text: &str, request: &str, file: &str, comma: bool) -> Option<Resolution> {
    let whole = plain(text);
    if let Resolution::Action(_) = whole {
        return Some(whole);
    }
    // "in todo.md, milk" adds to it; "in todo.md tick off milk" changes a
    // line in it (what is said "in" a file: an item, an edit).
    // Without a comma the file may run on into the request: only a line
    // added or written to it ("in todo.md add milk") or said "in" it is
    // read so.
    let inside = plain(&alloc::format!("{} in \"{file}\"", request.trim()));
    // A line or words changed "in" it ("in bookclub.md put X in place of
    // Y") is read so before anything added to it.
    if let Resolution::Action(
        Action::CheckItem { .. } | Action::RemoveItem { .. } | Action::Edit { .. },
    )
    | Resolution::Guess {
        action: Action::CheckItem { .. } | Action::RemoveItem { .. } | Action::Edit { .. },
        ..
    } = inside
    {
        return Some(inside);
    }
    let to = plain(&alloc::format!("{} to \"{file}\"", request.trim()));
    // "in standup.md add to the Done section: …" is not understood by
    // that reading: its text would open with "to".
    let joined = |content: &str| {
        let first = content.split(' ').next().unwrap_or("");
        ["to", "into", "onto", "under", "in"].contains(&first.to_ascii_lowercase().as_str())
    };
    match (&to, comma) {
        (Resolution::Unresolved { .. }, _) => Some(whole),
        (_, true) => Some(to),
        (
            Resolution::Action(Action::Append { content, .. } | Action::Write { content, .. }),
            false,
        ) if !joined(content) => Some(to),
        _ => Some(whole),
    }
}

/// "in plan.md tick off long run", "on the \"recall.md\" change …": a
/// file's name said first with no comma after it, split off where the name
/// ends.
fn file_said_first(text: &str) -> Option<(&str, &str)> {
    let lower = text.to_ascii_lowercase();
    let mut start = ["in ", "inside ", "on "]
        .iter()
        .find_map(|opening| lower.starts_with(opening).then_some(opening.len()))?;
    if let Some(det) = ["the ", "my ", "our "]
        .iter()
        .find(|det| lower[start..].starts_with(*det))
    {
        start += det.len();
    }
    let end = text[start..].find(' ').map(|at| start + at)?;
    let name = &text[start..end];
    name::has_extension(name.trim_matches('"')).then(|| (&text[..end], &text[end..]))
}
