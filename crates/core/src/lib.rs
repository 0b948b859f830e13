//! The Voicebox core: pure data and small functions, shared by every placement.
//!
//! It is `no_std` + `alloc` on purpose: it cannot reach a filesystem, a socket, a
//! process or a clock even by accident. Storage, tool execution, the clock and
//! random ids are handed to it as traits ([`platform`]), and the one executor
//! ([`executor::Executor`]) is generic over them. The machine placement drives it
//! with cap-std and wasmi; the browser worker drives it over OPFS.
#![no_std]
#![forbid(unsafe_code)]

extern crate alloc;

pub mod action;
pub mod audit;
pub mod command;
pub mod confirm;
pub mod contain;
pub mod diff;
pub mod executor;
pub mod extension;
#[doc(hidden)]
pub mod fuzzing;
pub mod history;
pub mod journal;
pub mod memory;
pub mod notes;
pub mod platform;
pub mod project;
pub mod prompt;
pub mod reply;
pub mod resolver;
pub mod rule;
pub mod tier;
pub mod time;
pub mod turn;
pub mod words;
pub mod worker;

/// Lowercase hex of `bytes`: the one spelling of digests, ids and cursors
/// across the core and its placements.
pub fn hex(bytes: &[u8]) -> alloc::string::String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    bytes
        .iter()
        .flat_map(|b| [DIGITS[usize::from(b >> 4)], DIGITS[usize::from(b & 15)]])
        .map(char::from)
        .collect()
}

pub use action::Action;
pub use executor::Executor;
pub use reply::Reply;
pub use rule::{Refusal, Rule};
