//! What a whole file should say, wished for after its name: "status.txt
//! should just say shipped now", "I'd like motto.txt to contain only this:
//! done", "make ladder.md just say …".

use super::super::Resolution;
use super::super::name::{Target, target};
use super::super::phrases::{Phrases, phrases};
use super::super::text::Words;
use super::{POINTERS, whole};

/// How a wish for what a file says is joined to its file.
const SHOULD: Phrases = Phrases::new("should | must | (needs | has | ought) to | to");
/// Adverbs that say nothing of the content ("should just say …").
const ONLY: Phrases = Phrases::new("just | only | now | simply | from now on | nothing but");
/// What the file should do with its content, and whether the verb can
/// only be about content ("should read well", "should be shorter" need not be).
const SAYING: &[(Phrases, bool)] = &[
    (Phrases::new("say | contain | says | contains"), true),
    (Phrases::new("read | be | show | reads"), false),
];
/// Verbs of changing a file said with what it should then say ("change
/// letting.md so it only says …"), and how that is joined to the file.
const CHANGED: Phrases = Phrases::new("change | edit | update | alter | rewrite | redo");
const SO_IT: Phrases = Phrases::new("so [that] it");
/// Remarks after what a whole file should say, on how it is written.
const OVERWRITING: Phrases = Phrases::new(
    "[and] nothing else
     | overwrite (it | whatever is there | whatever's there | what is there)
     | replace whatever is there",
);

/// Wishes said before the file ("i would like motto.txt to say …").
const WISHED: Phrases = Phrases::new("i (would like | want) | make sure");

/// "status.txt should just say shipped now", "I'd like motto.txt to
/// contain only this: done", "status.txt should now read: out": the whole
/// file is what it should say.
pub(super) fn should_say(words: Words<'_>) -> Option<Resolution> {
    // "make ladder.md just say …": the file, named alone, made to say only
    // that ("make ideas.md say …" without "just" may be a new file: the
    // write's own, which asks before replacing one).
    let made = words.after_any(phrases!("make")).filter(|rest| {
        let after = rest.from(1);
        // "just say …" or "say only …": an adverb on either side of the verb.
        let only_after = after
            .after_tagged(SAYING)
            .is_some_and(|(_, said)| said.trim_start(ONLY).len() < said.len());
        matches!(target(rest.to(1)), Target::File(_))
            && (after.trim_start(ONLY).len() < after.len() || only_after)
    });
    let changed = words.after_any(CHANGED);
    let wished = words.after_any(WISHED).or(made);
    let words = wished.or(changed).unwrap_or(words);
    (1..words.len().min(12)).find_map(|at| {
        let Target::File(name) = target(words.to(at)) else {
            return None;
        };
        let joined = match (made, changed) {
            (Some(_), _) if at == 1 => words.from(at),
            (None, Some(_)) => words.from(at).after_any(SO_IT)?,
            _ => words.from(at).after_any(SHOULD)?,
        };
        // "motto.txt to say …" is a wish only after "i would like".
        if wished.is_none() && words.key(at) == "to" {
            return None;
        }
        let adverb = joined.trim_start(ONLY).len() < joined.len();
        let (content_verb, said) = joined.trim_start(ONLY).after_tagged(SAYING)?;
        let said_only = said.trim_start(ONLY);
        let colon = said_only.raw(0).ends_with(':');
        let said = match said_only.after_any(POINTERS) {
            Some(after) if colon => after,
            _ => said_only,
        };
        // "…, overwrite it", "… and nothing else": how, not what, to write.
        let said = said.trim_end(OVERWRITING);
        let marked = colon || said.is_quoted();
        // "notes.md should be shorter" judges the file; it says nothing to write.
        if joined.trim_start(ONLY).starts_with(&["be"]) && !marked {
            return None;
        }
        let sure = content_verb || adverb || marked;
        let said = match said.is_quoted() {
            true => said,
            false => said.trim_end(ONLY),
        };
        let written = whole(name, said);
        Some(match sure {
            true => written,
            false => written.guessed("I took it as what the whole file should say"),
        })
    })
}
