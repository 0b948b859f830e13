//! `read`: "read notes.md", "show me notes.md", "what's in notes.md", "what does notes.md say".

use super::mention::NUMBERS;
use super::name::{Target, target};
use super::phrases::{Phrases, phrases};
use super::text::Words;
use super::{Resolution, act, claim_unresolved};
use crate::action::Action;
use alloc::string::String;

/// Heads that can only mean reading a file.
const STRONG: Phrases = Phrases::new(
    "read [out | me | back] | cat | print [out] | dump | what (does | do)
     | what is the (content | contents) of | what are the contents of | tell me what
     | [the] contents of",
);

/// Heads that mean reading only when a file is named ("show me notes.md",
/// but not "what's in the news"). "write" and "wrote" stand for "written" as
/// a learner says them ("what is write in notes.md").
const WEAK: Phrases = Phrases::new(
    "what is (in | inside | on) | what is (written | write | wrote) in
     | what is written inside | what was (in | on) | what did (i | we) (write | put | save) in
     | what (have | has) (we | i | you) got (in | on) | what do (we | i) have (in | on)
     | what did i (write down | note) in | what have (i | we) written in
     | [let me] (have | take) a (look | peek) at | how (does | do) | remind me what is (in | on)
     | remind me (of | about) | who is (on | in) | peek at | glance at | show | display | open [up]
     | (pull | bring) up | view | [let me] see | [let me] look at | get | (give | tell) me
     | check | what did",
);

/// Words between the head and the file; "content of" and "text of" also
/// without the article, as a learner or a terse typist says them.
const LEADING: Phrases = Phrases::new(
    "please | [for | to] me | out | back | [the] (contents | content | text) of
     | what is (in | inside) | what is written (in | inside | on) | is (in | inside)
     | inside | in | what",
);

/// Words after the file ("what does notes.md say").
const TRAILING: Phrases = Phrases::new(
    "say | says | contain | contains | (has | have) in it | has | looks like | look like
     | look [right now] | out loud | aloud | out [(to | for) me] | (to | for) me | [right] now | at the moment | currently | so far
     | again",
);

/// Which end of a file a part is read from.
const ENDS: &[(Phrases, bool)] = &[
    (Phrases::new("first | top | opening"), true),
    (Phrases::new("last | final | bottom"), false),
];

/// A count said as digits or a word ("10", "ten", "twenty").
fn count(key: &str) -> Option<u64> {
    match key {
        "thirty" => Some(30),
        "fifty" => Some(50),
        "dozen" => Some(12),
        "hundred" => Some(100),
        _ => key
            .parse()
            .ok()
            .or_else(|| NUMBERS.iter().position(|n| *n == key).map(|n| n as u64)),
    }
}

/// Words a reading head may end with before a part ("let me see the …").
const BEFORE_END: Phrases = Phrases::new("the | just | only");

/// "read the last ten lines of log.txt", "the first 5 lines of notes.md",
/// "show me the top line of plan.md" (`tail log.txt` is the shell's).
fn part(words: Words<'_>) -> Option<Resolution> {
    let at = (0..words.len()).find(|&at| words.from(at).after_tagged(ENDS).is_some())?;
    // Only a reading head may come before ("read me", "what are", "show").
    const BEFORE: &[&str] = &[
        "read", "show", "print", "display", "give", "get", "tell", "what", "are", "is", "me",
        "the", "out", "just", "only", "were", "my",
    ];
    let head = words.to(at);
    let said = head.trim_end(BEFORE_END);
    let whole = |heads: Phrases| heads.longest(&said) == Some(said.len());
    if !head.keys().all(|k| BEFORE.contains(&k)) && !whole(STRONG) && !whole(WEAK) {
        return None;
    }
    let (first, _) = words.from(at).after_tagged(ENDS)?;
    let rest = words.from(at + 1);
    let (n, counted, rest) = match count(rest.key(0)) {
        Some(n) if !rest.is_empty() => (n, true, rest.from(1)),
        _ => (1, false, rest),
    };
    // "the bottom ten of X": with a count the noun may go unsaid, and
    // "first 3 lines stock.md" the word before the file.
    let rest = match rest.after_any(phrases!(
        "lines | line | entries | entry | rows | row | things | items"
    )) {
        Some(rest) => rest,
        None if counted => rest,
        None => return None,
    };
    let rest = rest.after_any(phrases!("of | in | from")).unwrap_or(rest);
    match target(rest.trim_end(TRAILING)) {
        Target::File(name) if n > 0 => act(partly(name, first, n)),
        _ => None,
    }
}

fn partly(name: String, first: bool, n: u64) -> Action {
    let n = n.min(crate::command::MAX_LINES);
    match first {
        true => Action::Read {
            name,
            first: Some(n),
            last: None,
            at: None,
        },
        false => Action::Read {
            name,
            first: None,
            last: Some(n),
            at: None,
        },
    }
}

pub fn resolve(words: Words<'_>) -> Option<Resolution> {
    if let Some(part) = part(words) {
        return Some(part);
    }
    let (strong, rest) = words.after_either(STRONG, WEAK)?;
    match target(rest.trim_start(LEADING).trim_end(TRAILING)) {
        Target::File(name) => act(Action::Read {
            name,
            first: None,
            last: None,
            at: None,
        }),
        _ if !strong => None,
        Target::Folder(_) | Target::Files(_) => claim_unresolved(
            "I read one file at a time — say e.g. 'read notes.md', or 'list files' to see them all.",
        ),
        Target::Bare(name) => claim_unresolved(super::full_name("read", &name)),
        Target::Missing | Target::Unclear => {
            claim_unresolved("Which file should I read? Say e.g. 'read notes.md'.")
        }
    }
}
