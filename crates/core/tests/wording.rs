//! Every sentence a refusal carries is read by a person: it says what to do
//! in words, so none speaks of "the project root" or names an HTTP route or
//! a command-line flag. Read from the source of the core, the machine and
//! the server, each `Refusal::new` and each tier rule's `why`, so a new
//! refusal is held to it too; only the command line's own refusals
//! (`commands/`) may name its flags.

use std::path::Path;

/// What a person's sentence must not hold, and why.
const PLUMBING: [(&str, &str); 6] = [
    ("project root", "say \"your folder\""),
    ("execution root", "say \"your folder\""),
    ("/api/", "an HTTP route"),
    ("POST /", "an HTTP request"),
    ("PUT /", "an HTTP request"),
    ("--root", "a command-line flag"),
];

/// The first string literal after each `marker` in `source`.
fn sentences_after<'a>(source: &'a str, marker: &str) -> Vec<&'a str> {
    source
        .match_indices(marker)
        .filter_map(|(at, _)| {
            let rest = &source[at + marker.len()..];
            let open = rest.find('"')?;
            // Only the call's own arguments: no `;` before the literal.
            if rest[..open].contains(';') {
                return None;
            }
            let text = &rest[open + 1..];
            Some(&text[..text.find('"')?])
        })
        .collect()
}

/// Each sentence in `source` that holds plumbing, with what it holds.
fn plumbing_in(source: &str) -> Vec<String> {
    let mut found = Vec::new();
    for marker in ["Refusal::new(", "why: \""] {
        let marker = marker.trim_end_matches('"');
        for sentence in sentences_after(source, marker) {
            for (word, what) in PLUMBING {
                if sentence.contains(word) {
                    found.push(format!("{sentence:?} holds {word:?} ({what})"));
                }
            }
        }
    }
    found
}

fn rust_files(dir: &Path, into: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, into);
        } else if path.extension().is_some_and(|e| e == "rs") {
            into.push(path);
        }
    }
}

#[test]
fn no_refusal_speaks_of_the_project_root_or_names_a_route() {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    for name in ["core", "machine", "server"] {
        rust_files(&crates.join(name).join("src"), &mut files);
    }
    let mut found = Vec::new();
    let mut sentences = 0;
    for file in &files {
        let source = std::fs::read_to_string(file).unwrap();
        let command_line = file.components().any(|part| part.as_os_str() == "commands");
        sentences += sentences_after(&source, "Refusal::new(").len();
        found.extend(
            plumbing_in(&source)
                .into_iter()
                .filter(|f| !(command_line && f.contains("holds \"--root\"")))
                .map(|f| format!("{}: {f}", file.display())),
        );
    }
    assert!(sentences > 50, "the scan reads the refusals: {sentences}");
    assert!(found.is_empty(), "{found:#?}");
}

/// The control: the scan sees plumbing where there is some, in either form.
#[test]
fn the_scan_sees_plumbing_when_there_is_some() {
    let source = r#"
        Refusal::new(Rule::RootNotDeclared, "no project root is declared");
        Refusal::new(
            Rule::X,
            format!("declare one with POST /api/root {{}}"),
        );
        TierRule { why: "the execution root is the only place" };
        Refusal::new(Rule::Y, "choose the folder to work in");
    "#;
    let found = plumbing_in(source);
    assert_eq!(found.len(), 4, "{found:#?}");
}
