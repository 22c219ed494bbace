//! Build script of libcuda-sys.
//!
//! `main` runs the steps in order, each a module under `build/` that returns a
//! plain value or an error: mode (where the bindings come from) -> discover
//! (find `cuda.h`) -> the bindings, either generated (version, bindgen,
//! plain-name aliases, value types, dynamic-loading wrappers) or the shipped set
//! (`pregenerated/`) -> link (which libcuda) -> emit (every `cargo::` line).
//! Besides `emit`, only the env helper prints: each variable read with its
//! `rerun-if-env-changed`, and the `-vv` log on stderr.
//!
//! Environment variables read (each re-runs the script when it changes):
//! `LIBCUDA_SYS_BINDINGS`, `DOCS_RS`, `LIBCUDA_SYS_INCLUDE_DIR`,
//! `LIBCUDA_SYS_LIB_DIR` (both also prefixed with the target, e.g.
//! `X86_64_UNKNOWN_LINUX_GNU_LIBCUDA_SYS_INCLUDE_DIR`), `CUDA_PATH`,
//! `CUDA_HOME`, `CUDA_ROOT`, `CUDA_TOOLKIT_ROOT_DIR`, `PATH`, `CONDA_PREFIX`,
//! `VIRTUAL_ENV`, `PYTHONPATH`, `LIBCLANG_PATH`, `BINDGEN_EXTRA_CLANG_ARGS`
//! (and pkg-config's and cc's own variables).
//!
//! Metadata for dependents (`DEP_CUDA_<KEY>`): `ROOT`, `INCLUDE`, `INCLUDES`,
//! `LIB_DIR`, `LINK_KIND`, `FOUND_BY`, `VERSION`, `VERSION_MAJOR`,
//! `VERSION_MINOR`, `DRIVER_VERSION`, `DRIVER_VERSION_MAJOR`,
//! `DRIVER_VERSION_MINOR` (the last three are the names Rust-CUDA's `cust_raw`
//! uses), `PER_THREAD_DEFAULT_STREAM`, `BINDINGS_DIR`.

// The header is read only to generate: the shipped bindings use the compiler alone.
#[cfg_attr(not(feature = "bindgen"), allow(dead_code))]
#[path = "build/cpp.rs"]
mod cpp;
#[path = "build/discover.rs"]
mod discover;
#[path = "build/emit.rs"]
mod emit;
#[path = "build/env.rs"]
mod env;
#[path = "build/error.rs"]
mod error;
#[path = "build/link.rs"]
mod link;
#[path = "build/mode.rs"]
mod mode;
#[path = "build/output.rs"]
mod output;
#[path = "build/shipped.rs"]
mod shipped;
#[cfg_attr(not(feature = "bindgen"), allow(dead_code))]
#[path = "build/version.rs"]
mod version;

#[cfg(feature = "bindgen")]
#[path = "build/bindings.rs"]
mod bindings;
#[cfg(feature = "bindgen")]
#[path = "build/dynamic.rs"]
mod dynamic;
#[cfg(feature = "bindgen")]
#[path = "build/items.rs"]
mod items;
#[cfg(feature = "bindgen")]
#[path = "build/macro_constants.rs"]
mod macro_constants;
#[cfg(feature = "bindgen")]
#[path = "build/renames.rs"]
mod renames;
#[cfg(feature = "bindgen")]
#[path = "build/since.rs"]
mod since;
#[cfg(feature = "bindgen")]
#[path = "build/value_types.rs"]
mod value_types;

use mode::Mode;
use output::Output;

fn main() {
    if let Err(e) = run() {
        // One warning line that shows without -vv, then the whole story on
        // stderr, which Cargo prints when the script fails. No panic, no backtrace.
        println!("cargo::warning={}", e.summary.replace(['\n', '\r'], " "));
        eprintln!("\n{e}\n");
        std::process::exit(1);
    }
}

fn run() -> error::Result<()> {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-changed=build");
    println!("cargo::rerun-if-changed=wrapper.h");
    println!("cargo::rerun-if-changed=pregenerated");
    let target = env::Target::from_cargo();
    let mut clock = env::Clock::start();

    let mode = mode::choose()?;
    let floor = mode::driver_floor()?;
    // Checked in every mode: a typo in a variable is never hidden by the fallback.
    let lib_dir_override = discover::lib_dir_override(&target)?;
    let search = discover::discover(&target, mode.searches())?;
    clock.step("discovery");

    let shipped = |why: mode::Why, toolkit, clock: &mut env::Clock| match floor {
        Some(floor) => Err(mode::floor_needs_generation(floor, &why)),
        None => shipped::load(&target, why, toolkit, clock),
    };
    let output = match (mode, search) {
        (Mode::Shipped(why), search) => shipped(why, search.found(), &mut clock)?,
        (Mode::Generate, discover::Search::NotFound(e)) => return Err(e),
        (Mode::Generate, discover::Search::Found(toolkit)) => {
            generate(&target, toolkit, floor, &mut clock)?
        }
        (Mode::Auto, discover::Search::NotFound(e)) => {
            shipped(mode::fallback(&e), None, &mut clock)?
        }
        (Mode::Auto, discover::Search::Found(toolkit)) => match mode::libclang() {
            Ok(()) => generate(&target, toolkit, floor, &mut clock)?,
            Err(e) => shipped(mode::fallback(&e), Some(toolkit), &mut clock)?,
        },
    };
    output.write(&target.out_dir)?;
    clock.step("write");

    // Linked: the linker resolves every function against libcuda (or a stand-in).
    // Dynamic loading: each function calls through a table filled at run time.
    let link = if target.dynamic_loading() {
        None
    } else {
        let stub_dirs = output.toolkit().map(|t| t.lib_dirs.as_slice());
        let link = link::choose(
            &target,
            lib_dir_override.as_deref(),
            stub_dirs.unwrap_or_default(),
            &output,
        )?;
        env::directive_path("the libcuda directory", &link.dir)?;
        Some(link)
    };
    clock.step("link");
    emit::emit(
        &target,
        &output,
        link.as_ref(),
        floor.filter(|_| link.is_some()),
    );
    clock.write(&target.out_dir)
}

/// The bindings from the headers found, through bindgen.
#[cfg(feature = "bindgen")]
fn generate(
    target: &env::Target,
    toolkit: discover::Toolkit,
    floor: Option<u32>,
    clock: &mut env::Clock,
) -> error::Result<Output> {
    let header = cpp::Header::new(
        target.manifest_dir.join("wrapper.h"),
        toolkit.include_dir.clone(),
        target.defines(),
        target.out_dir.clone(),
        target.triple.clone(),
    )?;
    let macros = header.macros()?;
    let version = version::from_macros(&header, &macros)?;
    clock.step("version-macros");
    let file = bindings::generate(&header, &macros)?;
    clock.step("bindgen");
    let mut items = items::read(file)?;
    clock.step("read-back");
    let mut renames = renames::find(&header, &macros, &items)?;
    let constants = macro_constants::find(&header, &macros, &items)?;
    let value_types = value_types::render(&items);
    let since = since::find(&toolkit.include_dir, &items);
    for f in &mut items.functions {
        if let Some(v) = since.versions.as_ref().and_then(|s| s.get(&f.name)) {
            let line = since::doc_line(*v);
            f.item.attrs.push(syn::parse_quote!(#[doc = #line]));
        }
    }
    // A floor leaves out of the linked bindings what an older driver lacks, so
    // that using one is a compile error instead of a program that does not start.
    if let (Some(floor), false) = (floor, target.dynamic_loading()) {
        if since.versions.is_none() {
            return Err(since::unavailable_for_floor(&toolkit.include_dir, floor));
        }
        let newer = since::newer_than(&since, floor);
        items.functions.retain(|f| !newer.contains(&f.name));
        renames.retain(|r| !newer.contains(&r.target));
        env::log(format!(
            "driver floor {floor}: {} functions left out: {}",
            newer.len(),
            newer.join(", ")
        ));
    }
    let functions = if target.dynamic_loading() {
        dynamic::render(&items)
    } else {
        items.render_extern()
    };
    let files = vec![
        (output::BINDINGS, items.render_types()),
        (output::FUNCTIONS, functions),
        (output::RENAMES, renames::render(&renames)),
        (output::MACRO_CONSTANTS, macro_constants::render(&constants)),
        (output::VALUE_TYPES, value_types),
        (output::SINCE, since::render(&since, &renames)),
        (output::SYMBOLS, dynamic::render_symbols(&items, &renames)),
        (
            output::LINK_SYMBOLS,
            output::link_symbols(
                items.functions.iter().map(|f| f.name.as_str()),
                renames.iter().map(|r| r.plain.as_str()),
            ),
        ),
    ];
    clock.step("render");
    Ok(Output {
        version,
        files,
        functions: items.functions.len(),
        renames: renames.len(),
        origin: output::Origin::Generated {
            toolkit,
            compiler: header.compiler_command(),
            fingerprint: header.fingerprint()?,
        },
    })
}

/// Without the `bindgen` feature `mode::choose` never asks for generation;
/// should it ever, the build says so instead of panicking.
#[cfg(not(feature = "bindgen"))]
fn generate(
    _: &env::Target,
    _: discover::Toolkit,
    _: Option<u32>,
    _: &mut env::Clock,
) -> error::Result<Output> {
    Err(mode::needs_bindgen_feature())
}
