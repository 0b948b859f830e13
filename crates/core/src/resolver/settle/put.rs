//! "put 2 bottles of Barolo in cellar.md": words put into a file are added
//! to it, and a file that is not there is made, as an append makes it.
//! Replacing its text is said so ("write", "overwrite", "replace", "just
//! put").

use super::tokens;
use crate::action::Action;

/// Words that make a put replace what the file says.
const REPLACING: &[&str] = &[
    "write", "overwrite", "replace", "replacing", "save", "instead", "just", "only", "clear",
    "wipe", "erase", "empty", "rewrite", "redo",
];

/// `action`, with a plain put read as an append.
pub fn adds(text: &str, action: Action) -> Action {
    let Action::Write {
        name,
        content,
        mode: None,
        expect: None,
    } = action
    else {
        return action;
    };
    let said = tokens(text);
    let put =
        said.iter().any(|t| t == "put") && !said.iter().any(|t| REPLACING.contains(&t.as_str()));
    match put && !content.is_empty() {
        true => Action::Append {
            name,
            content,
            under: None,
            expect: None,
        },
        false => Action::Write {
            name,
            content,
            mode: None,
            expect: None,
        },
    }
}
