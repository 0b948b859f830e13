//! Command words typed or heard one or two letters off ("raed", "delte",
//! "serach"): a word that is no command word but is close to exactly one is
//! read as that one, and the sentence read again. The answer is a guess,
//! never sure: a change from it is asked first, with the guess.
//!
//! How close is scaled by length, so short words that collide with real
//! words are never bent: a word of two or three letters only where the
//! request starts, and only as a command word with one letter dropped that
//! is no word of its own ("ad", "lst"); one edit for four or five letters,
//! two for six or more (a swap of two neighbours is one edit). A word close
//! to two command words is left alone. Names (a dot, a slash, a digit) and
//! quoted words are never corrected. The one exception to the real-word
//! rule: a word opening the request right before a file's name ("reed
//! notes.md") is bent, and only to a look.

use alloc::string::String;
use alloc::vec::Vec;

/// The words requests begin with: the first words of the verb families'
/// heads (only words of four letters or more can be corrected to).
const COMMAND_WORDS: &[&str] = &[
    // read
    "read", "print", "dump", "show", "display", "open", "view", "check", // list
    "list", "browse", "enumerate", "files", "folder", "folders", "directory",
    // write and append
    "create", "touch", "make", "generate", "write", "save", "store", "overwrite", "type", "note",
    "record", "append", "insert", "stick", "clear", "empty", // delete
    "delete", "remove", "erase", "trash", "discard", "destroy", "scrap", "unlink", "purge",
    // edit
    "edit", "modify", "update", "replace", "change", "swap", "switch", "correct", "substitute",
    // grep and diff
    "search", "grep", "find", "look", "scan", "diff", "compare", "preview", // undo
    "undo", "revert", "restore", "recover", "undelete", "reverse",
    // tools and extensions
    "tools", "extensions", "execute", "invoke", "apply", "propose", "checksum",
    // organise and lists
    "rename", "move", "copy", "duplicate", "mkdir", "tick", "untick", "uncheck",
];

/// Command words too short to be corrected to, which still open a request.
const SHORT_COMMAND_WORDS: &[&str] = &[
    "add", "put", "cat", "ls", "log", "rm", "set", "fix", "jot", "mv", "cp",
];

/// Whether `key` (lower case) is a word a request begins with.
pub fn is_command_word(key: &str) -> bool {
    COMMAND_WORDS.contains(&key) || SHORT_COMMAND_WORDS.contains(&key)
}

/// Words a command word is never corrected from, though one edit away:
/// ordinary words a request or a remark is made of.
const REAL_WORDS: &[&str] = &[
    "more", "mode", "love", "movie", "moved", "cope", "cosy", "pick", "kick", "sick", "thick",
    "trick", "lick", "tickle", "renamed", "ready", "real", "head", "lead", "road", "reed", "bread",
    "dread", "meal", "deal", "shot", "shop", "slow", "snow", "show", "open", "oven", "over",
    "list", "lost", "last", "lust", "mist", "fist", "wrist", "white", "wrote", "write", "site",
    "note", "nose", "vote", "tone", "done", "none", "save", "same", "safe", "wave", "have", "make",
    "male", "take", "bake", "cake", "lake", "wake", "fake", "sake", "made", "find", "fine", "kind",
    "mind", "wind", "bind", "line", "mine", "five", "fire", "look", "book", "cook", "hook", "took",
    "lock", "loop", "food", "good", "wood", "type", "tape", "typo", "edit", "exit", "diff",
    "differ", "stuff", "staff", "cliff", "scan", "span", "scar", "clean", "clear", "store",
    "stone", "story", "score", "empty", "swap", "swim", "swamp", "check", "cheek", "chick",
    "folder", "holder", "older", "solder", "filter", "files", "flies", "tiles", "miles", "piles",
    "view", "viewed", "record", "regard", "record", "delete", "deleted", "change", "charge",
    "chance", "changed", "update", "updated", "search", "starch", "touch", "tough", "teach",
    "couch", "pouch", "print", "point", "paint", "pint", "dump", "jump", "bump", "pump", "lump",
    "damp", "undo", "undone", "tools", "pools", "fools", "trash", "crash", "brash", "trish",
    "apply", "apple", "reply", "supply", "since", "putt", "parent", "parents", "present",
];

/// `text` with the first word that was a command word a letter or two off
/// read as the one it is closest to, and what was taken for what; `None`
/// when there is nothing to correct. Only one word is bent: the rest may
/// be content ("chnage Bob to Robert" keeps Robert).
pub fn corrected(text: &str) -> Option<(String, Vec<(String, &'static str)>)> {
    let mut taken = Vec::new();
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    // Only the first words: the command comes early, content later.
    let mut words_seen = 0;
    // Whether every word so far was courtesy: the next one opens the request.
    let mut all_courtesy = true;
    // Whether a command word was said whole before this word.
    let mut commanded = false;
    while let Some(start) = rest.find(|c: char| !c.is_whitespace()) {
        out.push_str(&rest[..start]);
        rest = &rest[start..];
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let (word, after) = rest.split_at(end);
        rest = after;
        words_seen += 1;
        let bare = word.trim_matches(|c: char| !c.is_alphanumeric());
        let opening = all_courtesy;
        let key = bare.to_ascii_lowercase();
        all_courtesy = opening && COURTESY.contains(&key.as_str());
        let fixed = match (
            words_seen <= LOOK_AHEAD && taken.is_empty() && !commanded,
            bare.is_empty(),
        ) {
            // A three-letter word is only bent where the request starts.
            (true, false) if !quoted(word) && (bare.len() > 3 || opening) => {
                let named = opening && names_a_file(rest) && !COURTESY.contains(&key.as_str());
                closest(bare, named)
            }
            _ => None,
        };
        match fixed {
            Some(command) => {
                let at = word.find(bare).unwrap_or(0);
                out.push_str(&word[..at]);
                out.push_str(command);
                out.push_str(&word[at + bare.len()..]);
                taken.push((String::from(bare), command));
            }
            None => out.push_str(word),
        }
        // Once a command word is said whole, the words after it are the
        // request's own ("move x to the parent folder" is no "print").
        commanded = commanded || is_command_word(&key);
    }
    out.push_str(rest);
    (!taken.is_empty()).then_some((out, taken))
}

/// Words said before a request opens ("can you lst the files").
const COURTESY: &[&str] = &[
    "please", "can", "could", "would", "will", "you", "just", "so", "ok", "okay", "hey", "uh",
    "um", "now", "then", "and", "pls",
];

/// How many words from the start a command word is looked for in.
const LOOK_AHEAD: usize = 8;

fn quoted(word: &str) -> bool {
    word.starts_with(['"', '\'', '“', '‘', '«'])
}

/// Whether the next word of `rest` is a file's name ("notes.md",
/// "kids/spelling.txt"): a stem, a dot and an extension with a letter.
fn names_a_file(rest: &str) -> bool {
    let next = rest.split_whitespace().next().unwrap_or("");
    let next = next.trim_end_matches(|c: char| !c.is_alphanumeric());
    !next.starts_with('.') && super::name::has_extension(next)
}

/// The command words a word of its own is bent to before a file's name:
/// looks only, so no change is ever proposed from an ordinary word.
const LOOKS: &[&str] = &[
    "read", "print", "show", "display", "open", "view", "list", "cat",
];

/// The one command word `word` is a typo of, if exactly one is close.
/// Where the request opens with it and a file's name follows (`named`:
/// "reed fixtures.md", "rad shifts.md"), a word of its own is bent too, to
/// a look only ([`LOOKS`]): no sentence opens with "reed" and a file's name
/// but as a request to see it, and no change is proposed from a real word.
fn closest(word: &str, named: bool) -> Option<&'static str> {
    closest_to(word, false).or_else(|| {
        (named && word.len() > 2)
            .then(|| closest_to(word, true))
            .flatten()
            .filter(|command| LOOKS.contains(command))
    })
}

/// The one command word `word` is a typo of, a word of its own bent too
/// where `lenient`.
fn closest_to(word: &str, lenient: bool) -> Option<&'static str> {
    if !word.chars().all(|c| c.is_ascii_alphabetic()) {
        return None;
    }
    let lower = word.to_ascii_lowercase();
    if let Some(command) = held_key(&lower) {
        return Some(command);
    }
    let allowed = match lower.len() {
        0 | 1 => return None,
        2 => return dropped_letter(&lower, 3, if lenient { &[] } else { REAL_TWO }),
        3 => return dropped_letter(&lower, 4, if lenient { &[] } else { REAL_THREE }),
        4..=5 => 1,
        _ => 2,
    };
    if COMMAND_WORDS.contains(&lower.as_str()) || (!lenient && REAL_WORDS.contains(&lower.as_str()))
    {
        return None;
    }
    let scored: Vec<(usize, &'static str)> = COMMAND_WORDS
        .iter()
        .filter(|command| !inflected(&lower, command))
        .map(|command| (distance(&lower, command), *command))
        .filter(|(d, _)| *d <= allowed)
        .collect();
    let best = scored.iter().map(|(d, _)| *d).min()?;
    let mut at_best = scored.iter().filter(|(d, _)| *d == best);
    let (_, command) = at_best.next()?;
    at_best.next().is_none().then_some(*command)
}

/// The short command word `word` is with one letter typed twice ("addd");
/// not a word of its own ("putt").
fn held_key(word: &str) -> Option<&'static str> {
    SHORT_COMMAND_WORDS.iter().copied().find(|command| {
        command.len() > 2
            && word.len() == command.len() + 1
            && !REAL_WORDS.contains(&word)
            && (1..word.len()).any(|at| {
                word.as_bytes()[at] == word.as_bytes()[at - 1]
                    && [&word[..at], &word[at + 1..]].concat() == *command
            })
    })
}

/// Three-letter words a four-letter command word loses a letter to, which
/// are words of their own.
const REAL_THREE: &[&str] = &[
    "red", "rad", "rea", "lit", "lis", "let", "set", "see", "sow", "how", "new", "now", "not",
    "net", "nit", "tot", "top", "did", "die", "dye", "ups", "ope", "pen", "one", "ode", "vie",
    "vow", "fin", "fid", "tol", "too", "loo", "lok", "mae", "mak", "ake", "ave", "sae", "sav",
    "tye", "typ", "dup", "dum", "ump", "mud", "duo", "son", "can", "sap", "rep", "ind", "dit",
    "san", "uno", "ape", "ook",
];

/// Two-letter words a dropped letter of a three-letter command word would
/// also spell, said as themselves.
const REAL_TWO: &[&str] = &[
    "at", "lo", "so", "se", "st", "et", "ca", "jo", "fi", "og", "pt",
];

/// The one command word of `len` letters that `word` is with a letter
/// dropped ("lst", "edt", "dif", "nte"; "ad"): the only correction a word
/// of three letters or fewer gets, and none to a word it could be of its
/// own (`real`).
fn dropped_letter(word: &str, len: usize, real: &[&str]) -> Option<&'static str> {
    if real.contains(&word) {
        return None;
    }
    let mut found = COMMAND_WORDS
        .iter()
        .chain(SHORT_COMMAND_WORDS)
        .filter(|command| {
            command.len() == len
                && (0..len).any(|at| {
                    command.is_char_boundary(at)
                        && [&command[..at], &command[at + 1..]].concat() == word
                })
        });
    let command = found.next()?;
    found.next().is_none().then_some(*command)
}

/// Whether `word` is `command` inflected ("notes", "listed") or `command`
/// is `word` made plural ("file" of "files"): another word, not a typo.
fn inflected(word: &str, command: &str) -> bool {
    const ENDINGS: &[&str] = &["s", "es", "d", "ed", "ing", "r", "er"];
    // "-d" and "-r" inflect a stem that ends in "e" ("saved", "writer"):
    // "addd" is a key held too long, not a form of "add".
    let stem_of = |long: &str, short: &str| {
        long.strip_prefix(short).is_some_and(|ending| {
            ENDINGS.contains(&ending) && (!matches!(ending, "d" | "r") || short.ends_with('e'))
        })
    };
    stem_of(word, command) || stem_of(command, word)
}

/// Edits between `a` and `b` (insert, delete, substitute, or swap two
/// neighbours), as optimal string alignment.
pub(super) fn distance(a: &str, b: &str) -> usize {
    let (a, b): (Vec<u8>, Vec<u8>) = (a.bytes().collect(), b.bytes().collect());
    let mut rows = alloc::vec![alloc::vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in rows.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in rows[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (rows[i - 1][j] + 1)
                .min(rows[i][j - 1] + 1)
                .min(rows[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(rows[i - 2][j - 2] + 1);
            }
            rows[i][j] = best;
        }
    }
    rows[a.len()][b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_command_word_a_letter_or_two_off_is_read_as_it() {
        for (typed, meant) in [
            ("raed", "read"),
            ("delte", "delete"),
            ("dleete", "delete"),
            ("serach", "search"),
            ("apend", "append"),
            ("repalce", "replace"),
            ("lsit", "list"),
            ("wirte", "write"),
            ("renmae", "rename"),
            ("mvoe", "move"),
            ("cpoy", "copy"),
            ("addd", "add"),
            ("appendd", "append"),
        ] {
            assert_eq!(closest(typed, false), Some(meant), "{typed}");
        }
    }

    #[test]
    fn short_words_real_words_names_and_ties_are_left_alone() {
        assert_eq!(closest("lst", false), Some("list"));
        assert_eq!(closest("edt", false), Some("edit"));
        assert_eq!(closest("dif", false), Some("diff"));
        for word in [
            "red", "rad", "ready", "real", "wrote", "notes", "the", "todo", "hello", "file",
            "listed", "lit", "see", "how", "one", "more", "movie", "pick", "renamed", "putt",
            "saved", "added",
        ] {
            assert_eq!(closest(word, false), None, "{word}");
        }
        assert_eq!(corrected("raed notes.md").unwrap().0, "read notes.md");
        assert_eq!(corrected("read notes.md"), None);
        // A word of its own opening the request, a file's name after it.
        assert_eq!(corrected("reed fixtures.md").unwrap().0, "read fixtures.md");
        assert_eq!(corrected("rad shifts.md").unwrap().0, "read shifts.md");
        assert_eq!(
            corrected("reed kids/spelling.txt").unwrap().0,
            "read kids/spelling.txt"
        );
        // The controls: the same words before other words, or later on.
        assert_eq!(corrected("reed warblers nest here"), None);
        assert_eq!(corrected("the red notes.md"), None);
        // Bent only to a look, and never a courtesy word or before a
        // number that is no name.
        assert_eq!(corrected("clean notes.md"), None);
        assert_eq!(corrected("wrote notes.md"), None);
        assert_eq!(corrected("can notes.md be shorter"), None);
        assert_eq!(corrected("not 50/50"), None);
        assert_eq!(corrected("at notes.md"), None);
        assert_eq!(
            corrected("\"raed\" is a word"),
            None,
            "quoted words are content"
        );
        assert_eq!(
            corrected("rmeove v1.txt"),
            Some((
                "remove v1.txt".into(),
                alloc::vec![("rmeove".into(), "remove")]
            ))
        );
    }
}
