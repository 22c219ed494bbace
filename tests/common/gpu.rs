//! What the GPU tests share: the driver (once per process), a device's
//! primary context, checked calls, and the lock that keeps a test binary's
//! tests from seeing each other's changes half-made. Each GPU test file takes
//! it with `#[macro_use] #[path = "common/gpu.rs"] mod gpu;`.
#![allow(dead_code)]

use libcuda_sys::*;
use std::ffi::c_int;
use std::io::Write;
use std::ptr::null_mut;
use std::sync::{Mutex, MutexGuard, OnceLock, PoisonError};

pub const SUCCESS: CUresult = CUresult::CUDA_SUCCESS;

/// `CUDA_ERROR_INVALID_VALUE (1)`: the error's name and its number.
pub fn name(r: CUresult) -> String {
    r.to_string()
}

/// Runs a driver call and fails the test, naming the call, unless it succeeds.
macro_rules! ck {
    ($call:expr) => {{
        let r: CUresult = unsafe { $call };
        assert!(r == $crate::gpu::SUCCESS, "{} -> {}", stringify!($call), $crate::gpu::name(r));
    }};
}

/// Writes a line to stderr in one piece, past libtest's output capture.
pub fn visible(line: &str) {
    let _ = std::io::stderr().write_all(format!("{line}\n").as_bytes());
}

/// Says a cleanup call failed: a panic on the normal path, a note while unwinding.
pub fn cleanup(what: &str, r: CUresult) {
    if r != SUCCESS {
        if std::thread::panicking() {
            visible(&format!("cleanup: {what} -> {}", name(r)));
        } else {
            panic!("cleanup: {what} -> {}", name(r));
        }
    }
}

/// `cuInit(0)` once per process: `Ok(device count)`, or why no test can run here.
pub fn driver() -> Result<c_int, String> {
    static DRIVER: OnceLock<Result<c_int, String>> = OnceLock::new();
    DRIVER
        .get_or_init(|| {
            let r = unsafe { cuInit(0) };
            let why = match r {
                CUresult::CUDA_SUCCESS => None,
                other => Some(
                    testkit::no_driver_for_tests(other.0)
                        .unwrap_or_else(|| panic!("cuInit(0) -> {}", name(other))),
                ),
            };
            if let Some(why) = why {
                return Err(format!("{why} (cuInit: {})", name(r)));
            }
            let mut n = 0;
            ck!(cuDeviceGetCount(&mut n));
            if n == 0 {
                return Err("the driver sees 0 devices".into());
            }
            Ok(n)
        })
        .clone()
}

pub fn device(ordinal: c_int) -> CUdevice {
    let mut dev = 0;
    ck!(cuDeviceGet(&mut dev, ordinal));
    dev
}

pub fn attribute(dev: CUdevice, attr: CUdevice_attribute) -> c_int {
    let mut v = 0;
    ck!(cuDeviceGetAttribute(&mut v, attr, dev));
    v
}

/// A retained primary context; released on drop.
pub struct Primary {
    pub dev: CUdevice,
    pub ctx: CUcontext,
}

impl Primary {
    pub fn retain(dev: CUdevice) -> Primary {
        let mut ctx = null_mut();
        ck!(cuDevicePrimaryCtxRetain(&mut ctx, dev));
        Primary { dev, ctx }
    }

    pub fn make_current(&self) {
        ck!(cuCtxSetCurrent(self.ctx));
    }
}

impl Drop for Primary {
    fn drop(&mut self) {
        let mut current = null_mut();
        if unsafe { cuCtxGetCurrent(&mut current) } == SUCCESS && current == self.ctx {
            cleanup("cuCtxSetCurrent(NULL)", unsafe { cuCtxSetCurrent(null_mut()) });
        }
        cleanup("cuDevicePrimaryCtxRelease", unsafe { cuDevicePrimaryCtxRelease(self.dev) });
    }
}

static LOCK: Mutex<()> = Mutex::new(());

/// What a test runs on: device 0, its primary context current on this thread,
/// and the lock that keeps the other tests out.
pub struct Gpu {
    pub dev: CUdevice,
    pub devices: c_int,
    pub ctx: Primary,
    _lock: MutexGuard<'static, ()>,
}

/// The test's GPU, or `None` after saying `skipped:` with the reason.
pub fn gpu() -> Option<Gpu> {
    let devices = match driver() {
        Ok(n) => n,
        Err(why) => {
            testkit::skip_gpu(&why);
            return None;
        }
    };
    let lock = LOCK.lock().unwrap_or_else(PoisonError::into_inner);
    let dev = device(0);
    let ctx = Primary::retain(dev);
    ctx.make_current();
    Some(Gpu { dev, devices, ctx, _lock: lock })
}
