//! Staged files made ahead of the writes that fill them, on the sync pool's
//! threads, as files with no name (`O_TMPFILE`) only the host holds open.
//! Creating a file can cost more than writing it — ext4 without a journal
//! scans past every inode freed in the last seconds to find one to give —
//! and a write made while the host holds a root's lock should not pay for
//! that in the lock. A file with no name cannot be swapped, swept or left
//! behind: one not taken is gone when the host lets go of the root.

use super::FolderStorage;
use super::write::staged_name;
use crate::MachineEnv;
use crate::durable::pool;
use cap_std::fs::{Dir, File, OpenOptions};
use rustix::fs::{AtFlags, CWD, Mode, OFlags};
use std::io;
use std::os::fd::AsFd;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use voicebox_core::platform::Env;

/// How many spares a root keeps made: enough for the writes that queue
/// behind one lock while the next are made.
const KEEP: usize = 4;

/// The spares made and not yet taken.
#[derive(Default)]
pub(super) struct Spares {
    made: Mutex<Vec<std::fs::File>>,
    making: AtomicBool,
}

/// Clears [`Spares::making`] when a refill ends, even by a panic.
struct Refilling(Arc<Spares>);

impl Drop for Refilling {
    fn drop(&mut self) {
        self.0.making.store(false, Ordering::Release);
    }
}

impl Spares {
    fn made(&self) -> std::sync::MutexGuard<'_, Vec<std::fs::File>> {
        self.made.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Makes spares in `staging` on the pool until [`KEEP`] are made,
    /// unless a job making them is already running. Where the filesystem
    /// makes no file without a name, none are made.
    fn refill(self: &Arc<Self>, staging: &Dir) {
        if self.making.swap(true, Ordering::AcqRel) {
            return;
        }
        let refilling = Refilling(self.clone());
        let Ok(staging) = staging.try_clone() else {
            return;
        };
        pool::detach(move || {
            while refilling.0.made().len() < KEEP {
                match unnamed(&staging) {
                    Ok(file) => refilling.0.made().push(file),
                    Err(_) => break,
                }
            }
        });
    }
}

/// A new, empty file with no name in `staging`, open for writing, with the
/// permissions a file created by name gets. They are set, not asked for at
/// creation: before Linux 6.2 a file with no name was given the mode asked
/// for without the umask on filesystems without ACLs.
fn unnamed(staging: &Dir) -> io::Result<std::fs::File> {
    let mode = creation_mode().ok_or(io::ErrorKind::Unsupported)?;
    let flags = OFlags::WRONLY | OFlags::TMPFILE | OFlags::CLOEXEC;
    let fd = rustix::fs::openat(staging, ".", flags, Mode::from_raw_mode(0o600))?;
    rustix::fs::fchmod(&fd, Mode::from_raw_mode(mode))?;
    Ok(fd.into())
}

/// `0o666` less this process's umask, as `/proc/self/status` says it
/// (read once: nothing here changes the umask); `None` where it cannot be
/// read, and then no spares are made.
fn creation_mode() -> Option<u32> {
    static MODE: OnceLock<Option<u32>> = OnceLock::new();
    *MODE.get_or_init(|| {
        let status = std::fs::read_to_string("/proc/self/status").ok()?;
        let umask = status
            .lines()
            .find_map(|line| line.strip_prefix("Umask:"))?;
        let umask = u32::from_str_radix(umask.trim(), 8).ok()?;
        Some(0o666 & !umask)
    })
}

/// Gives the unnamed `file` the name `name` in `staging`: directly where
/// the kernel allows it, else through its `/proc` entry.
fn name(file: &std::fs::File, staging: &Dir, name: &str) -> io::Result<()> {
    let direct = rustix::fs::linkat(file.as_fd(), "", staging, name, AtFlags::EMPTY_PATH);
    if direct.is_ok() {
        return Ok(());
    }
    let own = format!("/proc/self/fd/{}", std::os::fd::AsRawFd::as_raw_fd(file));
    rustix::fs::linkat(CWD, own.as_str(), staging, name, AtFlags::SYMLINK_FOLLOW)?;
    Ok(())
}

impl FolderStorage {
    /// A new, empty staged file in `staging` to write into, and its name: a
    /// spare made ahead, named now, where one is left; made now otherwise.
    /// The spares are made again after.
    pub(super) fn staged_file(&self, staging: &Dir) -> io::Result<(String, File)> {
        let taken = self.spares.made().pop();
        self.spares.refill(staging);
        let tmp = staged_name(&MachineEnv.random_id());
        // Named now and dated now: a staged file is judged stale by its
        // age, and this one was made before the write that fills it.
        if let Some(file) = taken
            && name(&file, staging, &tmp).is_ok()
        {
            if file.set_modified(std::time::SystemTime::now()).is_err() {
                let _ = staging.remove_file(&tmp);
            } else {
                return Ok((tmp, File::from_std(file)));
            }
        }
        let mut options = OpenOptions::new();
        options.write(true).create_new(true);
        Ok((tmp.clone(), staging.open_with(&tmp, &options)?))
    }
}
