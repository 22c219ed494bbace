//! The dynamic-loading mode against a library that is not there, and against a
//! fake driver built here with the C compiler: it has some functions, lacks
//! others, and answers `cuGetProcAddress_v2` for two names only.
#![cfg(feature = "dynamic-loading")]

use std::path::PathBuf;
use std::process::Command;

use libcuda_sys::*;

const FAKE: &str = r#"
#include <string.h>
typedef unsigned long long u64;
int cuInit(unsigned flags) { (void)flags; return 0; }
int cuDriverGetVersion(int *v) { *v = 12345; return 0; }
/* The legacy plain symbol: must never be reached through the alias. */
int cuMemAlloc(unsigned *p, unsigned size) { (void)p; (void)size; return 999; }
int cuMemAlloc_v2(u64 *p, u64 size) { *p = 0x1000 + size; return 0; }
/* cuMemFree_v2 is not exported: only cuGetProcAddress knows it. */
static int free_via_proc_address(u64 p) { return p == 0x1007 ? 0 : 1; }
int cuCtxSynchronize(void) { return 0; }
/* A newer ABI the driver would hand out for the header's own name. */
static int synchronize_with_context(void *ctx) { (void)ctx; return 709; }
int cuGetProcAddress_v2(const char *symbol, void **pfn, int version, u64 flags, int *status) {
    if (version == LIBCUDA_SYS_EXPECT_VERSION && flags == LIBCUDA_SYS_EXPECT_FLAGS) {
        if (strcmp(symbol, "cuMemFree") == 0) { *pfn = (void *)free_via_proc_address; *status = 0; return 0; }
        if (strcmp(symbol, "cuCtxSynchronize") == 0) { *pfn = (void *)synchronize_with_context; *status = 0; return 0; }
    }
    *pfn = 0; *status = 1; return 500;
}
"#;

fn build_fake() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("fake-driver");
    std::fs::create_dir_all(&dir).unwrap();
    let c = dir.join("fake.c");
    std::fs::write(&c, FAKE).unwrap();
    let so = dir.join("libcuda-fake.so");
    // The fake includes no CUDA header: any C compiler will do.
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    let cmd: Vec<&str> = cc.split_whitespace().collect();
    let flags = if cfg!(feature = "per-thread-default-stream") { 2 } else { 1 };
    let status = Command::new(cmd[0])
        .args(&cmd[1..])
        .args(["-shared", "-fPIC", "-o"])
        .arg(&so)
        .arg(&c)
        .arg(format!("-DLIBCUDA_SYS_EXPECT_VERSION={}", CUDA_VERSION))
        .arg(format!("-DLIBCUDA_SYS_EXPECT_FLAGS={flags}"))
        .status()
        .unwrap();
    assert!(status.success());
    so
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
    // And what was present still works afterwards.
    assert_eq!(unsafe { cuInit(0) }, CUresult::CUDA_SUCCESS);
}
