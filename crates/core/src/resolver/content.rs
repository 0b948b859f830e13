//! Content, old and new text: what the speaker wants written, taken verbatim.
//!
//! Content is the rest of the sentence after its keyword, exactly as spoken:
//! a lone quoted stretch loses its quotes and is otherwise untouched; unquoted
//! content loses a leading "the text" / "the words" and the sentence's final
//! full stop (see [`super::text::end_sentence`]), but keeps "!" and "?".

use super::phrases::Phrases;
use super::text::Words;
use alloc::string::String;

/// Words that name the kind of text that follows ("the text Buy milk").
const TEXT_NOUNS: Phrases = Phrases::new(
    "the (text | words | word | phrase | string | line | sentence | content | contents | spelling of | misspelling | typo | header [row] | heading)
     | content | contents | text",
);

/// Phrases before a file that mean all of its text.
pub const WHOLE_OF: Phrases = Phrases::new(
    "[the] contents of | the content of | the text of | [all] the text in | everything (in | out of)
     | all (in | of)",
);

/// Words that open a description of a quoted text.
const DETERMINERS: &[&str] = &["the", "a", "an", "this", "my", "our"];

/// Stand-ins that point at something unsaid: not content on their own.
const PRONOUNS: &[&str] = &["it", "that", "this", "them", "him", "her", "something"];

/// Words that, alone, mean no text at all ("replace milk with nothing").
const NOTHING: Phrases = Phrases::new("nothing | empty | blank | (an | the) empty string");

/// Whether `words` are said as text to the letter: quoted, or after a
/// word naming text ("the word milk").
pub fn said_as_text(words: Words<'_>) -> bool {
    words.is_quoted() || words.after_any(TEXT_NOUNS).is_some()
}

/// Whether unquoted `words` mean no text at all.
pub fn is_nothing(words: Words<'_>) -> bool {
    words.after_any(NOTHING).is_some_and(Words::is_empty)
}

/// The text a run of words says, or `None` when it says nothing usable.
pub fn text(words: Words<'_>) -> Option<String> {
    let words = placed_before(words);
    let words = match words.after_any(TEXT_NOUNS) {
        Some(rest) if !rest.is_empty() => rest,
        _ => words,
    };
    // "the idea \"solar kettle\"": what is quoted, not what it is called.
    let words = match (words.len(), words.get(words.len().saturating_sub(1))) {
        (2..=3, Some(last)) if last.quoted && DETERMINERS.contains(&words.key(0)) => {
            words.from(words.len() - 1)
        }
        _ => words,
    };
    let words = quoted_in_frame(words);
    let pronoun = words.len() == 1 && PRONOUNS.contains(&words.key(0));
    // "jot down: call mom, in todo.txt": the comma closed the clause.
    let literal = |words: Words<'_>| match words.is_quoted() {
        true => words.literal(),
        false => {
            let text = words.literal();
            let text = text.trim_end_matches([',', ';']);
            match words.task_box_before() {
                Some(task) => alloc::format!("{task} {text}"),
                None => String::from(text),
            }
        }
    };
    (!words.is_empty() && !pronoun).then(|| literal(words))
}

/// "inside 'Anna Monday morning'", "'Lamp, flex frayed' as the first
/// line": one quoted text among words that only say where it goes is the
/// text, to the letter.
fn quoted_in_frame(words: Words<'_>) -> Words<'_> {
    const FRAME: &[&str] = &[
        "inside", "in", "into", "it", "as", "the", "a", "its", "first", "last", "top", "line",
        "of", "file", "text", "saying", "with", "only", "on", "please", "thanks",
    ];
    let mut quoted = (0..words.len()).filter(|&i| words.get(i).is_some_and(|w| w.quoted));
    match (quoted.next(), quoted.next()) {
        (Some(at), None)
            if words.len() > 1
                && (0..words.len())
                    .filter(|&i| i != at)
                    .all(|i| FRAME.contains(&words.key(i))) =>
        {
            words.range(at, at + 1)
        }
        _ => words,
    }
}

/// "write inside: window sticks": the place said before a colon is not
/// the text.
fn placed_before(words: Words<'_>) -> Words<'_> {
    const PLACES: Phrases =
        Phrases::new("inside | in it | into it | in there | there | in the file");
    match words.after_any(PLACES) {
        Some(rest)
            if !rest.is_empty() && words.raw(words.len() - rest.len() - 1).ends_with(':') =>
        {
            rest
        }
        _ => words,
    }
}

/// Text to look for: like [`text`], but never empty, since an empty pattern
/// matches everywhere.
pub fn needle(words: Words<'_>) -> Option<String> {
    text(words).filter(|needle| !needle.is_empty())
}

/// `text` without the question mark a question put after it ("… said hello?").
pub fn unasked(text: String) -> String {
    match text.strip_suffix('?') {
        Some(bare) => String::from(bare.trim_end()),
        None => text,
    }
}
