//! `cargo xtask test`: the whole test suite. Every test with and without the
//! `per-thread-default-stream` and `dynamic-loading` features, the doc tests,
//! the dependent crate's tests, the fallback checks and the driver-floor
//! checks. The last line counts them: `tests: N passed, N failed, N skipped`.
//!
//! Results are read as data: libtest's JSON events (one per test, `ignored`
//! ones with their reason) and the tests' own skips, which `testkit::skip`
//! appends as JSON lines to the file named by `LIBCUDA_SYS_SKIP_LOG`. A test
//! that skipped returned early and passed in libtest's eyes: it is counted as
//! skipped, not passed.

use std::ffi::OsString;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};

use serde_json::Value;

use crate::{driver_floor, fallback, setup, Result};

/// The cargo test runs, in order; each goes on past a failing test binary:
/// the workspace, the doc tests, then the crates whose code a feature changes,
/// once per feature.
fn suites() -> Vec<Vec<&'static str>> {
    let mut suites = vec![
        vec!["test", "--workspace", "--all-targets"],
        vec!["test", "--doc"],
    ];
    for feature in ["per-thread-default-stream", "dynamic-loading"] {
        suites.push(vec![
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
        ]);
    }
    suites
}

/// libtest's JSON output is unstable-only: allowed with `RUSTC_BOOTSTRAP=1`
/// in the test binaries' environment. Not in Cargo's: build scripts watch
/// that variable (proc-macro2's does) and everything after them would be
/// rebuilt. So the binaries run through `env` as Cargo's runner...
const RUNNER: &str = r#"target.'cfg(all())'.runner = ["env", "RUSTC_BOOTSTRAP=1"]"#;
const JSON: [&str; 4] = ["-Z", "unstable-options", "--format", "json"];
/// ...and the doc tests, whose harness is rustdoc itself, through xtask as
/// `RUSTDOC`, which runs the rustdoc this variable names with it (see
/// [`rustdoc`]).
pub const RUSTDOC_VAR: &str = "LIBCUDA_SYS_XTASK_RUSTDOC";

/// What ran: tests that passed, failed, and skipped with why.
#[derive(Debug, Default)]
pub struct Counts {
    pub passed: usize,
    pub failed: usize,
    /// `(test, reason)`.
    pub skipped: Vec<(String, String)>,
    /// libtest's names of the tests that passed and failed, for matching skips.
    pub passed_names: Vec<String>,
    pub failed_names: Vec<String>,
}

impl Counts {
    pub fn add(&mut self, other: Counts) {
        self.passed += other.passed;
        self.failed += other.failed;
        self.skipped.extend(other.skipped);
        self.passed_names.extend(other.passed_names);
        self.failed_names.extend(other.failed_names);
    }

    pub fn result(&self, what: &str) -> Result {
        if self.failed == 0 {
            Ok(())
        } else {
            Err(format!("{} {what} failed", self.failed))
        }
    }
}

pub fn check(args: &[String]) -> Result {
    if args.is_empty() {
        Ok(())
    } else {
        Err("usage: cargo xtask test".into())
    }
}

pub fn run(env: &setup::Env) -> Result {
    let mut total = Counts::default();
    for (i, suite) in suites().iter().enumerate() {
        total.add(libtest(env, suite, i)?);
    }
    // Builds without CUDA headers or libclang (the shipped bindings), docs.rs,
    // the packaged crate, and the shipped set against a fresh regeneration.
    eprintln!("+ cargo xtask fallback-tests");
    total.add(checks("fallback-tests", fallback::checks()));
    // LIBCUDA_SYS_DRIVER_FLOOR against pairs of real header sets.
    eprintln!("+ cargo xtask driver-floor");
    total.add(checks("driver-floor", driver_floor::checks()));

    println!();
    for (test, reason) in &total.skipped {
        println!("skipped: {test}: {reason}");
    }
    println!(
        "\ntests: {} passed, {} failed, {} skipped",
        total.passed,
        total.failed,
        total.skipped.len()
    );
    total.result("tests")
}

/// A set of checks that could not run at all counts as one failure.
fn checks(what: &str, counts: Result<Counts>) -> Counts {
    counts.unwrap_or_else(|e| {
        println!("FAILED   cargo xtask {what}: {e}");
        Counts {
            failed: 1,
            ..Counts::default()
        }
    })
}

/// One `cargo test` with libtest's JSON events read from its stdout.
fn libtest(env: &setup::Env, args: &[&str], n: usize) -> Result<Counts> {
    eprintln!("+ cargo {}", args.join(" "));
    let log_dir = crate::root().join("target/xtask-test");
    std::fs::create_dir_all(&log_dir).map_err(|e| format!("{}: {e}", log_dir.display()))?;
    let skip_log = log_dir.join(format!("skips-{n}.jsonl"));

    let mut cmd = env.cargo(args);
    cmd.arg("--no-fail-fast").stdout(Stdio::piped());
    as_data(&mut cmd, &skip_log)?;
    let mut child = cmd.spawn().map_err(|e| format!("cargo: {e}"))?;

    let mut counts = Counts::default();
    let stdout = child.stdout.take().expect("piped");
    for line in BufReader::new(stdout).lines() {
        let line = line.map_err(|e| format!("reading cargo test's output: {e}"))?;
        if !read_event(&line, &mut counts) {
            // A test's subprocess writing to stdout past libtest's capture.
            println!("{line}");
        }
    }
    let status = child.wait().map_err(|e| format!("cargo: {e}"))?;

    let mut counts = with_skips(counts, &skip_log)?;
    if !status.success() && counts.failed == 0 {
        // A build or link failure, or a test binary that died: no test to blame.
        println!(
            "FAILED   cargo {}: {status} without a failing test (a build error above)",
            args.join(" ")
        );
        counts.failed = 1;
    }
    Ok(counts)
}

/// A copy of this program, made at the first call: the workspace's own test
/// builds may replace the binary Cargo ran (`--workspace` unifies features,
/// which relinks xtask), and rustdoc must still find its runner.
fn own_copy() -> Result<PathBuf> {
    static COPY: std::sync::OnceLock<std::result::Result<PathBuf, String>> =
        std::sync::OnceLock::new();
    COPY.get_or_init(|| {
        let exe = std::env::current_exe().map_err(|e| format!("xtask's own path: {e}"))?;
        let dir = crate::root().join("target/xtask-test");
        std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let copy = dir.join(format!("xtask-rustdoc-{}", std::process::id()));
        std::fs::copy(&exe, &copy)
            .map_err(|e| format!("copying {} to {}: {e}", exe.display(), copy.display()))?;
        Ok(copy)
    })
    .clone()
}

/// Makes `cmd`, a `cargo test` without `--`, give its results as data: the
/// test binaries' JSON events on stdout, the tests' skips in `skip_log`.
pub fn as_data(cmd: &mut Command, skip_log: &Path) -> Result {
    let _ = std::fs::remove_file(skip_log);
    let exe = own_copy()?;
    let rustdoc = std::env::var_os("RUSTDOC").unwrap_or_else(|| "rustdoc".into());
    cmd.args(["--config", RUNNER, "--"])
        .args(JSON)
        .env(testkit::SKIP_LOG, skip_log)
        .env("RUSTDOC", exe)
        .env(RUSTDOC_VAR, rustdoc);
    Ok(())
}

/// Counts `line` if it is one of libtest's test events; false if it is not
/// an event.
pub fn read_event(line: &str, counts: &mut Counts) -> bool {
    match serde_json::from_str::<Value>(line) {
        Ok(event) if event["type"] == "test" => {
            test_event(&event, counts);
            true
        }
        Ok(event) => event["type"] == "suite",
        Err(_) => false,
    }
}

/// `counts` with the skips of `skip_log`: a test that passed after saying it
/// skipped counts as skipped and not passed; one that failed stays failed.
pub fn with_skips(mut counts: Counts, skip_log: &Path) -> Result<Counts> {
    for skip in read_skips(skip_log)? {
        if counts.failed_names.contains(&skip.libtest) {
            continue;
        }
        if let Some(at) = counts.passed_names.iter().position(|n| *n == skip.libtest) {
            counts.passed_names.swap_remove(at);
        } else if !skip.libtest.is_empty() {
            // Skipped outside any test of these results (a helper thread, a
            // test binary whose events were not read): said, not subtracted.
            counts.skipped.push((skip.test, skip.reason));
            continue;
        }
        counts.passed = counts.passed.saturating_sub(1);
        counts.skipped.push((skip.test, skip.reason));
    }
    Ok(counts)
}

fn test_event(event: &Value, counts: &mut Counts) {
    let name = event["name"].as_str().unwrap_or("?");
    match event["event"].as_str() {
        Some("ok") => {
            counts.passed += 1;
            counts.passed_names.push(name.to_string());
        }
        Some("failed") | Some("timeout") => {
            counts.failed += 1;
            counts.failed_names.push(name.to_string());
            println!("FAILED   {name}");
            if let Some(out) = event["stdout"].as_str() {
                println!("{out}");
            }
        }
        Some("ignored") => {
            let why = event["message"]
                .as_str()
                .unwrap_or("marked ignore, no reason given");
            counts.skipped.push((name.to_string(), why.to_string()));
        }
        _ => {}
    }
}

/// One test's skips: what it said, and libtest's name for it.
struct Skip {
    test: String,
    reason: String,
    libtest: String,
}

/// Each test that skipped, once: its reasons joined where it skipped more
/// than one part.
fn read_skips(log: &Path) -> Result<Vec<Skip>> {
    let text = match std::fs::read_to_string(log) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(format!("{}: {e}", log.display())),
    };
    let mut skips: Vec<Skip> = Vec::new();
    for line in text.lines() {
        let entry: Value =
            serde_json::from_str(line).map_err(|e| format!("{}: {e}: {line}", log.display()))?;
        let field = |k: &str| entry[k].as_str().unwrap_or_default().to_string();
        let (test, reason, libtest) = (field("test"), field("reason"), field("libtest"));
        let same = |s: &&mut Skip| {
            if libtest.is_empty() {
                s.test == test
            } else {
                s.libtest == libtest
            }
        };
        match skips.iter_mut().find(|s| same(s)) {
            Some(s) if !s.reason.split("; ").any(|r| r == reason) => {
                s.reason.push_str("; ");
                s.reason.push_str(&reason);
            }
            Some(_) => {}
            None => skips.push(Skip {
                test,
                reason,
                libtest,
            }),
        }
    }
    Ok(skips)
}

/// xtask as `RUSTDOC`: the rustdoc named by [`RUSTDOC_VAR`] with
/// `RUSTC_BOOTSTRAP=1`, so that the doc tests' harness takes `--format json`
/// while Cargo's own environment, and so its builds, stay as they are.
pub fn rustdoc(real: OsString) -> ExitCode {
    let status = Command::new(&real)
        .args(std::env::args_os().skip(1))
        .env("RUSTC_BOOTSTRAP", "1")
        .env_remove(RUSTDOC_VAR)
        .status();
    match status {
        Ok(s) => ExitCode::from(s.code().map_or(1, |c| c as u8)),
        Err(e) => {
            eprintln!("xtask: {}: {e}", real.to_string_lossy());
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_and_skips_are_counted_apart() {
        let dir = std::env::temp_dir().join(format!("xtask-counts-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let log = dir.join("skips.jsonl");
        std::fs::write(
            &log,
            concat!(
                r#"{"test":"gpu_a","reason":"no driver","libtest":"gpu_a"}"#,
                "\n",
                r#"{"test":"gpu_a","reason":"no driver","libtest":"gpu_a"}"#,
                "\n",
                r#"{"test":"gpu_a","reason":"no second device","libtest":"gpu_a"}"#,
                "\n",
                r#"{"test":"gpu_b","reason":"no driver","libtest":"tests::gpu_b"}"#,
                "\n",
                // Skipped a part, then failed: a failure, not a skip.
                r#"{"test":"broken","reason":"no driver","libtest":"broken"}"#,
                "\n",
            ),
        )
        .unwrap();
        let mut counts = Counts::default();
        let lines = [
            r#"{ "type": "suite", "event": "started", "test_count": 5 }"#,
            r#"{ "type": "test", "event": "started", "name": "gpu_a" }"#,
            r#"{ "type": "test", "name": "gpu_a", "event": "ok" }"#,
            r#"{ "type": "test", "name": "tests::gpu_b", "event": "ok" }"#,
            r#"{ "type": "test", "name": "plain", "event": "ok" }"#,
            r#"{ "type": "test", "name": "broken", "event": "failed", "stdout": "panicked" }"#,
            r#"{ "type": "test", "name": "old_headers", "event": "ignored", "message": "13.0 API" }"#,
            r#"{ "type": "suite", "event": "failed", "passed": 3, "failed": 1, "ignored": 1 }"#,
        ];
        for line in lines {
            assert!(read_event(line, &mut counts), "{line}");
        }
        assert!(!read_event("a child's own output", &mut counts));
        let counts = with_skips(counts, &log).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!((counts.passed, counts.failed), (1, 1));
        assert_eq!(
            counts.skipped,
            [
                ("old_headers".to_string(), "13.0 API".to_string()),
                (
                    "gpu_a".to_string(),
                    "no driver; no second device".to_string()
                ),
                ("gpu_b".to_string(), "no driver".to_string()),
            ]
        );
    }
}
