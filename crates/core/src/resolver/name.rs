//! What a stretch of words names: a file, a folder, "all the files", or nothing usable.
//!
//! Names are spoken ("drafts slash plan dot md") or typed ("drafts/plan.md");
//! either way the speaker's case is kept. A bare word without an extension is
//! only a file name when the sentence says so ("the file called todo"), and
//! words like "everything" or "it" are never taken as names unless quoted or
//! introduced by "called".

use super::phrases::{Phrases, phrases};
use super::text::Words;
use alloc::format;
use alloc::string::String;

mod spoken;
use spoken::spoken;

/// What a noun phrase refers to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// A file: it has an extension, or was introduced as a file.
    File(String),
    /// A folder; `None` is the project root.
    Folder(Option<String>),
    /// Many files ("everything", "all my files"), perhaps in one folder.
    Files(Option<String>),
    /// One name with no extension and no noun to say what it is.
    Bare(String),
    /// Only a noun or filler: "a file", "the folder", "".
    Missing,
    /// Words that do not make one name.
    Unclear,
}

/// Spoken joiners and the character each stands for.
pub const JOINERS: &[(&str, &str)] = &[
    ("dot", "."),
    ("slash", "/"),
    ("underscore", "_"),
    ("dash", "-"),
    ("hyphen", "-"),
];

/// Whether `key` is a spoken joiner ("dot", "slash"), so the words beside it
/// belong to one name.
pub fn is_joiner(key: &str) -> bool {
    JOINERS.iter().any(|(k, _)| *k == key)
}

/// Determiners and adjectives that may precede a name or its noun.
const DETERMINERS: Phrases = Phrases::new(
    "the | a | an | my | our | your | this | that | new | empty | blank | plain | text
     | existing | current | whole | entire",
);

const FILE_NOUNS: Phrases = Phrases::new("file | document | doc | note");
const FOLDER_NOUNS: Phrases = Phrases::new("folder | directory | dir | subfolder | subdirectory");

/// Words that introduce a name: after them, any word is a name.
const NAMING: Phrases = Phrases::new(
    "called | named | titled | entitled | labelled | labeled | with [the] name
     | by the name [of]",
);

/// Politeness and filler that may trail a name.
const TRAILERS: Phrases = Phrases::new(
    "please | thanks | thank you | for me | now | right now | again | at the moment | currently | then",
);

/// Words that mean many files at once.
const MANY: &[&str] = &[
    "everything", "anything", "all", "every", "each", "both", "files", "documents", "them",
    "these", "those",
];

/// Words that may stand with [`MANY`] ("all of my files").
const QUANTIFIERS: &[&str] = &[
    "any", "the", "my", "our", "your", "of", "this", "current", "existing", "other", "remaining",
    "text", "are", "that", "which", "currently", "stored", "saved", "kept", "single", "file",
    "document",
];

/// Words that mean the project root.
const ROOT: &[&str] = &["root", "project", "workspace", "top", "level", "top-level"];

/// Words that are never a name unless quoted or introduced by "called".
const NOT_NAMES: &[&str] = &[
    "it", "that", "this", "something", "anything", "nothing", "stuff", "things", "me", "you",
    "there", "here", "what", "which", "one", "file", "folder",
];

/// Prepositions that put a name inside a folder ("plan.md in drafts").
const INSIDE: &[&str] = &["in", "inside", "within", "under", "from"];

/// The most words a noun phrase may have; longer runs are content, not names,
/// and the cap keeps families that try many splits linear.
const MAX_WORDS: usize = 40;

/// Reads a noun phrase (see [`Target`]).
pub fn target(words: Words<'_>) -> Target {
    if words.len() > MAX_WORDS {
        return Target::Unclear;
    }
    let words = words.trim_end(TRAILERS);
    if let Some(many) = many(words) {
        return many;
    }
    if let Some(nested) = nested(words) {
        return nested;
    }
    described(words).unwrap_or_else(|| single(words))
}

/// What a file is to the speaker, said after its name ("the groceries.md
/// list", "the todo.txt page").
const ROLES: &[&str] = &["list", "page", "entry", "sheet", "log", "notes", "one"];

/// "the groceries.md list": a name with its extension, then what it is.
fn described(words: Words<'_>) -> Option<Target> {
    let last = words.len().checked_sub(1).filter(|&n| n > 0)?;
    if !ROLES.contains(&words.key(last)) {
        return None;
    }
    match single(words.to(last)) {
        Target::File(name) if has_extension(&name) => Some(Target::File(name)),
        _ => None,
    }
}

/// The longest a name found inside a sentence may be, in words ("the file
/// called old dot txt").
const NAME_IN_SENTENCE: usize = 8;

/// The first file named anywhere in a run ("how would notes.md change …",
/// "I don't need the file called old dot txt …"), the longest reading first.
pub fn first_file(words: Words<'_>) -> Option<String> {
    (0..words.len()).find_map(|at| {
        (1..=NAME_IN_SENTENCE)
            .rev()
            .find_map(|len| match target(words.range(at, at + len)) {
                Target::File(name) => Some(name),
                _ => None,
            })
    })
}

/// "everything", "all the files in drafts", "my files", "*.txt".
fn many(words: Words<'_>) -> Option<Target> {
    let split = words
        .keys()
        .position(|k| INSIDE.contains(&k))
        .unwrap_or(words.len());
    let head = words.to(split);
    let quantified = head.contains_any(MANY)
        && head
            .keys()
            .all(|k| MANY.contains(&k) || QUANTIFIERS.contains(&k));
    let quantified = quantified || is_glob(head);
    if !quantified {
        return None;
    }
    if split == words.len() {
        return Some(Target::Files(None));
    }
    Some(match folder(words.from(split + 1)) {
        Some(dir) => Target::Files(dir),
        None => Target::Unclear,
    })
}

/// Whether the run is one unquoted wildcard pattern ("*.txt", "drafts/*"),
/// which names many files, not one: a "*" inside the word, or one left
/// unpaired (emphasis comes in pairs: "*notes.md*").
fn is_glob(words: Words<'_>) -> bool {
    let star_inside = words.get(0).is_some_and(|w| w.inner.contains('*'));
    let unpaired = words.raw(0).matches('*').count() % 2 == 1;
    words.len() == 1 && !words.is_quoted() && (star_inside || unpaired)
}

/// "plan.md in drafts": a file name followed by the folder it is in.
fn nested(words: Words<'_>) -> Option<Target> {
    let at = words.keys().rposition(|k| INSIDE.contains(&k))?;
    let Target::File(name) = single(words.to(at)) else {
        return None;
    };
    match folder(words.from(at + 1))? {
        Some(dir) => Some(Target::File(within(&dir, name))),
        None => Some(Target::File(name)),
    }
}

/// `name` in the folder `dir`, unless it is said there already ("drafts/plan.md
/// in drafts" is not `drafts/drafts/plan.md`).
pub fn within(dir: &str, name: String) -> String {
    let prefix = format!("{}/", dir.trim_end_matches('/'));
    match name.get(..prefix.len()) {
        Some(head) if head.eq_ignore_ascii_case(&prefix) => name,
        _ => format!("{prefix}{name}"),
    }
}

/// The folder a phrase names, if it names one (`Some(None)` for the root).
pub fn folder(words: Words<'_>) -> Option<Option<String>> {
    match target(words) {
        Target::Folder(dir) | Target::Files(dir) => Some(dir),
        Target::Bare(dir) => Some(Some(dir)),
        Target::File(path) if leaves_the_folder(&path) && !has_extension(&path) => Some(Some(path)),
        _ => None,
    }
}

/// What one noun phrase without "in …" names.
fn single(words: Words<'_>) -> Target {
    let rest = drop_determiners(words);
    // "the recipes file recipes.md": what the file is, then its name.
    // ("temp underscore file dot txt" is one name: no joiner beside the noun).
    if let Some(at) = (1..=2).find(|&at| rest.range(at, at + 1).after_any(FILE_NOUNS).is_some())
        && !is_joiner(rest.key(at - 1))
        && !is_joiner(rest.key(at + 1))
        && let Target::File(name) = single(rest.from(at + 1))
        && has_extension(&name)
    {
        return Target::File(name);
    }
    let (file_noun, rest) = noun(rest, FILE_NOUNS);
    let (folder_noun, rest) = noun(rest, FOLDER_NOUNS);
    let rest = rest.trim_start(phrases!("of | at"));
    let (called, rest) = match rest.after_any(NAMING) {
        Some(after) => (true, after),
        None => (false, rest),
    };
    let (file_noun, folder_noun, rest) = trailing_noun(rest, file_noun, folder_noun);
    if rest.is_empty() {
        return Target::Missing;
    }
    if !called && !file_noun && rest.keys().all(|k| ROOT.contains(&k)) {
        return Target::Folder(None);
    }
    // "the shopping list dot txt", "hive log dot md": a name of a few words
    // said with its extension spelled, as speech has it.
    let determined = few_plain_words_then_dot(rest);
    let Some(name) = spoken(rest, false)
        .or_else(|| spaced_name(rest, called || determined || titled(rest), folder_noun))
    else {
        return Target::Unclear;
    };
    let key = name.to_lowercase();
    if !called
        && !rest.is_quoted()
        && (NOT_NAMES.contains(&key.as_str()) || MANY.contains(&key.as_str()))
    {
        return Target::Unclear;
    }
    if folder_noun {
        // "dad's folder": the folder called after whose it is.
        let owner = name
            .strip_suffix("'s")
            .or_else(|| name.strip_suffix("\u{2019}s"))
            .filter(|owner| !owner.is_empty());
        Target::Folder(Some(owner.map_or(name.clone(), String::from)))
    } else if file_noun || has_extension(&name) || leaves_the_folder(&name) {
        Target::File(name)
    } else {
        Target::Bare(name)
    }
}

/// "shopping list dot txt": at most two plain words, then "dot" and the
/// extension; "count of essay dot md" is a phrase, not a name.
fn few_plain_words_then_dot(words: Words<'_>) -> bool {
    const GLUE: &[&str] = &[
        "of", "in", "on", "at", "for", "to", "with", "and", "or", "from", "is", "does", "did",
        "would", "will", "could", "should", "can", "how", "what", "when", "where", "why", "who",
        "which", "if", "it", "so",
    ];
    let Some(dot) = words.keys().position(|k| k == "dot") else {
        return false;
    };
    (1..=2).contains(&dot)
        // "to do dot txt": a recogniser's todo.
        && (words.to(dot).keys().eq(["to", "do"]) || words.to(dot).keys().all(|k| {
            k.chars().all(char::is_alphanumeric)
                && !GLUE.contains(&k)
                && !NOT_NAMES.contains(&k)
                && !MANY.contains(&k)
        }))
}

/// Drops leading determiners, but not one joined to the name ("my underscore notes").
fn drop_determiners(words: Words<'_>) -> Words<'_> {
    let mut rest = words;
    while let Some(after) = rest
        .after_any(DETERMINERS)
        .filter(|after| !is_joiner(after.key(0)))
    {
        rest = after;
    }
    rest
}

/// A leading noun from `nouns`, and the words after it.
fn noun<'a>(words: Words<'a>, nouns: Phrases) -> (bool, Words<'a>) {
    match words.after_any(nouns) {
        Some(rest) => (true, rest),
        None => (false, words),
    }
}

/// A noun after the name ("the drafts folder", "notes.md file").
fn trailing_noun(words: Words<'_>, file: bool, folder: bool) -> (bool, bool, Words<'_>) {
    if words.len() < 2 || file || folder {
        return (file, folder, words);
    }
    let last = words.from(words.len() - 1);
    let (file, _) = noun(last, FILE_NOUNS);
    let (folder, _) = noun(last, FOLDER_NOUNS);
    if file || folder {
        (file, folder, words.to(words.len() - 1))
    } else {
        (false, false, words)
    }
}

/// Whether the name's words start with capitals ("Meeting Notes.txt",
/// "Reading List dot txt"): a title, which like "called" lets several words
/// make one name. The spoken joiners and the extension are not counted.
fn titled(words: Words<'_>) -> bool {
    let parts = (0..words.len())
        .filter_map(|i| words.get(i))
        .take_while(|w| !is_joiner(&w.key))
        .map(|w| w.inner.split('.').next().unwrap_or(""))
        .collect::<alloc::vec::Vec<_>>();
    parts.len() > 1
        && parts
            .iter()
            .all(|w| w.chars().next().is_some_and(char::is_uppercase))
}

/// After "called", several words may make one name if it ends in an
/// extension: "a file called shopping list dot txt" is "shopping list.txt";
/// a folder's needs none ("the Work Projects folder").
fn spaced_name(words: Words<'_>, called: bool, folder: bool) -> Option<String> {
    spoken(words, true).filter(|name| called && (folder || has_extension(name)))
}

/// Places outside the folder said in words ("to my desktop", "to the
/// parent folder", "up one level"): never read as folders inside it.
pub(super) fn elsewhere(place: Words<'_>) -> bool {
    const ELSEWHERE: Phrases = Phrases::new(
        "[the | my] (parent | enclosing) (folder | directory) | the (folder | directory) above
         | up [one | a] level | one level up | outside [the | this | my] (folder | directory)
         | [the | my] (desktop | home (folder | directory) | computer | usb [stick | drive])",
    );
    place
        .after_any(ELSEWHERE)
        .is_some_and(|rest| rest.is_empty())
}

/// A path that reaches outside the folder as it is written (absolute, from
/// a home folder, or up through `..`): kept as said, so the executor refuses
/// it by name (`outside-root`) instead of the sentence going unheard.
pub fn leaves_the_folder(name: &str) -> bool {
    name.starts_with('/')
        || name.starts_with("~/")
        || name == "~"
        || name.split('/').any(|segment| segment == "..")
}

/// A name has no stray punctuation at its ends and no control characters.
fn plausible(name: &str) -> bool {
    let edge_ok = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || "._~".contains(c));
    let starts_ok = edge_ok(name.chars().next()) || name.starts_with('/');
    starts_ok
        && edge_ok(name.chars().last())
        && !name.ends_with('.')
        && !name.chars().any(char::is_control)
}

/// Whether the last path segment ends in an extension like ".md" or ".tar.gz".
pub(super) fn has_extension(name: &str) -> bool {
    let segment = name.rsplit('/').next().unwrap_or(name);
    segment.rsplit_once('.').is_some_and(|(_, ext)| {
        (1..=10).contains(&ext.chars().count())
            && ext.chars().all(char::is_alphanumeric)
            && ext.chars().any(char::is_alphabetic)
    })
}
