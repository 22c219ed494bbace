//! Without a GPU: the bindings declare none of cuda.h's items, and their
//! types are libcuda-sys's.
#![cfg(not(no_curand))]

use std::collections::BTreeSet;

use libcuda_sys_curand_example::*;

/// A libcuda-sys stream goes to cuRAND as it is: this test fails as a
/// compile error (E0308) where `cudaStream_t` is not `libcuda_sys::CUstream`,
/// as it does with the build script's `blocklist_item` taken out.
#[test]
fn curand_takes_a_libcuda_sys_stream_with_no_cast() {
    let set_stream: unsafe extern "C" fn(
        curandGenerator_t,
        libcuda_sys::CUstream,
    ) -> curandStatus_t = curandSetStream;
    let stream: libcuda_sys::CUstream = std::ptr::null_mut();
    let _: cudaStream_t = stream;
    let _ = set_stream;
}

/// `curand.rs` against `DEP_CUDA_ITEMS`: the number of cuda.h items it
/// declares itself, printed, must be 0.
#[test]
fn the_bindings_declare_no_item_of_cuda_h() {
    let path = concat!(env!("OUT_DIR"), "/curand.rs");
    let code = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let file = syn::parse_file(&code).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut declared = libcuda_sys_build::make::items::names(&file.items);
    for item in &file.items {
        if let syn::Item::ForeignMod(block) = item {
            declared.extend(block.items.iter().filter_map(|i| match i {
                syn::ForeignItem::Fn(f) => Some(f.sig.ident.to_string()),
                _ => None,
            }));
        }
    }
    let items = env!("CURAND_EXAMPLE_CUDA_ITEMS");
    let text = std::fs::read_to_string(items).unwrap_or_else(|e| panic!("{items}: {e}"));
    let cuda: BTreeSet<&str> = text.lines().collect();
    let again: Vec<&String> = declared.iter().filter(|n| cuda.contains(n.as_str())).collect();
    eprintln!(
        "curand.rs declares {} items; {} of them are among libcuda-sys's {}: {again:?}",
        declared.len(),
        again.len(),
        cuda.len()
    );
    for name in ["curandCreateGenerator", "curandSetStream", "curandGenerator_t", "cudaStream_t"] {
        assert!(declared.iter().any(|n| n == name), "{name} is not in {path}");
    }
    for name in ["CUstream_st", "CUstream"] {
        assert!(cuda.contains(name), "{name} is not in {items}");
    }
    assert!(again.is_empty(), "cuda.h items declared again: {again:?}");
}

/// libcuda-sys's release cfgs are this crate's, as `DEP_CUDA_CFGS` gave them.
#[test]
fn the_release_cfgs_are_libcuda_sys_s() {
    assert_eq!(cfg!(cuda_13_0), libcuda_sys::HEADER_VERSION >= 13000);
    assert_eq!(cfg!(cuda_12_0), libcuda_sys::HEADER_VERSION >= 12000);
}
