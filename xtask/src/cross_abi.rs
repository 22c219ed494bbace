//! `cargo xtask cross-abi [--target TRIPLE ...] [VERSION ...]`: bindings
//! generated for aarch64 Linux and Windows (MinGW) and checked against those
//! targets' C compilers, on this x86-64 Linux machine.
//!
//! Rust cannot be compiled for those targets here (no standard library for
//! them), but everything before that can run: `cargo build --target T` builds
//! the build scripts for the host and runs them for T, so libcuda-sys's build
//! script generates T's bindings with bindgen (`--target` from Cargo's
//! `TARGET`, the cross C compiler's headers) and links for T, and systest's
//! build script checks every item statically against T's C compiler (see
//! systest/layout.rs). Compiling the crates themselves then fails for want of
//! T's `core`, and that error alone is expected. The host runs the same way,
//! so each target's values can be set beside the host's.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

use serde_json::Value;

use crate::abi_matrix::{checked_summary, tail};
use crate::{cargo, headers, Result};

/// `(Rust target, the C compiler and sysroot header it needs, Debian packages)`.
const TARGETS: [(&str, &str, &str, &str); 3] = [
    (
        "x86_64-unknown-linux-gnu",
        "cc",
        "/usr/include/stdlib.h",
        "gcc libc6-dev",
    ),
    (
        "aarch64-unknown-linux-gnu",
        "aarch64-linux-gnu-gcc",
        "/usr/aarch64-linux-gnu/include/stdlib.h",
        "gcc-aarch64-linux-gnu libc6-dev-arm64-cross",
    ),
    (
        "x86_64-pc-windows-gnu",
        "x86_64-w64-mingw32-gcc",
        "/usr/x86_64-w64-mingw32/include/stdlib.h",
        "gcc-mingw-w64-x86-64 mingw-w64-x86-64-dev",
    ),
];
/// The host, which the other targets are compared with.
const HOST: &str = "x86_64-unknown-linux-gnu";
/// The newest 12.x and 13.x.
const VERSIONS: [&str; 2] = ["12.9", "13.5"];
const VARIANTS: [&str; 2] = ["default", "per-thread-default-stream"];

struct Row {
    target: String,
    /// `13.5`, or `shipped 13.5.37` for the shipped bindings checked against
    /// the headers they were made from.
    version: String,
    variant: &'static str,
    link: String,
    summary: Option<Value>,
    values: BTreeMap<String, Value>,
    secs: u64,
    result: &'static str,
}

pub fn run(args: &[String]) -> Result {
    if !cfg!(all(
        target_arch = "x86_64",
        target_os = "linux",
        target_env = "gnu"
    )) {
        return Err(format!(
            "cross-abi runs on {HOST}: its cross compilers and the comparison are set up for that host"
        ));
    }
    let mut targets = Vec::new();
    let mut versions = Vec::new();
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--target" => targets.push(
                args.next()
                    .ok_or("--target needs a target triple")?
                    .to_string(),
            ),
            flag if flag.starts_with('-') => {
                return Err(format!(
                    "unknown option `{flag}`; usage: cargo xtask cross-abi [--target TRIPLE ...] [VERSION ...]"
                ))
            }
            version => versions.push(version.to_string()),
        }
    }
    if targets.is_empty() {
        targets = TARGETS.iter().map(|t| t.0.to_string()).collect();
    } else if !targets.iter().any(|t| t == HOST) {
        // The differences are taken against the host: it always runs.
        targets.insert(0, HOST.to_string());
    }
    if versions.is_empty() {
        versions = VERSIONS.iter().map(|v| v.to_string()).collect();
    }
    for target in &targets {
        let Some(&(_, compiler, header, packages)) = TARGETS.iter().find(|t| t.0 == target) else {
            return Err(format!(
                "no cross setup known for {target}; known: {}",
                TARGETS.map(|t| t.0).join(", ")
            ));
        };
        crate::setup::ensure_tool(compiler, Path::new(header), packages)?;
    }

    let mut rows = Vec::new();
    for version in &versions {
        for target in &targets {
            let include = match headers::include_dir_for(version, headers::Platform::of(target)?) {
                Ok(dir) => dir,
                Err(e) => {
                    println!("{e}");
                    rows.push(Row::failed(
                        target,
                        version,
                        "default",
                        "headers not fetched",
                    ));
                    continue;
                }
            };
            for variant in VARIANTS {
                rows.push(one(target, version, variant, &include, false));
            }
        }
    }
    // The shipped set was generated for the host; the same check tells whether
    // it holds on the other targets too.
    let shipped = crate::pregenerate::newest_wheel()?;
    let shipped = shipped.as_str();
    for target in &targets {
        match headers::include_dir_for(shipped, headers::Platform::of(target)?) {
            Ok(include) => {
                for variant in VARIANTS {
                    rows.push(one(target, shipped, variant, &include, true));
                }
            }
            Err(e) => {
                println!("{e}");
                rows.push(Row::failed(
                    target,
                    shipped,
                    "default",
                    "headers not fetched",
                ));
            }
        }
    }
    report(&rows)
}

impl Row {
    fn failed(target: &str, version: &str, variant: &'static str, link: &str) -> Row {
        Row {
            target: target.to_string(),
            version: version.to_string(),
            variant,
            link: link.to_string(),
            summary: None,
            values: BTreeMap::new(),
            secs: 0,
            result: "FAIL",
        }
    }
}

/// The import library of `nvcuda.dll` beside a wheel's or toolkit's headers
/// (`nvidia/cu13/lib/x64/cuda.lib`); CUDA 12's wheels have none.
fn has_import_library(include: &Path) -> bool {
    include.join("../lib/x64/cuda.lib").is_file()
}

/// One build for `target`: generated from `include`, or the shipped bindings
/// checked against `include`.
fn one(target: &str, version: &str, variant: &'static str, include: &Path, shipped: bool) -> Row {
    let version = if shipped {
        format!("shipped {version}")
    } else {
        version.to_string()
    };
    eprintln!("cross-abi: {target}, CUDA {version}, {variant}");
    let mut features = Vec::new();
    if variant != "default" {
        features.push(variant);
    }
    // Without an import library a Windows build can only load nvcuda.dll at run time.
    let dynamic = target.contains("windows") && (shipped || !has_import_library(include));
    if dynamic {
        features.push("dynamic-loading");
    }
    let features = features.join(",");
    let mut cmd = cargo::command(&[
        "build",
        "--package",
        "systest",
        "--target",
        target,
        "--features",
        &features,
        "--keep-going",
        "--message-format=json",
    ]);
    if shipped {
        cmd.env("LIBCUDA_SYS_BINDINGS", "pregenerated")
            .env("SYSTEST_CUDA_INCLUDE_DIR", include);
    } else {
        cmd.env("LIBCUDA_SYS_BINDINGS", "generate")
            .env("LIBCUDA_SYS_INCLUDE_DIR", include);
    }
    cmd.env("CARGO_TARGET_DIR", crate::root().join("target/cross-abi"))
        .env_remove("LIBCUDA_SYS_DRIVER_FLOOR");
    let start = Instant::now();
    let mut row = Row::failed(target, &version, variant, "");
    let outcome = (|| -> std::result::Result<(), String> {
        let build = cargo::build(cmd)?;
        // Only the want of the target's standard library may stop the build.
        let unexpected: Vec<String> = build
            .errors
            .iter()
            .filter(|(_, code, _)| target == HOST || code != "E0463")
            .map(|(package, code, message)| format!("{package}: {code} {message}"))
            .collect();
        if !unexpected.is_empty() || (target == HOST && !build.success) {
            return Err(format!(
                "{target}, CUDA {version}, {variant}: the build failed:\n{}\n{}",
                unexpected.join("\n"),
                tail(&build.stderr)
            ));
        }
        row.link = if dynamic {
            "none: dynamic-loading (no cuda.lib given)".to_string()
        } else {
            build
                .links
                .iter()
                .find(|(package, _, _)| package == "libcuda-sys")
                .map(|(_, libs, paths)| link_column(libs, paths))
                .ok_or_else(|| {
                    format!(
                        "libcuda-sys's build script did not run:\n{}",
                        tail(&build.stderr)
                    )
                })?
        };
        let out_dir = build.out_dir("systest")?;
        let summary = checked_summary(
            &out_dir.join("summary.json"),
            include,
            variant == "per-thread-default-stream",
        )
        .map_err(|f| f.detail)?;
        if summary["target"] != target {
            return Err(format!(
                "systest checked {} instead of {target}",
                summary["target"]
            ));
        }
        let values_path = out_dir.join("abi_values.json");
        let values: BTreeMap<String, Value> = std::fs::read_to_string(&values_path)
            .map_err(|e| e.to_string())
            .and_then(|t| serde_json::from_str(&t).map_err(|e| e.to_string()))
            .map_err(|e| format!("{}: {e}", values_path.display()))?;
        row.summary = Some(summary);
        row.values = values;
        Ok(())
    })();
    row.secs = start.elapsed().as_secs();
    match outcome {
        Ok(()) => row.result = "ok",
        Err(e) => println!("{e}"),
    }
    row
}

/// `dylib=cuda` from the directory it was found in, shortened for the table.
fn link_column(libs: &[String], paths: &[String]) -> String {
    let from = paths
        .first()
        .map(|p| {
            let p = p.trim_start_matches("native=");
            if p.ends_with("/stub") {
                "stand-in built by the target's C compiler".to_string()
            } else {
                let path = PathBuf::from(p);
                let tail: Vec<String> = path
                    .components()
                    .rev()
                    .take(4)
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .collect::<Vec<_>>()
                    .into_iter()
                    .rev()
                    .collect();
                format!(".../{}", tail.join("/"))
            }
        })
        .unwrap_or_default();
    format!("{} ({from})", libs.join(" "))
}

fn report(rows: &[Row]) -> Result {
    println!(
        "\nCross-target ABI check (bindgen for the target; each value a _Static_assert compiled by the target's C compiler)"
    );
    println!(
        "{:<26} {:<15} {:<26} {:>9} {:>6} {:>6} {:>6} {:>5}  {:<8} link",
        "target", "CUDA", "variant", "functions", "plain", "values", "pool", "time", "result"
    );
    for row in rows {
        let count = |keys: &[&str]| {
            row.summary
                .as_ref()
                .and_then(|s| keys.iter().try_fold(s, |v, k| v.get(*k)))
                .and_then(Value::as_u64)
                .map_or("?".to_string(), |n| n.to_string())
        };
        println!(
            "{:<26} {:<15} {:<26} {:>9} {:>6} {:>6} {:>6} {:>4}s  {:<8} {}",
            row.target,
            row.version,
            row.variant,
            count(&["static", "functions"]),
            count(&["static", "plain_names"]),
            count(&["static", "values"]),
            count(&["pool_attributes"]),
            row.secs,
            row.result,
            row.link
        );
    }

    println!("\nDifferences from {HOST} (same headers, same variant):");
    let mut any = false;
    let mut compared = 0;
    for row in rows.iter().filter(|r| r.target != HOST && r.result == "ok") {
        let Some(host) = rows.iter().find(|h| {
            h.target == HOST
                && h.version == row.version
                && h.variant == row.variant
                && h.result == "ok"
        }) else {
            continue;
        };
        let keys: std::collections::BTreeSet<&String> =
            host.values.keys().chain(row.values.keys()).collect();
        let differ: Vec<String> = keys
            .into_iter()
            .filter(|k| host.values.get(*k) != row.values.get(*k))
            .map(|k| {
                let show = |v: Option<&Value>| v.map_or("absent".to_string(), Value::to_string);
                format!(
                    "    {k}: {} on {HOST}, {} on {}",
                    show(host.values.get(k)),
                    show(row.values.get(k)),
                    row.target
                )
            })
            .collect();
        any |= !differ.is_empty();
        compared += 1;
        println!(
            "  {} CUDA {} {}: {} of {} values differ{}",
            row.target,
            row.version,
            row.variant,
            differ.len(),
            row.values.len(),
            if differ.is_empty() { "" } else { ":" }
        );
        for line in differ {
            println!("{line}");
        }
    }
    if compared == 0 {
        println!("  (nothing to compare: no other target's row passed beside the host's)");
    } else if !any {
        println!(
            "  (none: every size, alignment, offset and value is the same on every target checked)"
        );
    }

    let failed = rows.iter().filter(|r| r.result != "ok").count();
    println!("cross-abi: {} passed, {failed} failed", rows.len() - failed);
    if failed == 0 {
        Ok(())
    } else {
        Err(format!("{failed} of {} cross-ABI rows failed", rows.len()))
    }
}
