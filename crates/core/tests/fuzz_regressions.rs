//! Replays every input in `fuzz/regressions/<target>/` through the same
//! invariants the fuzz targets check: once a fuzzer finds a crash, its input
//! is copied there and stays a test forever (scripts/fuzz does the copying).

use std::path::Path;
use voicebox_core::fuzzing;

#[test]
fn every_regression_input_holds_its_invariants() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/regressions");
    let mut replayed = 0;
    for target in fuzzing::TARGETS {
        for entry in std::fs::read_dir(root.join(target)).unwrap() {
            let input = std::fs::read(entry.unwrap().path()).unwrap();
            fuzzing::run(target, &input);
            replayed += 1;
        }
    }
    assert!(
        replayed >= fuzzing::TARGETS.len(),
        "each target has at least its seed"
    );
}
