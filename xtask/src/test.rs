//! `cargo xtask test`: every test. The suites below (each a `cargo test`, its
//! pass or fail its exit status), then the fallback checks. A test that cannot run here says `skipped` through
//! `testkit::skip`, which also appends it to the skip log (`LIBCUDA_SYS_SKIP_LOG`,
//! one JSON line a skip): read as data, listed with the reasons at the end.
//! The last line: `tests: N passed, N failed, N skipped`, where the first two
//! count suites and checks and the last the tests a suite skipped (a test is
//! counted once in each suite that skips it, as it is run once in each).

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

/// No arguments; any is a usage error, with the report's status for one.
pub fn check(args: &[String]) -> std::result::Result<(), crate::Error> {
    match args {
        [] => Ok(()),
        _ => Err(crate::Error::new(
            crate::report::exit::EXIT_USAGE,
            "usage: cargo xtask test".into(),
        )),
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

/// A check's outcome: what it saw, or why it failed or could not run.
pub type Outcome = std::result::Result<String, Failure>;

/// The one account of suites and checks: each says `ok`, `FAILED` or
/// `skipped` as it ends, and [`Report::finish`] lists the skips and counts.
#[derive(Default)]
pub struct Report {
    passed: usize,
    failed: usize,
    /// `(suite, test or check, its reasons)`.
    skipped: Vec<(String, String, String)>,
}

impl Report {
    pub fn check(&mut self, name: &str, f: impl FnOnce() -> Outcome) {
        let start = std::time::Instant::now();
        let outcome = f();
        self.record(&format!("{name} ({} s)", start.elapsed().as_secs()), outcome);
    }

    /// Runs `cmd`, a test run, with a skip log of its own: passed or failed by
    /// its exit status, its tests' skips kept.
    pub fn suite(&mut self, name: &str, mut cmd: Command) {
        let log = crate::root().join(format!("target/xtask-skips-{}.jsonl", std::process::id()));
        let _ = std::fs::remove_file(&log);
        cmd.env(testkit::SKIP_LOG, &log);
        eprintln!("+ {name}");
        let status = cmd.status().map_err(|e| e.to_string());
        let skips = read_skips(&log);
        let _ = std::fs::remove_file(&log);
        for (test, reason) in skips.iter().flatten() {
            self.skip(name, test, reason);
        }
        let outcome = match (status, skips) {
            (Ok(s), Ok(_)) if s.success() => Ok(String::new()),
            (Ok(s), Ok(_)) => Err(Failure::Failed(s.to_string())),
            (Err(e), _) | (_, Err(e)) => Err(Failure::Failed(e)),
        };
        self.record(name, outcome);
    }

    fn record(&mut self, name: &str, outcome: Outcome) {
        match outcome {
            Ok(saw) => {
                self.passed += 1;
                println!("ok       {name}");
                if !saw.is_empty() {
                    println!("         {saw}");
                }
            }
            Err(Failure::Skipped(why)) => {
                println!("skipped  {name}: {why}");
                self.skip("checks", name, &why);
            }
            Err(Failure::Failed(why)) => {
                self.failed += 1;
                println!("FAILED   {name}\n{why}");
            }
        }
    }

    fn skip(&mut self, suite: &str, test: &str, reason: &str) {
        match self.skipped.iter_mut().find(|(s, t, _)| s == suite && t == test) {
            Some((_, _, r)) if !r.split("; ").any(|x| x == reason) => *r = format!("{r}; {reason}"),
            Some(_) => {}
            None => self.skipped.push((suite.into(), test.into(), reason.into())),
        }
    }

    /// Lists the skips, prints the counts, and fails where anything failed.
    pub fn finish(self, what: &str) -> Result {
        let mut suite = "";
        for (s, test, reason) in &self.skipped {
            if s != suite {
                suite = s;
                println!("\nskipped in {suite}:");
            }
            println!("  {test}: {reason}");
        }
        let (passed, failed, skipped) = (self.passed, self.failed, self.skipped.len());
        println!("\n{what}: {passed} passed, {failed} failed, {skipped} skipped");
        match failed {
            0 => Ok(()),
            n => Err(format!("{n} {what} failed")),
        }
    }
}

/// The skip log's entries, `(test, reason)`.
pub fn read_skips(log: &Path) -> Result<Vec<(String, String)>> {
    let text = match std::fs::read_to_string(log) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(format!("{}: {e}", log.display())),
    };
    let entry = |line: &str| {
        let entry: serde_json::Value = serde_json::from_str(line).ok()?;
        Some((entry["test"].as_str()?.to_string(), entry["reason"].as_str()?.to_string()))
    };
    text.lines()
        .map(|line| entry(line).ok_or_else(|| format!("{}: not a skip: {line}", log.display())))
        .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn skips_are_read_and_kept_once_a_test_and_suite_with_every_reason() {
        let log = std::env::temp_dir().join(format!("xtask-skips-{}.jsonl", std::process::id()));
        let lines = [
            r#"{"test":"gpu_a","reason":"no driver"}"#,
            r#"{"test":"gpu_a","reason":"one GPU"}"#,
            r#"{"test":"tests::gpu_b","reason":"no \"GPU\""}"#,
        ];
        std::fs::write(&log, lines.join("\n")).unwrap();
        let skips = super::read_skips(&log).unwrap();
        std::fs::write(&log, "not json\n").unwrap();
        let bad = super::read_skips(&log);
        std::fs::remove_file(&log).unwrap();
        assert!(bad.is_err());
        let mut report = super::Report::default();
        for suite in ["a", "b"] {
            for (test, reason) in skips.iter().chain(&skips) {
                report.skip(suite, test, reason);
            }
        }
        let kept: Vec<String> =
            report.skipped.iter().map(|(s, t, r)| format!("{s} {t}: {r}")).collect();
        assert_eq!(
            kept,
            [
                "a gpu_a: no driver; one GPU",
                "a tests::gpu_b: no \"GPU\"",
                "b gpu_a: no driver; one GPU",
                "b tests::gpu_b: no \"GPU\"",
            ]
        );
    }
}
