//! A file named by a word pointing back: "what did Mrs Kaur order? open
//! her file", "the fox cub went out today, move its file to released/". No
//! file is called "her": the file meant is the folder's one file whose name
//! is a word (or two joined by a dash) said in the sentence, asked first;
//! with none or several, which file is asked.

use super::antecedent::POINTING;
use super::{Resolution, unresolved};
use crate::action::Action;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

/// `resolution` of `text` with a pointing word for a file's name settled
/// on the one file of `names` the sentence names, as a guess.
pub fn settled(text: &str, resolution: Resolution, names: &[String]) -> Resolution {
    let Some(said) = resolution.action().and_then(Action::file) else {
        return resolution;
    };
    if !POINTING.contains(&said.to_lowercase().as_str()) {
        return resolution;
    }
    let said = String::from(said);
    let words: Vec<String> = text
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.len() > 2)
        .map(str::to_lowercase)
        .collect();
    let joined: Vec<String> = words
        .windows(2)
        .map(|w| format!("{}-{}", w[0], w[1]))
        .collect();
    let named = |path: &&String| {
        let leaf = path.rsplit('/').next().unwrap_or(path);
        let stem = leaf.split('.').next().unwrap_or(leaf).to_lowercase();
        words.contains(&stem) || joined.contains(&stem)
    };
    let found: Vec<&String> = names.iter().filter(named).collect();
    let (Some(mut action), [file]) = (resolution.into_action(), found.as_slice()) else {
        return unresolved(format!(
            "Which file is '{said} file'? Say its name, e.g. 'open notes.md'."
        ));
    };
    if let Some(name) = action.file_mut() {
        *name = (*file).clone();
    }
    Resolution::Action(action).guessed(format!("I took '{said} file' as {file}"))
}

#[cfg(test)]
mod tests {
    use crate::action::Action;
    use crate::resolver::{Folder, Resolution, resolve_in};
    use alloc::string::ToString;
    use alloc::vec::Vec;

    fn folder(names: &[&str]) -> Folder {
        Folder::new(names.iter().map(ToString::to_string).collect::<Vec<_>>())
    }

    #[test]
    fn her_file_is_the_one_file_the_sentence_names_asked_first() {
        let orders = folder(&["orders/kaur.md", "orders/bello.md", "patients/fox-cub.md"]);
        match resolve_in("what did Mrs Kaur order? open her file", &orders) {
            Resolution::Guess {
                action: Action::Read { name, .. },
                ..
            } => assert_eq!(name, "orders/kaur.md"),
            other => panic!("{other:?}"),
        }
        // Two words joined by a dash name a file too.
        match resolve_in(
            "the fox cub went out, move its file to released/fox-cub.md",
            &orders,
        ) {
            Resolution::Guess {
                action: Action::Move { name, .. },
                ..
            } => assert_eq!(name, "patients/fox-cub.md"),
            other => panic!("{other:?}"),
        }
        // No file the sentence names, or none at all: which file is asked.
        for (said, names) in [
            ("Mr Ode rang, open his file", &["orders/kaur.md"][..]),
            ("open her file", &[][..]),
        ] {
            assert!(
                matches!(
                    resolve_in(said, &folder(names)),
                    Resolution::Unresolved { .. }
                ),
                "{said}"
            );
        }
        // A file with a name of its own is left as it is.
        assert!(matches!(
            resolve_in("open kaur.md", &folder(&["kaur.md"])),
            Resolution::Action(Action::Read { .. })
        ));
    }
}
