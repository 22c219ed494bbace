// The timing harness shared by `examples/call_overhead.rs` (libcuda-sys) and
// `benches/cudarc-calls` (cudarc), included by both so that they time their
// calls the same way. The includer defines `VARIANT`, `check()` and `run()`
// (which sets up the device, pool and stream and calls `time_calls`),
// and imports `std::process::ExitCode`, `std::time::Instant` and `c_void`.

fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|&v| v > 0)
        .unwrap_or(default)
}

struct Config {
    batch: usize,
    batches: usize,
    warmup: usize,
}

/// Times `batches` batches of `batch` calls of `body` (which returns how many
/// of its calls failed) and returns the per-call nanoseconds of each batch,
/// sorted. `after` runs after each batch, outside the timed region.
fn measure(
    cfg: &Config,
    mut body: impl FnMut(usize) -> usize,
    mut after: impl FnMut() -> Result<(), String>,
) -> Result<Vec<f64>, String> {
    let mut per_call = Vec::with_capacity(cfg.batches);
    let mut failed = 0;
    for i in 0..cfg.warmup + cfg.batches {
        let start = Instant::now();
        failed += body(cfg.batch);
        let ns = start.elapsed().as_nanos() as f64;
        after()?;
        if i >= cfg.warmup {
            per_call.push(ns / cfg.batch as f64);
        }
    }
    if failed > 0 {
        return Err(format!("{failed} calls failed"));
    }
    per_call.sort_by(f64::total_cmp);
    Ok(per_call)
}

fn report(bench: &str, sorted: &[f64]) {
    let at = |q: f64| sorted[((sorted.len() - 1) as f64 * q).round() as usize];
    println!(
        "# {bench}: min {:.1} p10 {:.1} median {:.1} p90 {:.1} ns over {} batches",
        at(0.0),
        at(0.1),
        at(0.5),
        at(0.9),
        sorted.len()
    );
    println!("bench {bench} {:.2}", at(0.5));
}

enum Failure {
    NoDriver(String),
    Error(String),
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::NoDriver(why)) => {
            eprintln!("call_overhead ({VARIANT}): no driver: {why}");
            ExitCode::from(2)
        }
        Err(Failure::Error(why)) => {
            eprintln!("call_overhead ({VARIANT}): {why}");
            ExitCode::from(1)
        }
    }
}


/// The timed calls on `pool` and `stream` (current context set), the same in
/// every program: the pool's release threshold is raised for the run so that
/// the synchronizations between batches keep its memory, and restored after.
///
/// # Safety
/// `pool` and `stream` are live handles of the current context.
unsafe fn time_calls(cfg: &Config, pool: CUmemoryPool, stream: CUstream) -> Result<(), Failure> {
    let e = Failure::Error;
    // SAFETY: every pointer handed to the driver is a valid local out-parameter.
    unsafe {
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

        let sync = || check(cuStreamSynchronize(stream), "cuStreamSynchronize");
        let attr = CUmemPool_attribute::CU_MEMPOOL_ATTR_USED_MEM_CURRENT;
        let mut used: cuuint64_t = 0;
        let out = (&mut used as *mut cuuint64_t).cast::<c_void>();
        let t = measure(
            cfg,
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
            cfg,
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
            cfg,
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
    }
    Ok(())
}

/// Device `ordinal`'s primary context, default pool and a non-blocking stream
/// (`non_blocking`: `CU_STREAM_NON_BLOCKING` as the bindings spell it), the
/// timed calls on them, then cleanup. `api` says which bindings, for the output.
///
/// # Safety
/// The driver is initialised (`cuInit` succeeded).
unsafe fn run_on_device(cfg: &Config, ordinal: c_int, api: &str, non_blocking: u32) -> Result<(), Failure> {
    // SAFETY: every pointer handed to the driver is a valid local out-parameter,
    // and every handle comes from the driver and is used while it is alive.
    unsafe {
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
            cuStreamCreate(&mut stream, non_blocking),
            "cuStreamCreate",
        )
        .map_err(e)?;
        println!("# variant {VARIANT}");
        println!(
            "# device {ordinal}: {}; driver CUDA {}.{}; {api}",
            CStr::from_ptr(raw.as_ptr()).to_string_lossy(),
            driver / 1000,
            driver % 1000 / 10,
        );
        println!(
            "# batch {} calls, {} batches, {} warm-up batches",
            cfg.batch, cfg.batches, cfg.warmup
        );

        time_calls(cfg, pool, stream)?;
        check(cuStreamDestroy_v2(stream), "cuStreamDestroy_v2").map_err(e)?;
        check(
            cuDevicePrimaryCtxRelease_v2(dev),
            "cuDevicePrimaryCtxRelease_v2",
        )
        .map_err(e)?;
    }
    Ok(())
}

/// The batch sizes (`BENCH_BATCH`, `BENCH_BATCHES`, `BENCH_WARMUP`) and the
/// device ordinal (`BENCH_DEVICE`) from the environment.
fn settings() -> (Config, c_int) {
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
    (cfg, ordinal)
}
