//! Automation of the libcuda-sys workspace, run as `cargo xtask <command>`.
//!
//! Programs talk through data: Cargo's JSON messages, never its human output.

mod abi_matrix;
mod bench_build;
mod bench_report;
mod bench_units;
mod bindings;
mod bundle;
mod cargo;
mod ci;
mod cross_abi;
mod driver_floor;
mod fallback;
mod gpu_results;
mod headers;
mod machine;
mod pregenerate;
mod report;
mod setup;
mod stats;
mod test;

use std::process::ExitCode;

/// `(command, arguments, what it does)`.
const COMMANDS: &[(&str, &str, &str)] = &[
    (
        "report",
        "[--json]",
        "setup, then the memory-pool report: header version, toolkit, driver, \
         the memory-pool attributes of every GPU (the static table without one)",
    ),
    (
        "test",
        "",
        "setup, then the whole test suite (every feature set, doc tests, fallback-tests, driver-floor); \
         the last line is `tests: N passed, N failed, N skipped`",
    ),
    (
        "setup",
        "",
        "install what is missing (libclang-dev, pkg-config through apt; CUDA 13.x headers from pip \
         where no toolkit is installed, or XTASK_CUDA_HEADERS's); prints `export ...` for a shell; \
         exit status 3 when the headers cannot be had",
    ),
    (
        "headers",
        "VERSION",
        "fetch the CUDA headers of VERSION (11.7, 11.8, 12.0-12.6, 12.8, 12.9, 13.x, or 12.4.127) from NVIDIA's \
         pip wheel into .cuda-headers/ and print the include directory",
    ),
    (
        "ci",
        "",
        "what CI runs: setup, abi-matrix, cross-abi, fmt, clippy, doc, bench-report --check, then test",
    ),
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
    (
        "cross-abi",
        "[--target TRIPLE ...] [VERSION ...]",
        "bindings generated for aarch64-unknown-linux-gnu and x86_64-pc-windows-gnu (and the host) \
         from each platform's pip wheel (12.9 13.5 by default) and the shipped set, every item checked \
         with _Static_assert by the target's C compiler (installed through apt where missing); \
         prints the counts and every value that differs from the host's",
    ),
    (
        "gpu-results",
        "list|run|outcome|binary-failed|table ...",
        "run by a GPU bundle's run.sh, from the copy of xtask the bundle carries: \
         reads each test's libtest events and skip log, writes results.jsonl, prints the table",
    ),
    ("help", "", "this list"),
];

fn main() -> ExitCode {
    if let Some(rustdoc) = std::env::var_os(test::RUSTDOC_VAR) {
        return test::rustdoc(rustdoc);
    }
    let args: Vec<String> = std::env::args().skip(1).collect();
    let rest = args.get(1..).unwrap_or_default();
    let result = match args.first().map(String::as_str) {
        // Arguments first: a typo costs no setup (a pip fetch) and no build.
        Some("report") => report::check(rest)
            .and_then(|()| setup::prepare())
            .and_then(|env| report::run(rest, &env)),
        Some("test") => test::check(rest)
            .map_err(Error::from)
            .and_then(|()| setup::prepare())
            .and_then(|env| test::run(&env).map_err(Error::from)),
        Some("setup") => setup::run(rest),
        Some("headers") => headers::run(rest),
        Some("ci") => ci::run(rest),
        Some("pregenerate") => pregenerate::run(rest).map_err(Error::from),
        Some("fallback-tests") => fallback::run(rest).map_err(Error::from),
        Some("bench-build") => bench_build::run(rest).map_err(Error::from),
        Some("bench-report") => bench_report::run(rest).map_err(Error::from),
        Some("bench-calls-bundle") => bundle::calls(rest).map_err(Error::from),
        Some("gpu-bundle") => bundle::gpu(rest).map_err(Error::from),
        // Run by a GPU bundle's run.sh, from the bundle's copy of xtask.
        Some("gpu-results") => gpu_results::run(rest).map_err(Error::from),
        Some("driver-floor") => driver_floor::run(rest).map_err(Error::from),
        Some("abi-matrix") => {
            setup::tools();
            abi_matrix::run(rest).map_err(Error::from)
        }
        Some("cross-abi") => {
            setup::tools();
            cross_abi::run(rest).map_err(Error::from)
        }
        Some("help") | None => {
            help();
            Ok(())
        }
        Some(other) => {
            help();
            Err(format!("unknown command `{other}`").into())
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Error { status, message }) => {
            if let Some(message) = message {
                eprintln!("xtask: {message}");
            }
            ExitCode::from(status)
        }
    }
}

/// Why a command failed, and xtask's exit status for it.
#[derive(Debug)]
pub struct Error {
    status: u8,
    /// `None` where the failing program said why itself.
    message: Option<String>,
}

impl Error {
    pub fn new(status: u8, message: String) -> Error {
        Error {
            status,
            message: Some(message),
        }
    }

    pub fn quiet(status: u8) -> Error {
        Error {
            status,
            message: None,
        }
    }
}

impl From<String> for Error {
    fn from(message: String) -> Error {
        Error::new(1, message)
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
