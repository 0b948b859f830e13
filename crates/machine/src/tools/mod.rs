//! Wasm tools on the machine, on wasmi: each call gets a fresh store, fuel,
//! a memory cap and exactly the host functions its grant lists.
//!
//! - [`runner`]: instantiate-and-run one module under the host's limits.
//! - [`shelf`]: admitted tools listed by sha256 digest, re-hashed every call.
//! - [`WasmTools`]: the core's `ToolRunner` over the built-in create-asset
//!   tool and the shelf.

mod runner;
mod shelf;

pub use runner::{Grant, LIMITS, Limits, Tool, compile, run_module};
pub use shelf::{Shelf, ShelfEntry};

use crate::env::now_ms;
use crate::extensions::Registry;
use std::io::Read;
use std::path::PathBuf;
use std::time::Duration;
use voicebox_core::executor::tools::CREATE_ASSET;
use voicebox_core::extension::Descriptor;
use voicebox_core::platform::{Fetched, ToolRun, ToolRunner};
use voicebox_core::reply::ToolInfo;
use voicebox_core::{Refusal, Rule};

/// The create-asset module, compiled into the binary from `tools/create-asset.wat`.
pub const CREATE_ASSET_WAT: &str = include_str!("../../../../tools/create-asset.wat");

/// The most of an HTTP response `http-get` reads.
const MAX_FETCH_BYTES: u64 = 1 << 20;
/// How long one `http-get` request may take.
const FETCH_TIMEOUT: Duration = Duration::from_secs(10);

/// The tools of one machine host.
pub struct WasmTools {
    /// create-asset, compiled once from its source.
    create_asset: Tool,
    shelf: Option<Shelf>,
    registry: Option<Registry>,
}

impl WasmTools {
    /// The built-in create-asset tool, and the shelf in `shelf` if given.
    pub fn new(shelf: Option<PathBuf>) -> WasmTools {
        WasmTools {
            create_asset: compile(CREATE_ASSET_WAT.as_bytes()).expect("create-asset.wat compiles"),
            shelf: shelf.map(Shelf::new),
            registry: None,
        }
    }

    /// Takes extension proposals and admissions from the registry in `dir`.
    pub fn with_extensions(mut self, dir: PathBuf) -> WasmTools {
        self.registry = Some(Registry::new(dir));
        self
    }

    /// The extension registry, if this host takes extensions.
    pub fn registry(&self) -> Option<&Registry> {
        self.registry.as_ref()
    }

    fn registry_or_refuse(&self) -> Result<&Registry, Refusal> {
        self.registry
            .as_ref()
            .ok_or_else(|| Refusal::new(Rule::ToolUnavailable, "this host takes no extensions"))
    }
}

impl ToolRunner for WasmTools {
    fn catalog(&self) -> Vec<ToolInfo> {
        let mut tools = vec![ToolInfo {
            id: CREATE_ASSET.into(),
            description: "create an svg, text or html asset in assets/ (verb create_asset)".into(),
            state: "built-in".into(),
        }];
        if let Some(shelf) = &self.shelf {
            tools.extend(shelf.entries().into_iter().map(|e| ToolInfo {
                id: e.id,
                description: e.description,
                state: "shelf".into(),
            }));
        }
        if let Some(registry) = &self.registry {
            tools.extend(registry.list().into_iter().map(|l| ToolInfo {
                id: l.id,
                description: l.description.unwrap_or_default(),
                state: l.state.into(),
            }));
        }
        tools
    }

    async fn run_pinned(&self, digest: &str, input: &[u8]) -> Result<ToolRun, Refusal> {
        let shelf = self
            .shelf
            .as_ref()
            .ok_or_else(|| Refusal::new(Rule::ToolUnavailable, "no shelf is configured"))?;
        let entry = shelf
            .entries()
            .into_iter()
            .find(|e| e.sha256.eq_ignore_ascii_case(digest))
            .ok_or_else(|| {
                Refusal::new(
                    Rule::ToolUnavailable,
                    format!("no module with sha256 {digest} is on the shelf"),
                )
            })?;
        let (bytes, grants) = shelf.load(&entry.id)?;
        run_module(&bytes, &grants, input)
    }

    async fn propose(&self, descriptor: &Descriptor, problems: &[Refusal]) -> Result<(), Refusal> {
        self.registry_or_refuse()?
            .propose(descriptor, problems, now_ms())
    }

    async fn admitted(&self, id: &str) -> Result<Descriptor, Refusal> {
        self.registry_or_refuse()?.admitted(id)
    }

    async fn requests_used(&self, id: &str) -> u32 {
        self.registry.as_ref().map_or(0, |r| r.requests_used(id))
    }

    async fn count_request(&self, id: &str) -> Result<(), Refusal> {
        self.registry_or_refuse()?.count_request(id)
    }

    /// One GET with redirects off (the core checks each hop), a timeout, and
    /// a cap on what is read.
    async fn fetch(&self, url: &str) -> Result<Fetched, Refusal> {
        let failed = |e: reqwest::Error| {
            Refusal::new(Rule::StorageFailed, format!("fetching {url} failed: {e}"))
        };
        let client = reqwest::blocking::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .timeout(FETCH_TIMEOUT)
            .build()
            .map_err(failed)?;
        let response = client.get(url).send().map_err(failed)?;
        let status = response.status().as_u16();
        let location = response
            .headers()
            .get(reqwest::header::LOCATION)
            .and_then(|l| l.to_str().ok())
            .map(String::from);
        let mut body = Vec::new();
        response
            .take(MAX_FETCH_BYTES)
            .read_to_end(&mut body)
            .map_err(|e| Refusal::new(Rule::StorageFailed, format!("reading {url} failed: {e}")))?;
        Ok(Fetched {
            status,
            location,
            body,
        })
    }

    async fn run(&self, id: &str, input: &[u8]) -> Result<ToolRun, Refusal> {
        if id == CREATE_ASSET {
            return self
                .create_asset
                .run(&[Grant::WriteFile, Grant::Note], input);
        }
        let Some(shelf) = &self.shelf else {
            return Err(Refusal::new(
                Rule::ToolUnavailable,
                format!(
                    "there is no tool `{id}` and no shelf is configured; list the extensions to see what exists"
                ),
            ));
        };
        let (bytes, grants) = shelf.load(id)?;
        run_module(&bytes, &grants, input)
    }
}
