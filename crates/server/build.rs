//! Embeds what the binary serves: the page in `web/` (rebuilt when it changes)
//! and the browser core, `voicebox_web.wasm`, built here from `crates/web`
//! for `wasm32-unknown-unknown` (the same artifact `crates/web`'s tests run).
//! Without the wasm32 target the server still builds; `/environment` then
//! says how to add it.

use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
    let workspace = manifest.join("../..");
    for watched in [
        "web",
        "crates/web/src",
        "crates/core/src",
        "crates/web/Cargo.toml",
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
        let target = sysroot.join("lib/rustlib/wasm32-unknown-unknown");
        println!("cargo:rerun-if-changed={}", target.display());
    }
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap()).join("voicebox_web.wasm");
    let built = build_browser_core(&workspace);
    match built {
        Ok(path) => {
            std::fs::copy(path, &out).unwrap();
        }
        Err(why) => {
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

fn build_browser_core(workspace: &Path) -> Result<PathBuf, String> {
    let installed = Command::new("rustup")
        .args(["target", "list", "--installed"])
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).contains("wasm32-unknown-unknown"))
        .unwrap_or(false);
    if !installed {
        return Err("rustup target add wasm32-unknown-unknown".into());
    }
    let target_dir = workspace.join("target/wasm-web");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut command = Command::new(cargo);
    command
        .args([
            "build",
            "-p",
            "voicebox-web",
            "--release",
            "--target",
            "wasm32-unknown-unknown",
            "--target-dir",
        ])
        .arg(&target_dir)
        .current_dir(workspace);
    // The outer build's settings are for the host, not for this nested build.
    for (key, _) in std::env::vars() {
        if key.starts_with("CARGO_") && key != "CARGO_HOME" && key != "CARGO_MAKEFLAGS"
            || key == "RUSTFLAGS"
            || key == "RUSTC_WRAPPER"
        {
            command.env_remove(key);
        }
    }
    let output = command.output().map_err(|e| e.to_string())?;
    if !output.status.success() {
        return Err(String::from_utf8_lossy(&output.stderr)
            .lines()
            .last()
            .unwrap_or("")
            .to_string());
    }
    Ok(target_dir.join("wasm32-unknown-unknown/release/voicebox_web.wasm"))
}
