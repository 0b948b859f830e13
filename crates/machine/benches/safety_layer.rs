//! What the safety layer costs, each figure beside the floor it is measured
//! against in the same run (results in docs/PERFORMANCE.md):
//!
//! - the script resolver, per utterance over the dev set;
//! - a tier-table decision and the lexical containment check;
//! - an executor write turn on folder storage vs the bare-I/O floor (the same
//!   writes and sync points as a durable turn, done directly);
//! - a create-asset call (fresh instance per call, as in production) vs a
//!   fresh `node` process per call instantiating and running the same module
//!   (the mechanism the original system used). Skipped if `node` is missing;
//! - a shelf call (`wc` from the shipped shelf through the runner: manifest
//!   read, bytes re-hashed, fresh instance), the path every shelf call takes.
//!
//! Run: `cargo bench -p voicebox-machine --bench safety_layer`.

use criterion::{Criterion, criterion_group, criterion_main};
use serde_json::json;
use std::hint::black_box;
use std::io::Write;
use std::path::Path;
use voicebox_core::contain::resolve_inside_root;
use voicebox_core::platform::ToolRunner;
use voicebox_core::resolver::resolve;
use voicebox_core::tier::{Act, ActKind, Placement, TierTable};
use voicebox_machine::Host;
use voicebox_machine::tools::Tools;
use voicebox_machine::tools::{CREATE_ASSET_WAT, Grant, compile};

/// Every sentence of the dev set (the core's test data).
fn dev_set() -> Vec<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../core/tests/dev-set.yaml");
    let yaml: serde_yaml_ng::Value =
        serde_yaml_ng::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    yaml["cases"]
        .as_sequence()
        .unwrap()
        .iter()
        .flat_map(|case| case["sentences"].as_sequence().unwrap().iter())
        .map(|s| s.as_str().unwrap().to_string())
        .collect()
}

fn resolver(c: &mut Criterion) {
    let sentences = dev_set();
    c.bench_function(
        &format!("resolver/dev set ({} utterances)", sentences.len()),
        |b| {
            b.iter(|| {
                for sentence in &sentences {
                    black_box(resolve(black_box(sentence)));
                }
            })
        },
    );
}

fn policy(c: &mut Criterion) {
    let table = TierTable::load(Placement::Machine).unwrap();
    let act = Act::inside(ActKind::Write);
    c.bench_function("policy/tier decision", |b| {
        b.iter(|| black_box(table.decide(black_box(&act))))
    });
    c.bench_function("policy/containment (lexical)", |b| {
        b.iter(|| black_box(resolve_inside_root(black_box("drafts/2026/plan.md"))))
    });
}

fn write_turn(c: &mut Criterion) {
    let dir = tempfile::TempDir::new().unwrap();
    let root = dir.path().join("root");
    std::fs::create_dir(&root).unwrap();
    let mut host = Host::new("bench", ());
    host.declare(&root).unwrap();
    let action = json!({"verb": "write", "name": "notes.md", "content": "Buy milk and bread\n"});
    let mut group = c.benchmark_group("write turn");
    group.bench_function("executor (folder storage)", |b| {
        b.iter(|| assert!(host.execute(black_box(&action), Some("bench")).ok))
    });
    // The floor: the same sync points as the durable turn, with no checks —
    // attempt line, prior bytes kept in a new file (its folder synced) and an
    // index line, the file through a synced temporary and a rename (its folder
    // synced), outcome line.
    let floor = dir.path().join("floor");
    std::fs::create_dir_all(floor.join("undo")).unwrap();
    let append = |name: &str| {
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(floor.join(name))
            .unwrap()
    };
    let (mut log, mut index) = (append("audit.jsonl"), append("undo/index.jsonl"));
    let sync_dir = |path: &Path| std::fs::File::open(path).unwrap().sync_all().unwrap();
    let synced = |file: &mut std::fs::File, bytes: &[u8]| {
        file.write_all(bytes).unwrap();
        file.sync_data().unwrap();
    };
    let line = format!("{}\n", "x".repeat(300));
    let mut n = 0u64;
    group.bench_function("bare I/O floor", |b| {
        b.iter(|| {
            n += 1;
            synced(&mut log, line.as_bytes());
            let prior = std::fs::read(floor.join("notes.md")).unwrap_or_default();
            synced(&mut append(&format!("undo/{n}.bin")), &prior);
            sync_dir(&floor.join("undo"));
            synced(&mut index, line.as_bytes());
            synced(&mut append("undo/tmp"), b"Buy milk and bread\n");
            std::fs::rename(floor.join("undo/tmp"), floor.join("notes.md")).unwrap();
            sync_dir(&floor);
            synced(&mut log, line.as_bytes());
        })
    });
    group.finish();
}

fn tool_call(c: &mut Criterion) {
    let tool = compile(CREATE_ASSET_WAT.as_bytes()).unwrap();
    let input = b"svg\nassets/logo.svg\n<svg xmlns='http://www.w3.org/2000/svg'/>";
    let mut group = c.benchmark_group("create-asset call");
    group.bench_function("wasmi, fresh instance per call", |b| {
        b.iter(|| {
            black_box(
                tool.run(&[Grant::WriteFile, Grant::Note], black_box(input))
                    .unwrap(),
            )
        })
    });
    let wasm = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tools/create-asset.wasm");
    let script = format!(
        "const b=require('fs').readFileSync({wasm:?});let w=[];WebAssembly.instantiate(b,{{env:{{writeFile:(a,b,c,d)=>w.push(1),note:()=>0}}}}).then(({{instance:i}})=>{{const t=Buffer.from({input:?});const p=i.exports.alloc(t.length);new Uint8Array(i.exports.memory.buffer,p,t.length).set(t);i.exports.run(p,t.length);if(w.length!==1)process.exit(1)}})",
        input = String::from_utf8_lossy(input)
    );
    if std::process::Command::new("node")
        .arg("--version")
        .output()
        .is_ok()
    {
        group.sample_size(10);
        group.bench_function("fresh node process per call", |b| {
            b.iter(|| {
                let status = std::process::Command::new("node")
                    .args(["-e", &script])
                    .status()
                    .unwrap();
                assert!(status.success());
            })
        });
    } else {
        eprintln!("!!! node is missing: the fresh-process comparison is skipped");
    }
    group.finish();
}

fn shelf_call(c: &mut Criterion) {
    let shelf = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tools/shelf");
    let tools = Tools::new(Some(shelf));
    let input = "one two three\nfour five\n".repeat(64);
    c.bench_function("shelf call/wc, re-hashed, fresh instance", |b| {
        b.iter(|| {
            black_box(pollster::block_on(tools.run("wc", black_box(input.as_bytes()))).unwrap())
        })
    });
}

criterion_group!(benches, resolver, policy, write_turn, tool_call, shelf_call);
criterion_main!(benches);
