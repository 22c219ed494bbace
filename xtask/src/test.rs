//! `cargo xtask test`: every test. The suites below (each a `cargo test`, its
//! pass or fail its exit status), then the fallback checks. A test that cannot run here says `skipped` through
//! `testkit::skip`, which also appends it to the skip log (`LIBCUDA_SYS_SKIP_LOG`,
//! one JSON line a skip): read as data, listed with the reasons at the end.
//! The last line: `tests: N passed, N failed, N skipped`, where the first two
//! count suites and checks and the last the tests that skipped.

use std::path::Path;
use std::process::Command;

use crate::{fallback, setup, Result};

/// The cargo test runs: the workspace, then the crates whose code a feature
/// changes, once per feature.
fn suites() -> Vec<Vec<&'static str>> {
    let mut suites = vec![vec!["test", "--workspace", "--all-targets"], vec!["test", "--doc"]];
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

pub fn check(args: &[String]) -> Result {
    if args.is_empty() {
        Ok(())
    } else {
        Err("usage: cargo xtask test".into())
    }
}

pub fn run(env: &setup::Env) -> Result {
    let mut report = Report::default();
    for suite in suites() {
        let mut cmd = env.cargo(&suite);
        cmd.arg("--no-fail-fast");
        report.suite(&format!("cargo {}", suite.join(" ")), cmd);
    }
    eprintln!("+ cargo xtask fallback-tests");
    fallback::checks(&mut report);
    report.finish("tests")
}

/// Why a check did not pass.
pub enum Failure {
    Failed(String),
    /// It could not run here: said, not counted as passed.
    Skipped(String),
}

impl From<String> for Failure {
    fn from(e: String) -> Failure {
        Failure::Failed(e)
    }
}

impl From<&str> for Failure {
    fn from(e: &str) -> Failure {
        Failure::Failed(e.to_string())
    }
}

/// A check's outcome: what it saw, or why it failed or could not run.
pub type Outcome = std::result::Result<String, Failure>;

/// The one account of suites and checks: each says `ok`, `FAILED` or
/// `skipped` as it ends, and [`Report::finish`] lists the skips and counts.
#[derive(Default)]
pub struct Report {
    passed: usize,
    failed: usize,
    /// `(test or check, reason)`.
    skipped: Vec<(String, String)>,
}

impl Report {
    pub fn check(&mut self, name: &str, f: impl FnOnce() -> Outcome) {
        let start = std::time::Instant::now();
        let outcome = f();
        let secs = start.elapsed().as_secs();
        match outcome {
            Ok(saw) => {
                self.passed += 1;
                println!("ok       {name} ({secs} s)\n         {saw}");
            }
            Err(Failure::Skipped(why)) => {
                println!("skipped  {name}: {why}");
                self.skipped.push((name.to_string(), why));
            }
            Err(Failure::Failed(why)) => {
                self.failed += 1;
                println!("FAILED   {name} ({secs} s)\n{why}");
            }
        }
    }

    /// Runs `cmd`, a test run, with a skip log of its own: passed or failed by
    /// its exit status, its tests' skips kept.
    pub fn suite(&mut self, name: &str, mut cmd: Command) {
        let log = crate::root().join(format!("target/xtask-skips-{}.jsonl", std::process::id()));
        let _ = std::fs::remove_file(&log);
        cmd.env(testkit::SKIP_LOG, &log);
        eprintln!("+ {name}");
        let status = cmd.status();
        match read_skips(&log) {
            Ok(skips) => self.skipped.extend(skips),
            Err(e) => {
                self.failed += 1;
                println!("FAILED   {name}: {e}");
            }
        }
        let _ = std::fs::remove_file(&log);
        match status {
            Ok(s) if s.success() => {
                self.passed += 1;
                println!("ok       {name}");
            }
            Ok(s) => {
                self.failed += 1;
                println!("FAILED   {name}: {s}");
            }
            Err(e) => {
                self.failed += 1;
                println!("FAILED   {name}: {e}");
            }
        }
    }

    /// Lists the skips, prints the counts, and fails where anything failed.
    pub fn finish(self, what: &str) -> Result {
        println!();
        for (test, reason) in &self.skipped {
            println!("skipped: {test}: {reason}");
        }
        println!(
            "\n{what}: {} passed, {} failed, {} skipped",
            self.passed,
            self.failed,
            self.skipped.len()
        );
        match self.failed {
            0 => Ok(()),
            n => Err(format!("{n} {what} failed")),
        }
    }
}

/// The skip log's entries, each test once (with all its reasons).
pub fn read_skips(log: &Path) -> Result<Vec<(String, String)>> {
    let text = match std::fs::read_to_string(log) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(format!("{}: {e}", log.display())),
    };
    let mut skips: Vec<(String, String)> = Vec::new();
    for line in text.lines() {
        let entry: serde_json::Value =
            serde_json::from_str(line).map_err(|e| format!("{}: {e}: {line}", log.display()))?;
        let (test, reason) = (entry["test"].as_str(), entry["reason"].as_str());
        let (Some(test), Some(reason)) = (test, reason) else {
            return Err(format!("{}: not a skip: {line}", log.display()));
        };
        match skips.iter_mut().find(|(t, _)| t == test) {
            Some((_, r)) if !r.split("; ").any(|x| x == reason) => {
                r.push_str("; ");
                r.push_str(reason);
            }
            Some(_) => {}
            None => skips.push((test.to_string(), reason.to_string())),
        }
    }
    Ok(skips)
}

#[cfg(test)]
mod tests {
    #[test]
    fn skips_are_read_once_a_test_with_every_reason() {
        let log = std::env::temp_dir().join(format!("xtask-skips-{}.jsonl", std::process::id()));
        std::fs::write(
            &log,
            concat!(
                r#"{"test":"gpu_a","reason":"no driver"}"#,
                "\n",
                r#"{"test":"gpu_a","reason":"no driver"}"#,
                "\n",
                r#"{"test":"gpu_a","reason":"one GPU"}"#,
                "\n",
                r#"{"test":"tests::gpu_b","reason":"no \"GPU\""}"#,
                "\n",
            ),
        )
        .unwrap();
        let skips = super::read_skips(&log).unwrap();
        std::fs::write(&log, "not json\n").unwrap();
        let bad = super::read_skips(&log);
        std::fs::remove_file(&log).unwrap();
        assert_eq!(
            skips,
            [
                ("gpu_a".to_string(), "no driver; one GPU".to_string()),
                ("tests::gpu_b".to_string(), "no \"GPU\"".to_string()),
            ]
        );
        assert!(bad.is_err());
    }
}
