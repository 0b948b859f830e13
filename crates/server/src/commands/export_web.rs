//! `voicebox export-web`: the environment page (the browser placement) as a
//! static folder, with the browser core and create-asset beside it; the
//! folder's index points at `env/`.

use crate::assets;
use serde_json::json;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use voicebox_core::Reply;
use voicebox_core::rule::{Refusal, Rule};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The folder to write; serve it with any static file server and open `env/`.
    pub dir: PathBuf,
}

pub fn run(args: Args) -> ExitCode {
    println!("{}", export(&args.dir));
    ExitCode::SUCCESS
}

fn export(dir: &Path) -> serde_json::Value {
    if assets::BROWSER_CORE.is_empty() {
        return json!(Reply::refusal(Refusal::new(
            Rule::ToolUnavailable,
            "this binary was built without the browser core; run `rustup target add wasm32-unknown-unknown` and rebuild",
        )));
    }
    let written = (|| -> std::io::Result<()> {
        std::fs::create_dir_all(dir.join("env"))?;
        assets::WEB.extract(dir)?;
        for (name, bytes) in assets::env_extras() {
            std::fs::write(dir.join("env").join(name), bytes)?;
        }
        let index = "<!doctype html><meta charset=\"utf-8\"><meta http-equiv=\"refresh\" content=\"0; url=env/\"><link rel=\"icon\" href=\"favicon.svg\" type=\"image/svg+xml\"><title>Voicebox</title><a href=\"env/\">Voicebox</a>\n";
        std::fs::write(dir.join("index.html"), index)
    })();
    match written {
        Ok(()) => {
            json!({"ok": true, "dir": dir, "open": "env/index.html", "note": "serve this folder with any static file server (http://127.0.0.1 or https) and open env/"})
        }
        Err(e) => json!(Reply::refusal(Refusal::new(
            Rule::StorageFailed,
            format!("the folder cannot be written: {e}")
        ))),
    }
}
