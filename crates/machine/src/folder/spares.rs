//! Staged files made ahead of the writes that fill them, on the sync pool's
//! threads. Creating a file can cost more than writing it — ext4 without a
//! journal scans past every inode freed in the last minutes to find one to
//! give — and a write made while the host holds a root's lock should not pay
//! for that in the lock.
//!
//! Two kinds: files the undo journal has forgotten, emptied and kept to be
//! written again (as databases recycle their log segments), so steady
//! writing makes and frees no inode at all; and, where none is left, files
//! made with no name (`O_TMPFILE`), which cannot be swapped, swept or left
//! behind. An emptied file waits under a name of the host's shape in the
//! staging folder; a write claims it by renaming it, so two hosts on one
//! root never take the same one, and checks that what it renamed is the
//! file it opened, still empty and with no other name.

use super::FolderStorage;
use super::own_files::{alone, remove_if_file};
use super::write::staged_name;
use crate::MachineEnv;
use crate::durable::pool;
use crate::own::{TMP_DIR, opening};
use cap_std::fs::{Dir, File, Metadata, MetadataExt as _, OpenOptions};
use rustix::fs::{AtFlags, CWD, Mode, OFlags};
use std::collections::VecDeque;
use std::io;
use std::os::fd::AsFd;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};
use voicebox_core::journal;
use voicebox_core::platform::Env;

/// How many spares a root keeps made: enough for the writes that queue
/// behind one lock while the next are made.
const KEEP: usize = 4;

/// How many emptied files a root keeps to write again: more than one
/// compaction of the undo journal forgets, so steady writing frees none.
const EMPTIED_MAX: usize = journal::COMPACT_AFTER_LINES;

/// How the host names an emptied file waiting in the staging folder.
const EMPTIED: &str = "spare-";

/// The spares made and not yet taken, and the emptied files waiting.
#[derive(Default)]
pub(super) struct Spares {
    /// Taken oldest first, so none waits while newer ones are used.
    made: Mutex<VecDeque<Spare>>,
    /// Names, in the staging folder, of emptied files to write again.
    emptied: Mutex<Vec<String>>,
    making: AtomicBool,
}

/// A staged file made ahead, open for writing.
enum Spare {
    /// Made with no name.
    Unnamed(std::fs::File),
    /// An emptied file under its name in the staging folder, with the
    /// identity (device, inode) it was opened with. Another host on the
    /// root may hold the same file open until one of them claims it, so
    /// nothing about it is changed before the claim.
    Emptied {
        file: std::fs::File,
        name: String,
        identity: (u64, u64),
    },
}

impl Spare {
    /// The file, named `tmp` in `staging` and dated now (a staged file is
    /// judged stale by its age, and a spare is older than its write);
    /// `None` where that fails, or where what the claim renamed is not the
    /// emptied file this spare holds (left for the sweep), or is no longer
    /// empty, alone and plain (removed). A claimed file is given a new
    /// file's permissions only once it is this host's alone.
    fn take(self, staging: &Dir, tmp: &str) -> Option<std::fs::File> {
        match self {
            Spare::Unnamed(file) => {
                name(&file, staging, tmp).ok()?;
                if file.set_modified(std::time::SystemTime::now()).is_err() {
                    let _ = staging.remove_file(tmp);
                    return None;
                }
                Some(file)
            }
            Spare::Emptied {
                file,
                name,
                identity,
            } => {
                staging.rename(&name, staging, tmp).ok()?;
                let claimed = staging.symlink_metadata(tmp).ok()?;
                if (claimed.dev(), claimed.ino()) != identity {
                    return None;
                }
                let ready = alone(&claimed, 1)
                    && claimed.len() == 0
                    && plain(&file)
                    && renewed(&file).is_ok();
                if !ready {
                    let _ = staging.remove_file(tmp);
                    return None;
                }
                Some(file)
            }
        }
    }
}

/// Clears [`Spares::making`] when a refill ends, even by a panic.
struct Refilling(Arc<Spares>);

impl Drop for Refilling {
    fn drop(&mut self) {
        self.0.making.store(false, Ordering::Release);
    }
}

impl Spares {
    fn made(&self) -> MutexGuard<'_, VecDeque<Spare>> {
        self.made.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn emptied(&self) -> MutexGuard<'_, Vec<String>> {
        self.emptied.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Makes spares in `staging` on the pool until [`KEEP`] are made,
    /// unless a job making them is already running: emptied files first,
    /// then files with no name (none where the filesystem makes none).
    fn refill(self: &Arc<Self>, staging: &Dir) {
        if self.making.swap(true, Ordering::AcqRel) {
            return;
        }
        let refilling = Refilling(self.clone());
        let Ok(staging) = staging.try_clone() else {
            return;
        };
        pool::detach(move || {
            let spares = &refilling.0;
            while spares.made().len() < KEEP {
                let waiting = spares.emptied().pop();
                let spare = match waiting {
                    Some(name) => match reopen(&staging, &name) {
                        Ok(spare) => spare,
                        Err(_) => {
                            // No longer an empty file of ours: not written
                            // again, and not taken up again by a later host.
                            remove_if_file(&staging, &name);
                            continue;
                        }
                    },
                    None => match unnamed(&staging) {
                        Ok(file) => Spare::Unnamed(file),
                        Err(_) => break,
                    },
                };
                spares.made().push_back(spare);
            }
        });
    }

    /// Empties the file `name` of the host folder `folder` and moves it to
    /// `staging` to be written again, instead of removing it; `false`
    /// (nothing changed) where it is not a regular file of this process's
    /// owner and group with one name and nothing a new file would not
    /// carry (see [`plain`]), or enough wait already.
    pub(super) fn empty_into(&self, folder: &Dir, name: &str, staging: &Dir) -> bool {
        if self.emptied().len() >= EMPTIED_MAX {
            return false;
        }
        let Ok((file, meta)) = reopened(folder, name) else {
            return false;
        };
        let spare = format!("{EMPTIED}{}", MachineEnv.random_id());
        let moved = ours(&meta)
            && plain(&file)
            && file.set_len(0).is_ok()
            && folder.rename(name, staging, &spare).is_ok();
        if moved {
            self.emptied().push(spare);
        }
        moved
    }

    /// Takes up the emptied files a host before this one left in `staging`
    /// (up to [`EMPTIED_MAX`]; the rest are removed).
    pub(super) fn adopt(&self, staging: &Dir) {
        let Ok(entries) = staging.entries() else {
            return;
        };
        let mut emptied = self.emptied();
        let names = entries
            .flatten()
            .filter_map(|entry| entry.file_name().into_string().ok())
            .filter(|name| is_emptied(name));
        for name in names {
            if emptied.len() < EMPTIED_MAX {
                emptied.push(name);
            } else {
                remove_if_file(staging, &name);
            }
        }
    }
}

/// Whether `name` has the shape of an emptied file's name.
fn is_emptied(name: &str) -> bool {
    name.strip_prefix(EMPTIED).is_some_and(journal::own_id)
}

/// The file `name` of the host folder `dir`, opened to be written again
/// (as the host opens its own files), and what it is.
fn reopened(dir: &Dir, name: &str) -> io::Result<(std::fs::File, Metadata)> {
    let file = dir.open_with(name, opening().write(true))?;
    let meta = file.metadata()?;
    Ok((file.into_std(), meta))
}

/// Whether `meta` is a regular file with one name, owned as a file this
/// process creates would be.
fn ours(meta: &Metadata) -> bool {
    alone(meta, 1)
        && meta.uid() == rustix::process::geteuid().as_raw()
        && meta.gid() == rustix::process::getegid().as_raw()
}

/// Whether the file `fd` carries nothing a new file would not: no extended
/// attribute, and no inode flag (`chattr`) but the one ext4 gives every new
/// file (its extents). Where the filesystem keeps no flags, there are none.
fn plain(fd: impl AsFd) -> bool {
    const EXTENTS: u32 = 0x0008_0000;
    let flags = match rustix::fs::ioctl_getflags(&fd) {
        Ok(flags) => flags.bits(),
        Err(e) if e == rustix::io::Errno::NOTTY || e == rustix::io::Errno::NOTSUP => 0,
        Err(_) => return false,
    };
    flags & !EXTENTS == 0 && rustix::fs::flistxattr_query(&fd).is_ok_and(|len| len == 0)
}

/// Dates the claimed `file` now and gives it the permissions a new file gets.
fn renewed(file: &std::fs::File) -> io::Result<()> {
    let mode = creation_mode().ok_or(io::ErrorKind::Unsupported)?;
    file.set_modified(std::time::SystemTime::now())?;
    rustix::fs::fchmod(file, Mode::from_raw_mode(mode))?;
    Ok(())
}

/// The emptied file `name` of `staging`, opened to be written again (and
/// only looked at: another host may hold it too); an error where it is no
/// longer an empty file of ours.
fn reopen(staging: &Dir, name: &str) -> io::Result<Spare> {
    let (file, meta) = reopened(staging, name)?;
    if !ours(&meta) || meta.len() != 0 {
        return Err(io::ErrorKind::InvalidData.into());
    }
    Ok(Spare::Emptied {
        file,
        name: name.to_string(),
        identity: (meta.dev(), meta.ino()),
    })
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
    /// spare made ahead, named (or claimed) now, where one is left; made now
    /// otherwise. The spares are made again after.
    pub(super) fn staged_file(&self, staging: &Dir) -> io::Result<(String, File)> {
        let taken = loop {
            let Some(spare) = self.spares.made().pop_front() else {
                break None;
            };
            let tmp = staged_name(&MachineEnv.random_id());
            if let Some(file) = spare.take(staging, &tmp) {
                break Some((tmp, File::from_std(file)));
            }
        };
        self.spares.refill(staging);
        if let Some(taken) = taken {
            return Ok(taken);
        }
        let tmp = staged_name(&MachineEnv.random_id());
        let mut options = OpenOptions::new();
        options.write(true).create_new(true);
        Ok((tmp.clone(), staging.open_with(&tmp, &options)?))
    }

    /// Takes up the emptied files a host before this one left.
    pub(super) fn adopt_emptied(&self) {
        if let Ok(Some(staging)) = self.own.folder(TMP_DIR) {
            self.spares.adopt(&staging);
        }
    }
}
