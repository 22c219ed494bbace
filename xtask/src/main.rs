//! Automation of the libcuda-sys workspace, run as `cargo xtask <command>`.
//!
//! Programs talk through data: Cargo's JSON messages, never its human output.

mod abi_matrix;
mod bench_build;
mod bench_report;
mod bench_units;
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
        "[--rounds N] [--write | --render] | --units [--variants] [--debug-only] [--rounds N] [--write]",
        "build cost of each configuration (generate, shipped, no default features) beside cudarc, \
         in fresh dependent projects; --write keeps benches/results/build-modes.json and updates BENCHMARKS.md; \
         --render updates BENCHMARKS.md from the kept results. --units: unit by unit from Cargo's JSON messages \
         (build script compile and run, bindings compile, rebuilds, the build script's steps) beside cudarc, \
         debug and release (--debug-only: debug); --variants: the candidate optimizations of benches/variants/; \
         --write keeps benches/results/build.json or build-variants.json",
    ),
    (
        "bench-report",
        "[--calls FILE [--name NAME]] [--check]",
        "BENCHMARKS.md from benches/results/; --calls keeps a run.sh results file as \
         benches/results/calls-NAME.txt first; --check fails where BENCHMARKS.md is out of date",
    ),
    (
        "bench-calls-bundle",
        "[VERSION [DIR]] [--self-test]",
        "the call benchmark (C, libcuda-sys linked and dynamic-loading, cudarc) with a run.sh for a GPU \
         machine without Rust, into DIR (default .bench-bundle); VERSION: headers (default 13.0); \
         --self-test runs it here against a no-op libcuda",
    ),
    (
        "gpu-bundle",
        "[VERSION [DIR]] [--features F] [--driver-floor V]",
        "every test binary built against one CUDA version's headers (default 13.0), the report and a run.sh \
         for a GPU machine without Rust, into DIR (default .gpu-bundle); run.sh writes results.jsonl and a table",
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
