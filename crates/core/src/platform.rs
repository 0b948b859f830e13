//! The interfaces a placement hands the core: storage for one root, and the
//! environment (clock, random ids). The core does no I/O of its own.
//!
//! The traits use `async fn` so one executor serves both placements: on the
//! machine the futures complete at once (driven by a tiny `block_on` on a
//! blocking thread); in the browser worker a storage whose futures park a
//! request turns the same executor into a sans-I/O state machine. Neither
//! drive needs the futures to be `Send`, hence the allowed lint.
#![allow(async_fn_in_trait)]

mod abilities;
pub use abilities::{
    Abilities, Egress, ExtensionLedger, Fetched, NoEgress, NoExtensions, ToolRun, ToolRunner,
    no_shelf,
};

use crate::audit::chain::Anchor;
use crate::audit::{AuditFile, Entry};
use crate::contain::RelPath;

use alloc::boxed::Box;
use alloc::string::String;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

/// Why the root cannot be used for a path or an act.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Escape {
    /// A link on the way resolves outside the root.
    LinkOut,
    /// The root itself cannot be reached.
    Unreachable,
    /// The platform would ask the person first (a browser permission in the
    /// `prompt` state): only their gesture can grant it, so nothing is tried.
    NeedsGesture,
    /// The person or the platform has refused access to the root.
    PermissionDenied,
}

/// What an act needs from its root: to look, or to change.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    Read,
    Write,
}

/// The largest file any act reads, edits, replaces or hands a tool: the same
/// cap as a write's content, so every change fits the undo journal and no
/// answer grows with what happens to sit in the folder.
pub const MAX_FILE_BYTES: u64 = crate::command::MAX_CONTENT_BYTES as u64;

/// A storage failure, in the terms the executor answers with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StorageError {
    NotFound,
    IsADirectory,
    NotADirectory,
    /// A FIFO, socket, device or other special file: never opened, since
    /// opening one can block the host.
    NotARegularFile,
    /// A file over [`MAX_FILE_BYTES`], with its size; nothing was read.
    TooLarge(u64),
    /// At the act, the name led somewhere else than containment saw (a
    /// folder on the way was swapped for a link): the real path it led to,
    /// which the executor judges again. Nothing was done.
    Moved(RelPath),
    Escape(Escape),
    /// A folder to be removed holds something (perhaps only hidden files).
    NotEmpty,
    /// The name to move to or make is taken (by a folder, or by a file where
    /// a folder was asked for).
    Exists,
    /// The name is a link: moving one would change where it leads.
    IsALink,
    /// One of the host's own folders is a link, pipe or file instead of a
    /// folder, in the platform's words naming it: nothing was done there.
    HostFolder(String),
    /// Anything else, with the platform's own words.
    Other(String),
}

/// What the world shows for a path, read back from storage after an act.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Observation {
    pub exists: bool,
    pub is_dir: bool,
    pub bytes: u64,
    /// Milliseconds since the Unix epoch, where the storage knows it.
    pub mtime_ms: Option<u64>,
}

/// One entry of a directory listing.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DirEntry {
    pub name: String,
    #[serde(rename = "dir")]
    pub is_dir: bool,
    pub bytes: u64,
    /// The entry is a link: what it names must be confined before it is shown.
    #[serde(skip)]
    pub link: bool,
    /// Neither a regular file nor a folder (FIFO, socket, device): skipped.
    #[serde(skip)]
    pub special: bool,
    /// For a link an act shows, the path from the root of what it names:
    /// how a walk over listings knows a folder it has seen already.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub real: Option<String>,
}

impl DirEntry {
    /// A plain file or folder entry.
    pub fn new(name: &str, is_dir: bool, bytes: u64) -> DirEntry {
        DirEntry {
            name: name.into(),
            is_dir,
            bytes,
            link: false,
            special: false,
            real: None,
        }
    }
}

/// What a contained name resolves to on the storage, links followed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resolved {
    /// The real path relative to the root: for a name that does not exist yet,
    /// its nearest existing ancestor's real path joined with the rest. The
    /// protected-folder and dot rules are applied to it as well as to the name.
    pub path: RelPath,
    /// The target exists and is neither a regular file nor a folder.
    pub special: bool,
}

impl Resolved {
    /// A name that resolves to itself (storage without links).
    pub fn itself(path: &RelPath) -> Resolved {
        Resolved {
            path: path.clone(),
            special: false,
        }
    }
}

/// Where a root is, for answers and the project record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RootInfo {
    /// `machine`, `opfs` or `handle`.
    pub kind: String,
    /// The root's path as the placement names it (a real path on the machine,
    /// an OPFS-relative path or a handle label in the browser).
    pub path: String,
}

/// Storage for one project root. Every path it is given has already passed
/// the core's lexical containment; `confine` adds the real-path check.
pub trait Storage {
    /// Where this root is.
    fn root_info(&self) -> RootInfo;
    /// Checks the root is still a reachable folder.
    async fn reachable(&self) -> bool;
    /// Asked before every act: may the root be used for `access` now? Roots
    /// whose permission can change under a running host (a folder a person
    /// picked in a browser) answer here; the others are always permitted.
    async fn permit(&self, _access: Access) -> Result<(), Escape> {
        Ok(())
    }
    /// The real-path check: the target, or its nearest existing ancestor for a
    /// path that does not exist yet, must lie inside the root. Answers what the
    /// name resolves to, so the core can apply its rules to the real path.
    async fn confine(&self, path: &RelPath) -> Result<Resolved, Escape>;
    /// Reads a regular file whole. A special file is `NotARegularFile` and a
    /// file over [`MAX_FILE_BYTES`] is `TooLarge`, both found without
    /// blocking and without reading its bytes.
    async fn read(&self, path: &RelPath) -> Result<Vec<u8>, StorageError>;
    /// Writes the whole file, creating parent folders; never leaves a
    /// half-written file (temporary file and rename, or the platform's equal).
    async fn write(&self, path: &RelPath, bytes: &[u8]) -> Result<(), StorageError>;
    /// Appends bytes to a file, creating it (and its parent folders) if it
    /// does not exist. Used for host files: journal blobs and its index.
    async fn append(&self, path: &RelPath, bytes: &[u8]) -> Result<(), StorageError>;
    /// Keeps what `path` holds now under `blob` (a fresh host path) before a
    /// change that replaces or removes `path` whole; `bytes` are those bytes
    /// as the caller read them. Storage may keep the file itself under the
    /// second name rather than a copy — nothing writes into a file in place —
    /// so the caller checks a blob's digest before it trusts it. The default
    /// copies.
    async fn keep(&self, path: &RelPath, blob: &RelPath, bytes: &[u8]) -> Result<(), StorageError> {
        let _ = path;
        self.append(blob, bytes).await
    }
    /// After the change `blob` was kept for failed: takes back the second
    /// name [`Storage::keep`] gave a file where the file still has its first
    /// — the change did not replace or remove it (a file that also has a
    /// name in the host's folder reads as that one). A copy stays, as does a
    /// file the change did replace. The default keeps copies only, so it has
    /// nothing to take back.
    async fn let_go(&self, blob: &RelPath) {
        let _ = blob;
    }
    /// Holds `path` for one change that reads it and writes it whole: a
    /// second change of the same file, run beside this one, waits here until
    /// the first lets go (drops what this answers), so neither is made on a
    /// copy the other replaces. Storage that follows links holds the file the
    /// name leads to (or would be made at); storage whose reads could see a
    /// change half made holds the file for a read too, and a thread that
    /// holds a file already waits for no other (a change reads what it
    /// holds). Placements that run one act at a time hold nothing.
    async fn hold(&self, path: &RelPath) -> Held {
        let _ = path;
        Held::default()
    }
    /// Removes a file (never a folder).
    async fn remove(&self, path: &RelPath) -> Result<(), StorageError>;
    /// Gives a file or folder a new name inside the root, both ends
    /// pinned as every act's are, making `to`'s missing parent folders. A
    /// file may replace a file at `to`; anything else at `to` is `Exists`.
    /// A link is `IsALink` and is not moved.
    async fn rename(&self, from: &RelPath, to: &RelPath) -> Result<(), StorageError>;
    /// Makes a folder and any missing folders above it: `Ok(false)` when it
    /// was there already, `Exists` when a file is.
    async fn make_dir(&self, path: &RelPath) -> Result<bool, StorageError>;
    /// Removes an empty folder: `NotEmpty` if it holds anything, never a file.
    async fn remove_dir(&self, path: &RelPath) -> Result<(), StorageError>;
    async fn observe(&self, path: &RelPath) -> Observation;
    async fn list(&self, dir: &RelPath) -> Result<Vec<DirEntry>, StorageError>;
    /// Appends one entry to this writer's audit file, assigning the next `seq`
    /// under the file's lock, and returns it. Appends never interleave.
    async fn append_audit(&self, entry: &Entry) -> Result<u64, StorageError>;
    /// Appends a change's attempt entry as [`Storage::append_audit`] does,
    /// where its durability may wait for the change's barrier: storage that
    /// can make several syncs at once makes the line durable together with
    /// the journal and the staged bytes, right before the root itself is
    /// changed, and never later. By default it is durable at once.
    async fn append_attempt(&self, entry: &Entry) -> Result<u64, StorageError> {
        self.append_audit(entry).await
    }
    /// Every audit file of this root, as text.
    async fn read_audit(&self) -> Result<Vec<AuditFile>, StorageError>;
    /// Every entry of the audit folder by name: a log file's length in
    /// bytes, or why it is not read (a folder, a link, a FIFO ...). Storage
    /// that can read part of a file answers this (and
    /// [`Storage::read_audit_range`]) without reading the files, so a page of
    /// the log costs what it shows.
    async fn audit_files(&self) -> Result<Vec<AuditListing>, StorageError> {
        let files = self.read_audit().await?;
        Ok(files
            .into_iter()
            .map(|f| AuditListing {
                len: Ok(f.text.len() as u64),
                name: f.name,
            })
            .collect())
    }
    /// Bytes `start..end` of one audit file (fewer where the file is shorter).
    async fn read_audit_range(
        &self,
        name: &str,
        start: u64,
        end: u64,
    ) -> Result<Vec<u8>, StorageError> {
        let files = self.read_audit().await?;
        let file = files
            .into_iter()
            .find(|f| f.name == name)
            .ok_or(StorageError::NotFound)?;
        let bytes = file.text.into_bytes();
        let end = (end as usize).min(bytes.len());
        Ok(bytes[(start as usize).min(end)..end].to_vec())
    }
    /// The host's anchors of this root's audit files, kept outside the root:
    /// one per file it has written. `None` where this placement keeps none.
    async fn audit_anchors(&self) -> Option<Vec<Anchor>> {
        None
    }
    /// Removes host files nothing names any more (the kept bytes a
    /// compacted undo journal forgot). Nothing waits for it and nothing needs
    /// it durable: a file that outlives its name is only space. The default
    /// removes each now.
    async fn discard(&self, paths: Vec<RelPath>) {
        for path in &paths {
            let _ = self.remove(path).await;
        }
    }
    /// The temporaries of the host's own that interrupted writes left
    /// behind, old enough that no write still uses them, as paths inside the
    /// root. Placements that stage nothing have none.
    async fn stale_temporaries(&self) -> Vec<String> {
        Vec::new()
    }
    /// Removes the temporary `path` [`Storage::stale_temporaries`] named, if
    /// it still is one (a regular file the host made, in its own folder).
    async fn remove_temporary(&self, _path: &str) -> Result<(), StorageError> {
        Err(StorageError::NotFound)
    }
    /// The root's own git repository, read only: `None` where this
    /// placement has no reader for one (the executor refuses by name).
    fn repository(&self) -> Option<&dyn crate::history::Repository> {
        None
    }
}

/// A file held for one change (see [`Storage::hold`]): let go when dropped.
#[derive(Default)]
#[must_use = "the file is held only while this lives"]
pub struct Held(Option<Box<dyn FnOnce() + Send>>);

impl Held {
    /// A hold that runs `release` when it ends.
    pub fn new(release: impl FnOnce() + Send + 'static) -> Held {
        Held(Some(Box::new(release)))
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        if let Some(release) = self.0.take() {
            release();
        }
    }
}

/// One entry of a root's audit folder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AuditListing {
    pub name: String,
    /// A log file's length, or why the entry is not read as one.
    pub len: Result<u64, String>,
}

/// The clock and the source of ids.
pub trait Env {
    /// Wall clock, milliseconds since the Unix epoch: a hint, never an ordering key.
    fn now_ms(&self) -> u64;
    /// A fresh unguessable id (for confirmations and undo blobs): 16 random
    /// bytes in lowercase hex, the only shape the undo journal accepts.
    fn random_id(&self) -> String;
    /// How far the person's clock stands east of UTC, in seconds: where
    /// "today" and "yesterday" start for them.
    fn offset_secs(&self) -> i32 {
        0
    }
}
