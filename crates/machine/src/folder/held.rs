//! Files held by changes that run beside one another: a change of a file
//! another holds waits until that one lets go, so no change is made on a
//! copy another is replacing.

use std::collections::HashSet;
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::time::Duration;

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
