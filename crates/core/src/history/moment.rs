//! A moment in the folder's history, from the words a person or a model
//! gives: "today", "since yesterday", "this week", "3 days ago", a date, a
//! commit's id, or the last commit. Days are the person's own (their clock's
//! offset from UTC), as for today's note.

use crate::rule::{Refusal, Rule};
use crate::time::days_from_civil;
use alloc::string::String;

/// A point to compare against or read at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Moment {
    /// The commit checked out.
    Head,
    /// The commit whose id starts with these hex digits.
    Commit(String),
    /// The newest commit made at or before this instant (ms since the epoch).
    Time(u64),
}

/// Which end of a day a day names: `since yesterday` starts at its start,
/// `as it was yesterday` is the day's end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Edge {
    Start,
    End,
}

const DAY_SECS: i64 = 86_400;

/// What the words may be, for the refusal of ones that are none of it.
const UNDERSTOOD: &str = "say `today`, `yesterday`, `this week`, `last week`, `3 days ago`, a date like 2026-05-01, `last commit`, or a commit's id";

impl Moment {
    /// Reads `words` at `now_ms`, for a person `offset_secs` east of UTC.
    pub fn parse(
        words: &str,
        now_ms: u64,
        offset_secs: i32,
        edge: Edge,
    ) -> Result<Moment, Refusal> {
        let lowered = words.trim().to_lowercase();
        let mut said = lowered.as_str();
        for lead in ["since ", "as of ", "as at ", "at ", "on ", "the "] {
            said = said.strip_prefix(lead).unwrap_or(said).trim_start();
        }
        let today = (now_ms / 1000) as i64 + i64::from(offset_secs);
        let today = today.div_euclid(DAY_SECS);
        // Monday is the first day of a week; 1970-01-01 was a Thursday.
        let monday = today - (today + 3).rem_euclid(7);
        let day_span = |first: i64, days: i64| {
            let day = match edge {
                Edge::Start => first,
                Edge::End => first + days,
            };
            let secs = day * DAY_SECS - i64::from(offset_secs);
            Moment::Time(u64::try_from(secs).unwrap_or(0) * 1000)
        };
        let moment = match said {
            "" | "last commit" | "latest commit" | "last save" | "head" | "commit" => Moment::Head,
            "today" => day_span(today, 1),
            "yesterday" => day_span(today - 1, 1),
            "this week" => day_span(monday, 7),
            "last week" => day_span(monday - 7, 7),
            _ => match days_ago(said).or_else(|| date(said)) {
                Some(Days::Ago(n)) => day_span(today - n, 1),
                Some(Days::On(day)) => day_span(day, 1),
                None if is_commit_id(said) => Moment::Commit(said.into()),
                None => {
                    return Err(Refusal::new(
                        Rule::MalformedField,
                        alloc::format!("`{}` is no moment I can find; {UNDERSTOOD}", words.trim()),
                    ));
                }
            },
        };
        Ok(moment)
    }
}

enum Days {
    Ago(i64),
    On(i64),
}

/// "3 days ago", "a day ago", "a week ago", "2 weeks ago".
fn days_ago(said: &str) -> Option<Days> {
    let rest = said.strip_suffix(" ago")?;
    let (count, unit) = rest.split_once(' ')?;
    let count: i64 = match count {
        "a" | "an" | "one" => 1,
        digits => digits.parse().ok().filter(|n| (0..=36_500).contains(n))?,
    };
    let per = match unit {
        "day" | "days" => 1,
        "week" | "weeks" => 7,
        _ => return None,
    };
    Some(Days::Ago(count * per))
}

/// A date as YYYY-MM-DD.
fn date(said: &str) -> Option<Days> {
    let mut parts = said.splitn(3, '-');
    let (y, m, d) = (parts.next()?, parts.next()?, parts.next()?);
    if y.len() != 4 || m.len() != 2 || d.len() != 2 {
        return None;
    }
    let (y, m, d): (i64, u32, u32) = (y.parse().ok()?, m.parse().ok()?, d.parse().ok()?);
    ((1..=12).contains(&m) && (1..=31).contains(&d)).then(|| Days::On(days_from_civil(y, m, d)))
}

/// Four to forty hex digits: the start of a commit's id.
fn is_commit_id(said: &str) -> bool {
    (4..=40).contains(&said.len()) && said.bytes().all(|b| b.is_ascii_hexdigit())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 2026-12-02 (a Wednesday) at 15:00 UTC.
    const NOW: u64 = 1_796_223_600_000;
    const HOUR: u64 = 3_600_000;

    fn at(words: &str, edge: Edge) -> Moment {
        Moment::parse(words, NOW, 0, edge).unwrap()
    }

    #[test]
    fn days_start_or_end_in_the_persons_own_day() {
        let midnight = NOW - 15 * HOUR;
        assert_eq!(at("today", Edge::Start), Moment::Time(midnight));
        assert_eq!(
            at("since yesterday", Edge::Start),
            Moment::Time(midnight - 24 * HOUR)
        );
        assert_eq!(at("yesterday", Edge::End), Moment::Time(midnight));
        assert_eq!(
            at("this week", Edge::Start),
            Moment::Time(midnight - 2 * 24 * HOUR)
        );
        assert_eq!(
            at("2 days ago", Edge::Start),
            Moment::Time(midnight - 48 * HOUR)
        );
        assert_eq!(at("2026-12-01", Edge::End), Moment::Time(midnight));
        // Five hours west, it is still 10:00 on the 2nd, and the day starts later.
        assert_eq!(
            Moment::parse("today", NOW, -5 * 3600, Edge::Start).unwrap(),
            Moment::Time(midnight + 5 * HOUR)
        );
    }

    #[test]
    fn a_commit_is_its_id_or_the_last_one_and_other_words_are_refused() {
        assert_eq!(at("", Edge::Start), Moment::Head);
        assert_eq!(at("the last commit", Edge::Start), Moment::Head);
        assert_eq!(
            at("since 3fa9c2e", Edge::Start),
            Moment::Commit("3fa9c2e".into())
        );
        for wrong in ["tomorrowish", "abc", "2026-13-01", "notes.md"] {
            let refusal = Moment::parse(wrong, NOW, 0, Edge::Start).unwrap_err();
            assert_eq!(refusal.rule, Rule::MalformedField, "{wrong}");
        }
    }
}
