//! Wasm tools on the machine, on wasmi: each call gets a fresh store, fuel,
//! a memory cap and exactly the host functions its grant lists.
//!
//! - [`runner`]: instantiate-and-run one module under the host's limits.
//! - [`shelf`]: admitted tools listed by sha256 digest, re-hashed every call.
//! - [`WasmTools`]: the core's `ToolRunner` over the built-in create-asset
//!   tool and the shelf.

mod runner;
mod shelf;

pub use runner::{Grant, LIMITS, Limits, run_module};
pub use shelf::{Shelf, ShelfEntry};

use std::path::PathBuf;
use voicebox_core::executor::tools::CREATE_ASSET;
use voicebox_core::platform::{ToolRun, ToolRunner};
use voicebox_core::reply::ToolInfo;
use voicebox_core::{Refusal, Rule};

/// The create-asset module, compiled into the binary from `tools/create-asset.wat`.
pub const CREATE_ASSET_WAT: &str = include_str!("../../../../tools/create-asset.wat");

/// The tools of one machine host.
pub struct WasmTools {
    shelf: Option<Shelf>,
}

impl WasmTools {
    /// The built-in create-asset tool, and the shelf in `shelf` if given.
    pub fn new(shelf: Option<PathBuf>) -> WasmTools {
        WasmTools {
            shelf: shelf.map(Shelf::new),
        }
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
        tools
    }

    async fn run(&self, id: &str, input: &[u8]) -> Result<ToolRun, Refusal> {
        if id == CREATE_ASSET {
            return run_module(
                CREATE_ASSET_WAT.as_bytes(),
                &[Grant::WriteFile, Grant::Note],
                input,
            );
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
