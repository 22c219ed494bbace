//! `cargo xtask bench-build [--rounds N] [--write]`: what a user pays to build
//! libcuda-sys in each of its three configurations, side by side with cudarc,
//! the way users build it.
//!
//! Each configuration is a fresh dependent project outside the workspace that
//! resolves its own lockfile (`cargo generate-lockfile`: the newest versions the
//! requirements allow, as for a new user; this workspace's `Cargo.lock` plays no
//! part) and depends on the packaged crate (`cargo package`, unpacked):
//!
//! - `cudarc`: cudarc 0.19.10, `default-features = false`, features `std`,
//!   `driver`, `cuda-13000`, `dynamic-loading` (pre-generated bindings);
//! - `generate`: libcuda-sys with default features, CUDA 13.0 headers through
//!   `LIBCUDA_SYS_INCLUDE_DIR`: bindgen runs;
//! - `shipped`: the same dependency with `LIBCUDA_SYS_BINDINGS=pregenerated`
//!   (bindgen is still compiled: the feature is on);
//! - `no-default-features`: `default-features = false`: the shipped bindings,
//!   no bindgen.
//!
//! Every round builds each project from clean (its `target/` removed, crates
//! already downloaded), then again with nothing changed (the no-op rebuild).
//! Rounds rotate the order, ratios to cudarc are taken within a round, and the
//! figures are medians over rounds (the fastest round beside them), so that a
//! machine shared with other work shifts both sides of a ratio alike.
//!
//! `--units` measures unit by unit in this workspace instead (`bench_units`).

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::{cargo, headers, Result};

const CUDARC: &str = "0.19.10";
const CONFIGS: [&str; 4] = ["cudarc", "generate", "shipped", "no-default-features"];

/// One clean build and the no-op rebuild after it.
struct Sample {
    clean: f64,
    noop: f64,
    /// Every unit of the no-op rebuild was fresh.
    noop_fresh: bool,
    crates: usize,
    /// Versions of `syn` compiled.
    syn: Vec<String>,
    bindgen: bool,
}

pub fn run(args: &[String]) -> Result {
    let mut rounds = 3;
    let mut write = false;
    let (mut units, mut variants, mut debug_only) = (false, false, false);
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--units" => units = true,
            "--variants" => variants = true,
            "--debug-only" => debug_only = true,
            "--rounds" => {
                rounds = it
                    .next()
                    .and_then(|n| n.parse().ok())
                    .filter(|&n: &usize| n > 0)
                    .ok_or("--rounds takes a number of at least 1")?
            }
            "--write" => write = true,
            // BENCHMARKS.md again from the kept results, without measuring.
            "--render" => return render_into_benchmarks_md(),
            _ => {
                return Err(
                    "usage: cargo xtask bench-build [--units [--variants] [--debug-only]] \
                     [--rounds N] [--write | --render]"
                        .into(),
                )
            }
        }
    }
    if units {
        return crate::bench_units::run(&crate::bench_units::Options {
            rounds,
            variants,
            debug_only,
            write,
        });
    }
    if variants || debug_only {
        return Err("--variants and --debug-only go with --units".into());
    }
    let work = std::env::var_os("LIBCUDA_SYS_BENCH_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| std::env::temp_dir().join("libcuda-sys-bench"));
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).map_err(|e| format!("{}: {e}", work.display()))?;
    let include = headers::include_dir("13.0")?;
    let package = package(&work)?;
    let projects: Vec<(&str, PathBuf)> = CONFIGS
        .iter()
        .map(|c| project(&work, c, &package).map(|p| (*c, p)))
        .collect::<Result<_>>()?;
    for (config, dir) in &projects {
        eprintln!("bench-build: resolving and fetching {config}");
        plain(cmd(dir, config, &include, &["generate-lockfile"]))?;
        plain(cmd(dir, config, &include, &["fetch"]))?;
    }

    let mut samples: Vec<Vec<Sample>> = (0..CONFIGS.len()).map(|_| Vec::new()).collect();
    for round in 0..rounds {
        for k in 0..CONFIGS.len() {
            let i = (k + round) % CONFIGS.len();
            let (config, dir) = &projects[i];
            eprintln!("bench-build: round {} of {rounds}: {config}", round + 1);
            samples[i].push(measure(dir, config, &include)?);
        }
    }

    let data = summarize(&samples, rounds);
    println!(
        "Clean build of a fresh dependent project (debug, its own lockfile), {rounds} rounds; \
         median (fastest); {}\n\n{}",
        data["machine"].as_str().unwrap_or_default(),
        table(&data)
    );
    if write {
        let results = crate::root().join("benches/results/build-modes.json");
        std::fs::write(
            &results,
            serde_json::to_string_pretty(&data).unwrap_or_default() + "\n",
        )
        .map_err(|e| format!("{}: {e}", results.display()))?;
        println!("wrote {}", results.display());
        render_into_benchmarks_md()?;
    }
    Ok(())
}

/// `cargo package` of the working tree, unpacked: what a dependent gets.
fn package(work: &Path) -> Result<PathBuf> {
    let mut cmd = cargo::command(&[
        "package",
        "-p",
        "libcuda-sys",
        "--allow-dirty",
        "--no-verify",
    ]);
    cmd.env("CARGO_TARGET_DIR", work.join("package-target"));
    plain(cmd)?;
    cargo::unpack_package(&work.join("package-target/package"), work)
}

/// A dependent project for `config`.
pub fn project(work: &Path, config: &str, package: &Path) -> Result<PathBuf> {
    let dir = work.join(config);
    std::fs::create_dir_all(dir.join("src")).map_err(|e| e.to_string())?;
    let path = format!("{:?}", package.display().to_string());
    let (dependency, use_line) = match config {
        "cudarc" => (
            format!(
                "cudarc = {{ version = \"={CUDARC}\", default-features = false, features = [\"std\", \"driver\", \"cuda-13000\", \"dynamic-loading\"] }}"
            ),
            "pub use cudarc::driver::sys::cuInit;",
        ),
        "no-default-features" => (
            format!("libcuda-sys = {{ path = {path}, default-features = false }}"),
            "pub use libcuda_sys::cuInit;",
        ),
        _ => (
            format!("libcuda-sys = {{ path = {path} }}"),
            "pub use libcuda_sys::cuInit;",
        ),
    };
    let manifest = format!(
        "[package]\nname = \"bench-{config}\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n\
         [dependencies]\n{dependency}\n\n[workspace]\n"
    );
    std::fs::write(dir.join("Cargo.toml"), manifest).map_err(|e| e.to_string())?;
    std::fs::write(dir.join("src/lib.rs"), format!("{use_line}\n")).map_err(|e| e.to_string())?;
    Ok(dir)
}

/// `cargo args` in `dir`, with the configuration's environment and nothing
/// of this machine's that would change the build (a compiler cache, flags).
pub fn cmd(dir: &Path, config: &str, include: &Path, args: &[&str]) -> Command {
    let mut cmd = cargo::command(args);
    cmd.current_dir(dir)
        .env("CARGO_TERM_COLOR", "never")
        .env_remove("RUSTC_WRAPPER")
        .env_remove("CARGO_BUILD_RUSTC_WRAPPER")
        .env_remove("CARGO_TARGET_DIR")
        .env_remove("CARGO_BUILD_TARGET_DIR")
        .env_remove("RUSTFLAGS")
        .env_remove("CARGO_ENCODED_RUSTFLAGS");
    match config {
        "generate" => {
            cmd.env("LIBCUDA_SYS_INCLUDE_DIR", include);
        }
        "shipped" => {
            cmd.env("LIBCUDA_SYS_BINDINGS", "pregenerated");
        }
        _ => {}
    }
    cmd
}

pub fn plain(mut cmd: Command) -> Result {
    let out = cmd.output().map_err(|e| format!("cargo: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{:?} failed:\n{}",
            cmd.get_args().collect::<Vec<_>>(),
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

/// `(wall seconds, JSON messages)` of one `cargo build --message-format=json`.
fn timed_build(dir: &Path, config: &str, include: &Path) -> Result<(f64, Vec<serde_json::Value>)> {
    let build = cargo::timed(cmd(dir, config, include, &["build"]))
        .map_err(|e| format!("{config}: the build failed: {e}"))?;
    Ok((
        build.wall,
        build.messages.into_iter().map(|(_, m)| m).collect(),
    ))
}

fn measure(dir: &Path, config: &str, include: &Path) -> Result<Sample> {
    let _ = std::fs::remove_dir_all(dir.join("target"));
    let (clean, messages) = timed_build(dir, config, include)?;
    let artifacts: Vec<&serde_json::Value> = messages
        .iter()
        .filter(|m| m["reason"] == "compiler-artifact")
        .collect();
    let package = |m: &serde_json::Value| m["package_id"].as_str().unwrap_or_default().to_string();
    let mut syn: Vec<String> = artifacts
        .iter()
        .map(|m| package(m))
        .filter_map(|id| cargo::package_version(&id, "syn"))
        .collect();
    syn.sort();
    syn.dedup();
    let bindgen = artifacts
        .iter()
        .any(|m| cargo::package_version(&package(m), "bindgen").is_some());
    let mut crates: Vec<String> = artifacts.iter().map(|m| package(m)).collect();
    crates.sort();
    crates.dedup();
    let (noop, messages) = timed_build(dir, config, include)?;
    let noop_fresh = messages
        .iter()
        .filter(|m| m["reason"] == "compiler-artifact")
        .all(|m| m["fresh"] == true);
    Ok(Sample {
        clean,
        noop,
        noop_fresh,
        crates: crates.len(),
        syn,
        bindgen,
    })
}

fn median(v: Vec<f64>) -> f64 {
    crate::stats::median(&v).unwrap_or(f64::NAN)
}

fn min(v: &[f64]) -> f64 {
    v.iter().copied().fold(f64::INFINITY, f64::min)
}

/// The measurements as data: what `--write` keeps and the tables are made from.
fn summarize(samples: &[Vec<Sample>], rounds: usize) -> serde_json::Value {
    let cudarc = &samples[0];
    let configs: Vec<serde_json::Value> = CONFIGS
        .iter()
        .zip(samples)
        .map(|(config, s)| {
            let last = s.last().expect("at least one round");
            serde_json::json!({
                "config": config,
                "clean_s": s.iter().map(|x| x.clean).collect::<Vec<_>>(),
                "ratio_to_cudarc": s.iter().zip(cudarc).map(|(x, c)| x.clean / c.clean).collect::<Vec<_>>(),
                "noop_s": s.iter().map(|x| x.noop).collect::<Vec<_>>(),
                "noop_fresh": s.iter().all(|x| x.noop_fresh),
                "crates": last.crates,
                "syn": last.syn,
                "bindgen": last.bindgen,
            })
        })
        .collect();
    serde_json::json!({
        "rounds": rounds,
        "cudarc": CUDARC,
        "machine": format!(
            "{} cores; {}",
            std::thread::available_parallelism().map_or(0, |n| n.get()),
            tool_version("rustc")
        ),
        "date": date(),
        "configs": configs,
    })
}

/// The table of one run, from its data.
fn table(data: &serde_json::Value) -> String {
    let numbers = |v: &serde_json::Value| -> Vec<f64> {
        v.as_array()
            .map(|a| a.iter().filter_map(|x| x.as_f64()).collect())
            .unwrap_or_default()
    };
    let mut out = String::from(
        "| configuration | clean build | / cudarc | no-op rebuild (slowest) | crates compiled | syn compiled | bindgen compiled |\n\
         |---|---:|---:|---:|---:|---|---|\n",
    );
    for c in data["configs"].as_array().into_iter().flatten() {
        let clean = numbers(&c["clean_s"]);
        let ratio = numbers(&c["ratio_to_cudarc"]);
        let noop = numbers(&c["noop_s"]).into_iter().fold(0.0, f64::max);
        let syn: Vec<&str> = c["syn"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|s| s.as_str())
            .collect();
        let name = match c["config"].as_str().unwrap_or_default() {
            "cudarc" => "cudarc (pre-generated bindings)",
            "generate" => "libcuda-sys, default (bindgen over CUDA 13.0 headers)",
            "shipped" => "libcuda-sys, default, `LIBCUDA_SYS_BINDINGS=pregenerated`",
            "no-default-features" => "libcuda-sys, `default-features = false` (shipped bindings)",
            other => other,
        };
        out.push_str(&format!(
            "| {name} | {:.2} s ({:.2} s) | {:.2}x ({:.2}x) | {:.2} s{} | {} | {} | {} |\n",
            median(clean.clone()),
            min(&clean),
            median(ratio.clone()),
            min(&ratio),
            noop,
            if c["noop_fresh"] == true {
                ""
            } else {
                ", not fresh"
            },
            c["crates"],
            if syn.is_empty() {
                "none".to_string()
            } else {
                syn.join(", ")
            },
            if c["bindgen"] == true { "yes" } else { "no" },
        ));
    }
    out
}

fn tool_version(tool: &str) -> String {
    crate::machine::first_line(tool, &["--version"]).unwrap_or_default()
}

fn date() -> String {
    crate::machine::first_line("date", &["-u", "+%Y-%m-%d %H:%M UTC"]).unwrap_or_default()
}

/// The targets of the builds-anywhere work, judged on the medians, and what
/// was done and tried for them.
fn targets(data: &serde_json::Value) -> String {
    let config = |name: &str| {
        data["configs"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|c| c["config"] == name)
    };
    let ratio = |name: &str| {
        config(name)
            .and_then(|c| c["ratio_to_cudarc"].as_array())
            .map(|a| median(a.iter().filter_map(|x| x.as_f64()).collect()))
            .unwrap_or(f64::NAN)
    };
    let noop = data["configs"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|c| c["noop_s"].as_array().into_iter().flatten())
        .filter_map(|x| x.as_f64())
        .fold(0.0, f64::max);
    let fresh = data["configs"]
        .as_array()
        .into_iter()
        .flatten()
        .all(|c| c["noop_fresh"] == true);
    let met = |ok: bool| if ok { "**yes**" } else { "**no**" };
    let (none, generate) = (ratio("no-default-features"), ratio("generate"));
    format!(
        "\n| target | measured | met |\n|---|---|---|\n\
         | `default-features = false` no slower than cudarc | {none:.2}x | {} |\n\
         | default (generating) build within 3x of cudarc | {generate:.2}x | {} |\n\
         | no-op rebuild < 0.5 s in every configuration, nothing rebuilt | slowest {noop:.2} s | {} |\n\n\
         What was done for these, and tried:\n\n\
         - The shipped bindings make `default-features = false` a build of 6 crates (libcuda-sys, cc, \
         pkg-config and theirs): no bindgen, clang-sys, syn, quote or doxygen-bindgen.\n\
         - One `syn` instead of two: bindgen 0.73 accepts syn 2 or 3 and a fresh lockfile takes 3, so \
         libcuda-sys asks for syn 3 too (it asked for 2, and users compiled both).\n\
         - No `prettyplease`: the generated file is read by rustc only; the shipped set is formatted by \
         `cargo xtask pregenerate`, outside users' builds. bindgen's `logging` stays off.\n\
         - Before these changes the same fresh-project measurement gave 15.1-15.7 s for the generating \
         build against 3.5-3.9 s for cudarc (about 4.0x; syn 2.0.119 and 3.0.10 and prettyplease 0.3.0 \
         compiled); after them {generate:.2}x. The rest is bindgen's own dependency chain: with 2 cores, \
         syn 3 (about 3.3 s), bindgen (3.7 s), regex-syntax and regex-automata (3.1 s), clang-sys (2.5 s) and \
         nom (1.2 s) compile before libcuda-sys's build script can (1.4 s to compile, 1.6 s to run, of which \
         bindgen over cuda.h takes 0.9 s unoptimized), and the bindings compile in 1.0 s. The 3x target is \
         out of reach while the default build runs bindgen; the configurations that do not, reach it.\n\
         - Considered and left: dropping the header documentation (0.4 s of the build script's run, the \
         crate's best feature), layout tests (0.03 s, measured in the candidate table below), running the \
         preprocessor beside bindgen on a second thread (about 0.3 s, at the cost of the order of errors).\n",
        met(none <= 1.0),
        met(generate <= 3.0),
        met(noop < 0.5 && fresh),
    )
}

/// The section of BENCHMARKS.md made from `benches/results/build-modes.json`,
/// between its markers.
pub fn section(data: &serde_json::Value) -> String {
    let mut section = format!(
        "<!-- build-modes: generated by `cargo xtask bench-build --write` from benches/results/build-modes.json -->\n\
         ### The three configurations, as a new user builds them\n\n\
         Measured {} by `cargo xtask bench-build`: {} rounds, {}. Each configuration is a fresh project outside \
         the workspace that resolves its own lockfile and depends on the packaged crate (`cargo package`, \
         unpacked) or on cudarc {} (`std`, `driver`, `cuda-13000`, `dynamic-loading`); each round builds every \
         project from clean (crates already downloaded), then again with nothing changed. Ratios are taken \
         within a round; figures are medians over rounds, the fastest round in parentheses.\n\n",
        data["date"].as_str().unwrap_or_default(),
        data["rounds"],
        data["machine"].as_str().unwrap_or_default(),
        data["cudarc"].as_str().unwrap_or_default(),
    );
    section.push_str(&table(data));
    section.push_str(&targets(data));
    section.push_str("<!-- build-modes: end -->");
    section
}

/// BENCHMARKS.md again, from every kept result.
pub fn render_into_benchmarks_md() -> Result {
    let path = crate::root().join("BENCHMARKS.md");
    let text = crate::bench_report::render(&crate::root())?;
    std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))
}
