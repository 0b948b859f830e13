//! A slip put right in one breath, the new text first and the old after
//! "not": "oops, in collections.md it should be £612.40 not £621.40",
//! "rota.md should say Tuesday, not Monday".

use super::super::Resolution;
use super::super::name::{Target, target};
use super::super::phrases::{Phrases, phrases};
use super::super::text::Words;
use super::{SCOPES, apply};

/// How the right text is brought in after the file.
const SHOULD: Phrases =
    Phrases::new("[it] should (be | say | read) | it (is | was) meant to (be | say)");
/// What sets the wrong text apart from the right one.
const NOT: Phrases = Phrases::new("not | rather than | instead of");
/// Words owning up to the slip, said first.
const OWNING_UP: Phrases = Phrases::new("oops | whoops | sorry | my mistake | my bad | actually");

/// "[oops,] in FILE it should be NEW not OLD", "FILE should say NEW, not OLD".
pub(super) fn should_not(words: Words<'_>) -> Option<Resolution> {
    let (before, after) = words.around(SHOULD)?;
    let place = before.trim_start(OWNING_UP).trim_start(SCOPES);
    let Target::File(name) = target(place) else {
        return None;
    };
    let (new, old) = after.around(NOT)?;
    let new = new.trim_end(phrases!("and"));
    apply(Some(name), old, new)
}

/// "it was Mill Road not Mill Lane, fix that in intake.md": the slip said
/// first, then which file to put it right in.
pub(super) fn was_not(words: Words<'_>) -> Option<Resolution> {
    let said = words.trim_start(OWNING_UP).after_any(phrases!(
        "it (was | is | should be | should say) | that (was | is) meant to be"
    ))?;
    let comma = (1..said.len()).find(|&at| said.raw(at - 1).ends_with(','))?;
    let place = said.from(comma).after_any(phrases!(
        "[please] (fix | correct | change) (that | it) (in | on) | in"
    ))?;
    let Target::File(name) = target(place.trim_end(phrases!("please"))) else {
        return None;
    };
    let (new, old) = said.to(comma).around(NOT)?;
    apply(Some(name), old, new)
}
