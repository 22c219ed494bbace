//! The dynamic-loading mode pointed at a library that loads but is not the
//! driver (here the C math library): refused with a message that says so,
//! instead of a driver whose every function is missing. A process of its own,
//! because the library is opened once per process.
#![cfg(all(feature = "dynamic-loading", target_os = "linux"))]

use libcuda_sys::*;

#[test]
fn a_library_that_is_not_the_driver_is_refused() {
    std::env::set_var("LIBCUDA_SYS_DRIVER_PATH", "libm.so.6");
    let err = libcuda_sys::dynamic::try_load().unwrap_err();
    assert_eq!(err.tried, "libm.so.6");
    assert!(err.message.contains("does not export cuInit"), "{err}");
    assert_eq!(unsafe { cuInit(0) }, CUresult::CUDA_ERROR_SHARED_OBJECT_INIT_FAILED);
}
