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
    let cfg = Config {
        batch: env_usize("BENCH_BATCH", 1000),
        batches: env_usize("BENCH_BATCHES", 200),
        warmup: std::env::var("BENCH_WARMUP")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(20),
    };
    let ordinal = std::env::var("BENCH_DEVICE")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);

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
        let mut count: c_int = 0;
        check(cuDeviceGetCount(&mut count), "cuDeviceGetCount").map_err(Failure::NoDriver)?;
        if count <= ordinal {
            return Err(Failure::NoDriver(format!(
                "device {ordinal} asked for, {count} present"
            )));
        }
        let e = Failure::Error;
        let mut driver: c_int = 0;
        check(cuDriverGetVersion(&mut driver), "cuDriverGetVersion").map_err(e)?;
        let mut dev: CUdevice = 0;
        check(cuDeviceGet(&mut dev, ordinal), "cuDeviceGet").map_err(e)?;
        let mut raw = [0 as c_char; 256];
        check(
            cuDeviceGetName(raw.as_mut_ptr(), raw.len() as c_int, dev),
            "cuDeviceGetName",
        )
        .map_err(e)?;
        let mut ctx: CUcontext = std::ptr::null_mut();
        check(
            cuDevicePrimaryCtxRetain(&mut ctx, dev),
            "cuDevicePrimaryCtxRetain",
        )
        .map_err(e)?;
        check(cuCtxSetCurrent(ctx), "cuCtxSetCurrent").map_err(e)?;
        let mut pool: CUmemoryPool = std::ptr::null_mut();
        check(
            cuDeviceGetDefaultMemPool(&mut pool, dev),
            "cuDeviceGetDefaultMemPool",
        )
        .map_err(e)?;
        let mut stream: CUstream = std::ptr::null_mut();
        check(
            cuStreamCreate(&mut stream, CUstream_flags::CU_STREAM_NON_BLOCKING as u32),
            "cuStreamCreate",
        )
        .map_err(e)?;
        // Keep freed memory in the pool across the synchronizations between
        // batches (the default threshold, 0, hands it back to the OS there).
        let threshold = CUmemPool_attribute::CU_MEMPOOL_ATTR_RELEASE_THRESHOLD;
        let mut saved: cuuint64_t = 0;
        check(
            cuMemPoolGetAttribute(pool, threshold, (&mut saved as *mut cuuint64_t).cast()),
            "cuMemPoolGetAttribute",
        )
        .map_err(e)?;
        let mut keep = cuuint64_t::MAX;
        check(
            cuMemPoolSetAttribute(pool, threshold, (&mut keep as *mut cuuint64_t).cast()),
            "cuMemPoolSetAttribute",
        )
        .map_err(e)?;

        println!("# variant {VARIANT}");
        println!(
            "# device {ordinal}: {}; driver CUDA {}.{}; cudarc API cuda-13000",
            CStr::from_ptr(raw.as_ptr()).to_string_lossy(),
            driver / 1000,
            driver % 1000 / 10,
        );
        println!(
            "# batch {} calls, {} batches, {} warm-up batches",
            cfg.batch, cfg.batches, cfg.warmup
        );

        let sync = || check(cuStreamSynchronize(stream), "cuStreamSynchronize");
        let attr = CUmemPool_attribute::CU_MEMPOOL_ATTR_USED_MEM_CURRENT;
        let mut used: cuuint64_t = 0;
        let out = (&mut used as *mut cuuint64_t).cast::<c_void>();
        let t = measure(
            &cfg,
            |n| {
                let mut failed = 0;
                for _ in 0..n {
                    if cuMemPoolGetAttribute(pool, attr, out) != CUresult::CUDA_SUCCESS {
                        failed += 1;
                    }
                }
                failed
            },
            || Ok(()),
        )
        .map_err(|w| e(format!("cuMemPoolGetAttribute: {w}")))?;
        report("pool_get_attribute", &t);

        let t = measure(
            &cfg,
            |n| {
                let mut failed = 0;
                for _ in 0..n {
                    let mut p: CUdeviceptr = 0;
                    if cuMemAllocFromPoolAsync(&mut p, 256, pool, stream) != CUresult::CUDA_SUCCESS
                    {
                        failed += 1;
                    }
                    if cuMemFreeAsync(p, stream) != CUresult::CUDA_SUCCESS {
                        failed += 1;
                    }
                }
                failed
            },
            sync,
        )
        .map_err(|w| e(format!("cuMemAllocFromPoolAsync + cuMemFreeAsync: {w}")))?;
        report("alloc_free_async_256", &t);

        sync().map_err(e)?;
        let t = measure(
            &cfg,
            |n| {
                let mut failed = 0;
                for _ in 0..n {
                    if cuStreamQuery(stream) != CUresult::CUDA_SUCCESS {
                        failed += 1;
                    }
                }
                failed
            },
            || Ok(()),
        )
        .map_err(|w| e(format!("cuStreamQuery: {w}")))?;
        report("stream_query", &t);

        check(
            cuMemPoolSetAttribute(pool, threshold, (&mut saved as *mut cuuint64_t).cast()),
            "cuMemPoolSetAttribute",
        )
        .map_err(e)?;
        check(cuStreamDestroy_v2(stream), "cuStreamDestroy_v2").map_err(e)?;
        check(
            cuDevicePrimaryCtxRelease_v2(dev),
            "cuDevicePrimaryCtxRelease_v2",
        )
        .map_err(e)?;
    }
    Ok(())
}
