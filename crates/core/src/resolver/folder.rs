//! What the resolver knows of the folder a sentence is said in: its files,
//! the file the previous turn named, the project's notes for a model, the
//! host's tools and today's note.

use alloc::string::String;
use alloc::vec::Vec;

/// The most names the resolver is given (the host bounds its walk too).
pub const MAX_NAMES: usize = 5000;

/// The files in the folder, as paths from its root, and the file the
/// previous turn acted on ("delete it" right after a write means that file).
#[derive(Clone, Debug, Default)]
pub struct Folder {
    names: Vec<String>,
    previous: Option<String>,
    /// The project's own notes for a model (its `AGENTS.md`), bounded.
    notes: Option<String>,
    /// The tools the host can run (its shelf and admitted extensions), each
    /// with what it does; `None` when the host did not say.
    tools: Option<Vec<(String, String)>>,
    /// Today's note, as a path from the root (see [`super::daily`]).
    daily: Option<String>,
}

impl Folder {
    pub fn new(mut names: Vec<String>) -> Folder {
        names.truncate(MAX_NAMES);
        Folder {
            names,
            previous: None,
            notes: None,
            tools: None,
            daily: None,
        }
    }

    /// The same folder, with the path of today's note: the file "today's
    /// note" and "my daily note" name.
    pub fn with_daily(self, path: String) -> Folder {
        Folder {
            daily: Some(path),
            ..self
        }
    }

    /// The path of today's note, when the host said.
    pub fn daily(&self) -> Option<&str> {
        self.daily.as_deref()
    }

    /// The same folder, with the tools the host can run (id, what it does):
    /// the only ids a sentence's tool is settled on.
    pub fn with_tools(self, tools: impl IntoIterator<Item = (String, String)>) -> Folder {
        Folder {
            tools: Some(tools.into_iter().collect()),
            ..self
        }
    }

    /// The tools the host can run, when it said.
    pub fn tools(&self) -> Option<&[(String, String)]> {
        self.tools.as_deref()
    }

    /// The same folder, with the project's notes for a model (see
    /// [`crate::prompt::system_for`]); cut to [`MAX_NOTES`] bytes.
    pub fn with_notes(self, notes: Option<String>) -> Folder {
        let notes = notes.map(|mut notes| {
            if notes.len() > MAX_NOTES {
                let mut end = MAX_NOTES;
                while !notes.is_char_boundary(end) {
                    end -= 1;
                }
                notes.truncate(end);
            }
            notes
        });
        Folder { notes, ..self }
    }

    /// The project's notes for a model, if it has any.
    pub fn notes(&self) -> Option<&str> {
        self.notes.as_deref()
    }

    /// The same folder, with the file the previous turn acted on.
    pub fn after(self, previous: Option<String>) -> Folder {
        Folder { previous, ..self }
    }

    pub fn is_empty(&self) -> bool {
        self.names.is_empty() && self.previous.is_none()
    }

    /// The files, as paths from the root.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// The file the previous turn acted on.
    pub fn previous(&self) -> Option<&str> {
        self.previous.as_deref()
    }
}

/// The name of the project's notes for a model, read from the root.
pub const NOTES_FILE: &str = "AGENTS.md";
/// The most of them a model is shown (32 KiB).
pub const MAX_NOTES: usize = 32 * 1024;
