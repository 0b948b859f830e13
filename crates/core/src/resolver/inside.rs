//! The ask inside a longer sentence: "the party moved, so in party.txt please
//! replace saturday with sunday", "ugh that draft was awful, just trash
//! draft.txt", "In contacts.txt Anna has a new number: replace 555-0101 with
//! 555-0199", "so I was thinking, could you read todo.txt for me because …".
//!
//! For a sentence nothing claims whole, the stretches between clause
//! boundaries (punctuation, a dash, a linking word, an asking opener, the
//! reasons after an ask) are candidate readings. Each is read alone, longest
//! first; a stretch that names no file is read again in the file an earlier
//! clause named. What is found is a guess, never sure: a change is asked
//! first, a look says what it took the request to be.

use super::name::first_file;
use super::phrases::Phrases;
use super::text::{self, Words};
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

/// Words that open a new clause, and may start the ask.
const LINKS: &[&str] = &["so", "and", "but", "then", "ok", "okay", "anyway"];

/// Words that open an ask inside a sentence ("…, could you read …").
const OPENERS: Phrases = Phrases::new(
    "(could | can | would | will) you | please | i (need | want) you to
     | i would like you to | go ahead and | you (could | can)",
);

/// Words that close the ask and start the reasons after it.
const REASONS: Phrases = Phrases::new(
    "because | since | as (i | we) | so that | cause | but | (i | we) do not
     | i no longer | it is not | before | when | while | if",
);

/// Remarks after a clause's stop that comment on the ask instead of
/// continuing it ("…, that'd be great", "…, and that's it", "…, he'll be
/// upset otherwise"): no stretch read runs across one.
const REMARKS: Phrases = Phrases::new(
    "that'd | that (would | will do) | [and] that is (it | all) | it would be | it'd
     | he'll | she'll | they'll | (he | she | they) will | i would appreciate
     | much appreciated",
);

/// Punctuation that closes a clause when it ends a word.
const STOPS: &[char] = &[',', ';', ':', '.', '?', '!'];

/// Dashes that stand between clauses as words of their own.
const DASHES: &[char] = &['—', '–', '-'];

/// The most boundaries looked at on each side, and the most words a
/// stretch read alone may have (one request is short): bounded work
/// whatever the sentence's length.
const MOST: usize = 8;
const LONGEST: usize = 40;

/// The first reading `read` finds in a stretch of `text` (see the module
/// doc), with the stretch read; none from a stretch that what follows it
/// takes back (`takes_back`: "…, no wait, don't").
pub fn ask<T>(
    text: &str,
    takes_back: impl Fn(&str) -> bool,
    read: impl Fn(&str) -> Option<T>,
) -> Option<(T, String)> {
    let split = text::split(text);
    let words = Words::new(text, &split);
    let n = words.len();
    if n < 2 {
        return None;
    }
    let (starts, ends) = boundaries(words);
    let remarks: Vec<usize> = (1..n)
        .filter(|&at| words.raw(at - 1).ends_with(STOPS))
        .filter(|&at| words.from(at).after_any(REMARKS).is_some())
        .collect();
    let mut spans: Vec<(usize, usize)> = starts
        .iter()
        .flat_map(|&s| ends.iter().map(move |&e| (s, e)))
        .filter(|&(s, e)| e > s && e - s <= LONGEST && (s, e) != (0, n))
        .filter(|&(s, e)| !remarks.iter().any(|&r| s < r && r < e))
        .collect();
    // Longest first; of two as long, the later (the ask comes after its
    // preamble more often than before its reasons).
    spans.sort_by_key(|&(s, e)| (core::cmp::Reverse(e - s), core::cmp::Reverse(s)));
    let stretch = |(s, e): (usize, usize)| {
        let (start, _) = words.offsets(s)?;
        let (_, end) = words.offsets(e - 1)?;
        (!takes_back(&text[end..])).then(|| text[start..end].trim_end_matches([',', ';', ':']))
    };
    let found = spans.iter().find_map(|&span| {
        let said = stretch(span)?;
        read(said).map(|t| (t, String::from(said)))
    });
    found.or_else(|| {
        spans.iter().find_map(|&(s, e)| {
            let file = first_file(words.to(s))?;
            let said = format!("in \"{file}\", {}", stretch((s, e))?);
            read(&said).map(|t| (t, said))
        })
    })
}

/// Word indexes where a clause may start, and where one may end.
fn boundaries(words: Words<'_>) -> (Vec<usize>, Vec<usize>) {
    let n = words.len();
    let mut starts = alloc::vec![0];
    let mut ends = Vec::new();
    for at in 1..n {
        let stop = words.raw(at - 1).ends_with(STOPS);
        let dash = words.gap_after(at - 1).contains(DASHES);
        let link = LINKS.contains(&words.key(at));
        let opener = words.from(at).after_any(OPENERS).is_some();
        let reason = words.from(at).after_any(REASONS).is_some();
        if stop || dash || link || opener {
            starts.push(at);
        }
        if stop || dash || link || reason {
            ends.push(at);
        }
    }
    starts.truncate(MOST);
    ends.truncate(MOST - 1);
    ends.push(n);
    (starts, ends)
}

/// Whether a remark after a request takes it back ("no wait", "actually
/// don't"); "I don't need it anymore" gives a reason instead.
pub(super) fn takes_back(aside: &str) -> bool {
    const TAKES_BACK: &[&str] = &[
        "no", "not", "don't", "dont", "wait", "actually", "never", "cancel", "stop", "instead",
    ];
    let words: Vec<String> = aside
        .split_whitespace()
        .map(|w| {
            w.trim_matches(|c: char| !c.is_alphanumeric() && c != '\'')
                .to_lowercase()
        })
        .collect();
    words.iter().enumerate().any(|(at, w)| {
        // "never gonna happen" and "I haven't actually read it" give a
        // reason; "never mind" and "actually, don't" take the request back.
        // "it's not packed after all" says how things are: a reason too.
        let said_so = match w.as_str() {
            "never" => words.get(at + 1).is_some_and(|next| next == "mind"),
            "actually" => at == 0,
            "not" => !at
                .checked_sub(1)
                .is_some_and(|before| STATING.contains(&words[before].as_str())),
            _ => true,
        };
        said_so
            && TAKES_BACK.contains(&w.as_str())
            && !words[at + 1..]
                .iter()
                .take(2)
                .any(|next| NO_LONGER_WANTED.contains(&next.as_str()))
    })
}

/// Words before "not" that say how something is, not what to do.
const STATING: &[&str] = &[
    "it's", "its", "is", "was", "are", "were", "that's", "they're", "we're", "he's", "she's",
];

/// Verbs after a negation that give a reason rather than take the request
/// back ("I don't need it anymore", "we no longer use it").
const NO_LONGER_WANTED: &[&str] = &["need", "want", "use", "care", "like", "needed", "used"];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stretches_are_read_longest_first_and_never_whole() {
        let never = |_: &str| false;
        let read = |said: &str| said.starts_with("read").then(|| String::from(said));
        assert_eq!(
            ask("ok so, read todo.txt because I forgot", never, read).map(|(_, s)| s),
            Some(String::from("read todo.txt because I forgot"))
        );
        assert_eq!(
            ask("read todo.txt", never, read),
            None,
            "the whole was read before"
        );
        assert_eq!(
            ask(
                "read todo.txt, no wait",
                |after: &str| after.contains("wait"),
                read
            ),
            None,
            "taken back"
        );
        assert_eq!(
            ask(
                "In todo.txt there is a typo: read it",
                never,
                |said: &str| said.starts_with("in \"todo.txt\", read").then_some(())
            ),
            Some(((), String::from("in \"todo.txt\", read it")))
        );
    }
}
