//! Where a change's words end is the reading most often wrong on sentences
//! never seen: a joining word kept at the start of the text ("to the Done
//! section: …"), a place or a courtesy kept at its end ("… at the end",
//! "… thank you"). A change whose text has such an edge is not done on
//! the reading: it is asked, with the text as read, so a wrong cut costs a
//! No and never a wrong change.

use super::Resolution;
use crate::action::Action;

/// Words that join a text to its place: a text opening with one was cut
/// in the wrong place.
const OPENINGS: &[&str] = &[
    "to the ", "to my ", "into ", "onto ", "under ", "in ", "inside:", "for me ", "as a new ",
    "a new file", "no wait", "no, ", "i mean ",
];

/// Places and courtesies that close a request rather than a text.
const CLOSINGS: &[&str] = &[
    " inside", " in it", " section", " heading", " at the end", " at the bottom", " at the top",
    " thank you", " thanks", " for me", " please",
];

/// `resolution` of `said`, asked first when the text of the change it
/// makes has an edge that belongs to the request. A text the person quoted
/// is theirs to the letter.
pub fn unsure(said: &str, resolution: Resolution) -> Resolution {
    let text = match resolution.action() {
        Some(Action::Write { content, .. } | Action::Append { content, .. }) => content,
        Some(Action::Edit { new_text, .. }) => new_text,
        Some(Action::CheckItem { item, .. } | Action::RemoveItem { item, .. }) => item,
        _ => return resolution,
    };
    let quoted = [('"', '"'), ('\'', '\''), ('“', '”'), ('‘', '’')]
        .iter()
        .any(|(open, close)| said.contains(&alloc::format!("{open}{text}{close}")));
    let edge = edge(text).filter(|_| !quoted);
    match edge {
        Some(said) => resolution.guessed(alloc::format!(
            "I wasn't sure where the text ends: I kept '{said}' in it"
        )),
        None => resolution,
    }
}

/// Words inside a text that belong to the request: a heading said after
/// it, a remark or reason after a comma.
const INSIDE: &[&str] = &[
    " under the heading ", " under heading ", ", it ", ", because ", ", since ", ", he ", ", she ",
    ", they ", ", done ",
];

/// What a text may be described as instead of said: "one more line".
const DESCRIBED: &[&str] = &[
    "one more line", "a line", "a new line", "another line", "an entry", "a new entry",
    "another entry", "a note", "a new note", "an item", "something",
];

/// A request's own words closing a text in brackets: "(replace whatever is
/// there)".
const BRACKETED: &[&str] = &[
    "replace", "overwrite", "whatever", "please", "thanks", "new file",
];

/// The request's words at either end of `text` or inside it, if any; a
/// closing only after a few words of text of its own ("many thanks" is a
/// text).
fn edge(text: &str) -> Option<&'static str> {
    let lower = text.to_lowercase();
    let words = lower.split_whitespace().count();
    let bracketed = lower
        .strip_suffix(')')
        .and_then(|open| open.rsplit_once('('))
        .and_then(|(_, inside)| BRACKETED.iter().find(|w| inside.contains(*w)));
    OPENINGS
        .iter()
        .find(|w| lower.starts_with(*w))
        .or_else(|| {
            CLOSINGS
                .iter()
                .find(|w| lower.ends_with(*w) && words >= w.split_whitespace().count() + 2)
        })
        .or_else(|| INSIDE.iter().find(|w| lower.contains(*w)))
        .or_else(|| DESCRIBED.iter().find(|w| lower == **w))
        .or(bracketed)
        .map(|w| w.trim_matches([' ', ',']))
}

#[cfg(test)]
mod tests {
    use crate::action::Action;
    use crate::resolver::{Resolution, resolve};

    fn asked(said: &str) -> bool {
        matches!(resolve(said), Resolution::Guess { .. })
    }

    #[test]
    fn a_text_with_the_requests_words_at_an_edge_is_asked() {
        // A place or a courtesy kept at the end of the text.
        assert!(asked("setlist.md, add Seven Nation Army at the end"));
        assert!(asked(
            "make a file route.md with Day 1 Inverness to Ullapool thank you"
        ));
        // A joining word kept at its start.
        assert!(asked(
            "add to the Done section: fixed the build to standup.md"
        ));
        // The same text quoted is the person's to the letter, and a text
        // that is only courtesy is a text.
        assert_eq!(
            resolve("add \"see you at the end\" to card.md").into_action(),
            Some(Action::Append {
                name: "card.md".into(),
                content: "see you at the end".into(),
                under: None,
                expect: None,
            })
        );
        assert!(asked(
            "in starter.md add hydration 100% in the Notes section"
        ));
        assert!(asked("erm in huts.md change 14 Aug to — no, to 15 Aug"));
        assert!(asked(
            "Make a new text file, hops.txt, with Cascade 30g, Citra 20g inside."
        ));
        // A heading or a reason inside the text, a text only described,
        // and the request's words in brackets at its end.
        assert!(asked(
            "orders.md: add Le Guin, The Dispossessed under the heading Waiting"
        ));
        assert!(asked("in sends.txt change V4 to V5, it got regraded"));
        assert!(asked("add one more line to timetable.md, Sat 10am Tap"));
        assert!(asked(
            "write venue.md as The Crown (replace whatever is there)"
        ));
        assert!(!asked("write venue.md as The Crown (upstairs)"));
        assert!(!asked("add many thanks to card.md"));
        assert!(!asked("put to absent friends in toast.md"));
        assert!(!asked("add oat milk to shopping.md"));
    }
}
