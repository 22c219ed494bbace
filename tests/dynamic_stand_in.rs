//! The dynamic-loading mode when the `libcuda.so.1` the loader gives is this
//! crate's stand-in (a linked build's, first on the library path under
//! `cargo test`): it is looked through to the driver it hands calls to, and
//! with none behind it there is no driver. The stand-in here is a small C
//! library with the real one's exports for that (`libcuda_sys_stand_in`,
//! `libcuda_sys_stand_in_driver`, stub entry points); the GPU bundle runs the
//! dynamic-loading programs through the real one. Each case is a process of
//! its own, because the library is opened once per process.
#![cfg(all(feature = "dynamic-loading", target_os = "linux"))]

use std::path::{Path, PathBuf};
use std::process::Command;

use libcuda_sys::*;

#[path = "common/fake_driver.rs"]
mod fake_driver;

const STAND_IN: &str = r#"
#include <dlfcn.h>
#include <stdlib.h>
__attribute__((used)) const char libcuda_sys_stand_in[] = "a stand-in for the test";
static void *driver;
__attribute__((constructor)) static void find(void) {
    const char *behind = getenv("LIBCUDA_SYS_TEST_BEHIND");
    driver = behind ? dlopen(behind, RTLD_NOW | RTLD_LOCAL) : 0;
}
void *libcuda_sys_stand_in_driver(void) { return driver; }
int cuInit(unsigned flags) { (void)flags; return 34; }
int cuDriverGetVersion(int *v) { (void)v; return 34; }
int cuMemAlloc_v2(void *p, unsigned long long size) { (void)p; (void)size; return 34; }
"#;

const CASE: &str = "LIBCUDA_SYS_TEST_STAND_IN_CASE";

/// The stand-in and the fake driver, built in the target's temporary directory.
fn built() -> (PathBuf, PathBuf) {
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let flags = if cfg!(feature = "per-thread-default-stream") { 2 } else { 1 };
    let driver = testkit::fake_driver(&tmp.join("fake-driver-behind"), CUDA_VERSION, flags);
    let dir = tmp.join("fake-stand-in");
    std::fs::create_dir_all(&dir).unwrap();
    testkit::compile_c(STAND_IN, &dir.join("libcuda.so.1"), &["-shared", "-fPIC", "-ldl"]);
    (dir, driver)
}

#[test]
fn the_stand_in_is_looked_through() {
    match std::env::var(CASE).as_deref() {
        Ok("behind") => return with_a_driver_behind_it(),
        Ok("alone") => return with_no_driver_behind_it(),
        _ => {}
    }
    let (dir, driver) = built();
    for (case, behind) in [("behind", Some(&driver)), ("alone", None)] {
        let mut cmd = Command::new(std::env::current_exe().unwrap());
        cmd.args(["--exact", "the_stand_in_is_looked_through", "--nocapture"])
            .env(CASE, case)
            .env("LD_LIBRARY_PATH", &dir)
            .env_remove("LIBCUDA_SYS_DRIVER_PATH")
            .env_remove("LIBCUDA_SYS_TEST_BEHIND");
        if let Some(behind) = behind {
            cmd.env("LIBCUDA_SYS_TEST_BEHIND", behind);
        }
        let out = cmd.output().unwrap();
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(out.status.success() && text.contains("1 passed"), "the case `{case}`:\n{text}");
    }
}

/// The calls, `driver_symbol` and `driver_has` are the fake driver's, as
/// they are in a linked program through the stand-in.
fn with_a_driver_behind_it() {
    libcuda_sys::dynamic::try_load().unwrap();
    let mut v = 0;
    assert_eq!(unsafe { cuDriverGetVersion(&mut v) }, CUresult::CUDA_SUCCESS);
    assert_eq!(v, 12345, "not the fake driver behind the stand-in");
    let mut p: CUdeviceptr = 0;
    assert_eq!(unsafe { cuMemAlloc(&mut p, 7) }, CUresult::CUDA_SUCCESS);
    assert_eq!(p, 0x1000 + 7);
    fake_driver::assert_answers();
    let behind = std::env::var_os("LIBCUDA_SYS_TEST_BEHIND").unwrap();
    // SAFETY: the fake driver, already loaded: only an address is taken.
    let library = unsafe { libloading::Library::new(behind) }.unwrap();
    let init = unsafe { library.get::<*mut std::ffi::c_void>(b"cuInit\0") }.unwrap();
    assert_eq!(driver_symbol(c"cuInit"), Ok(*init), "not the driver's cuInit");
}

/// No driver: every call, `driver_symbol` and `driver_has` say the library
/// could not be loaded, and `try_load` names the stand-in, then WSL2's path.
fn with_no_driver_behind_it() {
    let err = libcuda_sys::dynamic::try_load().unwrap_err();
    assert!(err.tried.starts_with("libcuda.so.1, then "), "{err}");
    assert!(err.message.contains("libcuda-sys's stand-in, which found no NVIDIA driver"), "{err}");
    assert!(err.message.contains("fake-stand-in/libcuda.so.1"), "{err}");
    let failed = CUresult::CUDA_ERROR_SHARED_OBJECT_INIT_FAILED;
    assert_eq!(unsafe { cuInit(0) }, failed);
    assert_eq!(driver_symbol(c"cuInit"), Err(failed));
    assert_eq!(driver_has("cuInit"), Err(failed));
}
