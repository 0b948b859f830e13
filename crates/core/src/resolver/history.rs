//! The folder's git history in words: "what did I change today" (changes),
//! "what did I change in notes.md since the last commit" and "compare
//! notes.md with yesterday's version" (a diff against), "show me the history
//! of notes.md", "the last 5 commits" (history), "read notes.md as it was
//! yesterday" (a read at a moment). "When did I last change notes.md" stays
//! `info`, which says when the file changed. A moment is handed on in words the
//! executor reads ("today", "3 days ago", a commit's id); none is the last
//! commit.

use super::mention::NUMBERS;
use super::name::{Target, target};
use super::phrases::{Phrases, phrases};
use super::text::Words;
use super::{Resolution, act, claim_unresolved};
use crate::action::Action;
use alloc::format;
use alloc::string::{String, ToString};

/// Heads asking what changed.
const CHANGED: Phrases = Phrases::new(
    "what did i change | what did i edit | what did we change | what have i changed
     | what have i edited | what i have changed | what has changed | what is changed
     | what changed | what was changed | what got changed | what is different
     | what is not committed | what is uncommitted | what haven't i committed
     | what have i not committed | tell me what changed | tell me what i changed
     | show me what changed | show me what i changed | show what changed
     | show me my changes | show me the changes | show my changes | show the changes
     | show changes | list my changes | list the changes | list changes | my changes
     | [are there] any [uncommitted] changes | [show [me] | list] [the | my] uncommitted changes
     | git status | [what is | show [me] | tell me | check] the [git] status [of the folder]
     | git diff | how has | how did | (which | what) files [have] (changed | were changed)
     | what files (were | have been) (added | modified | changed) [or (added | modified | changed | removed | deleted)]
     | [(has | did)] anything (change | changed) | [is | was] anything different | changes | all changes
     | show me what i have changed | show me what i have edited | show me what is changed
     | show me what has changed | have i (modified | changed | edited) anything
     | (have | did) any [of my] files (change | changed | been changed)
     | has any file (changed | been changed)",
);

/// Heads asking for commits; the rest may name a file.
const HISTORY: Phrases = Phrases::new(
    "[show [me] | list | what are | what is | give me] [the | my | this] [folder's | folder]
     [recent | latest] (commits | commit history | commit log | git history | history | git log)
     | who [last] (changed | edited | committed) | (what | which) commits
     | who (is | has) been (changing | editing | updating | committing [to])",
);

/// "show me the last 5 commits": heads before a count of commits.
const LAST_COMMITS: Phrases = Phrases::new(
    "show me the last | show the last | list the last | the last | last
     | what were the last",
);

/// Words before the file a look at the history names.
const ABOUT: Phrases = Phrases::new(
    "of | for | to | in | on | the file | [that | which] (touched | changed) | touching",
);

/// Words closing a question about when or who.
const CLOSING: Phrases = Phrases::new(
    "changed | edited | modified | last changed | last edited | (in | of) my folder
     | that (is not | has not been | was not) committed [yet]
     | (in | of) the folder | (in | of) this folder | in here | so far | here | please",
);

/// Heads comparing a file with a commit or a day: "compare FILE with …".
const COMPARE: Phrases =
    Phrases::new("compare | diff | [can i] [see | show me | give me] [a | the] diff (of | for)");
const COMPARE_JOINERS: &[&str] = &["with", "against", "to", "and"];

/// Heads of a read a moment may close.
const READS: Phrases = Phrases::new(
    "read | show me | show | open | what was in | what did | [can i | let me] see
     | i (want | need) | give me",
);

/// Words before a moment closing a read: "as it was yesterday".
const AT: Phrases = Phrases::new(
    "as it was | as it was on | as it was in | as it was at | as of | from | at | in | on",
);

/// Restoring is a write of the old content, which a sentence cannot carry.
const RESTORE: Phrases = Phrases::new("restore | revert | put back | roll back");

pub fn resolve(words: Words<'_>) -> Option<Resolution> {
    history(words)
        .or_else(|| changed(words))
        .or_else(|| compared(words))
        .or_else(|| restored(words))
        .or_else(|| read_at(words))
        .or_else(|| version_read(words))
}

/// "read yesterday's version of orders.md", "show me the committed copy of
/// notes.md": the version said before the file.
fn version_read(words: Words<'_>) -> Option<Resolution> {
    // "the version of complaints.md from yesterday please": said alone.
    let rest = words
        .after_any(READS)
        .unwrap_or(words)
        .trim_end(phrases!("please"));
    let rest = match rest.after_any(phrases!("the version of")) {
        Some(after) => match moment_at_end(after) {
            Some((at, moment)) if at > 0 && matches!(after.key(at), "from" | "at" | "as") => {
                let Target::File(name) = target(after.to(at)) else {
                    return None;
                };
                return act(read_at_moment(name, None, None, moment));
            }
            _ => rest,
        },
        None => rest,
    };
    let of = (1..rest.len()).find(|&i| rest.key(i) == "of")?;
    let said = rest.to(of);
    if !said.keys().any(|k| k == "version" || k == "copy") {
        return None;
    }
    let at = version(said)?;
    let Target::File(name) = target(rest.from(of + 1)) else {
        return None;
    };
    act(read_at_moment(name, None, None, at))
}

/// A read of `name` (its `first` or `last` lines) as it was at `moment`
/// (`None`: the last commit).
fn read_at_moment(
    name: String,
    first: Option<u64>,
    last: Option<u64>,
    moment: Option<String>,
) -> Action {
    Action::Read {
        name,
        first,
        last,
        at: Some(moment.unwrap_or_else(|| "last commit".to_string())),
    }
}

/// "what did I change today", "what did I change in notes.md since the
/// last commit".
fn changed(words: Words<'_>) -> Option<Resolution> {
    // "show me today's changes": the day said before them.
    if let Some(rest) = words.after_any(phrases!("[show [me] | list] [all] today's changes")) {
        return rest.is_empty().then(|| {
            Resolution::Action(Action::Changes {
                since: Some("today".to_string()),
            })
        });
    }
    let rest = words.after_any(CHANGED)?;
    let (rest, since) = match moment_at_end(rest) {
        Some((at, since)) => (rest.to(at), since),
        None => (rest, None),
    };
    let rest = rest
        .trim_end(phrases!("in | over | during | for"))
        .trim_end(CLOSING)
        .trim_start(phrases!("so far"));
    if rest.is_empty() {
        return act(Action::Changes { since });
    }
    let named = rest
        .trim_start(ABOUT)
        .trim_end(phrases!("changed | change"));
    match target(named) {
        Target::File(name) => act(Action::Diff {
            name,
            content: None,
            against: Some(since.unwrap_or_else(|| "last commit".to_string())),
        }),
        Target::Folder(None) | Target::Files(None) => act(Action::Changes { since }),
        _ => None,
    }
}

/// "show me the history of notes.md", "the last 5 commits", "who changed
/// notes.md".
fn history(words: Words<'_>) -> Option<Resolution> {
    // "list the 20 most recent commits": a count right after "the".
    let the_count = || {
        words
            .after_any(phrases!("(list | show [me]) the"))
            .filter(|rest| number(rest.key(0)).is_some())
            .and_then(counted_commits)
    };
    let (limit, rest) = match words
        .after_any(LAST_COMMITS)
        .and_then(counted_commits)
        .or_else(the_count)
    {
        Some(found) => found,
        None => (None, words.after_any(HISTORY)?),
    };
    let named = rest.trim_end(CLOSING).trim_start(ABOUT);
    let name = match target(named) {
        _ if named.is_empty() => None,
        Target::File(name) => Some(name),
        Target::Folder(None) | Target::Files(None) => None,
        Target::Bare(name) if words.contains_any(&["history", "commits"]) => {
            return claim_unresolved(format!(
                "Which file's history? Say its full name with the extension, e.g. 'show the history of {name}.md'."
            ));
        }
        _ => return None,
    };
    act(Action::History { name, limit })
}

/// "5 commits", "ten commits to notes.md": the count and the rest.
fn counted_commits(rest: Words<'_>) -> Option<(Option<u64>, Words<'_>)> {
    let (n, after) = match rest.key(0) {
        "commit" => (1, rest.from(1)),
        "commits" => (crate::history::DEFAULT_HISTORY as u64, rest.from(1)),
        said => {
            let n = number(said)?;
            // "the 20 most recent commits".
            let between = match (rest.key(1), rest.key(2)) {
                ("most", "recent") => 2,
                ("latest" | "recent" | "last", _) => 1,
                _ => 0,
            };
            match rest.key(1 + between) {
                "commits" | "commit" => (n, rest.from(2 + between)),
                _ => return None,
            }
        }
    };
    Some((Some(n.max(1)), after))
}

/// A count said in digits or words.
fn number(said: &str) -> Option<u64> {
    said.parse()
        .ok()
        .or_else(|| NUMBERS.iter().position(|n| *n == said).map(|n| n as u64))
}

/// "compare notes.md with yesterday's version", "diff notes.md against
/// the last commit".
fn compared(words: Words<'_>) -> Option<Resolution> {
    let rest = words.after_any(COMPARE)?;
    let joiner = (1..rest.len()).find(|&i| COMPARE_JOINERS.contains(&rest.key(i)))?;
    let Target::File(name) = target(rest.to(joiner)) else {
        return None;
    };
    let against = version(rest.from(joiner + 1))?;
    act(Action::Diff {
        name,
        content: None,
        against: Some(against.unwrap_or_else(|| "last commit".to_string())),
    })
}

/// "restore notes.md to yesterday's version": said what to do instead.
fn restored(words: Words<'_>) -> Option<Resolution> {
    let rest = words.after_any(RESTORE)?;
    let to = (1..rest.len()).find(|&i| matches!(rest.key(i), "to" | "as" | "from"))?;
    let Target::File(name) = target(rest.to(to)) else {
        return None;
    };
    version(rest.from(to + 1)).or_else(|| moment_at_end(rest.from(to)).map(|(_, m)| m))?;
    claim_unresolved(format!(
        "I can show you {name} as it was ('read {name} as it was yesterday') and what changed since ('what did I change in {name}'); to restore it, write that content back, and undo can take it back."
    ))
}

/// "read notes.md as it was yesterday": the read said before the moment,
/// given that moment.
fn read_at(words: Words<'_>) -> Option<Resolution> {
    // "glazes as it was at the last commit": the file said alone, read.
    let headless = words.after_any(READS).is_none();
    let words = words.trim_end(phrases!("please"));
    let (at, moment) = moment_at_end(words)?;
    // "what did stock.md look like yesterday": the moment right after it.
    let lead = match words.key(at) {
        "since" | "from" => at,
        _ => (0..at)
            .find(|&i| {
                let between = words.range(i, at);
                between.after_any(AT).is_some_and(|r| r.is_empty())
            })
            .unwrap_or(at),
    };
    let said = words.to(lead).literal();
    let text = said.trim_end_matches(|c: char| c == ',' || c.is_whitespace());
    let text = match headless {
        // Only a name, and only "as it was": "I was at the park yesterday" is no read.
        true if lead < at && words.to(lead).len() <= 3 => format!("read {text}"),
        true => return None,
        false => String::from(text),
    };
    match super::resolve(&text) {
        Resolution::Action(Action::Read {
            name, first, last, ..
        }) => act(read_at_moment(name, first, last, moment)),
        _ => None,
    }
}

/// A version said as a commit or a day: "the last commit", "yesterday's
/// version", "what I committed". `Some(None)` is the last commit.
pub(super) fn version(words: Words<'_>) -> Option<Option<String>> {
    let words = words
        .trim_start(phrases!("the | my | its"))
        .trim_end(phrases!("version | copy"));
    const COMMITTED: Phrases = Phrases::new(
        "last commit | latest commit | [last | latest] committed [one] | what i committed
         | what is committed | head",
    );
    if words.after_any(COMMITTED).is_some_and(|r| r.is_empty()) {
        return Some(None);
    }
    match words.len() {
        1 if words.key(0) == "yesterday's" => Some(Some("yesterday".into())),
        _ => moment(words),
    }
}

/// A moment closing `words` (perhaps after "since" or "from"): where it
/// starts, and the moment (`None`: the last commit).
fn moment_at_end(words: Words<'_>) -> Option<(usize, Option<String>)> {
    (0..words.len()).find_map(|i| {
        let said = words.from(i);
        let said = said.after_any(phrases!("since | from")).unwrap_or(said);
        moment(said).map(|m| (i, m))
    })
}

/// A whole run that is a moment: "today", "yesterday", "this week", "3
/// days ago", "the last commit", "commit 3fa9c2e".
fn moment(words: Words<'_>) -> Option<Option<String>> {
    const LAST: Phrases = Phrases::new(
        "the last commit | my last commit | last commit | i last committed | i committed
         | the last save",
    );
    const DAYS: &[(Phrases, &str)] = &[
        (Phrases::new("today | this morning | so far today"), "today"),
        (Phrases::new("yesterday"), "yesterday"),
        (Phrases::new("this week"), "this week"),
        (Phrases::new("last week"), "last week"),
        (Phrases::new("a week ago"), "a week ago"),
    ];
    if words.after_any(LAST).is_some_and(|r| r.is_empty()) {
        return Some(None);
    }
    if let Some((day, rest)) = words.after_tagged(DAYS)
        && rest.is_empty()
    {
        return Some(Some(day.into()));
    }
    let keys: alloc::vec::Vec<&str> = words.keys().collect();
    match keys.as_slice() {
        [n, "days", "ago"] | ["the", "last", n, "days"] | ["last", n, "days"] => {
            Some(Some(format!("{} days ago", number(n)?)))
        }
        ["commit", id] | [id] if is_commit_id(id) => Some(Some((*id).into())),
        [day] if is_date(day) => Some(Some((*day).into())),
        _ => None,
    }
}

/// A day written YYYY-MM-DD.
fn is_date(said: &str) -> bool {
    let parts: alloc::vec::Vec<&str> = said.split('-').collect();
    matches!(parts.as_slice(), [y, m, d] if y.len() == 4 && m.len() == 2 && d.len() == 2
        && parts.iter().all(|p| p.bytes().all(|b| b.is_ascii_digit())))
}

/// The start of a commit's id as said: hex digits with at least one digit
/// (so "added" or "face" is a word, not a commit).
fn is_commit_id(said: &str) -> bool {
    (7..=40).contains(&said.len())
        && said.bytes().all(|b| b.is_ascii_hexdigit())
        && said.bytes().any(|b| b.is_ascii_digit())
}
