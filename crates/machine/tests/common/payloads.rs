//! Our own path-traversal payloads, generated, so the containment suite needs
//! nothing outside the repository. They cover what the public traversal
//! payload lists try (written against web servers and URL decoders): every
//! spelling of `..` and of a separator those lists use, at every depth from 1
//! to 8, after every kind of prefix, aimed at every file an escape would want.
//!
//! The full product is too large to run on a real folder in a few seconds, so
//! [`cases`] takes every spelling of the traversal (dots × separator × depth)
//! twice and rotates the prefix and the target through them; every pair of
//! choices still meets at least once (`the_generator_covers_every_pair_of_choices`).

/// `..` as encoders and decoders spell it.
pub const DOTS: [&str; 10] = [
    "..", "%2e%2e", "%2E%2E", "%2e.", ".%2E", "%252e%252e",       // percent-encoded twice
    "%c0%ae%c0%ae",     // overlong UTF-8
    "\u{FF0E}\u{FF0E}", // fullwidth full stops
    "\u{2024}\u{2024}", // one dot leaders (look-alikes)
    "....",             // collapses to `..` under a naive `../` strip
];

/// A separator as encoders and decoders spell it.
pub const SEPARATORS: [&str; 12] = [
    "/", "\\", "//", "/./", "\\/", // mixed
    "%2f", "%2F", "%5c", "%252f",    // percent-encoded twice
    "%c0%af",   // overlong UTF-8
    "\u{2215}", // division slash
    "\u{FF0F}", // fullwidth solidus
];

/// How many times the `..` step repeats.
pub const DEPTHS: [usize; 8] = [1, 2, 3, 4, 5, 6, 7, 8];

/// What comes before the steps: nothing, the current folder, a real folder
/// inside the root (`notes/`), a link inside the root to it (`docs/`), an
/// absolute path, a URL scheme and drive letters.
pub const PREFIXES: [&str; 9] = [
    "", "./", "notes/", "docs/", "/", "file:", "file:///", "C:", "C:\\",
];

/// What an escape would want: a system file, the host's own folders, hidden
/// files, and the host's state folder (kept beside the root as `state/`).
pub const TARGETS: [&str; 6] = [
    "etc/passwd", ".audit/x.jsonl", ".voicebox/undo", ".env", ".git/config", "state/host-token",
];

/// The sizes of the five choices, in the order of [`Case::choice`].
pub const CHOICES: [usize; 5] = [
    DOTS.len(),
    SEPARATORS.len(),
    DEPTHS.len(),
    PREFIXES.len(),
    TARGETS.len(),
];

/// One payload and the choices it was made from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Case {
    /// The name given to an act, exactly as generated (never decoded).
    pub name: String,
    /// Indices into [`DOTS`], [`SEPARATORS`], [`DEPTHS`], [`PREFIXES`], [`TARGETS`].
    pub choice: [usize; 5],
}

impl Case {
    /// Whether the name must be refused as `outside-root`: a traversal on
    /// this machine (a `..` part between `/`s), any backslash (a Windows
    /// separator, never taken as a literal), or an absolute path. Every other
    /// spelling is a literal name.
    pub fn escapes(&self) -> bool {
        self.name.split('/').any(|part| part == "..")
            || self.name.contains('\\')
            || self.name.starts_with('/')
    }

    /// Whether a part of the name between `/`s is hidden (starts with a dot
    /// and is not `.`): such a literal name is `dotfile-refused`.
    pub fn hidden(&self) -> bool {
        self.name
            .split('/')
            .any(|part| part.starts_with('.') && part != ".")
    }
}

/// Every case, in a fixed order: each traversal spelling twice, the prefix
/// and target rotating through consecutive case numbers.
pub fn cases() -> Vec<Case> {
    let mut out = Vec::new();
    for (dots, dots_spelling) in DOTS.iter().enumerate() {
        for (separator, separator_spelling) in SEPARATORS.iter().enumerate() {
            let step = format!("{dots_spelling}{separator_spelling}");
            for (depth, steps) in DEPTHS.iter().enumerate() {
                for _ in 0..2 {
                    let n = out.len();
                    let (prefix, target) = (n % PREFIXES.len(), n / PREFIXES.len() % TARGETS.len());
                    out.push(Case {
                        name: format!(
                            "{}{}{}",
                            PREFIXES[prefix],
                            step.repeat(*steps),
                            TARGETS[target]
                        ),
                        choice: [dots, separator, depth, prefix, target],
                    });
                }
            }
        }
    }
    out
}
