//! One writer's audit file for one root: `<root>/.audit/<instance>-<hash>.jsonl`.
//!
//! Appends are serialised by a mutex inside the process and an exclusive
//! `flock` across processes, so concurrent acts never lose or tear a line. The
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
use std::collections::BTreeSet;
use std::fs::File;
use std::io::ErrorKind;
use std::io::{self, Write};
use std::os::unix::fs::{FileExt, MetadataExt};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use voicebox_core::audit::chain::{self, Anchor, Anchoring, Resume, TailScan};
use voicebox_core::audit::lines::{Backwards, CHUNK, MAX_LINE, Step};
use voicebox_core::audit::{self, Context, Entry};
use voicebox_core::contain::AUDIT_DIR;
use voicebox_core::time::iso8601;

/// The open file and what this writer knows of it.
struct OpenLog {
    /// Its name inside `.audit/`: a file of the writer's series.
    name: String,
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
    /// The seq the anchor holds as the host's last line: it only moves forward.
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
    sync: Syncer,
    anchors: Option<Anchors>,
    state: Mutex<Option<OpenLog>>,
}

impl AuditWriter {
    /// A writer for `writer` (its instance, project and root path) in the
    /// root whose host folders are `own`. Every append is synced with `sync` before it is
    /// acknowledged; with `anchors`, the host's anchor of the file is
    /// rewritten after each. With `open_now`, the file is opened and swept
    /// now (if possible), else at the first append.
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
            sync,
            anchors,
            state: Mutex::new(None),
        };
        if open_now {
            let _ = writer.with_open(|_| Ok(()));
        }
        writer
    }

    /// The name inside `.audit/` of the file this writer appends to.
    pub fn name(&self) -> String {
        let state = self.state.lock().unwrap_or_else(|p| p.into_inner());
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
        let result = self.settle(open, false).and_then(|()| f(open));
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
            self.sync.folder_at(&audit, "".as_ref())?;
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
        let mut open = OpenLog {
            name: name.into(),
            file,
            identity: (held.dev(), held.ino()),
            next_seq: 1,
            prev: chain::genesis(name),
            open: BTreeSet::new(),
            first: None,
            anchored: 0,
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
            self.sync.file(&open.file)?;
            open.len += 1;
            if let Tail::Own(closed) = tail(&open.file, &open.name, open.len, &anchoring)? {
                resume = closed;
            }
        }
        open.next_seq = after(resume.last_seq)?;
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

    /// Writes one line and syncs it; on failure cuts the file back to its last
    /// whole line. The seq is acknowledged only once the line is on stable
    /// storage; the anchor follows it.
    fn append_locked(&self, open: &mut OpenLog, entry: &Entry) -> io::Result<u64> {
        let seq = open.next_seq;
        if seq == u64::MAX {
            return Err(ceiling());
        }
        let mut still_open = open.open.clone();
        let mut sealed = entry.sealed(seq, open.prev.clone(), None);
        chain::track(&mut still_open, &sealed);
        sealed.open = still_open.first().copied();
        let line = sealed.line();
        if line.len() > MAX_LINE {
            return Err(io::Error::other(format!(
                "the entry is {} bytes, over the log's {MAX_LINE}-byte line cap; nothing was appended",
                line.len()
            )));
        }
        let hash = chain::line_hash(line.as_bytes());
        let anchors = self.anchors.as_ref().filter(|_| seq > open.anchored);
        let anchor = |seq, hash: &str, next| Anchor {
            file: open.name.clone(),
            seq,
            hash: hash.into(),
            first: open
                .first
                .clone()
                .unwrap_or_else(|| chain::line_hash(line.as_bytes())),
            next,
        };
        if let Some(anchors) = anchors {
            // Before the line, the anchor announces it, so a crash between
            // the line and the anchor that follows it leaves a file the
            // anchor accounts for. Not synced: a process crash keeps it, and
            // a power cut that loses it leaves the line unvouched for (a
            // later opener moves on rather than build on it).
            let _ = anchors.write(&anchor(seq - 1, &open.prev, Some(hash.clone())), None);
        }
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
        if let Some(anchors) = anchors {
            // The line is durable already; an anchor that cannot be written
            // leaves the previous one, which still bounds the file from below.
            let _ = anchors.write(&anchor(seq, &hash, None), Some(&self.sync));
            open.anchored = seq;
        }
        open.first.get_or_insert_with(|| hash.clone());
        open.prev = hash;
        open.open = still_open;
        Ok(seq)
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
    // Entries after the host's last line (but the one it announced), until
    // it is reached.
    let mut after = 0usize;
    let mut announced = false;
    // The earliest of them so far (the first after the host's last line).
    let mut earliest: Option<(u64, String, Vec<u8>)> = None;
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
                    if after > 0 {
                        // The host's own part resumes here, under the foreign
                        // lines: from the line it announced, if that is the
                        // first of them.
                        scan = TailScan::new(name);
                        if let Some((seq, hash, own)) = earliest.take()
                            && anchor.announced(seq, &hash)
                        {
                            after -= 1;
                            announced = true;
                            scan.push(&own);
                        }
                    }
                } else if after == 0 && !announced && anchor.announced(entry.seq, &hash) {
                    // The line the host was appending when it last stopped.
                    announced = true;
                } else if entry.seq > anchor.seq {
                    after += 1;
                    earliest = Some((entry.seq, hash, line));
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
    Ok(match anchoring {
        // Nothing vouched for before the announced first line.
        Anchoring::Anchored(anchor) if !reached && !anchor.none_before() => {
            cut_or_replaced(name, anchor)
        }
        Anchoring::Anchored(anchor) if after > 0 => {
            let why = format!(
                "{after} entries the host did not write follow its last line (seq {}) in {AUDIT_DIR}/{name}",
                anchor.seq + u64::from(announced)
            );
            let own = Some(scan.finish());
            Tail::Foreign { why, own }
        }
        _ => Tail::Own(scan.finish()),
    })
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

    /// Replaces the anchor: a temporary file, synced with `sync`, renamed
    /// over the old one, so a crash leaves the old anchor or the new one.
    /// Callers hold the audit file's lock, so one temporary name per anchor
    /// suffices. The folder is not synced: a rename lost to a power cut
    /// leaves an older anchor, which is still never ahead of the (already
    /// synced) log.
    fn write(&self, anchor: &Anchor, sync: Option<&Syncer>) -> io::Result<()> {
        std::fs::create_dir_all(&self.dir)?;
        let target = self.path(&anchor.file);
        let tmp = self.dir.join(format!(".{}.tmp", anchor.file));
        let mut file = File::create(&tmp)?;
        file.write_all(&serde_json::to_vec(anchor).expect("anchors serialise"))?;
        if let Some(sync) = sync {
            sync.file(&file)?;
        }
        std::fs::rename(&tmp, target)
    }
}
