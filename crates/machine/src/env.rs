//! The machine's clock and ids.

use std::time::{SystemTime, UNIX_EPOCH};
use voicebox_core::platform::Env;

/// The system clock and OS randomness.
#[derive(Clone, Copy, Debug, Default)]
pub struct MachineEnv;

impl Env for MachineEnv {
    fn now_ms(&self) -> u64 {
        now_ms()
    }

    fn random_id(&self) -> String {
        let mut bytes = [0u8; 16];
        getrandom::fill(&mut bytes).expect("the OS has randomness");
        voicebox_core::hex(&bytes)
    }

    /// This computer's own offset from UTC, as today's note takes it.
    fn offset_secs(&self) -> i32 {
        chrono::Local::now().offset().local_minus_utc()
    }
}

/// Milliseconds since the Unix epoch.
pub fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0)
}
