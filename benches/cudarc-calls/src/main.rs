//! `cudarc-calls`: the call benchmark of libcuda-sys's
//! `examples/call_overhead.rs` through `cudarc::driver::sys` (dynamic loading:
//! each function is looked up by name in libcuda at its first call and cached
//! in a `OnceLock`). The calls, loops, settings, output and exit status are
//! the `call-harness` crate's (`benches/harness`).

use std::ffi::{c_char, c_int, CStr};
use std::process::ExitCode;

use call_harness::{Driver, Failure};
use cudarc::driver::sys::*;

fn check(r: CUresult, call: &str) -> Result<(), String> {
    if r == CUresult::CUDA_SUCCESS {
        Ok(())
    } else {
        Err(format!("{call} returned {r:?}"))
    }
}

/// The driver through cudarc, and the handles the timed calls use.
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
                cuStreamCreate(
                    &mut self.stream,
                    CUstream_flags::CU_STREAM_NON_BLOCKING as u32,
                ),
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
    Ok(Bindings {
        device: 0,
        pool: std::ptr::null_mut(),
        stream: std::ptr::null_mut(),
        used: 0,
    })
}

fn main() -> ExitCode {
    call_harness::main("cudarc", "cudarc API cuda-13000", init)
}
