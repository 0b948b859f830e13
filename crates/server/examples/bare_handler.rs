//! The floor for the HTTP load test (issue 7): an axum handler on 127.0.0.1
//! that does what a write turn does to the disk — the file write (temp file +
//! rename) and two audit-line appends — with none of the safety layer. The
//! load script drives it and `voicebox serve` with the same wrk script.
//!
//! `cargo run --release -p voicebox --example bare_handler -- <dir> <port>`

use axum::Router;
use axum::body::Bytes;
use axum::routing::post;
use std::io::Write;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

#[tokio::main]
async fn main() {
    let mut args = std::env::args().skip(1);
    let dir = PathBuf::from(args.next().expect("a folder"));
    let port: u16 = args.next().map_or(0, |p| p.parse().expect("a port"));
    let log = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(dir.join("audit.jsonl"))
        .unwrap();
    let log = Arc::new(Mutex::new(log));
    let app = Router::new().route(
        "/api/turn",
        post(move |body: Bytes| {
            let (dir, log) = (dir.clone(), log.clone());
            async move {
                tokio::task::spawn_blocking(move || {
                    let value: serde_json::Value = serde_json::from_slice(&body).unwrap();
                    let name = value["action"]["name"]
                        .as_str()
                        .unwrap_or("f.txt")
                        .to_string();
                    let content = value["action"]["content"]
                        .as_str()
                        .unwrap_or("")
                        .to_string();
                    let line = format!("{}\n", "x".repeat(300));
                    let mut log = log.lock().unwrap();
                    log.write_all(line.as_bytes()).unwrap();
                    let tmp = dir.join(format!(".{name}.tmp"));
                    std::fs::write(&tmp, content).unwrap();
                    std::fs::rename(&tmp, dir.join(&name)).unwrap();
                    log.write_all(line.as_bytes()).unwrap();
                })
                .await
                .unwrap();
                "{\"ok\":true}"
            }
        }),
    );
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port))
        .await
        .unwrap();
    println!(
        "listening on http://127.0.0.1:{}",
        listener.local_addr().unwrap().port()
    );
    axum::serve(listener, app).await.unwrap();
}
