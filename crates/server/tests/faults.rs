//! Faults the log must survive (issue 7): the server is killed with SIGKILL
//! in the middle of a write storm and started again on the same folder.
//! Afterwards every attempt has exactly one completion (its outcome, or one
//! `lost` entry from the restart's sweep), no line is torn past a reader, no
//! seq repeats, no file is half-written, and every write acknowledged before
//! the kill is on disk and recorded `ok`.

mod common;

use common::Server;
use serde_json::{Value, json};
use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The content of write number `n` of writer `w`: large enough that a torn
/// write would show, and self-describing so a check can recognise it.
fn content(w: usize, n: usize) -> String {
    format!("writer {w} write {n}\n{}", "x".repeat(4096))
}

#[tokio::test]
async fn kill_9_during_a_write_storm_loses_nothing_acknowledged() {
    let server = Server::start();
    let (writers, per_writer) = (16usize, 400usize);
    // The last acknowledged write of each writer, and the one in flight.
    let acked: Arc<Mutex<HashMap<usize, usize>>> = Arc::default();
    let client = reqwest::Client::new();
    let mut tasks = Vec::new();
    for w in 0..writers {
        let (client, url, origin, acked) = (
            client.clone(),
            server.url("/api/turn"),
            server.origin(),
            acked.clone(),
        );
        tasks.push(tokio::spawn(async move {
            for n in 0..per_writer {
                let action =
                    json!({"verb": "write", "name": format!("w{w}.txt"), "content": content(w, n)});
                let sent = client
                    .post(&url)
                    .header("origin", &origin)
                    .json(&json!({"action": action}))
                    .send()
                    .await;
                let Ok(response) = sent else { return };
                let Ok(reply) = response.json::<Value>().await else {
                    return;
                };
                assert_eq!(reply["result"]["ok"], true, "{reply}");
                acked.lock().unwrap().insert(w, n);
            }
        }));
    }
    tokio::time::sleep(Duration::from_millis(400)).await;
    let root = server.root.clone();
    let server = server.crash_and_restart();
    for task in tasks {
        let _ = task.await;
    }
    let acked = acked.lock().unwrap().clone();
    assert!(
        acked.values().any(|&n| n > 0),
        "the storm was running when the server died"
    );

    let (_, audit) = server.get("/api/audit").await;
    assert_eq!(audit["ok"], true);
    for file in audit["files"].as_array().unwrap() {
        assert!(
            file["corrupt"].as_array().is_none_or(|c| c.len() <= 1),
            "at most the one torn fragment: {file}"
        );
    }
    let entries = audit["entries"].as_array().unwrap();
    let mut seqs = std::collections::BTreeSet::new();
    let mut completions: BTreeMap<u64, usize> = BTreeMap::new();
    for entry in entries {
        assert!(
            seqs.insert(entry["seq"].as_u64().unwrap()),
            "seq {} repeats",
            entry["seq"]
        );
        if let Some(attempt) = entry["attempt"].as_u64() {
            *completions.entry(attempt).or_default() += 1;
        }
    }
    let mut lost = 0;
    for entry in entries.iter().filter(|e| e["decision"] == "attempt") {
        let seq = entry["seq"].as_u64().unwrap();
        assert_eq!(
            completions.get(&seq),
            Some(&1),
            "attempt {seq} has exactly one completion"
        );
    }
    for entry in entries.iter().filter(|e| e["decision"] == "lost") {
        lost += 1;
        assert_eq!(entry["result"], "lost");
    }
    assert!(
        lost <= writers,
        "at most one write per writer was in flight: {lost} lost"
    );
    println!(
        "{} entries, {lost} lost, {} writes acknowledged before the kill",
        entries.len(),
        acked.values().map(|n| n + 1).sum::<usize>()
    );

    // No half-written file, and every acknowledged write is there (or the
    // write after it, which completed on disk though its answer was lost).
    for w in 0..writers {
        let text = std::fs::read_to_string(root.join(format!("w{w}.txt"))).unwrap_or_default();
        let Some(&n) = acked.get(&w) else { continue };
        assert!(
            text == content(w, n) || text == content(w, n + 1),
            "w{w}.txt is whole and at least write {n}"
        );
    }
    // The restarted server serves as usual.
    assert_eq!(server.say("list files").await["result"]["ok"], true);
}
