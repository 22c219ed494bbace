//! `call_overhead`: what one driver call costs through libcuda-sys, warm, per
//! call: the median over many batches of a batch's time divided by its calls.
//!
//! ```text
//! cargo run --release --example call_overhead                              # linked libcuda
//! cargo run --release --example call_overhead --features dynamic-loading   # resolved at run time
//! ```
//!
//! `benches/call_overhead.c` runs the same loops in C and
//! `benches/cudarc-calls` through `cudarc::driver::sys`; `scripts/bench-calls-bundle`
//! builds the three for a GPU machine, where they run side by side.
//!
//! Calls timed, on device `BENCH_DEVICE` (default 0), its primary context and
//! default memory pool, and one non-blocking stream:
//!
//! - `pool_get_attribute`: `cuMemPoolGetAttribute(pool, CU_MEMPOOL_ATTR_USED_MEM_CURRENT, &u64)`;
//! - `alloc_free_async_256`: `cuMemAllocFromPoolAsync(&p, 256, pool, stream)` then
//!   `cuMemFreeAsync(p, stream)`, the pair counted as one (the stream is
//!   synchronized after each batch, outside the timed region; the pool's
//!   `CU_MEMPOOL_ATTR_RELEASE_THRESHOLD` is raised to `u64::MAX` for the run, and
//!   restored, so that those synchronizations keep the pool's memory);
//! - `stream_query`: `cuStreamQuery(stream)` on the idle stream.
//!
//! Output: `# ...` information lines, then one line per call, `bench <name>
//! <ns_per_call>`. `BENCH_BATCH` calls per batch (default 1000), `BENCH_BATCHES`
//! timed batches (default 200) after `BENCH_WARMUP` untimed ones (default 20).
//!
//! Exit status: 0 measured; 1 a driver call failed; 2 no driver or no device
//! (here, against the stand-in libcuda or without `libcuda.so.1`).

use std::ffi::{c_char, c_int, c_void, CStr};
use std::process::ExitCode;
use std::time::Instant;

use libcuda_sys::*;

const VARIANT: &str = if cfg!(feature = "dynamic-loading") {
    "rust-dynamic"
} else {
    "rust-linked"
};

fn name(r: CUresult) -> String {
    format!("{} ({})", r.name().unwrap_or("unknown CUresult"), r.0)
}

fn check(r: CUresult, call: &str) -> Result<(), String> {
    if r == CUresult::CUDA_SUCCESS {
        Ok(())
    } else {
        Err(format!("{call} returned {}", name(r)))
    }
}

include!("../benches/shared/call_overhead_harness.rs");

fn run() -> Result<(), Failure> {
    let (cfg, ordinal) = settings();

    #[cfg(feature = "dynamic-loading")]
    if let Err(e) = libcuda_sys::dynamic::try_load() {
        return Err(Failure::NoDriver(e.to_string()));
    }
    // SAFETY: every pointer handed to the driver is a valid local out-parameter,
    // and every handle comes from the driver and is used while it is alive.
    unsafe {
        let r = cuInit(0);
        if r != CUresult::CUDA_SUCCESS {
            return Err(Failure::NoDriver(format!("cuInit returned {}", name(r))));
        }
        run_on_device(
            &cfg,
            ordinal,
            &format!("headers CUDA_VERSION {CUDA_VERSION}"),
            CUstream_flags::CU_STREAM_NON_BLOCKING.0,
        )?;
    }
    Ok(())
}
