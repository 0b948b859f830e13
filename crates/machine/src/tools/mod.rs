//! Wasm tools on the machine, on wasmi: each call gets a fresh store, fuel,
//! a memory cap and exactly the host functions its grant lists.
//!
//! - [`runner`]: instantiate-and-run one module under the host's limits.
//! - [`shelf`]: admitted tools listed by sha256 digest, re-hashed every call.
//! - [`Tools`]: the core's `ToolRunner` over the built-in create-asset tool
//!   and the shelf.

mod runner;
mod shelf;

pub use runner::{Grant, LIMITS, Limits, ModuleCache, Tool, compile, run_module};
pub use shelf::{Shelf, ShelfEntry};

use std::path::PathBuf;
use voicebox_core::executor::tools::CREATE_ASSET;
use voicebox_core::platform::{ToolRun, ToolRunner};
use voicebox_core::reply::{ToolInfo, ToolState};
use voicebox_core::{Refusal, Rule};

/// The create-asset module, compiled into the binary from `tools/create-asset.wat`.
pub const CREATE_ASSET_WAT: &str = include_str!("../../../../tools/create-asset.wat");

/// The tools of one machine host.
pub struct Tools {
    /// create-asset, compiled once from its source.
    create_asset: Tool,
    shelf: Option<Shelf>,
}

impl Tools {
    /// The built-in create-asset tool, and the shelf in `shelf` if given.
    pub fn new(shelf: Option<PathBuf>) -> Tools {
        Tools {
            create_asset: compile(CREATE_ASSET_WAT.as_bytes()).expect("create-asset.wat compiles"),
            shelf: shelf.map(Shelf::new),
        }
    }
}

impl ToolRunner for Tools {
    fn catalog(&self) -> Vec<ToolInfo> {
        let mut tools = vec![ToolInfo {
            id: CREATE_ASSET.into(),
            description: "create an svg, text or html asset in assets/ (verb create_asset)".into(),
            state: ToolState::BuiltIn,
        }];
        if let Some(shelf) = &self.shelf {
            tools.extend(shelf.entries().into_iter().map(|e| ToolInfo {
                id: e.id,
                description: e.description,
                state: ToolState::Shelf,
            }));
        }
        tools
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
        let (tool, grants) = shelf.load(id)?;
        tool.run(&grants, input)
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
        let (tool, grants) = shelf.load(&entry.id)?;
        tool.run(&grants, input)
    }
}
