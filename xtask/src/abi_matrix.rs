//! `cargo xtask abi-matrix [VERSION ...]`: systest's checks (ABI against the C
//! compiler, plain names, memory-pool attributes, macro constants), with and
//! without `per-thread-default-stream`, of the shipped bindings of every
//! release against that release's headers, and of bindings generated from the
//! headers of a few releases. `VERSION`s: generated rows of those releases
//! only. The counts come from the `summary.json` systest's build script
//! writes, not from the tests' output.

use std::path::Path;
use std::time::Instant;

use serde_json::Value;

use crate::{cargo, headers, pregenerate, Result};

/// Generation is the same code for every release: a few across the API breaks.
const GENERATED: [&str; 3] = ["11.8", "12.9", "13.5"];
const FEATURES: [&str; 2] = ["", "per-thread-default-stream"];
/// Lines of a failing run's stderr shown: enough for a compiler error or a
/// test's panic with its short backtrace (with `--nocapture`, panics go there).
const TAIL: usize = 60;

/// What systest's build script counted, in the order of the table.
const COUNTS: [&str; 6] = [
    "functions",
    "plain_names",
    "pool_attributes",
    "bitmasks",
    "macro_constants",
    "abi_items",
];

struct Row {
    version: String,
    /// `generated` or `shipped`.
    bindings: &'static str,
    features: String,
    counts: Option<[u64; COUNTS.len()]>,
    secs: Option<u64>,
    result: &'static str,
}

/// Why a row did not pass: its result column and what to show.
pub struct Failure {
    pub result: &'static str,
    pub detail: String,
}

impl From<String> for Failure {
    fn from(detail: String) -> Self {
        Failure {
            result: "FAIL",
            detail,
        }
    }
}

pub fn run(args: &[String]) -> Result {
    if let Some(flag) = args.iter().find(|a| a.starts_with('-')) {
        return Err(format!(
            "unknown option `{flag}`; usage: cargo xtask abi-matrix [VERSION ...]"
        ));
    }
    let shipped: Vec<(String, String)> = if args.is_empty() {
        pregenerate::releases()?
            .into_iter()
            .map(|(number, wheel)| (pregenerate::dotted(number), wheel))
            .collect()
    } else {
        Vec::new()
    };
    let generated: Vec<(String, String)> = if args.is_empty() {
        GENERATED
            .iter()
            .map(|v| (v.to_string(), v.to_string()))
            .collect()
    } else {
        args.iter().map(|v| (v.clone(), v.clone())).collect()
    };
    let mut rows = Vec::new();
    let runs = shipped
        .iter()
        .map(|r| (r, true))
        .chain(generated.iter().map(|r| (r, false)));
    for ((version, wheel), shipped) in runs {
        let bindings = if shipped { "shipped" } else { "generated" };
        let include = match headers::include_dir(wheel) {
            Ok(dir) => dir,
            Err(e) => {
                println!("{e}");
                rows.push(Row {
                    version: version.to_string(),
                    bindings,
                    features: "headers not fetched".into(),
                    counts: None,
                    secs: None,
                    result: "FAIL",
                });
                continue;
            }
        };
        for features in FEATURES {
            rows.push(one(version, &include, features, shipped));
        }
    }

    println!(
        "\nABI matrix (each row: the bindings, shipped or generated, their build, the ABI check against the C compiler, \
         plain names, memory-pool attributes, bit masks, macro constants)"
    );
    println!(
        "{:<6} {:<9} {:<26} {:>9} {:>11} {:>10} {:>8} {:>15} {:>9} {:>6} result",
        "CUDA",
        "bindings",
        "features",
        "functions",
        "plain-names",
        "pool-attrs",
        "bitmasks",
        "macro-constants",
        "ABI-items",
        "time"
    );
    for row in &rows {
        let count = |i: usize| row.counts.map_or("?".to_string(), |c| c[i].to_string());
        println!(
            "{:<6} {:<9} {:<26} {:>9} {:>11} {:>10} {:>8} {:>15} {:>9} {:>6} {}",
            row.version,
            row.bindings,
            row.features,
            count(0),
            count(1),
            count(2),
            count(3),
            count(4),
            count(5),
            row.secs.map_or(String::new(), |s| format!("{s}s")),
            row.result
        );
    }
    let failed = rows.iter().filter(|r| r.result != "ok").count();
    println!(
        "abi-matrix: {} passed, {failed} failed",
        rows.len() - failed
    );
    if failed == 0 {
        Ok(())
    } else {
        Err(format!("{failed} of {} ABI matrix rows failed", rows.len()))
    }
}

/// `cargo test -p systest` against the headers in `include` with `features`:
/// of the bindings generated from them, or of the shipped release `version`.
fn one(version: &str, include: &Path, features: &str, shipped: bool) -> Row {
    let label = if features.is_empty() {
        "default"
    } else {
        features
    };
    let bindings = if shipped { "shipped" } else { "generated" };
    eprintln!("abi-matrix: CUDA {version}, {bindings}, {label}");
    let mut all_features = features.to_string();
    let mut cmd = cargo::command(&[]);
    if shipped {
        let number = crate::pregenerate::number(version);
        let release = format!("libcuda-sys/cuda-{number:05}");
        all_features = [features, &release]
            .iter()
            .filter(|f| !f.is_empty())
            .copied()
            .collect::<Vec<_>>()
            .join(",");
        cmd.env("LIBCUDA_SYS_BINDINGS", "pregenerated")
            .env("SYSTEST_CUDA_INCLUDE_DIR", include);
    } else {
        cmd.env("LIBCUDA_SYS_INCLUDE_DIR", include)
            .env("LIBCUDA_SYS_BINDINGS", "generate");
    }
    cmd.args([
        "test",
        "--package",
        "systest",
        "--features",
        &all_features,
        "--message-format=json",
        "--",
        "--nocapture",
    ])
    .env("CARGO_TARGET_DIR", crate::root().join("target/abi-matrix"))
    // A floor would leave the newer functions out: the rows count them all.
    .env_remove("LIBCUDA_SYS_DRIVER_FLOOR");
    let start = Instant::now();
    let outcome = cargo::build(cmd).map_err(Failure::from).and_then(|build| {
        if !build.success {
            return Err(Failure::from(format!(
                "CUDA {version}, {label}: cargo test failed; the end of its stderr:\n{}",
                tail(&build.stderr)
            )));
        }
        summary(
            &build.out_dir("systest")?.join("summary.json"),
            include,
            features,
            shipped,
        )
    });
    let secs = Some(start.elapsed().as_secs());
    match outcome {
        Ok(counts) => Row {
            version: version.to_string(),
            bindings,
            features: label.to_string(),
            counts: Some(counts),
            secs,
            result: "ok",
        },
        Err(failure) => {
            println!("{}", failure.detail);
            Row {
                version: version.to_string(),
                bindings,
                features: label.to_string(),
                counts: None,
                secs,
                result: failure.result,
            }
        }
    }
}

/// The counts of `summary.json`, in the order of [`COUNTS`].
fn summary(
    path: &Path,
    include: &Path,
    features: &str,
    shipped: bool,
) -> std::result::Result<[u64; COUNTS.len()], Failure> {
    let summary = checked_summary(path, include, features == "per-thread-default-stream")?;
    if (summary["bindings"] == "pregenerated") != shipped {
        return Err(format!(
            "{}: systest checked {} bindings, the row asked for {}",
            path.display(),
            summary["bindings"],
            if shipped { "the shipped" } else { "generated" }
        )
        .into());
    }
    let mut counts = [0; COUNTS.len()];
    for (count, key) in counts.iter_mut().zip(COUNTS) {
        *count = summary[key]
            .as_u64()
            .ok_or_else(|| format!("{}: no count `{key}`", path.display()))?;
    }
    Ok(counts)
}

/// systest's `summary.json`, once it says the checks ran against the headers
/// and in the variant asked for: a variable such as a target-prefixed
/// `LIBCUDA_SYS_INCLUDE_DIR` could have chosen others.
pub fn checked_summary(
    path: &Path,
    include: &Path,
    per_thread: bool,
) -> std::result::Result<Value, Failure> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let summary: Value =
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    if let Some(why) = summary["skipped"].as_str() {
        return Err(Failure {
            result: "skipped",
            detail: format!("{}: systest skipped its checks: {why}", path.display()),
        });
    }
    let used = summary["cuda_include"].as_str().unwrap_or_default();
    let same = |p: &Path| std::fs::canonicalize(p).ok();
    if same(Path::new(used)).is_none() || same(Path::new(used)) != same(include) {
        return Err(format!(
            "{}: the checks ran against {used:?}, not {}",
            path.display(),
            include.display()
        )
        .into());
    }
    if summary["per_thread_default_stream"].as_bool() != Some(per_thread) {
        return Err(format!(
            "{}: per_thread_default_stream is {}, the row asked for {per_thread}",
            path.display(),
            summary["per_thread_default_stream"]
        )
        .into());
    }
    Ok(summary)
}

pub fn tail(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(TAIL)..].join("\n")
}
