//! A name's real path inside the root, links followed, without asking the
//! kernel for the path of an open file.
//!
//! cap-std's `canonicalize` opens the name and reads `/proc/self/fd`: for a
//! file, that is whichever name the file has at that moment — and while a
//! change renames a new file over it, the replaced file's only name may be
//! the second one the undo journal keeps, inside `.voicebox/`. A folder has
//! one name, so folders are still canonicalised; a file's own link is read.

use cap_std::fs::Dir;
use std::io;
use std::path::{Component, Path, PathBuf};

/// The most links followed for one name, as the kernel's own limit.
const MAX_LINKS: usize = 40;

/// `path`'s real path relative to `dir` ("" for the root): an error where a
/// link leaves it, loops, or leads nowhere.
pub(super) fn real(dir: &Dir, path: &Path) -> io::Result<PathBuf> {
    real_within(dir, path.to_path_buf(), &mut 0)
}

fn real_within(dir: &Dir, path: PathBuf, links: &mut usize) -> io::Result<PathBuf> {
    let Some(name) = path.file_name().map(ToOwned::to_owned) else {
        return folder(dir, &path);
    };
    let mut real = folder(dir, path.parent().unwrap_or(Path::new("")))?;
    real.push(name);
    if !dir.symlink_metadata(&real)?.is_symlink() {
        return Ok(real);
    }
    *links += 1;
    if *links > MAX_LINKS {
        return Err(io::Error::from_raw_os_error(libc::ELOOP));
    }
    let target = dir.read_link(&real)?;
    let mut next = real;
    next.pop();
    for part in target.components() {
        match part {
            Component::Normal(part) => next.push(part),
            Component::CurDir => {}
            // `..` leaves the folder it follows as the kernel finds it.
            Component::ParentDir => {
                next = folder(dir, &next)?;
                if !next.pop() {
                    return Err(outside());
                }
            }
            Component::RootDir | Component::Prefix(_) => return Err(outside()),
        }
    }
    real_within(dir, next, links)
}

/// A folder's real path ("" for the root): the kernel's, a folder having
/// one name.
fn folder(dir: &Dir, path: &Path) -> io::Result<PathBuf> {
    if path.as_os_str().is_empty() {
        return Ok(PathBuf::new());
    }
    let real = dir.canonicalize(path)?;
    Ok(match real == Path::new(".") {
        true => PathBuf::new(),
        false => real,
    })
}

fn outside() -> io::Error {
    io::Error::new(
        io::ErrorKind::PermissionDenied,
        "a link leads out of the root",
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;
    use std::sync::atomic::{AtomicBool, Ordering};

    #[test]
    fn links_are_followed_to_the_file_they_name_and_out_of_the_root_is_an_error() {
        let tmp = tempfile::TempDir::new().unwrap();
        let at = |name: &str| tmp.path().join("root").join(name);
        std::fs::create_dir_all(at("notes/old")).unwrap();
        std::fs::write(at("notes/old/a.md"), "").unwrap();
        std::fs::write(tmp.path().join("secret"), "").unwrap();
        symlink("notes/old", at("here")).unwrap();
        symlink("../here/a.md", at("notes/b.md")).unwrap();
        symlink("here/../old", at("up")).unwrap();
        symlink("../secret", at("out")).unwrap();
        symlink(tmp.path().join("secret"), at("absolute")).unwrap();
        symlink("loop", at("loop")).unwrap();
        symlink("gone.md", at("dangling")).unwrap();
        let dir =
            Dir::open_ambient_dir(tmp.path().join("root"), cap_std::ambient_authority()).unwrap();
        let real = |name: &str| real(&dir, Path::new(name)).ok();
        assert_eq!(real("here/a.md"), Some("notes/old/a.md".into()));
        assert_eq!(real("notes/b.md"), Some("notes/old/a.md".into()));
        // `..` after a linked folder is the parent of where it leads.
        assert_eq!(real("up"), Some("notes/old".into()));
        assert_eq!(real("notes/old/a.md"), Some("notes/old/a.md".into()));
        assert_eq!(real(""), Some("".into()));
        for escape in ["out", "absolute", "loop", "dangling"] {
            assert_eq!(real(escape), None, "{escape}");
        }
    }

    #[test]
    fn a_file_renamed_over_never_reads_as_its_second_name() {
        let tmp = tempfile::TempDir::new().unwrap();
        let root = tmp.path();
        std::fs::create_dir_all(root.join("kept")).unwrap();
        std::fs::write(root.join("notes.md"), "0").unwrap();
        let dir = Dir::open_ambient_dir(root, cap_std::ambient_authority()).unwrap();
        let stop = AtomicBool::new(false);
        std::thread::scope(|scope| {
            // As a change does: the file kept by a second name, a new one
            // renamed over its first.
            scope.spawn(|| {
                for k in 0..3000 {
                    let kept = root.join(format!("kept/{k}.bin"));
                    std::fs::hard_link(root.join("notes.md"), &kept).unwrap();
                    std::fs::write(root.join("staged"), k.to_string()).unwrap();
                    std::fs::rename(root.join("staged"), root.join("notes.md")).unwrap();
                    std::fs::remove_file(kept).unwrap();
                }
                stop.store(true, Ordering::SeqCst);
            });
            while !stop.load(Ordering::SeqCst) {
                let found = real(&dir, Path::new("notes.md")).unwrap();
                assert_eq!(found, Path::new("notes.md"));
            }
        });
    }
}
