//! Where there is no cuRAND to bind (`build.rs`: no `CURAND_ROOT`, and
//! libcuda-sys found no toolkit), the crate has no bindings and the other
//! tests compile to nothing: this one says so.
#![cfg(no_curand)]

#[test]
fn the_curand_tests_are_skipped() {
    testkit::skip(
        "no cuRAND to bind: CURAND_ROOT is unset, and libcuda-sys read no toolkit with cuRAND \
         (set CURAND_ROOT, or run `cargo xtask headers curand`)",
    );
}
