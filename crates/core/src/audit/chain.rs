//! The hash chain of one audit file, and the checks against it.
//!
//! Every line a writer appends names the SHA-256 of the line before it (the
//! exact bytes, newline included); the first line names the file's
//! [`genesis`]. An edit, a removal or a swap inside the file then breaks the
//! chain where it happened. What the file alone cannot show — whole lines cut
//! from its end, or the file swapped for another well-formed one — the host's
//! [`Anchor`] shows: the latest (seq, hash) and the first line's hash, kept
//! outside the root.

mod anchor;
mod resume;
mod verdict;
mod verifier;

pub use anchor::Anchor;
pub use resume::{Resume, TailScan, track};
pub use verdict::{Anchoring, Break, BreakKind, Chain, Tail, Verdict};
pub use verifier::{Verifier, verify};

use alloc::string::String;
use sha2::{Digest, Sha256};

/// What the first line of a file chains from: the SHA-256 of the file's
/// name. The name carries the writer and the root's hash, so a log copied in
/// from another writer or root fails at its first line.
pub fn genesis(name: &str) -> String {
    crate::hex(&Sha256::digest(name.as_bytes()))
}

/// The hash a line is chained by: SHA-256 (hex) of its exact bytes.
pub fn line_hash(line: &[u8]) -> String {
    crate::hex(&Sha256::digest(line))
}
