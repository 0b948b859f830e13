//! `edit`: "in notes.md replace milk with bread", "replace 'milk' with 'bread' in notes.md",
//! "edit notes.md and change milk to bread", "swap milk for bread in notes.md".
//!
//! An edit replaces one occurrence, so "replace every milk" is refused. Replacing
//! the whole text ("replace the contents of notes.md with hi", "change notes.md
//! to say hi") is a write.

use super::courtesy;
use super::name::{Target, target};
use super::phrases::{Phrases, phrases};
use super::text::Words;
use super::write;
use super::{Resolution, claim_unresolved};
use alloc::string::String;

mod apply;
mod mistaken;
use apply::{apply, what_to_change};

/// Replacing verbs, the words between old and new text, and which of those
/// put the new text first ("substitute bread for milk").
struct Swap {
    verb: Phrases,
    joiners: &'static [&'static str],
    new_first: &'static [&'static str],
    /// Whether, with no file to edit in, a named file is what is replaced
    /// ("replace notes.txt with hi" writes its whole content).
    whole: bool,
    /// Whether the verb reads as an edit only with a file named ("make 11.2g
    /// into 12.1g in log.md"; "make a file …" is a write's).
    needs_file: bool,
}

const fn swap(verb: Phrases, joiners: &'static [&'static str]) -> Swap {
    Swap {
        verb,
        joiners,
        new_first: &[],
        whole: false,
        needs_file: false,
    }
}

const SWAPS: &[Swap] = &[
    Swap {
        whole: true,
        ..swap(Phrases::new("replace"), &["with", "by"])
    },
    swap(
        Phrases::new("replacing | find and replace"),
        &["with", "by"],
    ),
    swap(Phrases::new("changing | change"), &["to", "into", "with"]),
    swap(Phrases::new("swap [out]"), &["for", "with"]),
    swap(Phrases::new("switch"), &["to", "for", "with"]),
    swap(Phrases::new("turn"), &["into"]),
    Swap {
        needs_file: true,
        ..swap(Phrases::new("make"), &["into"])
    },
    swap(Phrases::new("fix"), &["to", "into"]),
    swap(
        Phrases::new("correct | update | bump | raise | lower | increase | decrease"),
        &["to"],
    ),
    Swap {
        new_first: &["for"],
        ..swap(Phrases::new("substitute"), &["with", "for"])
    },
];

/// Openings that name the file before the change ("in notes.md, …").
const SCOPES: Phrases = Phrases::new("in | inside | within");
/// Openings that name the file to edit ("edit notes.md and …"); the flag says
/// whether the word can only mean editing (so "open notes.md" stays a read).
const EDITS: &[(Phrases, bool)] = &[
    (Phrases::new("edit | modify | update"), true),
    (Phrases::new("open | fix | correct | go into"), false),
];
/// What is wrong, between "fix" and the file ("fix the typo in essay.txt").
const FAULTS: &[&str] = &[
    "typo", "typos", "mistake", "mistakes", "spelling", "error", "errors", "wording",
];
/// Glue between the file and the change ("edit notes.md and then change …").
const GLUE: Phrases = Phrases::new("and | then | to | by | so that");

/// Prepositions before a trailing file ("… in notes.md").
const FILE_PREPS: &[&str] = &["in", "inside", "within"];

/// Old text that means all of the named file's text.
const WHOLE: Phrases = Phrases::new(
    "everything [that is] | whatever [is] | what is | all that is
     | the (contents | content | whole thing | whole file) | all the text | it all",
);
/// Words that make "change notes.md to say hi" a whole-file write.
const SAYS: Phrases = Phrases::new("say | read | contain | be");

pub fn resolve(words: Words<'_>) -> Option<Resolution> {
    if let Some(said) = where_it_says(words)
        .or_else(|| mistaken::should_not(words))
        .or_else(|| mistaken::was_not(words))
        .or_else(|| says_instead(words))
        .or_else(|| instead_of(words))
    {
        return Some(said);
    }
    // "update v1.2 to v1.3 in README.md": a verb that both opens a file and
    // swaps text is a swap when the swap reads whole.
    let swapped = swap_at(words).and_then(|(swap, rest)| swapped(swap, rest));
    if let Some(Resolution::Action(_) | Resolution::Guess { .. }) = swapped {
        return swapped;
    }
    if let Some(scoped) = file_first(words) {
        return scoped;
    }
    swapped
}

/// "update the version in config.txt from 1.2 to 1.3": the text after
/// "from" is what is there; before it, what it is and where.
fn described_from(swap: &Swap, rest: Words<'_>) -> Option<Option<Resolution>> {
    let at = (1..rest.len()).find(|&i| rest.key(i) == "from" && !swap.joiners.contains(&"from"))?;
    let (old, new) = split(swap, rest.from(at + 1))?;
    let (new, at_end) = trailing_file(new);
    // "bump version.txt from 1.2 to 1.3": the file itself before "from".
    let named = match target(rest.to(at)) {
        Target::File(name) => Some(name),
        _ => None,
    };
    let file = named.or(trailing_file(rest.to(at)).1).or(at_end);
    Some(apply(file, old, new))
}

/// "replace milk with bread in notes.md": the change after the verb, its
/// file at the end (or ending the old text).
fn swapped(swap: &Swap, rest: Words<'_>) -> Option<Resolution> {
    let rest = past_named_fault(rest);
    if let Some(from) = described_from(swap, rest) {
        return from;
    }
    let (change, file) = trailing_file(rest);
    if swap.needs_file && file.is_none() {
        return None;
    }
    let Some((old, new)) = split(swap, change) else {
        return file
            .filter(|_| !swap.needs_file)
            .and_then(|name| claim_unresolved(what_to_change(&name)));
    };
    // "replace 2023 in report.md with 2024": the file may end the old text.
    let (old, file) = match file {
        Some(name) => (old, Some(name)),
        None => trailing_file(old),
    };

    if file.is_none()
        && swap.whole
        && let Some(name) = named_file(old)
    {
        // "replace notes.txt with hi": with no file to edit in, a named
        // file is what is replaced — its whole content.
        return Some(write::whole(name, new));
    }
    apply(file, old, new)
}

/// `words` when they are one file's name with a word-like extension
/// ("notes.txt", not "v1.2" or "3.5").
fn named_file(words: Words<'_>) -> Option<String> {
    let Target::File(name) = target(words) else {
        return None;
    };
    let extension = name.rsplit_once('.')?.1;
    let wordlike =
        (1..=5).contains(&extension.len()) && extension.chars().all(|c| c.is_ascii_alphabetic());
    wordlike.then_some(name)
}

/// The replacing verb a run begins with, and the words after it.
fn swap_at(words: Words<'_>) -> Option<(&'static Swap, Words<'_>)> {
    SWAPS
        .iter()
        .filter_map(|s| Some((s, s.verb.longest(&words)?)))
        .max_by_key(|(_, n)| *n)
        .map(|(s, n)| (s, words.from(n)))
}

/// "in notes.md replace …", "edit notes.md and change …", "notes.md: change …":
/// `None` when the sentence does not open with its file, else the answer.
fn file_first(words: Words<'_>) -> Option<Option<Resolution>> {
    let (only_edit, rest) = match words.after_any(SCOPES) {
        Some(rest) => (false, rest),
        None => words
            .after_tagged(EDITS)
            .map_or((false, words), |(only_edit, rest)| {
                (only_edit, past_fault(rest))
            }),
    };
    let Some(at) = (0..rest.len()).find(|&i| swap_at(rest.from(i)).is_some()) else {
        if let Some(corrected) = corrected(rest) {
            return Some(Some(corrected));
        }
        return match target(rest) {
            Target::File(name) if only_edit => Some(claim_unresolved(what_to_change(&name))),
            // "update plan.md so it just says …": what the whole file then
            // says, the write's to read.
            _ if rest.contains_any(&["so"]) => None,
            _ if only_edit => Some(claim_unresolved(
                "Which file, and what should change? Say e.g. 'in notes.md replace milk with bread'.",
            )),
            _ => None,
        };
    };
    let Target::File(name) = target(courtesy::trim_end(rest.to(at)).trim_end(GLUE)) else {
        return None;
    };
    let (swap, change) = swap_at(rest.from(at))?;
    Some(match split(swap, change) {
        Some((old, new)) => apply(Some(name), old, new),
        // "in jingles.md, make it say …": "make" without "into" is no swap.
        None if swap.needs_file => return None,
        // "edit directions.md, turn left should become turn right": a swap
        // word inside the old text, whose change is said with "become".
        None => corrected(rest).or_else(|| claim_unresolved(what_to_change(&name))),
    })
}

/// How "where it says X" is said, and how the new text is brought in.
const WHERE_SAYS: Phrases =
    Phrases::new("where it (says | said | reads) | wherever it says | where is says");
const MAKE_SAY: Phrases = Phrases::new(
    "make (it | that) say | have it say | change (it | that) to | replace (it | that) with
     | it should say | put | write",
);

/// "in config.txt where it says 1.2 make it say 1.3", "where it says 1.2 in
/// config.txt, change it to 1.3": an edit said by pointing at the old text.
fn where_it_says(words: Words<'_>) -> Option<Resolution> {
    let at = (0..words.len()).find(|&i| words.from(i).after_any(WHERE_SAYS).is_some())?;
    let rest = words.from(at).after_any(WHERE_SAYS)?;
    let (join, new) = (1..rest.len()).find_map(|j| {
        let piece = rest.from(j);
        piece.after_any(MAKE_SAY).map(|new| (j, new))
    })?;
    let (old, mut file) = trailing_file(courtesy::trim_end(rest.to(join)).trim_end(GLUE));
    let (new, at_end) = trailing_file(new);
    file = file.or(at_end);
    if file.is_none() {
        let before = words.to(at).trim_start(SCOPES);
        if let Target::File(name) = target(courtesy::trim_end(before).trim_end(GLUE)) {
            file = Some(name);
        }
    }
    apply(file, old, new)
}

/// Verbs that bring in the new text around "instead of".
const INSTEAD_VERBS: &[&str] = &["write", "put", "say", "use", "have"];

/// "in plan.md, instead of tuesday write wednesday", "use wednesday
/// instead of tuesday in plan.md", "put wednesday in place of tuesday in
/// plan.md": the text replaced after "instead of",
/// the new one after the verb, the file leading or trailing.
fn instead_of(words: Words<'_>) -> Option<Resolution> {
    // "put Long Way Down in place of The Outsiders" says the same.
    let (at, said) = (0..words.len()).find_map(|i| {
        let rest = words.from(i);
        match () {
            _ if rest.starts_with(&["instead", "of"]) => Some((i, 2)),
            _ if rest.starts_with(&["in", "place", "of"]) => Some((i, 3)),
            _ => None,
        }
    })?;
    let (before, after) = (words.to(at), words.from(at + said));
    let verb_in = |w: Words<'_>| (0..w.len()).find(|&i| INSTEAD_VERBS.contains(&w.key(i)));
    let (lead, old, new) = match verb_in(after).filter(|&v| v > 0) {
        // "instead of X write Y".
        Some(v) => (before, after.to(v), after.from(v + 1)),
        // "use Y instead of X".
        None => {
            let v = verb_in(before)?;
            (before.to(v), after, before.from(v + 1))
        }
    };
    let (old, old_file) = trailing_file(old);
    let (new, new_file) = trailing_file(new);
    let leading = match target(courtesy::trim_end(lead.trim_start(SCOPES)).trim_end(GLUE)) {
        Target::File(name) => Some(name),
        _ => None,
    };
    let file = leading.or(old_file).or(new_file)?;
    apply(Some(file), old, new)
}

/// Skips the fault in "fix the typo in essay.txt", leaving the file.
fn past_fault(words: Words<'_>) -> Words<'_> {
    let rest = words.trim_start(phrases!("the | a | an"));
    if FAULTS.contains(&rest.key(0)) && ["in", "of"].contains(&rest.key(1)) {
        rest.from(2)
    } else {
        words
    }
}

/// "fix the typo teh to the": the fault named before the old text.
fn past_named_fault(words: Words<'_>) -> Words<'_> {
    let rest = words.trim_start(phrases!("the | a | an | that"));
    if FAULTS.contains(&rest.key(0)) && !["in", "of"].contains(&rest.key(1)) && rest.len() > 1 {
        rest.from(1)
    } else {
        words
    }
}

/// "essay.txt: teh should be the": the file, then the old text and what it
/// should be.
fn corrected(words: Words<'_>) -> Option<Resolution> {
    let (at, len) = (1..words.len()).find_map(|i| {
        BECOMES
            .longest_where(&words.from(i), |n| i + n < words.len())
            .map(|n| (i, n))
    })?;
    let (before, new) = (words.to(at), words.from(at + len));
    (1..before.len()).find_map(|split| match target(before.to(split)) {
        Target::File(name) => {
            let old = before
                .from(split)
                .trim_start(GLUE)
                .trim_start(phrases!("so"))
                .trim_start(WISHES);
            // "create x.md? Content should be: …" says what the whole file
            // holds: no words in it to change.
            let whole = old
                .after_any(phrases!(
                    "[the | its] (content | contents | text) | it | everything"
                ))
                .is_some_and(Words::is_empty);
            if whole {
                return None;
            }
            apply(Some(name), old, new)
        }
        _ => None,
    })
}

/// Words between the old text and the new in "1.2 becomes 1.3".
const BECOMES: Phrases = Phrases::new(
    "should (be | become | read | say) | becomes | reads | (needs | has) to be | must be
     | (is | are) now | -> | → | => | [is | be] (replaced (by | with) | changed to)",
);

/// A wish before the old text ("in notes.md i want that milk is replaced
/// by bread").
const WISHES: Phrases = Phrases::new("i (want | would like) [that] | make sure [that] | please");

/// Words between what a file says and what it should say.
const SHOULD_SAY: Phrases = Phrases::new(
    "but it should read | [but [it] | it] should (say | be) | (where | when) it should say
     | make (that | it) | change (it | that) to",
);

/// "plan.md says Tuesday but it should say Wednesday, fix that": the file,
/// what it says, and what it should say instead (a closing remark dropped).
fn says_instead(words: Words<'_>) -> Option<Resolution> {
    const SAYS_NOW: &[&str] = &["says", "has", "reads", "contains", "shows"];
    let says = (1..words.len()).find(|&i| SAYS_NOW.contains(&words.key(i)))?;
    let Target::File(name) = target(words.to(says)) else {
        return None;
    };
    let rest = words.from(says + 1);
    let (at, len) = (1..rest.len()).find_map(|i| {
        SHOULD_SAY
            .longest_where(&rest.from(i), |n| i + n < rest.len())
            .map(|n| (i, n))
    })?;
    let new = rest.from(at + len);
    // "…, fix that": the remark after the new text.
    let end = (0..new.len())
        .find(|&i| new.raw(i).ends_with(','))
        .map_or(new.len(), |i| i + 1);
    apply(Some(name), courtesy::trim_end(rest.to(at)), new.to(end))
}

/// Splits "… in notes.md" off the end of a change.
fn trailing_file(words: Words<'_>) -> (Words<'_>, Option<String>) {
    (1..words.len())
        .rev()
        .filter(|&at| FILE_PREPS.contains(&words.key(at)))
        .find_map(|at| match target(words.from(at + 1)) {
            Target::File(name) => Some((words.to(at), Some(name))),
            _ => None,
        })
        .unwrap_or((words, None))
}

/// Old and new text around the first joiner.
fn split<'a>(swap: &Swap, words: Words<'a>) -> Option<(Words<'a>, Words<'a>)> {
    // The first joiner listed that is said: "replace nil by mouth with sips
    // only" splits at "with", as "by" may be a word of the text.
    let at = swap
        .joiners
        .iter()
        .find_map(|joiner| (1..words.len()).find(|&i| words.key(i) == *joiner))?;
    let (before, after) = (words.to(at), words.from(at + 1));
    if swap.new_first.contains(&words.key(at)) {
        Some((after, before))
    } else {
        Some((before, after))
    }
}
