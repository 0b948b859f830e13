//! What the workspace's tests share that is not about Voicebox itself: a free
//! local port, a file put in a test's tree, the wasm32 build of a workspace
//! crate, running a command that must succeed, and the one rule for a tool the
//! machine may lack.
//!
//! The rule: a test that needs an external tool (Chromium, chromedriver,
//! espeak-ng, pocketsphinx, the wasm32 target, …) may skip itself only outside
//! CI and only loudly, on stderr. Under CI (the `CI` variable set) a missing
//! tool fails the test, because `./scripts/test` installs every one of them.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The target the browser worker's core is built for.
pub const WASM32: &str = "wasm32-unknown-unknown";

/// Whether a test may go on: `present` as given, after a loud skip message
/// naming what is `needed` and `how` to get it when it is not. Panics under CI
/// instead of skipping.
pub fn present_or_skip(present: bool, needed: &str, how: &str) -> bool {
    if !present {
        missing(needed, how, "SKIPPED");
    }
    present
}

/// Says loudly on stderr that `needed` is missing here and what the test
/// does `instead`, and how to get it. Panics under CI, which must have it.
pub fn missing(needed: &str, how: &str, instead: &str) {
    assert!(
        std::env::var_os("CI").is_none(),
        "CI must have {needed} (./scripts/test installs it: {how})"
    );
    eprintln!("\n!!! {instead}: this test needs {needed} ({how}) !!!\n");
}

/// Writes `contents` to the file `name` below `root`, making the folders it
/// is in: a test's tree, one line a file.
pub fn put_file(root: &Path, name: &str, contents: impl AsRef<[u8]>) {
    let path = root.join(name);
    let folder = path.parent().expect("a file is in a folder");
    std::fs::create_dir_all(folder).unwrap_or_else(|e| panic!("making {}: {e}", folder.display()));
    std::fs::write(&path, contents).unwrap_or_else(|e| panic!("writing {}: {e}", path.display()));
}

/// Every file in `root`'s audit folder (`.audit`), in the order the folder
/// lists them; panics where there is no such folder.
pub fn audit_files(root: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(root.join(".audit"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .collect()
}

/// A local TCP port nothing listens on at the moment of asking.
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// The workspace's root folder.
pub fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The outer build's target folder: an absolute `CARGO_TARGET_DIR`, or the
/// workspace's `target`.
fn target() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .filter(|dir| dir.is_absolute())
        .unwrap_or_else(|| workspace().join("target"))
}

/// The command's output; panics with its stderr when it did not succeed.
pub fn succeed(command: &mut Command) -> Output {
    let out = command.output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// Whether rustup has the wasm32 target installed.
pub fn wasm32_installed() -> bool {
    Command::new("rustup")
        .args(["target", "list", "--installed"])
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).contains(WASM32))
}

/// [`wasm32_installed`], skipping loudly unless CI when it is not.
pub fn wasm32_or_skip() -> bool {
    present_or_skip(
        wasm32_installed(),
        "the wasm32-unknown-unknown target",
        "rustup target add wasm32-unknown-unknown",
    )
}

/// Which cargo profile a wasm32 build uses.
#[derive(Clone, Copy)]
pub enum Profile {
    Dev,
    Release,
}

/// Builds `package` for wasm32 into `<dir>` beside the outer build's target
/// folder and answers the folder its artifacts are in. The target dir is its own, so the
/// nested build never waits on the outer build's lock; the outer build's
/// settings are for the host, so they are left out of this one. The error
/// says how to add a missing target, or is what cargo printed.
pub fn build_wasm32(package: &str, profile: Profile, dir: &str) -> Result<PathBuf, String> {
    if !wasm32_installed() {
        return Err(format!("rustup target add {WASM32}"));
    }
    let workspace = workspace();
    let target_dir = target().join(dir);
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut command = Command::new(cargo);
    command.args(["build", "-p", package, "--target", WASM32]);
    if let Profile::Release = profile {
        command.arg("--release");
    }
    command
        .arg("--target-dir")
        .arg(&target_dir)
        .current_dir(&workspace);
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
        return Err(String::from_utf8_lossy(&output.stderr).into_owned());
    }
    let profile = match profile {
        Profile::Dev => "debug",
        Profile::Release => "release",
    };
    Ok(target_dir.join(WASM32).join(profile))
}

/// The browser core, `voicebox_web.wasm`: `voicebox-web` built for wasm32
/// with the release profile (what the server embeds and the page loads).
pub fn build_browser_core() -> Result<PathBuf, String> {
    build_wasm32("voicebox-web", Profile::Release, "wasm-web")
        .map(|dir| dir.join("voicebox_web.wasm"))
}
