//! Courtesy around a command ("hey voicebox, could you …, please") carries no meaning here.

use super::phrases::Phrases;
use super::text::{Word, Words};
use alloc::string::String;
use core::ops::Range;

/// Whether `said` is only owning up to a slip ("oops", "sorry", "ok so"):
/// said before a request it is no request of its own, though "oops" said
/// alone is an undo.
pub fn owning_up(said: &str) -> bool {
    const OWNING_UP: &[&str] = &[
        "oops", "whoops", "sorry", "ok", "okay", "right", "actually", "oh", "so", "well",
    ];
    said.split_whitespace().all(|w| {
        let w = w
            .trim_matches(|c: char| !c.is_alphanumeric())
            .to_lowercase();
        OWNING_UP.contains(&w.as_str())
    })
}

/// Openings dropped from the front, again and again ("ok so could you please …").
const OPENINGS: Phrases = Phrases::new(
    "please | kindly | ok | okay | so | now | just | and | also | then
     | voicebox | (hi | hello) voicebox | (can | could | would | will) you
     | (can | could | may) i | i (want | need) [you] to | i would like [you] to
     | go ahead and | let us | help me | quickly | like | be so kind as to
     | (would | do) you mind | oops | whoops | sorry | actually | oh | well | alright
     | nevermind | never mind | yeah | yes | yep | wait | no | right
     | i did not mean that | that (is | was) wrong | my (mistake | bad) | maybe
     | (hi | hey) [there] | i (think | guess) | i (was wondering | wonder) if you could
     | do you think you could | is it possible to | possibly | i mean
     | i am (trying | looking) to | while you are (at it | there) | one more thing",
);

/// Openings a learner of English says without "to" ("i want add …", "i
/// would like you create …", "please you put …"): dropped only when a
/// command word follows, so "i want a new file" keeps its words.
const LOOSE_OPENINGS: Phrases = Phrases::new(
    "to | [like] i said | i told you to | is possible [to] | me want | i want [that you]
     | for me | i (would like | need) [you] | you [can | could | must | should | may]",
);

/// Gerunds after "would you mind …" and their verbs, so families need only
/// the plain verb ("would you mind deleting old.txt").
const GERUNDS: &[(&str, &str)] = &[
    ("creating", "create"),
    ("making", "make"),
    ("writing", "write"),
    ("saving", "save"),
    ("reading", "read"),
    ("showing", "show"),
    ("opening", "open"),
    ("displaying", "display"),
    ("listing", "list"),
    ("deleting", "delete"),
    ("removing", "remove"),
    ("erasing", "erase"),
    ("editing", "edit"),
    ("updating", "update"),
    ("searching", "search"),
    ("finding", "find"),
    ("comparing", "compare"),
    ("undoing", "undo"),
    ("reverting", "revert"),
];

/// The words that carry the command: `words` without courtesy at either end.
/// Courtesy that is all there is stays, so a lone "oops" can still mean undo.
pub fn core(words: Words<'_>) -> Range<usize> {
    let mut rest = words.trim_start(OPENINGS);
    while let Some(verb) = rest
        .after_any(LOOSE_OPENINGS)
        .filter(|verb| super::typo::is_command_word(verb.key(0)))
    {
        rest = verb.trim_start(OPENINGS);
    }
    let start = match rest.len() {
        0 => 0,
        kept => words.len() - kept,
    };
    let mut end = words.len();
    while end > start {
        let closing = closing_len(words.range(start, end));
        if closing == 0 {
            break;
        }
        end -= closing;
    }
    start..end
}

/// Whether the courtesy before a request made it a question ("could you
/// …?", "can you …").
pub fn asked(opening: Words<'_>) -> bool {
    (0..opening.len()).any(|at| {
        matches!(opening.key(at), "can" | "could" | "would" | "will")
            && opening.key(at + 1) == "you"
    })
}

/// Courtesy openings dropped from the end of a clause ("in notes.md could you …").
pub fn trim_end(words: Words<'_>) -> Words<'_> {
    words.trim_end(OPENINGS)
}

/// Turns the gerund that opens `core` into its verb when "… mind" comes just
/// before it ("would you mind deleting old.txt"); elsewhere a gerund is no
/// request ("reading is fun").
pub fn plain_verb_after_mind(words: &mut [Word<'_>], core: &Range<usize>) {
    let minded = core.start > 0 && words[core.start - 1].key == "mind";
    if let Some(first) = words.get_mut(core.start).filter(|_| minded)
        && let Some((_, verb)) = GERUNDS.iter().find(|(ing, _)| *ing == first.key)
    {
        first.key = String::from(*verb);
    }
}

/// How many words of trailing courtesy end `words`: "please" always; "thanks"
/// and "thank you" only after a comma or full stop, since "… saying thank you"
/// may be content.
fn closing_len(words: Words<'_>) -> usize {
    if words.ends_with(&["please"]) {
        return 1;
    }
    const HEDGES: Phrases = Phrases::new(
        "for me | i (think | guess) | if you (can | could | would) | if possible
         | (would | will | could | can) you",
    );
    // No hedge ends another, so the first that ends the words is the only one.
    if let Some(n) = HEDGES.first_suffix(words).filter(|n| words.len() > n + 1) {
        return n;
    }
    // "… to shopping.md too", "…, thanks": after the request is closed, not
    // inside a text ("… wants Wednesdays too"). The first that ends the
    // words wins, so the longer come first.
    const CLOSINGS: Phrases = Phrases::new(
        "thank you so much | thanks (a lot | so much) | many thanks | thank you | thanks
         | thx | cheers | ta | as well | too",
    );
    let Some(n) = CLOSINGS.first_suffix(words) else {
        return 0;
    };
    // After a quoted word or a file's name the content is closed: "search
    // for \"x\" thanks", "add tape to shopping.md cheers".
    let before = words.len().checked_sub(n + 1);
    let after_clause = before.is_some_and(|at| {
        words.raw(at).ends_with([',', '.', '!', ';', '?'])
            || words.get(at).is_some_and(|w| w.quoted)
            || super::name::has_extension(words.raw(at))
            || matches!(words.key(at), "list" | "file" | "folder" | "document")
    });
    if after_clause { n } else { 0 }
}
