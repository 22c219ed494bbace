//! Build script of libcuda-sys.
//!
//! `main` runs the steps in order, each a module under `build/` that returns a
//! plain value or an error: discover (find `cuda.h`) -> version (`CUDA_VERSION`)
//! -> bindings (bindgen, plain-name aliases, ABI check sources) -> link (which
//! libcuda) -> emit (every `cargo::` line). Nothing else prints.
//!
//! Environment variables read (each re-runs the script when it changes):
//! `LIBCUDA_SYS_INCLUDE_DIR`, `LIBCUDA_SYS_LIB_DIR` (both also prefixed with
//! the target, e.g. `X86_64_UNKNOWN_LINUX_GNU_LIBCUDA_SYS_INCLUDE_DIR`),
//! `CUDA_PATH`, `CUDA_HOME`, `CUDA_ROOT`, `CUDA_TOOLKIT_ROOT_DIR`, `PATH`,
//! `CONDA_PREFIX`, `VIRTUAL_ENV`, `PYTHONPATH`, `LIBCLANG_PATH`,
//! `BINDGEN_EXTRA_CLANG_ARGS` (and pkg-config's and cc's own variables).
//!
//! Metadata for dependents (`DEP_CUDA_<KEY>`): `ROOT`, `INCLUDE`, `INCLUDES`,
//! `LIB_DIR`, `LINK_KIND`, `FOUND_BY`, `VERSION`, `VERSION_MAJOR`,
//! `VERSION_MINOR`, `DRIVER_VERSION`, `DRIVER_VERSION_MAJOR`,
//! `DRIVER_VERSION_MINOR` (the last three are the names Rust-CUDA's `cust_raw`
//! uses), `PER_THREAD_DEFAULT_STREAM`.

#[path = "build/abi.rs"]
mod abi;
#[path = "build/bindings.rs"]
mod bindings;
#[path = "build/cpp.rs"]
mod cpp;
#[path = "build/discover.rs"]
mod discover;
#[path = "build/dynamic.rs"]
mod dynamic;
#[path = "build/emit.rs"]
mod emit;
#[path = "build/env.rs"]
mod env;
#[path = "build/error.rs"]
mod error;
#[path = "build/items.rs"]
mod items;
#[path = "build/link.rs"]
mod link;
#[path = "build/renames.rs"]
mod renames;
#[path = "build/value_types.rs"]
mod value_types;
#[path = "build/version.rs"]
mod version;

fn main() {
    if let Err(e) = run() {
        // One warning line that shows without -vv, then the whole story on
        // stderr, which Cargo prints when the script fails. No panic, no backtrace.
        println!("cargo::warning={}", e.summary);
        eprintln!("\n{e}\n");
        std::process::exit(1);
    }
}

fn run() -> error::Result<()> {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-changed=build");
    println!("cargo::rerun-if-changed=wrapper.h");
    let target = env::Target::from_cargo();
    let mut clock = env::Clock::start();

    let toolkit = discover::discover(&target)?;
    clock.step("discovery");
    let header = cpp::Header::new(
        target.manifest_dir.join("wrapper.h"),
        toolkit.include_dir.clone(),
        target.defines(),
        target.out_dir.clone(),
        target.triple.clone(),
    )?;
    let version = version::read(&header)?;
    clock.step("version");

    let macros = header.macros()?;
    clock.step("macros");
    let generated = bindings::generate(&header, &macros)?;
    clock.step("bindgen");
    let items = items::read(&generated.code)?;
    clock.step("read-back");
    let renames = renames::find(&header, &macros, &items)?;
    let aliases = renames::render(&renames.renames);
    let aliases_path = target.out_dir.join("renames.rs");
    std::fs::write(&aliases_path, aliases).map_err(|e| cpp::io_error(&aliases_path, e))?;
    let value_types_path = target.out_dir.join("value_types.rs");
    std::fs::write(&value_types_path, value_types::render(&items))
        .map_err(|e| cpp::io_error(&value_types_path, e))?;
    clock.step("renames-value-types");
    let abi_checks = abi::write(&header, &items, &renames.renames, &renames.preprocessed)?;

    // The symbol table of the dynamic-loading mode; tests/driver_symbols.rs uses it in both modes.
    let table = target.out_dir.join("dynamic_symbols.rs");
    std::fs::write(&table, dynamic::render_symbols(&items, &renames.renames))
        .map_err(|e| cpp::io_error(&table, e))?;
    clock.step("abi-sources");
    // Linked: the linker resolves every function against libcuda (or a stand-in).
    // Dynamic loading: each function calls through a table filled at run time.
    let link = if target.dynamic_loading() {
        let code = dynamic::strip_extern_blocks(&generated.code) + &dynamic::render(&items);
        bindings::write(&target.out_dir, &code)?;
        let table = target.out_dir.join("dynamic_symbols.rs");
        std::fs::write(&table, dynamic::render_symbols(&items, &renames.renames))
            .map_err(|e| cpp::io_error(&table, e))?;
        None
    } else {
        let plain: Vec<String> = renames.renames.iter().map(|r| r.plain.clone()).collect();
        Some(link::choose(&target, &toolkit, &header, &items, &plain)?)
    };

    clock.step(if link.is_some() {
        "link"
    } else {
        "dynamic-wrappers"
    });
    emit::emit(&emit::Summary {
        toolkit: &toolkit,
        version,
        link: link.as_ref(),
        renames: renames.renames.len(),
        functions: items.functions.len(),
        abi_checks,
        per_thread_default_stream: !header.defines.is_empty(),
    });
    Ok(())
}
