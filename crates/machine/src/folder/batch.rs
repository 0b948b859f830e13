//! The syncs of one change, made together.
//!
//! A change's attempt line opens a batch: the syncs its steps need (the
//! attempt line's group, the journal's kept bytes, folder and index line,
//! the staged file) are collected instead of made one after another, and
//! made at once, side by side (the sync pool beside this thread), at the
//! change's barrier — right before the root itself is changed (a rename, a removal,
//! a folder made, bytes appended). A power cut before the barrier leaves the
//! root as it was; after it, everything the change was announced with is
//! durable. The syncs after the change (its folder) are made at the next
//! audit append, before the outcome line is written, so a durable outcome
//! never names a change that a power cut could undo. Outside a batch every
//! sync is made where it is asked for.

use super::FolderStorage;
use crate::audit_file::Owed;
use crate::durable::{Gate, Syncer, pool};
use crate::settle;
use cap_std::fs::Dir;
use std::collections::HashMap;
use std::fs::File;
use std::io;
use std::os::unix::fs::MetadataExt;
use std::path::Path;
use std::sync::{Mutex, MutexGuard};
use std::thread::{self, ThreadId};
use voicebox_core::audit::Entry;

/// One sync a batch owes.
enum Need {
    /// An audit line's group.
    Line(Owed),
    File(File),
    Folder(File),
}

impl Need {
    fn meet(&self, sync: &Syncer) -> io::Result<()> {
        match self {
            Need::Line(owed) => owed.wait(),
            Need::File(file) => sync.file(file),
            Need::Folder(folder) => sync.folder(folder),
        }
    }
}

/// Makes files and folders durable now, or at the open batch's barrier.
pub(super) struct Durable {
    pub(super) sync: Syncer,
    /// The open batches, one per thread that runs a change (changes may run
    /// beside one another, each on its own thread).
    batches: Mutex<HashMap<ThreadId, Vec<Need>>>,
}

impl Durable {
    pub(super) fn new(sync: Syncer) -> Durable {
        Durable {
            sync,
            batches: Mutex::default(),
        }
    }

    fn batches(&self) -> MutexGuard<'_, HashMap<ThreadId, Vec<Need>>> {
        self.batches.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// This thread's open batch, taken (`None`: none is open).
    fn take(&self) -> Option<Vec<Need>> {
        self.batches().remove(&thread::current().id())
    }

    /// Opens a batch with the attempt line's sync (any batch this thread
    /// left open is made durable first).
    pub(super) fn open(&self, line: Owed) -> io::Result<()> {
        self.close()?;
        self.batches()
            .insert(thread::current().id(), vec![Need::Line(line)]);
        Ok(())
    }

    /// The barrier: every sync owed so far, made now, side by side. The
    /// batch stays open for the syncs after the change.
    pub(super) fn barrier(&self) -> io::Result<()> {
        let needs = match self.batches().get_mut(&thread::current().id()) {
            Some(needs) => std::mem::take(needs),
            None => return Ok(()),
        };
        meet_all(&self.sync, needs)
    }

    /// Closes the batch: the audit lines it owes are made durable here; its
    /// files and folders, when the gate returned is passed.
    pub(super) fn close_started(&self) -> io::Result<Gate> {
        let needs = self.take().unwrap_or_default();
        let (lines, others) = split(needs);
        lines.iter().try_for_each(|line| line.meet(&self.sync))?;
        if others.is_empty() {
            return Ok(Gate::default());
        }
        let sync = self.sync.clone();
        Ok(Gate::new(move || meet_all(&sync, others)))
    }

    /// Makes what the batch owes durable and closes it.
    pub(super) fn close(&self) -> io::Result<()> {
        self.close_started()?.pass()
    }

    /// `file`'s bytes durable: now, or at the barrier.
    pub(super) fn file(&self, file: File) -> io::Result<()> {
        self.owe(Need::File(file))
    }

    /// The folder `path` of `dir` durable (see [`Syncer::folder_at`]): now,
    /// or at the barrier.
    pub(super) fn folder_at(&self, dir: &Dir, path: &Path) -> io::Result<()> {
        self.owe(Need::Folder(Syncer::open_folder(dir, path)?))
    }

    fn owe(&self, need: Need) -> io::Result<()> {
        let unowed = match self.batches().get_mut(&thread::current().id()) {
            Some(needs) => {
                needs.push(need);
                None
            }
            None => Some(need),
        };
        unowed.map_or(Ok(()), |need| need.meet(&self.sync))
    }
}

impl FolderStorage {
    /// An audit line, written once the change before it is durable; in a
    /// [`settle::settle_after`] scope its own sync is waited for by the
    /// scope's caller.
    pub(super) fn audit_line(&self, entry: &Entry) -> io::Result<u64> {
        // The change's folder is synced while the line is sealed and
        // announced; the line is written once the folder is durable.
        let change = self.durable.close_started()?;
        if !settle::deferred() {
            return self.audit.append(entry, change);
        }
        let (seq, owed) = self.audit.append_written(entry, change)?;
        owed.map_or(Ok(()), settle::owe)?;
        Ok(seq)
    }

    /// A change's attempt line: written now, durable at the change's barrier.
    pub(super) fn attempt_line(&self, entry: &Entry) -> io::Result<u64> {
        let (seq, owed) = self.audit.append_written(entry, Gate::default())?;
        let owed = owed.ok_or_else(|| io::Error::other("an attempt is no look"))?;
        self.durable.open(owed)?;
        Ok(seq)
    }
}

/// `needs` with each folder once: one sync covers every name changed in it.
fn distinct(needs: Vec<Need>) -> Vec<Need> {
    let mut seen = Vec::new();
    needs
        .into_iter()
        .filter(|need| {
            let Need::Folder(folder) = need else {
                return true;
            };
            let Ok(meta) = folder.metadata() else {
                return true;
            };
            let id = (meta.dev(), meta.ino());
            let first = !seen.contains(&id);
            seen.push(id);
            first
        })
        .collect()
}

/// `needs` (each folder once) split into the audit lines' and the others.
fn split(needs: Vec<Need>) -> (Vec<Need>, Vec<Need>) {
    distinct(needs)
        .into_iter()
        .partition(|need| matches!(need, Need::Line(_)))
}

/// Meets every need side by side: the audit lines' here (or, with none, the
/// first file's or folder's), the other files' and folders' on the sync pool
/// meanwhile (the filesystem commits syncs that wait together as one).
fn meet_all(sync: &Syncer, needs: Vec<Need>) -> io::Result<()> {
    let (mut here, mut others) = split(needs);
    if here.is_empty() && !others.is_empty() {
        here.push(others.remove(0));
    }
    let others: Vec<_> = others
        .into_iter()
        .map(|need| {
            let sync = sync.clone();
            pool::spawn(move || need.meet(&sync))
        })
        .collect();
    let result = here.iter().try_for_each(|need| need.meet(sync));
    others
        .into_iter()
        .fold(result, |result, other| result.and(other.wait()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::RootOptions;
    use voicebox_core::audit::{self, ActRecord, AuditFile, Context, Happened};
    use voicebox_core::tier::ActKind;

    fn outcome() -> Entry {
        let context = Context {
            instance: "w".into(),
            project: "p@machine".into(),
            root: "r".into(),
            turn: None,
            at: "2026-01-01T00:00:00.000Z".into(),
        };
        let happened = Happened::Allowed {
            rule: voicebox_core::Rule::WritesInside,
            observed: None,
            read: None,
        };
        Entry::new(context, ActRecord::new(ActKind::Write, "a.txt"), happened)
    }

    #[test]
    fn a_failed_gate_fails_its_own_line_only_and_the_log_goes_on() {
        let dir = tempfile::TempDir::new().unwrap();
        let root = dir.path().join("root");
        std::fs::create_dir(&root).unwrap();
        let options = RootOptions {
            anchors: Some(dir.path().join("anchors")),
            ..RootOptions::default()
        };
        let storage = FolderStorage::open_with(&root, "w", options).unwrap();
        let first = storage.audit.append(&outcome(), Gate::default()).unwrap();
        let refused = storage.audit.append(
            &outcome(),
            Gate::new(|| Err(io::Error::other("the folder could not be synced"))),
        );
        assert_eq!(
            refused.unwrap_err().to_string(),
            "the folder could not be synced"
        );
        // Control: a gate that passes lets its line be written, next in seq.
        let passed = Gate::new(|| Ok(()));
        assert_eq!(storage.audit.append(&outcome(), passed).unwrap(), first + 1);
        let log = root.join(".audit").join(storage.audit_file_name());
        let file = AuditFile {
            name: "log".into(),
            text: std::fs::read_to_string(log).unwrap(),
        };
        let (report, entries) = audit::parse(&file);
        assert!(report.corrupt.is_empty() && !report.torn, "{report:?}");
        let seqs: Vec<u64> = entries.iter().map(|e| e.seq).collect();
        assert_eq!(
            seqs,
            [first, first + 1],
            "the failed line was never written"
        );
    }
}
