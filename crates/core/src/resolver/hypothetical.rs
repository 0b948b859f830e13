//! A change asked about, not asked for: "how would notes.md differ if it
//! said buy milk", "what would change if I set version.txt to 2.0", "dry
//! run: write back at work to status.txt", "compare status.txt with back at
//! work, don't save it". The change inside is read as the write it names,
//! and shown as a diff instead: nothing is written. Read loosely, so a guess
//! (a diff changes nothing, so it runs and says what it assumed).

use super::{Resolution, plain};
use crate::action::Action;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

/// Words that make a change hypothetical.
const MARKERS: &[&str] = &[
    "if ", "how would", "what would", "would it", "would look", "would differ", "look different",
    "looks different", "hypothetically", "dry run", "dry-run", "preview", "don't save",
    "do not save", "without saving", "what changes",
];

/// Words closing the new text that are about the question, not in it.
const TAILS: &[&str] = &[
    " instead",
    ", don't save it",
    ", don't save",
    ", do not save it",
    ", without saving",
    " without saving",
    " as its content",
    " as the content",
    " as its contents",
    ", show me the diff",
    ", show the diff",
    ", show me the difference",
    " would look like",
    " would look",
    "? don't save anything",
    ", don't save anything",
    " don't save anything",
    "? do not save anything",
    "? don't save it",
];

/// Openings of the change inside, made into a request ("if I set X to Y"
/// is "set X to Y"); `{}` is the rest of the clause.
const CLAUSES: &[(&str, &str)] = &[
    ("if i replaced ", "replace {}"),
    ("if i replace ", "replace {}"),
    ("if i set ", "set {}"),
    ("if i wrote ", "write {}"),
    ("if i write ", "write {}"),
    ("if i changed ", "change {}"),
    ("if i change ", "change {}"),
    ("if i overwrote ", "overwrite {}"),
    ("if i overwrite ", "overwrite {}"),
    ("if i saved ", "save {}"),
    ("if i save ", "save {}"),
    ("if you replaced ", "replace {}"),
    ("if you replace ", "replace {}"),
    ("if you wrote ", "write {}"),
    ("if you write ", "write {}"),
    ("if you changed ", "change {}"),
    ("if you change ", "change {}"),
    ("if we set ", "set {}"),
    ("dry run: ", "{}"),
    ("dry-run: ", "{}"),
    ("dry-run ", "{}"),
    ("dry run writing ", "write {}"),
    ("dry-run writing ", "write {}"),
    ("test writing ", "write {}"),
    ("preview: ", "{}"),
    ("preview, ", "{}"),
    ("dry run, ", "{}"),
    ("what overwriting ", "overwrite {}"),
    ("what replacing ", "replace {}"),
    ("what writing ", "write {}"),
    ("dry run ", "{}"),
];

/// The diff a hypothetical change asks for, if the sentence is one.
pub fn resolve(text: &str) -> Option<Resolution> {
    let lower = text.to_lowercase();
    if lower.len() != text.len() || !MARKERS.iter().any(|m| lower.contains(m)) {
        return None;
    }
    let cut = |clause: &str| untailed(clause.trim_end_matches(['?', '.', '!', ' ']));
    let mut readings: Vec<String> = Vec::new();
    for (opening, request) in CLAUSES {
        if let Some(at) = lower.find(opening) {
            let rest = &text[at + opening.len()..];
            let rest = cut(question_cut(rest));
            // "if I set it to 12.99": "it" is the file named before.
            let rest = match (rest.strip_prefix("it "), named_file(text)) {
                (Some(after), Some(file)) => format!("{file} {after}"),
                _ => rest,
            };
            readings.push(request.replace("{}", &rest));
        }
    }
    // "if notes.md said buy milk", "if it said 2.0".
    if let Some(at) = lower.find(" said ").or_else(|| lower.find(" says ")) {
        // "if todo.txt just said …": the adverb is no file.
        let before = text[..at]
            .trim_end_matches(" just")
            .trim_end_matches(" only")
            .trim_end_matches(" now");
        let file = before.rsplit(' ').next().unwrap_or("");
        let said = &text[at + 6..];
        let said = question_cut(said);
        let said = cut(said);
        let file = match file.eq_ignore_ascii_case("it") {
            true => named_file(text)?,
            false => String::from(file),
        };
        readings.push(written(&said, &file));
    }
    // "if its content were X", "if it contained X": the file named before.
    for (marker, skip) in WERE {
        if let Some(at) = lower.find(marker)
            && let Some(file) = named_file(text)
        {
            let said = cut(question_cut(&text[at + skip..]));
            readings.push(written(&said, &file));
        }
    }
    // "how would notes.md look different with X", "show me how notes.md
    // would differ with X": the file between "how" and the likeness.
    for likeness in LIKENESS {
        if let Some(at) = lower.find(likeness) {
            let before = text[..at].trim_end_matches(" would");
            let from = ["how would ", "how "]
                .iter()
                .find_map(|h| lower[..before.len()].rfind(h).map(|i| i + h.len()));
            if let Some(from) = from {
                let said = cut(question_cut(&text[at + likeness.len()..]));
                readings.push(written(&said, &text[from..before.len()]));
            }
        }
    }
    // "compare status.txt with back at work, don't save it": the diff itself.
    readings.push(cut(text));
    let whole = |reading: &str| readings.last().is_some_and(|last| last == reading);
    readings.iter().find_map(|reading| {
        let action = plain(reading).into_action()?;
        let (name, content) = match action {
            // The sentence whole is only ever a diff with its tail cut.
            Action::Write { name, content, .. } if !whole(reading) => (name, content),
            Action::Diff {
                name,
                content: Some(content),
                against: None,
            } if whole(reading) => (name, content),
            _ => return None,
        };
        let diff = Resolution::Action(Action::Diff {
            name,
            content: Some(content),
            against: None,
        });
        Some(diff.guessed(format!(
            "I took it as showing, not making, the change '{reading}'"
        )))
    })
}

/// The request to write `said` (quoted unless it is) to `file`.
fn written(said: &str, file: &str) -> String {
    match said.starts_with(['"', '\'', '“', '‘']) {
        true => format!("write {said} to {file}"),
        false => format!("write \"{said}\" to {file}"),
    }
}

/// Clauses that give the file's would-be content after "it" or "its
/// content", and how long each is.
const WERE: &[(&str, usize)] = &[
    ("if its content were ", 20),
    ("if its content was ", 19),
    ("if its contents were ", 21),
    ("if it were ", 11),
    ("if it contained ", 16),
];

/// Likenesses after a file that give its would-be content ("… look
/// different with X").
const LIKENESS: &[&str] = &[
    " look different with ", " looks different with ", " differ with ", " be different with ",
    " look with ",
];

/// Where the question after a proposed change starts ("if I wrote hi to
/// notes.md, how …", "… what would change").
const QUESTION: &[&str] = &[
    ", how", ", what", " how would", " what would", " what will", " what changes",
];

/// `clause` up to the question after it.
fn question_cut(clause: &str) -> &str {
    &clause[..first_marker(clause, QUESTION)]
}

/// Where the first of `markers` starts in `text`, matched in any case; the
/// end when none does, or when lowering changed the length (so an index
/// found in the lowered text is no index in `text`).
fn first_marker(text: &str, markers: &[&str]) -> usize {
    let lower = text.to_lowercase();
    markers
        .iter()
        .filter_map(|m| lower.find(m))
        .min()
        .filter(|_| lower.len() == text.len())
        .unwrap_or(text.len())
}

/// Where a remark that nothing be written starts ("…, but do not write it").
const NOT_WRITTEN: &[&str] = &[
    ", but do not", ", but don't", " but do not", " but don't", ", don't", ", do not", ", without",
];

/// `text` without the words closing it that are about the question ("…
/// instead", "…, don't save it", "…, but do not write it").
pub fn untailed(text: &str) -> String {
    let mut text = String::from(&text[..first_marker(text, NOT_WRITTEN)]);
    for tail in TAILS {
        if text.to_lowercase().ends_with(tail) {
            text.truncate(text.len() - tail.len());
        }
    }
    text
}

/// The first word of `text` that looks like a file name (a dot inside it).
fn named_file(text: &str) -> Option<String> {
    text.split_whitespace()
        .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric() && c != '.' && c != '/'))
        .map(|w| w.trim_end_matches('.'))
        .find(|w| w.contains('.') && !w.starts_with('.'))
        .map(String::from)
}
