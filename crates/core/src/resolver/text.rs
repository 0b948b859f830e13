//! Words: the utterance split into matchable keys that remember where they came from.
//!
//! Families match on lower-case keys, but names and content are cut from the
//! original text by byte span, so the speaker's spelling, spacing and case survive.
//! A quoted stretch ("…", '…', “…”, ‘…’, «…») is one word whose key matches no
//! keyword, so quoted content is always taken literally.

use super::phrases::{self, Phrases};
use alloc::string::String;
use alloc::vec::Vec;

/// One word of the utterance.
#[derive(Clone, Debug)]
pub struct Word<'t> {
    /// Byte span in the utterance, including quotes and glued punctuation.
    start: usize,
    end: usize,
    /// The word without surrounding punctuation or quotes, as spoken.
    pub inner: &'t str,
    /// Lower-case matching key; empty for quoted words.
    pub key: String,
    pub quoted: bool,
}

/// Punctuation that may open an unquoted word without being part of it.
pub(super) const LEADING_PUNCT: &[char] = &[
    '(', '[', '{', '"', '\'', '“', '‘', '«', '¿', '¡', '*', '`', '—', '–',
];
/// Punctuation that may close an unquoted word without being part of it.
pub(super) const TRAILING_PUNCT: &[char] = &[
    ',', ';', ':', '!', '?', '.', ')', ']', '}', '"', '\'', '”', '’', '»', '…', '*', '`', '—', '–',
];
/// Punctuation that may follow a closing quote.
const AFTER_QUOTE: &[char] = &[',', ';', ':', '!', '?', '.', ')', ']'];

/// Contractions spelled out, so tables need only one spelling ("what is").
pub(super) const CONTRACTIONS: &[(&str, &[&str])] = &[
    ("what's", &["what", "is"]),
    ("whats", &["what", "is"]),
    ("where's", &["where", "is"]),
    ("who's", &["who", "is"]),
    ("that's", &["that", "is"]),
    ("it's", &["it", "is"]),
    ("there's", &["there", "is"]),
    ("here's", &["here", "is"]),
    ("i'd", &["i", "would"]),
    ("you're", &["you", "are"]),
    ("i'm", &["i", "am"]),
    ("i've", &["i", "have"]),
    ("let's", &["let", "us"]),
    ("lets", &["let", "us"]),
    ("don't", &["do", "not"]),
    ("didn't", &["did", "not"]),
    ("doesn't", &["does", "not"]),
    ("isn't", &["is", "not"]),
    ("what're", &["what", "are"]),
    ("wanna", &["want", "to"]),
    ("lemme", &["let", "me"]),
    ("gimme", &["give", "me"]),
    // Texting spellings.
    ("u", &["you"]),
    ("pls", &["please"]),
    ("plz", &["please"]),
    ("w/", &["with"]),
];

/// Sounds of hesitation, dropped from the keys (content keeps its own words).
pub(super) const HESITATIONS: &[&str] = &["um", "umm", "uh", "uhh", "er", "erm", "hmm", "mm"];

/// Quote families: the openers and the closers that may end them.
const QUOTES: &[(&[char], &[char])] = &[
    (&['"', '“', '„'], &['"', '”', '“']),
    (&['\'', '‘'], &['\'', '’']),
    (&['«'], &['»']),
];

/// Splits an utterance into words (see the module doc).
pub fn split(text: &str) -> Vec<Word<'_>> {
    let mut words = Vec::new();
    // Per quote family: a position from which no closer exists, so failed
    // searches are never repeated and splitting stays linear.
    let mut no_closer_from = [usize::MAX; QUOTES.len()];
    let mut at = 0;
    while let Some((start, first)) = next_non_space(text, at) {
        let quoted = QUOTES
            .iter()
            .position(|(open, _)| open.contains(&first))
            .filter(|&family| start < no_closer_from[family])
            .and_then(|family| {
                let found = closing_quote(text, start + first.len_utf8(), QUOTES[family].1);
                if found.is_none() {
                    no_closer_from[family] = start;
                }
                found
            });
        at = match quoted {
            Some((close, after)) => {
                let end = glued_end(text, after);
                words.push(quoted_word(text, start, close, end, first));
                end
            }
            None => {
                let end = word_end(text, start);
                push_plain(&mut words, text, start, end);
                end
            }
        };
    }
    words
}

fn next_non_space(text: &str, from: usize) -> Option<(usize, char)> {
    text[from..]
        .char_indices()
        .find(|(_, c)| !c.is_whitespace())
        .map(|(i, c)| (from + i, c))
}

fn word_end(text: &str, from: usize) -> usize {
    text[from..]
        .char_indices()
        .find(|(_, c)| c.is_whitespace())
        .map_or(text.len(), |(i, _)| from + i)
}

/// The end of the punctuation glued after a closing quote.
fn glued_end(text: &str, from: usize) -> usize {
    text[from..]
        .char_indices()
        .find(|(_, c)| !AFTER_QUOTE.contains(c))
        .map_or(text.len(), |(i, _)| from + i)
}

/// Finds a closer followed by a word boundary; returns its start and end.
fn closing_quote(text: &str, from: usize, closers: &[char]) -> Option<(usize, usize)> {
    let rest = &text[from..];
    rest.char_indices().find_map(|(i, c)| {
        let after = i + c.len_utf8();
        let boundary = rest[after..]
            .chars()
            .next()
            .is_none_or(|n| n.is_whitespace() || AFTER_QUOTE.contains(&n));
        (closers.contains(&c) && boundary).then_some((from + i, from + after))
    })
}

fn quoted_word(text: &str, start: usize, close: usize, end: usize, opener: char) -> Word<'_> {
    Word {
        start,
        end,
        inner: &text[start + opener.len_utf8()..close],
        key: String::new(),
        quoted: true,
    }
}

/// Pushes an unquoted word, spelling out a contraction as several keys on one span.
fn push_plain<'t>(words: &mut Vec<Word<'t>>, text: &'t str, start: usize, end: usize) {
    let raw = text[start..end].trim_start_matches(LEADING_PUNCT);
    // ".." alone is the folder above, kept so a request for it is refused by
    // name rather than read as the folder itself.
    let inner = match raw.trim_end_matches([',', ';', ':', '?', '!']) {
        ".." => "..",
        _ => raw.trim_end_matches(TRAILING_PUNCT),
    };
    // Hesitations carry nothing, wherever they fall ("make a new file, um, called …").
    // A dash standing alone ("todo.txt - add milk") joins clauses, as "—" does.
    let dash = inner.len() <= 2 && !inner.is_empty() && inner.chars().all(|c| c == '-');
    // A capitalised one inside a sentence is a word of a name ("Mingus Ah Um").
    let hesitation = HESITATIONS.contains(&inner.to_lowercase().as_str())
        && (start == 0 || !inner.starts_with(char::is_uppercase));
    if inner.is_empty() || dash || hesitation {
        return;
    }
    let key = inner.to_lowercase().replace('’', "'");
    let parts: &[&str] = CONTRACTIONS
        .iter()
        .find(|(short, _)| *short == key)
        .map_or(&[], |(_, long)| long);
    let word = |key: String| Word {
        start,
        end,
        inner,
        key,
        quoted: false,
    };
    if parts.is_empty() {
        words.push(word(key));
    } else {
        words.extend(parts.iter().map(|p| word(String::from(*p))));
    }
}

/// Drops the sentence's closing comma, semicolon, colon or single full stop
/// (speech-to-text adds one) from the last word, so content does not carry it.
/// "!" and "?" are kept: they may belong to the content.
pub fn end_sentence(words: &mut [Word<'_>], text: &str) {
    if let Some(last) = words.last_mut() {
        let span = &text[last.start..last.end];
        let mut kept = span.trim_end_matches([',', ';', ':']);
        if !kept.ends_with("..") {
            kept = kept.strip_suffix('.').unwrap_or(kept);
        }
        if !kept.is_empty() {
            last.end = last.start + kept.len();
        }
    }
}

/// Drops a question mark closing the last word: for a request asked as a
/// question ("could you create a.txt that says hi? thanks"), it is the
/// request's, not the content's.
pub fn end_question(words: &mut [Word<'_>], text: &str) {
    if let Some(last) = words.last_mut()
        && let Some(kept) = text[last.start..last.end]
            .strip_suffix('?')
            .filter(|kept| !kept.is_empty())
    {
        last.end = last.start + kept.len();
    }
}

/// A run of words of one utterance: the unit every family matches on.
#[derive(Clone, Copy, Debug)]
pub struct Words<'a> {
    text: &'a str,
    list: &'a [Word<'a>],
}

impl<'a> Words<'a> {
    pub fn new(text: &'a str, list: &'a [Word<'a>]) -> Self {
        Words { text, list }
    }

    pub fn len(self) -> usize {
        self.list.len()
    }

    pub fn is_empty(self) -> bool {
        self.list.is_empty()
    }

    pub fn get(self, i: usize) -> Option<&'a Word<'a>> {
        self.list.get(i)
    }

    /// The matching key of word `i`, or "" past the end.
    pub fn key(self, i: usize) -> &'a str {
        self.list.get(i).map_or("", |w| w.key.as_str())
    }

    pub fn keys(self) -> impl DoubleEndedIterator<Item = &'a str> + ExactSizeIterator {
        self.list.iter().map(|w| w.key.as_str())
    }

    pub fn from(self, i: usize) -> Self {
        self.range(i, self.len())
    }

    pub fn to(self, i: usize) -> Self {
        self.range(0, i)
    }

    /// Words `i..j`, clamped to the run.
    pub fn range(self, i: usize, j: usize) -> Self {
        let j = j.min(self.len());
        Words {
            text: self.text,
            list: &self.list[i.min(j)..j],
        }
    }

    /// Whether the run begins with `phrase` (keys, lower case).
    pub fn starts_with(self, phrase: &[&str]) -> bool {
        phrase.len() <= self.len() && phrase.iter().enumerate().all(|(i, p)| self.key(i) == *p)
    }

    pub fn ends_with(self, phrase: &[&str]) -> bool {
        phrase.len() <= self.len() && self.from(self.len() - phrase.len()).starts_with(phrase)
    }

    /// The longest of `phrases` the run begins with, and the words after it.
    pub fn after_any(self, phrases: Phrases) -> Option<Self> {
        phrases.longest(&self).map(|n| self.from(n))
    }

    /// The words after one of `first` (`true`) or, failing that, after one
    /// of `second` (`false`): an opening that is sure before one that may be.
    pub fn after_either(self, first: Phrases, second: Phrases) -> Option<(bool, Self)> {
        match self.after_any(first) {
            Some(rest) => Some((true, rest)),
            None => self.after_any(second).map(|rest| (false, rest)),
        }
    }

    /// The words before the first place after the start where one of
    /// `phrases` is said, and the words after it: "rota.md | should be
    /// called | rota-2026.md".
    pub fn around(self, phrases: Phrases) -> Option<(Self, Self)> {
        (1..self.len()).find_map(|at| {
            let after = self.from(at).after_any(phrases)?;
            Some((self.to(at), after))
        })
    }

    /// Like [`Words::after_any`] for phrases that carry a tag: the tag of the
    /// longest phrase the run begins with (the last of equals), and the words after it.
    pub fn after_tagged<T: Copy>(self, table: &[(Phrases, T)]) -> Option<(T, Self)> {
        phrases::tagged(table, &self, |_| true).map(|(tag, n)| (tag, self.from(n)))
    }

    /// Like [`Words::after_tagged`] at the end: the tag of the longest phrase
    /// the run ends with (the last of equals), and the words before it.
    pub fn before_tagged<T: Copy>(self, table: &[(Phrases, T)]) -> Option<(T, Self)> {
        (0..self.len()).find_map(|from| {
            let n = self.len() - from;
            let (tag, _) = phrases::tagged(table, &self.from(from), |m| m == n)?;
            Some((tag, self.to(from)))
        })
    }

    /// Drops any of `phrases` from the front, again and again.
    pub fn trim_start(self, phrases: Phrases) -> Self {
        let mut rest = self;
        while let Some(shorter) = rest.after_any(phrases).filter(|r| r.len() < rest.len()) {
            rest = shorter;
        }
        rest
    }

    /// Drops any of `phrases` from the back, again and again: each time the
    /// first in the template's order the run ends with.
    pub fn trim_end(self, phrases: Phrases) -> Self {
        let mut rest = self;
        while let Some(n) = phrases.first_suffix(rest) {
            rest = rest.to(rest.len() - n);
        }
        rest
    }

    /// Word `i` as it stands in the utterance, with glued punctuation.
    pub fn raw(self, i: usize) -> &'a str {
        self.list.get(i).map_or("", |w| &self.text[w.start..w.end])
    }

    /// Where word `i` starts and ends in the utterance, in bytes.
    pub fn offsets(self, i: usize) -> Option<(usize, usize)> {
        self.list.get(i).map(|w| (w.start, w.end))
    }

    /// The text between word `i` and the next (spaces, or a dash standing
    /// alone); empty past the end and between two keys of one contraction.
    pub fn gap_after(self, i: usize) -> &'a str {
        match (self.offsets(i), self.offsets(i + 1)) {
            (Some((_, end)), Some((start, _))) => self.text.get(end..start).unwrap_or(""),
            _ => "",
        }
    }

    /// Whether any word's key is one of `keys`.
    pub fn contains_any(self, keys: &[&str]) -> bool {
        self.keys().any(|k| keys.contains(&k))
    }

    /// The run as spoken: verbatim, or the inside of a lone quoted word.
    pub fn literal(self) -> String {
        match (self.list.first(), self.list.last()) {
            (Some(only), _) if self.is_quoted() => String::from(only.inner),
            (Some(first), Some(last)) => String::from(self.text[first.start..last.end].trim()),
            _ => String::new(),
        }
    }

    /// A task box said just before the run ("with - [ ] lock the door"),
    /// which splitting into words leaves out: `- [ ]`, `- [x]`, `* [ ]`, `[ ]`.
    pub fn task_box_before(self) -> Option<&'a str> {
        let first = self.list.first()?;
        let before = self.text[..first.start].trim_end();
        ["- [ ]", "- [x]", "- [X]", "* [ ]", "* [x]", "[ ]", "[x]"]
            .iter()
            .find(|task| before.ends_with(*task))
            .map(|task| &before[before.len() - task.len()..])
            .filter(|task| {
                let rest = &before[..before.len() - task.len()];
                rest.is_empty() || rest.ends_with(char::is_whitespace)
            })
    }

    /// Whether the run is one quoted word.
    pub fn is_quoted(self) -> bool {
        matches!(self.list, [only] if only.quoted)
    }
}
