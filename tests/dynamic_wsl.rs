//! The dynamic-loading mode without `LIBCUDA_SYS_DRIVER_PATH` where the loader
//! finds no `libcuda.so.1`: WSL2's driver directory is tried next, and the
//! error names both. A test binary of its own, because the library is opened
//! once per process.
#![cfg(all(feature = "dynamic-loading", target_os = "linux"))]

#[test]
fn the_loaders_libcuda_then_wsl2s_are_tried() {
    std::env::remove_var("LIBCUDA_SYS_DRIVER_PATH");
    let err = match libcuda_sys::dynamic::try_load() {
        Ok(()) => return testkit::skip("this machine has a driver the loader finds"),
        Err(err) => err,
    };
    assert_eq!(err.tried, "libcuda.so.1, then /usr/lib/wsl/lib/libcuda.so.1 (WSL2)");
    // The loader names each file it could not open.
    assert!(err.message.contains("; /usr/lib/wsl/lib/libcuda.so.1: "), "{err}");
}
