//! Voicebox as an MCP server: every MCP client (a desktop app, a coding
//! CLI) gets the same contained, audited, undoable folder as speech.
//!
//! [`McpServer`] is a thin adapter: it owns no policy. Each tool call and
//! each resource read is one act through [`Acts`], the same pipeline as a
//! typed turn, so containment, the tier table and the audit log are the
//! executor's. What is MCP's own lives in one module each: the tools made
//! from the command table ([`tools`]), a person's words as one tool
//! ([`say`]), a tier-2 question put to the person
//! through elicitation ([`ask`]), the folder's files as resources
//! ([`resources`]).
//!
//! Both transports serve this one handler: `voicebox mcp` over stdio
//! (its own host, audit instance `mcp`) and `/mcp` under `voicebox serve`
//! (streamable HTTP, the server's own [`Acts`], behind its guard).

mod ask;
mod gate;
mod resources;
mod say;
mod sessions;
pub mod stdio;
mod tools;

pub use sessions::{McpLimits, Sessions};

use crate::host::{Acts, Words};
use crate::serve::MAX_BODY_BYTES;
use axum::Router;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, Implementation, ListResourcesResult, ListToolsResult,
    PaginatedRequestParams, ProtocolVersion, ReadResourceRequestParams, ReadResourceResponse,
    ServerCapabilities, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{ErrorData, RoleServer, ServerHandler};
use std::borrow::Cow;
use std::sync::Arc;

/// The turn every MCP act is recorded under in the audit log.
const TURN: &str = "mcp";

/// The newest protocol revision served. From 2026-07-28 on a server may not
/// send a client requests, so elicitation there would be a different
/// mechanism (an `input_required` result); every client that asks a person
/// today speaks a revision with the `initialize` handshake.
const NEWEST: ProtocolVersion = ProtocolVersion::V_2025_11_25;

/// What a client's model is told once, at `initialize`.
const INSTRUCTIONS: &str = "Voicebox acts in one folder the person declared, and nowhere else. \
Each tool is one act; paths are relative to that folder. A refused call's text starts with the \
rule id, then says why and what to do. A delete, or a create over a file that exists, asks the \
person first; it is done only if they accept. Every act is in the folder's audit log, and undo \
reverts the last change. A person's own sentence may be passed whole to `say`, which reads it as \
Voicebox's page does and asks the person before acting on a guess.";

/// The MCP handler over one act pipeline.
#[derive(Clone)]
pub struct McpServer {
    acts: Arc<Acts>,
    words: Arc<Words>,
}

impl McpServer {
    /// The handler over `acts`, reading a person's words (the `say` tool)
    /// with `words`.
    pub fn new(acts: Arc<Acts>, words: Arc<Words>) -> McpServer {
        McpServer { acts, words }
    }
}

/// `/mcp` for `voicebox serve`: MCP's streamable HTTP transport over the
/// server's own [`Acts`] (one executor), its sessions bounded by
/// `sessions`. The router mounts it behind the guard, which has already
/// checked the Host name and the authority and read the body within the
/// API's one cap; [`gate`] reads it strictly first.
pub fn http<S: Clone + Send + Sync + 'static>(
    acts: Arc<Acts>,
    words: Arc<Words>,
    sessions: Arc<Sessions>,
) -> Router<S> {
    let config = StreamableHttpServerConfig::default().with_max_request_body_bytes(MAX_BODY_BYTES);
    let service = StreamableHttpService::new(
        move || Ok(McpServer::new(acts.clone(), words.clone())),
        sessions.clone(),
        config,
    );
    Router::new()
        .route_service("/mcp", service)
        .layer(axum::middleware::from_fn_with_state(sessions, gate::gate))
}

impl ServerHandler for McpServer {
    fn get_info(&self) -> ServerConfig {
        let capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_resources()
            .build();
        ServerConfig::new(capabilities)
            .with_server_info(Implementation::new("voicebox", env!("CARGO_PKG_VERSION")))
            .with_instructions(INSTRUCTIONS)
            .with_protocol_version(NEWEST)
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        Cow::Borrowed(ProtocolVersion::known_up_to(&NEWEST))
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let mut offered = tools::offered(&self.acts).await;
        offered.push(say::tool());
        Ok(ListToolsResult::with_all_items(offered))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let peer = &context.peer;
        Ok(match request.name.as_ref() {
            say::NAME => {
                let arguments = request.arguments.unwrap_or_default();
                say::call(&self.acts, &self.words, arguments, peer).await
            }
            _ => tools::call(&self.acts, request, peer).await,
        }
        .into())
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        Ok(ListResourcesResult::with_all_items(
            resources::list(&self.acts).await?,
        ))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        Ok(resources::read(&self.acts, &request.uri).await?.into())
    }
}
