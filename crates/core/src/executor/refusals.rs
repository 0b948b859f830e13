//! What storage answered, in the executor's terms: each failure a named
//! refusal with the sentence that says what to do.

use super::{Executor, organise};
use crate::contain::{self, RelPath};
use crate::platform::{Abilities, Env, MAX_FILE_BYTES, Resolved, Storage, StorageError};
use crate::rule::{Refusal, Rule};
use alloc::format;
use alloc::string::String;

impl<S: Storage, E: Env, A: Abilities> Executor<S, E, A> {
    /// A storage failure in the executor's terms, for the named path.
    pub(super) fn storage_refusal(&self, error: StorageError, path: &RelPath) -> Refusal {
        match error {
            StorageError::NotFound => Refusal::new(
                Rule::NotFound,
                format!("there is no file `{path}`; list the files to see what exists"),
            ),
            StorageError::IsADirectory => Refusal::new(
                Rule::IsADirectory,
                format!("`{path}` is a folder, not a file; name a file inside it"),
            ),
            StorageError::NotADirectory => Refusal::new(
                Rule::NotADirectory,
                format!("part of `{path}` is a file, not a folder; choose another name"),
            ),
            StorageError::NotARegularFile => contain::not_regular(path),
            StorageError::NotEmpty => organise::not_empty(path, 1),
            StorageError::Exists => Refusal::new(
                Rule::AlreadyExists,
                format!("`{path}` is taken (by a folder, or a file where a folder was asked for); choose another name"),
            ),
            StorageError::IsALink => Refusal::new(
                Rule::IsALink,
                format!("`{path}` is a link; a link is never moved, since where it leads depends on where it sits — move what it names instead"),
            ),
            StorageError::TooLarge(size) => Refusal::new(
                Rule::TooLarge,
                format!(
                    "`{path}` is {}; acts read, edit, replace and hand tools files of at most {} (so every change fits the undo journal) — work on a smaller file",
                    bytes(size),
                    bytes(MAX_FILE_BYTES)
                ),
            ),
            StorageError::Escape(escape) => contain::escape_refusal(escape, path.as_str()),
            StorageError::Moved(real) => contain::check_resolved(path, &Resolved::itself(&real))
                .err()
                .unwrap_or_else(|| {
                    Refusal::new(
                        Rule::StorageFailed,
                        format!("`{path}` changed while it was being used (it led to `{real}`); try again"),
                    )
                }),
            StorageError::HostFolder(words) => host_folder(&words),
            StorageError::Other(words) => Refusal::new(
                Rule::StorageFailed,
                format!("storage failed for `{path}`: {words}; check the folder and try again"),
            ),
        }
    }
}

/// The refusal when one of the host's own folders is not a folder: nothing
/// there is repaired or removed; the person removes or renames it.
pub(super) fn host_folder(words: &str) -> Refusal {
    Refusal::new(
        Rule::HostFolderNotAFolder,
        format!(
            "{words}; Voicebox keeps its own files there and never follows a link out of them, so nothing was done — remove or rename it (Voicebox makes a fresh one)"
        ),
    )
}

pub(crate) fn describe(error: &StorageError) -> String {
    match error {
        StorageError::Other(words) | StorageError::HostFolder(words) => words.clone(),
        other => format!("{other:?}"),
    }
}

/// `n` with its unit, e.g. `1 byte`, `2 bytes`.
pub(super) fn bytes(n: u64) -> String {
    if n == 1 {
        "1 byte".into()
    } else {
        format!("{n} bytes")
    }
}

pub(super) fn pattern_refusal(path: &RelPath, old_text: &str, found: usize) -> Refusal {
    if found == 0 {
        Refusal::new(
            Rule::PatternNotFound,
            format!(
                "`{path}` does not contain {old_text:?}; read the file and quote the text exactly"
            ),
        )
    } else {
        Refusal::new(
            Rule::PatternNotUnique,
            format!(
                "{old_text:?} occurs {found} times in `{path}`; quote more of the surrounding text so it occurs once"
            ),
        )
    }
}
