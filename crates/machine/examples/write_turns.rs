//! A fixed number of write turns through the executor on folder storage, for
//! profiling where a turn's time goes (docs/PERFORMANCE.md):
//! `valgrind --tool=callgrind target/release/examples/write_turns 300`.

use serde_json::json;
use voicebox_machine::Host;

fn main() {
    let turns: usize = std::env::args()
        .nth(1)
        .map_or(300, |n| n.parse().expect("a count"));
    let dir = tempfile::TempDir::new().unwrap();
    let mut host = Host::new("profile", ());
    host.declare(dir.path()).unwrap();
    let action = json!({"verb": "write", "name": "notes.md", "content": "Buy milk and bread\n"});
    for _ in 0..turns {
        assert!(host.execute(&action, Some("profile")).ok);
    }
}
