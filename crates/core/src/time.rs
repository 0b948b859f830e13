//! Wall-clock formatting. The clock itself is injected ([`crate::platform::Env`]).

use alloc::format;
use alloc::string::String;

/// Formats milliseconds since the Unix epoch as an ISO 8601 UTC timestamp,
/// e.g. `2026-09-19T15:00:00.000Z`.
pub fn iso8601(ms: u64) -> String {
    let secs = ms / 1000;
    let (days, rem) = (secs / 86_400, secs % 86_400);
    let (year, month, day) = civil_from_days(days as i64);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:03}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60,
        ms % 1000
    )
}

/// The calendar day (`YYYY-MM-DD`) at `ms` since the Unix epoch, where the
/// person's clock stands `offset_secs` east of UTC: the "today" of their
/// daily note, which is not UTC's after dark in the Americas.
pub fn day(ms: u64, offset_secs: i32) -> String {
    let local = (ms / 1000) as i64 + i64::from(offset_secs);
    let (year, month, day) = civil_from_days(local.div_euclid(86_400));
    format!("{year:04}-{month:02}-{day:02}")
}

/// A (year, month, day) to days since 1970-01-01, after Howard Hinnant's
/// `days_from_civil`: [`civil_from_days`] backwards.
pub fn days_from_civil(year: i64, month: u32, day: u32) -> i64 {
    let year = year - i64::from(month <= 2);
    let era = year.div_euclid(400);
    let yoe = year.rem_euclid(400);
    let mp = i64::from((month + 9) % 12);
    let doy = (153 * mp + 2) / 5 + i64::from(day) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// Days since 1970-01-01 to a (year, month, day), after Howard Hinnant's
/// `civil_from_days`.
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::{day, iso8601};

    #[test]
    fn the_day_is_the_persons_own() {
        // 2026-12-02T03:00Z: still the 1st in New York, the 2nd in Tokyo.
        let ms = 1_764_644_400_000;
        assert_eq!(iso8601(ms), "2025-12-02T03:00:00.000Z");
        assert_eq!(day(ms, 0), "2025-12-02");
        assert_eq!(day(ms, -5 * 3600), "2025-12-01");
        assert_eq!(day(ms, 9 * 3600), "2025-12-02");
        assert_eq!(day(0, -3600), "1969-12-31");
    }

    #[test]
    fn formats_known_instants() {
        assert_eq!(iso8601(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(iso8601(951_782_400_000), "2000-02-29T00:00:00.000Z");
        assert_eq!(iso8601(1_789_830_000_123), "2026-09-19T15:00:00.123Z");
        for days in [-1, 0, 11_016, 20_789, 60_000] {
            let (y, m, d) = super::civil_from_days(days);
            assert_eq!(super::days_from_civil(y, m, d), days);
        }
    }
}
