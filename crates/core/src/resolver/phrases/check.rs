//! Reading a template when its constant is built: whether it is well formed
//! ([`Fault`]), and the words its phrasings may begin with ([`Firsts`]).

use super::{Phrases, bar, close_of, is_space, word_end};
use crate::resolver::text::{CONTRACTIONS, HESITATIONS, LEADING_PUNCT, TRAILING_PUNCT};

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
    pub(super) const fn message(self) -> &'static str {
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
}

/// A set of words kept as bits of their hashes: it may say yes to a word
/// not in it, never no to one that is.
#[derive(Clone, Copy, Debug)]
pub(super) struct Firsts([u64; 4]);

impl Firsts {
    /// The words that may begin a phrasing of the (checked) template `t`;
    /// every word when a phrasing may be empty.
    pub(super) const fn of(t: &[u8]) -> Firsts {
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
    pub(super) fn may_begin(self, key: Option<&str>) -> bool {
        let (at, bit) = Firsts::bit(key.unwrap_or("").as_bytes());
        self.0 == [u64::MAX; 4] || (key.is_some() && self.0[at] & bit != 0)
    }
}
