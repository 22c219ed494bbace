//! Automation of the libcuda-sys workspace, run as `cargo xtask <command>`.
//!
//! Programs talk through data: Cargo's JSON messages, never its human output.

mod abi_matrix;
mod bench_build;
mod bench_report;
mod bundle;
mod cargo;
mod driver_floor;
mod fallback;
mod headers;
mod pregenerate;
mod stats;

use std::process::ExitCode;

/// `(command, arguments, what it does)`.
const COMMANDS: &[(&str, &str, &str)] = &[
    (
        "pregenerate",
        "[--check]",
        "regenerate the shipped bindings (pregenerated/) from the pinned pip headers; \
         --check compares them with the committed ones instead of writing",
    ),
    (
        "fallback-tests",
        "",
        "builds without CUDA headers or libclang: the shipped bindings, docs.rs, \
         --no-default-features, the packaged crate, and the errors that must stay errors",
    ),
    (
        "bench-build",
        "[--rounds N] [--write | --render]",
        "build cost of each configuration (generate, shipped, no default features) beside cudarc, \
         in fresh dependent projects; --write keeps benches/results/build-modes.json and updates BENCHMARKS.md; \
         --render updates BENCHMARKS.md from the kept results",
    ),
    (
        "driver-floor",
        "",
        "LIBCUDA_SYS_DRIVER_FLOOR against pairs of real header sets (13.0/13.5, 12.0/12.9)",
    ),
    (
        "abi-matrix",
        "[VERSION ...]",
        "generation, build and systest's checks against the headers of each CUDA version \
         (11.8 12.0 12.4 12.9 13.0 13.2 13.5 by default), with and without per-thread-default-stream; \
         prints a table of what was checked",
    ),
    ("help", "", "this list"),
];

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("pregenerate") => pregenerate::run(&args[1..]),
        Some("fallback-tests") => fallback::run(&args[1..]),
        Some("bench-build") => bench_build::run(&args[1..]),
        Some("bench-report") => bench_report::run(&args[1..]),
        Some("bench-calls-bundle") => bundle::calls(&args[1..]),
        Some("gpu-bundle") => bundle::gpu(&args[1..]),
        Some("driver-floor") => driver_floor::run(&args[1..]),
        Some("abi-matrix") => abi_matrix::run(&args[1..]),
        Some("help") | None => {
            help();
            Ok(())
        }
        Some(other) => {
            help();
            Err(format!("unknown command `{other}`"))
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xtask: {e}");
            ExitCode::FAILURE
        }
    }
}

fn help() {
    eprintln!("cargo xtask <command>\n");
    for (name, args, what) in COMMANDS {
        eprintln!("  {name} {args}\n      {what}");
    }
}

pub type Result<T = ()> = std::result::Result<T, String>;

/// The workspace root (xtask lives one level below it).
pub fn root() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask sits in the workspace")
        .to_path_buf()
}
