//! Today's note: the file "today's note" and "my daily note" name, from the
//! setting `VOICEBOX_DAILY_NOTE` (a path from the root in which `{date}` is
//! the day as YYYY-MM-DD; by default `daily/{date}.md`) and this computer's
//! own calendar day, not UTC's.

use voicebox_core::resolver::daily::{DEFAULT_DAILY_NOTE, daily_path};
use voicebox_core::time::day;

/// The setting's name in the environment.
pub(crate) const DAILY_NOTE_ENV: &str = "VOICEBOX_DAILY_NOTE";

/// Today's note, as a path from the root. The executor contains it like
/// any name, so a setting that leaves the root is refused when used.
pub fn today() -> String {
    let pattern = std::env::var(DAILY_NOTE_ENV)
        .ok()
        .filter(|pattern| !pattern.trim().is_empty())
        .unwrap_or_else(|| DEFAULT_DAILY_NOTE.into());
    let now = chrono::Local::now();
    let ms = u64::try_from(now.timestamp_millis()).unwrap_or(0);
    daily_path(&pattern, &day(ms, now.offset().local_minus_utc()))
}
