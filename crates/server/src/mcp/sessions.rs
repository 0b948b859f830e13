//! MCP sessions over HTTP, bounded: rmcp's in-memory session manager with a
//! cap on how many live at once and an idle expiry.
//!
//! - Expiry is rmcp's own: a session whose worker hears nothing for
//!   [`McpLimits::idle`] ends, and rmcp closes it here, dropping its state.
//! - Past [`McpLimits::max`], a new session closes the least recently used
//!   one that has no request in flight. When every session is busy with a
//!   request, [`Sessions::room`] says so and `/mcp` refuses the initialize
//!   by name (`mcp-sessions-full`) before any session is made.

use futures_util::{Stream, StreamExt};
use rmcp::model::{ClientJsonRpcMessage, ServerJsonRpcMessage};
use rmcp::transport::streamable_http_server::SessionManager;
use rmcp::transport::streamable_http_server::session::local::{
    LocalSessionManager, LocalSessionManagerError, SessionConfig,
};
use rmcp::transport::streamable_http_server::session::{ServerSseMessage, SessionId};
use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;
use tokio::time::Instant;

/// How many MCP sessions over HTTP may live at once, and how long one may
/// be idle.
#[derive(Clone, Copy, Debug)]
pub struct McpLimits {
    pub max: usize,
    pub idle: Duration,
}

impl Default for McpLimits {
    /// 64 sessions (a client holds one; a client that restarts makes a new
    /// one, and the old gives way) idle for at most 10 minutes, longer than
    /// a question may wait for the person (5 minutes).
    fn default() -> McpLimits {
        McpLimits {
            max: 64,
            idle: Duration::from_secs(600),
        }
    }
}

/// The sessions, and when each was last used and how many of its requests
/// are in flight.
pub struct Sessions {
    local: LocalSessionManager,
    max: usize,
    uses: Arc<Mutex<HashMap<SessionId, Use>>>,
}

#[derive(Clone, Copy)]
struct Use {
    last: Instant,
    busy: usize,
}

impl Sessions {
    pub fn new(limits: McpLimits) -> Sessions {
        let mut config = SessionConfig::default();
        config.keep_alive = Some(limits.idle);
        let mut local = LocalSessionManager::default();
        local.session_config = config;
        Sessions {
            local,
            max: limits.max.max(1),
            uses: Arc::default(),
        }
    }

    fn uses(&self) -> MutexGuard<'_, HashMap<SessionId, Use>> {
        lock(&self.uses)
    }

    /// Whether a new session can be made now: under the cap, or some
    /// session has no request in flight and can give way.
    pub fn room(&self) -> bool {
        let uses = self.uses();
        uses.len() < self.max || uses.values().any(|u| u.busy == 0)
    }

    /// Whether `id` is a session this server holds.
    pub fn holds(&self, id: &str) -> bool {
        self.uses().contains_key(id)
    }

    /// Marks `id` used now; with `busy`, one more request in flight until
    /// the returned mark is dropped.
    fn touch(&self, id: &SessionId, busy: bool) -> Option<Busy> {
        let mut uses = self.uses();
        let used = uses.get_mut(id)?;
        used.last = Instant::now();
        if !busy {
            return None;
        }
        used.busy += 1;
        Some(Busy {
            uses: self.uses.clone(),
            id: id.clone(),
        })
    }

    /// The least recently used session with no request in flight, taken
    /// out of the books, when the cap is reached.
    fn give_way(&self) -> Result<Option<SessionId>, SessionsError> {
        let mut uses = self.uses();
        if uses.len() < self.max {
            return Ok(None);
        }
        let oldest = uses
            .iter()
            .filter(|(_, u)| u.busy == 0)
            .min_by_key(|(_, u)| u.last)
            .map(|(id, _)| id.clone())
            .ok_or(SessionsError::Full)?;
        uses.remove(&oldest);
        Ok(Some(oldest))
    }
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|p| p.into_inner())
}

/// One request in flight on a session; dropped with its answer's stream.
struct Busy {
    uses: Arc<Mutex<HashMap<SessionId, Use>>>,
    id: SessionId,
}

impl Drop for Busy {
    fn drop(&mut self) {
        if let Some(used) = lock(&self.uses).get_mut(&self.id) {
            used.busy -= 1;
            used.last = Instant::now();
        }
    }
}

/// A stream that keeps its request counted in flight until it is dropped.
fn counted<S>(stream: S, busy: Option<Busy>) -> impl Stream<Item = S::Item> + Send + Sync + 'static
where
    S: Stream + Send + Sync + 'static,
{
    stream.map(move |item| {
        let _ = &busy;
        item
    })
}

#[derive(Debug)]
pub enum SessionsError {
    /// Every session is busy with a request.
    Full,
    Local(LocalSessionManagerError),
}

impl fmt::Display for SessionsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SessionsError::Full => f.write_str("every MCP session is busy with a request"),
            SessionsError::Local(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for SessionsError {}

impl From<LocalSessionManagerError> for SessionsError {
    fn from(e: LocalSessionManagerError) -> SessionsError {
        SessionsError::Local(e)
    }
}

impl SessionManager for Sessions {
    type Error = SessionsError;
    type Transport = <LocalSessionManager as SessionManager>::Transport;

    async fn create_session(&self) -> Result<(SessionId, Self::Transport), SessionsError> {
        if let Some(oldest) = self.give_way()? {
            tracing::info!(session = %oldest, "an MCP session gave way to a new one");
            self.local.close_session(&oldest).await?;
        }
        let (id, transport) = self.local.create_session().await?;
        let used = Use {
            last: Instant::now(),
            busy: 0,
        };
        self.uses().insert(id.clone(), used);
        Ok((id, transport))
    }

    async fn initialize_session(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<ServerJsonRpcMessage, SessionsError> {
        let _busy = self.touch(id, true);
        Ok(self.local.initialize_session(id, message).await?)
    }

    async fn has_session(&self, id: &SessionId) -> Result<bool, SessionsError> {
        Ok(self.local.has_session(id).await?)
    }

    async fn close_session(&self, id: &SessionId) -> Result<(), SessionsError> {
        self.uses().remove(id);
        Ok(self.local.close_session(id).await?)
    }

    async fn create_stream(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, SessionsError> {
        let busy = self.touch(id, true);
        let stream = self.local.create_stream(id, message).await?;
        Ok(counted(stream, busy))
    }

    async fn accept_message(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<(), SessionsError> {
        self.touch(id, false);
        Ok(self.local.accept_message(id, message).await?)
    }

    async fn create_standalone_stream(
        &self,
        id: &SessionId,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, SessionsError> {
        self.touch(id, false);
        Ok(self.local.create_standalone_stream(id).await?)
    }

    async fn resume(
        &self,
        id: &SessionId,
        last_event_id: String,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, SessionsError> {
        self.touch(id, false);
        Ok(self.local.resume(id, last_event_id).await?)
    }
}
