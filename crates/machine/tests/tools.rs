//! Wasm tools on wasmi: the import boundary (check 5), bad input that never
//! kills the host (check 7), the host's re-check of the path, the digest pin,
//! and the shelf tools themselves.

mod common;

use common::refused;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};
use tempfile::TempDir;
use voicebox_core::audit::EntryResult;
use voicebox_core::audit::page::{MAX_LIMIT, PageRequest};
use voicebox_core::executor::Executor;
use voicebox_core::platform::{ToolRun, ToolRunner};
use voicebox_core::reply::ToolInfo;
use voicebox_core::tier::Placement;
use voicebox_core::{Refusal, Reply, Rule};
use voicebox_machine::tools::Tools;
use voicebox_machine::tools::{CREATE_ASSET_WAT, Grant, run_module};
use voicebox_machine::{FolderStorage, MachineEnv};

fn repo_shelf() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tools/shelf")
}

/// A module with the tool ABI whose `run` body is `body`, importing `imports`.
fn module(imports: &str, body: &str) -> Vec<u8> {
    wat::parse_str(format!(
        r#"(module {imports}
             (memory (export "memory") 1)
             (func (export "alloc") (param i32) (result i32) (i32.const 1024))
             (func (export "run") (param i32 i32) {body}))"#
    ))
    .unwrap()
}

const OUTPUT: &str = r#"(import "env" "output" (func $output (param i32 i32)))"#;

/// A shelf in a temp folder holding the repo's tools plus `extra` modules.
fn shelf_with(extra: &[(&str, Vec<u8>, &[&str])]) -> TempDir {
    let dir = TempDir::new().unwrap();
    let mut manifest: Value =
        serde_json::from_slice(&std::fs::read(repo_shelf().join("manifest.json")).unwrap())
            .unwrap();
    for tool in manifest["tools"].as_array().unwrap() {
        let file = tool["file"].as_str().unwrap();
        std::fs::copy(repo_shelf().join(file), dir.path().join(file)).unwrap();
    }
    for (id, bytes, imports) in extra {
        std::fs::write(dir.path().join(format!("{id}.wasm")), bytes).unwrap();
        let digest = voicebox_core::hex(&Sha256::digest(bytes));
        manifest["tools"].as_array_mut().unwrap().push(json!({
            "id": id, "file": format!("{id}.wasm"), "sha256": digest,
            "description": "a test fixture", "imports": imports,
        }));
    }
    std::fs::write(dir.path().join("manifest.json"), manifest.to_string()).unwrap();
    dir
}

struct Rig<T: ToolRunner> {
    ex: Executor<FolderStorage, MachineEnv, T>,
    root: TempDir,
}

impl<T: ToolRunner> Rig<T> {
    fn new(tools: T) -> Rig<T> {
        let root = TempDir::new().unwrap();
        let mut ex = Executor::new(Placement::Machine, "test", MachineEnv, tools);
        ex.declare(
            FolderStorage::open(root.path(), "test").unwrap(),
            "root@machine",
        );
        Rig { ex, root }
    }

    fn run(&mut self, action: Value) -> Reply {
        pollster::block_on(self.ex.execute(&action, Some("t")))
    }

    fn entry_result(&self, reply: &Reply) -> (EntryResult, Option<String>) {
        let view = pollster::block_on(self.ex.audit(&PageRequest::first(MAX_LIMIT))).unwrap();
        let entry = view
            .entries
            .into_iter()
            .find(|e| Some(e.seq) == reply.logged)
            .expect("logged");
        (entry.result, entry.act.tool)
    }

    fn asset(&self, name: &str) -> Option<String> {
        std::fs::read_to_string(self.root.path().join("assets").join(name)).ok()
    }
}

fn asset(name: &str, kind: &str, body: &str) -> Value {
    json!({"verb": "create_asset", "name": name, "kind": kind, "body": body})
}

#[test]
fn check_5_create_asset_instantiates_and_a_fetch_import_does_not() {
    let run = run_module(
        CREATE_ASSET_WAT.as_bytes(),
        &[Grant::WriteFile, Grant::Note],
        b"svg\nassets/a.svg\n<svg/>",
    )
    .unwrap();
    assert_eq!(
        run.writes,
        [("assets/a.svg".to_string(), b"<svg/>".to_vec())]
    );
    assert_eq!(run.notes, ["asset created by the create-asset tool"]);

    let fetch = module(
        r#"(import "env" "writeFile" (func (param i32 i32 i32 i32)))
           (import "env" "note" (func (param i32 i32)))
           (import "env" "fetch" (func (param i32 i32) (result i32)))"#,
        "",
    );
    let refusal = run_module(&fetch, &[Grant::WriteFile, Grant::Note], b"").unwrap_err();
    assert_eq!(refusal.rule, Rule::ImportUndeclared);
    // The runtime's own words for a missing import, carried in the why.
    assert!(
        refusal.why.contains("env") && refusal.why.contains("fetch"),
        "{}",
        refusal.why
    );
    assert!(
        refusal
            .why
            .to_lowercase()
            .contains("cannot find definition for import"),
        "{}",
        refusal.why
    );
}

#[test]
fn create_asset_writes_through_the_host_and_names_its_tool() {
    let mut rig = Rig::new(Tools::new(None));
    let reply = rig.run(asset(
        "logo.svg",
        "svg",
        "<svg xmlns='http://www.w3.org/2000/svg'/>",
    ));
    assert!(reply.ok, "{reply:?}");
    assert_eq!(reply.file.as_deref(), Some("assets/logo.svg"));
    assert_eq!(
        reply.notes.as_deref(),
        Some(&["asset created by the create-asset tool".to_string()][..])
    );
    assert_eq!(
        rig.asset("logo.svg").unwrap(),
        "<svg xmlns='http://www.w3.org/2000/svg'/>"
    );
    assert_eq!(
        rig.entry_result(&reply),
        (EntryResult::Ok, Some("create-asset".into()))
    );
    // Containment applies to the asset name like any other.
    assert_eq!(
        refused(&rig.run(asset("../../evil.sh", "text", "x"))),
        Rule::OutsideRoot
    );
    assert_eq!(
        refused(&rig.run(asset("..", "text", "x"))),
        Rule::OutsideRoot
    );
    assert!(
        rig.run(asset("notes.txt", "text", "")).ok,
        "an empty body is a valid asset"
    );
}

#[test]
fn check_7_bad_input_is_named_logged_and_the_next_request_succeeds() {
    let trap = module(OUTPUT, "unreachable");
    let spin = module(OUTPUT, "(loop $forever (br $forever))");
    let bomb = module(
        OUTPUT,
        "(loop $grow (drop (memory.grow (i32.const 16))) (br $grow))",
    );
    let shelf = shelf_with(&[
        ("trap", trap, &["output"]),
        ("spin", spin, &["output"]),
        ("bomb", bomb, &["output"]),
    ]);
    let mut rig = Rig::new(Tools::new(Some(shelf.path().to_path_buf())));
    let big = "x".repeat(2 << 20);
    let cases = [
        (
            json!({"verb":"create_asset","name":"a.svg","kind":"svg","body":"x","color":"red"}),
            Rule::UnknownField,
            false,
        ),
        (
            json!({"verb":"create_asset","name":"a.svg","kind":"svg"}),
            Rule::MissingArgument,
            false,
        ),
        (asset("a.svg", "svg", &big), Rule::TooLarge, false),
        (asset(&"n".repeat(256), "svg", "x"), Rule::TooLarge, false),
        (asset("a.pdf", "pdf", "x"), Rule::MalformedField, false),
        (json!({"verb":"tool","id":"trap"}), Rule::WasmTrapped, true),
        (json!({"verb":"tool","id":"spin"}), Rule::OutOfFuel, true),
        (
            json!({"verb":"tool","id":"bomb"}),
            Rule::ResourceExceeded,
            true,
        ),
    ];
    for (action, rule, tool_ran) in cases {
        let reply = rig.run(action.clone());
        assert_eq!(refused(&reply), rule, "{action}");
        let (result, _) = rig.entry_result(&reply);
        let expected = if tool_ran {
            EntryResult::Error
        } else {
            EntryResult::Refused
        };
        assert_eq!(result, expected, "{action}");
        // The very next request is served normally.
        let next = rig.run(asset("ok.svg", "svg", "<svg/>"));
        assert!(next.ok, "after {action}: {next:?}");
    }
}

/// A create-asset tool that asks to write somewhere else than it was told.
struct Rogue;

impl ToolRunner for Rogue {
    fn catalog(&self) -> Vec<ToolInfo> {
        Vec::new()
    }

    async fn run(&self, _id: &str, input: &[u8]) -> Result<ToolRun, Refusal> {
        let rogue = wat::parse_str(
            r#"(module
                 (import "env" "writeFile" (func $w (param i32 i32 i32 i32)))
                 (memory (export "memory") 1)
                 (data (i32.const 0) "assets/other.svg")
                 (func (export "alloc") (param i32) (result i32) (i32.const 1024))
                 (func (export "run") (param i32 i32) (call $w (i32.const 0) (i32.const 16) (i32.const 0) (i32.const 6))))"#,
        )
        .unwrap();
        run_module(&rogue, &[Grant::WriteFile, Grant::Note], input)
    }

    async fn run_pinned(&self, digest: &str, _input: &[u8]) -> Result<ToolRun, Refusal> {
        Err(voicebox_core::platform::no_shelf(digest))
    }
}

#[test]
fn the_host_refuses_a_write_to_another_path_than_it_decided() {
    let mut rig = Rig::new(Rogue);
    let reply = rig.run(asset("logo.svg", "svg", "<svg/>"));
    assert_eq!(refused(&reply), Rule::OutsideRoot);
    assert!(reply.why.unwrap().contains("assets/other.svg"));
    assert!(rig.asset("other.svg").is_none() && rig.asset("logo.svg").is_none());
}

#[test]
fn shelf_tools_compute_over_a_file_the_host_read() {
    let mut rig = Rig::new(Tools::new(Some(repo_shelf())));
    std::fs::write(rig.root.path().join("notes.md"), "hello world\nbye now\n").unwrap();
    let wc = rig.run(json!({"verb":"tool","id":"wc","name":"notes.md"}));
    assert_eq!(
        wc.output.as_deref(),
        Some(r#"{"lines":2,"words":4,"bytes":20}"#),
        "{wc:?}"
    );
    std::fs::write(rig.root.path().join("check.txt"), "123456789").unwrap();
    let crc = rig.run(json!({"verb":"tool","id":"crc32","name":"check.txt"}));
    assert_eq!(
        crc.output.as_deref(),
        Some("cbf43926"),
        "the CRC-32 check value"
    );
    let empty = rig.run(json!({"verb":"tool","id":"wc"}));
    assert_eq!(
        empty.output.as_deref(),
        Some(r#"{"lines":0,"words":0,"bytes":0}"#)
    );
    assert_eq!(
        refused(&rig.run(json!({"verb":"tool","id":"wc","name":"../x"}))),
        Rule::OutsideRoot
    );
    assert_eq!(
        refused(&rig.run(json!({"verb":"tool","id":"nope"}))),
        Rule::ToolUnavailable
    );
    let tools = rig.run(json!({"verb":"list_extensions"})).tools.unwrap();
    let ids: Vec<&str> = tools.iter().map(|t| t.id.as_str()).collect();
    assert_eq!(ids, ["create-asset", "wc", "crc32"]);
}

#[test]
fn flipping_one_byte_of_a_shelf_module_is_a_digest_mismatch() {
    let shelf = shelf_with(&[]);
    let mut rig = Rig::new(Tools::new(Some(shelf.path().to_path_buf())));
    assert!(
        rig.run(json!({"verb":"tool","id":"wc"})).ok,
        "positive control"
    );
    let path = shelf.path().join("wc.wasm");
    let mut bytes = std::fs::read(&path).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x01;
    std::fs::write(&path, &bytes).unwrap();
    let reply = rig.run(json!({"verb":"tool","id":"wc"}));
    assert_eq!(refused(&reply), Rule::DigestMismatch);
    let flipped = voicebox_core::hex(&Sha256::digest(&bytes));
    let why = reply.why.unwrap();
    assert!(why.contains(&flipped), "names the digest found: {why}");
    let manifest: Value =
        serde_json::from_slice(&std::fs::read(shelf.path().join("manifest.json")).unwrap())
            .unwrap();
    assert!(
        why.contains(manifest["tools"][0]["sha256"].as_str().unwrap()),
        "names the digest admitted"
    );
}

#[test]
fn a_shelf_tool_importing_more_than_the_host_offers_does_not_run() {
    let sneaky = module(
        &format!(r#"{OUTPUT} (import "env" "fetch" (func (param i32 i32)))"#),
        "",
    );
    let declared = module(
        &format!(r#"{OUTPUT} (import "env" "fetch" (func (param i32 i32)))"#),
        "",
    );
    let honest = module(OUTPUT, "(call $output (i32.const 0) (i32.const 0))");
    let shelf = shelf_with(&[
        ("sneaky", sneaky, &["output"]),
        ("declared", declared, &["output", "fetch"]),
        ("honest", honest, &["output"]),
    ]);
    let mut rig = Rig::new(Tools::new(Some(shelf.path().to_path_buf())));
    for id in ["sneaky", "declared"] {
        let reply = rig.run(json!({"verb":"tool","id":id}));
        assert_eq!(refused(&reply), Rule::ImportUndeclared, "{id}");
        assert!(reply.why.unwrap().contains("env.fetch"));
    }
    assert!(rig.run(json!({"verb":"tool","id":"honest"})).ok);
}

#[test]
fn limits_are_host_constants_and_oversize_modules_are_over_budget() {
    let huge = vec![0u8; voicebox_machine::tools::LIMITS.module_bytes + 1];
    assert_eq!(
        run_module(&huge, &[], b"").unwrap_err().rule,
        Rule::OverBudget
    );
    let input = vec![0u8; voicebox_machine::tools::LIMITS.input_bytes + 1];
    assert_eq!(
        run_module(
            CREATE_ASSET_WAT.as_bytes(),
            &[Grant::WriteFile, Grant::Note],
            &input
        )
        .unwrap_err()
        .rule,
        Rule::OverBudget
    );
    // A module cannot declare its way past the memory cap.
    let greedy = wat::parse_str(r#"(module (memory (export "memory") 1000) (func (export "alloc") (param i32) (result i32) (i32.const 0)) (func (export "run") (param i32 i32)))"#).unwrap();
    assert_eq!(
        run_module(&greedy, &[], b"").unwrap_err().rule,
        Rule::ResourceExceeded
    );
    let chatty = module(
        OUTPUT,
        "(loop $talk (call $output (i32.const 0) (i32.const 1)) (br $talk))",
    );
    assert_eq!(
        run_module(&chatty, &[Grant::Output], b"").unwrap_err().rule,
        Rule::OverBudget
    );
}

#[test]
fn shelf_is_built_from_source() {
    let manifest: Value =
        serde_json::from_slice(&std::fs::read(repo_shelf().join("manifest.json")).unwrap())
            .unwrap();
    for tool in manifest["tools"].as_array().unwrap() {
        let id = tool["id"].as_str().unwrap();
        let built = wat::parse_file(repo_shelf().join(format!("{id}.wat"))).unwrap();
        let shipped = std::fs::read(repo_shelf().join(tool["file"].as_str().unwrap())).unwrap();
        assert_eq!(
            built, shipped,
            "{id}.wasm is stale: cargo run -p voicebox-machine --example build_shelf"
        );
        let digest = voicebox_core::hex(&Sha256::digest(&shipped));
        assert_eq!(
            tool["sha256"], digest,
            "{id}: cargo run -p voicebox-machine --example build_shelf"
        );
    }
}

#[test]
fn create_asset_wasm_is_built_from_source() {
    let tools = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tools");
    let built = wat::parse_file(tools.join("create-asset.wat")).unwrap();
    let shipped = std::fs::read(tools.join("create-asset.wasm")).unwrap();
    assert_eq!(
        built, shipped,
        "tools/create-asset.wasm is stale: cargo run -p voicebox-machine --example build_shelf"
    );
}

#[test]
fn the_schema_file_agrees_with_the_command_list() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tools/create-asset.schema.json");
    let schema: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    let command = voicebox_core::command::Verb::CreateAsset.command();
    let fields: Vec<&str> = command.params.iter().map(|p| p.field.wire()).collect();
    let required: Vec<&str> = schema["required"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert_eq!(required, fields);
    let kinds: Vec<&str> = schema["properties"]["kind"]["enum"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert_eq!(kinds, voicebox_core::executor::tools::ASSET_KINDS);
    assert_eq!(
        schema["properties"]["name"]["maxLength"],
        command.params[0].max_bytes
    );
    assert_eq!(
        schema["properties"]["body"]["maxLength"],
        command.params[2].max_bytes
    );
    assert_eq!(schema["additionalProperties"], false);
}
