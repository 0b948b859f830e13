//! The floor for the HTTP load test: an axum handler on 127.0.0.1
//! that does what a durable write turn does to the disk, with the same sync
//! points — the attempt line appended and synced, the file about to be
//! replaced kept by a second name (its data and that folder synced) and an
//! index line synced, the file written to a synced temporary and renamed,
//! its folder synced, and the outcome line appended and synced — with none
//! of the safety layer. The load script drives it and `voicebox serve` with
//! the same wrk script.
//!
//! `cargo run --release -p voicebox --example bare_handler -- <dir> <port>`

use axum::Router;
use axum::body::Bytes;
use axum::routing::post;
use std::io::Write;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

/// A fresh name for a kept blob (unique within this process).
fn rand_id() -> String {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    format!(
        "{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    )
}

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
    std::fs::create_dir_all(dir.join("undo")).unwrap();
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
                    let synced_append = |file: &mut std::fs::File, bytes: &[u8]| {
                        file.write_all(bytes).unwrap();
                        file.sync_data().unwrap();
                    };
                    let sync_dir = |path: &std::path::Path| {
                        std::fs::File::open(path).unwrap().sync_all().unwrap();
                    };
                    synced_append(&mut log, line.as_bytes());
                    let undo = dir.join("undo");
                    let blob = undo.join(format!("{}.bin", rand_id()));
                    if std::fs::hard_link(dir.join(&name), &blob).is_ok() {
                        std::fs::File::open(&blob).unwrap().sync_data().unwrap();
                        sync_dir(&undo);
                    }
                    let mut index = std::fs::OpenOptions::new()
                        .create(true)
                        .append(true)
                        .open(undo.join("index.jsonl"))
                        .unwrap();
                    synced_append(&mut index, line.as_bytes());
                    let tmp = undo.join(format!("{name}.tmp"));
                    let mut staged = std::fs::File::create(&tmp).unwrap();
                    synced_append(&mut staged, content.as_bytes());
                    std::fs::rename(&tmp, dir.join(&name)).unwrap();
                    sync_dir(&dir);
                    synced_append(&mut log, line.as_bytes());
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
