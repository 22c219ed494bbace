//! `cudarc-calls`: the call benchmark of libcuda-sys's
//! `examples/call_overhead.rs` through `cudarc::driver::sys` (dynamic loading:
//! each function is looked up by name in libcuda at its first call and cached
//! in a `OnceLock`). The calls, loops, settings, output and exit status are
//! the `call-harness` crate's (`benches/harness`).

use std::process::ExitCode;

use call_harness::Failure;
use cudarc::driver::sys::*;

fn check(r: CUresult, call: &str) -> Result<(), String> {
    if r == CUresult::CUDA_SUCCESS {
        Ok(())
    } else {
        Err(format!("{call} returned {r:?}"))
    }
}

call_harness::bindings!(non_blocking: CUstream_flags::CU_STREAM_NON_BLOCKING as u32);

fn init() -> Result<Bindings, Failure> {
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
    // SAFETY: cuInit takes no pointer; the driver library is loaded.
    let r = unsafe { cuInit(0) };
    if r != CUresult::CUDA_SUCCESS {
        return Err(Failure::NoDriver(format!("cuInit returned {r:?}")));
    }
    Ok(Bindings::new())
}

fn main() -> ExitCode {
    call_harness::main("cudarc", "cudarc API cuda-13000", init)
}
