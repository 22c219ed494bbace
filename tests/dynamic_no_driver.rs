//! The dynamic-loading mode where the driver library cannot be opened: the
//! program starts, says why, and every call returns an error; nothing panics.
//! A test binary of its own, because the library is opened once per process.
#![cfg(feature = "dynamic-loading")]

use libcuda_sys::*;

#[test]
fn missing_driver_is_an_error_per_call() {
    // Before any call: this process opens this path or nothing.
    std::env::set_var("LIBCUDA_SYS_DRIVER_PATH", "/nonexistent/libcuda.so.1");
    let err = libcuda_sys::dynamic::try_load().unwrap_err();
    assert_eq!(err.tried, "/nonexistent/libcuda.so.1");
    // The loader's own words, whichever libloading a build resolves.
    assert!(err.message.contains("No such file or directory"), "{err}");
    assert!(
        err.to_string()
            .starts_with("cannot load the CUDA driver library /nonexistent/libcuda.so.1: "),
        "{err}"
    );
    assert_eq!(unsafe { cuInit(0) }, CUresult::CUDA_ERROR_SHARED_OBJECT_INIT_FAILED);
    let mut p = 0;
    assert_eq!(unsafe { cuMemAlloc(&mut p, 1) }, CUresult::CUDA_ERROR_SHARED_OBJECT_INIT_FAILED);
    // The same answer on a second call: the failure is kept, not retried.
    assert_eq!(unsafe { cuInit(0) }, CUresult::CUDA_ERROR_SHARED_OBJECT_INIT_FAILED);
    assert_eq!(libcuda_sys::dynamic::is_available("cuInit"), Some(false));
}
