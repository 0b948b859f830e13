//! Every phrasing the offline grammar lets a person say, its slots filled
//! as a recogniser writes them, is understood as its verb, surely.

use crate::command::COMMANDS;
use crate::resolver::spoken::{form, is_slot};
use crate::resolver::{Folder, Resolution, resolve_in};
use alloc::string::ToString;
use alloc::vec::Vec;

/// What a slot is said as, the `n`th time it comes in one phrasing.
fn filled(slot: &str, n: usize) -> &'static str {
    match (slot, n % 2) {
        ("<file>", _) => "notes dot md",
        ("<name>", _) => "ideas dot md",
        ("<words>", 0) => "call mom",
        ("<words>", _) => "buy bread",
        ("<word>", _) => "ideas",
        _ => panic!("{slot} is no slot"),
    }
}

#[test]
fn every_spoken_phrasing_resolves_to_its_verb() {
    let folder = Folder::new(["notes.md".to_string(), "plan.md".to_string()].into());
    let mut missed = Vec::new();
    let mut said = 0;
    for command in COMMANDS {
        let Some(form) = form(command.id) else {
            continue;
        };
        for phrasing in form.expand() {
            let mut seen = Vec::new();
            let sentence: Vec<&str> = phrasing
                .iter()
                .map(|word| match is_slot(word) {
                    true => {
                        seen.push(*word);
                        filled(word, seen.iter().filter(|s| *s == word).count() - 1)
                    }
                    false => word,
                })
                .collect();
            let sentence = sentence.join(" ");
            said += 1;
            match resolve_in(&sentence, &folder) {
                Resolution::Action(action) if action.verb() == command.id => {}
                got => missed.push(alloc::format!("{sentence:?} ({}): {got:?}", command.verb)),
            }
        }
    }
    assert!(said > 90, "{said} phrasings");
    assert!(missed.is_empty(), "{}", missed.join("\n"));
}

/// The control: a sentence the templates do not make is not taken for
/// one of their verbs just because it shares a word.
#[test]
fn words_beside_a_template_are_not_its_phrasings() {
    let folder = Folder::new(["notes.md".to_string()].into());
    for sentence in ["undo is a word", "the history of rome", "search me"] {
        assert!(
            !matches!(resolve_in(sentence, &folder), Resolution::Action(_)),
            "{sentence}"
        );
    }
}

/// The page's help is made from the same phrasings: every verb said aloud
/// has a line, and every example it shows does what the line says.
#[test]
fn the_help_shows_each_spoken_verb_with_examples_that_do_it() {
    use crate::resolver::spoken::help;
    let folder = Folder::new(["notes.md".to_string(), "plan.md".to_string()].into());
    let help = help();
    let spoken = COMMANDS.iter().filter(|c| form(c.id).is_some()).count();
    assert_eq!(help.len(), spoken);
    for line in &help {
        assert!(!line.says.is_empty() && line.says.len() <= 2, "{line:?}");
        for said in &line.says {
            assert!(!said.contains('<'), "a slot left unfilled: {said}");
            match resolve_in(said, &folder) {
                Resolution::Action(action) if action.verb() == line.verb => {}
                got => panic!("{said:?} ({}): {got:?}", line.does),
            }
        }
    }
    let read = help
        .iter()
        .find(|l| l.verb == crate::command::Verb::Read)
        .unwrap();
    assert_eq!(read.says, ["read notes.md", "open notes.md"]);
}
