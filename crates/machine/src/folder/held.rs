//! Files held by changes that run beside one another: a change of a file
//! another holds waits until that one lets go, so no change is made on a
//! copy another is replacing.

use cap_std::fs::Dir;
use std::collections::HashSet;
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use voicebox_core::platform::Held;

/// The real paths (inside the root) held now.
#[derive(Default)]
pub(super) struct Holds {
    held: Mutex<HashSet<String>>,
    let_go: Condvar,
}

impl Holds {
    fn held(&self) -> MutexGuard<'_, HashSet<String>> {
        self.held.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Holds `path`, once no other change does: waits on this thread.
    pub(super) fn hold(self: &Arc<Self>, path: String) -> Held {
        let mut held = self.held();
        while held.contains(&path) {
            held = self.let_go.wait(held).unwrap_or_else(|p| p.into_inner());
        }
        held.insert(path.clone());
        drop(held);
        let holds = self.clone();
        Held::new(move || {
            holds.held().remove(&path);
            holds.let_go.notify_all();
        })
    }
}

/// The most links followed in one path, as the kernel's own limit.
const MAX_LINKS: usize = 40;

/// `path` (inside `root`) with every link along it replaced by what it
/// reads: the file a change of `path` changes, found by reading links, never
/// by asking the kernel for an open file's path (which a second name of the
/// file, such as the undo journal keeps, may answer while another change
/// renames over it). A link out of the root (which cap-std does not read)
/// stands for itself, and a loop is `None`: containment refuses either act.
pub(super) fn links_read(root: &Dir, path: &Path) -> Option<PathBuf> {
    let mut done = PathBuf::new();
    let mut todo: Vec<PathBuf> = parts(path);
    let mut links = 0;
    while let Some(part) = todo.pop() {
        if part == Path::new("..") {
            done.pop().then_some(())?;
            continue;
        }
        let next = done.join(&part);
        match root.read_link(&next) {
            Ok(target) => {
                links += 1;
                if links > MAX_LINKS {
                    return None;
                }
                todo.extend(parts(&target));
            }
            // Not a link, or not there yet.
            Err(_) => done = next,
        }
    }
    Some(done)
}

/// `path`'s named parts, last first (to be popped in order).
fn parts(path: &Path) -> Vec<PathBuf> {
    path.components()
        .rev()
        .filter_map(|part| match part {
            Component::Normal(name) => Some(PathBuf::from(name)),
            Component::ParentDir => Some(PathBuf::from("..")),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::time::Duration;

    #[test]
    fn links_along_a_path_are_read_and_a_second_name_is_not_the_path() {
        let dir = tempfile::TempDir::new().unwrap();
        let root = Dir::open_ambient_dir(dir.path(), cap_std::ambient_authority()).unwrap();
        std::fs::create_dir_all(dir.path().join("notes/old")).unwrap();
        std::fs::write(dir.path().join("notes/old/a.md"), "").unwrap();
        std::os::unix::fs::symlink("notes/old", dir.path().join("here")).unwrap();
        std::os::unix::fs::symlink("../notes/old/a.md", dir.path().join("notes/b.md")).unwrap();
        std::os::unix::fs::symlink("/etc/passwd", dir.path().join("out")).unwrap();
        std::os::unix::fs::symlink("loop", dir.path().join("loop")).unwrap();
        // A second name of the file, made as the journal makes one.
        std::fs::hard_link(
            dir.path().join("notes/old/a.md"),
            dir.path().join("kept.bin"),
        )
        .unwrap();
        let read = |path: &str| links_read(&root, Path::new(path));
        assert_eq!(read("here/a.md"), Some("notes/old/a.md".into()));
        assert_eq!(read("notes/b.md"), Some("notes/old/a.md".into()));
        assert_eq!(read("notes/old/a.md"), Some("notes/old/a.md".into()));
        assert_eq!(read("here/new.md"), Some("notes/old/new.md".into()));
        assert_eq!(read("out"), Some("out".into()));
        assert_eq!(read("loop"), None);
    }

    #[test]
    fn a_held_path_waits_for_its_holder_and_another_path_does_not() {
        let holds = Arc::new(Holds::default());
        let first = holds.hold("notes.md".into());
        // Control: another path is held at once, beside the first.
        drop(holds.hold("todo.md".into()));
        let released = Arc::new(AtomicBool::new(false));
        let waiter = {
            let (holds, released) = (holds.clone(), released.clone());
            std::thread::spawn(move || {
                let _second = holds.hold("notes.md".into());
                released.load(Ordering::SeqCst)
            })
        };
        std::thread::sleep(Duration::from_millis(50));
        released.store(true, Ordering::SeqCst);
        drop(first);
        assert!(
            waiter.join().unwrap(),
            "the second hold began only after the first let go"
        );
    }
}
