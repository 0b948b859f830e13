//! Cost against log length (docs/PERFORMANCE.md, "Audit at scale"): write-turn
//! throughput and boot with 0 / 50k / 150k lines already in the log, and the
//! first and a later page of the audit, and the check of every line
//! (`verify_audit`), at 1k / 100k / 1M entries.
//! `cargo run --release -p voicebox-machine --example audit_scale`
//! (`-- quick` for 0 / 5k and 1k / 10k). Reports figures; checks nothing.

use serde_json::json;
use std::io::Write;
use std::path::Path;
use std::time::Instant;
use voicebox_core::audit::chain::line_hash;
use voicebox_core::audit::page::{DEFAULT_LIMIT, PageRequest};
use voicebox_core::audit::{self, ActRecord, Context, Entry, Happened};
use voicebox_core::tier::ActKind;
use voicebox_machine::{Host, RootOptions};

/// Writes `n` chained, completed entries as the writer would have.
fn prefill(root: &Path, instance: &str, n: u64) {
    let real = std::fs::canonicalize(root).unwrap();
    let root_text = real.to_string_lossy().into_owned();
    let name = audit::file_name(instance, &root_text);
    std::fs::create_dir_all(root.join(".audit")).unwrap();
    let file = std::fs::File::create(root.join(".audit").join(&name)).unwrap();
    let mut out = std::io::BufWriter::new(file);
    let mut prev = audit::chain::genesis(&name);
    for seq in 1..=n {
        let context = Context {
            instance: instance.into(),
            project: "bench@machine".into(),
            root: root_text.clone(),
            turn: Some("bench".into()),
            at: "2026-01-01T00:00:00.000Z".into(),
        };
        let wrote = Happened::Allowed {
            rule: voicebox_core::Rule::WritesInside,
            observed: None,
            read: None,
        };
        let entry = Entry::new(context, ActRecord::new(ActKind::Write, "notes.md"), wrote);
        let line = entry.sealed(seq, prev, None).line();
        prev = line_hash(line.as_bytes());
        out.write_all(line.as_bytes()).unwrap();
    }
    out.flush().unwrap();
}

fn options(state: &Path) -> RootOptions {
    RootOptions {
        anchors: Some(state.join("anchors")),
        ..RootOptions::default()
    }
}

fn write_turns(existing: u64, turns: usize) {
    let dir = tempfile::TempDir::new().unwrap();
    let state = tempfile::TempDir::new().unwrap();
    prefill(dir.path(), "bench", existing);
    let mut host = Host::new("bench", ());
    let boot = Instant::now();
    host.declare_with(dir.path(), options(state.path()))
        .unwrap();
    let boot = boot.elapsed();
    let action = json!({"verb": "write", "name": "notes.md", "content": "Buy milk\n"});
    let start = Instant::now();
    for _ in 0..turns {
        assert!(host.execute(&action, Some("bench")).ok);
    }
    let took = start.elapsed();
    println!(
        "write turns | {existing:>7} lines | boot {:>8.2} ms | {:>7.1} turns/s | {:>6.2} ms/turn",
        boot.as_secs_f64() * 1e3,
        turns as f64 / took.as_secs_f64(),
        took.as_secs_f64() * 1e3 / turns as f64
    );
}

fn pages(entries: u64) {
    let dir = tempfile::TempDir::new().unwrap();
    let state = tempfile::TempDir::new().unwrap();
    prefill(dir.path(), "bench", entries);
    let mut host = Host::new("reader", ());
    let read_only = RootOptions {
        audit_at_first_append: true,
        ..options(state.path())
    };
    host.declare_with(dir.path(), read_only).unwrap();
    let start = Instant::now();
    let first = host.audit(&PageRequest::first(DEFAULT_LIMIT)).unwrap();
    let first_ms = start.elapsed().as_secs_f64() * 1e3;
    let first_bytes = serde_json::to_vec(&first).unwrap().len();
    let next = PageRequest::new(first.next.as_deref(), None).unwrap();
    let start = Instant::now();
    let second = host.audit(&next).unwrap();
    let next_ms = start.elapsed().as_secs_f64() * 1e3;
    let next_bytes = serde_json::to_vec(&second).unwrap().len();
    let start = Instant::now();
    let check = host.verify_audit().unwrap();
    let verify_ms = start.elapsed().as_secs_f64() * 1e3;
    let verify_bytes = serde_json::to_vec(&check).unwrap().len();
    println!(
        "audit page  | {entries:>7} entries | first {first_ms:>7.2} ms {first_bytes:>7} B | next {next_ms:>6.2} ms {next_bytes:>7} B | verify {verify_ms:>9.2} ms {verify_bytes:>5} B"
    );
}

fn main() {
    let quick = std::env::args().any(|a| a == "quick");
    let (lines, sizes): (&[u64], &[u64]) = match quick {
        true => (&[0, 5_000], &[1_000, 10_000]),
        false => (&[0, 50_000, 150_000], &[1_000, 100_000, 1_000_000]),
    };
    for &n in lines {
        write_turns(n, 200);
    }
    for &n in sizes {
        pages(n);
    }
}
