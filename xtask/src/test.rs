//! `cargo xtask test`: every test. The suites below, then the fallback
//! checks. A suite is what `cargo test` selects with its arguments, read as
//! data: its test binaries are built with `cargo test --no-run` and named by
//! Cargo's JSON messages, then run one by one (as `cargo test` runs them);
//! doctests run through `cargo test --doc` (cargo-nextest runs binaries so
//! too, but compiling it costs more than this whole command). Each such
//! program passes or fails by its exit status. Its tests are what it lists (libtest's `--list
//! --format terse`, the stable listing IDEs and cargo-nextest read; libtest's
//! JSON is unstable), with `--ignored` the ignored ones. A test that cannot
//! run here says `skipped` through `testkit::skip_gpu` (it wants a GPU or
//! driver) or `testkit::skip` (anything else), which append it to the skip
//! log (`LIBCUDA_SYS_SKIP_LOG`, one JSON line a skip, with libtest's name
//! for the test): such a test counts as skipped, never as passed, and so
//! does an ignored one. The other tests of a program count as passed where
//! it exited 0. Where it did not, each runs again alone (`--exact`), its
//! output not shown: those that fail count as failed (at least one), the
//! others as passed; doctests cannot run alone (rustdoc splits a filter at
//! its spaces), so a failed doctest run counts all its tests as failed. A
//! test runs, and counts, once in each suite it is in.
//!
//! The summary lists each skipped test once, with the suites it skipped in
//! and why, the GPU's skips, the ignored tests and the others apart, then
//! three counts, the last line `tests: N passed, N failed, N skipped (...)`;
//! for example:
//!
//! ```text
//! suites: 8 passed, 0 failed
//! checks: 16 passed, 0 failed, 0 skipped
//! tests: 463 passed, 0 failed, 157 skipped (153 for want of a GPU or driver, 4 ignored, 0 for another reason)
//! ```

use crate::summary::{Report, Tests};
use crate::targets::FEATURE_BLIND;
use crate::{fallback, setup, Result};

/// The suites, `(label, cargo test arguments, what runs, test targets left
/// out)`: xtask, the rest of the workspace, its doctests, then the crates
/// whose code a feature changes, once per feature. xtask is a suite of its
/// own so that its test build takes the features `cargo xtask` was built
/// with: in a `--workspace` build, bindgen adds features to the syn that
/// serde's derive runs on, and xtask's binary, which `tests/commands.rs`
/// runs, would be compiled a second time.
fn suites() -> Vec<(&'static str, Vec<&'static str>, Tests, &'static [&'static str])> {
    let mut suites = vec![
        ("xtask", vec!["-p", "xtask", "--all-targets"], Tests::Binaries, &[][..]),
        (
            "workspace",
            vec!["--workspace", "--exclude", "xtask", "--all-targets"],
            Tests::Binaries,
            &[][..],
        ),
        ("doctests", vec![], Tests::Doctests, &[]),
    ];
    // Each feature suite builds the crates whose code a feature changes. The
    // graphics-interop modules (the features need generated bindings, as this
    // command's are) come with per-thread-default-stream, which gives their
    // stream-taking functions `_ptsz` symbols: tests/interop.rs links every
    // function of each, and systest compares their items with the C
    // compiler's. Each of the two without the other is checked elsewhere:
    // per-thread-default-stream alone by the fallback checks' suite of it
    // (pregenerated), interop alone by the build-script tests, which
    // generate each module and compare it with the build without.
    for (label, features) in [
        ("per-thread-default-stream, interop", "per-thread-default-stream,gl,egl,vdpau"),
        ("dynamic-loading", "dynamic-loading"),
    ] {
        suites.push((
            label,
            vec![
                "-p",
                "libcuda-sys",
                "-p",
                "systest",
                "-p",
                "mempool-report",
                "--all-targets",
                "--features",
                features,
            ],
            Tests::Binaries,
            FEATURE_BLIND,
        ));
    }
    suites
}

/// No arguments; any is a usage error, with the report's status for one.
pub fn check(args: &[String]) -> std::result::Result<(), crate::Error> {
    match args {
        [] => Ok(()),
        _ => Err(crate::Error::new(crate::exit::EXIT_USAGE, "usage: cargo xtask test".into())),
    }
}

/// Every build of the test command is a first build of its configuration:
/// incremental compilation only adds to it. And none has debug info, which
/// costs about a third of each compile: a panic still says its file and line,
/// a backtrace names the functions. Build dependencies have none by default,
/// so a crate that is one in `cargo build` and also a test's dependency in
/// `cargo test` (clang-sys's glob) is then one unit, and so is all above it
/// (bindgen). The variables reach every cargo below, the tests' own builds
/// included.
pub fn first_builds() {
    std::env::set_var("CARGO_INCREMENTAL", "0");
    std::env::set_var("CARGO_PROFILE_DEV_DEBUG", "0");
}

pub fn run(env: &setup::Env) -> Result {
    // The stand-in's aarch64 branch-protection test runs an aarch64 program
    // under qemu; without them it says `skipped`, so a failed install is no error.
    let aarch64 = "qemu-user gcc-aarch64-linux-gnu libc6-dev-arm64-cross";
    let header = std::path::Path::new("/usr/aarch64-linux-gnu/include/stdio.h");
    for program in ["aarch64-linux-gnu-gcc", "qemu-aarch64"] {
        if let Err(e) = setup::ensure_tool(program, header, aarch64) {
            eprintln!("setup: {e}");
        }
    }
    // The interop build-script tests generate from CUDA 13.0's headers
    // (`tests/build_script/interop.rs`): fetched here, so that a fresh clone
    // runs them instead of skipping them.
    if let Err(e) = crate::headers::include_dir("13.0") {
        eprintln!("setup: CUDA 13.0's headers: {e}");
    }
    first_builds();
    let mut report = Report::default();
    for (label, args, tests, except) in suites() {
        report.suite(label, &args, tests, except, &|cmd| env.with_headers(cmd));
    }
    eprintln!("+ cargo xtask fallback-tests");
    fallback::checks(&mut report);
    report.check(crate::recipe::CHECK, crate::recipe::check);
    report.finish()
}
