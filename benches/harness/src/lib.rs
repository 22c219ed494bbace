//! The call benchmark's harness: times the same driver calls in the same loops
//! for every set of bindings. A program implements [`Driver`] with its
//! bindings and hands it to [`main`]:
//!
//! ```no_run
//! # struct Bindings;
//! # impl call_harness::Driver for Bindings {
//! #     fn device_count(&mut self) -> Result<i32, String> { Ok(0) }
//! #     fn driver_version(&mut self) -> Result<i32, String> { Ok(0) }
//! #     fn open(&mut self, _: i32) -> Result<String, String> { Ok(String::new()) }
//! #     fn release_threshold(&mut self) -> Result<u64, String> { Ok(0) }
//! #     fn set_release_threshold(&mut self, _: u64) -> Result<(), String> { Ok(()) }
//! #     fn pool_used_mem(&mut self) -> bool { true }
//! #     fn alloc_free_async(&mut self, _: usize) -> usize { 0 }
//! #     fn stream_query(&mut self) -> bool { true }
//! #     fn stream_synchronize(&mut self) -> Result<(), String> { Ok(()) }
//! #     fn close(&mut self) -> Result<(), String> { Ok(()) }
//! # }
//! fn main() -> std::process::ExitCode {
//!     call_harness::main("rust-linked", "headers CUDA_VERSION 13000", || Ok(Bindings))
//! }
//! ```
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
//! <ns_per_call>`: the median over `BENCH_BATCHES` timed batches (default 200)
//! of `BENCH_BATCH` calls (default 1000), after `BENCH_WARMUP` untimed ones
//! (default 20). Exit status: 0 measured; 1 a driver call failed; 2 no driver
//! or no device.

use std::process::ExitCode;
use std::time::Instant;

/// The calls being timed, through one set of bindings. The methods that are
/// timed return whether the driver said `CUDA_SUCCESS` (or how many of their
/// calls did not), so that the loops around them cost the same everywhere;
/// the others return the failed call and its result as the error.
pub trait Driver {
    /// `cuDeviceGetCount`.
    fn device_count(&mut self) -> Result<i32, String>;
    /// `cuDriverGetVersion`.
    fn driver_version(&mut self) -> Result<i32, String>;
    /// Device `ordinal`'s primary context made current, its default memory
    /// pool and a new non-blocking stream, kept for the calls below; returns
    /// the device's name.
    fn open(&mut self, ordinal: i32) -> Result<String, String>;
    /// The pool's `CU_MEMPOOL_ATTR_RELEASE_THRESHOLD`.
    fn release_threshold(&mut self) -> Result<u64, String>;
    fn set_release_threshold(&mut self, bytes: u64) -> Result<(), String>;
    /// Timed: `cuMemPoolGetAttribute(pool, CU_MEMPOOL_ATTR_USED_MEM_CURRENT, ..)`.
    fn pool_used_mem(&mut self) -> bool;
    /// Timed: `cuMemAllocFromPoolAsync` of `bytes` on the stream, then
    /// `cuMemFreeAsync`; how many of the two failed.
    fn alloc_free_async(&mut self, bytes: usize) -> usize;
    /// Timed: `cuStreamQuery` on the stream.
    fn stream_query(&mut self) -> bool;
    fn stream_synchronize(&mut self) -> Result<(), String>;
    /// Destroys the stream and releases the primary context.
    fn close(&mut self) -> Result<(), String>;
}

/// `struct Bindings` and its [`Driver`] implementation, for bindings that
/// follow `cuda.h`'s names: expanded where they are in scope (`use
/// libcuda_sys::*;`, `use cudarc::driver::sys::*;`) beside a
/// `fn check(CUresult, &str) -> Result<(), String>`, so that every Rust
/// binding is timed through the same source and only the bindings differ.
/// `non_blocking` is `CU_STREAM_NON_BLOCKING` as the integer the bindings'
/// `cuStreamCreate` takes (their enum styles differ).
#[macro_export]
macro_rules! bindings {
    (non_blocking: $non_blocking:expr) => {
        /// The driver through the bindings in scope, and the handles the timed calls use.
        struct Bindings {
            device: CUdevice,
            pool: CUmemoryPool,
            stream: CUstream,
            used: cuuint64_t,
        }

        impl Bindings {
            /// No device opened yet: [`Driver::open`] fills the handles.
            fn new() -> Bindings {
                Bindings {
                    device: 0,
                    pool: ::std::ptr::null_mut(),
                    stream: ::std::ptr::null_mut(),
                    used: 0,
                }
            }
        }

        const THRESHOLD: CUmemPool_attribute =
            CUmemPool_attribute::CU_MEMPOOL_ATTR_RELEASE_THRESHOLD;

        // SAFETY (every method): each pointer handed to the driver is a valid local
        // out-parameter or a field of `self`, and each handle comes from the driver and
        // is used while it is alive (`open` before the others, `close` last).
        impl $crate::Driver for Bindings {
            fn device_count(&mut self) -> Result<i32, String> {
                let mut count: ::std::ffi::c_int = 0;
                check(unsafe { cuDeviceGetCount(&mut count) }, "cuDeviceGetCount")?;
                Ok(count)
            }

            fn driver_version(&mut self) -> Result<i32, String> {
                let mut v: ::std::ffi::c_int = 0;
                check(unsafe { cuDriverGetVersion(&mut v) }, "cuDriverGetVersion")?;
                Ok(v)
            }

            fn open(&mut self, ordinal: i32) -> Result<String, String> {
                unsafe {
                    check(cuDeviceGet(&mut self.device, ordinal), "cuDeviceGet")?;
                    let mut raw = [0 as ::std::ffi::c_char; 256];
                    check(
                        cuDeviceGetName(
                            raw.as_mut_ptr(),
                            raw.len() as ::std::ffi::c_int,
                            self.device,
                        ),
                        "cuDeviceGetName",
                    )?;
                    let mut ctx: CUcontext = std::ptr::null_mut();
                    check(
                        cuDevicePrimaryCtxRetain(&mut ctx, self.device),
                        "cuDevicePrimaryCtxRetain",
                    )?;
                    check(cuCtxSetCurrent(ctx), "cuCtxSetCurrent")?;
                    check(
                        cuDeviceGetDefaultMemPool(&mut self.pool, self.device),
                        "cuDeviceGetDefaultMemPool",
                    )?;
                    check(cuStreamCreate(&mut self.stream, $non_blocking), "cuStreamCreate")?;
                    Ok(::std::ffi::CStr::from_ptr(raw.as_ptr()).to_string_lossy().into_owned())
                }
            }

            fn release_threshold(&mut self) -> Result<u64, String> {
                let mut v: cuuint64_t = 0;
                check(
                    unsafe {
                        cuMemPoolGetAttribute(self.pool, THRESHOLD, (&mut v as *mut u64).cast())
                    },
                    "cuMemPoolGetAttribute",
                )?;
                Ok(v)
            }

            fn set_release_threshold(&mut self, mut bytes: u64) -> Result<(), String> {
                check(
                    unsafe {
                        cuMemPoolSetAttribute(self.pool, THRESHOLD, (&mut bytes as *mut u64).cast())
                    },
                    "cuMemPoolSetAttribute",
                )
            }

            #[inline]
            fn pool_used_mem(&mut self) -> bool {
                let attr = CUmemPool_attribute::CU_MEMPOOL_ATTR_USED_MEM_CURRENT;
                let out = (&mut self.used as *mut cuuint64_t).cast();
                unsafe { cuMemPoolGetAttribute(self.pool, attr, out) == CUresult::CUDA_SUCCESS }
            }

            #[inline]
            fn alloc_free_async(&mut self, bytes: usize) -> usize {
                let mut p: CUdeviceptr = 0;
                unsafe {
                    usize::from(
                        cuMemAllocFromPoolAsync(&mut p, bytes, self.pool, self.stream)
                            != CUresult::CUDA_SUCCESS,
                    ) + usize::from(cuMemFreeAsync(p, self.stream) != CUresult::CUDA_SUCCESS)
                }
            }

            #[inline]
            fn stream_query(&mut self) -> bool {
                unsafe { cuStreamQuery(self.stream) == CUresult::CUDA_SUCCESS }
            }

            fn stream_synchronize(&mut self) -> Result<(), String> {
                check(unsafe { cuStreamSynchronize(self.stream) }, "cuStreamSynchronize")
            }

            fn close(&mut self) -> Result<(), String> {
                unsafe {
                    check(cuStreamDestroy_v2(self.stream), "cuStreamDestroy_v2")?;
                    check(cuDevicePrimaryCtxRelease_v2(self.device), "cuDevicePrimaryCtxRelease_v2")
                }
            }
        }
    };
}

/// Why a program measured nothing.
#[derive(Debug)]
pub enum Failure {
    /// No driver library, no device, or `cuInit` failed: exit status 2.
    NoDriver(String),
    /// A driver call failed: exit status 1.
    Error(String),
}

/// Batch sizes and the device, from `BENCH_BATCH`, `BENCH_BATCHES`,
/// `BENCH_WARMUP` and `BENCH_DEVICE`.
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    pub batch: usize,
    pub batches: usize,
    pub warmup: usize,
    pub device: i32,
}

impl Config {
    pub fn from_env() -> Config {
        Config::from_vars(|name| std::env::var(name).ok())
    }

    fn from_vars(var: impl Fn(&str) -> Option<String>) -> Config {
        let positive = |name: &str, default: usize| {
            var(name).and_then(|v| v.parse().ok()).filter(|&v| v > 0).unwrap_or(default)
        };
        Config {
            batch: positive("BENCH_BATCH", 1000),
            batches: positive("BENCH_BATCHES", 200),
            warmup: var("BENCH_WARMUP").and_then(|v| v.parse().ok()).unwrap_or(20),
            device: var("BENCH_DEVICE").and_then(|v| v.parse().ok()).unwrap_or(0),
        }
    }
}

/// Runs the benchmark with the driver `init` returns and exits as documented:
/// `variant` names the program in the results (`rust-linked`, `cudarc`),
/// `api` the bindings in the device line.
pub fn main<D: Driver>(
    variant: &str,
    api: &str,
    init: impl FnOnce() -> Result<D, Failure>,
) -> ExitCode {
    let result = init().and_then(|mut driver| run(&mut driver, &Config::from_env(), variant, api));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::NoDriver(why)) => {
            eprintln!("call_overhead ({variant}): no driver: {why}");
            ExitCode::from(2)
        }
        Err(Failure::Error(why)) => {
            eprintln!("call_overhead ({variant}): {why}");
            ExitCode::from(1)
        }
    }
}

/// The device set up, the calls timed and reported, then cleanup.
pub fn run<D: Driver>(d: &mut D, cfg: &Config, variant: &str, api: &str) -> Result<(), Failure> {
    let count = d.device_count().map_err(Failure::NoDriver)?;
    if count <= cfg.device {
        return Err(Failure::NoDriver(format!("device {} asked for, {count} present", cfg.device)));
    }
    let e = Failure::Error;
    let driver = d.driver_version().map_err(e)?;
    let name = d.open(cfg.device).map_err(e)?;
    println!("# variant {variant}");
    println!(
        "# device {}: {name}; driver CUDA {}.{}; {api}",
        cfg.device,
        driver / 1000,
        driver % 1000 / 10,
    );
    println!(
        "# batch {} calls, {} batches, {} warm-up batches",
        cfg.batch, cfg.batches, cfg.warmup
    );
    time_calls(d, cfg)?;
    d.close().map_err(e)
}

/// The timed calls: the pool's release threshold is raised for the run so
/// that the synchronizations between batches keep its memory (the default, 0,
/// hands it back to the OS there), and restored after.
fn time_calls<D: Driver>(d: &mut D, cfg: &Config) -> Result<(), Failure> {
    let e = Failure::Error;
    let saved = d.release_threshold().map_err(e)?;
    d.set_release_threshold(u64::MAX).map_err(e)?;

    let t = measure(cfg, d, |d, n| (0..n).filter(|_| !d.pool_used_mem()).count(), |_| Ok(()))
        .map_err(|w| e(format!("cuMemPoolGetAttribute: {w}")))?;
    report("pool_get_attribute", &t);

    let t = measure(
        cfg,
        d,
        |d, n| (0..n).map(|_| d.alloc_free_async(256)).sum(),
        |d| d.stream_synchronize(),
    )
    .map_err(|w| e(format!("cuMemAllocFromPoolAsync + cuMemFreeAsync: {w}")))?;
    report("alloc_free_async_256", &t);

    d.stream_synchronize().map_err(e)?;
    let t = measure(cfg, d, |d, n| (0..n).filter(|_| !d.stream_query()).count(), |_| Ok(()))
        .map_err(|w| e(format!("cuStreamQuery: {w}")))?;
    report("stream_query", &t);

    d.set_release_threshold(saved).map_err(e)
}

/// Times `cfg.batches` batches of `cfg.batch` calls of `body` (which returns
/// how many of its calls failed) after `cfg.warmup` untimed ones, and returns
/// the per-call nanoseconds of each timed batch, sorted. `after` runs after
/// each batch, outside the timed region.
pub fn measure<D>(
    cfg: &Config,
    d: &mut D,
    mut body: impl FnMut(&mut D, usize) -> usize,
    mut after: impl FnMut(&mut D) -> Result<(), String>,
) -> Result<Vec<f64>, String> {
    let mut per_call = Vec::with_capacity(cfg.batches);
    let mut failed = 0;
    for i in 0..cfg.warmup + cfg.batches {
        let start = Instant::now();
        failed += body(d, cfg.batch);
        let ns = start.elapsed().as_nanos() as f64;
        after(d)?;
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

/// The `# <bench>: ...` spread line and the `bench <name> <ns>` result line.
pub fn report(bench: &str, sorted: &[f64]) {
    println!("{}\n{}", spread(bench, sorted), result(bench, sorted));
}

fn at(sorted: &[f64], q: f64) -> f64 {
    sorted[((sorted.len() - 1) as f64 * q).round() as usize]
}

fn spread(bench: &str, sorted: &[f64]) -> String {
    format!(
        "# {bench}: min {:.1} p10 {:.1} median {:.1} p90 {:.1} ns over {} batches",
        at(sorted, 0.0),
        at(sorted, 0.1),
        at(sorted, 0.5),
        at(sorted, 0.9),
        sorted.len()
    )
}

fn result(bench: &str, sorted: &[f64]) -> String {
    format!("bench {bench} {:.2}", at(sorted, 0.5))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Counts the calls; fails the ones asked to.
    #[derive(Default)]
    struct Counting {
        calls: usize,
        fail_every: usize,
        synced: usize,
    }

    impl Driver for Counting {
        fn device_count(&mut self) -> Result<i32, String> {
            Ok(1)
        }
        fn driver_version(&mut self) -> Result<i32, String> {
            Ok(13000)
        }
        fn open(&mut self, _: i32) -> Result<String, String> {
            Ok("counting".into())
        }
        fn release_threshold(&mut self) -> Result<u64, String> {
            Ok(0)
        }
        fn set_release_threshold(&mut self, _: u64) -> Result<(), String> {
            Ok(())
        }
        fn pool_used_mem(&mut self) -> bool {
            self.calls += 1;
            self.fail_every == 0 || self.calls % self.fail_every != 0
        }
        fn alloc_free_async(&mut self, _: usize) -> usize {
            self.calls += 1;
            0
        }
        fn stream_query(&mut self) -> bool {
            self.calls += 1;
            true
        }
        fn stream_synchronize(&mut self) -> Result<(), String> {
            self.synced += 1;
            Ok(())
        }
        fn close(&mut self) -> Result<(), String> {
            Ok(())
        }
    }

    fn cfg() -> Config {
        Config { batch: 10, batches: 5, warmup: 2, device: 0 }
    }

    #[test]
    fn every_batch_runs_and_only_timed_ones_count() {
        let mut d = Counting::default();
        let t = run_measure(&mut d);
        assert_eq!(t.unwrap().len(), 5);
        assert_eq!(d.calls, 70);
        assert_eq!(d.synced, 7);
    }

    fn run_measure(d: &mut Counting) -> Result<Vec<f64>, String> {
        measure(
            &cfg(),
            d,
            |d, n| (0..n).filter(|_| !d.pool_used_mem()).count(),
            |d| d.stream_synchronize(),
        )
    }

    #[test]
    fn failed_calls_fail_the_measurement() {
        let mut d = Counting { fail_every: 7, ..Counting::default() };
        assert_eq!(run_measure(&mut d), Err("10 calls failed".into()));
        assert!(matches!(
            run(&mut d, &cfg(), "test", "test"),
            Err(Failure::Error(w)) if w.starts_with("cuMemPoolGetAttribute: ")
        ));
    }

    #[test]
    fn missing_device_is_no_driver() {
        let cfg = Config { device: 3, ..cfg() };
        assert!(matches!(
            run(&mut Counting::default(), &cfg, "test", "test"),
            Err(Failure::NoDriver(w)) if w == "device 3 asked for, 1 present"
        ));
    }

    #[test]
    fn result_line_is_the_median() {
        let sorted = [1.0, 2.0, 3.0, 4.0, 5.0];
        assert_eq!(result("x", &sorted), "bench x 3.00");
        assert_eq!(
            spread("x", &sorted),
            "# x: min 1.0 p10 1.0 median 3.0 p90 5.0 ns over 5 batches"
        );
    }

    #[test]
    fn settings_from_the_environment() {
        let vars = |name: &str| match name {
            "BENCH_BATCH" => Some("0".to_string()), // not positive: the default
            "BENCH_BATCHES" => Some("7".to_string()),
            "BENCH_WARMUP" => Some("0".to_string()),
            "BENCH_DEVICE" => Some("1".to_string()),
            _ => None,
        };
        assert_eq!(
            Config::from_vars(vars),
            Config { batch: 1000, batches: 7, warmup: 0, device: 1 }
        );
    }
}
