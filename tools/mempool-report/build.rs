//! Passes on what libcuda-sys's build found (its `links = "cuda"` metadata,
//! `DEP_CUDA_*`) for the report to print, and derives the report's cfgs from
//! it: the header version, and whether libcuda-sys loads the driver at run
//! time (however its `dynamic-loading` feature was turned on: through this
//! crate's feature or by any other crate of the build).

use std::process::exit;

/// `CUDA_VERSION` from which `CU_DEVICE_ATTRIBUTE_MEMPOOL_SUPPORTED_HANDLE_TYPES`
/// is in `cuda.h`.
const POOL_HANDLE_TYPES: u32 = 11030;

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rustc-check-cfg=cfg(has_pool_handle_types)");
    println!("cargo::rustc-check-cfg=cfg(dynamic_loading)");
    if require("DEP_CUDA_LINK_KIND") == "dynamic-loading" {
        println!("cargo::rustc-cfg=dynamic_loading");
    }
    for (key, env) in [
        ("DEP_CUDA_LINK_KIND", "MEMPOOL_REPORT_LINK_KIND"),
        ("DEP_CUDA_FOUND_BY", "MEMPOOL_REPORT_FOUND_BY"),
        ("DEP_CUDA_INCLUDE", "MEMPOOL_REPORT_INCLUDE_DIR"),
        ("DEP_CUDA_PER_THREAD_DEFAULT_STREAM", "MEMPOOL_REPORT_PER_THREAD_DEFAULT_STREAM"),
    ] {
        println!("cargo::rustc-env={env}={}", require(key));
    }
    let version = require("DEP_CUDA_VERSION");
    let Ok(version) = version.trim().parse::<u32>() else {
        eprintln!(
            "mempool-report: DEP_CUDA_VERSION is `{version}`, not a number; libcuda-sys sets it to the header's CUDA_VERSION (13050 for 13.5): rebuild it with `cargo clean -p libcuda-sys`"
        );
        exit(1);
    };
    if version >= POOL_HANDLE_TYPES {
        println!("cargo::rustc-cfg=has_pool_handle_types");
    }
}

/// A `DEP_CUDA_*` key libcuda-sys's build script always sets.
fn require(key: &str) -> String {
    std::env::var(key).unwrap_or_else(|_| {
        eprintln!(
            "mempool-report: {key} is not set: libcuda-sys's build script passes it to direct dependents (links = \"cuda\"); build this crate as a member of the libcuda-sys workspace"
        );
        exit(1);
    })
}
