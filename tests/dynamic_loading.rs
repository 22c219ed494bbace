//! The dynamic-loading mode against a library that is not there, and against a
//! fake driver built here with the C compiler: it has some functions, lacks
//! others, and answers `cuGetProcAddress_v2` for two names only.
#![cfg(feature = "dynamic-loading")]

use std::path::PathBuf;
use std::process::Command;

use libcuda_sys::*;

#[path = "common/fake_driver.rs"]
mod fake_driver;

fn build_fake() -> PathBuf {
    let flags = if cfg!(feature = "per-thread-default-stream") { 2 } else { 1 };
    testkit::fake_driver(
        &PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("fake-driver"),
        CUDA_VERSION,
        flags,
    )
}

#[test]
fn binary_has_no_link_time_libcuda() {
    let exe = std::env::current_exe().unwrap();
    match Command::new("readelf").arg("-d").arg(&exe).output() {
        Ok(out) => {
            let text = String::from_utf8_lossy(&out.stdout);
            assert!(text.contains("NEEDED"), "readelf printed no dynamic section: {text}");
            assert!(!text.contains("libcuda"), "{text}");
        }
        Err(e) => testkit::skip(&format!("readelf not available: {e}")),
    }
}

/// One test drives the process-wide loader: it is opened once, so the order of
/// what this test does is the order a program would see.
#[test]
fn fake_driver() {
    // The library is opened at first use; point it at the fake driver.
    // (tests/dynamic_no_driver.rs, a process of its own, points it at nothing.)
    std::env::set_var("LIBCUDA_SYS_DRIVER_PATH", build_fake());
    libcuda_sys::dynamic::try_load().unwrap();
    assert_eq!(unsafe { cuInit(0) }, CUresult::CUDA_SUCCESS);
    let mut v = 0;
    assert_eq!(unsafe { cuDriverGetVersion(&mut v) }, CUresult::CUDA_SUCCESS);
    assert_eq!(v, 12345);
    // The plain name reaches the exact versioned symbol, not the legacy one.
    let mut p: CUdeviceptr = 0;
    assert_eq!(unsafe { cuMemAlloc(&mut p, 7) }, CUresult::CUDA_SUCCESS);
    assert_eq!(p, 0x1000 + 7, "cuMemAlloc did not reach cuMemAlloc_v2");
    // cuMemFree_v2 is not exported: it comes from cuGetProcAddress("cuMemFree")
    // at the header's version and stream flag.
    assert_eq!(unsafe { cuMemFree(p) }, CUresult::CUDA_SUCCESS);
    // A name the header declares unrenamed keeps the header's ABI even where
    // cuGetProcAddress would answer with a newer one.
    assert_eq!(unsafe { cuCtxSynchronize() }, CUresult::CUDA_SUCCESS);
    // Functions the fake lacks fail alone, with CUDA_ERROR_NOT_FOUND, every time.
    let mut pool = std::ptr::null_mut();
    for _ in 0..2 {
        assert_eq!(
            unsafe { cuDeviceGetDefaultMemPool(&mut pool, 0) },
            CUresult::CUDA_ERROR_NOT_FOUND
        );
    }
    assert_eq!(libcuda_sys::dynamic::is_available("cuDeviceGetDefaultMemPool"), Some(false));
    assert_eq!(libcuda_sys::dynamic::is_available("cuInit"), Some(true));
    // Plain names answer for the function they are aliases of.
    assert_eq!(libcuda_sys::dynamic::is_available("cuMemAlloc"), Some(true));
    assert_eq!(libcuda_sys::dynamic::is_available("cuMemAlloc_v2"), Some(true));
    assert_eq!(libcuda_sys::dynamic::is_available("no_such_function"), None);
    // driver_symbol and driver_has, from the library the crate opened.
    fake_driver::assert_answers();
    // And what was present still works afterwards.
    assert_eq!(unsafe { cuInit(0) }, CUresult::CUDA_SUCCESS);
}
