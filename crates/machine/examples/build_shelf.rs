//! Builds the tools from source: compiles each `tools/shelf/<id>.wat` to
//! `<id>.wasm` and pins its sha256 in `tools/shelf/manifest.json`, and
//! compiles `tools/create-asset.wat` to the `create-asset.wasm` the browser
//! worker instantiates (browsers take binary modules only).
//!
//! Run after changing a tool: `cargo run -p voicebox-machine --example build_shelf`.
//! The tests `shelf_is_built_from_source` and `create_asset_wasm_is_built_from_source`
//! fail until you do.

use serde_json::Value;
use sha2::{Digest, Sha256};
use std::path::Path;

fn main() {
    let shelf = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tools/shelf");
    let manifest_path = shelf.join("manifest.json");
    let mut manifest: Value =
        serde_json::from_slice(&std::fs::read(&manifest_path).unwrap()).unwrap();
    for tool in manifest["tools"].as_array_mut().unwrap() {
        let id = tool["id"].as_str().unwrap().to_string();
        let wasm = wat::parse_file(shelf.join(format!("{id}.wat"))).unwrap();
        std::fs::write(shelf.join(format!("{id}.wasm")), &wasm).unwrap();
        let digest = voicebox_core::hex(&Sha256::digest(&wasm));
        println!("{id}: {} bytes, sha256 {digest}", wasm.len());
        tool["file"] = format!("{id}.wasm").into();
        tool["sha256"] = digest.into();
    }
    let tools = shelf.join("..");
    let asset = wat::parse_file(tools.join("create-asset.wat")).unwrap();
    std::fs::write(tools.join("create-asset.wasm"), &asset).unwrap();
    println!("create-asset: {} bytes", asset.len());
    let mut text = serde_json::to_string_pretty(&manifest).unwrap();
    text.push('\n');
    std::fs::write(manifest_path, text).unwrap();
}
