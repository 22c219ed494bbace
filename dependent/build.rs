//! Build script of a crate that depends on libcuda-sys: what a real dependent
//! does with the `links = "cuda"` metadata.
//!
//! - `DEP_CUDA_INCLUDE`: the directory of the `cuda.h` libcuda-sys generated its
//!   bindings from. `src/pool_helper.c` is compiled against it, so C and Rust
//!   agree on every type and constant.
//! - `DEP_CUDA_VERSION`: that header's `CUDA_VERSION` (`major * 1000 + minor * 10`).
//!   It becomes the cfg `has_pool_introspection_attrs` (13.2 and newer: the pool
//!   attributes `CU_MEMPOOL_ATTR_ALLOCATION_TYPE` ... `_HW_DECOMPRESS_ENABLED`)
//!   and the rustc-env `LIBCUDA_DEPENDENT_CUDA_VERSION`; the include directory is
//!   passed on as `LIBCUDA_DEPENDENT_CUDA_INCLUDE`.
//! - `DEP_CUDA_CUDA_H_FNV1A64`: FNV-1a of the `cuda.h` the bindings came from;
//!   a header changed in place since then stops the build with how to refresh.
//! - `DEP_CUDA_FOUND_BY=pregenerated`: libcuda-sys uses the pregenerated bindings of
//!   it and `DEP_CUDA_INCLUDE` is empty. With no header to compile against, a
//!   real dependent stops with a message that says so; this example in
//!   libcuda-sys's workspace builds without its C helper (the cfg `no_cuda_h`)
//!   and its tests say `skipped`, so that `cargo test --workspace` passes.

use std::path::PathBuf;
use std::process::exit;

/// `CUDA_VERSION` from which `CU_MEMPOOL_ATTR_ALLOCATION_TYPE`,
/// `_EXPORT_HANDLE_TYPES`, `_LOCATION_ID`, `_LOCATION_TYPE`, `_MAX_POOL_SIZE`
/// and `_HW_DECOMPRESS_ENABLED` are in `cuda.h`.
const POOL_INTROSPECTION: u32 = 13020;

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-changed=src/pool_helper.c");
    println!("cargo::rustc-check-cfg=cfg(has_pool_introspection_attrs)");

    println!("cargo::rustc-check-cfg=cfg(no_cuda_h)");
    // The items need no header: every line is `use`d from libcuda-sys either way.
    uses_of_every_item();

    if std::env::var("DEP_CUDA_FOUND_BY").as_deref() == Ok("pregenerated") {
        // A real dependent stops here with its own message, as the crate docs
        // show. This one is an example in libcuda-sys's workspace: `cargo test
        // --workspace` builds it without the C helper, and its tests say `skipped`.
        println!(
            "cargo::warning=libcuda-sys uses its pregenerated bindings: there is no cuda.h to \
             compile src/pool_helper.c against; this example builds without it and its tests are \
             skipped (install the CUDA headers, pip install nvidia-cuda-runtime, and libclang, \
             apt-get install libclang-dev, or set LIBCUDA_SYS_BINDINGS=generate to see what is missing)"
        );
        println!("cargo::rustc-cfg=no_cuda_h");
        return;
    }
    let include = PathBuf::from(require("DEP_CUDA_INCLUDE"));
    let version_text = require("DEP_CUDA_VERSION");
    let Ok(version) = version_text.trim().parse::<u32>() else {
        fail(
            &format!("DEP_CUDA_VERSION is `{version_text}`, not a number"),
            "libcuda-sys sets it to the header's CUDA_VERSION, e.g. 13000 for CUDA 13.0.",
        );
    };
    if !include.join("cuda.h").is_file() {
        fail(
            &format!("DEP_CUDA_INCLUDE is {}, which has no cuda.h", include.display()),
            "libcuda-sys sets it to the directory of the cuda.h it generated its bindings from; \
             the toolkit may have moved since it was built: run `cargo clean -p libcuda-sys`.",
        );
    }

    // A cuda.h replaced in place (a package upgrade that keeps an older file
    // time) is invisible to Cargo: libcuda-sys's bindings would stay those of
    // the old header while this C compiles against the new one.
    println!("cargo::rerun-if-changed={}", include.join("cuda.h").display());
    if let Ok(expected) = std::env::var("DEP_CUDA_CUDA_H_FNV1A64") {
        let bytes = std::fs::read(include.join("cuda.h")).unwrap_or_default();
        let found = bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
            (h ^ u64::from(*b)).wrapping_mul(0x0000_0100_0000_01b3)
        });
        if format!("{found:016x}") != expected {
            fail(
                &format!(
                    "{} is not the cuda.h libcuda-sys generated its bindings from",
                    include.join("cuda.h").display()
                ),
                "The header changed after libcuda-sys's build (DEP_CUDA_CUDA_H_FNV1A64 differs), and Cargo \
                 did not notice. Rebuild libcuda-sys from the current header: cargo clean -p libcuda-sys",
            );
        }
    }

    if version >= POOL_INTROSPECTION {
        println!("cargo::rustc-cfg=has_pool_introspection_attrs");
    }
    println!("cargo::rustc-env=LIBCUDA_DEPENDENT_CUDA_VERSION={version}");
    println!("cargo::rustc-env=LIBCUDA_DEPENDENT_CUDA_INCLUDE={}", include.display());

    cc::Build::new()
        .file("src/pool_helper.c")
        .include(&include)
        .warnings(true)
        .compile("pool_helper");
}

/// A `DEP_CUDA_*` variable, or a clear failure.
/// `OUT_DIR/items.rs`: `pub use libcuda_sys::NAME;` for each line of
/// `DEP_CUDA_ITEMS`, which `src/lib.rs` includes: a line that is not an item
/// of libcuda-sys's root fails this crate's build.
fn uses_of_every_item() {
    let path = require("DEP_CUDA_ITEMS");
    println!("cargo::rerun-if-changed={path}");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        fail(&format!("DEP_CUDA_ITEMS ({path}): {e}"), "run `cargo clean -p libcuda-sys`")
    });
    let mut uses = String::new();
    for name in text.lines() {
        let identifier = name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            && name != "_";
        if !identifier {
            fail(&format!("DEP_CUDA_ITEMS has `{name}`, which is no item name"), &path);
        }
        uses.push_str(&format!("pub use libcuda_sys::{name};\n"));
    }
    let out = PathBuf::from(require("OUT_DIR")).join("items.rs");
    std::fs::write(&out, uses).unwrap_or_else(|e| fail(&format!("{}: {e}", out.display()), ""));
}

fn require(name: &str) -> String {
    match std::env::var(name) {
        Ok(value) if !value.is_empty() => value,
        _ => fail(
            &format!("{name} is not set"),
            "Cargo sets DEP_CUDA_* only for the build script of a crate that lists libcuda-sys \
             (links = \"cuda\") directly under [dependencies], and only \
             once libcuda-sys's own build script has succeeded. Check that libcuda-sys is a direct \
             dependency of this crate and that its build succeeds (cargo build -p libcuda-sys -vv).",
        ),
    }
}

fn fail(summary: &str, detail: &str) -> ! {
    println!("cargo::warning={summary}");
    eprintln!("\nerror: {summary}\n\n{detail}\n");
    exit(1);
}
