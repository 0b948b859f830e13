//! How each verb may be said aloud, as phrase templates with slots: the one
//! table the offline recogniser's grammar is made from, and that the
//! resolver is tested on (every phrasing, its slots filled, resolves to its
//! verb). A phrasing added here reaches speech at once, and the test proves
//! typed words understand it too.
//!
//! The slots, written as JSGF rule names so a template is a JSGF rule body
//! as it stands: `<file>` a file of the folder, `<name>` any file's name,
//! `<words>` a few words of content, `<word>` one word.

use super::phrases::{Phrases, phrases};
use crate::command::Verb;

/// The spoken form of `verb`; `None` for verbs no one says aloud (tools,
/// extensions, assets).
pub fn form(verb: Verb) -> Option<Phrases> {
    Some(match verb {
        Verb::List => phrases!("(list | show [me]) [all] [the | my] files | what files are there"),
        Verb::Read => phrases!(
            "(read | open | show [me]) [the file [called]] <file> | what is in <file>
             | read the (first | last) (two | three | five | ten) lines of <file>"
        ),
        Verb::Write => phrases!(
            "(create | make) a file called <name> (with | containing | saying) <words>
             | write <words> to <name>"
        ),
        Verb::Append => phrases!("(add | append) <words> to <file> [under <word>]"),
        Verb::Delete => phrases!("(delete | remove) [the file [called]] <file>"),
        Verb::Edit => phrases!("replace <words> with <words> in <file>"),
        Verb::Diff => phrases!("diff <file> with <words>"),
        Verb::Grep => phrases!("search for <words>"),
        Verb::Undo => phrases!("undo [that | the last change] | undo the change to <file>"),
        Verb::Move => phrases!("(rename | move) <file> to <name>"),
        Verb::Copy => phrases!("copy <file> to <name>"),
        Verb::Mkdir => phrases!("(make | create) a folder called <word>"),
        Verb::Find => phrases!("where is the <word> file"),
        Verb::Info => phrases!("how big is <file>"),
        Verb::CheckItem => phrases!("(check off | tick) <words> in <file>"),
        Verb::RemoveItem => phrases!("cross <words> off <file>"),
        Verb::ListExtensions => {
            phrases!("(list | what) extensions [are there] | what tools are there")
        }
        Verb::Changes => phrases!(
            "what (did i change | has changed | changed)
             [today | since yesterday | this week | since the last commit]"
        ),
        Verb::History => phrases!("show [me] the history [of <file>]"),
        Verb::CreateAsset
        | Verb::Tool
        | Verb::MakeTool
        | Verb::ProposeExtension
        | Verb::CallExtension => return None,
    })
}

/// Whether `word` of a template is a slot (`<file>`), not a word to say.
pub fn is_slot(word: &str) -> bool {
    word.len() > 2 && word.starts_with('<') && word.ends_with('>')
}
