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

use std::ffi::{c_char, c_int, CStr};
use std::process::ExitCode;

use call_harness::{Driver, Failure};
use libcuda_sys::*;

const VARIANT: &str = if cfg!(feature = "dynamic-loading") {
    "rust-dynamic"
} else {
    "rust-linked"
};

fn check(r: CUresult, call: &str) -> Result<(), String> {
    if r == CUresult::CUDA_SUCCESS {
        Ok(())
    } else {
        Err(format!(
            "{call} returned {} ({})",
            r.name().unwrap_or("unknown CUresult"),
            r.0
        ))
    }
}

/// The driver through libcuda-sys, and the handles the timed calls use.
struct Bindings {
    device: CUdevice,
    pool: CUmemoryPool,
    stream: CUstream,
    used: cuuint64_t,
}

const THRESHOLD: CUmemPool_attribute = CUmemPool_attribute::CU_MEMPOOL_ATTR_RELEASE_THRESHOLD;

// SAFETY (every method): each pointer handed to the driver is a valid local
// out-parameter or a field of `self`, and each handle comes from the driver and
// is used while it is alive (`open` before the others, `close` last).
impl Driver for Bindings {
    fn device_count(&mut self) -> Result<i32, String> {
        let mut count: c_int = 0;
        check(unsafe { cuDeviceGetCount(&mut count) }, "cuDeviceGetCount")?;
        Ok(count)
    }

    fn driver_version(&mut self) -> Result<i32, String> {
        let mut v: c_int = 0;
        check(unsafe { cuDriverGetVersion(&mut v) }, "cuDriverGetVersion")?;
        Ok(v)
    }

    fn open(&mut self, ordinal: i32) -> Result<String, String> {
        unsafe {
            check(cuDeviceGet(&mut self.device, ordinal), "cuDeviceGet")?;
            let mut raw = [0 as c_char; 256];
            check(
                cuDeviceGetName(raw.as_mut_ptr(), raw.len() as c_int, self.device),
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
            check(
                cuStreamCreate(&mut self.stream, CUstream_flags::CU_STREAM_NON_BLOCKING.0),
                "cuStreamCreate",
            )?;
            Ok(CStr::from_ptr(raw.as_ptr()).to_string_lossy().into_owned())
        }
    }

    fn release_threshold(&mut self) -> Result<u64, String> {
        let mut v: cuuint64_t = 0;
        check(
            unsafe { cuMemPoolGetAttribute(self.pool, THRESHOLD, (&mut v as *mut u64).cast()) },
            "cuMemPoolGetAttribute",
        )?;
        Ok(v)
    }

    fn set_release_threshold(&mut self, mut bytes: u64) -> Result<(), String> {
        check(
            unsafe { cuMemPoolSetAttribute(self.pool, THRESHOLD, (&mut bytes as *mut u64).cast()) },
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
        check(
            unsafe { cuStreamSynchronize(self.stream) },
            "cuStreamSynchronize",
        )
    }

    fn close(&mut self) -> Result<(), String> {
        unsafe {
            check(cuStreamDestroy_v2(self.stream), "cuStreamDestroy_v2")?;
            check(
                cuDevicePrimaryCtxRelease_v2(self.device),
                "cuDevicePrimaryCtxRelease_v2",
            )
        }
    }
}

fn init() -> Result<Bindings, Failure> {
    #[cfg(feature = "dynamic-loading")]
    if let Err(e) = libcuda_sys::dynamic::try_load() {
        return Err(Failure::NoDriver(e.to_string()));
    }
    // SAFETY: cuInit takes no pointer; the driver library is loaded.
    check(unsafe { cuInit(0) }, "cuInit").map_err(Failure::NoDriver)?;
    Ok(Bindings {
        device: 0,
        pool: std::ptr::null_mut(),
        stream: std::ptr::null_mut(),
        used: 0,
    })
}

fn main() -> ExitCode {
    call_harness::main(
        VARIANT,
        &format!("headers CUDA_VERSION {CUDA_VERSION}"),
        init,
    )
}
