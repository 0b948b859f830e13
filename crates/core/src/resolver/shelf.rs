//! The tool a sentence names, settled on the tools the host can run (its
//! shelf and the extensions a person admitted), which the host passes in
//! with the folder: the resolver keeps no list of tool ids. A tool said by
//! its id is kept when the host has it; one said by what it does ("the
//! checksum of backup.zip") is the one tool whose description says so; a
//! tool the host does not have is no action, and the note names those it has.

use super::{Folder, Resolution, unresolved};
use crate::action::Action;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

/// Words of a description that say nothing of what a tool is for.
const PLAIN: &[&str] = &[
    "the", "a", "an", "of", "and", "or", "in", "on", "as", "to", "file", "files", "like", "verb",
    "tool", "id", "name", "with", "for", "from", "its", "it", "that", "this", "is",
];

/// `resolution` with its tool settled on the host's tools (unchanged when
/// the host did not say which it has).
pub fn settle(resolution: Resolution, folder: &Folder) -> Resolution {
    let (Some(tools), Some(Action::Tool { id, .. })) = (folder.tools(), resolution.action()) else {
        return resolution;
    };
    if tools.iter().any(|(have, _)| have == id) {
        return resolution;
    }
    let id = id.clone();
    let said = words(&id);
    let fits: Vec<&str> = tools
        .iter()
        .filter(|(_, what)| {
            let purpose = words(what);
            // "word" of "words": one and many are the same purpose.
            let one = |w: &str| String::from(w.strip_suffix('s').unwrap_or(w));
            said.iter()
                .any(|w| !PLAIN.contains(&w.as_str()) && purpose.iter().any(|p| one(p) == one(w)))
        })
        .map(|(have, _)| have.as_str())
        .collect();
    match (fits.as_slice(), resolution) {
        ([one], Resolution::Action(Action::Tool { name, .. })) => {
            Resolution::Action(Action::Tool {
                id: (*one).into(),
                name,
            })
        }
        (
            [one],
            Resolution::Guess {
                action: Action::Tool { name, .. },
                assumed,
            },
        ) => Resolution::Guess {
            action: Action::Tool {
                id: (*one).into(),
                name,
            },
            assumed,
        },
        _ => unresolved(missing(&id, tools)),
    }
}

/// The note for a tool the host does not have.
fn missing(id: &str, tools: &[(String, String)]) -> String {
    let have: Vec<String> = tools
        .iter()
        .map(|(id, what)| format!("{id} ({what})"))
        .collect();
    match have.is_empty() {
        true => format!("There is no '{id}' tool here, and no tools at all."),
        false => format!(
            "There is no '{id}' tool here. The tools are: {}.",
            have.join("; ")
        ),
    }
}

/// The lower-case words of `text`, split at anything not a letter or digit.
fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}
