//! Fuzz target: see `voicebox_core::fuzzing::action` for the invariants.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| voicebox_core::fuzzing::run("action", data));
