//! The executor's answer to one act: `{ok, ...}` with the verb's own fields,
//! a named refusal `{ok:false, refused, why}`, or a pending confirmation.

use crate::command::Verb;
use crate::extension::ExtensionState;
use crate::history::{Commit, FileChange};
use crate::platform::{DirEntry, RootInfo};
use crate::rule::{Refusal, Rule};
use alloc::string::String;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

/// A tier-2 act waiting for the person: answer it with its single-use id.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConfirmRequest {
    pub id: String,
    pub rule: Rule,
    pub why: String,
    /// What will happen, in words, e.g. "delete notes.md (12 bytes)".
    pub plan: String,
    /// When the id stops working (ISO 8601).
    #[serde(rename = "expiresAt")]
    pub expires_at: String,
    /// The question in a person's words ("Delete hello.txt?").
    pub question: String,
    /// What answering yes means for them ("You can bring it back with undo.").
    pub consequence: String,
    /// The labels of the two answers ("Delete", "Cancel").
    pub yes: String,
    pub no: String,
    /// What it comes to if nobody answers in time ("Timed out — nothing deleted.").
    pub expired: String,
    /// Yes loses something (a delete, a replace; undo may bring it back):
    /// a page gives the yes the weight of danger only then.
    pub danger: bool,
    /// The question was a guess at the person's words: a no leaves them to
    /// say again (the page keeps the sentence in the request box).
    #[serde(default, skip_serializing_if = "core::ops::Not::not")]
    pub rephrase: bool,
    /// The words that answer yes by voice ("delete groceries"), when the
    /// question takes a spoken answer (a heard change); "no" declines.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub say: Option<String>,
}

/// One grep hit.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Match {
    pub file: String,
    pub line: usize,
    pub text: String,
}

/// The executor's answer. Absent fields are omitted on the wire.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reply {
    pub ok: bool,
    /// What was done, in one line ("wrote hello.txt (2 bytes)"): the exact
    /// account, with sizes, for logs and the details a person may open.
    pub action: Option<String>,
    /// The same in a person's words, one sentence with no sizes or ids
    /// ("Added “eggs” to groceries.txt."): what a page shows first.
    pub words: Option<String>,
    pub refused: Option<Rule>,
    pub why: Option<String>,
    pub confirm: Option<ConfirmRequest>,
    pub file: Option<String>,
    pub bytes: Option<u64>,
    pub content: Option<String>,
    /// The SHA-256 (hex) of the whole file as it was read or left: what a
    /// client sends back as `expect`, so a save never replaces a newer copy.
    pub sha256: Option<String>,
    /// Which lines of how many a read of part of a file shows.
    pub lines: Option<Lines>,
    /// Where a move or copy put the file.
    pub to: Option<String>,
    /// What a file or folder is (`info`).
    pub info: Option<Info>,
    /// The paths whose names matched (`find`), in name order.
    pub found: Option<Vec<DirEntry>>,
    /// The list items to choose from when words matched none or several.
    pub candidates: Option<Vec<String>>,
    pub files: Option<Vec<DirEntry>>,
    pub diff: Option<String>,
    pub matches: Option<Vec<Match>>,
    pub truncated: Option<bool>,
    /// How many entries a listing has in all (it returns at most a page).
    pub total: Option<usize>,
    /// What a search looked through before it finished or stopped.
    pub searched: Option<Searched>,
    /// What a listing or search left out, and why.
    pub skipped: Option<Skipped>,
    pub tools: Option<Vec<ToolInfo>>,
    /// What a tool returned.
    pub output: Option<String>,
    /// Notes a tool left for the person.
    pub notes: Option<Vec<String>>,
    pub root: Option<RootInfo>,
    /// The files that changed (`changes`), by path.
    pub changes: Option<Vec<FileChange>>,
    /// Commits, newest first (`history`).
    pub commits: Option<Vec<Commit>>,
    /// The commit an answer read from or compared against (for `changes`,
    /// none when there was no commit yet then).
    pub commit: Option<Commit>,
    /// The branch checked out (`changes`); absent for a detached HEAD.
    pub branch: Option<String>,
    /// The audit seq of the entry that records this answer (null if none was written).
    #[serialize_always]
    pub logged: Option<u64>,
}

/// The lines a read of part of a file shows: `from..=to` (from 1) of `of`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Lines {
    pub from: usize,
    pub to: usize,
    pub of: usize,
}

/// Whether an `info` answer is about a file or a folder.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum InfoKind {
    File,
    Folder,
}

impl core::fmt::Display for InfoKind {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            InfoKind::File => "file",
            InfoKind::Folder => "folder",
        })
    }
}

/// What a file or folder is.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Info {
    pub kind: InfoKind,
    pub bytes: Option<u64>,
    /// Lines of a text file.
    pub lines: Option<usize>,
    /// Visible entries of a folder.
    pub entries: Option<usize>,
    /// When it last changed (ISO 8601), where the storage knows.
    pub modified: Option<String>,
}

/// What a walk looked through, and the limit it stopped at (if any).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Searched {
    pub folders: usize,
    pub entries: usize,
    pub files: usize,
    pub bytes: u64,
    /// The limit that ended the walk early: `matches`, `files`, `bytes`,
    /// `entries` or `depth`.
    #[serde(rename = "stoppedAt", skip_serializing_if = "Option::is_none")]
    pub stopped_at: Option<&'static str>,
}

/// The limits a walk can stop at.
const STOPS: [&str; 5] = ["matches", "files", "bytes", "entries", "depth"];

/// [`Searched`] as read: its limit named by one of [`STOPS`].
#[derive(Deserialize)]
struct SearchedWire {
    folders: usize,
    entries: usize,
    files: usize,
    bytes: u64,
    #[serde(rename = "stoppedAt", default)]
    stopped_at: Option<String>,
}

impl<'de> Deserialize<'de> for Searched {
    fn deserialize<D: serde::Deserializer<'de>>(from: D) -> Result<Searched, D::Error> {
        let wire = SearchedWire::deserialize(from)?;
        let stopped_at = match wire.stopped_at {
            None => None,
            Some(named) => match STOPS.iter().find(|stop| **stop == named) {
                Some(stop) => Some(*stop),
                None => return Err(serde::de::Error::unknown_variant(&named, &STOPS)),
            },
        };
        Ok(Searched {
            folders: wire.folders,
            entries: wire.entries,
            files: wire.files,
            bytes: wire.bytes,
            stopped_at,
        })
    }
}

/// Entries a listing or search did not show or enter, counted so nothing is
/// left out unsaid.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Skipped {
    /// Pipes, sockets, devices: never opened.
    pub special: usize,
    /// Links that resolve out of the root or into a hidden or host folder.
    pub links: usize,
    /// Folders or files reached a second time (through a link).
    pub revisited: usize,
    /// Files over the read cap.
    #[serde(rename = "tooLarge")]
    pub too_large: usize,
}

impl Skipped {
    pub fn any(&self) -> bool {
        self.special + self.links + self.revisited + self.too_large > 0
    }
}

/// A tool or extension this host can run, as `list_extensions` shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToolInfo {
    pub id: String,
    pub description: String,
    pub state: ToolState,
}

/// How a catalog entry stands: where a tool comes from, or how an extension
/// stands with the person. Serialised as the kebab-case word.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ToolState {
    /// Compiled into the host (create-asset).
    BuiltIn,
    /// On the host's shelf, pinned by digest.
    Shelf,
    Admitted,
    Pending,
    Refused,
    PresentNotAdmitted,
}

impl From<ExtensionState> for ToolState {
    fn from(state: ExtensionState) -> ToolState {
        match state {
            ExtensionState::Admitted => ToolState::Admitted,
            ExtensionState::Pending => ToolState::Pending,
            ExtensionState::Refused => ToolState::Refused,
            ExtensionState::PresentNotAdmitted => ToolState::PresentNotAdmitted,
        }
    }
}

impl Reply {
    /// A successful answer with its one-line summary.
    pub fn done(action: String) -> Reply {
        Reply {
            ok: true,
            action: Some(action),
            ..Reply::default()
        }
    }

    /// A named refusal.
    pub fn refusal(refusal: Refusal) -> Reply {
        Reply {
            ok: false,
            refused: Some(refusal.rule),
            why: Some(refusal.why),
            ..Reply::default()
        }
    }

    /// Whether the turn this reply answers changes the root's files, now or
    /// once its confirmation is approved: the verb's act is not a read (from
    /// the command table), and the act was done or is waiting for the person.
    /// A page re-lists what it shows only after such a turn.
    pub fn changes(&self, verb: Option<Verb>) -> bool {
        (self.ok || self.confirm.is_some()) && verb.is_some_and(Verb::changes_files)
    }

    /// The answer in a person's words (see [`Reply::words`]).
    pub fn said(mut self, words: String) -> Reply {
        self.words = Some(words);
        self
    }

    pub fn with_root(mut self, root: Option<RootInfo>) -> Reply {
        self.root = root;
        self
    }

    pub fn logged(mut self, seq: Option<u64>) -> Reply {
        self.logged = seq;
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    fn pending() -> Reply {
        Reply {
            confirm: Some(ConfirmRequest {
                id: "c1".to_string(),
                rule: Rule::NotFound,
                why: "a delete is confirmed".to_string(),
                plan: "delete a.txt".to_string(),
                expires_at: "2026-01-01T00:00:00.000Z".to_string(),
                question: "Delete a.txt?".to_string(),
                consequence: "You can bring it back with undo.".to_string(),
                yes: "Delete".to_string(),
                no: "Cancel".to_string(),
                expired: "Timed out — nothing deleted.".to_string(),
                danger: true,
                rephrase: false,
                say: None,
            }),
            ..Reply::default()
        }
    }

    #[test]
    fn a_reply_reads_back_as_it_was_written() {
        let listed = Reply {
            files: Some(alloc::vec![DirEntry::new("a.txt", false, 3)]),
            searched: Some(Searched {
                files: 1,
                stopped_at: Some("depth"),
                ..Searched::default()
            }),
            skipped: Some(Skipped::default()),
            tools: Some(alloc::vec![ToolInfo {
                id: "t".to_string(),
                description: "d".to_string(),
                state: ToolState::Admitted,
            }]),
            matches: Some(alloc::vec![Match {
                file: "a.txt".to_string(),
                line: 1,
                text: "x".to_string(),
            }]),
            root: Some(RootInfo {
                kind: "machine".to_string(),
                path: "/r".to_string(),
            }),
            logged: Some(7),
            ..Reply::done("listed".to_string())
        };
        let refused = Reply::refusal(Refusal::new(Rule::NotFound, "no"));
        for reply in [listed, refused, pending()] {
            let wire = serde_json::to_string(&reply).unwrap();
            let back: Reply = serde_json::from_str(&wire).unwrap();
            assert_eq!(back, reply, "{wire}");
            assert_eq!(serde_json::to_string(&back).unwrap(), wire);
        }
        let odd = r#"{"ok":true,"searched":{"folders":0,"entries":0,"files":0,"bytes":0,"stoppedAt":"moon"},"logged":null}"#;
        assert!(
            serde_json::from_str::<Reply>(odd).is_err(),
            "an unknown limit"
        );
    }

    #[test]
    fn a_turn_changes_files_when_its_verb_is_no_read_and_it_was_done_or_asked() {
        let done = Reply::done("did".to_string());
        let refused = Reply::refusal(Refusal::new(Rule::NotFound, "no"));
        assert!(done.changes(Some(Verb::Write)));
        assert!(done.changes(Some(Verb::Undo)));
        assert!(pending().changes(Some(Verb::Delete)));
        assert!(!refused.changes(Some(Verb::Write)));
        for looks in [
            Verb::Read,
            Verb::List,
            Verb::Diff,
            Verb::Grep,
            Verb::Tool,
            Verb::CallExtension,
        ] {
            assert!(!done.changes(Some(looks)), "{looks:?} only reads");
        }
        assert!(!done.changes(Some(Verb::ListExtensions)), "touches no file");
        assert!(!done.changes(None));
    }
}
