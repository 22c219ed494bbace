//! Link smoke test: this binary takes the address of every bound function, so
//! the dynamic loader must resolve each of them in libcuda before `main` runs
//! (Rust links with `-z now`; run it with `LD_BIND_NOW=1` to be explicit). On a
//! driver that lacks one, the binary does not start at all and the loader names
//! the first missing symbol.
//!
//! Which functions a driver lacks is listed by `tests/driver_symbols.rs`, which
//! references none of them and so starts on any driver.

use libcuda_sys::*;
use std::io::Write;

include!(concat!(env!("OUT_DIR"), "/function_list.rs"));

#[cfg(feature = "per-thread-default-stream")]
use libcuda_sys::cuGetProcAddress_v2 as get_proc_address;

#[test]
fn every_bound_function_is_linked() {
    let all = all_functions();
    let null: Vec<&str> = all
        .iter()
        .filter(|(_, f)| f.is_null())
        .map(|(n, _)| *n)
        .collect();
    assert!(null.is_empty(), "null addresses: {null:?}");
    let mut names: Vec<&str> = all.iter().map(|(n, _)| *n).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), all.len(), "a function is listed twice");
    assert!(
        all.len() > 100,
        "suspiciously few bound functions: {}",
        all.len()
    );
    visible(&format!("every_bound_function_is_linked: {} bound functions referenced, none null (CUDA_VERSION {CUDA_VERSION})", all.len()));
}

/// Writes a line to stderr in one piece, past libtest's output capture.
fn visible(line: &str) {
    let _ = std::io::stderr().write_all(format!("{line}\n").as_bytes());
}
