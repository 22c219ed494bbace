//! The summary `cargo xtask test` and `cargo xtask fallback-tests` print: each
//! suite (its test programs run one by one) and each check as it ends, the
//! tests that skipped, and the counts (see `test` for how tests are counted).

use std::path::Path;
use std::process::{Command, ExitStatus, Stdio};

use cargo_metadata::Message;
use serde_json::Value;

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
    /// By [`Kind`], in its order.
    skipped: [usize; 3],
}

impl std::fmt::Display for Counts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let [gpu, ignored, other] = self.skipped;
        let skipped = gpu + ignored + other;
        write!(f, "{} passed, {} failed, {skipped} skipped", self.passed, self.failed)?;
        if skipped > 0 {
            write!(
                f,
                " ({gpu} {}, {ignored} {}, {other} {})",
                Gpu.why(),
                Ignored.why(),
                Other.why()
            )?;
        }
        Ok(())
    }
}

/// Why a test or check did not run, which the counts keep apart: a machine
/// like CI's has no GPU, and every other skip is worth a look.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Kind {
    /// It wants a GPU or driver, or more of one (`testkit::skip_gpu`).
    Gpu,
    /// `#[ignore]`d.
    Ignored,
    /// It wants something else the machine lacks (`testkit::skip`, a check's skip).
    Other,
}
use Kind::{Gpu, Ignored, Other};

impl Kind {
    fn why(self) -> &'static str {
        match self {
            Gpu => "for want of a GPU or driver",
            Ignored => "ignored",
            Other => "for another reason",
        }
    }
}

/// What a suite runs of what `cargo test` selects with its arguments.
#[derive(Clone, Copy, PartialEq)]
pub enum Tests {
    /// The test binaries (`cargo test --no-run`).
    Binaries,
    /// The doctests (`cargo test --doc`).
    Doctests,
    Both,
}

/// A program of tests: a test binary, or a suite's doctests.
struct Program<'a> {
    name: String,
    command: Box<Invocation<'a>>,
    /// Whether `--exact NAME` runs one test: not for doctests, whose names
    /// rustdoc splits at their spaces.
    exact: bool,
}

/// What a suite or check took: seconds, and the CPU seconds of the
/// processes it ran (Linux's `/proc/self/stat`: those waited for), the cost
/// the test command is kept down by.
struct Took {
    start: std::time::Instant,
    cpu: Option<f64>,
}

impl Took {
    fn start() -> Took {
        Took { start: std::time::Instant::now(), cpu: children_cpu() }
    }

    fn end(&self) -> String {
        let wall = self.start.elapsed().as_secs();
        match (self.cpu, children_cpu()) {
            (Some(before), Some(now)) => format!("({wall} s, {:.0} CPU-s)", now - before),
            _ => format!("({wall} s)"),
        }
    }
}

/// The user and system time of this process's waited-for children, in
/// seconds: fields 16 and 17 of `/proc/self/stat`, in clock ticks (USER_HZ,
/// 100 on Linux).
fn children_cpu() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The fields after the command name, which is in parentheses.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks = |i: usize| fields.get(i)?.parse::<f64>().ok();
    Some((ticks(13)? + ticks(14)?) / 100.0)
}

/// The command that runs a program with libtest's arguments.
type Invocation<'a> = dyn Fn(&[&str]) -> Command + 'a;

/// The one account of suites, checks and tests: each suite and check says
/// `ok`, `FAILED` or `skipped` as it ends, and [`Report::finish`] lists the
/// skips and counts.
/// `(test or check, why, [(suite, its reasons there)])`.
type Skipped = (String, Kind, Vec<(String, String)>);

#[derive(Default)]
pub struct Report {
    suites: Counts,
    checks: Counts,
    tests: Counts,
    /// Each test or check once a kind, in the order they first skipped.
    skipped: Vec<Skipped>,
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
        let took = Took::start();
        let outcome = f();
        let took = took.end();
        match outcome {
            Ok(saw) => {
                self.checks.passed += 1;
                println!("ok       {name} {took}");
                if !saw.is_empty() {
                    println!("         {saw}");
                }
            }
            Err(Failure::Skipped(why)) => {
                self.checks.skipped[Other as usize] += 1;
                println!("skipped  {name} {took}: {why}");
                self.skip("checks", name, &why, Other);
            }
            Err(Failure::Failed(why)) => {
                self.checks.failed += 1;
                println!("FAILED   {name} {took}\n{why}");
            }
        }
    }

    /// Runs a suite: `cargo test` with `args`, its `tests`. The test binaries
    /// are those Cargo's JSON messages name (built with `--no-run`), run one
    /// by one as `cargo test` would (in their package's directory, with the
    /// build's library directories); the doctests run through `cargo test
    /// --doc`. `wrap` makes each command, cargo's and the binaries', ready to
    /// run (its environment, a sandbox). Each program passes or fails by its
    /// exit status, and its tests are counted from its list (libtest's
    /// `--list --format terse`) and its skip log. The test targets named in
    /// `except` are built but not run.
    pub fn suite(
        &mut self,
        label: &str,
        args: &[&str],
        tests: Tests,
        except: &[&str],
        wrap: &dyn Fn(Command) -> Command,
    ) {
        if self.left_out(label) {
            return;
        }
        let cargo = |extra: &[&str]| {
            let mut cmd = crate::cargo::in_root(&["test"]);
            cmd.args(args).args(extra);
            wrap(cmd)
        };
        eprintln!("+ {label}: cargo test {}", args.join(" "));
        let took = Took::start();
        let (mut programs, mut failed) = (Vec::new(), Vec::new());
        if tests != Tests::Doctests {
            // As `cargo test --no-fail-fast`: what built runs, where some did not.
            let args = ["--no-run", "--no-fail-fast", "--message-format=json-render-diagnostics"];
            let (built, messages) = crate::cargo::messages(cargo(&args)).unwrap_or_else(|e| {
                eprintln!("{e}");
                (false, Vec::new())
            });
            if !built {
                failed.push("the build".to_string());
            }
            programs.extend(binaries(&messages, wrap, except));
        }
        if tests != Tests::Binaries {
            let command = move |libtest: &[&str]| {
                cargo(&[&["--doc", "--no-fail-fast", "--"], libtest].concat())
            };
            let command = Box::new(command);
            programs.push(Program { name: "doctests".into(), command, exact: false });
        }
        self.programs(label, &programs, failed, took);
    }

    /// Runs a suite's `programs` one by one and counts their tests; the suite
    /// fails where any does, or `failed` names anything.
    fn programs(&mut self, label: &str, programs: &[Program], mut failed: Vec<String>, took: Took) {
        // Outside the tree: the target directory may be elsewhere and the
        // tree read-only, and a log the programs cannot write loses their skips.
        let dir = tempfile::Builder::new().prefix("xtask-skips-").tempdir();
        let mut counts = Counts::default();
        for program in programs {
            let ran = dir.as_ref().map_err(|e| format!("a directory for the skip log: {e}"));
            let ran = match ran.and_then(|dir| run(program, &dir.path().join("skips.jsonl"))) {
                Ok(ran) => ran,
                Err(e) => {
                    counts.failed += 1;
                    failed.push(format!("{}: {e}", program.name));
                    continue;
                }
            };
            let tally = ran.tally();
            if !ran.status.success() {
                failed.push(format!("{} ({})", program.name, ran.status));
            }
            counts.passed += tally.passed;
            counts.failed += tally.failed;
            for (test, reason, kind) in &tally.skipped {
                counts.skipped[*kind as usize] += 1;
                self.skip(label, test, reason, *kind);
            }
        }
        self.tests.passed += counts.passed;
        self.tests.failed += counts.failed;
        for (all, these) in self.tests.skipped.iter_mut().zip(counts.skipped) {
            *all += these;
        }
        if failed.is_empty() {
            self.suites.passed += 1;
            println!("ok       {label}: tests {counts} {}", took.end());
        } else {
            self.suites.failed += 1;
            println!(
                "FAILED   {label}: tests {counts} {}; failed: {}",
                took.end(),
                failed.join(", ")
            );
        }
    }

    fn skip(&mut self, suite: &str, test: &str, reason: &str, kind: Kind) {
        let at = match self.skipped.iter().position(|(t, k, _)| t == test && *k == kind) {
            Some(at) => at,
            None => {
                self.skipped.push((test.into(), kind, Vec::new()));
                self.skipped.len() - 1
            }
        };
        let suites = &mut self.skipped[at].2;
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
            .map(|c| c.passed + c.failed + c.skipped.iter().sum::<usize>())
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

    /// Each skipped test once, with its suites (grouped by reason), the
    /// GPU's skips, the ignored tests and the others apart, then the counts of
    /// suites, checks and, last, tests.
    fn summary(&self) -> String {
        let mut out = String::new();
        for kind in [Gpu, Ignored, Other] {
            let mut these = self.skipped.iter().filter(|(_, k, _)| *k == kind).peekable();
            if these.peek().is_some() {
                let what = match kind {
                    Ignored => "ignored".to_string(),
                    _ => format!("skipped {}", kind.why()),
                };
                out.push_str(&format!(
                    "\n{what} (each test once, with the suites it skipped in):\n"
                ));
            }
            for (test, _, places) in these {
                out.push_str(&skipped_test(test, places));
            }
        }
        let suites = &self.suites;
        out.push_str(&format!("\nsuites: {} passed, {} failed\n", suites.passed, suites.failed));
        out.push_str(&format!("checks: {}\n", self.checks));
        out.push_str(&format!("tests: {}\n", self.tests));
        out
    }
}

/// A skipped test's lines: its suites, grouped by reason.
fn skipped_test(test: &str, places: &[(String, String)]) -> String {
    let mut groups: Vec<(&str, Vec<&str>)> = Vec::new();
    for (suite, reason) in places {
        match groups.iter_mut().find(|(r, _)| r == reason) {
            Some((_, suites)) => suites.push(suite),
            None => groups.push((reason, vec![suite])),
        }
    }
    if let [(reason, suites)] = groups.as_slice() {
        return format!("  {test} ({}): {reason}\n", suites.join(", "));
    }
    let mut out = format!("  {test}:\n");
    for (reason, suites) in groups {
        out.push_str(&format!("      ({}): {reason}\n", suites.join(", ")));
    }
    out
}

/// `reason` added to `reasons` (`; ` between them), where it is not there yet.
fn add_reason(reasons: &mut String, reason: &str) {
    if !reasons.split("; ").any(|r| r == reason) {
        *reasons = format!("{reasons}; {reason}");
    }
}

/// The test binaries of a `cargo test --no-run` build (`compiler-artifact`
/// messages of test profile with an executable), each run as `cargo test`
/// runs it: in its package's directory, the build's library directories
/// (the `linked_paths` of build scripts, inside the target directory) and
/// its own first on the library path.
fn binaries<'a>(
    messages: &[Message],
    wrap: &'a dyn Fn(Command) -> Command,
    except: &[&str],
) -> Vec<Program<'a>> {
    const LIBRARY_PATH: &str = if cfg!(windows) { "PATH" } else { "LD_LIBRARY_PATH" };
    let linked: Vec<&str> = messages
        .iter()
        .filter_map(|m| match m {
            Message::BuildScriptExecuted(s) => Some(&s.linked_paths),
            _ => None,
        })
        .flatten()
        .map(|p| p.as_str().split_once('=').map_or(p.as_str(), |(_, dir)| dir))
        .collect();
    let mut programs = Vec::new();
    for (built, exe) in crate::cargo::executables(messages, true) {
        if except.contains(&built.target.name.as_str()) {
            continue;
        }
        let exe = exe.as_std_path().to_path_buf();
        let package = crate::cargo::package_of(built).map_or("?", |p| p.name.as_str());
        let kind = built.target.kind.first().map_or("?".into(), ToString::to_string);
        let name = format!("{package} {kind} {}", built.target.name);
        let dir = built.manifest_path.parent().map_or_else(|| exe.clone(), Into::into);
        // Cargo's library path: the native directories the build made, then its deps directory.
        let deps = exe.parent().unwrap_or(&exe).to_path_buf();
        let profile = deps.parent().unwrap_or(&deps).to_path_buf();
        let target_dir = profile.parent().unwrap_or(&profile).to_path_buf();
        let ours = linked.iter().map(Path::new).filter(|d| d.starts_with(&profile));
        let inherited = std::env::var_os(LIBRARY_PATH).unwrap_or_default();
        let dirs = ours.map(Path::to_path_buf).chain([deps]);
        let library_path = std::env::join_paths(dirs.chain(std::env::split_paths(&inherited)))
            .unwrap_or(inherited);
        let command = move |libtest: &[&str]| {
            let mut cmd = Command::new(&exe);
            cmd.args(libtest)
                .current_dir(&dir)
                .env("CARGO_MANIFEST_DIR", &dir)
                .env(LIBRARY_PATH, &library_path)
                // No cargo holds the suite's target directory while its tests
                // run here: the build-script tests build there too.
                .env("LIBCUDA_SYS_TEST_SCRIPTS_TARGET_DIR", &target_dir);
            wrap(cmd)
        };
        programs.push(Program { name, command: Box::new(command), exact: true });
    }
    programs.sort_by(|a, b| a.name.cmp(&b.name));
    programs
}

/// What one run of a program gave.
struct Ran {
    /// Its tests (libtest's `--list --format terse`), and the ignored ones among them.
    tests: Vec<String>,
    ignored: Vec<String>,
    status: ExitStatus,
    /// The skip log's entries, `(test, reason, whether for the GPU)`.
    skips: Vec<(String, String, bool)>,
    /// Where it failed, the tests that fail run alone (`None`: it cannot run one alone).
    failing: Option<Vec<String>>,
}

/// One program's tests.
struct Tally {
    passed: usize,
    failed: usize,
    /// `(test, its reasons, why)`, each once: for the GPU where every
    /// reason is.
    skipped: Vec<(String, String, Kind)>,
}

impl Ran {
    /// A test that skipped or is ignored is skipped. The others passed where
    /// the program passed; where it failed, those that fail run alone failed
    /// (at least one), and where none can run alone (doctests), all of them.
    fn tally(&self) -> Tally {
        let mut skipped: Vec<(String, String, Kind)> = Vec::new();
        let ignored = self.ignored.iter().map(|t| (t.as_str(), "ignored", Ignored));
        let skips = self.skips.iter().map(|(t, r, gpu)| (t.as_str(), r.as_str(), gpu));
        let skips = skips.map(|(t, r, gpu)| (t, r, if *gpu { Gpu } else { Other }));
        for (test, reason, kind) in skips.chain(ignored) {
            match skipped.iter_mut().find(|(t, _, _)| t == test) {
                Some((_, reasons, was)) => {
                    add_reason(reasons, reason);
                    if *was != kind {
                        *was = Other;
                    }
                }
                None => skipped.push((test.into(), reason.into(), kind)),
            }
        }
        let ran = self.tests.iter().filter(|t| !skipped.iter().any(|(s, ..)| s == *t)).count();
        let failed = match (self.status.success(), &self.failing) {
            (true, _) => 0,
            (false, Some(failing)) => failing.len().max(1),
            (false, None) => ran.max(1),
        };
        Tally { passed: ran.saturating_sub(failed), failed, skipped }
    }
}

/// Lists `program`'s tests, then runs it, its output shown, with the skip log
/// `log`; where it fails, runs each test that did not skip alone, quietly.
fn run(program: &Program, log: &Path) -> Result<Ran> {
    let list = |args: &[&str]| -> Result<Vec<String>> {
        let mut cmd = (program.command)(args);
        let out = cmd.output().map_err(|e| format!("{}: {e}", crate::shown(&cmd)))?;
        let text = String::from_utf8_lossy(&out.stdout);
        Ok(text.lines().filter_map(|l| l.strip_suffix(": test")).map(String::from).collect())
    };
    let tests = list(&["--list", "--format", "terse"])?;
    let ignored = list(&["--list", "--format", "terse", "--ignored"])?;
    let _ = std::fs::remove_file(log);
    let mut cmd = (program.command)(&[]);
    cmd.env(testkit::SKIP_LOG, log);
    eprintln!("     Running {}", program.name);
    let status = cmd.status().map_err(|e| format!("{}: {e}", crate::shown(&cmd)))?;
    let skips = read_skips(log);
    let _ = std::fs::remove_file(log);
    let skips = skips?;
    let mut failing = None;
    if !status.success() && program.exact {
        eprintln!("     Running each test of {} alone", program.name);
        let alone = |test: &&String| {
            let mut cmd = (program.command)(&["--exact", test.as_str()]);
            !cmd.stdout(Stdio::null()).stderr(Stdio::null()).status().is_ok_and(|s| s.success())
        };
        let candidates = tests.iter().filter(|t| !ignored.contains(t));
        let candidates = candidates.filter(|t| !skips.iter().any(|(s, ..)| s == *t));
        failing = Some(candidates.filter(alone).cloned().collect());
    }
    Ok(Ran { tests, ignored, status, skips, failing })
}

/// The skip log's entries, `(test, reason, whether for the GPU)`.
fn read_skips(log: &Path) -> Result<Vec<(String, String, bool)>> {
    let text = match std::fs::read_to_string(log) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(format!("{}: {e}", log.display())),
    };
    let entry = |line: &str| {
        let entry: Value = serde_json::from_str(line).ok()?;
        let gpu = entry.get("gpu").map_or(Some(false), Value::as_bool)?;
        Some((entry["test"].as_str()?.to_string(), entry["reason"].as_str()?.to_string(), gpu))
    };
    text.lines()
        .map(|line| entry(line).ok_or_else(|| format!("{}: not a skip: {line}", log.display())))
        .collect()
}

#[cfg(test)]
mod tests {
    use std::os::unix::process::ExitStatusExt;
    use std::process::{Command, ExitStatus};

    use super::{Program, Ran, Took};

    /// A stand-in test program: it lists `tests` (`(name, how it ends)`:
    /// `ok`, `ignored` or `fails`) as libtest does, runs one alone with
    /// `--exact`, and run whole appends `skips` (`test`, `reason`, whether
    /// for the GPU) to the skip log and fails where a test fails.
    fn program(
        name: &str,
        tests: &[(&str, &str)],
        skips: &[(&str, &str, bool)],
    ) -> Program<'static> {
        let list = |only: &str| -> String {
            let names = tests.iter().filter(|(_, end)| only.is_empty() || *end == only);
            names.map(|(t, _)| format!("{t}: test\\n")).collect()
        };
        let mut run = String::new();
        for (test, reason, gpu) in skips {
            let gpu = if *gpu { ",\"gpu\":true" } else { "" };
            run.push_str(&format!(
                "printf '{{\"test\":\"{test}\",\"reason\":\"{reason}\"{gpu}}}\\n' >> \"$LIBCUDA_SYS_SKIP_LOG\"; "
            ));
        }
        let fails: Vec<String> = tests
            .iter()
            .filter(|(_, end)| *end == "fails")
            .map(|(t, _)| format!("'--exact {t}'"))
            .collect();
        let (fails, status) = match fails.is_empty() {
            true => ("'--exact '".to_string(), 0),
            false => (fails.join(" | "), 101),
        };
        let script = format!(
            "case \"$*\" in\n\
             '--list --format terse --ignored') printf '{}' ;;\n\
             '--list --format terse') printf 'not a test line\\n{}' ;;\n\
             {fails}) exit 101 ;;\n\
             '--exact '*) exit 0 ;;\n\
             *) {run}exit {status} ;;\n\
             esac",
            list("ignored"),
            list("")
        );
        let command = move |libtest: &[&str]| {
            let mut cmd = Command::new("sh");
            cmd.arg("-c").arg(&script).arg("sh").args(libtest);
            cmd
        };
        Program { name: name.into(), command: Box::new(command), exact: true }
    }

    /// Tests, not suites, are counted: a test once in each suite it runs in;
    /// a skipped or ignored test as skipped, not passed; a test of a program
    /// that failed as failed where it fails alone; suites (failed by a
    /// program or their build) and checks have counts of their own; each
    /// skipped test is listed once, with its suites and reasons; the GPU's
    /// skips, the ignored tests and the other skips are counted and listed
    /// apart.
    #[test]
    fn the_summary_counts_tests_once_a_run_and_lists_each_skipped_test_once() {
        let mut report = super::Report::default();
        let lib = [("gpu_a", "ok"), ("plain", "ok"), ("tests::broken", "fails")];
        let other = [("gpu_b", "ok"), ("slow", "ignored")];
        let skips = [("gpu_b", "no driver", true), ("gpu_b", "one GPU", true)];
        report.programs(
            "workspace",
            &[
                program("a lib", &lib, &[("gpu_a", "no driver", true)]),
                program("a test", &other, &skips),
            ],
            Vec::new(),
            Took::start(),
        );
        let dynamic = [("gpu_a", "ok"), ("plain", "ok"), ("tests::panics", "ok")];
        report.programs(
            "dynamic-loading",
            &[program(
                "a lib",
                &dynamic,
                &[("gpu_a", "no libcuda.so.1", true), ("plain", "no python3", false)],
            )],
            Vec::new(),
            Took::start(),
        );
        // A suite whose build failed fails, whatever ran.
        report.programs("features", &[], vec!["the build".into()], Took::start());
        report.check("a check", || Ok(String::new()));
        report.check("another check", || Err(super::Failure::Skipped("no unshare".into())));
        let summary = report.summary();
        let tail: Vec<&str> = summary.lines().skip_while(|l| !l.starts_with("skipped")).collect();
        assert_eq!(
            tail,
            [
                "skipped for want of a GPU or driver (each test once, with the suites it skipped in):",
                "  gpu_a:",
                "      (workspace): no driver",
                "      (dynamic-loading): no libcuda.so.1",
                "  gpu_b (workspace): no driver; one GPU",
                "",
                "ignored (each test once, with the suites it skipped in):",
                "  slow (workspace): ignored",
                "",
                "skipped for another reason (each test once, with the suites it skipped in):",
                "  plain (dynamic-loading): no python3",
                "  another check (checks): no unshare",
                "",
                "suites: 1 passed, 2 failed",
                "checks: 1 passed, 0 failed, 1 skipped (0 for want of a GPU or driver, 0 ignored, 1 for another reason)",
                "tests: 2 passed, 1 failed, 5 skipped (3 for want of a GPU or driver, 1 ignored, 1 for another reason)",
            ],
            "{summary}"
        );
        assert!(report.finish().is_err());
    }

    #[test]
    fn skips_are_read_and_kept_once_a_test_and_suite_with_every_reason() {
        let log = std::env::temp_dir().join(format!("xtask-skips-{}.jsonl", std::process::id()));
        let lines = [
            r#"{"test":"gpu_a","reason":"no driver","gpu":true}"#,
            r#"{"test":"gpu_a","reason":"one GPU","gpu":true}"#,
            r#"{"test":"tests::gpu_b","reason":"no \"GPU\""}"#,
        ];
        std::fs::write(&log, lines.join("\n")).unwrap();
        let skips = super::read_skips(&log).unwrap();
        let bad = |text: &str| {
            std::fs::write(&log, text).unwrap();
            super::read_skips(&log).is_err()
        };
        let (not_json, not_a_flag) =
            (bad("not json\n"), bad(r#"{"test":"a","reason":"b","gpu":"yes"}"#));
        std::fs::remove_file(&log).unwrap();
        assert!(not_json && not_a_flag);
        let mut report = super::Report::default();
        for suite in ["a", "b"] {
            for (test, reason, gpu) in skips.iter().chain(&skips) {
                let kind = if *gpu { super::Gpu } else { super::Other };
                report.skip(suite, test, reason, kind);
            }
        }
        let kept: Vec<String> = report
            .skipped
            .iter()
            .flat_map(|(t, k, places)| {
                places.iter().map(move |(s, r)| format!("{t} in {s} ({k:?}): {r}"))
            })
            .collect();
        assert_eq!(
            kept,
            [
                "gpu_a in a (Gpu): no driver; one GPU",
                "gpu_a in b (Gpu): no driver; one GPU",
                "tests::gpu_b in a (Other): no \"GPU\"",
                "tests::gpu_b in b (Other): no \"GPU\"",
            ]
        );
    }

    /// A program's tests, from its lists, exit status and skip log: a skip
    /// (once, its reasons together) and an ignored test are skipped, never
    /// passed; a skip no list names (a thread other than a test's) counts
    /// too; where the program failed, the tests that fail alone failed (at
    /// least one), and all of them where none can run alone.
    #[test]
    fn a_programs_tests_are_counted_from_its_lists_exit_status_and_skip_log() {
        let names = |n: &[&str]| n.iter().map(|t| t.to_string()).collect::<Vec<_>>();
        let skip = |t: &str, r: &str| (t.to_string(), r.to_string(), true);
        let skips =
            vec![skip("gpu_a", "no driver"), skip("gpu_a", "one GPU"), skip("main", "a thread")];
        // A test with a skip for the GPU and one for another reason is not the GPU's.
        let mixed = vec![skip("gpu_a", "no driver"), ("gpu_a".into(), "no python3".into(), false)];
        let ran = |status: i32, failing: Option<&[&str]>| Ran {
            tests: names(&["gpu_a", "plain", "tests::b", "doc.rs - f (line 3)"]),
            ignored: names(&["doc.rs - f (line 3)"]),
            status: ExitStatus::from_raw(status << 8),
            skips: skips.clone(),
            failing: failing.map(names),
        };
        let counts = |ran: Ran| {
            let tally = ran.tally();
            (tally.passed, tally.failed)
        };
        let kind = |t: &str, r: &str, k| (t.to_string(), r.to_string(), k);
        assert_eq!(
            ran(0, None).tally().skipped,
            [
                kind("gpu_a", "no driver; one GPU", super::Gpu),
                kind("main", "a thread", super::Gpu),
                kind("doc.rs - f (line 3)", "ignored", super::Ignored),
            ]
        );
        assert_eq!(
            Ran { skips: mixed, ..ran(0, None) }.tally().skipped[0],
            kind("gpu_a", "no driver; no python3", super::Other)
        );
        assert_eq!(counts(ran(0, None)), (2, 0));
        assert_eq!(counts(ran(101, Some(&["tests::b"]))), (1, 1));
        assert_eq!(counts(ran(101, Some(&[]))), (1, 1));
        assert_eq!(counts(ran(101, None)), (0, 2));
        let all_skipped =
            Ran { tests: names(&["gpu_a"]), ignored: Vec::new(), ..ran(101, Some(&[])) };
        assert_eq!(counts(all_skipped), (0, 1));
    }

    /// The test binaries are the test-profile artifacts with an executable,
    /// each run in its package's directory with the build's own native
    /// directories and its deps directory first on the library path.
    #[test]
    fn test_binaries_are_read_from_cargos_messages() {
        // As Cargo writes them, with the workspace's package ids.
        use crate::cargo::tests::{artifact, build_script};
        let id = |package: &str| crate::cargo::package(package).unwrap().id.repr.clone();
        let (sys, systest) = (id("libcuda-sys"), id("systest"));
        let linked = [
            "native=/t/debug/build/libcuda-sys-1/out/stand-in",
            "native=/usr/lib/x86_64-linux-gnu",
        ];
        let messages: Vec<cargo_metadata::Message> = [
            build_script(&sys, &linked, "/t/debug/build/libcuda-sys-1/out"),
            artifact(&sys, "/w", "lib", "libcuda_sys", true, Some("/t/debug/deps/libcuda_sys-1")),
            artifact(&systest, "/w/systest", "test", "abi", true, Some("/t/debug/deps/abi-2")),
            artifact(
                &sys,
                "/w",
                "example",
                "pool-attributes",
                false,
                Some("/t/debug/examples/p-3"),
            ),
            artifact(&sys, "/w", "lib", "libcuda_sys", false, None),
        ]
        .into_iter()
        .map(|m| serde_json::from_value(m).unwrap())
        .collect();
        let wrap = |cmd: Command| cmd;
        let programs = super::binaries(&messages, &wrap, &[]);
        let names: Vec<&str> = programs.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["libcuda-sys lib libcuda_sys", "systest test abi"]);
        let cmd = (programs[1].command)(&["--list"]);
        assert_eq!(cmd.get_program(), "/t/debug/deps/abi-2");
        assert_eq!(cmd.get_current_dir(), Some(std::path::Path::new("/w/systest")));
        let library_path = cmd
            .get_envs()
            .find(|(k, _)| *k == "LD_LIBRARY_PATH")
            .and_then(|(_, v)| v)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        assert!(
            library_path.starts_with("/t/debug/build/libcuda-sys-1/out/stand-in:/t/debug/deps"),
            "{library_path}"
        );
        assert!(!library_path.contains("/usr/lib/x86_64-linux-gnu"), "{library_path}");
        // A test target named in `except` is left out, by its target name.
        let programs = super::binaries(&messages, &wrap, &["abi"]);
        let names: Vec<&str> = programs.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["libcuda-sys lib libcuda_sys"]);
    }
}
