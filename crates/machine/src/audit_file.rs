//! One writer's audit file for one root: `<root>/.audit/<instance>-<hash>.jsonl`.
//!
//! Appends are serialised by a mutex inside the process and an exclusive
//! `flock` across processes, so concurrent acts never lose or tear a line. The
//! next seq is resumed from the file (and re-read if another process appended
//! under the same instance name). A failed append is cut back to the last whole
//! line, so a full disk leaves no torn line behind. Opening runs the `lost`
//! sweep: every entry an earlier boot left pending gets one `lost` completion.

use crate::durable::Syncer;
use crate::own::{OwnFolders, WRITERS_DIR};
use cap_std::fs::{MetadataExt as _, OpenOptions, OpenOptionsExt};
use std::collections::BTreeSet;
use std::fs::File;
use std::io::{self, Write};
use std::os::unix::fs::{FileExt, MetadataExt};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use voicebox_core::audit::chain::{self, Anchor, TailScan};
use voicebox_core::audit::page::{Backwards, CHUNK, Step};
use voicebox_core::audit::{self, Entry};
use voicebox_core::contain::AUDIT_DIR;
use voicebox_core::time::iso8601;

/// The open file and what this writer knows of it.
struct OpenLog {
    file: File,
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
    /// The seq the anchor holds: it only moves forward, so appends to a file
    /// cut back below it leave the evidence standing.
    anchored: u64,
    /// Length after this writer's last append: a different length means another
    /// process appended, and the tail must be re-read.
    len: u64,
    /// A shared lock on its file in the host's own folder (so the audit
    /// folder holds only logs), held while this writer lives: it tells
    /// another process opening the same file that this one may have acts in
    /// flight, so their pending entries are not swept as `lost`.
    _alive: File,
}

/// The audit file of one (root, instance).
pub struct AuditWriter {
    /// The root's host folders, opened without following links.
    own: Arc<OwnFolders>,
    name: String,
    sync: Syncer,
    anchors: Option<Anchors>,
    state: Mutex<Option<OpenLog>>,
}

impl AuditWriter {
    /// A writer for `instance` in the root whose host folders are `own` (and
    /// whose path string is `root`).
    /// The file is opened (and swept) now if possible, else at the first append.
    /// Every append is synced with `sync` before it is acknowledged; with
    /// `anchors`, the host's anchor of the file is rewritten after each.
    /// With `open_now`, the file is opened and swept now, else at the first append.
    pub(crate) fn new(
        own: Arc<OwnFolders>,
        instance: &str,
        root: &str,
        sync: Syncer,
        anchors: Option<Anchors>,
        open_now: bool,
    ) -> AuditWriter {
        let writer = AuditWriter {
            own,
            name: audit::file_name(instance, root),
            sync,
            anchors,
            state: Mutex::new(None),
        };
        if open_now {
            let _ = writer.with_open(|_| Ok(()));
        }
        writer
    }

    /// The file's name inside `.audit/`.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Appends one entry with the next seq and returns that seq.
    pub fn append(&self, entry: &Entry) -> io::Result<u64> {
        self.with_open(|open| self.append_locked(open, entry))
    }

    /// Runs `f` on the open file, opening it (and running the sweep) first if
    /// needed, under the process mutex and the file lock.
    fn with_open<R>(&self, f: impl FnOnce(&mut OpenLog) -> io::Result<R>) -> io::Result<R> {
        let mut state = self.state.lock().unwrap_or_else(|p| p.into_inner());
        if state.as_ref().is_some_and(|open| !self.still_at_path(open)) {
            // Removed or replaced under us: never append to an unlinked file.
            *state = None;
        }
        if state.is_none() {
            *state = Some(self.open()?);
        }
        let open = state.as_mut().expect("opened above");
        open.file.lock()?;
        let result = self.resync(open).and_then(|()| f(open));
        let _ = open.file.unlock();
        if result.is_err() {
            // Re-open next time: the file may have been fixed or replaced.
            *state = None;
        }
        result
    }

    /// Whether the file at the log's path is still the one this writer holds.
    fn still_at_path(&self, open: &OpenLog) -> bool {
        self.own
            .folder(AUDIT_DIR)
            .ok()
            .flatten()
            .and_then(|audit| audit.symlink_metadata(&self.name).ok())
            .is_some_and(|at_path| (at_path.dev(), at_path.ino()) == open.identity)
    }

    fn open(&self) -> io::Result<OpenLog> {
        // Made (and its parent synced) if missing; never through a link.
        let audit = self.own.made(AUDIT_DIR).map_err(io::Error::other)?;
        let made_file = audit.symlink_metadata(&self.name).is_err();
        let mut options = OpenOptions::new();
        options
            .read(true)
            .append(true)
            .create(true)
            .custom_flags(libc::O_NOFOLLOW);
        let file = audit.open_with(&self.name, &options)?.into_std();
        // A new name is durable only once its folder is synced.
        if made_file {
            self.sync.folder_at(&audit, "".as_ref())?;
        }
        let held = file.metadata()?;
        let writers = self.own.made(WRITERS_DIR).map_err(io::Error::other)?;
        let mut alive = OpenOptions::new();
        alive
            .read(true)
            .write(true)
            .create(true)
            .custom_flags(libc::O_NOFOLLOW);
        let alive = writers
            .open_with(format!("{}.lock", self.name), &alive)?
            .into_std();
        let mut open = OpenLog {
            file,
            identity: (held.dev(), held.ino()),
            next_seq: 1,
            prev: chain::genesis(&self.name),
            open: BTreeSet::new(),
            first: None,
            anchored: 0,
            len: u64::MAX,
            _alive: alive,
        };
        if let Some(anchor) = self.anchors.as_ref().and_then(|a| a.read(&self.name)) {
            open.first = Some(anchor.first);
            open.anchored = anchor.seq;
        }
        // Alone on this file (no other live writer holds the lock), pending
        // entries were left by a host that stopped: sweep them. Otherwise they
        // may be another process's acts in flight (`serve` and a `turn`, or
        // two `turn`s): leave them for a later opener that is alone.
        let alone = open._alive.try_lock().is_ok();
        open.file.lock()?;
        let swept = self.resync_with(&mut open, |writer, open, pending| {
            if !alone {
                return Ok(());
            }
            let now = iso8601(crate::env::now_ms());
            for entry in pending {
                writer.append_locked(open, &entry.lost_completion(now.clone()))?;
            }
            Ok(())
        });
        let _ = open.file.unlock();
        // From exclusive (or none) to shared: others may open beside this one now.
        open._alive.lock_shared()?;
        swept.map(|()| open)
    }

    /// Re-reads the tail if the file is not the length this writer left it.
    fn resync(&self, open: &mut OpenLog) -> io::Result<()> {
        self.resync_with(open, |_, _, _| Ok(()))
    }

    /// [`AuditWriter::resync`], handing the entries still pending to `pending`.
    fn resync_with(
        &self,
        open: &mut OpenLog,
        pending: impl FnOnce(&Self, &mut OpenLog, Vec<Entry>) -> io::Result<()>,
    ) -> io::Result<()> {
        let len = open.file.metadata()?.len();
        if len == open.len {
            return Ok(());
        }
        open.len = len;
        let mut last = [0u8];
        if len > 0 && open.file.read_at(&mut last, len - 1)? == 1 && last[0] != b'\n' {
            // Close the torn fragment so the next line starts whole; readers then
            // report the fragment as a corrupt line instead of losing the next entry.
            open.file.write_all(b"\n")?;
            self.sync.file(&open.file)?;
            open.len += 1;
        }
        let resume = tail(&open.file, &self.name, open.len)?;
        open.next_seq = resume.last_seq + 1;
        open.prev = resume.last_hash;
        open.open = resume.open.iter().map(|e| e.seq).collect();
        if open.first.is_none() {
            open.first = first_line_hash(&open.file, open.len)?;
        }
        pending(self, open, resume.open)
    }

    /// Writes one line and syncs it; on failure cuts the file back to its last
    /// whole line. The seq is acknowledged only once the line is on stable
    /// storage; the anchor follows it.
    fn append_locked(&self, open: &mut OpenLog, entry: &Entry) -> io::Result<u64> {
        let seq = open.next_seq;
        let mut still_open = open.open.clone();
        let mut sealed = entry.sealed(seq, open.prev.clone(), None);
        chain::track(&mut still_open, &sealed);
        sealed.open = still_open.first().copied();
        let line = sealed.line();
        // `resync` has just made `len` the file's real length.
        let before = open.len;
        if let Err(e) = open
            .file
            .write_all(line.as_bytes())
            .and_then(|()| self.sync.file(&open.file))
        {
            let _ = open.file.set_len(before);
            return Err(e);
        }
        open.next_seq += 1;
        open.len = before + line.len() as u64;
        open.prev = chain::line_hash(line.as_bytes());
        open.open = still_open;
        let first = open.first.get_or_insert_with(|| open.prev.clone()).clone();
        if let Some(anchors) = self.anchors.as_ref().filter(|_| seq > open.anchored) {
            // The line is durable already; an anchor that cannot be written
            // leaves the previous one, which still bounds the file from below.
            let _ = anchors.write(
                &Anchor {
                    file: self.name.clone(),
                    seq,
                    hash: open.prev.clone(),
                    first,
                },
                &self.sync,
            );
            open.anchored = seq;
        }
        Ok(seq)
    }
}

/// What the writer resumes from: the file read backwards from `len`, only as
/// far as [`TailScan`] asks.
fn tail(file: &File, name: &str, len: u64) -> io::Result<chain::Resume> {
    let mut lines = Backwards::new(len);
    let mut scan = TailScan::new(name);
    loop {
        match lines.next_line() {
            Step::Line(_, line) => {
                if scan.push(&line) {
                    break;
                }
            }
            Step::Read { start, end } => {
                let mut bytes = vec![0; (end - start) as usize];
                file.read_exact_at(&mut bytes, start)?;
                lines.feed(start, bytes);
            }
            Step::Done => break,
        }
    }
    Ok(scan.finish())
}

/// The hash of the file's first line (read up to its newline), for the anchor.
fn first_line_hash(file: &File, len: u64) -> io::Result<Option<String>> {
    let mut line = Vec::new();
    while (line.len() as u64) < len {
        let at = line.len() as u64;
        let mut chunk = vec![0; CHUNK.min(len - at) as usize];
        file.read_exact_at(&mut chunk, at)?;
        match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => {
                line.extend_from_slice(&chunk[..=i]);
                break;
            }
            None => line.extend_from_slice(&chunk),
        }
    }
    Ok((!line.is_empty()).then(|| chain::line_hash(&line)))
}

/// The host's anchors: one small file per audit file, in a folder outside
/// every root (the state folder), so whoever can edit a root cannot also
/// move its anchors.
#[derive(Clone, Debug)]
pub struct Anchors {
    dir: PathBuf,
}

impl Anchors {
    pub fn new(dir: PathBuf) -> Anchors {
        Anchors { dir }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir
            .join(format!("{}.anchor.json", name.trim_end_matches(".jsonl")))
    }

    /// The anchor of audit file `name`, if this host has written one.
    pub fn read(&self, name: &str) -> Option<Anchor> {
        serde_json::from_slice(&std::fs::read(self.path(name)).ok()?).ok()
    }

    /// Replaces the anchor: a temporary file, synced, renamed over the old
    /// one, so a crash leaves the old anchor or the new one. Callers hold the
    /// audit file's lock, so one temporary name per anchor suffices. The
    /// folder is not synced: a rename lost to a power cut leaves an older
    /// anchor, which is still never ahead of the (already synced) log.
    fn write(&self, anchor: &Anchor, sync: &Syncer) -> io::Result<()> {
        std::fs::create_dir_all(&self.dir)?;
        let target = self.path(&anchor.file);
        let tmp = self.dir.join(format!(".{}.tmp", anchor.file));
        let mut file = File::create(&tmp)?;
        file.write_all(&serde_json::to_vec(anchor).expect("anchors serialise"))?;
        sync.file(&file)?;
        std::fs::rename(&tmp, target)
    }
}
