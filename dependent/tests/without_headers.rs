//! Where libcuda-sys uses its pregenerated bindings (`build.rs`: no `cuda.h`
//! to compile the C helper against), the other tests compile to nothing: this
//! one says so.
#![cfg(no_cuda_h)]

#[test]
fn the_tests_against_cuda_h_are_skipped() {
    testkit::skip(
        "libcuda-sys uses its pregenerated bindings: no cuda.h to compile the C helper against \
         (install the CUDA headers and libclang, or set LIBCUDA_SYS_BINDINGS=generate to see why)",
    );
}
