//! `cargo xtask bench-build --units [--variants] [--rounds N] [--debug-only]
//! [--write]`: what libcuda-sys costs to build unit by unit, side by side with
//! cudarc, in this workspace (the tables "Clean build", "Targets", "The build
//! script's steps" and, with `--variants`, "Candidate optimizations" of
//! BENCHMARKS.md).
//!
//! Every round, interleaved so that both crates see the same machine load:
//!
//! - ours: clean `cargo build -p libcuda-sys` (debug, then release) of a
//!   snapshot of the working tree in fresh target directories, CUDA 13.0
//!   headers; then `--features dynamic-loading` on top of the debug build; a
//!   no-op rebuild of the workspace and one after touching
//!   `dependent/src/lib.rs`;
//! - cudarc: clean build of cudarc (the driver API, CUDA 13.0 bindings,
//!   dynamic loading) in a scratch crate, debug and release.
//!
//! Unit times come from Cargo's `--message-format=json` messages, stamped as
//! they arrive: a unit ends at its `compiler-artifact` (or
//! `build-script-executed`) message and starts at the last message of what it
//! waits for (its dependencies, from `cargo metadata`; a build script's run
//! waits for its compile, a library for its build script's run). The build
//! script's steps come from its `libcuda-sys: step <name> <ms> ms` log lines,
//! which Cargo keeps in the `stderr` file beside its `OUT_DIR`.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::SystemTime;

use serde_json::{json, Value};

use crate::cargo::{timed, Timed};
use crate::{bench_build, cargo, headers, Result};

const CUDARC_FEATURES: [&str; 4] = ["std", "driver", "cuda-13000", "dynamic-loading"];

/// A candidate optimization: its name, what it changes, its patch in
/// `benches/variants/`, the variable it sets.
type Variant = (
    &'static str,
    &'static str,
    Option<&'static str>,
    Option<(&'static str, &'static str)>,
);

const VARIANTS: [Variant; 3] = [
    ("baseline", "the working tree as it is", None, None),
    (
        "no-layout-tests",
        "build/bindings.rs: layout_tests(false) (systest's run-time check still compares every \
         size, alignment and offset with the C compiler here, but the cross-target check reads the \
         Rust side from the layout tests and could not run)",
        Some("no-layout-tests.patch"),
        None,
    ),
    (
        "build-override-opt1",
        "a dependent's choice, not a crate patch: CARGO_PROFILE_DEV_BUILD_OVERRIDE_OPT_LEVEL=1 \
         (build scripts and their dependencies optimized)",
        None,
        Some(("CARGO_PROFILE_DEV_BUILD_OVERRIDE_OPT_LEVEL", "1")),
    ),
];

pub struct Options {
    pub rounds: usize,
    pub variants: bool,
    pub debug_only: bool,
    pub write: bool,
}

fn round3(v: f64) -> f64 {
    (v * 1000.0).round() / 1000.0
}

fn package_of(m: &Value) -> String {
    cargo::package_name(m["package_id"].as_str().unwrap_or_default())
}

type Dependencies = Vec<(String, Vec<(String, String)>)>;

/// The resolved dependencies of each package: `(package id, kind)` with kind
/// `normal`, `build` or `dev`.
fn dependencies(dir: &Path, features: &[&str]) -> Result<Dependencies> {
    let mut cmd = cargo::command(&["metadata", "--format-version", "1", "--offline"]);
    cmd.current_dir(dir).args(features);
    let out = cmd.output().map_err(|e| format!("cargo metadata: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "cargo metadata in {} failed:\n{}",
            dir.display(),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let meta: Value = serde_json::from_slice(&out.stdout)
        .map_err(|e| format!("cargo metadata printed no JSON: {e}"))?;
    Ok(meta["resolve"]["nodes"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|node| {
            let deps = node["deps"]
                .as_array()
                .into_iter()
                .flatten()
                .flat_map(|d| {
                    let pkg = d["pkg"].as_str().unwrap_or_default().to_string();
                    d["dep_kinds"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .map(move |k| {
                            (
                                pkg.clone(),
                                k["kind"].as_str().unwrap_or("normal").to_string(),
                            )
                        })
                })
                .collect();
            (node["id"].as_str().unwrap_or_default().to_string(), deps)
        })
        .collect())
}

/// A unit: `lib`, `script_compile` or `script_run` of a package.
#[derive(Clone, Copy, PartialEq)]
enum Unit {
    Lib,
    ScriptCompile,
    ScriptRun,
}

fn unit_of(m: &Value) -> Option<Unit> {
    match m["reason"].as_str()? {
        "build-script-executed" => Some(Unit::ScriptRun),
        "compiler-artifact" => {
            let kinds: Vec<&str> = m["target"]["kind"]
                .as_array()?
                .iter()
                .filter_map(Value::as_str)
                .collect();
            if kinds.contains(&"custom-build") {
                Some(Unit::ScriptCompile)
            } else if kinds
                .iter()
                .any(|k| k.ends_with("lib") || *k == "proc-macro")
            {
                Some(Unit::Lib)
            } else {
                None
            }
        }
        _ => None,
    }
}

/// `{start, duration, end}` of each unit asked for, plus how many units
/// there were and which packages were compiled.
fn summarize(build: &Timed, deps: &Dependencies, asked: &[(&str, &str, Unit)]) -> Value {
    let arrival = |id: &str, unit: Unit| {
        build
            .messages
            .iter()
            .find(|(_, m)| m["package_id"] == id && unit_of(m) == Some(unit))
            .map(|(t, _)| *t)
    };
    let deps_of = |id: &str, kind: &str| -> Vec<String> {
        deps.iter()
            .find(|(n, _)| n == id)
            .map(|(_, d)| {
                d.iter()
                    .filter(|(_, k)| k == kind)
                    .map(|(p, _)| p.clone())
                    .collect()
            })
            .unwrap_or_default()
    };
    let latest = |ids: &[String], unit: Unit| {
        ids.iter()
            .filter_map(|id| arrival(id, unit))
            .fold(0.0, f64::max)
    };
    let mut out = serde_json::Map::new();
    for (label, package, unit) in asked {
        let Some((end, m)) = build
            .messages
            .iter()
            .find(|(_, m)| package_of(m) == *package && unit_of(m) == Some(*unit))
        else {
            continue;
        };
        let id = m["package_id"].as_str().unwrap_or_default();
        let start = match unit {
            Unit::ScriptCompile => latest(&deps_of(id, "build"), Unit::Lib),
            Unit::ScriptRun => arrival(id, Unit::ScriptCompile).unwrap_or(0.0),
            Unit::Lib => latest(&deps_of(id, "normal"), Unit::Lib)
                .max(arrival(id, Unit::ScriptRun).unwrap_or(0.0)),
        };
        out.insert(
            label.to_string(),
            json!({"start": round3(start), "duration": round3(end - start), "end": round3(*end)}),
        );
    }
    let units = build
        .messages
        .iter()
        .filter(|(_, m)| unit_of(m).is_some())
        .count();
    let compiled: BTreeSet<String> = build
        .messages
        .iter()
        .filter(|(_, m)| m["reason"] == "compiler-artifact" && m["fresh"] == false)
        .map(|(_, m)| package_of(m))
        .collect();
    out.insert("units".into(), json!(units));
    out.insert("compiled".into(), json!(compiled));
    out.insert("wall".into(), json!(round3(build.wall)));
    Value::Object(out)
}

const OURS: [(&str, &str, Unit); 6] = [
    ("bindgen", "bindgen", Unit::Lib),
    ("syn", "syn", Unit::Lib),
    ("clang-sys", "clang-sys", Unit::Lib),
    ("script_compile", "libcuda-sys", Unit::ScriptCompile),
    ("script_run", "libcuda-sys", Unit::ScriptRun),
    ("lib", "libcuda-sys", Unit::Lib),
];
const CUDARC: [(&str, &str, Unit); 3] = [
    ("script_compile", "cudarc", Unit::ScriptCompile),
    ("script_run", "cudarc", Unit::ScriptRun),
    ("lib", "cudarc", Unit::Lib),
];

/// The build script's steps, from the `build_steps.json` it writes into its
/// `OUT_DIR` (milliseconds).
fn script_steps(build: &Timed) -> Result<Value> {
    let out_dir = build
        .messages
        .iter()
        .find(|(_, m)| m["reason"] == "build-script-executed" && package_of(m) == "libcuda-sys")
        .and_then(|(_, m)| m["out_dir"].as_str())
        .ok_or("no build-script-executed message for libcuda-sys")?;
    let path = Path::new(out_dir).join("build_steps.json");
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let data: Vec<(String, f64)> =
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let steps: Vec<(String, f64)> = data.into_iter().map(|(n, ms)| (n, ms / 1000.0)).collect();
    if steps.is_empty() {
        return Err(format!("{} lists no step", path.display()));
    }
    let total: f64 = steps.iter().map(|(_, s)| s).sum();
    Ok(json!({
        "total": (total * 1e4).round() / 1e4,
        "source": "build_steps.json",
        "steps": steps.iter().map(|(n, s)| json!([n, (s * 1e4).round() / 1e4])).collect::<Vec<_>>(),
    }))
}

/// A rebuild of the workspace: its wall time, the build scripts that ran (their
/// `output` file written during it), what it compiled, and whether
/// libcuda-sys stayed fresh.
fn rebuild(src: &Path, include: &Path, target: &Path) -> Result<Value> {
    let mut cmd = bench_build::cmd(
        src,
        "generate",
        include,
        &["build", "--locked", "--workspace"],
    );
    cmd.env("CARGO_TARGET_DIR", target);
    let b = timed(cmd)?;
    let mut scripts = Vec::new();
    for (_, m) in &b.messages {
        if m["reason"] != "build-script-executed" {
            continue;
        }
        let output = Path::new(m["out_dir"].as_str().unwrap_or_default()).with_file_name("output");
        let ran = std::fs::metadata(&output)
            .and_then(|md| md.modified())
            .is_ok_and(|t| t >= b.started);
        if ran {
            scripts.push(package_of(m));
        }
    }
    let artifacts = |fresh: bool| -> Vec<String> {
        b.messages
            .iter()
            .filter(|(_, m)| m["reason"] == "compiler-artifact" && m["fresh"] == fresh)
            .map(|(_, m)| package_of(m))
            .collect()
    };
    Ok(json!({
        "wall": round3(b.wall),
        "build_scripts_run": scripts,
        "compiled": artifacts(false),
        "fresh_libcuda_sys": artifacts(true).iter().any(|p| p == "libcuda-sys")
            && !artifacts(false).iter().any(|p| p == "libcuda-sys"),
    }))
}

/// Tracked and untracked-but-not-ignored files of the working tree, copied.
fn snapshot(dest: &Path) -> Result {
    let root = crate::root();
    let out = Command::new("git")
        .current_dir(&root)
        .args([
            "ls-files",
            "-z",
            "--cached",
            "--others",
            "--exclude-standard",
        ])
        .output()
        .map_err(|e| format!("git ls-files: {e}"))?;
    if !out.status.success() {
        return Err("git ls-files failed: the snapshot needs the git checkout".into());
    }
    let _ = std::fs::remove_dir_all(dest);
    for name in out.stdout.split(|&b| b == 0).filter(|n| !n.is_empty()) {
        let name = String::from_utf8_lossy(name);
        let from = root.join(&*name);
        if !from.is_file() {
            continue; // deleted in the working tree
        }
        let to = dest.join(&*name);
        std::fs::create_dir_all(to.parent().expect("a file has a parent"))
            .and_then(|_| std::fs::copy(&from, &to))
            .map_err(|e| format!("copying {} to {}: {e}", from.display(), to.display()))?;
    }
    Ok(())
}

fn first_line(program: &str, args: &[&str]) -> String {
    crate::machine::first_line(program, args).unwrap_or_else(|| "none".into())
}

fn load() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "?".into())
}

fn machine() -> Value {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|t| {
            t.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, v)| v.trim().to_string())
        })
        .unwrap_or_else(|| "unknown".into());
    json!({
        "nproc": std::thread::available_parallelism().map_or(0, |n| n.get()),
        "cpu": cpu,
        "os": format!("{} {}", first_line("uname", &["-s"]), first_line("uname", &["-r"])),
        "rustc": first_line("rustc", &["-V"]),
        "cargo": first_line("cargo", &["-V"]),
        "cc": first_line("cc", &["--version"]),
        "date": first_line("date", &["-u", "+%Y-%m-%d %H:%M UTC"]),
        "load_at_start": load(),
    })
}

/// The version of `package` among a build's messages.
fn version_in(build: &Timed, package: &str) -> String {
    build
        .messages
        .iter()
        .filter_map(|(_, m)| m["package_id"].as_str())
        .find_map(|id| crate::cargo::package_version(id, package))
        .unwrap_or_else(|| "?".into())
}

fn clean(dir: &Path) {
    let _ = std::fs::remove_dir_all(dir);
}

pub fn run(o: &Options) -> Result {
    let include = headers::include_dir("13.0")?;
    let work = std::env::var_os("LIBCUDA_SYS_BENCH_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| std::env::temp_dir().join("libcuda-sys-bench-units"));
    std::fs::create_dir_all(&work).map_err(|e| format!("{}: {e}", work.display()))?;
    let src = work.join("src");
    eprintln!(
        "bench-build: snapshot of the working tree -> {}",
        src.display()
    );
    snapshot(&src)?;
    let scratch = bench_build::project(&work, "cudarc", &work)?;
    eprintln!("bench-build: fetching dependencies (not timed)");
    bench_build::plain(bench_build::cmd(
        &src,
        "generate",
        &include,
        &["fetch", "--locked"],
    ))?;
    bench_build::plain(bench_build::cmd(
        &scratch,
        "cudarc",
        &include,
        &["generate-lockfile"],
    ))?;
    bench_build::plain(bench_build::cmd(
        &scratch,
        "cudarc",
        &include,
        &["fetch", "--locked"],
    ))?;
    let commit = crate::machine::commit();
    // The machine as the measurement starts (its load, the date).
    let machine = machine();
    let result = if o.variants {
        variants(o, &work, &src, &include, machine, commit)?
    } else {
        build(o, &work, &src, &scratch, &include, machine, commit)?
    };
    let text = serde_json::to_string_pretty(&result).unwrap_or_default() + "\n";
    if !o.write {
        println!("{text}");
        return Ok(());
    }
    let name = if o.variants {
        "build-variants.json"
    } else {
        "build.json"
    };
    let path = crate::root().join("benches/results").join(name);
    std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
    eprintln!("bench-build: wrote benches/results/{name}");
    bench_build::render_into_benchmarks_md()
}

fn build(
    o: &Options,
    work: &Path,
    src: &Path,
    scratch: &Path,
    include: &Path,
    mut machine: Value,
    commit: String,
) -> Result<Value> {
    let ours_deps = dependencies(src, &[])?;
    let ours_dynamic_deps = dependencies(src, &["--features", "dynamic-loading"])?;
    let cudarc_deps = dependencies(scratch, &[])?;
    let ours = |args: &[&str], target: &Path| -> Result<Timed> {
        let mut all = vec!["build", "--locked", "-p", "libcuda-sys"];
        all.extend_from_slice(args);
        let mut cmd = bench_build::cmd(src, "generate", include, &all);
        cmd.env("CARGO_TARGET_DIR", target);
        timed(cmd)
    };
    let theirs = |args: &[&str], target: &Path| -> Result<Timed> {
        let mut all = vec!["build", "--locked"];
        all.extend_from_slice(args);
        let mut cmd = bench_build::cmd(scratch, "cudarc", include, &all);
        cmd.env("CARGO_TARGET_DIR", target);
        timed(cmd)
    };
    let mut rounds = Vec::new();
    let (mut bindgen, mut cudarc) = (String::from("?"), String::from("?"));
    for r in 1..=o.rounds {
        eprintln!("bench-build: round {r}/{}", o.rounds);
        let (t_ours, t_cudarc) = (
            work.join(format!("t-ours-{r}")),
            work.join(format!("t-cudarc-{r}")),
        );
        clean(&t_ours);
        clean(&t_cudarc);
        let mut rnd = serde_json::Map::new();

        let b = ours(&[], &t_ours)?;
        bindgen = version_in(&b, "bindgen");
        rnd.insert("ours_debug".into(), summarize(&b, &ours_deps, &OURS));
        rnd.insert("script_linked".into(), script_steps(&b)?);
        eprintln!("  ours debug clean {:.1} s", b.wall);
        let b = theirs(&[], &t_cudarc)?;
        cudarc = version_in(&b, "cudarc");
        rnd.insert("cudarc_debug".into(), summarize(&b, &cudarc_deps, &CUDARC));
        eprintln!("  cudarc debug clean {:.1} s", b.wall);

        // dynamic-loading on top of the debug build: script run and lib again.
        let b = ours(&["--features", "dynamic-loading"], &t_ours)?;
        rnd.insert(
            "ours_debug_dynamic".into(),
            summarize(&b, &ours_dynamic_deps, &OURS),
        );
        rnd.insert("script_dynamic".into(), script_steps(&b)?);

        // The workspace once (dependent/), then nothing changed, then dependent touched.
        rebuild(src, include, &t_ours)?;
        let noop = rebuild(src, include, &t_ours)?;
        let lib = src.join("dependent/src/lib.rs");
        std::fs::File::options()
            .append(true)
            .open(&lib)
            .and_then(|f| f.set_modified(SystemTime::now()))
            .map_err(|e| format!("touching {}: {e}", lib.display()))?;
        let touched = rebuild(src, include, &t_ours)?;
        eprintln!(
            "  no-op {} s, dependent touched {} s",
            noop["wall"], touched["wall"]
        );
        rnd.insert("noop".into(), noop);
        rnd.insert("touch_dependent".into(), touched);

        clean(&t_ours);
        clean(&t_cudarc);
        if !o.debug_only {
            let b = ours(&["--release"], &t_ours)?;
            rnd.insert("ours_release".into(), summarize(&b, &ours_deps, &OURS));
            eprintln!("  ours release clean {:.1} s", b.wall);
            let b = theirs(&["--release"], &t_cudarc)?;
            rnd.insert(
                "cudarc_release".into(),
                summarize(&b, &cudarc_deps, &CUDARC),
            );
            eprintln!("  cudarc release clean {:.1} s", b.wall);
            clean(&t_ours);
            clean(&t_cudarc);
        }
        rounds.push(Value::Object(rnd));
    }
    machine["load_at_end"] = json!(load());
    let root = crate::root();
    Ok(json!({
        "kind": "build",
        "machine": machine,
        "config": {
            "runs": o.rounds,
            "timings": "messages",
            "headers": "13.0",
            "include_dir": include.strip_prefix(&root).unwrap_or(include).display().to_string(),
            "commit": commit,
            "cudarc": cudarc,
            "cudarc_features": CUDARC_FEATURES,
            "bindgen": bindgen,
        },
        "rounds": rounds,
    }))
}

fn variants(
    o: &Options,
    work: &Path,
    src: &Path,
    include: &Path,
    machine: Value,
    commit: String,
) -> Result<Value> {
    let patches = crate::root().join("benches/variants");
    let mut trees = Vec::new();
    for (name, _, patch, env) in VARIANTS {
        let tree = work.join(format!("variant-{name}"));
        clean(&tree);
        let status = Command::new("cp")
            .arg("-a")
            .arg(src)
            .arg(&tree)
            .status()
            .map_err(|e| format!("cp: {e}"))?;
        if !status.success() {
            return Err(format!(
                "copying {} to {} failed",
                src.display(),
                tree.display()
            ));
        }
        if let Some(p) = patch {
            let out = Command::new("git")
                .current_dir(&tree)
                .arg("apply")
                .arg(patches.join(p))
                .output()
                .map_err(|e| format!("git apply: {e}"))?;
            if !out.status.success() {
                // A candidate left out would vanish from the kept results unnoticed.
                return Err(format!(
                    "bench-build: {p} does not apply to this tree; update or remove it: {}",
                    String::from_utf8_lossy(&out.stderr).trim()
                ));
            }
        }
        let deps = dependencies(&tree, &[])?;
        trees.push((name, tree, env, deps));
    }
    let mut rounds = Vec::new();
    for r in 1..=o.rounds {
        eprintln!("bench-build: round {r}/{}", o.rounds);
        let mut rnd = serde_json::Map::new();
        for (name, tree, env, deps) in &trees {
            let target = work.join(format!("t-variant-{name}"));
            clean(&target);
            // --offline, not --locked: a patch may drop a dependency from Cargo.lock.
            let mut cmd = bench_build::cmd(
                tree,
                "generate",
                include,
                &["build", "--offline", "-p", "libcuda-sys"],
            );
            cmd.env("CARGO_TARGET_DIR", &target);
            if let Some((k, v)) = env {
                cmd.env(k, v);
            }
            let b = timed(cmd)?;
            eprintln!("  {name}: {:.1} s", b.wall);
            rnd.insert(name.to_string(), summarize(&b, deps, &OURS));
            clean(&target);
        }
        rounds.push(Value::Object(rnd));
    }
    let variants: Vec<Value> = VARIANTS
        .iter()
        .map(|(n, w, p, _)| json!({"name": n, "what": w, "patch": p.map(|p| format!("benches/variants/{p}"))}))
        .collect();
    Ok(json!({
        "kind": "build-variants",
        "machine": machine,
        "config": {
            "runs": o.rounds,
            "timings": "messages",
            "headers": "13.0",
            "commit": commit,
            "command": "cargo build -p libcuda-sys --message-format=json (debug, clean)",
        },
        "variants": variants,
        "rounds": rounds,
    }))
}
