//! `cudarc-calls`: the loops of libcuda-sys's `examples/call_overhead.rs`
//! through `cudarc::driver::sys` (dynamic loading: each function is looked up
//! by name in libcuda at its first call and cached in a `OnceLock`). Same
//! calls, batches, environment variables (`BENCH_BATCH`, `BENCH_BATCHES`,
//! `BENCH_WARMUP`, `BENCH_DEVICE`), output (`bench <name> <ns_per_call>`) and
//! exit status (0 measured, 1 a call failed, 2 no driver or no device).

use std::ffi::{c_char, c_int, c_void, CStr};
use std::process::ExitCode;
use std::time::Instant;

use cudarc::driver::sys::*;

const VARIANT: &str = "cudarc";

fn check(r: CUresult, call: &str) -> Result<(), String> {
    if r == CUresult::CUDA_SUCCESS {
        Ok(())
    } else {
        Err(format!("{call} returned {r:?}"))
    }
}

include!("../../shared/call_overhead_harness.rs");

fn run() -> Result<(), Failure> {
    let (cfg, ordinal) = settings();

    // cudarc panics when it finds no libcuda; turn that into exit status 2.
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    // SAFETY: opening the driver library runs its initialisers, as linking it would.
    let loaded = std::panic::catch_unwind(|| unsafe {
        culib();
    });
    std::panic::set_hook(hook);
    if let Err(p) = loaded {
        let why = p
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default();
        let why = why.lines().next().unwrap_or("").to_string();
        return Err(Failure::NoDriver(format!("cudarc found no libcuda: {why}")));
    }

    // SAFETY: every pointer handed to the driver is a valid local out-parameter,
    // and every handle comes from the driver and is used while it is alive.
    unsafe {
        let r = cuInit(0);
        if r != CUresult::CUDA_SUCCESS {
            return Err(Failure::NoDriver(format!("cuInit returned {r:?}")));
        }
        run_on_device(
            &cfg,
            ordinal,
            "cudarc API cuda-13000",
            CUstream_flags::CU_STREAM_NON_BLOCKING as u32,
        )?;
    }
    Ok(())
}
