//! `list`: "list files", "what's in the drafts folder", "show me my files", "ls drafts".

use super::name::{Target, target};
use super::text::Words;
use super::{Resolution, act, refuse};
use crate::action::Action;

/// Heads that ask for a listing whatever follows ("list drafts", "what's in drafts").
const STRONG: &[&[&str]] = &[
    &["list"],
    &["ls"],
    &["browse"],
    &["enumerate"],
    &["what", "is", "in"],
    &["what", "is", "inside"],
    &["look", "in"],
    &["look", "inside"],
    &["what", "is", "here"],
    &["what", "is", "there"],
    &["what", "do", "i", "have"],
    &["what", "have", "i", "got"],
];

/// Heads that ask for a listing only when files or a folder are named.
const WEAK: &[&[&str]] = &[
    &["show"],
    &["display"],
    &["view"],
    &["open"],
    &["see"],
    &["get"],
    &["what"],
    &["which"],
    &["tell", "me"],
    &["give", "me"],
    &["let", "me", "see"],
    &["how", "many"],
];

/// Words that make any head a listing when a bare name follows ("show the contents of drafts").
const CONTENTS_OF: &[&[&str]] = &[
    &["the", "contents", "of"],
    &["contents", "of"],
    &["the", "content", "of"],
];

/// Words between the head and what is listed.
const LEADING: &[&[&str]] = &[
    &["me"],
    &["out"],
    &["a", "list", "of"],
    &["the", "list", "of"],
    &["the", "contents", "of"],
    &["contents", "of"],
    &["the", "content", "of"],
    &["what", "is", "in"],
    &["what"],
    &["in"],
    &["inside"],
    &["of"],
    &["under"],
    &["within"],
];

/// Words after what is listed ("what files are there").
const TRAILING: &[&[&str]] = &[
    &["are", "there"],
    &["is", "there"],
    &["there", "are"],
    &["do", "i", "have"],
    &["do", "we", "have"],
    &["have", "i", "got"],
    &["i", "have"],
    &["exist"],
    &["are", "here"],
    &["there"],
    &["here"],
    &["available"],
    &["right", "now"],
    &["now"],
    &["please"],
];

pub fn resolve(words: Words<'_>) -> Option<Resolution> {
    let (strong, rest) = match words.after_any(STRONG) {
        Some(rest) => (true, rest),
        None => (false, words.after_any(WEAK)?),
    };
    let strong = strong || rest.trim_start(&[&["me"]]).after_any(CONTENTS_OF).is_some();
    let dir = match target(rest.trim_start(LEADING).trim_end(TRAILING)) {
        Target::Folder(dir) | Target::Files(dir) => dir,
        Target::Missing | Target::Bare(_) | Target::Unclear if !strong => return None,
        Target::Missing => None,
        Target::Bare(dir) => Some(dir),
        Target::Unclear => {
            return refuse("Which folder? Say e.g. 'list files' or 'list the drafts folder'.");
        }
        Target::File(_) => return None,
    };
    act(Action::List { dir })
}
