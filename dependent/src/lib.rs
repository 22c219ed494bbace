//! A crate that depends on libcuda-sys and compiles C against the same `cuda.h`.
//!
//! It is the worked example of the `links = "cuda"` metadata: `build.rs`
//! compiles `src/pool_helper.c` with `DEP_CUDA_INCLUDE`, derives the cfg
//! `has_pool_introspection_attrs` from `DEP_CUDA_VERSION` and passes the
//! version on as [`DEP_CUDA_VERSION`]. The C helper and the Rust bindings read
//! the same pool attribute through the same libcuda, so the tests can check
//! that the two sides agree on constants, layouts and values.
//!
//! The wrappers are "safe-ish": a pool handle can only be had from a
//! [`PrimaryContext`] that keeps the device's primary context retained, so
//! every call gets a live handle; driver errors come back as `Err(CUresult)`.
//!
//! Where libcuda-sys uses its pregenerated bindings there is no `cuda.h` to
//! compile against. A real dependent stops there with its own message (the
//! crate docs, "Metadata for dependents"); this one is an example in
//! libcuda-sys's workspace, so that `cargo test --workspace` builds it
//! without the helper and its tests say `skipped` (`build.rs`: `no_cuda_h`).

/// Every item `DEP_CUDA_ITEMS` names, taken from libcuda-sys by that name
/// (`build.rs`): the file a binding crate's blocklist reads holds only those.
#[doc(hidden)]
pub mod items {
    include!(concat!(env!("OUT_DIR"), "/items.rs"));
}

#[cfg(not(no_cuda_h))]
mod helper;
#[cfg(not(no_cuda_h))]
pub use helper::*;
