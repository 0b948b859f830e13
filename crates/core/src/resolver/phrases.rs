//! Phrase templates: a table of phrasings written once, as one string.
//!
//! A template is words separated by spaces, with two kinds of group, which nest:
//! - `(a | b c)`: exactly one of the alternatives;
//! - `[a b]`: the words, or nothing.
//!
//! A table is one template whose top-level alternatives are its phrasings; it
//! may span lines. `"as | so [that] it [only] (contains | says) | with"` is
//! the ten phrasings "as", "so that it only contains", …, "with".
//!
//! Words are matching keys ([`super::text`]): lower case, with contractions
//! spelled out ("what is", never "what's"). [`Phrases::new`] checks a template
//! when the constant is built, so a malformed one (a bracket left open or
//! closed twice, an empty alternative, a word no key can equal) fails the
//! build: declare every table as a `const`, and write one used in place as
//! `phrases!("in | inside")`.
//!
//! Matching walks the template itself against the run of keys, backtracking
//! through the groups without allocating. From the front the longest phrasing
//! wins (`Words::after_any`, `trim_start`; over a tagged table's rows,
//! `after_tagged`); from the back, `trim_end` drops the *first* phrasing in the
//! template's order that the run ends with, so there order is meaning.
//! [`Phrases::expand`] lists every phrasing, for tests, help and a speech grammar.

use super::text::{CONTRACTIONS, HESITATIONS, LEADING_PUNCT, TRAILING_PUNCT, Words};
use alloc::string::String;
use alloc::vec::Vec;

/// A template checked where it stands in code: `phrases!("in | inside")`.
macro_rules! phrases {
    ($template:literal) => {
        const { $crate::resolver::phrases::Phrases::new($template) }
    };
}
pub(crate) use phrases;

/// A run of matching keys.
pub trait Keys {
    /// Key `i`, or `None` past the end.
    fn key_at(&self, i: usize) -> Option<&str>;
}

impl Keys for Words<'_> {
    fn key_at(&self, i: usize) -> Option<&str> {
        self.get(i).map(|w| w.key.as_str())
    }
}

impl Keys for [String] {
    fn key_at(&self, i: usize) -> Option<&str> {
        self.get(i).map(String::as_str)
    }
}

/// The tag and length of the longest phrasing of `table` that `keys` begin
/// with and `keep` accepts; of equals, the last row's.
pub fn tagged<T: Copy, K: Keys + ?Sized>(
    table: &[(Phrases, T)],
    keys: &K,
    keep: impl Fn(usize) -> bool,
) -> Option<(T, usize)> {
    table
        .iter()
        .filter_map(|(phrases, tag)| Some((*tag, phrases.longest_where(keys, &keep)?)))
        .max_by_key(|(_, n)| *n)
}

/// A checked phrase template (see the module doc).
#[derive(Clone, Copy, Debug)]
pub struct Phrases {
    template: &'static str,
    /// The words a phrasing may begin with, as bits of [`Firsts`]: most runs
    /// a table is tried on begin with none of them, and are turned away here.
    firsts: Firsts,
}

/// Why a template is malformed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// A group closed that was not open, or closed by the other bracket.
    Unopened,
    /// A group still open at the end.
    Unclosed,
    /// An alternative (or a whole group, or the template) with no words.
    EmptyAlternative,
    /// Groups nested deeper than anyone reads.
    TooDeep,
    /// A word no key equals: with a capital letter or with punctuation the
    /// splitter strips, a contraction it spells out, a hesitation it drops.
    NotAKey,
}

impl Fault {
    const fn message(self) -> &'static str {
        match self {
            Fault::Unopened => "phrase template: a bracket closes a group that is not open",
            Fault::Unclosed => "phrase template: a group is not closed",
            Fault::EmptyAlternative => "phrase template: an alternative has no words",
            Fault::TooDeep => "phrase template: groups nest too deep",
            Fault::NotAKey => {
                "phrase template: no key equals a word (capital, punctuation, contraction, hesitation)"
            }
        }
    }
}

/// How deep groups may nest.
const MAX_DEPTH: usize = 8;

const fn is_space(b: u8) -> bool {
    b.is_ascii_whitespace()
}

const fn is_special(b: u8) -> bool {
    matches!(b, b'(' | b')' | b'[' | b']' | b'|')
}

/// The end of the word starting at `at`.
const fn word_end(t: &[u8], mut at: usize) -> usize {
    while at < t.len() && !is_space(t[at]) && !is_special(t[at]) {
        at += 1;
    }
    at
}

const fn same(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// Whether the ASCII byte `b` is one of `set`.
const fn among(b: u8, set: &[char]) -> bool {
    let mut i = 0;
    while i < set.len() {
        if b.is_ascii() && set[i] as u32 == b as u32 {
            return true;
        }
        i += 1;
    }
    false
}

/// Whether `word` is in `list`.
const fn listed(word: &[u8], list: &[&str]) -> bool {
    let mut i = 0;
    while i < list.len() {
        if same(word, list[i].as_bytes()) {
            return true;
        }
        i += 1;
    }
    false
}

/// Whether some key could equal `word` (see [`Fault::NotAKey`]).
const fn is_key(word: &[u8]) -> bool {
    let mut i = 0;
    while i < word.len() {
        if word[i].is_ascii_uppercase() {
            return false;
        }
        i += 1;
    }
    let mut c = 0;
    while c < CONTRACTIONS.len() {
        if same(word, CONTRACTIONS[c].0.as_bytes()) {
            return false;
        }
        c += 1;
    }
    !among(word[0], LEADING_PUNCT)
        && !among(word[word.len() - 1], TRAILING_PUNCT)
        && !listed(word, HESITATIONS)
}

impl Phrases {
    /// The template, checked; a malformed one stops the build of the constant.
    pub const fn new(template: &'static str) -> Phrases {
        match Phrases::check(template) {
            Ok(()) => Phrases {
                template,
                firsts: Firsts::of(template.as_bytes()),
            },
            Err(fault) => panic!("{}", fault.message()),
        }
    }

    /// Whether `template` is well formed (see [`Fault`]).
    pub const fn check(template: &str) -> Result<(), Fault> {
        let t = template.as_bytes();
        let mut open = [0u8; MAX_DEPTH];
        let mut depth = 0;
        // Whether the alternative being read has a word or a group yet.
        let mut filled = false;
        let mut at = 0;
        while at < t.len() {
            let b = t[at];
            if is_space(b) {
                at += 1;
                continue;
            }
            match b {
                b'(' | b'[' => {
                    if depth == MAX_DEPTH {
                        return Err(Fault::TooDeep);
                    }
                    open[depth] = b;
                    depth += 1;
                    filled = false;
                }
                b')' | b']' => {
                    let opener = if b == b')' { b'(' } else { b'[' };
                    if depth == 0 || open[depth - 1] != opener {
                        return Err(Fault::Unopened);
                    }
                    if !filled {
                        return Err(Fault::EmptyAlternative);
                    }
                    depth -= 1;
                    filled = true;
                }
                b'|' => {
                    if !filled {
                        return Err(Fault::EmptyAlternative);
                    }
                    filled = false;
                }
                _ => {
                    let end = word_end(t, at);
                    let (word, _) = t.split_at(end);
                    let (_, word) = word.split_at(at);
                    if !is_key(word) {
                        return Err(Fault::NotAKey);
                    }
                    filled = true;
                    at = end;
                    continue;
                }
            }
            at += 1;
        }
        if depth > 0 {
            return Err(Fault::Unclosed);
        }
        if !filled {
            return Err(Fault::EmptyAlternative);
        }
        Ok(())
    }

    /// The number of keys of the longest phrasing `keys` begin with.
    pub fn longest<K: Keys + ?Sized>(self, keys: &K) -> Option<usize> {
        self.longest_where(keys, |_| true)
    }

    /// Like [`Phrases::longest`], among the phrasings whose length `keep` accepts.
    pub fn longest_where<K: Keys + ?Sized>(
        self,
        keys: &K,
        keep: impl Fn(usize) -> bool,
    ) -> Option<usize> {
        if !self.firsts.may_begin(keys.key_at(0)) {
            return None;
        }
        let mut best = None;
        self.each_prefix(keys, &mut |n| {
            if keep(n) {
                best = best.max(Some(n));
            }
        });
        best
    }

    /// The number of keys of the first phrasing, in the template's order,
    /// that `words` end with.
    pub fn first_suffix(self, words: Words<'_>) -> Option<usize> {
        let mut found = None;
        self.spell(&mut |said| {
            let mut n = 0;
            let mut node = said;
            while let Some(spelled) = node {
                if n == words.len() || words.key(words.len() - 1 - n) != spelled.word {
                    return false;
                }
                n += 1;
                node = spelled.before;
            }
            // An empty phrasing ends every run and trims nothing.
            found = Some(n).filter(|&n| n > 0);
            found.is_some()
        });
        found
    }

    /// Calls `found` with the length of each phrasing `keys` begin with.
    fn each_prefix<K: Keys + ?Sized>(self, keys: &K, found: &mut dyn FnMut(usize)) {
        let mut at = 0;
        loop {
            Matcher {
                t: self.template,
                keys,
                found: &mut *found,
            }
            .seq(at, 0, None);
            match bar(self.template.as_bytes(), at) {
                Some(next) => at = next + 1,
                None => return,
            }
        }
    }

    /// Every phrasing, in the template's order (an optional group's words
    /// before their absence).
    pub fn expand(self) -> Vec<Vec<&'static str>> {
        let mut all = Vec::new();
        self.spell(&mut |said| {
            let mut phrase = Vec::new();
            let mut node = said;
            while let Some(spelled) = node {
                phrase.push(spelled.word);
                node = spelled.before;
            }
            phrase.reverse();
            all.push(phrase);
            false
        });
        all
    }

    /// Calls `each` with every phrasing in order, until it returns true.
    fn spell(self, each: &mut dyn FnMut(Option<&Spelled<'_>>) -> bool) {
        let mut at = 0;
        loop {
            if (Speller {
                t: self.template,
                each: &mut *each,
            })
            .seq(at, None, None)
            {
                return;
            }
            match bar(self.template.as_bytes(), at) {
                Some(next) => at = next + 1,
                None => return,
            }
        }
    }
}

/// The last word of a phrasing being spelled out, and the words before it.
struct Spelled<'s> {
    word: &'static str,
    before: Option<&'s Spelled<'s>>,
}

struct Speller<'m> {
    t: &'static str,
    each: &'m mut dyn FnMut(Option<&Spelled<'_>>) -> bool,
}

impl Speller<'_> {
    /// Spells the alternative from template byte `at` after `said`, then
    /// whatever follows the groups it is in; true once `each` has said stop.
    fn seq(
        &mut self,
        mut at: usize,
        said: Option<&Spelled<'_>>,
        frame: Option<&Frame<'_>>,
    ) -> bool {
        let t = self.t.as_bytes();
        while at < t.len() && is_space(t[at]) {
            at += 1;
        }
        match t.get(at) {
            None | Some(b'|' | b')' | b']') => match frame {
                None => (self.each)(said),
                Some(f) => self.seq(f.close + 1, said, f.up),
            },
            Some(&open @ (b'(' | b'[')) => {
                let close = close_of(t, at);
                let inner = Frame { close, up: frame };
                let mut alt = at + 1;
                loop {
                    if self.seq(alt, said, Some(&inner)) {
                        return true;
                    }
                    match bar(t, alt) {
                        Some(next) => alt = next + 1,
                        None => break,
                    }
                }
                open == b'[' && self.seq(close + 1, said, frame)
            }
            Some(_) => {
                let end = word_end(t, at);
                let spelled = Spelled {
                    word: &self.t[at..end],
                    before: said,
                };
                self.seq(end, Some(&spelled), frame)
            }
        }
    }
}

/// The group a matched alternative returns to: matching goes on after its
/// closing bracket, then after the group around it.
struct Frame<'f> {
    close: usize,
    up: Option<&'f Frame<'f>>,
}

struct Matcher<'m, K: ?Sized> {
    t: &'static str,
    keys: &'m K,
    found: &'m mut dyn FnMut(usize),
}

impl<K: Keys + ?Sized> Matcher<'_, K> {
    /// Matches the alternative from template byte `at` against the keys from
    /// `i`, then whatever follows the groups it is in.
    fn seq(&mut self, mut at: usize, mut i: usize, frame: Option<&Frame<'_>>) {
        let t = self.t.as_bytes();
        loop {
            while at < t.len() && is_space(t[at]) {
                at += 1;
            }
            match t.get(at) {
                None | Some(b'|' | b')' | b']') => {
                    match frame {
                        None => (self.found)(i),
                        Some(f) => self.seq(f.close + 1, i, f.up),
                    }
                    return;
                }
                Some(&open @ (b'(' | b'[')) => {
                    let close = close_of(t, at);
                    if open == b'[' {
                        self.seq(close + 1, i, frame);
                    }
                    let inner = Frame { close, up: frame };
                    let mut alt = at + 1;
                    loop {
                        self.seq(alt, i, Some(&inner));
                        match bar(t, alt) {
                            Some(next) => alt = next + 1,
                            None => return,
                        }
                    }
                }
                Some(_) => {
                    let end = word_end(t, at);
                    if self.keys.key_at(i) != Some(&self.t[at..end]) {
                        return;
                    }
                    at = end;
                    i += 1;
                }
            }
        }
    }
}

/// A set of words kept as bits of their hashes: it may say yes to a word
/// not in it, never no to one that is.
#[derive(Clone, Copy, Debug)]
struct Firsts([u64; 4]);

impl Firsts {
    /// The words that may begin a phrasing of the (checked) template `t`;
    /// every word when a phrasing may be empty.
    const fn of(t: &[u8]) -> Firsts {
        let mut set = Firsts([0; 4]);
        let mut at = 0;
        loop {
            if set.add_leading(t, at) {
                return Firsts([u64::MAX; 4]);
            }
            match bar(t, at) {
                Some(next) => at = next + 1,
                None => return set,
            }
        }
    }

    /// Adds the words that may begin the alternative from `at` (and what
    /// follows it where it may be empty); whether all of it may be empty.
    const fn add_leading(&mut self, t: &[u8], mut at: usize) -> bool {
        loop {
            while at < t.len() && is_space(t[at]) {
                at += 1;
            }
            if at == t.len() || matches!(t[at], b'|' | b')' | b']') {
                return true;
            }
            if !matches!(t[at], b'(' | b'[') {
                let (word, _) = t.split_at(word_end(t, at));
                let (_, word) = word.split_at(at);
                self.add(word);
                return false;
            }
            let mut empty = t[at] == b'[';
            let mut alt = at + 1;
            loop {
                if self.add_leading(t, alt) {
                    empty = true;
                }
                match bar(t, alt) {
                    Some(next) => alt = next + 1,
                    None => break,
                }
            }
            if !empty {
                return false;
            }
            at = close_of(t, at) + 1;
        }
    }

    const fn bit(word: &[u8]) -> (usize, u64) {
        // FNV-1a.
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
        let mut i = 0;
        while i < word.len() {
            hash = (hash ^ word[i] as u64).wrapping_mul(0x0100_0000_01b3);
            i += 1;
        }
        (((hash >> 6) & 3) as usize, 1 << (hash & 63))
    }

    const fn add(&mut self, word: &[u8]) {
        let (at, bit) = Firsts::bit(word);
        self.0[at] |= bit;
    }

    /// Whether a run beginning with `key` (`None`: an empty run) may match.
    fn may_begin(self, key: Option<&str>) -> bool {
        let (at, bit) = Firsts::bit(key.unwrap_or("").as_bytes());
        self.0 == [u64::MAX; 4] || (key.is_some() && self.0[at] & bit != 0)
    }
}

/// The closing bracket of the group opened at `open`.
const fn close_of(t: &[u8], open: usize) -> usize {
    let mut depth = 0;
    let mut at = open;
    while at < t.len() {
        match t[at] {
            b'(' | b'[' => depth += 1,
            b')' | b']' => {
                depth -= 1;
                if depth == 0 {
                    return at;
                }
            }
            _ => {}
        }
        at += 1;
    }
    t.len()
}

/// The bar after the alternative starting at `from`, if its group has another.
const fn bar(t: &[u8], from: usize) -> Option<usize> {
    let mut depth = 0;
    let mut at = from;
    while at < t.len() {
        match t[at] {
            b'(' | b'[' => depth += 1,
            b')' | b']' if depth == 0 => return None,
            b')' | b']' => depth -= 1,
            b'|' if depth == 0 => return Some(at),
            _ => {}
        }
        at += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resolver::text::split;

    fn phrasings(template: &'static str) -> Vec<String> {
        Phrases::new(template)
            .expand()
            .iter()
            .map(|p| p.join(" "))
            .collect()
    }

    #[test]
    fn groups_and_options_expand_in_order() {
        assert_eq!(
            phrasings("so [that] it (says | reads) | with"),
            [
                "so that it says",
                "so that it reads",
                "so it says",
                "so it reads",
                "with"
            ]
        );
        assert_eq!(
            phrasings("a [b (c | d [e])]\n  | f"),
            ["a b c", "a b d e", "a b d", "a", "f"]
        );
    }

    #[test]
    fn malformed_templates_are_faults() {
        let fault = |t| Phrases::check(t).err();
        assert_eq!(fault("a (b | c"), Some(Fault::Unclosed));
        assert_eq!(fault("a b) c"), Some(Fault::Unopened));
        assert_eq!(fault("a (b ] c"), Some(Fault::Unopened));
        assert_eq!(fault("a | | b"), Some(Fault::EmptyAlternative));
        assert_eq!(fault("a | b |"), Some(Fault::EmptyAlternative));
        assert_eq!(fault("a (b | ) c"), Some(Fault::EmptyAlternative));
        assert_eq!(fault("a [] c"), Some(Fault::EmptyAlternative));
        assert_eq!(fault(" "), Some(Fault::EmptyAlternative));
        assert_eq!(fault("((((((((((a))))))))))"), Some(Fault::TooDeep));
        assert_eq!(fault("so it Says"), Some(Fault::NotAKey));
        assert_eq!(fault("what's there"), Some(Fault::NotAKey));
        assert_eq!(fault("'cause"), Some(Fault::NotAKey));
        assert_eq!(fault("done."), Some(Fault::NotAKey));
        assert_eq!(fault("um so"), Some(Fault::NotAKey));
        // The positive control: the same shapes, well formed.
        assert_eq!(fault("a (b | c)"), None);
        assert_eq!(fault("a [b] c | (d [e | f])"), None);
        assert_eq!(fault("what is there"), None);
        assert_eq!(fault("it'd -> so"), None);
    }

    /// What every way of matching finds: the lengths of the phrasings the
    /// text begins with, longest first.
    fn prefixes(template: &'static str, text: &str) -> Vec<usize> {
        let list = split(text);
        let mut found = Vec::new();
        Phrases::new(template).each_prefix(&Words::new(text, &list), &mut |n| found.push(n));
        found.sort_unstable_by(|a, b| b.cmp(a));
        found.dedup();
        found
    }

    #[test]
    fn matching_agrees_with_the_expansion() {
        let template = "so [that] it [only] (contains | says) | so | with [the] (text | words)
            | a [b] [b c] | [(x | [y] z)] w";
        for text in [
            "so that it only says hi",
            "so it says",
            "so that it",
            "with the words x",
            "with words",
            "a b c d",
            "a b b c",
            "b",
            "x w",
            "y z w",
            "z w",
            "w",
            "y w",
            "",
        ] {
            let keys: Vec<String> = split(text).iter().map(|w| w.key.clone()).collect();
            let mut expected: Vec<usize> = Phrases::new(template)
                .expand()
                .iter()
                .filter(|p| {
                    keys.starts_with(&p.iter().map(|w| String::from(*w)).collect::<Vec<_>>())
                })
                .map(|p| p.len())
                .collect();
            expected.sort_unstable_by(|a, b| b.cmp(a));
            expected.dedup();
            assert_eq!(prefixes(template, text), expected, "{text}");
            // The first-word filter turns away no run a phrasing begins.
            let list = split(text);
            let longest = Phrases::new(template).longest(&Words::new(text, &list));
            assert_eq!(longest, expected.first().copied(), "{text}");
        }
    }

    #[test]
    fn a_template_that_may_say_nothing_matches_every_run() {
        let list = split("zzz");
        let words = Words::new("zzz", &list);
        assert_eq!(Phrases::new("[a] | b").longest(&words), Some(0));
        assert_eq!(Phrases::new("[a] | b").longest(&words.to(0)), Some(0));
        // The positive control's opposite: a template that must say something.
        assert_eq!(Phrases::new("a | b").longest(&words), None);
        assert_eq!(Phrases::new("a | b").longest(&words.to(0)), None);
    }

    #[test]
    fn longest_prefix_and_first_suffix() {
        let p = Phrases::new("in it | it | into it | is (in | inside) there");
        let text = "hello in it";
        let list = split(text);
        let words = Words::new(text, &list);
        assert_eq!(p.longest(&words.from(1)), Some(2));
        assert_eq!(p.longest(&words), None);
        // The first phrasing in order wins at the end: "in it" before "it".
        assert_eq!(p.first_suffix(words), Some(2));
        assert_eq!(Phrases::new("it | in it").first_suffix(words), Some(1));
        assert_eq!(p.first_suffix(words.to(2)), None);
    }
}
