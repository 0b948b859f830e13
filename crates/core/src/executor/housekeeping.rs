//! The host's own housekeeping in a root: the temporaries interrupted writes
//! left in its staging folder are removed when a host opens the root, each
//! removal an act of the host with its two entries, like every change.

use super::Executor;
use crate::audit::ActRecord;
use crate::platform::{Abilities, Env, Storage};
use crate::rule::{Refusal, Rule};
use crate::tier::ActKind;
use alloc::format;

/// Who does the act, as the entries' `tool` records it.
const BY_HOST: &str = "host";

impl<S: Storage, E: Env, A: Abilities> Executor<S, E, A> {
    /// Removes the stale temporaries storage names, each under an attempt
    /// entry (when it cannot be written, nothing more is removed) and an
    /// outcome entry. Answers how many were removed.
    pub async fn sweep_temporaries(&self) -> usize {
        if self.root_ready().await.is_err() {
            return 0;
        }
        let mut removed = 0;
        for path in self.store().stale_temporaries().await {
            let record = ActRecord::new(ActKind::Delete, &path).with_tool(BY_HOST);
            let rule = Rule::StaleTemporary;
            let Ok(attempt) = self.begin(record.clone(), rule, None, None).await else {
                break;
            };
            let failed = self.store().remove_temporary(&path).await.err().map(|e| {
                Refusal::new(
                    Rule::StorageFailed,
                    format!(
                        "the host's temporary `{path}` was not removed ({}); it is left as it is",
                        super::describe(&e)
                    ),
                )
            });
            removed += usize::from(failed.is_none());
            let entry = self.closing_entry(record, rule, attempt, failed.as_ref());
            self.log(entry).await;
        }
        removed
    }
}
