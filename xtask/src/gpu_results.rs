//! `xtask gpu-results <step> ...`: the data side of a GPU bundle's `run.sh`,
//! run there from the copy of this program the bundle carries (the GPU
//! machine has no Rust, and needs no Python either). It reads libtest's JSON
//! events and the skip log of each test with the same code `cargo xtask
//! test` uses, writes one JSON line per test, and prints the summary table.
//!
//! Steps:
//! - `list EVENTS`: test names and ignore reasons (tab-separated) from `--list`;
//! - `run BINARY TEST STATUS SECONDS EVENTS SKIPS`: one test's outcome, its output on stderr;
//! - `outcome BINARY TEST OUTCOME REASON`: an outcome known without running;
//! - `binary-failed BINARY LOG LIBCUDA FUNCTIONS`: a binary that does not start,
//!   with the bound functions the driver lacks;
//! - `table RESULTS`: the table and totals; exit status 1 if a test failed.

use std::path::Path;

use serde_json::{json, Value};

use crate::test::{self, Counts};
use crate::Result;

const USAGE: &str = "usage: xtask gpu-results list|run|outcome|binary-failed|table ...";

pub fn run(args: &[String]) -> Result {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    match args.as_slice() {
        ["list", events] => list(Path::new(events)),
        ["run", binary, name, status, seconds, events, skips] => {
            let seconds = seconds.parse::<f64>().ok();
            one(
                binary,
                name,
                status,
                seconds,
                Path::new(events),
                Path::new(skips),
            )
        }
        ["outcome", binary, name, outcome, reason] => {
            emit(binary, name, outcome, reason, None);
            Ok(())
        }
        ["binary-failed", binary, log, libcuda, functions] => {
            binary_failed(binary, Path::new(log), libcuda, Path::new(functions))
        }
        ["table", results] => table(Path::new(results)),
        _ => Err(USAGE.into()),
    }
}

fn read(path: &Path) -> Result<String> {
    std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))
}

/// libtest's events in `path`; other lines (output that bypassed capture) go to stderr.
fn events(path: &Path) -> Result<Vec<Value>> {
    let mut out = Vec::new();
    for line in read(path)?.lines() {
        match serde_json::from_str::<Value>(line) {
            Ok(event) if event.get("type").is_some() => out.push(event),
            _ if !line.trim().is_empty() => eprintln!("{line}"),
            _ => {}
        }
    }
    Ok(out)
}

fn emit(binary: &str, name: &str, outcome: &str, reason: &str, seconds: Option<f64>) {
    let mut row = json!({"binary": binary, "test": name, "outcome": outcome, "reason": reason});
    if let Some(s) = seconds {
        row["seconds"] = json!(s);
    }
    println!("{row}");
}

fn list(path: &Path) -> Result {
    for e in events(path)? {
        if e["event"] == "discovered" {
            let reason = if e["ignore"] == true {
                e["ignore_message"].as_str().unwrap_or("#[ignore]")
            } else {
                ""
            };
            println!("{}\t{reason}", e["name"].as_str().unwrap_or_default());
        }
    }
    Ok(())
}

/// One test run: its result event, counted with its skips as `cargo xtask
/// test` counts them (a failure wins over a skip).
fn one(
    binary: &str,
    name: &str,
    status: &str,
    seconds: Option<f64>,
    events_path: &Path,
    skips: &Path,
) -> Result {
    let result = events(events_path)?.into_iter().rev().find(|e| {
        e["type"] == "test"
            && e["name"] == name
            && matches!(e["event"].as_str(), Some("ok" | "failed" | "ignored"))
    });
    if let Some(out) = result.as_ref().and_then(|e| e["stdout"].as_str()) {
        eprint!("{out}");
    }
    let Some(result) = result else {
        let reason = match status.parse::<i32>() {
            Ok(124) => "timed out after 600 s".to_string(),
            Ok(s) if s > 128 => format!("no result from libtest (killed by signal {})", s - 128),
            _ => format!("no result from libtest (exit status {status})"),
        };
        emit(binary, name, "failed", &reason, seconds);
        return Ok(());
    };
    let test_name = result["name"].as_str().unwrap_or(name).to_string();
    let mut counts = Counts::default();
    match result["event"].as_str() {
        Some("ok") => {
            counts.passed = 1;
            counts.passed_names.push(test_name);
        }
        Some("failed") => {
            counts.failed = 1;
            counts.failed_names.push(test_name);
        }
        _ => {
            let why = result["message"].as_str().unwrap_or("#[ignore]");
            counts.skipped.push((test_name, why.to_string()));
        }
    }
    let counts = test::with_skips(counts, skips)?;
    let (outcome, reason) = if counts.failed > 0 {
        // The message, for the table; the whole output went to stderr above.
        let output = result["stdout"].as_str().unwrap_or_default();
        let message = output
            .lines()
            .skip_while(|l| !l.contains("panicked at"))
            .nth(1)
            .unwrap_or("")
            .trim()
            .to_string();
        ("failed", message)
    } else if let Some((_, why)) = counts.skipped.first() {
        let all: Vec<&str> = counts.skipped.iter().map(|(_, r)| r.as_str()).collect();
        (
            "skipped",
            if all.len() > 1 {
                all.join("; ")
            } else {
                why.clone()
            },
        )
    } else {
        ("ok", String::new())
    };
    emit(binary, name, outcome, &reason, seconds);
    Ok(())
}

#[cfg(unix)]
extern "C" {
    fn dlopen(file: *const std::ffi::c_char, mode: std::ffi::c_int) -> *mut std::ffi::c_void;
    fn dlsym(
        handle: *mut std::ffi::c_void,
        symbol: *const std::ffi::c_char,
    ) -> *mut std::ffi::c_void;
}

/// A binary that did not start: with full RELRO, for want of a bound function
/// the driver lacks, as a rule; the functions this libcuda lacks are listed.
fn binary_failed(binary: &str, log: &Path, libcuda: &str, functions: &Path) -> Result {
    let text = read(log)?;
    let first = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    emit(
        binary,
        "(binary)",
        "failed",
        &format!("does not start: {first}"),
        None,
    );
    #[cfg(unix)]
    {
        let path = std::ffi::CString::new(libcuda).map_err(|e| e.to_string())?;
        const RTLD_NOW: std::ffi::c_int = 2;
        // SAFETY: a NUL-terminated path; loading the driver runs its initialisers.
        let handle = unsafe { dlopen(path.as_ptr(), RTLD_NOW) };
        if handle.is_null() {
            return Err(format!("{libcuda} does not load"));
        }
        let missing: Vec<String> = read(functions)?
            .lines()
            .map(str::trim)
            .filter(|n| !n.is_empty())
            .filter(|n| {
                let Ok(name) = std::ffi::CString::new(*n) else {
                    return false;
                };
                // SAFETY: a handle dlopen returned, a NUL-terminated name; only presence is asked.
                unsafe { dlsym(handle, name.as_ptr()) }.is_null()
            })
            .map(str::to_string)
            .collect();
        eprintln!(
            "--- bound functions this libcuda.so.1 lacks: {}: {}",
            missing.len(),
            if missing.is_empty() {
                "none".to_string()
            } else {
                missing.join(" ")
            }
        );
    }
    Ok(())
}

fn table(path: &Path) -> Result {
    let rows: Vec<Value> = read(path)?
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).map_err(|e| format!("{}: {e}: {l}", path.display())))
        .collect::<Result<_>>()?;
    let label = |o: &str| match o {
        "failed" => "FAILED".to_string(),
        other => other.to_string(),
    };
    let mut cells = vec![["BINARY", "TEST", "SECONDS", "RESULT", "REASON"].map(String::from)];
    for r in &rows {
        let text = |k: &str| r[k].as_str().unwrap_or_default().to_string();
        let seconds = r["seconds"]
            .as_f64()
            .map_or("-".to_string(), |s| format!("{s:.2}"));
        cells.push([
            text("binary"),
            text("test"),
            seconds,
            label(&text("outcome")),
            text("reason"),
        ]);
    }
    let width: Vec<usize> = (0..4)
        .map(|i| cells.iter().map(|c| c[i].len()).max().unwrap_or(0))
        .collect();
    for c in &cells {
        let used = if c[4].is_empty() { 4 } else { 5 };
        let line: Vec<String> = (0..used)
            .map(|i| {
                if i + 1 < used {
                    format!("{:<w$}", c[i], w = width[i])
                } else {
                    c[i].clone()
                }
            })
            .collect();
        println!("{}", line.join("  "));
    }
    let count = |o: &str| rows.iter().filter(|r| r["outcome"] == o).count();
    let failed = count("failed");
    println!(
        "{} passed, {failed} failed, {} skipped",
        count("ok"),
        count("skipped")
    );
    if failed == 0 {
        Ok(())
    } else {
        Err(format!("failed: {failed} (the table above names them)"))
    }
}
