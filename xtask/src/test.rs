//! `cargo xtask test`: every test. The suites below (each a `cargo test`,
//! passed or failed by its exit status), then the fallback checks. Tests are
//! counted from libtest's lines on each suite's stdout (`test NAME ... ok`,
//! `FAILED`, `ignored`), read as data and passed on as they come. A test that
//! cannot run here says `skipped` through `testkit::skip`, which also appends
//! it to the skip log (`LIBCUDA_SYS_SKIP_LOG`, one JSON line a skip, with
//! libtest's name for the test): such a test is counted as skipped, not
//! passed (one that skipped a part and then failed, as failed only), and so
//! is an ignored one. A test runs, and counts, once in each suite it is in.
//!
//! The summary lists each skipped test once, with the suites it skipped in
//! and why, then three counts, the last line
//! `tests: N passed, N failed, N skipped`; for example:
//!
//! ```text
//! suites: 7 passed, 0 failed
//! checks: 11 passed, 0 failed, 1 skipped
//! tests: 690 passed, 0 failed, 61 skipped
//! ```

use crate::summary::Report;
use crate::{fallback, setup, Result};

/// The cargo test runs, `(label, arguments)`: the workspace, its doctests,
/// then the crates whose code a feature changes, once per feature.
fn suites() -> Vec<(&'static str, Vec<&'static str>)> {
    let mut suites = vec![
        ("workspace", vec!["test", "--workspace", "--all-targets"]),
        ("doctests", vec!["test", "--doc"]),
    ];
    for feature in ["per-thread-default-stream", "dynamic-loading"] {
        suites.push((
            feature,
            vec![
                "test",
                "-p",
                "libcuda-sys",
                "-p",
                "systest",
                "-p",
                "mempool-report",
                "--all-targets",
                "--features",
                feature,
            ],
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

pub fn run(env: &setup::Env) -> Result {
    let mut report = Report::default();
    for (label, args) in suites() {
        let mut cmd = env.cargo(&args);
        cmd.arg("--no-fail-fast");
        report.suite(label, cmd);
    }
    eprintln!("+ cargo xtask fallback-tests");
    fallback::checks(&mut report);
    report.finish()
}
