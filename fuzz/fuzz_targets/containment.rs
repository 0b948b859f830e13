//! Fuzz target: see `voicebox_core::fuzzing::containment` for the invariants.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| voicebox_core::fuzzing::run("containment", data));
