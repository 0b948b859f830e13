//! Opening a file of the series: its tail re-read, the `lost` sweep, and
//! moving on to the next file where the current one is not the host's.

use super::{AuditWriter, OpenLog, Tail, after, ceiling, first_line_hash, tail};
use crate::own::{WRITERS_DIR, appending};
use cap_std::fs::{OpenOptions, OpenOptionsExt};
use std::collections::BTreeSet;
use std::io;
use std::io::ErrorKind;
use std::io::Write;
use std::os::unix::fs::FileExt;
use std::os::unix::fs::MetadataExt;
use std::sync::Arc;
use voicebox_core::audit;
use voicebox_core::audit::Context;
use voicebox_core::audit::Entry;
use voicebox_core::audit::chain;
use voicebox_core::audit::chain::Anchoring;
use voicebox_core::audit::chain::Resume;
use voicebox_core::contain::AUDIT_DIR;
use voicebox_core::time::iso8601;

/// What the file at the writer's path holds past what the writer knows.
pub(super) enum Found {
    /// Its length is the one this writer left.
    Same,
    /// It ends in the host's own last line: resumed from there, with the
    /// entries still pending.
    Own(Vec<Entry>),
    /// It does not: why, and where the host's own part left off (if found).
    Foreign { why: String, own: Option<Resume> },
}

/// How a file of the series is opened.
#[derive(Clone, Copy)]
pub(super) enum Create {
    /// Made if absent: a file the host has no anchor for.
    IfAbsent,
    /// Never made: the host wrote it, and a missing one stays missing.
    Never,
    /// Only made: the next file of the series.
    New,
}

impl AuditWriter {
    /// Opens the series' current file, swept; or the next one, where the
    /// current one is not the host's to build on.
    pub(super) fn open(&self) -> io::Result<OpenLog> {
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
        let mut options = appending();
        options.read(true);
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
            in_sync: false,
            held: Vec::new(),
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
    pub(super) fn settle(&self, open: &mut OpenLog, sweep: bool) -> io::Result<()> {
        let pending = match self.resync(open)? {
            Found::Same => return Ok(()),
            Found::Own(pending) => pending,
            Found::Foreign { why, own } => {
                // Moved on while this file is still locked, so a second
                // writer of the series finds the next file anchored.
                let next = self.move_on(&open.name, why, own, sweep)?;
                let _ = open.file.unlock();
                self.shared.retire(open);
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
    pub(super) fn move_on(
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
}
