//! What the binary carries for the browser: the page from `web/`, the
//! browser core and create-asset. `serve` serves them; `export-web` writes
//! them out, so they live outside both.

use include_dir::{Dir, include_dir};

pub(crate) static WEB: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/../../web");

/// The browser core, built by build.rs from `crates/web` (empty if the wasm32
/// target was missing at build time).
pub(crate) static BROWSER_CORE: &[u8] =
    include_bytes!(concat!(env!("OUT_DIR"), "/voicebox_web.wasm"));
/// The create-asset module as the browser instantiates it (built from its .wat).
pub(crate) static CREATE_ASSET_WASM: &[u8] = include_bytes!("../../../tools/create-asset.wasm");

/// Files the environment page loads besides `web/env/`.
pub(crate) fn env_extras() -> [(&'static str, &'static [u8]); 2] {
    [
        ("voicebox_web.wasm", BROWSER_CORE),
        ("create-asset.wasm", CREATE_ASSET_WASM),
    ]
}
