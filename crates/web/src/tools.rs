//! Tools in the browser: the worker instantiates the module with the
//! `WebAssembly` API and exactly the two imports, and reports what the module
//! asked for — or the platform's own error words, which are named here.

use crate::io::Slot;
use crate::ops::{Op, Request};
use serde_json::Value;
use std::rc::Rc;
use voicebox_core::executor::tools::CREATE_ASSET;
use voicebox_core::platform::{ToolRun, ToolRunner, no_shelf};
use voicebox_core::reply::{ToolInfo, ToolState};
use voicebox_core::{Refusal, Rule};

/// How long one tool run may take in the browser, where there is no fuel: the
/// worker runs the tool in its own worker and terminates it past this. The
/// budget travels in every `runTool` request (`budgetMs`); the worker has none
/// of its own.
pub const TOOL_BUDGET_MS: u64 = 5_000;

pub struct WebTools {
    slot: Rc<Slot>,
}

impl WebTools {
    pub fn new(slot: Rc<Slot>) -> WebTools {
        WebTools { slot }
    }
}

impl ToolRunner for WebTools {
    fn catalog(&self) -> Vec<ToolInfo> {
        vec![ToolInfo {
            id: CREATE_ASSET.into(),
            description: "create an svg, text or html asset in assets/ (verb create_asset)".into(),
            state: ToolState::BuiltIn,
        }]
    }

    async fn run(&self, id: &str, input: &[u8]) -> Result<ToolRun, Refusal> {
        if id != CREATE_ASSET {
            return Err(Refusal::new(
                Rule::ToolUnavailable,
                format!("this page has no tool `{id}`"),
            ));
        }
        let (answer, data) = self
            .slot
            .exchange(
                Request::on_root(Op::RunTool {
                    id: id.into(),
                    budget_ms: TOOL_BUDGET_MS,
                }),
                input.to_vec(),
            )
            .await;
        if let Some(error) = answer.get("error") {
            return Err(fault(error));
        }
        unpack(&answer, &data)
    }

    /// The page keeps no shelf.
    async fn run_pinned(&self, digest: &str, _input: &[u8]) -> Result<ToolRun, Refusal> {
        Err(no_shelf(digest))
    }
}

/// The writes (`[{path, len}]`, their bytes back to back in `data`), notes and output.
fn unpack(answer: &Value, data: &[u8]) -> Result<ToolRun, Refusal> {
    let malformed = || Refusal::new(Rule::ToolProtocol, "the worker's tool report is malformed");
    let mut run = ToolRun::default();
    let mut at = 0usize;
    for write in answer["writes"].as_array().ok_or_else(malformed)? {
        let path = write["path"].as_str().ok_or_else(malformed)?;
        let len = write["len"].as_u64().ok_or_else(malformed)? as usize;
        let bytes = data.get(at..at + len).ok_or_else(malformed)?;
        run.writes.push((path.into(), bytes.to_vec()));
        at += len;
    }
    run.notes = answer["notes"]
        .as_array()
        .map(|notes| {
            notes
                .iter()
                .filter_map(Value::as_str)
                .map(String::from)
                .collect()
        })
        .unwrap_or_default();
    run.output = data[at..].to_vec();
    Ok(run)
}

/// The platform's error, named: instantiation failures are the import
/// boundary working; run failures are traps, memory or time.
fn fault(error: &Value) -> Refusal {
    let phase = error["phase"].as_str().unwrap_or("");
    let name = error["name"].as_str().unwrap_or("Error");
    let message = error["message"].as_str().unwrap_or("");
    let words = format!("{name}: {message}");
    match phase {
        "load" => Refusal::new(
            Rule::ToolUnavailable,
            format!(
                "the tool's module could not be loaded ({words}); the page is incomplete — reload it"
            ),
        ),
        "instantiate" => Refusal::new(
            Rule::ImportUndeclared,
            format!(
                "the tool did not instantiate ({words}); a tool gets only the host functions it was granted"
            ),
        ),
        "timeout" => Refusal::new(
            Rule::TimeExceeded,
            format!("the tool ran past its time budget and was stopped ({words})"),
        ),
        _ if message.to_lowercase().contains("memory") => Refusal::new(
            Rule::ResourceExceeded,
            format!("the tool ran out of memory ({words})"),
        ),
        _ => Refusal::new(
            Rule::WasmTrapped,
            format!("the tool trapped ({words}); nothing was written"),
        ),
    }
}
