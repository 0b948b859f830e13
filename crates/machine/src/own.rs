//! The host's own folders inside a root: `.audit`, `.voicebox` and the
//! folders under them, opened one name at a time, each relative to the one
//! before and never through a link (`O_NOFOLLOW | O_DIRECTORY`). A link, pipe
//! or file planted at one of those names — a cloned repository or an
//! unpacked archive can carry one — is refused by its name: the host neither
//! writes through it nor "repairs" it. What `.audit` and `.voicebox` are, by
//! (device, inode), is kept as they are opened, so an act that reaches one of
//! them under another name is refused as an act on it.

use crate::durable::Syncer;
use cap_std::fs::{Dir, OpenOptionsExt};
use rustix::fs::{self, AtFlags, FileType, Mode, OFlags};
use std::fs::File;
use std::io;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::sync::Mutex;
use voicebox_core::contain::{AUDIT_DIR, HOST_DIR};
use voicebox_core::journal::UNDO_DIR;

/// Where writes stage their bytes (see `folder::write`).
pub(crate) const TMP_DIR: &str = ".voicebox/tmp";
/// Where writers hold their liveness locks (see `audit_file`).
pub(crate) const WRITERS_DIR: &str = ".voicebox/writers";

/// How the host appends to a file of its own: never through a link, and
/// never blocking on a pipe planted at its name.
pub(crate) fn appending() -> cap_std::fs::OpenOptions {
    let mut options = cap_std::fs::OpenOptions::new();
    options
        .append(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK);
    options
}

/// How the host opens a file of its own to read or write it: never through
/// a link, never blocking on a pipe planted at its name, never taking a
/// terminal as its own.
pub(crate) fn opening() -> cap_std::fs::OpenOptions {
    let mut options = cap_std::fs::OpenOptions::new();
    options.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_NOCTTY);
    options
}

/// Every folder the host keeps in a root, checked when the root is opened.
const OWN_FOLDERS: [&str; 5] = [AUDIT_DIR, HOST_DIR, TMP_DIR, UNDO_DIR, WRITERS_DIR];

/// How many top folders (by identity) one root remembers as the host's.
const MAX_SEEN: usize = 64;

/// A host folder that is not a real folder.
#[derive(Debug)]
pub(crate) enum OwnError {
    /// `path` (inside the root) is `found` ("a link", "a pipe", ...) instead.
    NotAFolder { path: String, found: &'static str },
    /// `path` could not be opened or made.
    Io(String, io::Error),
}

impl std::fmt::Display for OwnError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OwnError::NotAFolder { path, found } => {
                write!(f, "`{path}` is {found}, not a folder of the host's own")
            }
            OwnError::Io(path, e) => write!(f, "`{path}` cannot be opened ({e})"),
        }
    }
}

impl std::error::Error for OwnError {}

/// The host folders of one root.
pub(crate) struct OwnFolders {
    root: Dir,
    sync: Syncer,
    /// The top folders as opened: name and (device, inode), oldest first.
    seen: Mutex<Vec<(&'static str, (u64, u64))>>,
}

impl OwnFolders {
    pub fn new(root: Dir, sync: Syncer) -> OwnFolders {
        OwnFolders {
            root,
            sync,
            seen: Mutex::default(),
        }
    }

    /// Checks every host folder that exists is a real folder (and learns
    /// what the top ones are); makes nothing.
    pub fn check(&self) -> Result<(), OwnError> {
        for path in OWN_FOLDERS {
            self.folder(path)?;
        }
        Ok(())
    }

    /// The host folder `path` (`.audit`, `.voicebox/undo`, ...), or `None`
    /// where a folder on the way does not exist.
    pub fn folder(&self, path: &str) -> Result<Option<Dir>, OwnError> {
        self.walk(path, false)
    }

    /// The host folder `path`, made (each new folder's parent synced) where
    /// it does not exist.
    pub fn made(&self, path: &str) -> Result<Dir, OwnError> {
        self.walk(path, true)?
            .ok_or_else(|| OwnError::Io(path.into(), io::ErrorKind::NotFound.into()))
    }

    /// The top host folder whose (device, inode) is `id`, if any.
    pub fn named(&self, id: (u64, u64)) -> Option<&'static str> {
        let seen = self.seen.lock().unwrap_or_else(|p| p.into_inner());
        seen.iter()
            .find(|(_, held)| *held == id)
            .map(|(name, _)| *name)
    }

    fn walk(&self, path: &str, make: bool) -> Result<Option<Dir>, OwnError> {
        let mut held: Option<OwnedFd> = None;
        let ends = path
            .match_indices('/')
            .map(|(at, _)| at)
            .chain([path.len()]);
        let mut start = 0;
        for end in ends {
            let (walked, name) = (&path[..end], &path[start..end]);
            start = end + 1;
            let parent = held.as_ref().map_or(self.root.as_fd(), AsFd::as_fd);
            let opened = match open_folder(parent, name) {
                Err(e) if e.raw_os_error() == Some(libc::ENOENT) && make => {
                    make_folder(parent, name)
                        .and_then(|()| self.sync_folder(held.as_ref()))
                        .and_then(|()| open_folder(parent, name))
                }
                other => other,
            };
            let fd = match opened {
                Ok(fd) => fd,
                Err(e) if e.raw_os_error() == Some(libc::ENOENT) => return Ok(None),
                Err(e) if matches!(e.raw_os_error(), Some(libc::ENOTDIR | libc::ELOOP)) => {
                    return Err(OwnError::NotAFolder {
                        path: walked.into(),
                        found: what_is(parent, name),
                    });
                }
                Err(e) => return Err(OwnError::Io(walked.into(), e)),
            };
            if let Some(top) = [AUDIT_DIR, HOST_DIR].into_iter().find(|top| *top == walked) {
                let stat = fs::fstat(&fd).map_err(|e| OwnError::Io(walked.into(), e.into()))?;
                self.saw(top, (stat.st_dev, stat.st_ino));
            }
            held = Some(fd);
        }
        Ok(held.map(|fd| Dir::from_std_file(File::from(fd))))
    }

    /// Keeps what a top folder is. A folder the host held stays the host's
    /// after it is moved and another made in its place (the log and journal
    /// it holds are still the host's), so earlier ones are kept too, up to
    /// [`MAX_SEEN`].
    fn saw(&self, name: &'static str, id: (u64, u64)) {
        let mut seen = self.seen.lock().unwrap_or_else(|p| p.into_inner());
        if !seen.contains(&(name, id)) {
            if seen.len() == MAX_SEEN {
                seen.remove(0);
            }
            seen.push((name, id));
        }
    }

    /// Syncs the folder a new folder was made in (`None`: the root).
    fn sync_folder(&self, folder: Option<&OwnedFd>) -> io::Result<()> {
        match folder {
            None => self.sync.folder_at(&self.root, "".as_ref()),
            Some(fd) => self.sync.folder(&File::from(fd.try_clone()?)),
        }
    }
}

/// Opens the folder `name` of `parent`, never through a link and never
/// blocking on a pipe.
fn open_folder(parent: BorrowedFd<'_>, name: &str) -> io::Result<OwnedFd> {
    let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    Ok(fs::openat(
        parent,
        name,
        flags | OFlags::NONBLOCK,
        Mode::empty(),
    )?)
}

/// Makes the folder `name` of `parent` (one that appeared meanwhile will do:
/// it is opened, and judged, next).
fn make_folder(parent: BorrowedFd<'_>, name: &str) -> io::Result<()> {
    match fs::mkdirat(parent, name, Mode::from_raw_mode(0o777)) {
        Err(rustix::io::Errno::EXIST) => Ok(()),
        made => Ok(made?),
    }
}

/// What stands at `name` of `parent` instead of a folder, in words.
fn what_is(parent: BorrowedFd<'_>, name: &str) -> &'static str {
    match fs::statat(parent, name, AtFlags::SYMLINK_NOFOLLOW)
        .map(|stat| FileType::from_raw_mode(stat.st_mode))
    {
        Ok(FileType::Symlink) => "a link",
        Ok(FileType::Fifo) => "a pipe",
        Ok(FileType::RegularFile) => "a file",
        Ok(FileType::Socket) => "a socket",
        Ok(FileType::CharacterDevice | FileType::BlockDevice) => "a device",
        _ => "not a folder",
    }
}
