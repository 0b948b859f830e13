//! Console approval codes: the person at the host admits an extension by
//! typing a code only the server's console shows.
//!
//! A code is 8 digits, valid for 120 s, single use, bound to the exact plan
//! (its digest), and burned after 5 wrong tries. It is printed on the console
//! and never returned over HTTP.
//!
//! Wrong tries also count across all codes: a fresh code does not bring fresh
//! tries. Past [`WRONG_CODE_BUDGET`] wrong codes in [`BUDGET_WINDOW_MS`],
//! every request and every code is `approval-locked` until the oldest of
//! them leaves the window, so guessing runs at 10 per 10 minutes (about a
//! century, on average, for one of 10^8 codes) instead of thousands a second.

use std::collections::{BTreeMap, VecDeque};
use std::sync::Mutex;
use subtle::ConstantTimeEq;
use voicebox_core::platform::Env;
use voicebox_core::{Refusal, Rule};
use voicebox_machine::MachineEnv;

/// How long a code is valid.
pub(crate) const CODE_TTL_MS: u64 = 120_000;
/// Wrong tries before a code is burned.
pub const MAX_ATTEMPTS: u32 = 5;
/// Wrong codes, across all codes, before approvals lock. Twice a code's own
/// tries, so a person who mistypes one code still has another's worth.
pub const WRONG_CODE_BUDGET: usize = 10;
/// The window the budget is counted over.
pub(crate) const BUDGET_WINDOW_MS: u64 = 600_000;

struct PendingCode {
    code: String,
    plan_digest: String,
    expires_ms: u64,
    attempts: u32,
}

/// The codes waiting to be typed, by extension id, and when the recent wrong
/// codes were typed (oldest first).
#[derive(Default)]
pub struct Approvals {
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    pending: BTreeMap<String, PendingCode>,
    wrong: VecDeque<u64>,
}

impl State {
    /// `approval-locked` while the budget of wrong codes is spent.
    fn locked(&mut self, now_ms: u64) -> Result<(), Refusal> {
        while self
            .wrong
            .front()
            .is_some_and(|&at| at + BUDGET_WINDOW_MS <= now_ms)
        {
            self.wrong.pop_front();
        }
        match self.wrong.front() {
            Some(&oldest) if self.wrong.len() >= WRONG_CODE_BUDGET => {
                let wait = (oldest + BUDGET_WINDOW_MS - now_ms).div_ceil(1000);
                Err(Refusal::new(
                    Rule::ApprovalLocked,
                    format!(
                        "{WRONG_CODE_BUDGET} wrong codes in {} minutes, across all codes: approvals are locked for {wait} s more; then request a code and type the one the server's console shows",
                        BUDGET_WINDOW_MS / 60_000
                    ),
                ))
            }
            _ => Ok(()),
        }
    }
}

/// A fresh 8-digit code from OS randomness.
fn new_code() -> String {
    let id = MachineEnv.random_id();
    let n = u64::from_str_radix(&id[..16], 16).expect("hex");
    format!("{:08}", n % 100_000_000)
}

impl Approvals {
    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Issues a code for `id` at `plan_digest`, replacing any earlier one, and
    /// returns it for the console (only); none while approvals are locked.
    pub(crate) fn issue(
        &self,
        id: &str,
        plan_digest: &str,
        now_ms: u64,
    ) -> Result<String, Refusal> {
        let mut state = self.lock();
        state.locked(now_ms)?;
        let code = new_code();
        state.pending.insert(
            id.into(),
            PendingCode {
                code: code.clone(),
                plan_digest: plan_digest.into(),
                expires_ms: now_ms + CODE_TTL_MS,
                attempts: 0,
            },
        );
        Ok(code)
    }

    /// Consumes the code for `id`: `Ok(plan digest it was bound to)` once.
    pub(crate) fn consume(&self, id: &str, code: &str, now_ms: u64) -> Result<String, Refusal> {
        let mut state = self.lock();
        state.locked(now_ms)?;
        let State { pending, wrong } = &mut *state;
        let Some(entry) = pending.get_mut(id) else {
            return Err(Refusal::new(
                Rule::CodeInvalid,
                format!("no approval code is waiting for `{id}`; request one"),
            ));
        };
        if entry.expires_ms <= now_ms {
            pending.remove(id);
            return Err(Refusal::new(
                Rule::CodeExpired,
                "that code expired (codes last 120 s); request a new one",
            ));
        }
        if !bool::from(entry.code.as_bytes().ct_eq(code.as_bytes())) {
            wrong.push_back(now_ms);
            entry.attempts += 1;
            if entry.attempts >= MAX_ATTEMPTS {
                pending.remove(id);
                return Err(Refusal::new(
                    Rule::CodeInvalid,
                    "wrong code, and that was the last try: the code is burned; request a new one",
                ));
            }
            let left = MAX_ATTEMPTS - entry.attempts;
            return Err(Refusal::new(
                Rule::CodeInvalid,
                format!("wrong code; {left} tries left — read it from the server's console"),
            ));
        }
        let entry = pending.remove(id).expect("present above");
        Ok(entry.plan_digest)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A well-formed code that is not `code`.
    fn other_than(code: &str) -> &'static str {
        if code == "00000000" {
            "11111111"
        } else {
            "00000000"
        }
    }

    #[test]
    fn codes_are_eight_digits_single_use_and_expire() {
        let approvals = Approvals::default();
        let code = approvals.issue("x", "plan", 0).unwrap();
        assert!(code.len() == 8 && code.bytes().all(|b| b.is_ascii_digit()));
        assert_eq!(approvals.consume("x", &code, 1).unwrap(), "plan");
        assert_eq!(
            approvals.consume("x", &code, 2).unwrap_err().rule,
            Rule::CodeInvalid,
            "reuse"
        );
        let code = approvals.issue("x", "plan", 0).unwrap();
        assert_eq!(
            approvals.consume("x", &code, CODE_TTL_MS).unwrap_err().rule,
            Rule::CodeExpired
        );
    }

    #[test]
    fn the_fifth_wrong_try_burns_the_code() {
        let approvals = Approvals::default();
        let code = approvals.issue("x", "plan", 0).unwrap();
        let wrong = other_than(&code);
        let why = || approvals.consume("x", wrong, 1).unwrap_err().why;
        for _ in 0..4 {
            assert!(why().contains("tries left"));
        }
        assert!(why().contains("burned"));
        assert_eq!(
            approvals.consume("x", &code, 1).unwrap_err().rule,
            Rule::CodeInvalid,
            "the right code no longer works"
        );
    }

    #[test]
    fn wrong_codes_count_across_codes_and_the_lock_lifts_with_the_window() {
        let approvals = Approvals::default();
        let mut wrong_typed = 0;
        while wrong_typed < WRONG_CODE_BUDGET {
            let code = approvals.issue("x", "plan", 0).unwrap();
            let refusal = approvals.consume("x", other_than(&code), 1).unwrap_err();
            assert_eq!(refusal.rule, Rule::CodeInvalid, "try {wrong_typed}");
            wrong_typed += 1;
        }
        let locked = approvals.issue("x", "plan", 2).unwrap_err();
        assert_eq!(locked.rule, Rule::ApprovalLocked);
        assert!(locked.why.contains("600 s"), "{}", locked.why);
        // The window passes: a fresh code works again.
        let later = BUDGET_WINDOW_MS + 1;
        let code = approvals.issue("x", "plan", later).unwrap();
        assert_eq!(approvals.consume("x", &code, later).unwrap(), "plan");
    }
}
