//! Console approval codes: the person at the host admits an extension by
//! typing a code only the server's console shows.
//!
//! A code is 8 digits, valid for 120 s, single use, bound to the exact plan
//! (its digest), and burned after 5 wrong tries. It is printed on the console
//! and never returned over HTTP.

use std::collections::BTreeMap;
use std::sync::Mutex;
use subtle::ConstantTimeEq;
use voicebox_core::platform::Env;
use voicebox_core::{Refusal, Rule};
use voicebox_machine::MachineEnv;

/// How long a code is valid.
pub const CODE_TTL_MS: u64 = 120_000;
/// Wrong tries before a code is burned.
pub const MAX_ATTEMPTS: u32 = 5;

struct Pending {
    code: String,
    plan_digest: String,
    expires_ms: u64,
    attempts: u32,
}

/// The codes waiting to be typed, by extension id.
#[derive(Default)]
pub struct Approvals {
    pending: Mutex<BTreeMap<String, Pending>>,
}

/// A fresh 8-digit code from OS randomness.
fn new_code() -> String {
    let id = MachineEnv.random_id();
    let n = u64::from_str_radix(&id[..16], 16).expect("hex");
    format!("{:08}", n % 100_000_000)
}

impl Approvals {
    /// Issues a code for `id` at `plan_digest`, replacing any earlier one, and
    /// returns it for the console (only).
    pub fn issue(&self, id: &str, plan_digest: &str, now_ms: u64) -> String {
        let code = new_code();
        let mut pending = self.pending.lock().unwrap_or_else(|p| p.into_inner());
        pending.insert(
            id.into(),
            Pending {
                code: code.clone(),
                plan_digest: plan_digest.into(),
                expires_ms: now_ms + CODE_TTL_MS,
                attempts: 0,
            },
        );
        code
    }

    /// Consumes the code for `id`: `Ok(plan digest it was bound to)` once.
    pub fn consume(&self, id: &str, code: &str, now_ms: u64) -> Result<String, Refusal> {
        let mut pending = self.pending.lock().unwrap_or_else(|p| p.into_inner());
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

    #[test]
    fn codes_are_eight_digits_single_use_and_expire() {
        let approvals = Approvals::default();
        let code = approvals.issue("x", "plan", 0);
        assert!(code.len() == 8 && code.bytes().all(|b| b.is_ascii_digit()));
        assert_eq!(approvals.consume("x", &code, 1).unwrap(), "plan");
        assert_eq!(
            approvals.consume("x", &code, 2).unwrap_err().rule,
            Rule::CodeInvalid,
            "reuse"
        );
        let code = approvals.issue("x", "plan", 0);
        assert_eq!(
            approvals.consume("x", &code, CODE_TTL_MS).unwrap_err().rule,
            Rule::CodeExpired
        );
    }

    #[test]
    fn the_fifth_wrong_try_burns_the_code() {
        let approvals = Approvals::default();
        let code = approvals.issue("x", "plan", 0);
        let wrong = if code == "00000000" {
            "11111111"
        } else {
            "00000000"
        };
        for _ in 0..4 {
            assert!(
                approvals
                    .consume("x", wrong, 1)
                    .unwrap_err()
                    .why
                    .contains("tries left")
            );
        }
        assert!(
            approvals
                .consume("x", wrong, 1)
                .unwrap_err()
                .why
                .contains("burned")
        );
        assert_eq!(
            approvals.consume("x", &code, 1).unwrap_err().rule,
            Rule::CodeInvalid,
            "the right code no longer works"
        );
    }
}
