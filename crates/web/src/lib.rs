//! The Voicebox core for the browser worker.
//!
//! The same executor as on the machine, compiled to `wasm32-unknown-unknown`
//! behind a plain C-ABI (no wasm-bindgen): the worker hands in one JSON
//! request, and the executor runs until it needs storage or a tool. Its
//! storage futures park that I/O request in a [`io::Slot`] and return
//! `Pending`; [`driver`] polls with a no-op waker, hands the parked request to
//! the worker, and resumes with the worker's answer — until the executor
//! returns its reply. The worker performs I/O and renders; it decides nothing.
//!
//! The ABI ([`abi`]): `vb_alloc`/`vb_free` for buffers, `vb_begin(ptr, len)`
//! and `vb_resume(ptr, len, data_ptr, data_len)`, then `vb_out_*`/`vb_data_*`
//! to read what came back: `{"io": {...}}` (with bytes in the data buffer for
//! writes and tool input) or `{"done": ...}`.

pub mod abi;
pub mod driver;
pub mod env;
pub mod io;
pub mod ops;
pub mod session;
pub mod storage;
pub mod tools;
