//! `move`, `copy` and `mkdir`: "rename draft.md to final.md", "move
//! notes.md into the archive folder", "copy
//! plan.md to backup.md", "make a folder called archive", "mkdir old".

use super::name::{Target, target};
use super::phrases::{Phrases, phrases};
use super::text::Words;
use super::{Resolution, act, claim_unresolved};
use crate::action::Action;
use crate::command::Verb;
use alloc::format;
use alloc::string::String;

/// Heads, the verb each means, and whether a new name without an
/// extension keeps the old one's ("rename draft.md to final").
const HEADS: &[(Phrases, (Verb, bool))] = &[
    (
        Phrases::new("rename | change [the] name of [file]"),
        (Verb::Move, true),
    ),
    (
        Phrases::new("move | mv | relocate | shift"),
        (Verb::Move, false),
    ),
    (
        Phrases::new(
            "copy | cp | duplicate | clone
             | (make | save | take | keep) (a [backup | spare | second] | (a | an) extra | another) copy of
             | [(can | could | may) (i | we)] (get | have) (a [backup | spare | second] | (a | an) extra | another) copy of
             | (i | we) (would like | want | need) (a [backup | spare | second] | (a | an) extra | another) copy of
             | (make | take) a backup of | back up",
        ),
        (Verb::Copy, true),
    ),
];

/// What joins the two names.
const TO: &[&str] = &[
    "to", "into", "as", "in", "under", "onto", "called", "named", "at", "->", "→",
];

/// Words between a name and where it goes: "move a.md over to b/", "a
/// copy of a.md saved as b.md".
const ON_ITS_WAY: Phrases = Phrases::new("over | across | back | saved | kept | stored | put");

/// A request said with the change after the name: "I'd like draft.md
/// renamed to episode-32.md", "get notes.md moved into archive".
const WISHED: Phrases = Phrases::new(
    "(i | we) (would like | want | need | would prefer | prefer) | can you get | could you get | please get | get",
);
const DONE_TO: &[(Phrases, Verb)] = &[
    (Phrases::new("renamed"), Verb::Move),
    (Phrases::new("moved"), Verb::Move),
    (Phrases::new("copied"), Verb::Copy),
];

/// Heads of making a folder; what follows must name a folder ("make a
/// folder called archive"), or anything after `mkdir`.
const MAKE: Phrases = Phrases::new(
    "make | create | add | new | start | set up | [and] (i | we) (need | want | would like)",
);

pub fn resolve(words: Words<'_>) -> Option<Resolution> {
    if let Some(rest) = words.after_any(phrases!("mkdir | md")) {
        return folder_made(rest, true);
    }
    if let Some(rest) = words.after_any(MAKE)
        && let Some(made) = folder_made(rest, false)
    {
        return Some(made);
    }
    if let Some(filed) = filed_in_folder(words) {
        return Some(filed);
    }
    let Some(((verb, keeps_extension), rest)) = words.after_tagged(HEADS) else {
        return wished(words)
            .or_else(|| renamed_to_be(words))
            .or_else(|| named_anew(words))
            .or_else(|| called(words));
    };
    // "take a copy of stops.md and call it stops-winter.md".
    if let Some((what, place)) = rest.around(CALLED_IT) {
        return organise(verb, keeps_extension, what, place);
    }
    // "change the name of pancakes.txt, new name is waffles.txt".
    if let Some((what, place)) = rest.around(NEW_NAME) {
        return organise(verb, keeps_extension, what, place);
    }
    let Some(at) = rest.keys().rposition(|k| TO.contains(&k)) else {
        // "mv a.txt b.txt", "cp todo.txt todo.bak": two names side by side.
        return side_by_side(rest, verb);
    };
    organise(verb, keeps_extension, rest.to(at), rest.from(at + 1))
}

/// The new name given after the thing: "… and call it stops-winter.md".
const CALLED_IT: Phrases = Phrases::new("and (call | name) it [as]");

/// The new name announced after the old: "…, new name is waffles.txt".
const NEW_NAME: Phrases = Phrases::new(
    "[and] [the | its] new name (is | will be | should be) | [and] [the | its] new name",
);

/// `verb` of what `what` names to where `place` says.
fn organise(
    verb: Verb,
    keeps_extension: bool,
    what: Words<'_>,
    place: Words<'_>,
) -> Option<Resolution> {
    let what = what.trim_end(ON_ITS_WAY);
    let name = match target(what) {
        Target::File(name) | Target::Folder(Some(name)) | Target::Bare(name) => name,
        Target::Files(_) => {
            return claim_unresolved(format!(
                "I {} one file or folder at a time — name it, e.g. '{} notes.md to old/notes.md'.",
                verb.wire(),
                verb.wire()
            ));
        }
        _ => described(what)?,
    };
    if super::name::elsewhere(place) {
        return claim_unresolved(format!(
            "I only work inside your folder, so I can't {} {name} out of it — name a place in the folder, e.g. '{} {name} to old/{name}'.",
            verb.wire(),
            verb.wire()
        ));
    }
    let to = match target(place) {
        // "into the archive folder": inside it, whether or not it exists yet.
        Target::Folder(Some(dir)) => super::name::within(&dir, String::from(leaf(&name))),
        Target::File(to) => to,
        Target::Bare(to) if keeps_extension => with_extension_of(&name, to),
        Target::Bare(to) => to,
        _ => {
            return claim_unresolved(format!(
                "Where to? Say the new name, e.g. '{} {name} to new-name'.",
                verb.wire()
            ));
        }
    };
    // "rename kiln/firing-12.md to firing-12-cracked.md": a new name, not a
    // new place, so the file stays in its folder.
    let to = match (verb == Verb::Move && keeps_extension, name.rsplit_once('/')) {
        (true, Some((dir, _))) if !to.contains('/') => format!("{dir}/{to}"),
        _ => to,
    };
    act(organised(verb, name, to))
}

/// "put draft.md in the zines folder", "drag vows.md into the ceremony
/// folder", "file minutes-march.md under minutes": a file (said by its
/// name) put or filed in a folder is moved there; "put hello in notes.md"
/// is a text put in a file, the write's.
fn filed_in_folder(words: Words<'_>) -> Option<Resolution> {
    let (filing, rest) = words.after_either(
        phrases!("file"),
        phrases!("put | pop | stick | drag | drop | chuck | toss | tuck"),
    )?;
    let at = rest
        .keys()
        .rposition(|k| matches!(k, "in" | "into" | "under" | "inside"))
        .filter(|&at| at > 0)?;
    // "put a new file called call-log.txt in notes/" makes one.
    if rest
        .to(at)
        .contains_any(&["new", "called", "named", "empty", "blank"])
    {
        return None;
    }
    let Target::File(name) = target(rest.to(at)) else {
        return None;
    };
    let (to, sure) = match target(rest.from(at + 1)) {
        Target::Folder(Some(dir)) => (dir, true),
        Target::Bare(dir) if filing => (dir, true),
        // "put pcr-notes.md in protocols": a word that may be a folder,
        // asked.
        Target::Bare(dir) if !dir.contains(' ') => (dir, false),
        // "put listings/4-mill.md in listings/sold/4-mill.md": a file
        // put where another name is said is moved there.
        Target::File(to) if to.contains('/') || leaf(&to) == leaf(&name) => {
            return act(Action::Move { name, to });
        }
        _ => return None,
    };
    if super::name::leaves_the_folder(&to) {
        return None;
    }
    let moved = Action::Move {
        to: super::name::within(&to, String::from(leaf(&name))),
        name,
    };
    match sure {
        true => act(moved),
        false => Some(Resolution::Action(moved).guessed(format!("I took '{to}' as a folder"))),
    }
}

/// "give forays a new name, forays-2026.md", "give notes.md the name
/// diary.md": a file, then the name it is given.
fn named_anew(words: Words<'_>) -> Option<Resolution> {
    const A_NAME: Phrases = Phrases::new("a new name | the (name | new name)");
    let rest = words.after_any(phrases!("give"))?;
    let (what, place) = rest.around(A_NAME)?;
    organise(
        Verb::Move,
        true,
        what,
        place.trim_start(phrases!("of | as | like")),
    )
}

/// "rota.md should be called rota-2026.md": a file and the name it should
/// have from now on.
fn renamed_to_be(words: Words<'_>) -> Option<Resolution> {
    const SHOULD_BE: Phrases = Phrases::new(
        "(should | will | must | to) be (called | named | renamed [to | as]) | is to be (called | named)",
    );
    let (before, place) = words.around(SHOULD_BE)?;
    // "…, rename it": the request said again after the wish.
    let place = place
        .trim_end(phrases!("[please] rename it [please] | [so] rename it"))
        .trim_end(phrases!("from now on | please"));
    // A file's name on one side at least: "the meeting should be called
    // off" renames nothing.
    let file = |said: Words<'_>| matches!(target(said), Target::File(_));
    // "I'd like menu-winter.md to be called menu.md": the wish is no name;
    // without one, "… used to be called specials" only says what was.
    let wished = before.after_any(WISHED);
    if words.key(before.len()) == "to" && wished.is_none() {
        return None;
    }
    let what = wished.unwrap_or(before);
    if !file(what) && !file(place) {
        return None;
    }
    organise(Verb::Move, true, what, place)
}

/// "call the gear file kit.md instead": a file given a new name said last,
/// with its extension.
fn called(words: Words<'_>) -> Option<Resolution> {
    let rest = words
        .after_any(phrases!("call"))?
        .trim_end(phrases!("instead | from now on | please | thanks"));
    let last = rest.len().checked_sub(1).filter(|&last| last > 0)?;
    if !matches!(target(rest.from(last)), Target::File(_)) {
        return None;
    }
    organise(Verb::Move, true, rest.to(last), rest.from(last))
}

/// "I'd like draft.md renamed to final.md": the name said before the verb.
fn wished(words: Words<'_>) -> Option<Resolution> {
    let rest = words.after_any(WISHED)?;
    let at = (1..rest.len()).find(|&i| rest.from(i).after_tagged(DONE_TO).is_some())?;
    let (verb, after) = rest.from(at).after_tagged(DONE_TO)?;
    if !matches!(target(rest.to(at)), Target::File(_)) {
        return None;
    }
    // "I'd like timetable.md renamed timetable-autumn.md": no "to" needed.
    let place = match TO.contains(&after.key(0)) {
        true => after.from(1),
        false => after.trim_end(phrases!("thanks | thank you | please")),
    };
    let keeps_extension = verb == Verb::Copy || rest.key(at) == "renamed";
    organise(verb, keeps_extension, rest.to(at), place)
}

/// "mv a.txt b.txt": two plain names with nothing between them.
fn side_by_side(rest: Words<'_>, verb: Verb) -> Option<Resolution> {
    if rest.len() != 2 {
        return None;
    }
    let (Target::File(name), Target::File(to) | Target::Bare(to)) =
        (target(rest.to(1)), target(rest.from(1)))
    else {
        return None;
    };
    act(organised(verb, name, to))
}

/// "the template orders/template.md": a file said by its name after a few
/// words saying what it is.
fn described(what: Words<'_>) -> Option<String> {
    let last = what
        .len()
        .checked_sub(1)
        .filter(|&at| (2..=3).contains(&at))?;
    // "the show called punch-tour.md": the name after "called" is a new one.
    if !matches!(what.key(0), "the" | "my" | "our" | "this" | "that")
        || what.contains_any(&["called", "named"])
    {
        return None;
    }
    match target(what.from(last)) {
        Target::File(name) => Some(name),
        _ => None,
    }
}

fn organised(verb: Verb, name: String, to: String) -> Action {
    match verb {
        Verb::Copy => Action::Copy { name, to },
        _ => Action::Move { name, to },
    }
}

/// The last name of a path.
fn leaf(name: &str) -> &str {
    name.rsplit('/').next().unwrap_or(name)
}

/// `to` with `name`'s extension when it has none ("final" → "final.md").
fn with_extension_of(name: &str, to: String) -> String {
    let leaf = name.rsplit('/').next().unwrap_or(name);
    match leaf.rsplit_once('.') {
        Some((stem, ext)) if !stem.is_empty() && !to.contains('.') => format!("{to}.{ext}"),
        _ => to,
    }
}

/// A folder named after a making head: `None` when the words name no
/// folder (a file: the write family's), unless `any` (after `mkdir`).
fn folder_made(rest: Words<'_>, any: bool) -> Option<Resolution> {
    let rest = rest.trim_start(phrases!("me | a | new | an | empty | one"));
    // "a folder for next year, call it season-2027": what it is for, then
    // its name; "a folder in recipes for breakfasts, call it breakfast":
    // where it goes, too.
    if let Some((what, called)) = rest.around(phrases!("[and] (call | name) it [as]"))
        && matches!(what.key(0), "folder" | "directory" | "dir")
    {
        let (Target::Bare(name) | Target::Folder(Some(name))) = target(called) else {
            return None;
        };
        let Some(at) = what
            .keys()
            .position(|k| matches!(k, "in" | "inside" | "within" | "under"))
        else {
            return act(Action::Mkdir { name });
        };
        let place = what.from(at + 1);
        let place = match place.keys().position(|k| k == "for") {
            Some(end) => place.to(end),
            None => place,
        };
        return match super::name::folder(place) {
            Some(Some(dir)) if !super::name::leaves_the_folder(&dir) => act(Action::Mkdir {
                name: super::name::within(&dir, name),
            }),
            _ => None,
        };
    }
    // "a folder quotes for the builders' quotes": what it is for is no part
    // of its name.
    let rest = match rest.keys().position(|k| k == "for") {
        Some(at) if at > 0 && matches!(target(rest.to(at)), Target::Folder(Some(_))) => rest.to(at),
        _ => rest,
    };
    // "a folder called breakfast inside recipes": the folder it goes in,
    // said after its name.
    if let Some(at) = rest
        .keys()
        .rposition(|k| matches!(k, "inside" | "in" | "within" | "to" | "into" | "under"))
        && let Target::Folder(Some(name)) = target(rest.to(at))
        && let Some(Some(dir)) = super::name::folder(rest.from(at + 1))
        && !super::name::leaves_the_folder(&dir)
    {
        return act(Action::Mkdir {
            name: super::name::within(&dir, name),
        });
    }
    match target(rest) {
        Target::Folder(Some(name)) => act(Action::Mkdir { name }),
        Target::Bare(name) | Target::File(name) if any => act(Action::Mkdir { name }),
        Target::Folder(None) | Target::Missing if any => claim_unresolved(
            "What should the folder be called? Say e.g. 'make a folder called archive'.",
        ),
        _ => None,
    }
}
