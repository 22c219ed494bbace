//! Build script of a binding crate of cuRAND on libcuda-sys: what the crate
//! docs' "A binding crate on libcuda-sys" describes.
//!
//! - `curand.h` is found at `CURAND_ROOT/include`, else beside the `cuda.h`
//!   libcuda-sys generated from (`DEP_CUDA_ROOT`, empty where libcuda-sys
//!   uses its pregenerated bindings).
//! - bindgen binds cuRAND's items (`curand*`, `CURAND*`) and what they use,
//!   less every item `DEP_CUDA_ITEMS` lists: `src/lib.rs` takes those from
//!   libcuda-sys, so a `cudaStream_t` is a `libcuda_sys::CUstream`.
//! - libcuda-sys's `cuda_X_Y` cfgs (`DEP_CUDA_CFGS`) are this crate's too.

use std::env;
use std::path::PathBuf;
use std::process::exit;

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-env-changed=CURAND_ROOT");
    println!("cargo::rustc-check-cfg=cfg(no_curand)");
    // libcuda-sys's release cfgs, declared and set as its own.
    println!("cargo::rustc-check-cfg=cfg({})", require("DEP_CUDA_CHECK_CFGS").replace(',', ", "));
    for cfg in require("DEP_CUDA_CFGS").split(',').filter(|c| !c.is_empty()) {
        println!("cargo::rustc-cfg={cfg}");
    }

    let named = env::var_os("CURAND_ROOT").filter(|v| !v.is_empty()).map(PathBuf::from);
    let toolkit = env::var_os("DEP_CUDA_ROOT").filter(|v| !v.is_empty()).map(PathBuf::from);
    // A build script runs in its package's directory, not where the user set
    // the variable: a relative path would name another place than they meant.
    if let Some(root) = named.as_ref().filter(|r| r.is_relative()) {
        fail(
            &format!("CURAND_ROOT={} is a relative path", root.display()),
            "set CURAND_ROOT to an absolute path (for example \"$PWD/...\"): Cargo runs this \
             build script in the crate's own directory, not where the variable was set",
        );
    }
    let root = match (named, toolkit) {
        (Some(root), _) => root,
        (None, Some(root)) if root.join("include/curand.h").is_file() => root,
        // Nowhere to look, which a binding crate of its own would refuse. This
        // one is an example in libcuda-sys's workspace: `cargo test --workspace`
        // builds it without bindings, and its tests say `skipped`.
        (None, toolkit) => {
            let why = match toolkit {
                Some(root) => {
                    format!("the CUDA headers libcuda-sys read ({}) have no cuRAND", root.display())
                }
                None => {
                    "libcuda-sys uses its pregenerated bindings (DEP_CUDA_ROOT is empty)".into()
                }
            };
            println!(
                "cargo::warning=no cuRAND to bind: CURAND_ROOT is unset and {why}; this example \
                 builds without bindings and its tests are skipped (set CURAND_ROOT to a \
                 directory holding include/curand.h and lib/libcurand.so, or run `cargo xtask \
                 headers curand`)"
            );
            println!("cargo::rustc-cfg=no_curand");
            return;
        }
    };
    let include = root.join("include");
    if !include.join("curand.h").is_file() {
        fail(
            &format!("{} has no curand.h", include.display()),
            "set CURAND_ROOT to a directory holding include/curand.h (a CUDA toolkit with \
             cuRAND, or `cargo xtask headers curand`)",
        );
    }
    let lib = ["lib64", "lib"].map(|d| root.join(d));
    let Some((dir, file)) = lib.iter().find_map(|d| {
        ["libcurand.so", "libcurand.so.10"].into_iter().find(|f| d.join(f).exists()).map(|f| (d, f))
    }) else {
        fail(
            &format!(
                "no libcurand.so or libcurand.so.10 in {} or {}",
                lib[0].display(),
                lib[1].display()
            ),
            "set CURAND_ROOT to a CUDA toolkit with cuRAND, or `cargo xtask headers curand`",
        );
    };

    // The items libcuda-sys binds, one name a line: left out here, taken from it.
    let items = require("DEP_CUDA_ITEMS");
    println!("cargo::rerun-if-changed={items}");
    let items = std::fs::read_to_string(&items).unwrap_or_else(|e| {
        fail(&format!("DEP_CUDA_ITEMS ({items}): {e}"), "run `cargo clean -p libcuda-sys`")
    });
    let names: Vec<&str> = items.lines().collect();

    let out = PathBuf::from(require("OUT_DIR")).join("curand.rs");
    bindgen::Builder::default()
        .header_contents("curand_wrapper.h", "#include <curand.h>\n")
        .clang_arg(format!("-I{}", include.display()))
        .allowlist_function("curand.*")
        .allowlist_type("curand.*")
        .allowlist_var("CURAND.*")
        .blocklist_item(format!("({})", names.join("|")))
        .default_enum_style(bindgen::EnumVariation::NewType {
            is_bitfield: false,
            is_global: false,
        })
        .layout_tests(false)
        .parse_callbacks(Box::new(bindgen::CargoCallbacks::new()))
        .generate()
        .unwrap_or_else(|e| {
            fail(
                &format!("bindgen failed on {}/curand.h: {e}", include.display()),
                "see clang's messages above",
            )
        })
        .write_to_file(&out)
        .unwrap_or_else(|e| fail(&format!("{}: {e}", out.display()), "check OUT_DIR"));

    println!("cargo::rustc-link-search=native={}", dir.display());
    // A pip tree has only the versioned name, which `-l` cannot name.
    match file {
        "libcurand.so" => println!("cargo::rustc-link-lib=dylib=curand"),
        _ => println!("cargo::rustc-link-lib=dylib:+verbatim={file}"),
    }
    // The tests and examples find it where they were linked; elsewhere
    // (a GPU machine), the loader's path does.
    println!("cargo::rustc-link-arg=-Wl,-rpath,{}", dir.display());
    println!("cargo::rustc-env=CURAND_EXAMPLE_CUDA_ITEMS={}", require("DEP_CUDA_ITEMS"));
}

fn require(name: &str) -> String {
    env::var(name).unwrap_or_else(|_| {
        fail(
            &format!("{name} is not set"),
            "this crate must be built by Cargo, with libcuda-sys as a dependency",
        )
    })
}

/// One warning line, the story on stderr, exit status 1: no panic.
fn fail(what: &str, fix: &str) -> ! {
    println!("cargo::warning={what}");
    eprintln!("\nerror: {what}\n  fix: {fix}\n");
    exit(1)
}
