//! systest's checks over many bindings. The counts and values come from the
//! `summary.json` and `abi_values.json` systest's build script writes, not
//! from the tests' output.
//!
//! `cargo xtask abi-matrix [VERSION ...]`: `cargo test -p systest` (the ABI
//! against the C compiler, plain names, memory-pool attributes, bit masks,
//! macro constants, and the graphics-interop modules' items), with and without
//! `per-thread-default-stream`, of the
//! pregenerated set of every release against that release's headers, and of
//! bindings generated from the headers of a few releases (`VERSION`s: those
//! only, generated).
//!
//! `cargo xtask cross-abi [--target T ...] [VERSION ...]`: the same bindings
//! for aarch64 Linux and Windows (MinGW), checked on this x86-64 Linux machine.
//! Rust cannot be compiled for them here, but everything before that can run:
//! `cargo build --target T` runs the build scripts for T, so libcuda-sys
//! generates T's bindings and links for T, and systest's build script checks
//! every item statically against T's C compiler (systest/layout.rs). Only the
//! want of T's `core` may stop the build. Each target's values are set beside
//! the host's.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Instant;

use serde_json::Value;

use libcuda_sys_build::interop;

use crate::{cargo, headers, pregenerate, Result};

/// Generation is the same code for every release: a few across the API breaks.
const GENERATED: [&str; 3] = ["11.8", "12.9", "13.5"];
const VARIANTS: [&str; 2] = ["", "per-thread-default-stream"];
const HOST: &str = "x86_64-unknown-linux-gnu";
/// `(Rust target, the C compiler and sysroot header it needs, Debian packages)`.
const TARGETS: [(&str, &str, &str, &str); 3] = [
    (HOST, "cc", "/usr/include/stdlib.h", "gcc libc6-dev"),
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

/// One systest run: what it checked, or why it failed.
struct Row {
    target: String,
    /// `13.5` (generated) or `pregenerated 13.5`.
    version: String,
    variant: &'static str,
    summary: std::result::Result<Value, String>,
    values: BTreeMap<String, Value>,
    secs: u64,
}

pub fn matrix(args: &[String]) -> Result {
    if let Some(flag) = args.iter().find(|a| a.starts_with('-')) {
        return Err(format!(
            "unknown option `{flag}`; usage: cargo xtask abi-matrix [VERSION ...]"
        ));
    }
    let mut runs: Vec<(String, String, bool)> = Vec::new();
    if args.is_empty() {
        for (number, wheel) in pregenerate::releases()? {
            runs.push((pregenerate::dotted(number), wheel, true));
        }
        runs.extend(GENERATED.iter().map(|v| (v.to_string(), v.to_string(), false)));
    } else {
        runs.extend(args.iter().map(|v| (v.clone(), v.clone(), false)));
    }
    let mut rows = Vec::new();
    for (version, wheel, pregenerated) in runs {
        let include = headers::include_dir(&wheel);
        rows.extend(VARIANTS.map(|v| run(HOST, &version, v, include.as_deref(), pregenerated)));
    }
    table(
        &rows,
        &[
            ("functions", &["functions"]),
            ("plain names", &["plain_names"]),
            ("pool attributes", &["pool_attributes"]),
            ("bit masks", &["bitmasks"]),
            ("macro constants", &["macro_constants"]),
            ("ABI items", &["abi_items"]),
            ("gl functions", &["interop", "gl", "functions"]),
            ("types", &["interop", "gl", "types"]),
            ("constants", &["interop", "gl", "constants"]),
            ("egl functions", &["interop", "egl", "functions"]),
            ("types", &["interop", "egl", "types"]),
            ("constants", &["interop", "egl", "constants"]),
            ("vdpau functions", &["interop", "vdpau", "functions"]),
            ("types", &["interop", "vdpau", "types"]),
            ("constants", &["interop", "vdpau", "constants"]),
        ],
    )
}

pub fn cross(args: &[String]) -> Result {
    if !cfg!(all(target_arch = "x86_64", target_os = "linux", target_env = "gnu")) {
        return Err(format!(
            "cross-abi runs on {HOST}: its cross compilers are set up for that host"
        ));
    }
    let (mut targets, mut versions) = (vec![HOST.to_string()], Vec::new());
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--target" => targets.push(it.next().ok_or("--target needs a target triple")?.clone()),
            flag if flag.starts_with('-') => {
                return Err(format!("unknown option `{flag}`; usage: cargo xtask cross-abi [--target T ...] [VERSION ...]"))
            }
            version => versions.push((version.to_string(), false)),
        }
    }
    if targets.len() == 1 {
        targets.extend(TARGETS[1..].iter().map(|t| t.0.to_string()));
    }
    targets.dedup();
    if versions.is_empty() {
        versions = vec![
            ("12.9".into(), false),
            ("13.5".into(), false),
            (pregenerate::newest_wheel()?, true),
        ];
    }
    for target in &targets {
        let Some(&(_, compiler, header, packages)) = TARGETS.iter().find(|t| t.0 == target) else {
            return Err(format!("no cross setup known for {target}"));
        };
        crate::setup::ensure_tool(compiler, Path::new(header), packages)?;
    }
    let mut rows = Vec::new();
    for (version, pregenerated) in &versions {
        for target in &targets {
            let include = headers::include_dir_for(version, headers::Platform::of(target)?);
            let shown = pregenerate::dotted(pregenerate::number(
                version.rsplitn(2, '.').last().unwrap_or(version),
            ));
            let shown = if *pregenerated { shown } else { version.clone() };
            rows.extend(
                VARIANTS.map(|v| run(target, &shown, v, include.as_deref(), *pregenerated)),
            );
        }
    }
    let result = table(
        &rows,
        &[
            ("functions", &["static", "functions"]),
            ("plain names", &["static", "plain_names"]),
            ("values", &["static", "values"]),
            ("gl, egl, vdpau or d3d9, d3d10, d3d11 functions", &["interop", "gl", "functions"]),
            ("", &["interop", "egl", "functions"]),
            ("", &["interop", "vdpau", "functions"]),
            ("", &["interop", "d3d9", "functions"]),
            ("", &["interop", "d3d10", "functions"]),
            ("", &["interop", "d3d11", "functions"]),
        ],
    );
    println!("\nDifferences from {HOST} (same headers, same variant):");
    for row in rows.iter().filter(|r| r.target != HOST && r.summary.is_ok()) {
        let host = rows.iter().find(|h| {
            h.target == HOST
                && h.version == row.version
                && h.variant == row.variant
                && h.summary.is_ok()
        });
        let Some(host) = host else { continue };
        // Only the items both have: each OS has its own interop modules.
        let both: Vec<&String> =
            row.values.keys().filter(|k| host.values.contains_key(*k)).collect();
        let differ: Vec<&&String> =
            both.iter().filter(|k| host.values.get(**k) != row.values.get(**k)).collect();
        println!(
            "  {} {} {}: {} of the {} values both check differ {differ:?}; {} are the target's own",
            row.target,
            row.version,
            row.variant,
            differ.len(),
            both.len(),
            row.values.len() - both.len()
        );
    }
    result
}

/// systest for `target` against `include`: the bindings generated from it, or
/// the pregenerated release `version` checked against it. The host's tests run;
/// another target's build runs as far as its build scripts.
fn run(
    target: &str,
    version: &str,
    variant: &'static str,
    include: std::result::Result<&Path, &String>,
    pregenerated: bool,
) -> Row {
    let version =
        if pregenerated { format!("pregenerated {version}") } else { version.to_string() };
    eprintln!(
        "abi: {target}, CUDA {version}, {}",
        if variant.is_empty() { "default" } else { variant }
    );
    let start = Instant::now();
    let outcome = include.map_err(Clone::clone).and_then(|include| {
        let mut features: Vec<String> =
            [variant].iter().filter(|v| !v.is_empty()).map(|v| v.to_string()).collect();
        if pregenerated {
            features.push(format!(
                "libcuda-sys/cuda-{:05}",
                pregenerate::number(version.trim_start_matches("pregenerated "))
            ));
        }
        // The graphics-interop modules of the target's OS, checked with cuda.h's items.
        let os = if target.contains("windows") { "windows" } else { "linux" };
        let modules = interop::MODULES.iter().filter(|m| m.os == os);
        features.extend(modules.map(|m| m.feature.to_string()));
        // Without an import library a Windows build can only load nvcuda.dll at run time.
        if target.contains("windows")
            && (pregenerated || !include.join("../lib/x64/cuda.lib").is_file())
        {
            features.push("dynamic-loading".into());
        }
        let features = features.join(",");
        let host = target == HOST;
        let args: &[&str] = if host {
            &["test", "-p", "systest", "--message-format=json", "--features", &features]
        } else {
            &[
                "build",
                "-p",
                "systest",
                "--keep-going",
                "--message-format=json",
                "--target",
                target,
                "--features",
                &features,
            ]
        };
        let mut cmd = cargo::command(args);
        if pregenerated {
            cmd.env("LIBCUDA_SYS_BINDINGS", "pregenerated")
                .env("SYSTEST_CUDA_INCLUDE_DIR", include);
        } else {
            cmd.env("LIBCUDA_SYS_BINDINGS", "generate").env("LIBCUDA_SYS_INCLUDE_DIR", include);
        }
        cmd.env(
            "CARGO_TARGET_DIR",
            crate::root().join(if host { "target/abi" } else { "target/cross-abi" }),
        )
        .env_remove("LIBCUDA_SYS_DRIVER_FLOOR");
        let build = cargo::build(cmd)?;
        // Elsewhere than the host, only the want of the target's standard library may stop it.
        let unexpected: Vec<(&str, &str)> = build
            .errors()
            .map(|e| (e.message.code.as_ref().map_or("", |c| c.code.as_str()), &*e.message.message))
            .filter(|(code, _)| host || *code != "E0463")
            .collect();
        if !unexpected.is_empty() || (host && !build.success) {
            let failure = build.failure();
            let lines: Vec<&str> = failure.lines().collect();
            return Err(format!(
                "{unexpected:?}\n{}",
                lines[lines.len().saturating_sub(60)..].join("\n")
            ));
        }
        let out_dir = build.out_dir("systest")?;
        let read = |name: &str| -> Result<Value> {
            let text =
                std::fs::read_to_string(out_dir.join(name)).map_err(|e| format!("{name}: {e}"))?;
            serde_json::from_str(&text).map_err(|e| format!("{name}: {e}"))
        };
        let summary = read("summary.json")?;
        // Another variable (a target-prefixed LIBCUDA_SYS_INCLUDE_DIR) could have chosen other headers.
        let same = |p: &str| std::fs::canonicalize(p).ok();
        let expected =
            (same(&include.to_string_lossy()), !variant.is_empty(), target, pregenerated);
        let checked = (
            same(summary["cuda_include"].as_str().unwrap_or_default()),
            summary["per_thread_default_stream"] == true,
            summary["target"].as_str().unwrap_or_default(),
            summary["bindings"] == "pregenerated",
        );
        if summary["skipped"].is_string() || checked != expected {
            return Err(format!("systest checked something else than asked: {summary}"));
        }
        let values = read("abi_values.json")?;
        build.remove_outputs(&["libcuda-sys", "systest"]);
        Ok((summary, values.as_object().cloned().unwrap_or_default().into_iter().collect()))
    });
    let secs = start.elapsed().as_secs();
    let (summary, values) = match outcome {
        Ok((s, v)) => (Ok(s), v),
        Err(e) => {
            println!("{e}");
            (Err(e), BTreeMap::new())
        }
    };
    Row { target: target.to_string(), version, variant, summary, values, secs }
}

/// The rows with the counts `columns` name (`(heading, path in summary.json)`).
fn table(rows: &[Row], columns: &[(&str, &[&str])]) -> Result {
    println!("\n{:<26} {:<14} {:<26}", "target", "CUDA", "variant");
    println!("  {}", columns.iter().map(|c| c.0).collect::<Vec<_>>().join(", "));
    for row in rows {
        let counts: Vec<String> = columns
            .iter()
            .map(|(_, path)| {
                let v = row
                    .summary
                    .as_ref()
                    .ok()
                    .and_then(|s| path.iter().try_fold(s, |v, k| v.get(*k)));
                v.and_then(Value::as_u64).map_or("?".into(), |n| n.to_string())
            })
            .collect();
        println!(
            "{:<26} {:<14} {:<26} {:>5}s {:<4} {}",
            row.target,
            row.version,
            if row.variant.is_empty() { "default" } else { row.variant },
            row.secs,
            if row.summary.is_ok() { "ok" } else { "FAIL" },
            counts.join(" "),
        );
    }
    let failed = rows.iter().filter(|r| r.summary.is_err()).count();
    println!("{} passed, {failed} failed", rows.len() - failed);
    match failed {
        0 => Ok(()),
        n => Err(format!("{n} of {} rows failed", rows.len())),
    }
}
