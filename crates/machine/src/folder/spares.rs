//! Empty staged files made ahead of the writes that fill them, on the sync
//! pool's threads. Creating a file can cost more than writing it — ext4
//! without a journal scans past every inode freed in the last seconds to
//! find one to give — and a write made while the host holds a root's lock
//! should not pay for that in the lock.

use super::FolderStorage;
use super::write::staged_name;
use crate::MachineEnv;
use crate::durable::pool;
use cap_std::fs::{Dir, File, MetadataExt as _, OpenOptions, OpenOptionsExt};
use std::io;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use voicebox_core::platform::Env;

/// How many spares a root keeps made: enough for the writes that queue
/// behind one lock while the next are made.
const KEEP: usize = 4;

/// The names of the spares made and not yet taken, in the host's staging folder.
#[derive(Default)]
pub(super) struct Spares {
    made: Mutex<Vec<String>>,
    making: AtomicBool,
}

impl Spares {
    /// Makes spares in `staging` on the pool until [`KEEP`] are made,
    /// unless a job making them is already running.
    fn refill(self: &Arc<Self>, staging: &Dir) {
        if self.making.swap(true, Ordering::AcqRel) {
            return;
        }
        let Ok(staging) = staging.try_clone() else {
            self.making.store(false, Ordering::Release);
            return;
        };
        let spares = self.clone();
        pool::detach(move || {
            while spares.made.lock().unwrap_or_else(|e| e.into_inner()).len() < KEEP {
                let name = staged_name(&MachineEnv.random_id());
                if staging.open_with(&name, &fresh()).is_err() {
                    break;
                }
                spares
                    .made
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .push(name);
            }
            spares.making.store(false, Ordering::Release);
        });
    }

    /// Removes the spares not taken (a root let go of).
    pub(super) fn clear(&self, staging: &Dir) {
        for name in self
            .made
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .drain(..)
        {
            let _ = staging.remove_file(name);
        }
    }
}

/// Options that create a file that must not exist yet, for writing.
fn fresh() -> OpenOptions {
    let mut options = OpenOptions::new();
    options.write(true).create_new(true);
    options
}

impl FolderStorage {
    /// A new, empty staged file in `staging` to write into, and its name: a
    /// spare made ahead where one is left (still the empty file of one name
    /// it was made as), made now otherwise. The spares are made again after.
    pub(super) fn staged_file(&self, staging: &Dir) -> io::Result<(String, File)> {
        let taken = self
            .spares
            .made
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .pop();
        self.spares.refill(staging);
        if let Some(name) = taken {
            let mut options = OpenOptions::new();
            options.write(true).custom_flags(libc::O_NOFOLLOW);
            if let Ok(file) = staging.open_with(&name, &options)
                && file
                    .metadata()
                    .is_ok_and(|m| m.is_file() && m.len() == 0 && m.nlink() == 1)
            {
                return Ok((name, file));
            }
        }
        let name = staged_name(&MachineEnv.random_id());
        let file = staging.open_with(&name, &fresh())?;
        Ok((name, file))
    }
}

impl Drop for FolderStorage {
    fn drop(&mut self) {
        if let Ok(Some(staging)) = self.own.folder(crate::own::TMP_DIR) {
            self.spares.clear(&staging);
        }
    }
}
