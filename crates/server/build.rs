//! Embeds what the binary serves: the page in `web/` (rebuilt when it changes)
//! and the browser core, `voicebox_web.wasm`, built here from `crates/web`
//! for `wasm32-unknown-unknown` (the same artifact `crates/web`'s tests run).
//! Without the wasm32 target the server still builds; `/environment` then
//! says how to add it.

use std::path::PathBuf;
use std::process::Command;

fn main() {
    let workspace = voicebox_test_support::workspace();
    for watched in [
        "web", "crates/web/src", "crates/core/src", "crates/web/Cargo.toml",
        "crates/core/Cargo.toml",
    ] {
        println!(
            "cargo:rerun-if-changed={}",
            workspace.join(watched).display()
        );
    }
    // Rebuild once the wasm32 target appears (a missing path counts as changed),
    // so a binary first built without it does not keep an empty core.
    if let Some(sysroot) = sysroot() {
        let target = sysroot
            .join("lib/rustlib")
            .join(voicebox_test_support::WASM32);
        println!("cargo:rerun-if-changed={}", target.display());
    }
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap()).join("voicebox_web.wasm");
    match voicebox_test_support::build_browser_core() {
        Ok(path) => {
            std::fs::copy(path, &out).unwrap();
        }
        Err(why) => {
            let why = why.lines().last().unwrap_or("");
            println!(
                "cargo:warning=the browser core was not built ({why}); /environment will say so"
            );
            std::fs::write(&out, b"").unwrap();
        }
    }
}

/// The active toolchain's sysroot, where installed targets live.
fn sysroot() -> Option<PathBuf> {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let out = Command::new(rustc)
        .args(["--print", "sysroot"])
        .output()
        .ok()?;
    Some(PathBuf::from(String::from_utf8(out.stdout).ok()?.trim()))
}
