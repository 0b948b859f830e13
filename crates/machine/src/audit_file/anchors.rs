//! The host's anchor records, one file per audit file, outside every root.

use crate::durable::{Syncer, pool};
use std::fs::File;
use std::io;
use std::io::Write;
use std::os::unix::fs::FileExt;
use std::os::unix::fs::OpenOptionsExt as _;
use std::panic::AssertUnwindSafe;
use std::path::PathBuf;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use voicebox_core::audit;
use voicebox_core::audit::chain::Anchor;

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
    pub(super) fn log(&self, name: &str, sync: &Syncer) -> io::Result<AnchorLog> {
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
            path,
            len,
            whole,
            durable: Arc::new(Flushing {
                sync: sync.clone(),
                state: Mutex::new(Flushed {
                    file: Arc::new(file),
                    appended: 0,
                    synced: 0,
                    running: false,
                    queued: false,
                }),
                ended: Condvar::new(),
            }),
        })
    }
}

/// One audit file's anchor records, open for appending.
pub(super) struct AnchorLog {
    path: PathBuf,
    len: u64,
    /// Whether the file ends in a whole record (a newline), or is empty.
    whole: bool,
    /// The file, and how much of it is durable.
    durable: Arc<Flushing>,
}

/// An anchor file's records and their syncs. An announcement is synced as
/// soon as it is written, on the sync pool, while the act goes on: the log
/// must not be synced before it, and by then it usually is already.
struct Flushing {
    sync: Syncer,
    state: Mutex<Flushed>,
    /// Told when a sync ends.
    ended: Condvar,
}

struct Flushed {
    file: Arc<File>,
    /// Records appended, and how many of them a sync has made durable.
    appended: u64,
    synced: u64,
    /// A sync is running.
    running: bool,
    /// A job on the sync pool syncs every record appended until none is left.
    queued: bool,
}

/// The records appended up to some moment, to be made durable.
pub(super) struct Due {
    durable: Arc<Flushing>,
    records: u64,
}

impl Due {
    /// Returns once the records are durable, syncing them here where no
    /// sync is running. A sync that fails leaves the earlier records, which
    /// never name a line that is not durable.
    pub(super) fn wait(&self) {
        drop(
            self.durable
                .sync_until(|state| state.synced >= self.records),
        );
    }
}

impl Flushing {
    fn state(&self) -> MutexGuard<'_, Flushed> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Syncs (or waits for the sync running) until `done`; the state then.
    fn sync_until(&self, done: impl Fn(&Flushed) -> bool) -> MutexGuard<'_, Flushed> {
        let mut state = self.state();
        while !done(&state) {
            state = match state.running {
                true => self.ended.wait(state).unwrap_or_else(|p| p.into_inner()),
                false => self.sync_once(state),
            };
        }
        state
    }

    /// One sync of every record appended so far (the lock released meanwhile).
    fn sync_once<'a>(&'a self, mut state: MutexGuard<'a, Flushed>) -> MutexGuard<'a, Flushed> {
        state.running = true;
        let (file, target) = (state.file.clone(), state.appended);
        drop(state);
        let synced = std::panic::catch_unwind(AssertUnwindSafe(|| self.sync.file(&file)));
        let mut state = self.state();
        state.running = false;
        self.ended.notify_all();
        match synced {
            Ok(_) => state.synced = state.synced.max(target),
            // Waiters go on (and sync again) rather than wait for good.
            Err(panic) => {
                drop(state);
                std::panic::resume_unwind(panic);
            }
        }
        state
    }

    /// Syncs, on the sync pool, the records appended and not yet durable,
    /// and those appended meanwhile, until none is left.
    fn start(self: &Arc<Self>) {
        let mut state = self.state();
        if state.queued || state.synced >= state.appended {
            return;
        }
        state.queued = true;
        drop(state);
        let durable = self.clone();
        pool::detach(move || {
            // Checked and left under one lock: a record appended after it
            // finds no job queued, and starts one.
            durable
                .sync_until(|state| state.synced >= state.appended)
                .queued = false;
        });
    }
}

impl AnchorLog {
    /// Appends `anchor`, announcing lines about to be written, and starts
    /// its sync at once on the sync pool.
    pub(super) fn announce(&mut self, anchor: &Anchor) -> io::Result<()> {
        self.append(anchor)?;
        self.durable.start();
        Ok(())
    }

    /// Appends `anchor` as the file's last record; not synced. A file grown
    /// past [`ANCHOR_COMPACT`] is replaced by one holding this record alone
    /// (a synced temporary renamed over it, its folder synced).
    pub(super) fn append(&mut self, anchor: &Anchor) -> io::Result<()> {
        let mut record = serde_json::to_vec(anchor).expect("anchors serialise");
        record.push(b'\n');
        if self.len + record.len() as u64 > ANCHOR_COMPACT {
            return self.compact(&record);
        }
        if !self.whole {
            record.insert(0, b'\n');
        }
        self.whole = false;
        let file = self.durable.state().file.clone();
        (&*file).write_all(&record)?;
        self.whole = true;
        self.len += record.len() as u64;
        // Counted once written, so a sync running now never counts it.
        self.durable.state().appended += 1;
        Ok(())
    }

    /// The records appended so far, to be made durable before the lines
    /// they announce are synced.
    pub(super) fn due(&self) -> Due {
        Due {
            durable: self.durable.clone(),
            records: self.durable.state().appended,
        }
    }

    fn compact(&mut self, record: &[u8]) -> io::Result<()> {
        let sync = &self.durable.sync;
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
        (self.len, self.whole) = (record.len() as u64, true);
        let mut state = self.durable.state();
        state.file = Arc::new(file);
        // The new file is durable whole.
        state.appended += 1;
        state.synced = state.appended;
        Ok(())
    }
}
