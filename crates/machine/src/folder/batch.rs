//! The syncs of one change, made together.
//!
//! A change's attempt line opens a batch: the syncs its steps need (the
//! attempt line's group, the journal's kept bytes, folder and index line,
//! the staged file) are collected instead of made one after another, and
//! made at once, side by side on threads of their own, at the change's
//! barrier — right before the root itself is changed (a rename, a removal,
//! a folder made, bytes appended). A power cut before the barrier leaves the
//! root as it was; after it, everything the change was announced with is
//! durable. The syncs after the change (its folder) are made at the next
//! audit append, before the outcome line is written, so a durable outcome
//! never names a change that a power cut could undo. Outside a batch every
//! sync is made where it is asked for.

use super::FolderStorage;
use crate::audit_file::Owed;
use crate::durable::Syncer;
use crate::settle;
use cap_std::fs::Dir;
use std::fs::File;
use std::io;
use std::os::unix::fs::MetadataExt;
use std::path::Path;
use std::sync::{Mutex, MutexGuard};
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
    /// The open batch's syncs (`None`: no batch open).
    batch: Mutex<Option<Vec<Need>>>,
}

impl Durable {
    pub(super) fn new(sync: Syncer) -> Durable {
        Durable {
            sync,
            batch: Mutex::new(None),
        }
    }

    fn batch(&self) -> MutexGuard<'_, Option<Vec<Need>>> {
        self.batch.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Opens a batch with the attempt line's sync (any batch left open
    /// is made durable first).
    pub(super) fn open(&self, line: Owed) -> io::Result<()> {
        self.close()?;
        *self.batch() = Some(vec![Need::Line(line)]);
        Ok(())
    }

    /// The barrier: every sync owed so far, made now, side by side. The
    /// batch stays open for the syncs after the change.
    pub(super) fn barrier(&self) -> io::Result<()> {
        let needs = match self.batch().as_mut() {
            Some(needs) => std::mem::take(needs),
            None => return Ok(()),
        };
        meet_all(&self.sync, distinct(needs))
    }

    /// Makes what the batch owes durable and closes it.
    pub(super) fn close(&self) -> io::Result<()> {
        self.barrier()?;
        *self.batch() = None;
        Ok(())
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
        match self.batch().as_mut() {
            Some(needs) => {
                needs.push(need);
                Ok(())
            }
            None => need.meet(&self.sync),
        }
    }
}

impl FolderStorage {
    /// An audit line, written once the change before it is durable; in a
    /// [`settle::settle_after`] scope its own sync is waited for by the
    /// scope's caller.
    pub(super) fn audit_line(&self, entry: &Entry) -> io::Result<u64> {
        self.durable.close()?;
        if !settle::deferred() {
            return self.audit.append(entry);
        }
        let (seq, owed) = self.audit.append_written(entry)?;
        owed.map_or(Ok(()), settle::owe)?;
        Ok(seq)
    }

    /// A change's attempt line: written now, durable at the change's barrier.
    pub(super) fn attempt_line(&self, entry: &Entry) -> io::Result<u64> {
        let (seq, owed) = self.audit.append_written(entry)?;
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

/// Meets every need, each on a thread of its own but the first: the
/// filesystem commits syncs that wait together as one.
fn meet_all(sync: &Syncer, needs: Vec<Need>) -> io::Result<()> {
    let Some((first, rest)) = needs.split_first() else {
        return Ok(());
    };
    std::thread::scope(|scope| {
        let others: Vec<_> = rest
            .iter()
            .map(|need| {
                let thread = std::thread::Builder::new().name("sync".into());
                (need, thread.spawn_scoped(scope, || need.meet(sync)))
            })
            .collect();
        let mut result = first.meet(sync);
        for (need, thread) in others {
            let met = match thread {
                Ok(handle) => handle
                    .join()
                    .unwrap_or_else(|_| Err(io::Error::other("a sync thread failed"))),
                // Where no thread can be had, here.
                Err(_) => need.meet(sync),
            };
            result = result.and(met);
        }
        result
    })
}
