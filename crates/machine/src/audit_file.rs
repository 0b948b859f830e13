//! One writer's audit file for one root: `<root>/.audit/<instance>-<hash>.jsonl`.
//!
//! Appends are serialised by a mutex inside the process and an exclusive
//! `flock` across processes, so concurrent acts never lose or tear a line. The
//! next seq is resumed from the file (and re-read if another process appended
//! under the same instance name). A failed append is cut back to the last whole
//! line, so a full disk leaves no torn line behind. Opening runs the `lost`
//! sweep: every entry an earlier boot left pending gets one `lost` completion.

use crate::durable::Syncer;
use cap_std::fs::{Dir, MetadataExt as _, OpenOptions};
use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::os::unix::fs::MetadataExt;
use std::sync::Mutex;
use voicebox_core::audit::{self, AuditFile, Entry};
use voicebox_core::contain::AUDIT_DIR;
use voicebox_core::time::iso8601;

/// The open file and what this writer knows of it.
struct Open {
    file: File,
    /// The held file's (device, inode), to notice the path now names another file.
    identity: (u64, u64),
    next_seq: u64,
    /// Length after this writer's last append: a different length means another
    /// process appended, and the seq must be re-read.
    len: u64,
}

/// The audit file of one (root, instance).
pub struct AuditWriter {
    dir: Dir,
    name: String,
    sync: Syncer,
    state: Mutex<Option<Open>>,
}

impl AuditWriter {
    /// A writer for `instance` in the root `dir` (whose path string is `root`).
    /// The file is opened (and swept) now if possible, else at the first append.
    /// Every append is synced with `sync` before it is acknowledged.
    pub fn new(dir: Dir, instance: &str, root: &str, sync: Syncer) -> AuditWriter {
        let writer = AuditWriter {
            dir,
            name: audit::file_name(instance, root),
            sync,
            state: Mutex::new(None),
        };
        let _ = writer.with_open(|_, _| Ok(()));
        writer
    }

    /// The file's name inside `.audit/`.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Appends one entry with the next seq and returns that seq.
    pub fn append(&self, entry: &Entry) -> io::Result<u64> {
        self.with_open(|open, sync| append_locked(open, entry, sync))
    }

    /// Runs `f` on the open file, opening it (and running the sweep) first if
    /// needed, under the process mutex and the file lock.
    fn with_open<R>(&self, f: impl FnOnce(&mut Open, &Syncer) -> io::Result<R>) -> io::Result<R> {
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
        let result = resync(open, &self.sync).and_then(|()| f(open, &self.sync));
        let _ = open.file.unlock();
        if result.is_err() {
            // Re-open next time: the file may have been fixed or replaced.
            *state = None;
        }
        result
    }

    fn path(&self) -> String {
        format!("{AUDIT_DIR}/{}", self.name)
    }

    /// Whether the file at the log's path is still the one this writer holds.
    fn still_at_path(&self, open: &Open) -> bool {
        self.dir
            .metadata(self.path())
            .is_ok_and(|at_path| (at_path.dev(), at_path.ino()) == open.identity)
    }

    fn open(&self) -> io::Result<Open> {
        let made_folder = !self.dir.is_dir(AUDIT_DIR);
        self.dir.create_dir_all(AUDIT_DIR)?;
        let made_file = !self.dir.exists(self.path());
        let mut options = OpenOptions::new();
        options.read(true).append(true).create(true);
        let file = self.dir.open_with(self.path(), &options)?.into_std();
        // A new name is durable only once its folder is synced.
        if made_file {
            self.sync.folder_at(&self.dir, AUDIT_DIR.as_ref())?;
        }
        if made_folder {
            self.sync.folder_at(&self.dir, "".as_ref())?;
        }
        let held = file.metadata()?;
        let mut open = Open {
            file,
            identity: (held.dev(), held.ino()),
            next_seq: 1,
            len: u64::MAX,
        };
        open.file.lock()?;
        let swept = resync(&mut open, &self.sync).and_then(|()| sweep_lost(&mut open, &self.sync));
        let _ = open.file.unlock();
        swept.map(|()| open)
    }
}

/// Re-reads the seq if the file is not the length this writer left it.
fn resync(open: &mut Open, sync: &Syncer) -> io::Result<()> {
    let len = open.file.metadata()?.len();
    if len == open.len {
        return Ok(());
    }
    let (entries, torn) = read_entries(&mut open.file)?;
    open.next_seq = audit::last_seq(&entries) + 1;
    open.len = len;
    if torn {
        // Close the torn fragment so the next line starts whole; readers then
        // report the fragment as a corrupt line instead of losing the next entry.
        open.file.write_all(b"\n")?;
        sync.file(&open.file)?;
        open.len += 1;
    }
    Ok(())
}

/// Appends a `lost` completion for every entry an earlier boot left pending.
fn sweep_lost(open: &mut Open, sync: &Syncer) -> io::Result<()> {
    let (entries, _) = read_entries(&mut open.file)?;
    let now = iso8601(crate::env::now_ms());
    for lost in audit::lost_completions(&entries, &now) {
        append_locked(open, &lost, sync)?;
    }
    Ok(())
}

/// The file's entries, and whether it ends without a newline (a torn append).
fn read_entries(file: &mut File) -> io::Result<(Vec<Entry>, bool)> {
    let mut bytes = Vec::new();
    file.seek(SeekFrom::Start(0))?;
    file.read_to_end(&mut bytes)?;
    let torn = bytes.last().is_some_and(|&b| b != b'\n');
    let text = AuditFile {
        name: String::new(),
        text: String::from_utf8_lossy(&bytes).into_owned(),
    };
    Ok((audit::parse(&text).1, torn))
}

/// Writes one line and syncs it; on failure cuts the file back to its last
/// whole line. The seq is acknowledged only once the line is on stable storage.
fn append_locked(open: &mut Open, entry: &Entry, sync: &Syncer) -> io::Result<u64> {
    let seq = open.next_seq;
    let line = Entry {
        seq,
        ..entry.clone()
    }
    .line();
    // `resync` has just made `len` the file's real length.
    let before = open.len;
    if let Err(e) = open
        .file
        .write_all(line.as_bytes())
        .and_then(|()| sync.file(&open.file))
    {
        let _ = open.file.set_len(before);
        return Err(e);
    }
    open.next_seq += 1;
    open.len = before + line.len() as u64;
    Ok(seq)
}
