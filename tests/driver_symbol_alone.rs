//! A linked program that calls no driver function itself: the linker drops
//! libcuda from it (`--as-needed`), and `driver_symbol`, the way such a
//! program resolves everything by name, must still find the library. With
//! `dynamic-loading` nothing is linked: `driver_symbol` opens the library
//! itself, as tests/dynamic_loading.rs tests.
#![cfg(not(feature = "dynamic-loading"))]

#[test]
fn driver_symbol_answers_in_a_program_that_calls_no_driver_function() {
    let f = libcuda_sys::driver_symbol(c"cuInit");
    if f == Err(libcuda_sys::CUresult::CUDA_ERROR_STUB_LIBRARY) {
        // The library was found: it is the stand-in, and no driver stands behind it.
        testkit::skip_gpu("linked against the stand-in, with no driver behind it");
        return;
    }
    assert!(f.is_ok_and(|p| !p.is_null()), "{f:?}");
    // The same address a second time: the library opened stays open.
    assert_eq!(libcuda_sys::driver_symbol(c"cuInit"), f);
    assert_eq!(
        libcuda_sys::driver_symbol(c"no_such_function"),
        Err(libcuda_sys::CUresult::CUDA_ERROR_NOT_FOUND)
    );
}
