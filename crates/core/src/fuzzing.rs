//! Invariants the fuzz targets (`fuzz/`) check on arbitrary input, and that
//! `tests/fuzz_regressions.rs` replays for every input a fuzzer ever crashed
//! on. Each function panics when an invariant breaks; that is the finding.

use crate::action::Action;
use crate::contain::{check_visible, resolve_inside_root};
use crate::resolver::{Resolution, resolve};
use crate::rule::Rule;
use alloc::string::String;

/// Containment: whatever the name, an accepted path is inside, literal and
/// stable; a refusal names a containment rule.
pub fn containment(name: &str) {
    match resolve_inside_root(name) {
        Ok(path) => {
            let text = path.as_str();
            assert!(!text.starts_with('/'), "absolute: {name:?}");
            assert!(
                !text.split('/').any(|s| s == ".." || s == "."),
                "dot segment kept: {name:?}"
            );
            assert!(
                !text.contains('\\') && !text.chars().any(char::is_control),
                "{name:?}"
            );
            assert!(!text.contains("//"), "empty segment kept: {name:?}");
            // The root's own text is empty, which is not a name one may give;
            // every other accepted path resolves to itself.
            if !path.is_root() {
                let again = resolve_inside_root(text).ok();
                assert_eq!(again.as_ref(), Some(&path), "not stable: {name:?}");
            }
            let _ = check_visible(&path);
        }
        Err(refusal) => assert!(!refusal.why.is_empty()),
    }
}

/// The resolver: total, deterministic, and every action it makes passes the
/// command list.
pub fn resolver(text: &str) {
    let first = resolve(text);
    assert_eq!(first, resolve(text), "not deterministic: {text:?}");
    match first {
        Resolution::Action(action) | Resolution::Guess { action, .. } => {
            match Action::from_json(&action.to_json()) {
                Ok(round) => assert_eq!(round, action, "does not round-trip: {text:?}"),
                // A name longer than the command list allows is refused by name
                // when the executor validates it; anything else is a resolver bug.
                Err(refusal) => assert_eq!(refusal.rule, Rule::TooLarge, "{refusal} for {text:?}"),
            }
        }
        Resolution::Unresolved { note } => assert!(!note.is_empty(), "an empty note: {text:?}"),
    }
}

/// Action parsing: any bytes give an action or a named refusal, and an
/// accepted action round-trips.
pub fn action(bytes: &[u8]) {
    let Ok(text) = core::str::from_utf8(bytes) else {
        return;
    };
    match Action::from_json_str(text) {
        Ok(action) => {
            let again = Action::from_json(&action.to_json());
            assert_eq!(again.as_ref(), Ok(&action), "does not round-trip: {text:?}");
        }
        Err(refusal) => assert!(!refusal.why.is_empty(), "an empty why for {text:?}"),
    }
}

/// The name of each target, as `fuzz/fuzz_targets/<name>.rs` and the
/// regression folders use it.
pub const TARGETS: [&str; 3] = ["containment", "resolver", "action"];

/// Runs target `name` on `input`.
pub fn run(name: &str, input: &[u8]) {
    let text = String::from_utf8_lossy(input);
    match name {
        "containment" => containment(&text),
        "resolver" => resolver(&text),
        "action" => action(input),
        other => panic!("no fuzz target {other}"),
    }
}
