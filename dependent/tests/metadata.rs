//! Without a GPU: the C side compiled by build.rs with DEP_CUDA_INCLUDE and the
//! Rust bindings of libcuda-sys agree on the header's version and layouts.

#![cfg(not(no_cuda_h))]

use std::path::Path;

use libcuda_sys::{CUmemPoolProps, HEADER_VERSION};
use libcuda_sys_dependent_example as dep;

#[test]
fn c_cuda_version_is_the_bindings_header_version() {
    assert_eq!(
        dep::c_cuda_version(),
        HEADER_VERSION,
        "CUDA_VERSION in C vs libcuda_sys::HEADER_VERSION"
    );
    let from_build: u32 = dep::DEP_CUDA_VERSION.parse().expect("DEP_CUDA_VERSION is a number");
    assert_eq!(from_build, HEADER_VERSION, "DEP_CUDA_VERSION vs libcuda_sys::HEADER_VERSION");
}

#[test]
fn c_and_rust_agree_on_the_size_of_cumempoolprops() {
    assert_eq!(dep::c_sizeof_pool_props(), std::mem::size_of::<CUmemPoolProps>());
}

#[test]
fn dep_cuda_include_holds_the_cuda_h_of_the_bindings() {
    let cuda_h = Path::new(dep::DEP_CUDA_INCLUDE).join("cuda.h");
    let text =
        std::fs::read_to_string(&cuda_h).unwrap_or_else(|e| panic!("{}: {e}", cuda_h.display()));
    let defined = format!("#define CUDA_VERSION {HEADER_VERSION}");
    assert!(text.contains(&defined), "{} does not contain `{defined}`", cuda_h.display());
}

#[test]
fn the_cfg_from_dep_cuda_version_matches_the_bindings() {
    // has_pool_introspection_attrs: set by build.rs for 13.2 headers and newer,
    // where CU_MEMPOOL_ATTR_ALLOCATION_TYPE (9) is declared.
    assert_eq!(dep::HAS_POOL_INTROSPECTION_ATTRS, HEADER_VERSION >= 13020);
    let declared =
        libcuda_sys::VALUE_TYPES.iter().any(|e| e.name == "CU_MEMPOOL_ATTR_ALLOCATION_TYPE");
    assert_eq!(
        dep::HAS_POOL_INTROSPECTION_ATTRS,
        declared,
        "the cfg and the header's attribute list disagree"
    );
}

#[test]
fn c_and_rust_reach_the_same_libcuda() {
    // A null pool is an error either way; both sides must return the same code
    // (CUDA_ERROR_STUB_LIBRARY from the stand-in, an invalid-handle or
    // not-initialized error from a driver).
    // SAFETY: null is allowed: the driver checks the handle.
    let rust = unsafe { dep::used_mem_current_rust(std::ptr::null_mut()) };
    // SAFETY: as above.
    let c = unsafe { dep::used_mem_current_c(std::ptr::null_mut()) };
    assert!(rust.is_err(), "a null pool was accepted: {rust:?}");
    assert_eq!(rust, c);
}
