//! The offline recogniser's JSGF grammar, generated from the core's spoken
//! forms (the templates the resolver is tested on) and the names of the
//! files in the root: every verb that has a spoken form gets a rule, and
//! every file name is spelled the way the script resolver reads it back
//! ("hello.txt" is "hello dot txt").

use std::collections::BTreeSet;
use voicebox_core::command::{COMMANDS, Verb};
use voicebox_core::resolver::spoken::form;

/// Extensions a new file may be given by voice.
const EXTENSIONS: &[&str] = &["txt", "md", "json", "csv", "log", "html"];

/// Words that may be spoken as content, a search or a new file's name,
/// besides the words of the files in the root.
const VOCABULARY: &[&str] = &[
    "hello", "world", "hi", "goodbye", "notes", "todo", "shopping", "plan", "ideas", "report",
    "draft", "eggs", "milk", "bread", "and", "call", "mom", "buy", "meeting", "today", "tomorrow",
    "monday", "friday", "yes", "no", "one", "two", "three", "test", "remember", "the", "list",
];

/// Spoken joiners, as the resolver reads them.
const JOINERS: &[(char, &str)] = &[
    ('.', "dot"),
    ('/', "slash"),
    ('_', "underscore"),
    ('-', "dash"),
];

/// The spoken form of each verb as a JSGF rule body, `None` for verbs that
/// are not spoken: the core's templates (`resolver::spoken`), whose slots
/// are this grammar's rules.
fn spoken(verb: Verb) -> Option<String> {
    let form = form(verb)?;
    Some(
        form.template()
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" "),
    )
}

/// A file name as spoken words, when every part is a plain word
/// ("drafts/plan.md" → "drafts slash plan dot md"); `None` otherwise.
pub(crate) fn spell(name: &str) -> Option<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    for c in name.chars() {
        if let Some((_, joiner)) = JOINERS.iter().find(|(j, _)| *j == c) {
            if word.is_empty() {
                return None;
            }
            words.push(std::mem::take(&mut word));
            words.push((*joiner).to_string());
        } else if c.is_ascii_lowercase() {
            word.push(c);
        } else {
            return None;
        }
    }
    if word.is_empty() {
        return None;
    }
    words.push(word);
    Some(words.join(" "))
}

pub(crate) struct Grammar {
    pub jsgf: String,
    /// Every word the grammar can produce (to be found in the dictionary).
    pub words: BTreeSet<String>,
}

/// The grammar for a root holding `files` (names relative to the root).
pub fn grammar(files: &[String]) -> Grammar {
    let spelled: BTreeSet<String> = files.iter().filter_map(|f| spell(f)).collect();
    let mut vocabulary: BTreeSet<String> = VOCABULARY.iter().map(|w| w.to_string()).collect();
    for name in &spelled {
        vocabulary.extend(
            name.split(' ')
                .filter(|w| !JOINERS.iter().any(|(_, j)| j == w))
                .map(String::from),
        );
    }
    let mut rules = Vec::new();
    let mut names = Vec::new();
    for command in COMMANDS {
        if let Some(form) = spoken(command.id) {
            let rule = command.verb.replace('_', "");
            rules.push(format!("<{rule}> = {form};"));
            names.push(format!("<{rule}>"));
        }
    }
    // What is read, deleted or edited is a file of the root (any name only
    // when the root is empty); a new file's name is one word and a suffix.
    let (file, name) = if spelled.is_empty() {
        ("<new>".to_string(), "<new>")
    } else {
        let known: Vec<&str> = spelled.iter().map(String::as_str).collect();
        (known.join(" | "), "<file> | <new>")
    };
    let word = vocabulary.iter().cloned().collect::<Vec<_>>().join(" | ");
    let jsgf = format!(
        "#JSGF V1.0;\ngrammar voicebox;\npublic <utterance> = [please] <command> [please];\n<command> = {};\n{}\n<file> = {file};\n<new> = <word> dot <ext>;\n<name> = {name};\n<ext> = {};\n<words> = <word> [<word>] [<word>] [<word>];\n<word> = {word};\n",
        names.join(" | "),
        rules.join("\n"),
        EXTENSIONS.join(" | "),
    );
    let mut words: BTreeSet<String> = jsgf
        .lines()
        .filter(|l| l.starts_with('<') || l.starts_with("public"))
        .flat_map(|l| l.split_once('=').map(|(_, r)| r.to_string()))
        .flat_map(|r| {
            r.split(|c: char| !c.is_ascii_lowercase() && c != '<' && c != '>')
                .map(String::from)
                .collect::<Vec<_>>()
        })
        .filter(|w| !w.is_empty() && !w.contains('<') && !w.contains('>'))
        .collect();
    words.extend(vocabulary);
    Grammar { jsgf, words }
}

/// Phones for a word the dictionary lacks: its letters spelled out
/// ("txt" → T, X, T), when the dictionary has every letter.
pub(crate) fn spelled_phones(
    word: &str,
    dictionary: &std::collections::HashMap<String, String>,
) -> Option<String> {
    let letters: Option<Vec<&String>> = word
        .chars()
        .map(|c| dictionary.get(&c.to_string()))
        .collect();
    letters.map(|l| l.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use voicebox_core::resolver::{Resolution, resolve};

    #[test]
    fn names_are_spelled_as_the_resolver_reads_them() {
        assert_eq!(spell("hello.txt").as_deref(), Some("hello dot txt"));
        assert_eq!(
            spell("drafts/plan.md").as_deref(),
            Some("drafts slash plan dot md")
        );
        assert_eq!(spell("Notes.md"), None);
        assert_eq!(spell("a1.txt"), None);
        for (spoken, name) in [
            ("read hello dot txt", "hello.txt"),
            ("read drafts slash plan dot md", "drafts/plan.md"),
            ("read my underscore notes dot md", "my_notes.md"),
        ] {
            let Resolution::Action(action) = resolve(spoken) else {
                panic!("{spoken} did not resolve");
            };
            let action = serde_json::to_value(action).unwrap();
            assert_eq!(action["name"], name, "{spoken}");
        }
    }

    /// Every verb with a spoken form has its rule, made from the core's
    /// template (whose phrasings the core's tests resolve, one by one).
    #[test]
    fn every_spoken_verb_has_a_rule_from_the_cores_form() {
        let g = grammar(&["hello.txt".into(), "notes.md".into()]);
        for command in COMMANDS {
            let rule = format!("<{}>", command.verb.replace('_', ""));
            assert_eq!(
                g.jsgf.contains(&rule),
                spoken(command.id).is_some(),
                "{}",
                command.verb
            );
        }
        assert!(
            g.jsgf
                .contains("<append> = (add | append) <words> to <file> [under <word>];")
        );
        assert!(g.jsgf.contains("hello dot txt | notes dot md"));
        assert!(g.words.contains("txt") && g.words.contains("dot"));
    }
}
