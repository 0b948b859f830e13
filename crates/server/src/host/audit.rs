//! The active root's audit log, read for the page and the CLI: on the
//! machine by a reader of its own (so the host, and every other request, is
//! not held while a page of the log is read), or relayed to the page that
//! owns the root.

use super::acts::{ActiveRoot, Acts, Failed};
use crate::state_dir::StateDir;
use serde::Serialize;
use serde_json::{Value, json};
use std::path::Path;
use voicebox_core::audit::page::PageRequest;
use voicebox_core::worker::{AuditPage, Relayed};
use voicebox_core::{Refusal, Reply, Rule};
use voicebox_machine::Host;

impl Acts {
    /// One page of the active root's audit log. On the machine a reader of
    /// its own reads it, so the host (and every other request) is not held
    /// while the page is read.
    pub async fn audit(
        &self,
        page: PageRequest,
        wire: AuditPage,
        state: StateDir,
    ) -> Result<Value, Failed> {
        if let ActiveRoot::Page = self.active() {
            return Ok(self.relayed_view(&Relayed::Audit(wire)).await);
        }
        self.off_host(state, move |reader| reader.audit(&page))
            .await
    }

    /// Every audit file of the active root checked against its chain, read
    /// as [`Acts::audit`] reads a page: off the host.
    pub(crate) async fn verify_audit(&self, state: StateDir) -> Result<Value, Failed> {
        if let ActiveRoot::Page = self.active() {
            return Ok(self.relayed_view(&Relayed::VerifyAudit).await);
        }
        self.off_host(state, |reader| reader.verify_audit()).await
    }

    /// Runs `read` on a reader of the host's root (its anchors, no writer) on
    /// a blocking thread, holding the host only to learn which root it is.
    async fn off_host<T: Serialize + Send + 'static>(
        &self,
        state: StateDir,
        read: impl FnOnce(&Host) -> Result<T, Refusal> + Send + 'static,
    ) -> Result<Value, Failed> {
        let root = self
            .looking(|host| host.root().map(Path::to_path_buf))
            .await?;
        let answer = tokio::task::spawn_blocking(move || {
            let reader = state.audit_reader(root.as_deref()).map_err(|e| {
                Refusal::new(
                    Rule::RootUnreachable,
                    format!(
                        "your folder cannot be read: {e}; put it back, or choose another folder"
                    ),
                )
            })?;
            read(&reader)
        })
        .await
        .map_err(|_| Failed::new("the audit read failed; the next request is served normally"))?;
        Ok(answered(answer))
    }
}

/// A reader's answer, or its refusal as a reply.
fn answered<T: Serialize>(answer: Result<T, Refusal>) -> Value {
    match answer {
        Ok(answer) => json!(answer),
        Err(refusal) => json!(Reply::refusal(refusal)),
    }
}
