//! The core stays a library. Its dependencies are an explicit
//! allow-list read from `cargo metadata`, and it builds for the browser's
//! target, `wasm32-unknown-unknown`.

use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::process::Command;

/// Crates the core may depend on (normal dependencies, transitively): serde
/// and serde_json with `alloc`, serde_with's attribute macros (no runtime
/// part: `default-features = false`), sha2 and the RustCrypto helpers it
/// needs. The proc-macro crates (serde_derive, serde_with_macros and darling
/// with theirs) only run at build time.
const ALLOWED: &[&str] = &[
    "voicebox-core", "serde", "serde_core", "serde_derive", "serde_json", "itoa", "ryu", "zmij",
    "memchr", "proc-macro2", "quote", "syn", "unicode-ident", "sha2", "digest", "block-buffer",
    "crypto-common", "generic-array", "typenum", "version_check", "cpufeatures", "libc", "cfg-if",
    "serde_with", "serde_with_macros", "darling", "darling_core", "darling_macro", "ident_case",
    "strsim",
];

#[test]
fn the_core_depends_only_on_the_allow_list() {
    let out = voicebox_test_support::succeed(
        Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
            .args(["metadata", "--format-version", "1"])
            .current_dir(env!("CARGO_MANIFEST_DIR")),
    );
    let meta: Value = serde_json::from_slice(&out.stdout).unwrap();
    let names: BTreeMap<&str, &str> = meta["packages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["id"].as_str().unwrap(), p["name"].as_str().unwrap()))
        .collect();
    let nodes: BTreeMap<&str, &Value> = meta["resolve"]["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| (n["id"].as_str().unwrap(), n))
        .collect();
    let root = names
        .iter()
        .find(|(_, n)| **n == "voicebox-core")
        .unwrap()
        .0;
    let (mut seen, mut todo) = (BTreeSet::new(), vec![*root]);
    while let Some(id) = todo.pop() {
        if !seen.insert(id) {
            continue;
        }
        for dep in nodes[id]["deps"].as_array().unwrap() {
            // Only normal and build dependencies reach the built core.
            let shipped = dep["dep_kinds"]
                .as_array()
                .unwrap()
                .iter()
                .any(|k| k["kind"] != "dev");
            if shipped {
                todo.push(dep["pkg"].as_str().unwrap());
            }
        }
    }
    let outside: Vec<&str> = seen
        .iter()
        .map(|id| names[id])
        .filter(|n| !ALLOWED.contains(n))
        .collect();
    assert!(
        outside.is_empty(),
        "the core depends on crates outside the allow-list: {outside:?}"
    );
    assert!(
        seen.iter().any(|id| names[id] == "serde_json"),
        "the walk found the real dependencies"
    );
}

#[test]
fn the_core_is_no_std() {
    let lib = include_str!("../src/lib.rs");
    assert!(lib.contains("#![no_std]"));
    // No module reaches for std behind the attribute's back.
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut stack = vec![src];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let text = std::fs::read_to_string(&path).unwrap();
                assert!(!text.contains("std::"), "{} names std", path.display());
            }
        }
    }
}

#[test]
fn the_core_builds_for_wasm32() {
    if !voicebox_test_support::wasm32_or_skip() {
        return;
    }
    if let Err(why) = voicebox_test_support::build_wasm32(
        "voicebox-core",
        voicebox_test_support::Profile::Dev,
        "wasm-check",
    ) {
        panic!("{why}");
    }
}
