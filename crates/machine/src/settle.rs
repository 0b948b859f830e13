//! Waiting for an act's audit lines after the host is free again.
//!
//! A host that serialises its changing acts behind a lock runs each one in
//! [`settle_after`]: the act's last lines (its outcome, a refusal) are
//! written in their place in the chain while the lock is held, and the
//! caller waits for them to be durable ([`Settle::wait`]) after releasing
//! it, so the next act runs meanwhile and their lines share one sync. The
//! act's file changes are durable before its outcome line is written (the
//! folder storage's barrier), so a durable outcome never names a change a
//! power cut could undo. Outside the scope every append waits as before.

use crate::audit_file::Owed;
use std::cell::RefCell;
use std::io;

thread_local! {
    /// The lines owed by the act running on this thread in a scope.
    static OWED: RefCell<Option<Vec<Owed>>> = const { RefCell::new(None) };
}

/// What an act run in [`settle_after`] still waits for.
#[must_use = "an act is answered only once its lines are durable"]
pub struct Settle(Vec<Owed>);

impl Settle {
    /// Waits until every line the act wrote is durable; an error if a sync
    /// that covered one failed (the act must then not be reported done).
    pub fn wait(self) -> io::Result<()> {
        self.0.iter().try_for_each(Owed::wait)
    }
}

/// Runs `f` (an act on this thread), collecting the audit lines it wrote
/// without waiting for them: the caller waits with [`Settle::wait`].
pub fn settle_after<R>(f: impl FnOnce() -> R) -> (R, Settle) {
    let scope = Scope(OWED.with(|owed| owed.borrow_mut().replace(Vec::new())));
    let result = f();
    (result, Settle(scope.end()))
}

/// An open scope; ended (the outer one back) even when the act panics, so
/// a thread that runs other work next never collects lines nobody waits for.
struct Scope(Option<Vec<Owed>>);

impl Scope {
    /// The lines the act owes; the outer scope is back once `self` drops.
    fn end(self) -> Vec<Owed> {
        let owed = OWED.with(|owed| owed.borrow_mut().take());
        drop(self);
        owed.unwrap_or_default()
    }
}

impl Drop for Scope {
    fn drop(&mut self) {
        let outer = self.0.take();
        OWED.with(|owed| *owed.borrow_mut() = outer);
    }
}

/// Whether this thread runs in a [`settle_after`] scope.
pub(crate) fn deferred() -> bool {
    OWED.with(|owed| owed.borrow().is_some())
}

/// Leaves `owed` for the scope's caller to wait on; outside a scope, waits now.
pub(crate) fn owe(owed: Owed) -> io::Result<()> {
    let unclaimed = OWED.with(|scope| match scope.borrow_mut().as_mut() {
        Some(list) => {
            list.push(owed);
            None
        }
        None => Some(owed),
    });
    unclaimed.map_or(Ok(()), |owed| owed.wait())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panicking_act_leaves_no_scope_behind_on_its_thread() {
        let caught = std::panic::catch_unwind(|| settle_after(|| panic!("the act failed")));
        assert!(caught.is_err());
        assert!(!deferred(), "the scope ended with the act");
        // Control: inside a scope, lines are left to the caller.
        let (inside, settle) = settle_after(deferred);
        assert!(inside);
        settle.wait().unwrap();
        assert!(!deferred());
    }
}
