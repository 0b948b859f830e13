//! The worker's clock and ids: the worker passes `Date.now()` and fresh
//! `crypto.getRandomValues` bytes with every request; ids are SHA-256 of that
//! seed and a counter, so they stay unguessable without any import.

use sha2::{Digest, Sha256};
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use voicebox_core::platform::Env;
use voicebox_core::resolver::daily::{DEFAULT_DAILY_NOTE, daily_path};

/// The env shared by the executor and the driver (which updates it per request).
#[derive(Clone, Default)]
pub struct SharedEnv(pub Rc<WebEnv>);

impl Env for SharedEnv {
    fn now_ms(&self) -> u64 {
        self.0.now_ms()
    }

    fn random_id(&self) -> String {
        self.0.random_id()
    }
}

#[derive(Default)]
pub struct WebEnv {
    now_ms: Cell<u64>,
    /// How far the person's clock stands east of UTC, in seconds.
    offset_secs: Cell<i32>,
    seed: RefCell<Vec<u8>>,
    counter: Cell<u64>,
}

impl WebEnv {
    /// What the worker said about the world with this request.
    pub fn update(&self, now_ms: Option<u64>, offset_secs: Option<i32>, seed: Option<&str>) {
        if let Some(now) = now_ms {
            self.now_ms.set(now);
        }
        if let Some(offset) = offset_secs {
            self.offset_secs.set(offset);
        }
        if let Some(seed) = seed {
            // Fold the new randomness into the old, so the seed stays small.
            let mut hasher = Sha256::new();
            hasher.update(self.seed.borrow().as_slice());
            hasher.update(seed.as_bytes());
            *self.seed.borrow_mut() = hasher.finalize().to_vec();
        }
    }
}

impl WebEnv {
    /// Today's note in the person's own day, by the default setting.
    pub fn daily_note(&self) -> String {
        let today = voicebox_core::time::day(self.now_ms.get(), self.offset_secs.get());
        daily_path(DEFAULT_DAILY_NOTE, &today)
    }
}

impl Env for WebEnv {
    fn now_ms(&self) -> u64 {
        self.now_ms.get()
    }

    fn random_id(&self) -> String {
        let n = self.counter.get() + 1;
        self.counter.set(n);
        let mut hasher = Sha256::new();
        hasher.update(self.seed.borrow().as_slice());
        hasher.update(n.to_le_bytes());
        voicebox_core::hex(&hasher.finalize()[..16])
    }
}
