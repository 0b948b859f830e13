//! Answers in a person's words: the small pieces the executor's sentences
//! are built from ("“oat milk”", "3 lines", "1 line, 2 words"), so every
//! front end shows the same sentence and none composes its own.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use serde_json::Value;

/// How much of a quoted text a sentence shows before "…".
const QUOTE_CHARS: usize = 40;

/// `text` in quotes, its first line only and cut at [`QUOTE_CHARS`].
pub fn quoted(text: &str) -> String {
    let line = text.trim().lines().next().unwrap_or("");
    let mut shown: String = line.chars().take(QUOTE_CHARS).collect();
    if shown.len() < text.trim().len() {
        shown.push('…');
    }
    format!("“{shown}”")
}

/// "1 line", "3 lines", "2 entries", "4 matches": `n` and its noun,
/// in the plural English spells for the nouns answers use.
pub fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else if let Some(stem) = noun.strip_suffix('y') {
        format!("{n} {stem}ies")
    } else if ["ch", "sh", "s", "x"].iter().any(|end| noun.ends_with(end)) {
        format!("{n} {noun}es")
    } else {
        format!("{n} {noun}s")
    }
}

/// "a, b and c".
pub fn listed(parts: &[String]) -> String {
    match parts {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// How many lines a text has (a last line without a newline counts).
pub fn lines(text: &str) -> usize {
    text.lines().count()
}

/// A tool's output when it is a flat object of counts (`{"lines":1,
/// "words":2,"bytes":16}`), as "1 line, 2 words"; a size is a detail and is
/// left to the output itself. `None` for any other output.
pub fn counts(output: &str) -> Option<String> {
    let Value::Object(fields) = serde_json::from_str::<Value>(output).ok()? else {
        return None;
    };
    let mut parts = Vec::new();
    for (key, value) in &fields {
        let n = usize::try_from(value.as_u64()?).ok()?;
        if key == "bytes" {
            continue;
        }
        let noun = key.strip_suffix('s').unwrap_or(key);
        parts.push(count(n, noun));
    }
    (!parts.is_empty()).then(|| listed(&parts))
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn a_quote_is_one_short_line() {
        assert_eq!(quoted("oat milk"), "“oat milk”");
        assert_eq!(quoted("a\nb"), "“a…”");
        assert_eq!(quoted(&"x".repeat(50)), format!("“{}…”", "x".repeat(40)));
    }

    #[test]
    fn counts_read_as_words_and_anything_else_is_none() {
        assert_eq!(
            counts(r#"{"lines":1,"words":2,"bytes":16}"#).as_deref(),
            Some("1 line and 2 words")
        );
        assert_eq!(counts(r#"{"lines":12}"#).as_deref(), Some("12 lines"));
        assert_eq!(counts(r#"{"name":"x"}"#), None);
        assert_eq!(counts("hello"), None);
        assert_eq!(count(2, "entry"), "2 entries");
        assert_eq!(count(3, "match"), "3 matches");
        assert_eq!(count(1, "match"), "1 match");
        assert_eq!(counts(r#"{"bytes":3}"#), None);
        assert_eq!(
            listed(&["a".to_string(), "b".to_string(), "c".to_string()]),
            "a, b and c"
        );
    }
}
