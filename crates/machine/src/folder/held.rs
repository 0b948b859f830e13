//! Files held by changes that run beside one another: a change of a file
//! another holds waits until that one lets go, so no change is made on a
//! copy another is replacing, and no look reads a file while a change has
//! it half replaced (its old copy under a second name in the journal).

use std::collections::HashMap;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::{self, ThreadId};
use voicebox_core::platform::Held;

/// The real paths (inside the root) held now, each by the thread running
/// its change: an act runs on one thread from start to end.
#[derive(Default)]
pub(super) struct Holds {
    held: Mutex<HashMap<String, ThreadId>>,
    let_go: Condvar,
}

impl Holds {
    fn held(&self) -> MutexGuard<'_, HashMap<String, ThreadId>> {
        self.held.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Holds `path`, once no other thread does: waits on this thread. A
    /// thread that holds a file already (a change reading the file it
    /// holds) goes on at once, holding nothing more, so no two threads ever
    /// wait for each other — even where a link changed under a change, and
    /// the file it reads is not the one it held.
    pub(super) fn hold(self: &Arc<Self>, path: String) -> Held {
        let me = thread::current().id();
        let mut held = self.held();
        if held.values().any(|holder| *holder == me) {
            return Held::default();
        }
        while held.contains_key(&path) {
            held = self.let_go.wait(held).unwrap_or_else(|p| p.into_inner());
        }
        held.insert(path.clone(), me);
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

    #[test]
    fn the_holder_holds_again_at_once_and_its_first_hold_is_what_lets_go() {
        let holds = Arc::new(Holds::default());
        let first = holds.hold("notes.md".into());
        drop(holds.hold("notes.md".into()));
        let other = |holds: &Arc<Holds>| {
            let holds = holds.clone();
            std::thread::spawn(move || drop(holds.hold("notes.md".into())))
        };
        let waiter = other(&holds);
        std::thread::sleep(Duration::from_millis(50));
        assert!(
            !waiter.is_finished(),
            "the second hold of the holder's own thread did not let go"
        );
        drop(first);
        waiter.join().unwrap();
        // Control: once let go, another thread holds it at once.
        other(&holds).join().unwrap();
    }

    #[test]
    fn a_thread_holding_a_file_waits_for_no_other() {
        let holds = Arc::new(Holds::default());
        let todo = holds.hold("todo.md".into());
        let (done, finished) = std::sync::mpsc::channel();
        let holder = {
            let holds = holds.clone();
            std::thread::spawn(move || {
                let _notes = holds.hold("notes.md".into());
                drop(holds.hold("todo.md".into()));
                done.send(()).unwrap();
            })
        };
        let went_on = finished.recv_timeout(Duration::from_secs(5)).is_ok();
        drop(todo);
        holder.join().unwrap();
        assert!(went_on, "a thread holding notes.md waited for todo.md");
    }
}
