//! `list`: "list files", "what's in the drafts folder", "show me my files", "ls drafts".

use super::name::{Target, folder, leaves_the_folder, target};
use super::phrases::{Phrases, phrases};
use super::text::Words;
use super::{Resolution, act, claim_unresolved};
use crate::action::Action;
use alloc::format;

/// How far a head reaches: what may follow it and still be a folder.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Reach {
    /// Anything: "list drafts", "list" (the root).
    Any,
    /// A bare name without an article: "what's in drafts", but not
    /// "what's in the news".
    Container,
    /// Only files or a folder named as such: "show me my files".
    Named,
}

const HEADS: &[(Phrases, Reach)] = &[
    (
        Phrases::new(
            "show me what is [in] here | tell me what is here | what is [in] here | list
             | ls | browse | enumerate | what is there | what there is | what do i have
             | what have (i | we | you) got | what do (we | you) have",
        ),
        Reach::Any,
    ),
    (
        Phrases::new(
            "do (i | we) have | (are | is) there | show | display | view | open
             | (pull | bring) up | [let me] see | get | what | which | (tell | give) me
             | how many",
        ),
        Reach::Named,
    ),
    (
        Phrases::new("what is (in | inside) | look (in | inside)"),
        Reach::Container,
    ),
];

/// The root said as a folder with no name.
const FOLDER: Phrases = Phrases::new("[root] folder | directory");

/// Articles that make a bare name after "what's in" a thing, not a folder.
const ARTICLES: &[&str] = &["the", "a", "an", "my", "your", "our", "this", "that"];

/// Words that let a bare folder name follow any head ("show the contents of
/// drafts", "show me what's in drafts").
const CONTENTS_OF: Phrases =
    Phrases::new("[the] contents of | the content of | what is (in | inside)");

/// Words between the head and what is listed.
const LEADING: Phrases = Phrases::new(
    "me | out | (a | the) list of | a listing of | [the] contents of | the content of
     | what is in | what | in | inside | of | under | within",
);

/// Words after what is listed ("what files are there").
const TRAILING: Phrases = Phrases::new(
    "(are | is) there | there are | do (i | we) have | have (i | we) got [in here] | (i | we) have [got] [in here] | exist
     | are here | there | here | available | [right] now | please
     | [are] in (the folder | this folder | my folder | here) | is here | contents",
);

pub fn resolve(words: Words<'_>) -> Option<Resolution> {
    // "files please", "my files": the files, asked for by name alone.
    if words
        .after_any(phrases!("[my | the | all [my | the]] files"))
        .is_some_and(|rest| rest.trim_start(phrases!("please | thanks")).is_empty())
    {
        return act(Action::List { dir: None });
    }
    let (reach, rest) = words.after_tagged(HEADS)?;
    let contents = rest
        .trim_start(phrases!("me"))
        .after_any(CONTENTS_OF)
        .is_some();
    let reach = if contents && reach == Reach::Named {
        Reach::Container
    } else {
        reach
    };
    let region = rest.trim_start(LEADING).trim_end(TRAILING);
    // "the parent folder", "the files in the parent folder".
    let place = region
        .keys()
        .rposition(|k| matches!(k, "in" | "inside" | "within" | "of"))
        .map_or(region, |at| region.from(at + 1));
    if super::name::elsewhere(place) {
        return claim_unresolved(
            "That is outside your folder: I only list what is inside it. Say 'list files' to see what is here.",
        );
    }
    // "list ..", "list ../..": the folders above, kept as said for the
    // executor to refuse by name.
    let said = region.literal();
    if said.split('/').all(|step| step == ".." || step.is_empty()) && said.starts_with("..") {
        return act(Action::List { dir: Some(said) });
    }
    // "show me the folder", "open my whole folder": the root itself.
    let root = region.trim_start(phrases!("the | my | our | this | your"));
    if let Some(rest) = root
        .trim_start(phrases!("whole | entire"))
        .after_any(FOLDER)
        && rest.is_empty()
    {
        return act(Action::List { dir: None });
    }
    let dir = match asked_in(region).unwrap_or_else(|| target(region)) {
        Target::Folder(dir) | Target::Files(dir) => dir,
        Target::Missing if reach != Reach::Named => None,
        // "list the planets": a thing, unless it is said to be a folder.
        Target::Bare(dir) if reach == Reach::Any && ARTICLES.contains(&region.key(0)) => {
            return claim_unresolved(format!(
                "Is `{dir}` a folder here? Say 'list the {dir} folder', or 'list files' to see what there is."
            ));
        }
        Target::Bare(dir) if reach == Reach::Any => Some(dir),
        // "list /etc": kept, for the executor to refuse by name.
        Target::File(dir) if reach == Reach::Any && leaves_the_folder(&dir) => Some(dir),
        Target::Bare(dir) if reach == Reach::Container && !ARTICLES.contains(&region.key(0)) => {
            Some(dir)
        }
        Target::Unclear if reach == Reach::Any => {
            return claim_unresolved(
                "Which folder? Say e.g. 'list files' or 'list the drafts folder'.",
            );
        }
        _ => return None,
    };
    act(Action::List { dir })
}

/// "files do I have in drafts", "files are there in the receipts folder": the
/// asking words sit between what is listed and its folder.
fn asked_in(region: Words<'_>) -> Option<Target> {
    (1..region.len()).find_map(|at| {
        let place = region
            .from(at)
            .after_any(TRAILING)?
            .after_any(phrases!("in | inside | under | within"))?;
        match target(region.to(at)) {
            Target::Files(None) => Some(Target::Files(folder(place)?)),
            _ => None,
        }
    })
}
