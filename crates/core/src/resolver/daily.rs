//! Today's note: "today's note", "my daily note", "the note for today" name
//! one file, whose path the host works out from its setting and the day
//! (by default `daily/YYYY-MM-DD.md`). The resolver has no clock, so the
//! host hands it that path with the folder ([`super::Folder::with_daily`]),
//! and the phrase is read as that name before any verb family reads the
//! sentence — so every verb can name it ("read today's note", "tick milk in
//! my daily note").

use super::Resolution;
use crate::action::Action;
use alloc::string::String;
use alloc::vec::Vec;

/// The setting's default: `{date}` is the day, as YYYY-MM-DD.
pub const DEFAULT_DAILY_NOTE: &str = "daily/{date}.md";

/// The daily note's path on `date` (YYYY-MM-DD) by `pattern`; a pattern
/// without `{date}` names one file every day.
pub fn daily_path(pattern: &str, date: &str) -> String {
    pattern.replace("{date}", date)
}

/// Ways of saying the daily note, longest first so "today's daily note" is
/// taken whole. Apostrophes are compared straight and may be left out, as a
/// recogniser writes them.
const PHRASES: &[&str] = &[
    "today's daily note",
    "today's journal entry",
    "the daily note for today",
    "my daily note for today",
    "the note for today",
    "my note for today",
    "my journal for today",
    "today's journal",
    "today's note",
    "the daily note",
    "my daily note",
    "daily note",
];

/// `text` with the first way of saying the daily note replaced by `path`,
/// or `None` when the sentence does not name it.
pub fn named(text: &str, path: &str) -> Option<String> {
    // Each char of the text lowered, straight-quoted, with its byte span.
    let chars: Vec<(char, usize, usize)> = text
        .char_indices()
        .map(|(at, c)| {
            let plain = match c {
                '\u{2019}' | '\u{2018}' => '\'',
                c => c.to_ascii_lowercase(),
            };
            (plain, at, at + c.len_utf8())
        })
        .collect();
    for phrase in PHRASES {
        for variant in [String::from(*phrase), phrase.replace('\'', "")] {
            let want: Vec<char> = variant.chars().collect();
            if let Some(start) = find(&chars, &want) {
                let end = start + want.len();
                let from = chars[start].1;
                let to = chars[end - 1].2;
                let mut out = String::with_capacity(text.len() + path.len() + 1);
                out.push_str(&text[..from]);
                out.push_str(path);
                // "todays note locked up at nine", as a recogniser writes
                // "today's note: …": the note said first, then its line
                // (unless a colon of its own follows: "… please: …").
                let colon_next = text[to..]
                    .split_whitespace()
                    .next()
                    .is_some_and(|word| word.ends_with(':'));
                if text[..from].trim().is_empty() && text[to..].starts_with(' ') && !colon_next {
                    out.push(':');
                }
                out.push_str(&text[to..]);
                return Some(out);
            }
        }
    }
    None
}

/// A day's note keeps what is already in it: "put X in my daily note" adds
/// X to it, as a journal is written, rather than writing the note anew —
/// unless the sentence says to replace it ("replace today's note with X").
pub fn kept(text: &str, path: &str, resolution: Resolution) -> Resolution {
    const ANEW: &[&str] = &[
        "replace", "overwrite", "wipe", "erase", "clear", "empty", "only",
    ];
    let anew = text
        .split(|c: char| !c.is_alphanumeric())
        .any(|word| ANEW.iter().any(|w| word.eq_ignore_ascii_case(w)));
    match resolution {
        Resolution::Action(Action::Write {
            name,
            content,
            mode: None,
            expect,
        }) if name == path && !anew => Resolution::Action(Action::Append {
            name,
            content,
            under: None,
            expect,
        }),
        other => other,
    }
}

/// Where `want` stands in `chars` as whole words: not inside a longer word,
/// and not the start of a file's name ("today's note.md" is that file).
fn find(chars: &[(char, usize, usize)], want: &[char]) -> Option<usize> {
    let word = |at: usize| chars.get(at).is_some_and(|c| c.0.is_alphanumeric());
    (0..chars.len().checked_sub(want.len())? + 1).find(|&start| {
        let end = start + want.len();
        let extension = chars.get(end).is_some_and(|c| c.0 == '.') && word(end + 1);
        chars[start..end]
            .iter()
            .map(|c| c.0)
            .eq(want.iter().copied())
            && (start == 0 || !word(start - 1))
            && !word(end)
            && !extension
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::action::Action;
    use crate::resolver::{Folder, Resolution, resolve_in};
    use alloc::vec;

    const TODAY: &str = "daily/2026-12-02.md";

    #[test]
    fn every_way_of_saying_it_names_the_days_file() {
        for (said, meant) in [
            (
                "add pick up dry cleaning to today's note",
                "add pick up dry cleaning to daily/2026-12-02.md",
            ),
            ("read my daily note", "read daily/2026-12-02.md"),
            (
                "put call mum in todays note",
                "put call mum in daily/2026-12-02.md",
            ),
            (
                "Add milk to Today\u{2019}s Note.",
                "Add milk to daily/2026-12-02.md.",
            ),
            (
                "tick milk in the note for today",
                "tick milk in daily/2026-12-02.md",
            ),
            (
                "what's in today's daily note",
                "what's in daily/2026-12-02.md",
            ),
        ] {
            assert_eq!(named(said, TODAY).as_deref(), Some(meant), "{said}");
        }
    }

    #[test]
    fn other_notes_and_files_named_like_it_are_left_alone() {
        for said in [
            "read today's note.md",
            "add milk to yesterday's note",
            "read my daily notes folder",
            "open notes.md",
            "write a daily notebook entry",
        ] {
            assert_eq!(named(said, TODAY), None, "{said}");
        }
    }

    #[test]
    fn the_setting_places_the_date() {
        assert_eq!(daily_path(DEFAULT_DAILY_NOTE, "2026-12-02"), TODAY);
        assert_eq!(
            daily_path("journal/{date} notes.md", "2027-01-05"),
            "journal/2027-01-05 notes.md"
        );
        assert_eq!(daily_path("today.md", "2027-01-05"), "today.md");
    }

    #[test]
    fn the_resolver_acts_on_the_days_file_when_the_host_names_it() {
        let folder = Folder::new(vec!["groceries.md".into()]).with_daily(TODAY.into());
        let append = |content: &str| Action::Append {
            name: TODAY.into(),
            content: content.into(),
            expect: None,
            under: None,
        };
        for (said, content) in [
            (
                "add pick up dry cleaning to today's note",
                "pick up dry cleaning",
            ),
            (
                "jot down call the plumber in my daily note",
                "call the plumber",
            ),
            ("add buy stamps to todays note", "buy stamps"),
        ] {
            assert_eq!(
                resolve_in(said, &folder).into_action(),
                Some(append(content)),
                "{said}"
            );
        }
        assert!(matches!(
            resolve_in("read today's note", &folder).into_action(),
            Some(Action::Read { name, .. }) if name == TODAY
        ));
        // Without the host's clock the phrase names no file of its own.
        let unknown = Folder::new(vec!["groceries.md".into()]);
        assert!(!matches!(
            resolve_in("add buy stamps to today's note", &unknown),
            Resolution::Action(Action::Append { name, .. }) if name == TODAY
        ));
    }
}
