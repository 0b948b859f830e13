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

/// What a name that leads nowhere (yet) answers.
#[derive(Clone, Copy, PartialEq)]
enum Missing {
    /// An error: containment refuses what it cannot see.
    Refused,
    /// The real path it would be made at.
    Named,
}

/// `path`'s real path relative to `dir` ("" for the root): an error where a
/// link leaves it, loops, or leads nowhere.
pub(super) fn real(dir: &Dir, path: &Path) -> io::Result<PathBuf> {
    real_within(dir, path.to_path_buf(), &mut 0, Missing::Refused)
}

/// Where `path` leads, whether or not it is there yet: [`real`]'s answer,
/// or for a name missing on the way (itself, a folder above it, or the
/// target of a link) the real path it would be made at — nothing is
/// beneath a missing name, so the rest is spelled as it is. Two names of
/// one file, present or to come, answer alike.
pub(super) fn destination(dir: &Dir, path: &Path) -> io::Result<PathBuf> {
    real_within(dir, path.to_path_buf(), &mut 0, Missing::Named)
}

fn real_within(
    dir: &Dir,
    path: PathBuf,
    links: &mut usize,
    missing: Missing,
) -> io::Result<PathBuf> {
    let Some(name) = path.file_name().map(ToOwned::to_owned) else {
        return folder(dir, &path);
    };
    let parent = path.parent().unwrap_or(Path::new(""));
    let mut real = match folder(dir, parent) {
        Err(e) if e.kind() == io::ErrorKind::NotFound && missing == Missing::Named => {
            real_within(dir, parent.to_path_buf(), links, missing)?
        }
        found => found?,
    };
    real.push(name);
    match dir.symlink_metadata(&real) {
        Ok(meta) if meta.is_symlink() => {}
        Ok(_) => return Ok(real),
        Err(e) if e.kind() == io::ErrorKind::NotFound && missing == Missing::Named => {
            return Ok(real);
        }
        Err(e) => return Err(e),
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
    real_within(dir, next, links, missing)
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

    /// A root with links of every kind in it, and a secret beside it.
    fn linked_root() -> (tempfile::TempDir, Dir) {
        let tmp = tempfile::TempDir::new().unwrap();
        let at = |name: &str| tmp.path().join("root").join(name);
        std::fs::create_dir_all(at("notes/old")).unwrap();
        std::fs::write(at("notes/old/a.md"), "").unwrap();
        std::fs::write(at("notes/file.md"), "").unwrap();
        std::fs::write(tmp.path().join("secret"), "").unwrap();
        symlink("notes/old", at("here")).unwrap();
        symlink("../here/a.md", at("notes/b.md")).unwrap();
        symlink("here/../old", at("up")).unwrap();
        symlink("../secret", at("out")).unwrap();
        symlink(tmp.path().join("secret"), at("absolute")).unwrap();
        symlink("loop", at("loop")).unwrap();
        symlink("gone.md", at("dangling")).unwrap();
        symlink("journal/d.md", at("today.md")).unwrap();
        symlink("later", at("soon")).unwrap();
        let dir =
            Dir::open_ambient_dir(tmp.path().join("root"), cap_std::ambient_authority()).unwrap();
        (tmp, dir)
    }

    #[test]
    fn links_are_followed_to_the_file_they_name_and_out_of_the_root_is_an_error() {
        let (_tmp, dir) = linked_root();
        let real = |name: &str| real(&dir, Path::new(name)).ok();
        assert_eq!(real("here/a.md"), Some("notes/old/a.md".into()));
        assert_eq!(real("notes/b.md"), Some("notes/old/a.md".into()));
        // `..` after a linked folder is the parent of where it leads.
        assert_eq!(real("up"), Some("notes/old".into()));
        assert_eq!(real("notes/old/a.md"), Some("notes/old/a.md".into()));
        assert_eq!(real(""), Some("".into()));
        for escape in ["out", "absolute", "loop", "dangling", "today.md"] {
            assert_eq!(real(escape), None, "{escape}");
        }
    }

    #[test]
    fn a_destination_is_where_a_name_leads_whether_or_not_it_is_there_yet() {
        let (_tmp, dir) = linked_root();
        let to = |name: &str| destination(&dir, Path::new(name)).ok();
        assert_eq!(to("today.md"), Some("journal/d.md".into()));
        assert_eq!(to("dangling"), Some("gone.md".into()));
        assert_eq!(to("soon/x.md"), Some("later/x.md".into()));
        assert_eq!(to("soon/a/b.md"), Some("later/a/b.md".into()));
        assert_eq!(to("here/new.md"), Some("notes/old/new.md".into()));
        assert_eq!(to("a/b/c.md"), Some("a/b/c.md".into()));
        // Control: what is there answers as `real` does.
        assert_eq!(to("notes/b.md"), Some("notes/old/a.md".into()));
        assert_eq!(to(""), Some("".into()));
        // Out of the root, a loop, a file used as a folder: no destination.
        for escape in ["out", "absolute", "loop", "out/x.md", "notes/file.md/x.md"] {
            assert_eq!(to(escape), None, "{escape}");
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
