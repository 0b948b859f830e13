//! The plain C-ABI the worker calls (no wasm-bindgen). Buffers cross as
//! (pointer, length) pairs in this module's memory.
//!
//! ```text
//! p = vb_alloc(n); write request bytes at p; state = vb_begin(p, n); vb_free(p, n)
//! loop: read vb_out_ptr()/vb_out_len() (JSON) and vb_data_ptr()/vb_data_len() (bytes)
//!       state 1 = {"io": ...}: perform it, then state = vb_resume(json, len, data, len)
//!       state 0 = {"done": ...}: the answer
//! ```
#![allow(unsafe_code)]

use crate::driver::{Driver, Step};
use serde_json::json;
use std::cell::RefCell;

thread_local! {
    static DRIVER: RefCell<Driver> = RefCell::new(Driver::default());
    static OUT: RefCell<(Vec<u8>, Vec<u8>)> = const { RefCell::new((Vec::new(), Vec::new())) };
}

/// Publishes a step for the worker to read; 1 means I/O is wanted, 0 done.
fn publish(step: Step) -> u32 {
    let (state, header, data) = match step {
        Step::Io(request, data) => (1, json!({"io": request}), data),
        Step::Done(answer) => (0, json!({"done": answer}), Vec::new()),
    };
    OUT.with(|out| *out.borrow_mut() = (header.to_string().into_bytes(), data));
    state
}

/// Copies a (pointer, length) buffer the worker wrote.
///
/// SAFETY: the caller passes a buffer it obtained from `vb_alloc` with at
/// least `len` bytes, or `len == 0`.
unsafe fn bytes(ptr: *const u8, len: usize) -> Vec<u8> {
    if len == 0 {
        return Vec::new();
    }
    unsafe { std::slice::from_raw_parts(ptr, len) }.to_vec()
}

/// A buffer of `len` bytes for the worker to write into.
#[unsafe(no_mangle)]
pub extern "C" fn vb_alloc(len: usize) -> *mut u8 {
    Box::into_raw(vec![0u8; len].into_boxed_slice()).cast()
}

/// Frees a buffer from `vb_alloc`.
///
/// # Safety
/// `ptr` and `len` must come from one `vb_alloc` call, freed once.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn vb_free(ptr: *mut u8, len: usize) {
    drop(unsafe { Box::from_raw(std::ptr::slice_from_raw_parts_mut(ptr, len)) });
}

/// Starts a request (JSON in `ptr..ptr+len`).
///
/// # Safety
/// The buffer must be from `vb_alloc` with at least `len` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn vb_begin(ptr: *const u8, len: usize) -> u32 {
    let request = unsafe { bytes(ptr, len) };
    publish(DRIVER.with(|d| d.borrow_mut().begin(&request)))
}

/// Answers the parked I/O (JSON, and bytes for reads and tool reports).
///
/// # Safety
/// Both buffers must be from `vb_alloc` with at least their lengths.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn vb_resume(
    ptr: *const u8,
    len: usize,
    data_ptr: *const u8,
    data_len: usize,
) -> u32 {
    let answer = unsafe { bytes(ptr, len) };
    let data = unsafe { bytes(data_ptr, data_len) };
    publish(DRIVER.with(|d| d.borrow_mut().resume(&answer, data)))
}

/// Exports `$ptr()` and `$len()`: where one buffer of the last published
/// step lies (`OUT.$part`), for the worker to copy out.
macro_rules! published {
    ($ptr:ident, $len:ident, $part:tt) => {
        #[unsafe(no_mangle)]
        pub extern "C" fn $ptr() -> *const u8 {
            OUT.with(|out| out.borrow().$part.as_ptr())
        }

        #[unsafe(no_mangle)]
        pub extern "C" fn $len() -> usize {
            OUT.with(|out| out.borrow().$part.len())
        }
    };
}

// The step's JSON, and its bytes.
published!(vb_out_ptr, vb_out_len, 0);
published!(vb_data_ptr, vb_data_len, 1);
