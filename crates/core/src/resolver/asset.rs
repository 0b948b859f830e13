//! `create_asset`: "create an svg asset called logo.svg with <svg …>", "make
//! an svg named dot.svg containing …", "new text asset note.txt saying hi",
//! "add an html asset page.html with <p>hi</p>".
//!
//! A sentence is an asset's only when it says so — the word "asset", or an
//! SVG ("draw an svg called …"), which this host only makes as an asset —
//! so "create a text file called a.txt with hi" stays a write. The kind is
//! the one named, else the name's extension (`.svg`, `.html`/`.htm`, else
//! text); the create-asset tool and the core check both.

use super::name::{Target, target};
use super::phrases::Phrases;
use super::text::Words;
use super::{Resolution, claim_unresolved, content, unresolved, write};
use crate::action::Action;
use alloc::format;
use alloc::string::String;

const HEADS: Phrases = Phrases::new("create | make | generate | draw | render | add | new");

/// Who it is for and which one: "make me an svg", "create a new asset".
const FILLER: Phrases = Phrases::new("me | us | a [new] | an | the | new");

const KINDS: &[(Phrases, &str)] = &[
    (Phrases::new("svg"), "svg"),
    (Phrases::new("html"), "html"),
    (Phrases::new("[plain] text"), "text"),
];

const ASSET: Phrases = Phrases::new("asset | assets");

/// What an SVG may be called instead of an asset ("draw an svg image called …").
const PICTURES: Phrases = Phrases::new("image | picture | graphic | drawing | icon");

const USAGE: &str = "To make an asset say e.g. 'create an svg asset called logo.svg with <svg …>' or 'create a text asset called note.txt with hello'.";

pub fn resolve(words: Words<'_>) -> Option<Resolution> {
    let rest = words.after_any(HEADS)?.trim_start(FILLER);
    let (kind, rest) = match rest.after_tagged(KINDS) {
        Some((kind, rest)) => (Some(kind), rest),
        None => (None, rest),
    };
    let rest = match rest.after_any(ASSET) {
        Some(rest) => rest,
        // "an svg file called …" is a file like any other: a write.
        None if kind == Some("svg") && !rest.starts_with(&["file"]) => rest.trim_start(PICTURES),
        None => return None,
    };
    write::named_then_said(rest, |name, said| made(kind, name, said)).or_else(|| {
        match target(rest) {
            Target::File(name) => claim_unresolved(format!(
                "What should {name} contain? Say e.g. 'create an asset called {name} with …'."
            )),
            _ => claim_unresolved(USAGE),
        }
    })
}

/// The asset `name` with the body `said`, of the kind named or read off the name.
fn made(kind: Option<&'static str>, name: String, said: Words<'_>) -> Resolution {
    // Assets live in assets/ already; "assets/logo.svg" names the same one.
    let name = match name.strip_prefix("assets/") {
        Some(inside) if !inside.is_empty() => String::from(inside),
        _ => name,
    };
    match content::text(said) {
        Some(body) => Resolution::Action(Action::CreateAsset {
            kind: kind.unwrap_or_else(|| kind_of(&name)).into(),
            name,
            body,
        }),
        None => unresolved(format!("What should the asset {name} contain?")),
    }
}

fn kind_of(name: &str) -> &'static str {
    let lower = name.to_ascii_lowercase();
    if lower.ends_with(".svg") {
        "svg"
    } else if lower.ends_with(".html") || lower.ends_with(".htm") {
        "html"
    } else {
        "text"
    }
}
