//! A closing remark after the request: "delete old dot log, it's just taking
//! up space" is the delete; a remark that takes the request back is not.

use super::inside::takes_back;
use super::{Resolution, plain, typo};
use alloc::string::String;
use alloc::vec::Vec;

/// "delete old dot log, it's just taking up space": the request before a
/// closing remark, when the whole reads as none. A remark that takes the
/// request back ("…, no wait", "…, actually don't") leaves it unresolved.
pub(super) fn dropped(text: &str) -> Option<Resolution> {
    let (request, aside) = text.rsplit_once(',')?;
    // "oops, untick lock the van in the checklist": what follows the comma
    // is the request itself, not a remark on one ("…, delete it" is).
    let said: Vec<String> = aside
        .split_whitespace()
        .map(|w| {
            w.trim_matches(|c: char| !c.is_alphanumeric())
                .to_lowercase()
        })
        .collect();
    let requests = said.first().is_some_and(|w| typo::is_command_word(w))
        && !said[1..].iter().all(|w| {
            ["it", "that", "this", "them", "please", "now", "thanks"].contains(&w.as_str())
        });
    // "oops, that wasn't done": owning up first is no request of its own.
    let owning_up = super::courtesy::owning_up(request);
    if request.trim().is_empty() || owning_up || takes_back(aside) || requests {
        return None;
    }
    // A guess from the part stays a guess: asked before anything is done.
    match plain(request) {
        Resolution::Unresolved { .. } => None,
        read => Some(read),
    }
}
