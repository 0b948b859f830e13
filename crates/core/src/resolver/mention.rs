//! Which existing file a sentence mentions: the folder's names found in the
//! words said, in full ("delete Copy of notes.txt") or by stem ("read my
//! notes", "the meeting notes" for `meeting-notes.md`), the longest first.
//!
//! Names and sentences are compared as tokens ([`tokens`]): lowercase
//! words, dots and slashes, with spoken joiners read as what they stand for
//! and dashes and underscores read as spaces, so "meeting notes dot m d"
//! and `Meeting_Notes.md` compare equal.

use super::name::JOINERS;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::ops::RangeInclusive;

/// Number words read as digits ("chapter two" is `chapter 2.md`, "the
/// last ten lines" ten of them).
pub(crate) const NUMBERS: &[&str] = &[
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
    "nineteen", "twenty",
];

/// Words of a request that never pick a file by themselves in a loose
/// match: its verbs and their small words.
const NOT_LOOSE: &[&str] = &[
    "delete", "remove", "read", "open", "show", "write", "add", "append", "put", "edit", "change",
    "replace", "list", "search", "find", "please", "can", "you", "could", "would", "for", "me",
    "up", "at", "end", "on", "from", "say", "says", "with", "what", "is", "whats", "do", "i",
    "have", "get", "rid", "cat", "view", "let", "see", "look", "about", "one",
];

/// Words that never stand for a file on their own.
pub(super) const NOT_STEMS: &[&str] = &[
    "the", "a", "an", "my", "our", "file", "files", "folder", "it", "this", "that", "in", "to",
    "of", "and", "with", "me", "is", "what", "read", "open", "show",
];

/// What a sentence says of the folder's files.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Mention<'f> {
    Nothing,
    /// One file, and which of the sentence's space-separated words say it.
    One {
        name: &'f str,
        words: RangeInclusive<usize>,
    },
    /// Several files fit equally well: ask which.
    Several(Vec<&'f str>),
    /// One file, by some of its words only (see [`loosely`]), and the
    /// sentence's words from the first of them to the last.
    Loose {
        name: &'f str,
        words: RangeInclusive<usize>,
    },
}

/// The file `text` mentions among `names`. A full name beats a stem, a
/// longer run of words beats a shorter one; a stem followed by an extension
/// that is not its own ("notes.md" with only `notes.txt`) is no mention.
pub(super) fn mentioned<'f>(text: &str, names: &'f [String]) -> Mention<'f> {
    let said = indexed_tokens(text);
    let words: Vec<&str> = said.iter().map(|(t, _)| t.as_str()).collect();
    // (full name?, tokens matched, start token, name, how well it names it)
    let mut best: Vec<(bool, usize, usize, &'f str, usize)> = Vec::new();
    for name in names {
        let own_stem = |name: &str| {
            let leaf = name.rsplit('/').next().unwrap_or(name);
            tokens(leaf.rsplit_once('.').map_or(leaf, |(stem, _)| stem)).len()
        };
        let kinds = of_its_kind(name)
            .into_iter()
            .map(|kind| (false, kind, own_stem(name)));
        let said_forms = forms(name).into_iter().map(|(full, form)| {
            let len = form.len();
            (full, form, len)
        });
        for (full, wanted, weight) in said_forms.chain(kinds) {
            // The last time it is said as words of their own: a file is
            // named after what is done to it ("add first aid kit to kit"),
            // and "kit" of "kit-winter.md" is part of another name.
            let whole = |start: usize| {
                let end = start + wanted.len();
                let word = |i: usize| said.get(i).map(|(_, at)| *at);
                (start == 0 || word(start - 1) != word(start))
                    && (end >= said.len() || word(end) != word(end - 1))
            };
            let Some(start) = find_last(&words, &wanted, whole).or_else(|| find(&words, &wanted))
            else {
                continue;
            };
            let next = words.get(start + wanted.len());
            if !full && next.is_some_and(|t| *t == ".") {
                continue;
            }
            let rank = (full, weight);
            match best.first().map(|b| (b.0, b.4)) {
                Some(top) if top > rank => {}
                Some(top) if top == rank => {
                    // The same file said at more length: its longer words.
                    match best.iter_mut().find(|b| b.3 == name.as_str()) {
                        Some(same) if same.1 < wanted.len() => {
                            *same = (full, wanted.len(), start, name, weight)
                        }
                        Some(_) => {}
                        None => best.push((full, wanted.len(), start, name, weight)),
                    }
                }
                _ => best = alloc::vec![(full, wanted.len(), start, name.as_str(), weight)],
            }
        }
    }
    if best.is_empty() {
        return loosely(&said, names);
    }
    // A stem said alone fits a longer stem too ("the report" with
    // `report-2025.md` beside `report.md`): ask rather than pick.
    // (Said with its kind, "the kyu grading list", only its own stem counts.)
    if let [(false, _, start, only, len)] = best.as_slice() {
        let said_stem: Vec<String> = words[*start..start + len]
            .iter()
            .map(|t| String::from(*t))
            .collect();
        let longer: Vec<&'f str> = names
            .iter()
            .filter(|name| name.as_str() != *only)
            .filter(|name| {
                forms(name)
                    .iter()
                    .any(|(full, form)| !full && form.len() > *len && contains(form, &said_stem))
            })
            .map(String::as_str)
            .collect();
        // "delete the old rota" with `rota-old.md` beside `rota.md`: the one
        // longer stem whose every word is said is the one meant.
        let all_said: Vec<&'f str> = longer
            .iter()
            .copied()
            .filter(|name| {
                let leaf = name.rsplit('/').next().unwrap_or(name);
                let stem = leaf.rsplit_once('.').map_or(leaf, |(stem, _)| stem);
                tokens(stem).iter().all(|t| words.contains(&t.as_str()))
            })
            .collect();
        if let [one] = all_said.as_slice()
            && let Some(found) = names.iter().find(|n| n.as_str() == *one)
        {
            return loosely(&said, core::slice::from_ref(found));
        }
        if !longer.is_empty() {
            let mut several = alloc::vec![*only];
            several.extend(longer);
            return Mention::Several(several);
        }
    }
    // Two names as well said, one of them where a request names its file
    // (last, after "to" or "in"): "add Jess, fine-line rose, Thurs 2pm to
    // bookings" is `bookings.md`, not `flash/rose.md`.
    let placed: Vec<&(bool, usize, usize, &'f str, usize)> = best
        .iter()
        .filter(|(_, len, start, _, _)| {
            let after_ok = words[start + len..]
                .iter()
                .all(|t| AFTER_PLACED.contains(t));
            let before = words[..*start]
                .iter()
                .rev()
                .find(|t| !matches!(**t, "the" | "my" | "our" | "your"));
            after_ok && before.is_some_and(|t| PLACING.contains(t))
        })
        .collect();
    if best.len() > 1
        && let [one] = placed.as_slice()
    {
        best = alloc::vec![**one];
    }
    match best.as_slice() {
        [] => Mention::Nothing,
        [(_, len, start, name, _)] => Mention::One {
            name,
            words: said[*start].1..=said[start + len - 1].1,
        },
        several => Mention::Several(several.iter().map(|b| b.3).collect()),
    }
}

/// The file whose stem holds the most of the sentence's own words, when no
/// name or stem was said whole: "open the budget" is `Budget 2026.xlsx`,
/// "the March meeting notes" `Meeting Notes - March.md`, "the log"
/// `server.log` (its extension said as a noun); a tie is several, so it is
/// asked. Only a file holding at least one such word counts.
fn loosely<'f>(tokens_said: &[(String, usize)], names: &'f [String]) -> Mention<'f> {
    // A word said with an extension of its own names that file, not this
    // one; and that extension is its own, no hint at every file that has it.
    let named = |i: usize| {
        tokens_said.get(i + 1).is_some_and(|(t, _)| t == ".")
            || i.checked_sub(1)
                .and_then(|before| tokens_said.get(before))
                .is_some_and(|(t, _)| t == ".")
    };
    let said: Vec<(&str, usize)> = tokens_said
        .iter()
        .enumerate()
        .filter(|(i, _)| !named(*i))
        .map(|(_, (t, at))| (t.as_str(), *at))
        .filter(|(w, _)| w.chars().any(char::is_alphanumeric))
        .filter(|(w, _)| !NOT_STEMS.contains(w) && !NOT_LOOSE.contains(w))
        .collect();
    let mut best: (usize, Vec<(&'f str, RangeInclusive<usize>)>) = (0, Vec::new());
    for name in names {
        let base = name.rsplit('/').next().unwrap_or(name);
        let (stem, extension) = base.rsplit_once('.').unwrap_or((base, ""));
        let stem = tokens(stem);
        let extension = extension.to_lowercase();
        let held: Vec<usize> = said
            .iter()
            .filter(|(w, _)| {
                stem.iter().any(|t| t == w) || (!extension.is_empty() && *w == extension)
            })
            .map(|(_, at)| *at)
            .collect();
        let (Some(first), Some(last)) = (held.first(), held.last()) else {
            continue;
        };
        let fit = (name.as_str(), *first..=*last);
        match held.len().cmp(&best.0) {
            core::cmp::Ordering::Greater => best = (held.len(), alloc::vec![fit]),
            core::cmp::Ordering::Equal => best.1.push(fit),
            core::cmp::Ordering::Less => {}
        }
    }
    match best.1.as_slice() {
        [] => Mention::Nothing,
        [(name, words)] => Mention::Loose {
            name,
            words: words.clone(),
        },
        several => Mention::Several(several.iter().map(|(n, _)| *n).collect()),
    }
}

/// "the Lowe birth plan" of `birth-plans/lowe.md`, "the ep-41 show notes"
/// of `show-notes/ep-41.md`: the file's own stem, then what its folder
/// holds (in the singular too). Said so, it is as well named as by its
/// stem alone, so a file named where a request names its file still wins.
fn of_its_kind(name: &str) -> Vec<Vec<String>> {
    let path_stem = name.rsplit_once('.').map_or(name, |(stem, _)| stem);
    let Some((dir, stem)) = path_stem.rsplit_once('/') else {
        return Vec::new();
    };
    let dir = dir.rsplit('/').next().unwrap_or(dir);
    let mut kinds = alloc::vec![tokens(&alloc::format!("{stem} {dir}"))];
    if let Some(one) = dir.strip_suffix('s') {
        kinds.push(tokens(&alloc::format!("{stem} {one}")));
    }
    kinds
}

/// The ways a name can be said, as tokens: in full, its path without the
/// extension, and (in a subfolder) its own stem; a stem of only filler
/// words ("the.md") is never a mention.
fn forms(name: &str) -> Vec<(bool, Vec<String>)> {
    let mut forms = alloc::vec![(true, tokens(name))];
    // "essay.md" of `drafts/essay.md`: a file in a subfolder said by its own
    // full name, without the folder.
    if let Some((_, own)) = name.rsplit_once('/')
        && own.contains('.')
    {
        forms.push((true, tokens(own)));
    }
    let path_stem = name
        .rsplit_once('.')
        .filter(|(stem, ext)| !stem.is_empty() && !ext.contains('/'))
        .map_or(name, |(stem, _)| stem);
    let base_stem = path_stem.rsplit('/').next().unwrap_or(path_stem);
    // "dad's meds" of `dad/meds.md`: the folder said as whose the file is.
    let owned = path_stem.replace('/', " ");
    // "the to do list" of `todo.md`: the word said as the two it is made of.
    let to_do = base_stem.replace("todo", "to do");
    for stem in [path_stem, owned.as_str(), base_stem, to_do.as_str()] {
        let stem = tokens(stem);
        let filler = stem.iter().all(|t| NOT_STEMS.contains(&t.as_str()));
        if !filler && !forms.iter().any(|(_, f)| *f == stem) {
            forms.push((false, stem));
        }
    }
    forms
}

/// Words before the file a request acts on.
const PLACING: &[&str] = &["to", "in", "into", "on", "onto", "from"];

/// Words that may follow it: what kind of file it is, a courtesy.
const AFTER_PLACED: &[&str] = &[
    "list", "file", "notes", "document", "doc", "please", "thanks", "cheers", ".",
];

/// Where `needle` last occurs in `hay` as a contiguous run that `whole`
/// accepts.
fn find_last(hay: &[&str], needle: &[String], whole: impl Fn(usize) -> bool) -> Option<usize> {
    if needle.is_empty() || needle.len() > hay.len() {
        return None;
    }
    hay.windows(needle.len())
        .enumerate()
        .rev()
        .find(|(at, window)| window.iter().zip(needle).all(|(a, b)| *a == b) && whole(*at))
        .map(|(at, _)| at)
}

/// Where `needle` first occurs in `hay` as a contiguous run.
fn find(hay: &[&str], needle: &[String]) -> Option<usize> {
    if needle.is_empty() || needle.len() > hay.len() {
        return None;
    }
    hay.windows(needle.len())
        .position(|window| window.iter().zip(needle).all(|(a, b)| *a == b))
}

/// Whether `needle` occurs in `hay` as a contiguous run.
pub(super) fn contains(hay: &[String], needle: &[String]) -> bool {
    let hay: Vec<&str> = hay.iter().map(String::as_str).collect();
    find(&hay, needle).is_some()
}

/// A name or an utterance as comparable tokens (see the module note).
pub(super) fn tokens(text: &str) -> Vec<String> {
    indexed_tokens(text).into_iter().map(|(t, _)| t).collect()
}

/// [`tokens`], each with the index of the space-separated word it came from.
fn indexed_tokens(text: &str) -> Vec<(String, usize)> {
    let mut raw: Vec<(String, usize)> = Vec::new();
    for (index, word) in text.split(' ').enumerate() {
        let word = word.trim_matches(|c: char| !(c.is_alphanumeric() || "./_-~".contains(c)));
        // A full stop that ends a word ends a sentence, never an extension.
        let word = word.trim_end_matches('.');
        // "Bruno's notes": the name the person is, not their "'s".
        let word = word
            .strip_suffix("'s")
            .or_else(|| word.strip_suffix("\u{2019}s"))
            .unwrap_or(word);
        let lower = word.to_lowercase();
        let lower = match NUMBERS.iter().position(|n| *n == lower) {
            Some(n) => alloc::format!("{n}"),
            None => lower,
        };
        if let Some((_, joiner)) = JOINERS.iter().find(|(spoken, _)| *spoken == lower) {
            if !matches!(*joiner, "-" | "_") {
                raw.push((String::from(*joiner), index));
            }
            continue;
        }
        let mut part = String::new();
        for c in lower.chars() {
            // "chapter3" is "chapter 3", as "chapter three" is said; an
            // extension ("mp3") stays whole.
            let boundary = part
                .chars()
                .last()
                .is_some_and(|last| last.is_ascii_digit() != c.is_ascii_digit());
            if boundary && c.is_alphanumeric() && !ends_extension(&raw, &part) {
                raw.push((core::mem::take(&mut part), index));
            }
            if "./_-".contains(c) {
                if !part.is_empty() {
                    raw.push((core::mem::take(&mut part), index));
                }
                if matches!(c, '.' | '/') {
                    raw.push((c.to_string(), index));
                }
            } else {
                part.push(c);
            }
        }
        if !part.is_empty() {
            raw.push((part, index));
        }
    }
    // An extension spelled letter by letter is one token ("t x t" → "txt").
    let lone = |t: &(String, usize)| t.0.len() == 1 && t.0.chars().all(char::is_alphanumeric);
    let mut out = Vec::with_capacity(raw.len());
    let mut i = 0;
    while i < raw.len() {
        let after_dot = raw[i].0 == ".";
        out.push(raw[i].clone());
        i += 1;
        let run = raw[i..].iter().take_while(|t| lone(t)).count();
        if after_dot && run > 1 {
            let letters: String = raw[i..i + run].iter().map(|t| t.0.as_str()).collect();
            out.push((letters, raw[i + run - 1].1));
            i += run;
        }
    }
    out
}

/// Whether `part` is being read right after a dot (an extension).
fn ends_extension(raw: &[(String, usize)], part: &str) -> bool {
    !part.is_empty() && raw.last().is_some_and(|(t, _)| t == ".")
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    fn names(names: &[&str]) -> Vec<String> {
        names.iter().map(|n| String::from(*n)).collect()
    }

    #[test]
    fn the_longest_name_said_wins_and_a_tie_is_several() {
        let two = names(&["my notes.txt", "notes.txt"]);
        assert_eq!(
            mentioned("read my notes please", &two),
            Mention::One {
                name: "my notes.txt",
                words: 1..=2
            }
        );
        assert_eq!(
            mentioned("read notes.txt", &two),
            Mention::One {
                name: "notes.txt",
                words: 1..=1
            }
        );
        let twins = names(&["notes.txt", "notes.md"]);
        assert_eq!(
            mentioned("what's in notes?", &twins),
            Mention::Several(vec!["notes.txt", "notes.md"])
        );
        assert_eq!(
            mentioned("read notes dot md", &twins),
            Mention::One {
                name: "notes.md",
                words: 1..=3
            }
        );
    }

    #[test]
    fn separators_and_case_do_not_matter_and_another_extension_is_no_mention() {
        let folder = names(&["meeting-notes.md", "Q3 report.md", "drafts/plan.md"]);
        for (said, name) in [
            ("open the meeting notes", "meeting-notes.md"),
            ("show me the q3 report", "Q3 report.md"),
            ("read plan", "drafts/plan.md"),
            ("read drafts slash plan", "drafts/plan.md"),
        ] {
            let Mention::One { name: got, .. } = mentioned(said, &folder) else {
                panic!("{said}");
            };
            assert_eq!(got, name, "{said}");
        }
        assert_eq!(mentioned("read plan.txt", &folder), Mention::Nothing);
        assert_eq!(
            mentioned("open the report", &names(&["report.md", "report-2025.md"])),
            Mention::Several(vec!["report.md", "report-2025.md"]),
            "a stem a longer name also has is asked about"
        );
        assert_eq!(
            mentioned("read the file", &names(&["the.md"])),
            Mention::Nothing
        );
    }

    #[test]
    fn spoken_and_typed_names_read_the_same() {
        for said in ["my notes dot t x t", "my notes.txt", "My Notes dot txt"] {
            assert_eq!(tokens(said), tokens("my notes.txt"), "{said}");
        }
        assert_ne!(tokens("notes dot m d"), tokens("notes.txt"));
        assert_eq!(tokens("meeting-notes"), tokens("meeting notes"));
    }
}
