//! Build script of libcuda-sys: the build's story. What it reads, decides and
//! emits is documented for users in the crate's rustdoc (`src/lib.rs`). It runs
//! the stages of the libcuda-sys-build crate (`build-logic/`) in order, handing
//! each the plain values the one before gave: find (the mode and release asked
//! for, the headers) -> make (the bindings, generated from the headers by
//! `make::generate` or the pregenerated release, and the driver floor applied)
//! -> write (`write::outputs`: the files, the library to link, every `cargo::`
//! line). It holds what needs the crates that one does not link (Cargo.toml
//! says why): bindgen's settings, which generation calls, the C compiler as cc
//! finds it, and pkg-config. Besides `write::emit`, only the env helper prints
//! (each variable read with its `rerun-if-env-changed`, and the `-vv` log).

use libcuda_sys_build::env::{self, Compiler};
use libcuda_sys_build::find::{self, mode::Mode, toolkit::Search};
#[cfg(feature = "bindgen")]
use libcuda_sys_build::make::generate;
use libcuda_sys_build::model::{self, Generated, Origin, Toolkit};
use libcuda_sys_build::{interop, make, pregenerated, write};

/// This crate's features, as the script was compiled with them.
const FEATURES: env::Features = env::Features {
    bindgen: cfg!(feature = "bindgen"),
    per_thread_default_stream: cfg!(feature = "per-thread-default-stream"),
    dynamic_loading: cfg!(feature = "dynamic-loading"),
    releases: &[
        (11070, cfg!(feature = "cuda-11070")),
        (11080, cfg!(feature = "cuda-11080")),
        (12000, cfg!(feature = "cuda-12000")),
        (12010, cfg!(feature = "cuda-12010")),
        (12020, cfg!(feature = "cuda-12020")),
        (12030, cfg!(feature = "cuda-12030")),
        (12040, cfg!(feature = "cuda-12040")),
        (12050, cfg!(feature = "cuda-12050")),
        (12060, cfg!(feature = "cuda-12060")),
        (12080, cfg!(feature = "cuda-12080")),
        (12090, cfg!(feature = "cuda-12090")),
        (13000, cfg!(feature = "cuda-13000")),
        (13010, cfg!(feature = "cuda-13010")),
        (13020, cfg!(feature = "cuda-13020")),
        (13030, cfg!(feature = "cuda-13030")),
        (13040, cfg!(feature = "cuda-13040")),
        (13050, cfg!(feature = "cuda-13050")),
    ],
    interop: &[
        ("gl", cfg!(feature = "gl")),
        ("egl", cfg!(feature = "egl")),
        ("vdpau", cfg!(feature = "vdpau")),
        ("d3d9", cfg!(feature = "d3d9")),
        ("d3d10", cfg!(feature = "d3d10")),
        ("d3d11", cfg!(feature = "d3d11")),
    ],
};

fn main() {
    model::panics::install();
    let ran = model::panics::caught(run).unwrap_or_else(|panic| {
        Err(model::panics::error("choosing and writing the bindings", &panic))
    });
    if let Err(e) = ran {
        // One warning line that shows without -vv, then the whole story on
        // stderr, which Cargo prints when the script fails. No panic, no backtrace.
        println!("cargo::warning={}", e.summary.replace(['\n', '\r'], " "));
        eprintln!("\n{e}\n");
        std::process::exit(1);
    }
}

fn run() -> model::Result<()> {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-changed=wrapper.h");
    println!("cargo::rerun-if-changed=pregenerated");
    let target = env::Target::from_cargo(FEATURES, c_compiler, pkg_config);
    target.check_pointer_width()?;
    // Passed on as DEP_CUDA_BINDINGS_DIR in every mode: whole, or not at all.
    env::directive_path("OUT_DIR", &target.out_dir)?;

    let modules = interop::enabled(FEATURES.interop, &target.os, env::docs_rs())?;
    let releases = pregenerated::releases(&target)?;
    let release = find::mode::release(&releases, FEATURES.releases)?;
    let mode = find::mode::choose(FEATURES.bindgen)?;
    let floor = find::mode::driver_floor()?;
    // Checked in every mode: a typo in a variable is never hidden by the fallback.
    let lib_dir_override = find::places::lib_dir_override(&target)?;
    let search =
        find::toolkit::discover(&target, mode.searches_everywhere(), &find::places::AUTOMATIC)?;

    // Headers in hand that are not generated from still decide the release,
    // unless a feature names one.
    let pregenerated = |mut why: model::Why, toolkit: Option<Toolkit>| {
        let number = match (&toolkit, release.requested) {
            (Some(toolkit), None) => {
                let found = find::mode::of_headers(&target, toolkit)?;
                let (number, note) = find::mode::release_of_headers(&releases, found, toolkit)?;
                why.release = Some(note);
                number
            }
            _ => release.pregenerated(),
        };
        let bindings = pregenerated::load(&target, number, &why.reason, &modules)?;
        Ok((bindings, Origin::Pregenerated { why, ignored: toolkit }))
    };
    let generate = |toolkit: Toolkit, asked| {
        let watch = find::places::generated(&target, &toolkit.include_dir);
        let (release, modules) = (release.requested, &modules);
        #[cfg(feature = "bindgen")]
        let generated =
            generate::generate(&target, toolkit, watch, release, modules, asked, bindgen);
        // Without the feature `find::mode::choose` never asks for generation;
        // should it ever, the build says so instead of panicking.
        #[cfg(not(feature = "bindgen"))]
        let generated = {
            let _unused = (toolkit, watch, release, modules, asked);
            Err(find::mode::needs_bindgen_feature())
        };
        generated
    };
    let (mut bindings, origin) = match (mode, search) {
        (Mode::Pregenerated(why), search) => pregenerated(why, search.found())?,
        (Mode::Generate, Search::NotFound(e)) => return Err(e),
        (Mode::Generate, Search::Found(toolkit)) => match generate(toolkit, true)? {
            Generated::Bindings(b) => *b,
            Generated::OtherRelease(toolkit, found) => {
                return Err(find::mode::release_mismatch(&release, found, &toolkit))
            }
            Generated::Cannot(_, e, _) => return Err(e),
        },
        (Mode::Auto, Search::NotFound(e)) => {
            pregenerated(find::places::fallback(&e, &target, model::INSTALL), None)?
        }
        // Generation that cannot be done here falls back, saying why.
        (Mode::Auto, Search::Found(toolkit)) => match generate(toolkit, false)? {
            Generated::Bindings(b) => *b,
            Generated::OtherRelease(t, found) => {
                pregenerated(find::mode::other_release(&release, found, &t), Some(t))?
            }
            Generated::Cannot(t, e, undo) => {
                pregenerated(find::places::fallback(&e, &target, undo), Some(t))?
            }
        },
    };
    make::floor::apply(&mut bindings, &origin, floor, &target)?;
    write::outputs::write(&target, &bindings, &origin, lib_dir_override.as_deref(), floor)
}

/// bindgen over `wrapper.h` with the crate's settings (the make stage's
/// [`generate::Bindgen`]); for an interop module, over its header too,
/// keeping only what that header declares.
#[cfg(feature = "bindgen")]
fn bindgen(run: generate::Run<'_>) -> model::Result<Result<String, String>> {
    use bindgen::callbacks::{IntKind, ParseCallbacks};
    use libcuda_sys_build::make::generator::{Unsigned, RUST_TARGET};

    #[derive(Debug)]
    struct Callbacks(generate::Callbacks);
    impl ParseCallbacks for Callbacks {
        fn int_macro(&self, name: &str, value: i64) -> Option<IntKind> {
            Some(match self.0.unsigned(name, value)? {
                Unsigned::Int => IntKind::UInt,
                Unsigned::LongLong => IntKind::ULongLong,
            })
        }
        fn process_comment(&self, comment: &str) -> Option<String> {
            Some(self.0.comment(comment))
        }
    }

    let builder = bindgen::Builder::default().header_contents("libcuda_sys.h", &run.source);
    let builder = match run.module {
        None => builder
            .allowlist_function("cu.*")
            .allowlist_type("CU.*|cuuint(32|64)_t|cudaError_enum")
            .allowlist_var("CU.*|CUDA_.*"),
        // The header's items and what they use (`MAX_PLANES` is no `CU*`
        // name); the window system's types are the crate's own, and opaque to
        // bindgen, so that it does not follow them (MinGW's COM interfaces
        // would bring their vtables and Direct3D's structs).
        Some(m) => builder
            .allowlist_file(m.allowlist_file())
            .blocklist_type(interop::blocklist())
            .opaque_type(interop::blocklist()),
    };
    let (major, minor) = RUST_TARGET;
    let target = bindgen::RustTarget::stable(major, minor)
        .map_err(|e| model::Error::new("bindgen rejected the Rust target", e.to_string()))?;
    let bindings = builder
        .clang_args(&run.clang_args)
        // A C enum value the Rust enum does not list would be undefined
        // behaviour, and newer drivers do return new values.
        .default_enum_style(bindgen::EnumVariation::NewType {
            is_bitfield: false,
            is_global: false,
        })
        .must_use_type("CUresult")
        .must_use_type("cudaError_enum")
        .derive_default(true)
        .layout_tests(true)
        .use_core()
        .ctypes_prefix("::core::ffi")
        .generate_comments(true)
        // Nobody reads the file: the compiler does. (The pregenerated set is formatted by xtask.)
        .formatter(bindgen::Formatter::None)
        .rust_target(target)
        .parse_callbacks(Box::new(bindgen::CargoCallbacks::new()))
        .parse_callbacks(Box::new(Callbacks(run.callbacks)))
        .generate();
    Ok(bindings.map(|b| b.to_string()).map_err(|e| e.to_string()))
}

/// The target's C compiler as cc selects it, with the user's `CC`/`CFLAGS`,
/// and `include`/`defines` where given.
fn c_compiler(include: Option<&std::path::Path>, defines: &[&str]) -> model::Result<Compiler> {
    let mut build = cc::Build::new();
    // cc's metadata is its `rerun-if-env-changed` lines for CC, CFLAGS, ...;
    // it prints link lines only from `compile()`, which is never called.
    build.cargo_metadata(true).cargo_warnings(false);
    if let Some(dir) = include {
        build.include(dir);
    }
    for d in defines {
        build.define(d, None);
    }
    let tool = build.try_get_compiler().map_err(|e| env::no_compiler("", &e.to_string()))?;
    let compiler = Compiler::from_command(&tool.to_command(), tool.path(), tool.is_like_msvc());
    // The same compiler with CFLAGS twice tells which words are the user's
    // (cc splits them): the layout check leaves them out. None set: an error.
    Ok(match build.try_flags_from_environment("CFLAGS").map(|b| b.try_get_compiler()) {
        Ok(Ok(with_user)) => compiler.with_user_flags(&with_user.to_command()),
        _ => compiler,
    })
}

/// pkg-config's include paths for `name`.
#[cfg(feature = "bindgen")]
fn pkg_config(name: &str, register: bool) -> Result<Vec<std::path::PathBuf>, env::Probe> {
    let mut config = pkg_config::Config::new();
    match config.cargo_metadata(false).env_metadata(register).probe(name) {
        Ok(lib) => Ok(lib.include_paths),
        Err(pkg_config::Error::Command { .. }) => Err(env::Probe::NotInstalled),
        Err(e) => Err(env::Probe::Failed(e.to_string())),
    }
}

/// Without `bindgen` the build never searches the machine, as the pregenerated
/// set needs no headers (`find::mode::Mode::searches_everywhere`): no pkg-config.
#[cfg(not(feature = "bindgen"))]
fn pkg_config(_: &str, _: bool) -> Result<Vec<std::path::PathBuf>, env::Probe> {
    Err(env::Probe::NotInstalled)
}
