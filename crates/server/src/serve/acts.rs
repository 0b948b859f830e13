//! Where acts run: the host's folder, or the page that owns the active root.
//! Every route and live tool call that acts comes through [`Acts`], so
//! "which root is active" is asked in one place and refusals are counted
//! once for `GET /api/health`.

use super::ApiError;
use crate::channel::Channel;
use axum::http::StatusCode;
use serde_json::{Value, json};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use voicebox_core::platform::{RootInfo, Storage};
use voicebox_core::{Reply, Rule};
use voicebox_machine::{Host, MachineAbilities};

/// The host (one writer: its acts are serialised by its mutex), the page
/// channel, and the refusals answered since start.
pub struct Acts {
    host: Arc<Mutex<Host<MachineAbilities>>>,
    channel: Channel,
    refused: AtomicU64,
}

impl Acts {
    pub fn new(host: Host<MachineAbilities>, channel: Channel) -> Acts {
        Acts {
            host: Arc::new(Mutex::new(host)),
            channel,
            refused: AtomicU64::new(0),
        }
    }

    /// The host itself, for a thread that only looks (the offline
    /// recogniser reads the root's file names for its grammar).
    pub fn host(&self) -> Arc<Mutex<Host<MachineAbilities>>> {
        self.host.clone()
    }

    pub fn channel(&self) -> &Channel {
        &self.channel
    }

    /// The page-owned root, when the page executes the acts.
    pub fn page_root(&self) -> Option<RootInfo> {
        self.channel.root()
    }

    /// Runs `f` on the host on a blocking thread (the executor does file I/O).
    pub async fn with_host<R: Send + 'static>(
        &self,
        f: impl FnOnce(&mut Host<MachineAbilities>) -> R + Send + 'static,
    ) -> Result<R, ApiError> {
        let host = self.host.clone();
        tokio::task::spawn_blocking(move || {
            let mut host = host.lock().unwrap_or_else(|p| p.into_inner());
            f(&mut host)
        })
        .await
        .map_err(|_| {
            ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                Rule::StorageFailed,
                "the host failed while acting; the next request is served normally — check the audit log",
            )
        })
    }

    /// Counts a refusal made before any executor (a call that does not fit).
    pub fn count_refusal(&self) {
        self.refused.fetch_add(1, Ordering::Relaxed);
    }

    /// Counts the reply if it is a refusal.
    pub fn counted(&self, reply: &Reply) {
        if reply.refused.is_some() {
            self.count_refusal();
        }
    }

    /// Refusals answered since start.
    pub fn refused(&self) -> u64 {
        self.refused.load(Ordering::Relaxed)
    }

    /// Runs `action` in the active root: relayed to the page that owns it (no
    /// disk of this machine is touched), or executed by the host on its folder.
    pub async fn act(&self, action: Value, turn: String) -> Result<Value, ApiError> {
        if self.page_root().is_some() {
            return Ok(self
                .relayed(json!({"op": "execute", "action": action, "turn": turn}))
                .await);
        }
        let reply = self
            .with_host(move |host| host.execute(&action, Some(&turn)))
            .await?;
        self.counted(&reply);
        Ok(json!(reply))
    }

    /// Relays one worker request to the page; the core's result is returned
    /// untouched but for `via: "page"`, and a missing answer is a named refusal.
    pub async fn relayed(&self, request: Value) -> Value {
        let result = match self.channel.relay(request).await {
            Ok(mut answer) => {
                let mut result = match answer.get_mut("result") {
                    Some(result) if result.is_object() => result.take(),
                    _ => answer,
                };
                result["via"] = json!("page");
                result
            }
            Err(refusal) => refusal,
        };
        if result.get("refused").is_some() {
            self.count_refusal();
        }
        result
    }

    /// The active root: the page's, or the host's folder.
    pub async fn active_root(&self) -> Result<Option<RootInfo>, ApiError> {
        if let Some(root) = self.page_root() {
            return Ok(Some(root));
        }
        self.with_host(|host| host.executor().storage().map(Storage::root_info))
            .await
    }
}
