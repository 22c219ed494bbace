//! The summary `cargo xtask test` and `cargo xtask fallback-tests` print: each
//! suite (a `cargo test`, its tests counted from libtest's lines) and each
//! check, the tests that skipped, and the counts (see `test`).

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, ExitStatus, Stdio};

use crate::Result;

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

#[derive(Default)]
struct Counts {
    passed: usize,
    failed: usize,
    skipped: usize,
}

impl std::fmt::Display for Counts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} passed, {} failed, {} skipped", self.passed, self.failed, self.skipped)
    }
}

/// The one account of suites, checks and tests: each suite and check says
/// `ok`, `FAILED` or `skipped` as it ends, and [`Report::finish`] lists the
/// skips and counts.
#[derive(Default)]
pub struct Report {
    suites: Counts,
    checks: Counts,
    tests: Counts,
    /// `(test or check, [(suite, its reasons there)])`: each once, in the
    /// order they first skipped.
    skipped: Vec<(String, Vec<(String, String)>)>,
    /// Run only the suites and checks whose name holds this (`cargo xtask fallback-tests <part>`).
    pub only: Option<String>,
}

impl Report {
    fn left_out(&self, name: &str) -> bool {
        self.only.as_ref().is_some_and(|part| !name.contains(part.as_str()))
    }

    pub fn check(&mut self, name: &str, f: impl FnOnce() -> Outcome) {
        if self.left_out(name) {
            return;
        }
        let start = std::time::Instant::now();
        let outcome = f();
        let took = format!("({} s)", start.elapsed().as_secs());
        match outcome {
            Ok(saw) => {
                self.checks.passed += 1;
                println!("ok       {name} {took}");
                if !saw.is_empty() {
                    println!("         {saw}");
                }
            }
            Err(Failure::Skipped(why)) => {
                self.checks.skipped += 1;
                println!("skipped  {name} {took}: {why}");
                self.skip("checks", name, &why);
            }
            Err(Failure::Failed(why)) => {
                self.checks.failed += 1;
                println!("FAILED   {name} {took}\n{why}");
            }
        }
    }

    /// Runs `cmd`, a test run, with a skip log of its own: passed or failed by
    /// its exit status, its tests counted from libtest's lines on its stdout
    /// (passed on as they come) and the skip log.
    pub fn suite(&mut self, label: &str, mut cmd: Command) {
        if self.left_out(label) {
            return;
        }
        let log = crate::root().join(format!("target/xtask-skips-{}.jsonl", std::process::id()));
        let _ = std::fs::remove_file(&log);
        cmd.env(testkit::SKIP_LOG, &log).stdout(Stdio::piped());
        eprintln!("+ {label}: {}", crate::shown(&cmd));
        let ran = echoed(cmd);
        let skips = read_skips(&log);
        let _ = std::fs::remove_file(&log);
        let (status, stdout, skips) = match (ran, skips) {
            (Ok((status, stdout)), Ok(skips)) => (status, stdout, skips),
            (Err(e), _) | (_, Err(e)) => {
                self.suites.failed += 1;
                println!("FAILED   {label}\n{e}");
                return;
            }
        };
        let tests = count(&stdout, &skips);
        self.tests.passed += tests.passed;
        self.tests.failed += tests.failed;
        self.tests.skipped += tests.skipped.len();
        for (test, reason) in &tests.skipped {
            self.skip(label, test, reason);
        }
        let counts =
            Counts { passed: tests.passed, failed: tests.failed, skipped: tests.skipped.len() };
        let unread = match tests.unread {
            0 => String::new(),
            n => format!(" ({n} more by libtest's totals, whose lines could not be read)"),
        };
        if status.success() {
            self.suites.passed += 1;
            println!("ok       {label}: tests {counts}{unread}");
        } else {
            self.suites.failed += 1;
            println!("FAILED   {label} ({status}): tests {counts}{unread}");
        }
    }

    fn skip(&mut self, suite: &str, test: &str, reason: &str) {
        let at = match self.skipped.iter().position(|(t, _)| t == test) {
            Some(at) => at,
            None => {
                self.skipped.push((test.into(), Vec::new()));
                self.skipped.len() - 1
            }
        };
        let suites = &mut self.skipped[at].1;
        match suites.iter_mut().find(|(s, _)| s == suite) {
            Some((_, reasons)) => add_reason(reasons, reason),
            None => suites.push((suite.into(), reason.into())),
        }
    }

    /// Lists the skips, prints the counts, and fails where anything failed.
    pub fn finish(self) -> Result {
        print!("{}", self.summary());
        let ran = [&self.suites, &self.checks]
            .iter()
            .map(|c| c.passed + c.failed + c.skipped)
            .sum::<usize>();
        if let Some(part) = self.only.as_ref().filter(|_| ran == 0) {
            return Err(format!("no suite or check's name holds `{part}`: nothing ran"));
        }
        let failed: Vec<String> = [
            ("suite", self.suites.failed),
            ("check", self.checks.failed),
            ("test", self.tests.failed),
        ]
        .into_iter()
        .filter(|(_, n)| *n > 0)
        .map(|(what, n)| format!("{n} {what}{}", if n == 1 { "" } else { "s" }))
        .collect();
        match failed.as_slice() {
            [] => Ok(()),
            _ => Err(format!("{} failed", failed.join(", "))),
        }
    }

    /// Each skipped test once, with its suites (grouped by reason), then the
    /// counts of suites, checks and, last, tests.
    fn summary(&self) -> String {
        let mut out = String::new();
        if !self.skipped.is_empty() {
            out.push_str("\nskipped (each test once, with the suites it skipped in):\n");
        }
        for (test, places) in &self.skipped {
            let mut groups: Vec<(&str, Vec<&str>)> = Vec::new();
            for (suite, reason) in places {
                match groups.iter_mut().find(|(r, _)| r == reason) {
                    Some((_, suites)) => suites.push(suite),
                    None => groups.push((reason, vec![suite])),
                }
            }
            if let [(reason, suites)] = groups.as_slice() {
                out.push_str(&format!("  {test} ({}): {reason}\n", suites.join(", ")));
                continue;
            }
            out.push_str(&format!("  {test}:\n"));
            for (reason, suites) in groups {
                out.push_str(&format!("      ({}): {reason}\n", suites.join(", ")));
            }
        }
        let suites = &self.suites;
        out.push_str(&format!("\nsuites: {} passed, {} failed\n", suites.passed, suites.failed));
        out.push_str(&format!("checks: {}\n", self.checks));
        out.push_str(&format!("tests: {}\n", self.tests));
        out
    }
}

/// `reason` added to `reasons` (`; ` between them), where it is not there yet.
fn add_reason(reasons: &mut String, reason: &str) {
    if !reasons.split("; ").any(|r| r == reason) {
        *reasons = format!("{reasons}; {reason}");
    }
}

/// Runs `cmd`, its stdout piped, passing each line on as it comes: its exit
/// status and its stdout.
fn echoed(mut cmd: Command) -> Result<(ExitStatus, String)> {
    let shown = crate::shown(&cmd);
    let mut child = cmd.spawn().map_err(|e| format!("{shown}: {e}"))?;
    let mut stdout = BufReader::new(child.stdout.take().expect("piped"));
    let (mut text, mut line) = (String::new(), Vec::new());
    while stdout.read_until(b'\n', &mut line).map_err(|e| format!("{shown}: {e}"))? > 0 {
        let read = String::from_utf8_lossy(&line);
        print!("{read}");
        text.push_str(&read);
        line.clear();
    }
    let status = child.wait().map_err(|e| format!("{shown}: {e}"))?;
    Ok((status, text))
}

/// One suite's tests.
#[derive(Debug, Default, PartialEq)]
struct Tests {
    passed: usize,
    failed: usize,
    /// `(test, its reasons)`, once a run.
    skipped: Vec<(String, String)>,
    /// Tests libtest's totals (`test result: ...`) count beyond its lines read.
    unread: usize,
}

/// The tests of one suite, from libtest's lines in `stdout` (`test NAME ...
/// ok`, `FAILED`, `ignored[, reason]`; a `should_panic` test's name ends in
/// ` - should panic`) and the skip log's entries `skips` (`(test, reason)`):
/// a test that passed after a skip was skipped, one that failed failed, an
/// ignored one was skipped. A skip no line names (a thread other than a
/// test's, a harness of its own) counts as one skipped test.
fn count(stdout: &str, skips: &[(String, String)]) -> Tests {
    // Each skipped test once with its reasons, and whether a line named it.
    let mut skipped: Vec<(String, String, bool)> = Vec::new();
    for (test, reason) in skips {
        match skipped.iter_mut().find(|(t, _, _)| t == test) {
            Some((_, reasons, _)) => add_reason(reasons, reason),
            None => skipped.push((test.clone(), reason.clone(), false)),
        }
    }
    let (mut tests, mut totals) = (Tests::default(), 0);
    for line in stdout.lines() {
        if let Some(result) = line.strip_prefix("test result: ") {
            totals += ["passed", "failed", "ignored"]
                .iter()
                .filter_map(|what| {
                    let before = result.split(&format!(" {what}")).next()?;
                    before.rsplit(|c: char| !c.is_ascii_digit()).next()?.parse::<usize>().ok()
                })
                .sum::<usize>();
            continue;
        }
        let Some((name, result)) = line.strip_prefix("test ").and_then(|l| l.rsplit_once(" ... "))
        else {
            continue;
        };
        let name = name.strip_suffix(" - should panic").unwrap_or(name);
        let skip = skipped.iter_mut().find(|(t, _, named)| t == name && !named);
        match result {
            "ok" => match skip {
                Some((test, reasons, named)) => {
                    *named = true;
                    tests.skipped.push((test.clone(), reasons.clone()));
                }
                None => tests.passed += 1,
            },
            "FAILED" => {
                if let Some((_, _, named)) = skip {
                    *named = true;
                }
                tests.failed += 1;
            }
            r if r == "ignored" || r.starts_with("ignored, ") => {
                tests.skipped.push((name.to_string(), r.to_string()))
            }
            _ => continue,
        }
    }
    let lines = tests.passed + tests.failed + tests.skipped.len();
    tests.unread = totals.saturating_sub(lines);
    tests.skipped.extend(skipped.into_iter().filter(|s| !s.2).map(|(t, r, _)| (t, r)));
    tests
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
    /// A stand-in for a `cargo test` run: a shell printing `stdout` (libtest's
    /// lines) and appending `skips` (`test`, `reason`) to the skip log, then
    /// exiting with `status`.
    fn suite(stdout: &str, skips: &[(&str, &str)], status: u8) -> std::process::Command {
        let mut script = format!("printf '%s' '{stdout}'\n");
        for (test, reason) in skips {
            script.push_str(&format!(
                "printf '{{\"test\":\"{test}\",\"reason\":\"{reason}\"}}\\n' >> \"$LIBCUDA_SYS_SKIP_LOG\"\n"
            ));
        }
        script.push_str(&format!("exit {status}"));
        let mut cmd = std::process::Command::new("sh");
        cmd.arg("-c").arg(script);
        cmd
    }

    /// Tests, not suites, are counted: a test once in each suite it runs in,
    /// a skipped test as skipped and not passed, a failed one as failed, an
    /// ignored one as skipped; suites and checks have counts of their own;
    /// each skipped test is listed once, with its suites and reasons.
    #[test]
    fn the_summary_counts_tests_once_a_run_and_lists_each_skipped_test_once() {
        let workspace = "running 3 tests
test gpu_a ... ok
test plain ... ok
test tests::broken ... FAILED

failures:

---- tests::broken stdout ----
test result: FAILED. 2 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s

running 2 tests
test gpu_b ... ok
test slow ... ignored, needs a GPU

test result: ok. 1 passed; 0 failed; 1 ignored; 0 measured; 0 filtered out; finished in 0.00s
";
        let dynamic = "running 3 tests
test gpu_a ... ok
test plain ... ok
test tests::panics - should panic ... ok

test result: ok. 3 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s
";
        let mut report = super::Report::default();
        let skips = [("gpu_a", "no driver"), ("gpu_b", "no driver"), ("gpu_b", "one GPU")];
        report.suite("workspace", suite(workspace, &skips, 101));
        report.suite("dynamic-loading", suite(dynamic, &[("gpu_a", "no libcuda.so.1")], 0));
        report.check("a check", || Ok(String::new()));
        report.check("another check", || Err(super::Failure::Skipped("no unshare".into())));
        let summary = report.summary();
        let tail: Vec<&str> = summary.lines().skip_while(|l| !l.starts_with("skipped")).collect();
        assert_eq!(
            tail,
            [
                "skipped (each test once, with the suites it skipped in):",
                "  gpu_a:",
                "      (workspace): no driver",
                "      (dynamic-loading): no libcuda.so.1",
                "  gpu_b (workspace): no driver; one GPU",
                "  slow (workspace): ignored, needs a GPU",
                "  another check (checks): no unshare",
                "",
                "suites: 1 passed, 1 failed",
                "checks: 1 passed, 0 failed, 1 skipped",
                "tests: 3 passed, 1 failed, 4 skipped",
            ],
            "{summary}"
        );
    }

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
        let kept: Vec<String> = report
            .skipped
            .iter()
            .flat_map(|(t, places)| places.iter().map(move |(s, r)| format!("{t} in {s}: {r}")))
            .collect();
        assert_eq!(
            kept,
            [
                "gpu_a in a: no driver; one GPU",
                "gpu_a in b: no driver; one GPU",
                "tests::gpu_b in a: no \"GPU\"",
                "tests::gpu_b in b: no \"GPU\"",
            ]
        );
    }

    /// libtest's lines read as data: the skipped test that passed is skipped
    /// (once a run, its reasons together), the one that failed failed, a name
    /// in two binaries counts twice, a skip no line names once, and tests
    /// libtest's totals count beyond the lines read are said.
    #[test]
    fn a_suites_tests_are_counted_from_libtests_lines_and_the_skip_log() {
        let stdout = "running 4 tests
test gpu_a ... ok
test tests::gpu_b ... FAILED
test plain ... ok
test doc.rs - f (line 3) ... ignored
test result: FAILED. 2 passed; 1 failed; 1 ignored; 0 measured; 0 filtered out; finished in 0.01s
running 3 tests
test plain ... ok
test gpu_a ... ok
test tests::a_mangled_li
test result: ok. 3 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s
";
        let skip = |t: &str, r: &str| (t.to_string(), r.to_string());
        let skips = [
            skip("gpu_a", "no driver"),
            skip("tests::gpu_b", "no driver"),
            skip("gpu_a", "one GPU"),
            skip("main", "from a build script"),
        ];
        let tests = super::count(stdout, &skips);
        assert_eq!(
            tests,
            super::Tests {
                passed: 3,
                failed: 1,
                skipped: vec![
                    skip("gpu_a", "no driver; one GPU"),
                    skip("doc.rs - f (line 3)", "ignored"),
                    skip("main", "from a build script"),
                ],
                unread: 1,
            }
        );
    }
}
