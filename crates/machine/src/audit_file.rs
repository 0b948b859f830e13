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

use crate::durable::Syncer;
use crate::own::{OwnFolders, WRITERS_DIR};
use cap_std::fs::{MetadataExt as _, OpenOptions, OpenOptionsExt};
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::fs::File;
use std::io::ErrorKind;
use std::io::{self, Write};
use std::os::unix::fs::{FileExt, MetadataExt, OpenOptionsExt as _};
use std::path::PathBuf;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use voicebox_core::audit::chain::{self, Anchor, Anchoring, Resume, TailScan};
use voicebox_core::audit::lines::{Backwards, CHUNK, MAX_LINE, Step};
use voicebox_core::audit::{self, Context, Entry};
use voicebox_core::contain::AUDIT_DIR;
use voicebox_core::tier::ActKind;
use voicebox_core::time::iso8601;

/// The most entries one group writes: the announcing anchor record lists
/// each one's hash, so a group stays a few KiB.
const MAX_GROUP: usize = 64;

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

/// What the file at the writer's path holds past what the writer knows.
enum Found {
    /// Its length is the one this writer left.
    Same,
    /// It ends in the host's own last line: resumed from there, with the
    /// entries still pending.
    Own(Vec<Entry>),
    /// It does not: why, and where the host's own part left off (if found).
    Foreign { why: String, own: Option<Resume> },
}

/// What a file's end shows: the host's own last line, or not.
enum Tail {
    Own(Resume),
    Foreign { why: String, own: Option<Resume> },
}

/// How a file of the series is opened.
#[derive(Clone, Copy)]
enum Create {
    /// Made if absent: a file the host has no anchor for.
    IfAbsent,
    /// Never made: the host wrote it, and a missing one stays missing.
    Never,
    /// Only made: the next file of the series.
    New,
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

/// What the caller writing a group and the thread finishing its sync share.
struct Shared {
    sync: Syncer,
    state: Mutex<Option<OpenLog>>,
    /// Files left with lines not yet synced (moved on from, replaced).
    retired: Mutex<Vec<Arc<File>>>,
    queue: Mutex<Queue>,
    /// Told when answers are ready or the writing caller is done.
    turn: Condvar,
}

/// Entries waiting to be written, and the groups written but not yet durable.
#[derive(Default)]
struct Queue {
    waiting: Vec<(u64, Entry)>,
    next_ticket: u64,
    /// A caller is writing a group.
    writing: bool,
    /// A sync is in flight.
    syncing: bool,
    /// Groups written, and groups known durable, counted from the first.
    written: u64,
    synced: u64,
    /// Answers that wait for their group's sync: (group, ticket, answer).
    owed: Vec<(u64, u64, Result<u64, String>)>,
    /// Answers by ticket: the entry's seq, or why it is not on record.
    answered: BTreeMap<u64, Result<u64, String>>,
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
            shared: Arc::new(Shared {
                sync,
                state: Mutex::new(None),
                retired: Mutex::default(),
                queue: Mutex::default(),
                turn: Condvar::new(),
            }),
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

    /// Appends one entry with the next seq and returns that seq once the
    /// line is durable (a look's line: once it is written; its sync follows
    /// at once, off the answer's path). The entry waits with the others; a
    /// caller that finds no group being written writes the waiting ones as
    /// the next group, while the one before may still be syncing: one
    /// `fdatasync` then covers every line written before it.
    pub fn append(&self, entry: &Entry) -> io::Result<u64> {
        let mut queue = self.shared.queue();
        let ticket = queue.next_ticket;
        queue.next_ticket += 1;
        queue.waiting.push((ticket, entry.clone()));
        loop {
            if let Some(answer) = queue.answered.remove(&ticket) {
                return answer.map_err(io::Error::other);
            }
            // One group written at a time, and at most one written ahead
            // of the sync in flight.
            let ahead = queue.written - queue.synced;
            if !queue.writing && ahead < 2 && !queue.waiting.is_empty() {
                queue.writing = true;
                let take = queue.waiting.len().min(MAX_GROUP);
                let group: Vec<_> = queue.waiting.drain(..take).collect();
                drop(queue);
                self.write_group(group);
                queue = self.shared.queue();
                continue;
            }
            // Groups written and no sync in flight: this caller syncs them.
            if !queue.syncing && queue.written > queue.synced {
                queue.syncing = true;
                drop(queue);
                Shared::sync_written_groups(&self.shared, false);
                queue = self.shared.queue();
                continue;
            }
            queue = self
                .shared
                .turn
                .wait(queue)
                .unwrap_or_else(|p| p.into_inner());
        }
    }

    /// Writes `group` as one write. A look is answered now; any other entry
    /// once a sync that began after its write ends (run by a caller waiting
    /// for one). A group of looks alone, with no sync in flight, has its
    /// sync started at once on a thread of its own.
    fn write_group(&self, group: Vec<(u64, Entry)>) {
        let entries: Vec<&Entry> = group.iter().map(|(_, entry)| entry).collect();
        let written = self.with_open(|open| self.write_lines(open, &entries));
        let mut queue = self.shared.queue();
        queue.writing = false;
        let answers = match written {
            Ok(answers) => answers,
            Err(e) => {
                let failed = group
                    .iter()
                    .map(|(ticket, _)| (*ticket, Err(e.to_string())));
                queue.answered.extend(failed);
                drop(queue);
                self.shared.turn.notify_all();
                return;
            }
        };
        queue.written += 1;
        let number = queue.written;
        let mut waits = false;
        for ((ticket, entry), answer) in group.iter().zip(answers) {
            if is_look(entry) || answer.is_err() {
                queue.answered.insert(*ticket, answer);
            } else {
                queue.owed.push((number, *ticket, answer));
                waits = true;
            }
        }
        let start = !queue.syncing && !waits;
        queue.syncing |= start;
        drop(queue);
        self.shared.turn.notify_all();
        if !start {
            return;
        }
        Shared::sync_on_a_thread(&self.shared);
    }

    /// Runs `f` on the open file, opening it (and running the sweep) first if
    /// needed, under the process mutex and the file lock.
    fn with_open<R>(&self, f: impl FnOnce(&mut OpenLog) -> io::Result<R>) -> io::Result<R> {
        let mut state = self.shared.state.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(open) = state.as_ref().filter(|open| !self.still_at_path(open)) {
            // Removed or replaced under us: never append to an unlinked file.
            self.retire(open);
            *state = None;
        }
        if state.is_none() {
            *state = Some(self.open()?);
        }
        let open = state.as_mut().expect("opened above");
        open.file.lock()?;
        let result = self.settle(open, false).and_then(|()| f(open));
        let _ = open.file.unlock();
        if result.is_err() {
            // Re-open next time: the file may have been fixed or replaced.
            self.retire(open);
            *state = None;
        }
        result
    }

    /// A file this writer leaves while lines of it wait for their sync:
    /// the next sync covers it too.
    fn retire(&self, open: &OpenLog) {
        if !open.unsynced.is_empty() {
            let mut retired = self
                .shared
                .retired
                .lock()
                .unwrap_or_else(|p| p.into_inner());
            retired.push(open.file.clone());
        }
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

    /// Opens the series' current file, swept; or the next one, where the
    /// current one is not the host's to build on.
    fn open(&self) -> io::Result<OpenLog> {
        let name = self.current();
        let create = match self.anchoring(&name) {
            Anchoring::Anchored(_) => Create::Never,
            _ => Create::IfAbsent,
        };
        let (mut open, alone) = match self.open_file(&name, create) {
            Ok(opened) => opened,
            Err(_) if matches!(create, Create::Never) && !self.is_file(&name) => {
                let why =
                    format!("{AUDIT_DIR}/{name}, which the host wrote, is gone or not a file");
                return self.move_on(&name, why, None, false);
            }
            Err(e) => return Err(e),
        };
        open.file.lock()?;
        let settled = self.settle(&mut open, alone);
        let _ = open.file.unlock();
        // From exclusive (or none) to shared: others may open beside this one now.
        open._alive.lock_shared()?;
        settled.map(|()| open)
    }

    /// Opens file `name` of the series (not following a link) and its
    /// liveness lock; `true` when no other live writer holds it, in which
    /// case the lock is held exclusively until [`AuditWriter::open`] shares it.
    fn open_file(&self, name: &str, create: Create) -> io::Result<(OpenLog, bool)> {
        // Made (and its parent synced) if missing; never through a link.
        let audit = self.own.made(AUDIT_DIR).map_err(io::Error::other)?;
        let made_file = audit.symlink_metadata(name).is_err();
        let mut options = OpenOptions::new();
        options
            .read(true)
            .append(true)
            .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK);
        match create {
            Create::IfAbsent => options.create(true),
            Create::Never => &mut options,
            Create::New => options.create_new(true),
        };
        let file = audit.open_with(name, &options)?.into_std();
        let held = file.metadata()?;
        if !held.is_file() {
            return Err(io::Error::other(format!(
                "{AUDIT_DIR}/{name} is not a regular file; nothing was appended"
            )));
        }
        // A new name is durable only once its folder is synced.
        if made_file {
            self.shared.sync.folder_at(&audit, "".as_ref())?;
        }
        let writers = self.own.made(WRITERS_DIR).map_err(io::Error::other)?;
        let mut alive = OpenOptions::new();
        alive
            .read(true)
            .write(true)
            .create(true)
            .custom_flags(libc::O_NOFOLLOW);
        let alive = writers
            .open_with(format!("{name}.lock"), &alive)?
            .into_std();
        let anchor = match &self.anchors {
            Some(anchors) => Some(anchors.log(name, &self.shared.sync)?),
            None => None,
        };
        let mut open = OpenLog {
            name: name.into(),
            file: Arc::new(file),
            identity: (held.dev(), held.ino()),
            next_seq: 1,
            prev: chain::genesis(name),
            open: BTreeSet::new(),
            first: None,
            anchored: 0,
            synced: (0, chain::genesis(name)),
            unsynced: Vec::new(),
            anchor,
            len: u64::MAX,
            _alive: alive,
        };
        if let Anchoring::Anchored(anchor) = self.anchoring(name) {
            open.first = (!anchor.none_before()).then_some(anchor.first);
            open.anchored = anchor.seq;
        }
        // Alone on this file (no other live writer holds the lock), pending
        // entries were left by a host that stopped: they may be swept.
        // Otherwise they may be another process's acts in flight (`serve`
        // and a `turn`, or two `turn`s): left for a later opener that is alone.
        let alone = open._alive.try_lock().is_ok();
        Ok((open, alone))
    }

    /// Brings `open` (its file locked) up to the file's real end. Where the
    /// file does not end in the host's own last line, `open` moves on to the
    /// series' next file. With `sweep`, entries an earlier boot left pending
    /// get their `lost` completions.
    fn settle(&self, open: &mut OpenLog, sweep: bool) -> io::Result<()> {
        let pending = match self.resync(open)? {
            Found::Same => return Ok(()),
            Found::Own(pending) => pending,
            Found::Foreign { why, own } => {
                // Moved on while this file is still locked, so a second
                // writer of the series finds the next file anchored.
                let next = self.move_on(&open.name, why, own, sweep)?;
                let _ = open.file.unlock();
                self.retire(open);
                *open = next;
                open.file.lock()?;
                return Ok(());
            }
        };
        if sweep {
            self.sweep(open, pending)?;
        }
        Ok(())
    }

    /// Appends one `lost` completion per entry in `pending`.
    fn sweep(&self, open: &mut OpenLog, pending: Vec<Entry>) -> io::Result<()> {
        let now = iso8601(crate::env::now_ms());
        for entry in pending {
            self.append_locked(open, &entry.lost_completion(now.clone()))?;
        }
        Ok(())
    }

    /// Re-reads the tail if the file is not the length this writer left it.
    fn resync(&self, open: &mut OpenLog) -> io::Result<Found> {
        let len = open.file.metadata()?.len();
        if len == open.len {
            return Ok(Found::Same);
        }
        let anchoring = self.anchoring(&open.name);
        let mut resume = match tail(&open.file, &open.name, len, &anchoring)? {
            Tail::Own(resume) => resume,
            Tail::Foreign { why, own } => return Ok(Found::Foreign { why, own }),
        };
        open.len = len;
        let mut last = [0u8];
        if len > 0 && open.file.read_at(&mut last, len - 1)? == 1 && last[0] != b'\n' {
            // Close the torn fragment so the next line starts whole; readers then
            // report the fragment as a corrupt line instead of losing the next entry.
            open.file.write_all(b"\n")?;
            self.shared.sync.file(&open.file)?;
            open.len += 1;
            if let Tail::Own(closed) = tail(&open.file, &open.name, open.len, &anchoring)? {
                resume = closed;
            }
        }
        // Lines found here (another process's, or a stopped one's) are made
        // durable before this writer's anchor records vouch for them.
        self.shared.sync.file(&open.file)?;
        open.next_seq = after(resume.last_seq)?;
        open.synced = (resume.last_seq, resume.last_hash.clone());
        open.unsynced.clear();
        open.prev = resume.last_hash;
        open.open = resume.open.iter().map(|e| e.seq).collect();
        if open.first.is_none() {
            open.first = first_line_hash(&open.file, open.len)?;
        }
        Ok(Found::Own(resume.open))
    }

    /// Leaves file `from` as it is and goes on in the series' next file: its
    /// first entry says why; the host's own entries of `from` still pending
    /// (`own`) get their `lost` completions there with `sweep`. Where another
    /// writer of the series has moved on already, its file is opened instead.
    fn move_on(
        &self,
        from: &str,
        why: String,
        own: Option<Resume>,
        sweep: bool,
    ) -> io::Result<OpenLog> {
        let anchors = self
            .anchors
            .as_ref()
            .ok_or_else(|| io::Error::other("a writer without anchors builds on any tail"))?;
        let at = audit::number_in(&self.first, from).unwrap_or(1);
        if let Some((newer, _)) = anchors.newest(&self.first).filter(|(n, _)| *n > at) {
            return self.open_numbered(newer);
        }
        // After the host's own last line (and the one it announced).
        let following = match anchors.read(from) {
            Some(anchor) => anchor.following().ok_or_else(ceiling)?,
            None => 1,
        };
        let mut number = at.max(self.highest_file()) + 1;
        let (mut open, _) = loop {
            match self.open_file(&audit::numbered(&self.first, number), Create::New) {
                Err(e) if e.kind() == ErrorKind::AlreadyExists => number += 1,
                opened => break opened?,
            }
        };
        open.file.lock()?;
        let result = (|| {
            self.resync(&mut open)?;
            // Seqs go on from the host's own last one, never from lines it
            // did not write.
            open.next_seq = following;
            open.synced.0 = following - 1;
            let context = Context {
                instance: self.writer.instance.clone(),
                project: self.writer.project.clone(),
                root: self.writer.root.clone(),
                turn: None,
                at: iso8601(crate::env::now_ms()),
            };
            self.append_locked(&mut open, &Entry::moved_on(context, from, &why))?;
            match (sweep, own) {
                (true, Some(own)) => self.sweep(&mut open, own.open),
                _ => Ok(()),
            }
        })();
        let _ = open.file.unlock();
        open._alive.lock_shared()?;
        result.map(|()| open)
    }

    /// Opens file `number` of the series as [`AuditWriter::open`] does.
    fn open_numbered(&self, number: u64) -> io::Result<OpenLog> {
        let name = audit::numbered(&self.first, number);
        let (mut open, alone) = self.open_file(&name, Create::Never)?;
        open.file.lock()?;
        let settled = self.settle(&mut open, alone);
        let _ = open.file.unlock();
        open._alive.lock_shared()?;
        settled.map(|()| open)
    }

    /// Whether `.audit/<name>` is a regular file (not a link to one).
    fn is_file(&self, name: &str) -> bool {
        self.own
            .folder(AUDIT_DIR)
            .ok()
            .flatten()
            .is_some_and(|audit| {
                audit
                    .symlink_metadata(name)
                    .is_ok_and(|meta| meta.is_file())
            })
    }

    /// The highest number of the series among the files in `.audit/`.
    fn highest_file(&self) -> u64 {
        let Some(entries) = self
            .own
            .folder(AUDIT_DIR)
            .ok()
            .flatten()
            .and_then(|audit| audit.entries().ok())
        else {
            return 1;
        };
        entries
            .filter_map(|entry| {
                let name = entry.ok()?.file_name();
                audit::number_in(&self.first, name.to_str()?)
            })
            .max()
            .unwrap_or(1)
    }

    /// Writes one entry and syncs it at once, under the file's lock: the
    /// entries a writer adds while it opens a file (the `lost` sweep, why it
    /// moved on).
    fn append_locked(&self, open: &mut OpenLog, entry: &Entry) -> io::Result<u64> {
        let before = open.len;
        let answer = self.write_lines(open, &[entry])?.pop();
        let synced = sync_open(&self.shared.sync, open);
        if synced.is_err() && open.len > before {
            let _ = open.file.set_len(before);
        }
        synced?;
        answer
            .expect("one entry, one answer")
            .map_err(io::Error::other)
    }

    /// Seals `entries` (seq, chain, open seqs) and writes them as one write,
    /// announced first in the anchor records; not synced. An entry that
    /// cannot be sealed (over the line cap, past the seq ceiling) is answered
    /// so and left out. On a failed write the file is cut back to its last
    /// whole line.
    fn write_lines(
        &self,
        open: &mut OpenLog,
        entries: &[&Entry],
    ) -> io::Result<Vec<Result<u64, String>>> {
        let (mut seq, mut prev) = (open.next_seq, open.prev.clone());
        let mut still_open = open.open.clone();
        let (mut bytes, mut hashes, mut answers) = (Vec::new(), Vec::new(), Vec::new());
        for entry in entries {
            if seq == u64::MAX {
                answers.push(Err(ceiling().to_string()));
                continue;
            }
            let mut sealed = entry.sealed(seq, prev.clone(), None);
            let mut now_open = still_open.clone();
            chain::track(&mut now_open, &sealed);
            sealed.open = now_open.first().copied();
            let line = sealed.line();
            if line.len() > MAX_LINE {
                answers.push(Err(format!(
                    "the entry is {} bytes, over the log's {MAX_LINE}-byte line cap; nothing was appended",
                    line.len()
                )));
                continue;
            }
            prev = chain::line_hash(line.as_bytes());
            hashes.push(prev.clone());
            bytes.extend_from_slice(line.as_bytes());
            still_open = now_open;
            answers.push(Ok(seq));
            seq += 1;
        }
        if hashes.is_empty() {
            return Ok(answers);
        }
        let first = open.first.clone().unwrap_or_else(|| hashes[0].clone());
        if let Some(log) = open
            .anchor
            .as_mut()
            .filter(|_| open.synced.0 >= open.anchored)
        {
            // Before the lines, the anchor announces them (with the lines
            // still waiting for a sync), so a crash on either side of the
            // write leaves a file the anchor accounts for. Never ahead of
            // the durable log: its last line is the last one synced.
            let announce = Anchor {
                file: open.name.clone(),
                seq: open.synced.0,
                hash: open.synced.1.clone(),
                first: first.clone(),
                next: [open.unsynced.as_slice(), &hashes].concat(),
            };
            let _ = log.append(&announce, &self.shared.sync);
        }
        // `resync` has just made `len` the file's real length.
        let before = open.len;
        if let Err(e) = (&*open.file).write_all(&bytes) {
            let _ = open.file.set_len(before);
            return Err(e);
        }
        open.next_seq = seq;
        open.len = before + bytes.len() as u64;
        open.first = Some(first);
        open.prev = prev;
        open.open = still_open;
        open.unsynced.extend(hashes);
        Ok(answers)
    }
}

impl Shared {
    fn queue(&self) -> MutexGuard<'_, Queue> {
        self.queue.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Syncs the groups written (`syncing` is set), answering the entries
    /// that waited for them. Then, with groups written meanwhile: a caller
    /// waiting for its own line syncs those; looks' alone are synced by a
    /// thread of their own (`on_thread`: this one).
    fn sync_written_groups(shared: &Arc<Shared>, on_thread: bool) {
        let mut once = false;
        loop {
            let mut queue = shared.queue();
            let target = queue.written;
            let owners = !queue.owed.is_empty();
            if target == queue.synced || once && (owners || !on_thread) {
                let handed_on = target > queue.synced && !owners;
                queue.syncing = handed_on;
                drop(queue);
                shared.turn.notify_all();
                if handed_on {
                    Shared::sync_on_a_thread(shared);
                }
                return;
            }
            once = true;
            drop(queue);
            let result = shared.sync_written().map_err(|e| e.to_string());
            let mut queue = shared.queue();
            queue.synced = target;
            let (due, owed) = std::mem::take(&mut queue.owed)
                .into_iter()
                .partition(|(group, ..)| *group <= target);
            queue.owed = owed;
            for (_, ticket, answer) in due {
                queue.answered.insert(ticket, result.clone().and(answer));
            }
            drop(queue);
            shared.turn.notify_all();
        }
    }

    /// Runs [`Shared::sync_written_groups`] on a thread of its own
    /// (`syncing` is set); where no thread can be had, here.
    fn sync_on_a_thread(shared: &Arc<Shared>) {
        let moved = shared.clone();
        let thread = std::thread::Builder::new()
            .name("audit-sync".into())
            .spawn(move || Shared::sync_written_groups(&moved, true));
        if thread.is_err() {
            Shared::sync_written_groups(shared, true);
        }
    }

    /// Makes every line written so far durable (its announcing anchor
    /// records first), then records the last of them as the host's in the
    /// anchor. A file whose sync failed is opened afresh next time.
    fn sync_written(&self) -> io::Result<()> {
        let retired = std::mem::take(&mut *self.retired.lock().unwrap_or_else(|p| p.into_inner()));
        for file in retired {
            self.sync.file(&file)?;
        }
        let mut state = self.state.lock().unwrap_or_else(|p| p.into_inner());
        let Some(open) = state.as_mut() else {
            return Ok(());
        };
        let (file, last) = (open.file.clone(), (open.next_seq - 1, open.prev.clone()));
        let anchor = open.anchor.as_mut().and_then(AnchorLog::take_unsynced);
        drop(state);
        let synced = sync_files(&self.sync, anchor.as_deref(), &file);
        let mut state = self.state.lock().unwrap_or_else(|p| p.into_inner());
        let Some(open) = state.as_mut().filter(|open| Arc::ptr_eq(&open.file, &file)) else {
            return synced;
        };
        if synced.is_err() {
            // What the file holds after a failed sync is read back afresh.
            *state = None;
        } else if open.file.lock().is_ok() {
            anchor_synced(open, last, &self.sync);
            let _ = open.file.unlock();
        }
        synced
    }
}

impl Drop for AuditWriter {
    /// Waits for the groups still syncing, and makes the last anchor record durable.
    fn drop(&mut self) {
        let mut queue = self.shared.queue();
        while queue.writing || queue.syncing {
            queue = self
                .shared
                .turn
                .wait(queue)
                .unwrap_or_else(|p| p.into_inner());
        }
        drop(queue);
        let mut state = self.shared.state.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(anchor) = state
            .as_mut()
            .and_then(|open| open.anchor.as_mut())
            .and_then(AnchorLog::take_unsynced)
        {
            let _ = self.shared.sync.file(&anchor);
        }
    }
}

/// Whether `entry` records a look (a read, a listing, a search): what the
/// host knew, not a change; its line need not be durable before the answer.
fn is_look(entry: &Entry) -> bool {
    entry.act.kind == ActKind::Read && !entry.is_pending()
}

/// Syncs the anchor records (if any were added), then the log.
fn sync_files(sync: &Syncer, anchor: Option<&File>, file: &File) -> io::Result<()> {
    if let Some(anchor) = anchor {
        // An anchor that cannot be synced leaves the earlier records, which
        // never name a line that is not durable.
        let _ = sync.file(anchor);
    }
    sync.file(file)
}

/// Syncs `open` where it is (its file lock held) and records its last line
/// as the host's in the anchor.
fn sync_open(sync: &Syncer, open: &mut OpenLog) -> io::Result<()> {
    let anchor = open.anchor.as_mut().and_then(AnchorLog::take_unsynced);
    sync_files(sync, anchor.as_deref(), &open.file)?;
    let last = (open.next_seq - 1, open.prev.clone());
    anchor_synced(open, last, sync);
    Ok(())
}

/// `last` (seq, hash) and every line before it are durable: recorded as the
/// host's last line in the anchor (not synced: the next group's
/// announcement syncs it, and until then the announcement accounts for the
/// lines). Not where another process has appended since: its own records
/// then say more.
fn anchor_synced(open: &mut OpenLog, last: (u64, String), sync: &Syncer) {
    if last.0 <= open.synced.0 {
        return;
    }
    let done = ((last.0 - open.synced.0) as usize).min(open.unsynced.len());
    open.unsynced.drain(..done);
    open.synced = last;
    let len = open.file.metadata().map(|m| m.len()).ok();
    let (Some(log), Some(first)) = (open.anchor.as_mut(), open.first.clone()) else {
        return;
    };
    if len != Some(open.len) || open.synced.0 < open.anchored {
        return;
    }
    let anchor = Anchor {
        file: open.name.clone(),
        seq: open.synced.0,
        hash: open.synced.1.clone(),
        first,
        next: open.unsynced.clone(),
    };
    // The lines are durable already; a record that cannot be written leaves
    // the announcement, which still accounts for them.
    if log.append(&anchor, sync).is_ok() {
        open.anchored = open.synced.0;
    }
}

/// The seq after `seq`; the ceiling (2^64−1) is never written, so a file
/// whose last seq is at it cannot be resumed.
fn after(seq: u64) -> io::Result<u64> {
    seq.checked_add(1).ok_or_else(ceiling)
}

fn ceiling() -> io::Error {
    io::Error::other(
        "the audit file's seq is at its ceiling (2^64−1): no seq can follow it; nothing was appended",
    )
}

/// What the writer finds at the end of `name` (`len` bytes), read backwards
/// only as far as it must: whether the file ends in the host's own last line
/// (`anchoring`), and where the host's own part resumes.
fn tail(file: &File, name: &str, len: u64, anchoring: &Anchoring) -> io::Result<Tail> {
    let mut lines = Backwards::new(len);
    let mut scan = TailScan::new(name);
    let announced = match anchoring {
        Anchoring::Anchored(anchor) => anchor.next.len(),
        _ => 0,
    };
    // Entries after the host's last line, until it is reached: how many, and
    // the earliest of them, as many as it announced (the latest first).
    let mut after = 0usize;
    let mut earliest: VecDeque<(u64, String, Vec<u8>)> = VecDeque::new();
    // Of them, the ones it announced, in order right after its last line.
    let mut own = 0usize;
    let mut reached = !matches!(anchoring, Anchoring::Anchored(_));
    loop {
        let line = match lines.next_line() {
            Step::Line(_, line) => line,
            Step::Skipped { start, end } => {
                scan.push_long(hash_span(file, start, end)?);
                continue;
            }
            Step::Read { start, end } => {
                let mut bytes = vec![0; (end - start) as usize];
                file.read_exact_at(&mut bytes, start)?;
                lines.feed(start, bytes);
                continue;
            }
            Step::Done => break,
        };
        let entry = std::str::from_utf8(&line)
            .ok()
            .and_then(|text| serde_json::from_str::<Entry>(text.trim_end_matches('\n')).ok());
        match (anchoring, entry) {
            (Anchoring::Unknown, Some(_)) => {
                let why =
                    format!("the host has no anchor for {AUDIT_DIR}/{name}, and it holds entries");
                return Ok(Tail::Foreign { why, own: None });
            }
            (Anchoring::Anchored(anchor), Some(entry)) if !reached => {
                let hash = chain::line_hash(&line);
                if entry.seq == anchor.seq && hash == anchor.hash {
                    reached = true;
                    own = own_announced(&mut scan, name, anchor, &earliest, after);
                } else if entry.seq > anchor.seq {
                    after += 1;
                    earliest.push_back((entry.seq, hash, line));
                    if earliest.len() > announced {
                        earliest.pop_front();
                    }
                    continue;
                } else {
                    return Ok(cut_or_replaced(name, anchor));
                }
            }
            _ => {}
        }
        // Read on to the host's last line, whatever the scan needs.
        if scan.push(&line) && reached {
            break;
        }
    }
    if let (Anchoring::Anchored(anchor), false) = (anchoring, reached) {
        // Nothing vouched for before the announced first line.
        if !anchor.none_before() {
            return Ok(cut_or_replaced(name, anchor));
        }
        own = own_announced(&mut scan, name, anchor, &earliest, after);
    }
    Ok(match anchoring {
        Anchoring::Anchored(anchor) if after > own => {
            let why = format!(
                "{} entries the host did not write follow its last line (seq {}) in {AUDIT_DIR}/{name}",
                after - own,
                anchor.seq + own as u64
            );
            Tail::Foreign {
                why,
                own: Some(scan.finish()),
            }
        }
        _ => Tail::Own(scan.finish()),
    })
}

/// How many of the entries right after the host's last line (`earliest`,
/// the latest first, of `after` in all) are the ones its anchor announced,
/// in order; those are the host's own, and are given to `scan` (the latest
/// first). Where others follow them, the scan starts over from them.
fn own_announced(
    scan: &mut TailScan,
    name: &str,
    anchor: &Anchor,
    earliest: &VecDeque<(u64, String, Vec<u8>)>,
    after: usize,
) -> usize {
    let in_order: Vec<_> = earliest.iter().rev().collect();
    let own = in_order
        .iter()
        .enumerate()
        .take_while(|(i, (seq, hash, _))| anchor.announced(*i, *seq, hash))
        .count();
    if after > own {
        *scan = TailScan::new(name);
    }
    for (_, _, line) in in_order[..own].iter().rev() {
        scan.push(line);
    }
    own
}

fn cut_or_replaced(name: &str, anchor: &Anchor) -> Tail {
    let why = format!(
        "{AUDIT_DIR}/{name} does not hold the last line the host wrote there (seq {}): it was cut, emptied or replaced",
        anchor.seq
    );
    Tail::Foreign { why, own: None }
}

/// The chain hash of bytes `start..end` of `file`, read in chunks.
fn hash_span(file: &File, start: u64, end: u64) -> io::Result<String> {
    let mut hash = Sha256::new();
    let mut at = start;
    while at < end {
        let mut chunk = vec![0; CHUNK.min(end - at) as usize];
        file.read_exact_at(&mut chunk, at)?;
        hash.update(&chunk);
        at += chunk.len() as u64;
    }
    Ok(voicebox_core::hex(&hash.finalize()))
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

/// The host's anchors: one small file of records per audit file, in a folder
/// outside every root (the state folder), so whoever can edit a root cannot
/// also move its anchors. Records are appended, one JSON line each; the last
/// whole one is the anchor. (A file holding one record without a newline is
/// the format before records were appended, and reads the same.)
#[derive(Clone, Debug)]
pub struct Anchors {
    dir: PathBuf,
}

/// How much of an anchor file's end is read for its last record: records
/// are a few KiB at most (a group's hashes).
const ANCHOR_TAIL: u64 = 64 * 1024;

/// An anchor file past this size is rewritten as its last record alone.
const ANCHOR_COMPACT: u64 = 1024 * 1024;

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
        let file = File::open(self.path(name)).ok()?;
        let len = file.metadata().ok()?.len();
        let start = len.saturating_sub(ANCHOR_TAIL);
        let mut bytes = vec![0; (len - start) as usize];
        file.read_exact_at(&mut bytes, start).ok()?;
        // The last record that reads whole: one torn by a crash is passed over.
        bytes
            .split(|&b| b == b'\n')
            .rev()
            .find_map(|record| serde_json::from_slice(record).ok())
    }

    /// Every anchor this host keeps, for every file of every root: the
    /// files it has written.
    pub fn list(&self) -> Vec<Anchor> {
        let Ok(entries) = std::fs::read_dir(&self.dir) else {
            return Vec::new();
        };
        entries
            .filter_map(|entry| {
                let name = entry.ok()?.file_name();
                let name = name.to_str()?.strip_suffix(".anchor.json")?;
                let anchor = self.read(&format!("{name}.jsonl"))?;
                (anchor.file == format!("{name}.jsonl")).then_some(anchor)
            })
            .collect()
    }

    /// The newest file of the series that starts with `first` this host has
    /// an anchor for: its number and name.
    pub fn newest(&self, first: &str) -> Option<(u64, String)> {
        self.list()
            .into_iter()
            .filter_map(|anchor| Some((audit::number_in(first, &anchor.file)?, anchor.file)))
            .max()
    }

    /// The anchor file of audit file `name`, opened to append records (made,
    /// and its folder synced, if new).
    fn log(&self, name: &str, sync: &Syncer) -> io::Result<AnchorLog> {
        std::fs::create_dir_all(&self.dir)?;
        let path = self.path(name);
        let made = !path.exists();
        let file = std::fs::OpenOptions::new()
            .read(true)
            .append(true)
            .create(true)
            .custom_flags(libc::O_NOFOLLOW)
            .open(&path)?;
        if made {
            sync.folder(&File::open(&self.dir)?)?;
        }
        let len = file.metadata()?.len();
        let mut last = [0u8];
        let whole = len == 0 || (file.read_at(&mut last, len - 1)? == 1 && last[0] == b'\n');
        Ok(AnchorLog {
            file: Arc::new(file),
            path,
            len,
            whole,
            dirty: false,
        })
    }
}

/// One audit file's anchor records, open for appending.
struct AnchorLog {
    file: Arc<File>,
    path: PathBuf,
    len: u64,
    /// Whether the file ends in a whole record (a newline), or is empty.
    whole: bool,
    /// Records were appended since the file was last handed out to sync.
    dirty: bool,
}

impl AnchorLog {
    /// Appends `anchor` as the file's last record; not synced. A file grown
    /// past [`ANCHOR_COMPACT`] is replaced by one holding this record alone
    /// (a synced temporary renamed over it, its folder synced).
    fn append(&mut self, anchor: &Anchor, sync: &Syncer) -> io::Result<()> {
        let mut record = serde_json::to_vec(anchor).expect("anchors serialise");
        record.push(b'\n');
        if self.len + record.len() as u64 > ANCHOR_COMPACT {
            return self.compact(&record, sync);
        }
        if !self.whole {
            record.insert(0, b'\n');
        }
        self.whole = false;
        self.dirty = true;
        (&*self.file).write_all(&record)?;
        self.whole = true;
        self.len += record.len() as u64;
        Ok(())
    }

    /// The file to sync, if records were appended since it was last handed out.
    fn take_unsynced(&mut self) -> Option<Arc<File>> {
        std::mem::take(&mut self.dirty).then(|| self.file.clone())
    }

    fn compact(&mut self, record: &[u8], sync: &Syncer) -> io::Result<()> {
        let dir = self.path.parent().expect("anchors live in a folder");
        let mut tmp = self.path.clone().into_os_string();
        tmp.push(".tmp");
        let mut file = File::create(&tmp)?;
        file.write_all(record)?;
        sync.file(&file)?;
        std::fs::rename(&tmp, &self.path)?;
        sync.folder(&File::open(dir)?)?;
        let file = std::fs::OpenOptions::new()
            .read(true)
            .append(true)
            .custom_flags(libc::O_NOFOLLOW)
            .open(&self.path)?;
        (self.file, self.len, self.whole) = (Arc::new(file), record.len() as u64, true);
        Ok(())
    }
}
