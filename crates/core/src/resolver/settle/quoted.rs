//! A file the sentence mentions put in as its exact name, for the sentence
//! to be read again: the words that said it, with the kind of file said
//! before or after them ("the recipe for pancakes", "the groceries file")
//! and the file's own folder said again ("in old photos").

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

/// `text` with the words `words` replaced by `"name"` (their leading and
/// trailing punctuation kept), and a following "file" or "list" folded in.
pub(super) fn quoted(text: &str, name: &str, words: core::ops::RangeInclusive<usize>) -> String {
    let parts: Vec<&str> = text.split(' ').collect();
    let (said_first, last) = (*words.start(), *words.end());
    let bare = |word: &str| {
        word.trim_matches(|c: char| !c.is_alphanumeric())
            .to_lowercase()
    };
    // "recipe" or "recipes" of `Recipes/Pancakes.md`: the kind of file its folder names.
    let kind = |word: &str| {
        let word = bare(word);
        let dirs = name.rsplit_once('/').map_or("", |(dirs, _)| dirs);
        !word.is_empty()
            && dirs.split('/').any(|dir| {
                let dir = dir.to_lowercase();
                dir == word || dir == format!("{word}s") || format!("{dir}s") == word
            })
    };
    let first = kinded_before(&parts, said_first, &bare, &kind);
    let lead: String = parts[first]
        .chars()
        .take_while(|c| !c.is_alphanumeric() && !"./~".contains(*c))
        .collect();
    let tail_of = |word: &str| -> String {
        let kept = word.trim_end_matches(|c: char| !c.is_alphanumeric());
        String::from(&word[kept.len()..])
    };
    let mut end = last;
    let mut trail = tail_of(parts[last]);
    let extension = name.rsplit_once('.').map(|(_, e)| e.to_lowercase());
    let folds = |word: &str| {
        let word = word
            .trim_end_matches(|c: char| !c.is_alphanumeric())
            .to_lowercase();
        NOUNS.contains(&word.as_str()) || extension.as_deref() == Some(word.as_str()) || kind(&word)
    };
    if trail.is_empty()
        && let Some(next) = parts.get(last + 1)
        && folds(next)
    {
        end = last + 1;
        trail = tail_of(next);
    }
    if trail.is_empty()
        && let Some(after) = own_folder_after(&parts, end, name, &bare)
    {
        end = after;
        trail = tail_of(parts[end]);
    }
    let mut out: Vec<String> = parts[..first].iter().map(|p| String::from(*p)).collect();
    // A name with no extension is said as a file's name, so no verb reads it as a bare word.
    let named = match name.rsplit('/').next().unwrap_or(name).contains('.') {
        true => format!("\"{name}\""),
        false => format!("the file called \"{name}\""),
    };
    out.push(format!("{lead}{named}{trail}"));
    out.extend(parts[end + 1..].iter().map(|p| String::from(*p)));
    out.join(" ")
}

/// Where a name said at `first` starts when its kind comes before it: "the
/// recipe for pancakes", "the letter to the landlord".
fn kinded_before(
    parts: &[&str],
    first: usize,
    bare: &impl Fn(&str) -> String,
    kind: &impl Fn(&str) -> bool,
) -> usize {
    let mut at = first;
    if at > 0 && bare(parts[at - 1]) == "the" {
        at -= 1;
    }
    if at > 0 && ["for", "to", "of", "about", "from"].contains(&bare(parts[at - 1]).as_str()) {
        at -= 1;
    }
    match at > 0 && kind(parts[at - 1]) {
        true => at - 1,
        false => first,
    }
}

/// The last word of "in old photos", "from the Old Photos folder" said
/// after the name at `end` of a file in that folder: where the file is,
/// said again, so no part of the request.
fn own_folder_after(
    parts: &[&str],
    end: usize,
    name: &str,
    bare: &impl Fn(&str) -> String,
) -> Option<usize> {
    let (dirs, _) = name.rsplit_once('/')?;
    let dir = dirs.rsplit('/').next().unwrap_or(dirs);
    let dir: Vec<String> = dir
        .split([' ', '-', '_'])
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    let mut at = end + 1;
    if !["in", "from", "inside", "under"].contains(&bare(parts.get(at)?).as_str()) {
        return None;
    }
    at += 1;
    if parts.get(at).is_some_and(|w| bare(w) == "the") {
        at += 1;
    }
    let said = parts.get(at..at + dir.len())?;
    if !said.iter().zip(&dir).all(|(w, d)| bare(w) == *d) {
        return None;
    }
    let last = at + dir.len() - 1;
    // A comma after the folder closes it; "folder" after it is part of it.
    let noun = parts
        .get(last + 1)
        .is_some_and(|w| ["folder", "directory"].contains(&bare(w).as_str()));
    Some(if noun && !parts[last].ends_with(',') {
        last + 1
    } else {
        last
    })
}

/// Nouns a person puts after a file's name ("the groceries file").
const NOUNS: &[&str] = &["file", "list", "document", "doc", "note"];
