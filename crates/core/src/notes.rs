//! The text of notes, as a person speaks of it: list items (`- [ ] milk`,
//! `- eggs`, `1. call Sam`), headings and their sections, the first or last
//! lines. Pure functions over a file's text; the executor reads, calls one
//! and writes the result whole (journaled, so every change here is undoable).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

/// One list item of a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Item {
    /// Its line, counted from 0.
    pub line: usize,
    /// `Some(done)` for a checklist item (`- [x]` / `- [ ]`), `None` for a plain one.
    pub checked: Option<bool>,
    /// The item's words, without the marker.
    pub text: String,
}

/// What marks a line as a list item: its indent and marker (`- `, `* `,
/// `+ `, `12. `), and the rest of the line.
fn marker(line: &str) -> Option<(&str, &str)> {
    let body = line.trim_start();
    let indent = line.len() - body.len();
    let after = if let Some(rest) = ["- ", "* ", "+ "].iter().find_map(|m| body.strip_prefix(m)) {
        rest
    } else {
        let digits = body.bytes().take_while(u8::is_ascii_digit).count();
        let rest = body.get(digits..)?;
        match (digits, rest.strip_prefix(". ").or(rest.strip_prefix(") "))) {
            (1..=9, Some(rest)) => rest,
            _ => return None,
        }
    };
    let cut = line.len() - after.len();
    (indent <= 8).then(|| (&line[..cut], &line[cut..]))
}

/// A checklist box at the start of an item's words: `[ ] `, `[x] `, `[X] `.
fn checkbox(rest: &str) -> Option<(bool, &str)> {
    let (state, words) = (rest.get(..3)?, rest.get(3..)?);
    let done = match state {
        "[ ]" => false,
        "[x]" | "[X]" => true,
        _ => return None,
    };
    Some((done, words.strip_prefix(' ').unwrap_or(words)))
}

/// Every list item of `text`, in order (lines inside a fenced code block are not items).
pub fn items(text: &str) -> Vec<Item> {
    let mut found = Vec::new();
    let mut fenced = false;
    for (line, raw) in text.lines().enumerate() {
        if raw.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        let Some((_, rest)) = marker(raw) else {
            continue;
        };
        let (checked, words) = match checkbox(rest) {
            Some((done, words)) => (Some(done), words),
            None => (None, rest),
        };
        found.push(Item {
            line,
            checked,
            text: words.trim().into(),
        });
    }
    found
}

/// The words of a text, lowercased, with punctuation dropped.
fn words_of(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// The items whose words match `asked`: an item saying exactly that (case
/// and punctuation aside) wins; otherwise every item holding all its words.
pub fn matching<'a>(items: &'a [Item], asked: &str) -> Vec<&'a Item> {
    let asked = words_of(asked);
    if asked.is_empty() {
        return Vec::new();
    }
    let exact: Vec<&Item> = items
        .iter()
        .filter(|item| words_of(&item.text) == asked)
        .collect();
    if !exact.is_empty() {
        return exact;
    }
    items
        .iter()
        .filter(|item| {
            let have = words_of(&item.text);
            asked.iter().all(|w| have.contains(w))
        })
        .collect()
}

/// `text` with its line `at` replaced by what `change` makes of it; the
/// line ending and the file's last newline are kept as they were.
fn with_line(text: &str, at: usize, change: impl FnOnce(&str) -> Option<String>) -> String {
    let mut change = Some(change);
    let mut out = String::with_capacity(text.len() + 4);
    for (index, piece) in text.split_inclusive('\n').enumerate() {
        if index != at {
            out.push_str(piece);
            continue;
        }
        let body = piece.trim_end_matches(['\n', '\r']);
        if let Some(new) = change.take().and_then(|change| change(body)) {
            out.push_str(&new);
            out.push_str(&piece[body.len()..]);
        }
    }
    out
}

/// `text` with item line `at` ticked (`done`) or un-ticked; a plain item
/// becomes a checklist item.
pub fn set_checked(text: &str, at: usize, done: bool) -> String {
    with_line(text, at, |line| {
        let (mark, rest) = marker(line)?;
        let words = checkbox(rest).map_or(rest, |(_, words)| words);
        let state = if done { "[x]" } else { "[ ]" };
        Some(format!("{mark}{state} {words}"))
    })
}

/// `text` without its line `at`.
pub fn remove_line(text: &str, at: usize) -> String {
    with_line(text, at, |_| None)
}

/// A heading line's level and words (`## Tuesday` is 2, "Tuesday").
fn heading(line: &str) -> Option<(usize, &str)> {
    let level = line.bytes().take_while(|&b| b == b'#').count();
    let words = line.get(level..)?.strip_prefix(' ')?;
    (1..=6).contains(&level).then(|| (level, words.trim()))
}

/// Where new text goes in `text`: the end of the section under the heading
/// whose words are `under` (before the next heading of its level or
/// higher, and before the blank lines that end it), or the end of the file.
/// `None` when there is no such heading.
fn section_end(lines: &[&str], under: Option<&str>) -> Option<(usize, usize)> {
    let Some(under) = under else {
        return Some((0, lines.len()));
    };
    let asked = words_of(under);
    let start = lines
        .iter()
        .position(|line| heading(line).is_some_and(|(_, words)| words_of(words) == asked))?;
    let level = heading(lines[start]).map_or(1, |(level, _)| level);
    let mut end = lines[start + 1..]
        .iter()
        .position(|line| heading(line).is_some_and(|(l, _)| l <= level))
        .map_or(lines.len(), |at| start + 1 + at);
    while end > start + 1 && lines[end - 1].trim().is_empty() {
        end -= 1;
    }
    Some((start + 1, end))
}

/// `content` as the next item of the list the section ends with: `- [ ] X`
/// after checklist items, `- X` (the same marker) after plain ones, `N. X`
/// after numbered ones. Text that is a list item already, or more than
/// one line, or a section that ends in no list, is left as it is.
fn as_item(section: &[&str], content: &str) -> String {
    let last = section.iter().rev().find(|line| !line.trim().is_empty());
    let Some(last) = last else {
        return content.into();
    };
    if content.contains('\n') || marker(content).is_some() {
        return content.into();
    }
    let Some((mark, rest)) = marker(last) else {
        return content.into();
    };
    let indent = &mark[..mark.len() - mark.trim_start().len()];
    let bare = mark.trim();
    let mark = match bare
        .strip_suffix(['.', ')'])
        .and_then(|n| n.parse::<u32>().ok())
    {
        Some(n) => format!("{indent}{}{} ", n + 1, &bare[bare.len() - 1..]),
        None => String::from(mark),
    };
    match checkbox(rest) {
        Some(_) => format!("{mark}[ ] {content}"),
        None => format!("{mark}{content}"),
    }
}

/// What an append makes of `text`: `content` at the end of the file or of
/// the section under the heading `under` (a missing heading is added at the
/// end, as `## under`), as a list item where the text there is a list.
pub fn append(text: &str, content: &str, under: Option<&str>) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let (start, end, made) = match section_end(&lines, under) {
        Some((start, end)) => (start, end, false),
        None => (lines.len(), lines.len(), true),
    };
    let added = as_item(&lines[start..end], content);
    let added = added.trim_end_matches('\n');
    if end == lines.len() && !made {
        let joiner = if text.is_empty() || text.ends_with('\n') {
            ""
        } else {
            "\n"
        };
        // At the end of the file the text is added as it is; a section's
        // line ends as the lines around it do.
        let newline = if under.is_some() { "\n" } else { "" };
        return format!("{text}{joiner}{added}{newline}");
    }
    if made {
        let under = under.unwrap_or_default().trim();
        let gap = match text {
            "" => "",
            t if t.ends_with("\n\n") => "",
            t if t.ends_with('\n') => "\n",
            _ => "\n\n",
        };
        return format!("{text}{gap}## {under}\n{added}\n");
    }
    let mut out = String::with_capacity(text.len() + added.len() + 1);
    for (index, line) in lines.iter().enumerate() {
        if index == end {
            out.push_str(added);
            out.push('\n');
        }
        out.push_str(line);
        out.push('\n');
    }
    if end == lines.len() {
        out.push_str(added);
        out.push('\n');
    }
    if !text.ends_with('\n') {
        out.pop();
    }
    out
}

/// The lines a read of part of a file shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Part {
    pub text: String,
    /// The first and last line shown, counted from 1 (`0, 0` for none).
    pub from: usize,
    pub to: usize,
    /// How many lines the file has.
    pub of: usize,
}

/// The first `first` or last `last` lines of `text` (the whole text if neither).
pub fn part(text: &str, first: Option<u64>, last: Option<u64>) -> Part {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let of = lines.len();
    let clamp = |n: u64| usize::try_from(n).unwrap_or(usize::MAX).min(of);
    let (from, to) = match (first, last) {
        (Some(n), _) => (0, clamp(n)),
        (None, Some(n)) => (of - clamp(n), of),
        (None, None) => (0, of),
    };
    Part {
        text: lines[from..to].concat(),
        from: if to > from { from + 1 } else { 0 },
        to,
        of,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SHOPPING: &str =
        "# Shopping\n- [ ] oat milk\n- [x] eggs\n- [ ] milk chocolate\n\nnotes\n";

    #[test]
    fn items_are_found_with_their_state_and_code_blocks_are_not_lists() {
        let text = "- [ ] a\n* b\n12. c\n  - [X] d\n```\n- e\n```\n-f\n";
        let found = items(text);
        let shown: Vec<(usize, Option<bool>, &str)> = found
            .iter()
            .map(|i| (i.line, i.checked, i.text.as_str()))
            .collect();
        assert_eq!(
            shown,
            [
                (0, Some(false), "a"),
                (1, None, "b"),
                (2, None, "c"),
                (3, Some(true), "d")
            ]
        );
    }

    #[test]
    fn an_exact_item_wins_and_words_match_the_rest() {
        let found = items(SHOPPING);
        let texts = |asked| -> Vec<String> {
            matching(&found, asked)
                .into_iter()
                .map(|i| i.text.clone())
                .collect()
        };
        assert_eq!(texts("Eggs"), ["eggs"]);
        assert_eq!(texts("milk"), ["oat milk", "milk chocolate"]);
        assert_eq!(texts("oat"), ["oat milk"]);
        assert!(texts("bread").is_empty());
        assert!(texts("  ").is_empty());
    }

    #[test]
    fn ticking_and_unticking_keep_the_rest_of_the_file() {
        let ticked = set_checked(SHOPPING, 1, true);
        assert_eq!(
            ticked,
            "# Shopping\n- [x] oat milk\n- [x] eggs\n- [ ] milk chocolate\n\nnotes\n"
        );
        assert_eq!(set_checked(&ticked, 1, false), SHOPPING);
        assert_eq!(set_checked("* bread", 0, true), "* [x] bread");
        assert_eq!(set_checked("a\r\n- x\r\n", 1, true), "a\r\n- [x] x\r\n");
    }

    #[test]
    fn removing_an_item_removes_its_line_only() {
        assert_eq!(
            remove_line(SHOPPING, 2),
            "# Shopping\n- [ ] oat milk\n- [ ] milk chocolate\n\nnotes\n"
        );
        assert_eq!(remove_line("- a\n- b", 1), "- a\n");
    }

    #[test]
    fn an_append_follows_the_list_it_ends_and_its_heading() {
        assert_eq!(append("- [ ] a\n", "b", None), "- [ ] a\n- [ ] b");
        assert_eq!(append("* a", "b", None), "* a\n* b");
        assert_eq!(append("1. a\n2. b\n", "c", None), "1. a\n2. b\n3. c");
        assert_eq!(append("plain\n", "b", None), "plain\nb");
        assert_eq!(append("", "b", None), "b");
        assert_eq!(append("- a\n", "- [ ] b", None), "- a\n- [ ] b");
        let week = "# Week\n## Monday\n- gym\n\n## Tuesday\n- dentist\n\n## Wednesday\n";
        assert_eq!(
            append(week, "call Sam", Some("tuesday")),
            "# Week\n## Monday\n- gym\n\n## Tuesday\n- dentist\n- call Sam\n\n## Wednesday\n"
        );
        assert_eq!(
            append(week, "rest", Some("Wednesday")),
            format!("{week}rest\n")
        );
        assert_eq!(
            append("# Week\n", "call Sam", Some("Friday")),
            "# Week\n\n## Friday\ncall Sam\n"
        );
        assert_eq!(append("", "x", Some("Today")), "## Today\nx\n");
    }

    #[test]
    fn a_part_says_which_lines_of_how_many() {
        let text = "1\n2\n3\n4\n5";
        assert_eq!(
            part(text, Some(2), None),
            Part {
                text: "1\n2\n".into(),
                from: 1,
                to: 2,
                of: 5
            }
        );
        assert_eq!(
            part(text, None, Some(2)),
            Part {
                text: "4\n5".into(),
                from: 4,
                to: 5,
                of: 5
            }
        );
        assert_eq!(part(text, None, Some(50)).from, 1);
        assert_eq!(part("", Some(3), None).from, 0);
    }
}
