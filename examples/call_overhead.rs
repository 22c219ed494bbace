//! `call_overhead`: what one driver call costs through libcuda-sys, warm, per
//! call: the median over many batches of a batch's time divided by its calls.
//!
//! ```text
//! cargo run --release --example call_overhead                              # linked libcuda
//! cargo run --release --example call_overhead --features dynamic-loading   # resolved at run time
//! ```
//!
//! The calls, loops, settings and output are the `call-harness` crate's
//! (`benches/harness`), shared with `benches/cudarc-calls` (the same through
//! `cudarc::driver::sys`); `benches/call_overhead.c` runs the same loops in C.
//! `cargo xtask bench-calls-bundle` builds the three for a GPU machine, where
//! they run side by side.
//!
//! Exit status: 0 measured; 1 a driver call failed; 2 no driver or no device
//! (here, against the stand-in libcuda or without `libcuda.so.1`).

use std::process::ExitCode;

use call_harness::Failure;
use libcuda_sys::*;

const VARIANT: &str =
    if cfg!(feature = "dynamic-loading") { "rust-dynamic" } else { "rust-linked" };

fn check(r: CUresult, call: &str) -> Result<(), String> {
    if r == CUresult::CUDA_SUCCESS {
        Ok(())
    } else {
        Err(format!("{call} returned {} ({})", r.name().unwrap_or("unknown CUresult"), r.0))
    }
}

call_harness::bindings!(non_blocking: CUstream_flags::CU_STREAM_NON_BLOCKING.0);

fn init() -> Result<Bindings, Failure> {
    #[cfg(feature = "dynamic-loading")]
    if let Err(e) = libcuda_sys::dynamic::try_load() {
        return Err(Failure::NoDriver(e.to_string()));
    }
    // SAFETY: cuInit takes no pointer; the driver library is loaded.
    check(unsafe { cuInit(0) }, "cuInit").map_err(Failure::NoDriver)?;
    Ok(Bindings::new())
}

fn main() -> ExitCode {
    call_harness::main(VARIANT, &format!("headers CUDA_VERSION {CUDA_VERSION}"), init)
}
