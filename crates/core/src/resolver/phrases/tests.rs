//! The templates' own tests: syntax, faults, and matching against expansion.

use super::*;
use crate::resolver::text::split;

fn phrasings(template: &'static str) -> Vec<String> {
    Phrases::new(template)
        .expand()
        .iter()
        .map(|p| p.join(" "))
        .collect()
}

#[test]
fn groups_and_options_expand_in_order() {
    assert_eq!(
        phrasings("so [that] it (says | reads) | with"),
        [
            "so that it says", "so that it reads", "so it says", "so it reads", "with"
        ]
    );
    assert_eq!(
        phrasings("a [b (c | d [e])]\n  | f"),
        ["a b c", "a b d e", "a b d", "a", "f"]
    );
}

#[test]
fn malformed_templates_are_faults() {
    let fault = |t| Phrases::check(t).err();
    assert_eq!(fault("a (b | c"), Some(Fault::Unclosed));
    assert_eq!(fault("a b) c"), Some(Fault::Unopened));
    assert_eq!(fault("a (b ] c"), Some(Fault::Unopened));
    assert_eq!(fault("a | | b"), Some(Fault::EmptyAlternative));
    assert_eq!(fault("a | b |"), Some(Fault::EmptyAlternative));
    assert_eq!(fault("a (b | ) c"), Some(Fault::EmptyAlternative));
    assert_eq!(fault("a [] c"), Some(Fault::EmptyAlternative));
    assert_eq!(fault(" "), Some(Fault::EmptyAlternative));
    assert_eq!(fault("((((((((((a))))))))))"), Some(Fault::TooDeep));
    assert_eq!(fault("so it Says"), Some(Fault::NotAKey));
    assert_eq!(fault("what's there"), Some(Fault::NotAKey));
    assert_eq!(fault("'cause"), Some(Fault::NotAKey));
    assert_eq!(fault("done."), Some(Fault::NotAKey));
    assert_eq!(fault("um so"), Some(Fault::NotAKey));
    // The positive control: the same shapes, well formed.
    assert_eq!(fault("a (b | c)"), None);
    assert_eq!(fault("a [b] c | (d [e | f])"), None);
    assert_eq!(fault("what is there"), None);
    assert_eq!(fault("it'd -> so"), None);
}

/// What every way of matching finds: the lengths of the phrasings the
/// text begins with, longest first.
fn prefixes(template: &'static str, text: &str) -> Vec<usize> {
    let list = split(text);
    let mut found = Vec::new();
    Phrases::new(template).each_prefix(&Words::new(text, &list), &mut |n| found.push(n));
    found.sort_unstable_by(|a, b| b.cmp(a));
    found.dedup();
    found
}

#[test]
fn matching_agrees_with_the_expansion() {
    let template = "so [that] it [only] (contains | says) | so | with [the] (text | words)
        | a [b] [b c] | [(x | [y] z)] w";
    for text in [
        "so that it only says hi",
        "so it says",
        "so that it",
        "with the words x",
        "with words",
        "a b c d",
        "a b b c",
        "b",
        "x w",
        "y z w",
        "z w",
        "w",
        "y w",
        "",
    ] {
        let keys: Vec<String> = split(text).iter().map(|w| w.key.clone()).collect();
        let mut expected: Vec<usize> = Phrases::new(template)
            .expand()
            .iter()
            .filter(|p| keys.starts_with(&p.iter().map(|w| String::from(*w)).collect::<Vec<_>>()))
            .map(|p| p.len())
            .collect();
        expected.sort_unstable_by(|a, b| b.cmp(a));
        expected.dedup();
        assert_eq!(prefixes(template, text), expected, "{text}");
        // The first-word filter turns away no run a phrasing begins.
        let list = split(text);
        let longest = Phrases::new(template).longest(&Words::new(text, &list));
        assert_eq!(longest, expected.first().copied(), "{text}");
    }
}

#[test]
fn a_template_that_may_say_nothing_matches_every_run() {
    let list = split("zzz");
    let words = Words::new("zzz", &list);
    assert_eq!(Phrases::new("[a] | b").longest(&words), Some(0));
    assert_eq!(Phrases::new("[a] | b").longest(&words.to(0)), Some(0));
    // The positive control's opposite: a template that must say something.
    assert_eq!(Phrases::new("a | b").longest(&words), None);
    assert_eq!(Phrases::new("a | b").longest(&words.to(0)), None);
}

#[test]
fn longest_prefix_and_first_suffix() {
    let p = Phrases::new("in it | it | into it | is (in | inside) there");
    let text = "hello in it";
    let list = split(text);
    let words = Words::new(text, &list);
    assert_eq!(p.longest(&words.from(1)), Some(2));
    assert_eq!(p.longest(&words), None);
    // The first phrasing in order wins at the end: "in it" before "it".
    assert_eq!(p.first_suffix(words), Some(2));
    assert_eq!(Phrases::new("it | in it").first_suffix(words), Some(1));
    assert_eq!(p.first_suffix(words.to(2)), None);
}
