//! Verbs that run Wasm tools: `create_asset` (the one tool that writes) and
//! `tool` (shelf tools, which only compute over what the host read for them).
//!
//! The tool is handed exactly the host functions it may use (the runner's
//! job); the executor validates the arguments, decides, and — for a write —
//! re-resolves the path the tool asked for and refuses unless it is the path
//! the host decided on. Every failure is an entry with `result: "error"`.

use super::{Change, Executor, bytes};
use crate::audit::{ActRecord, Happened};
use crate::contain::{self, RelPath};
use crate::journal::Remembered;
use crate::platform::{Abilities, Env, Storage, StorageError, ToolRunner};
use crate::reply::Reply;
use crate::rule::{Refusal, Rule};
use crate::tier::ActKind;
use crate::words;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

/// The id of the asset tool (its module is `tools/create-asset.wat`).
pub const CREATE_ASSET: &str = "create-asset";
/// The kinds of asset create-asset makes.
pub const ASSET_KINDS: [&str; 3] = ["svg", "text", "html"];
/// The folder assets go to.
pub const ASSET_DIR: &str = "assets";

impl<S: Storage, E: Env, A: Abilities> Executor<S, E, A> {
    pub(super) async fn create_asset(
        &self,
        name: &str,
        kind: &str,
        body: &str,
        turn: Option<&str>,
    ) -> Reply {
        let target = format!("{ASSET_DIR}/{name}");
        let record = ActRecord::new(ActKind::Write, &target).with_tool(CREATE_ASSET);
        if !ASSET_KINDS.contains(&kind) {
            let refusal = Refusal::new(
                Rule::MalformedField,
                format!("`kind` is {kind:?}; an asset is one of: svg, text, html"),
            );
            return self.refuse(refusal, record, turn).await;
        }
        let approved = match self.approve(record.clone(), ActKind::Write, turn).await {
            Ok(approved) => approved,
            Err(reply) => return reply,
        };
        let path = &approved.path;
        if self.store().observe(path).await.is_dir {
            let refusal = self.storage_refusal(StorageError::IsADirectory, path);
            return self.refuse(refusal, record, turn).await;
        }
        let input = format!("{kind}\n{path}\n{body}");
        let run = match self
            .abilities
            .tools()
            .run(CREATE_ASSET, input.as_bytes())
            .await
        {
            Ok(run) => run,
            Err(fault) => return self.tool_failed(record, fault, turn).await,
        };
        let bytes_out = match self.only_write_to(path, run.writes) {
            Ok(bytes_out) => bytes_out,
            Err(refusal) => return self.refuse(refusal, record, turn).await,
        };
        let write = Change::Write {
            verb: Remembered::Write,
            bytes: &bytes_out,
        };
        let changed = self.change(&approved, write, None, turn).await;
        self.answer_changed(changed, || {
            let mut reply = Reply::done(format!(
                "created {kind} asset {path} ({})",
                bytes(bytes_out.len() as u64)
            ))
            .said(format!("Made {path}."));
            reply.file = Some(path.as_str().into());
            reply.bytes = Some(bytes_out.len() as u64);
            reply.notes = Some(run.notes);
            reply
        })
    }

    /// The host's re-check: the tool must ask for exactly one write, and the
    /// path it named must resolve to the very path the host decided on.
    fn only_write_to(
        &self,
        decided: &RelPath,
        writes: Vec<(String, Vec<u8>)>,
    ) -> Result<Vec<u8>, Refusal> {
        let mut writes = writes.into_iter();
        let (Some((asked, bytes)), None) = (writes.next(), writes.next()) else {
            return Err(Refusal::new(
                Rule::ToolProtocol,
                "the tool must ask for exactly one write; nothing was written — the tool is broken, report it",
            ));
        };
        match contain::resolve_inside_root(&asked) {
            Ok(path) if &path == decided => Ok(bytes),
            _ => Err(Refusal::new(
                Rule::OutsideRoot,
                format!(
                    "the tool asked to write {asked:?}, but the host decided on `{decided}`; a tool may only write where the host decided, so nothing was written"
                ),
            )),
        }
    }

    pub(super) async fn run_tool(&self, id: &str, name: Option<&str>, turn: Option<&str>) -> Reply {
        let record = ActRecord::new(ActKind::Read, name.unwrap_or("")).with_tool(id);
        let (input, path, read) = match name {
            None => (Vec::new(), RelPath::root(), Vec::new()),
            Some(_) => {
                let (path, _) = match self.locate_for(record.clone(), ActKind::Read, turn).await {
                    Ok(found) => found,
                    Err(reply) => return reply,
                };
                match self.read_bounded(&path).await {
                    Ok(input) => {
                        let read = alloc::vec![(path.clone(), input.len() as u64)];
                        (input, path, read)
                    }
                    Err(e) => {
                        let refusal = self.storage_refusal(e, &path);
                        return self.looked_and_failed(record, &path, refusal, turn).await;
                    }
                }
            }
        };
        let run = match self.abilities.tools().run(id, &input).await {
            Ok(run) => run,
            Err(fault) => return self.tool_failed(record, fault, turn).await,
        };
        if !run.writes.is_empty() {
            let refusal = Refusal::new(
                Rule::ToolProtocol,
                format!(
                    "shelf tool `{id}` asked to write; shelf tools only compute, so nothing was written"
                ),
            );
            return self.tool_failed(record, refusal, turn).await;
        }
        let seq = match self
            .looked(
                record,
                &path,
                self.inside_rule(ActKind::Read),
                read,
                None,
                turn,
            )
            .await
        {
            Ok(seq) => Some(seq),
            Err(reply) => return reply,
        };
        let output = String::from_utf8_lossy(&run.output).into_owned();
        let said = match (words::counts(&output), name) {
            (Some(counts), Some(name)) => format!("{name} has {counts}."),
            (Some(counts), None) => format!("{id}: {counts}."),
            (None, Some(name)) => format!("Ran {id} on {name}:"),
            (None, None) => format!("Ran {id}:"),
        };
        let mut reply = Reply::done(format!(
            "ran {id}{}",
            name.map(|n| format!(" on {n}")).unwrap_or_default()
        ))
        .said(said);
        reply.output = Some(output);
        reply.notes = Some(run.notes);
        if let Some(name) = name {
            reply.file = Some(name.into());
        }
        self.answer(reply, seq)
    }

    /// A tool run that failed: one entry with `result: "error"`, and the
    /// named answer. The host serves the next request as usual.
    pub(super) async fn tool_failed(
        &self,
        record: ActRecord,
        fault: Refusal,
        turn: Option<&str>,
    ) -> Reply {
        let entry = self.entry(
            record,
            turn,
            Happened::Failed {
                rule: fault.rule,
                observed: None,
                refusal: &fault,
            },
        );
        let seq = self.log(entry).await;
        self.answer(Reply::refusal(fault), seq)
    }
}
