//! The same flow with a client no one here wrote: the official MCP Python
//! SDK (`mcp` on PyPI), driven by `tools/mcp-compare.py flow`. The SDK
//! lives in a virtual environment `./scripts/test` makes
//! (`VOICEBOX_MCP_VENV`, default `~/.local/share/voicebox/mcp-venv`).

use std::path::PathBuf;
use std::process::Command;
use voicebox_test_support::{present_or_skip, workspace};

/// The virtual environment's interpreter.
fn python() -> PathBuf {
    let venv = std::env::var_os("VOICEBOX_MCP_VENV")
        .map(PathBuf::from)
        .or_else(|| dirs::home_dir().map(|home| home.join(".local/share/voicebox/mcp-venv")))
        .unwrap_or_default();
    venv.join("bin/python")
}

#[test]
fn the_official_python_sdk_runs_the_whole_flow() {
    let python = python();
    let has_sdk = Command::new(&python)
        .args(["-c", "import mcp"])
        .output()
        .is_ok_and(|out| out.status.success());
    if !present_or_skip(
        has_sdk,
        "the MCP Python SDK in a virtual environment",
        "python3 -m venv ~/.local/share/voicebox/mcp-venv && its pip install mcp==2.3.0",
    ) {
        return;
    }
    let out = Command::new(&python)
        .arg(workspace().join("tools/mcp-compare.py"))
        .args(["flow", env!("CARGO_BIN_EXE_voicebox")])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    let failed: Vec<&str> = stdout
        .lines()
        .filter(|l| l.contains("\"ok\": false"))
        .collect();
    assert!(failed.is_empty(), "{failed:?}");
    assert!(stdout.contains(" passed, 0 failed"), "{stdout}");
}
