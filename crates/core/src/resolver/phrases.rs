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

use super::text::Words;
use alloc::string::String;
use alloc::vec::Vec;
pub use check::Fault;
use check::Firsts;

mod check;

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

    /// The template as written (a JSGF rule body when its slots are rules).
    pub fn template(self) -> &'static str {
        self.template
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
mod tests;
