//! One writer's audit file for one root: `<root>/.audit/<instance>-<hash>.jsonl`.
//!
//! Appends wait in a queue; the first caller to find no one writing writes
//! every line waiting as one group — one write, one `fdatasync` — and each
//! caller is answered once its own line is durable (a look's line: once it
//! is written, its sync following at once off the answer's path). Writing is
//! serialised by a mutex inside the process and an exclusive `flock` across
//! processes, so concurrent acts never lose or tear a line. The
//! next seq is resumed from the file (and re-read if another process appended
//! under the same instance name). A failed append is cut back to the last whole
//! line, so a full disk leaves no torn line behind. Opening runs the `lost`
//! sweep: every entry an earlier boot left pending gets one `lost` completion.
//!
//! With the host's anchors, a writer builds only on a file that ends in the
//! last line it wrote there (a closed fragment of an interrupted write
//! aside). Entries after that line, a file cut or replaced, or one it has no
//! anchor for are not its own: it leaves that file as it is for the check to
//! name, and moves on to the next file of its series, whose first entry says
//! why.

mod anchors;
mod ends;
mod group;
mod open;
mod write;

use anchors::AnchorLog;
pub use anchors::Anchors;
use ends::{Tail, first_line_hash, tail};
pub(crate) use group::Owed;
use group::Shared;
use write::{Held, after, anchor_synced, ceiling, dropped_groups, put_held, sync_files};

use crate::durable::Syncer;
use crate::own::OwnFolders;
use cap_std::fs::MetadataExt as _;
use std::collections::BTreeSet;
use std::fs::File;
use std::io;
use std::sync::Arc;
use voicebox_core::audit;
use voicebox_core::audit::chain::Anchoring;
use voicebox_core::contain::AUDIT_DIR;

/// The open file and what this writer knows of it.
struct OpenLog {
    /// Its name inside `.audit/`: a file of the writer's series.
    name: String,
    file: Arc<File>,
    /// The held file's (device, inode), to notice the path now names another file.
    identity: (u64, u64),
    next_seq: u64,
    /// The hash the next line chains from.
    prev: String,
    /// Seqs still waiting for their completion.
    open: BTreeSet<u64>,
    /// The first line's hash, for the anchor (`None` while the file is empty):
    /// the anchor's own where one exists, so a replaced file stays seen as such.
    first: Option<String>,
    /// The seq the anchor holds as the host's last line: it only moves forward.
    anchored: u64,
    /// The last line known durable (its seq and hash), and the hashes of the
    /// lines written after it, not yet synced: what the anchor records say.
    synced: (u64, String),
    unsynced: Vec<String>,
    /// The file of the host's anchor records for this file, with anchors.
    anchor: Option<AnchorLog>,
    /// Length after this writer's last append: a different length means another
    /// process appended, and the tail must be re-read.
    len: u64,
    /// A sync has taken the file (and holds its lock) and not yet ended:
    /// groups sealed meanwhile are held, and written when it ends.
    in_sync: bool,
    held: Vec<Held>,
    /// A shared lock on its file in the host's own folder (so the audit
    /// folder holds only logs), held while this writer lives: it tells
    /// another process opening the same file that this one may have acts in
    /// flight, so their pending entries are not swept as `lost`.
    _alive: File,
}

/// Who writes, about which project and root: for the entry that says why a
/// writer moved on.
pub struct Writer {
    pub instance: String,
    pub project: String,
    pub root: String,
}

/// The audit file of one (root, instance).
pub struct AuditWriter {
    /// The root's host folders, opened without following links.
    own: Arc<OwnFolders>,
    /// The first file of this writer's series (see [`audit::numbered`]).
    first: String,
    writer: Writer,
    anchors: Option<Anchors>,
    shared: Arc<Shared>,
}

impl AuditWriter {
    /// A writer for `writer` (its instance, project and root path) in the
    /// root whose host folders are `own`. Lines are synced with `sync` (a
    /// change's before it is acknowledged); with `anchors`, each group is
    /// announced in the file's anchor records before it is written and
    /// recorded there once synced. With `open_now`, the file is opened and
    /// swept now (if possible), else at the first append.
    pub(crate) fn new(
        own: Arc<OwnFolders>,
        writer: Writer,
        sync: Syncer,
        anchors: Option<Anchors>,
        open_now: bool,
    ) -> AuditWriter {
        let writer = AuditWriter {
            own,
            first: audit::file_name(&writer.instance, &writer.root),
            writer,
            anchors,
            shared: Arc::new(Shared::new(sync)),
        };
        if open_now {
            let _ = writer.with_open(|_| Ok(()));
        }
        writer
    }

    /// The name inside `.audit/` of the file this writer appends to.
    pub fn name(&self) -> String {
        let state = self.shared.state.lock().unwrap_or_else(|p| p.into_inner());
        match state.as_ref() {
            Some(open) => open.name.clone(),
            None => self.current(),
        }
    }

    /// The newest file of the series the host has an anchor for, else the first.
    fn current(&self) -> String {
        self.anchors
            .as_ref()
            .and_then(|anchors| anchors.newest(&self.first))
            .map_or_else(|| self.first.clone(), |(_, name)| name)
    }

    /// What the host knows of file `name` from outside the root, read now.
    fn anchoring(&self, name: &str) -> Anchoring {
        match &self.anchors {
            None => Anchoring::NotKept,
            Some(anchors) => anchors
                .read(name)
                .map_or(Anchoring::Unknown, Anchoring::Anchored),
        }
    }

    /// Runs `f` on the open file, opening it (and running the sweep) first if
    /// needed, under the process mutex and the file lock.
    fn with_open<R>(&self, f: impl FnOnce(&mut OpenLog) -> io::Result<R>) -> io::Result<R> {
        let mut state = self.shared.state.lock().unwrap_or_else(|p| p.into_inner());
        if state.as_ref().is_some_and(|open| !self.still_at_path(open)) {
            // Removed or replaced under us: never append to an unlinked file.
            self.shared.reset(&mut state);
        }
        if state.is_none() {
            *state = Some(self.open()?);
        }
        let open = state.as_mut().expect("opened above");
        open.file.lock()?;
        let result = self.settle(open, false).and_then(|()| f(open));
        if !open.in_sync {
            let _ = open.file.unlock();
        }
        if result.is_err() {
            // Re-open next time: the file may have been fixed or replaced.
            self.shared.reset(&mut state);
        }
        result
    }

    /// Whether the file at the log's path is still the one this writer holds.
    fn still_at_path(&self, open: &OpenLog) -> bool {
        self.own
            .folder(AUDIT_DIR)
            .ok()
            .flatten()
            .and_then(|audit| audit.symlink_metadata(&open.name).ok())
            .is_some_and(|at_path| (at_path.dev(), at_path.ino()) == open.identity)
    }
}
