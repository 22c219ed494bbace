//! `cargo xtask bench-report [--calls FILE [--name NAME]] [--check]`:
//! BENCHMARKS.md from the measurements in `benches/results/` (the file is
//! generated, never edited by hand).
//!
//! Inputs: `build-modes.json` (`cargo xtask bench-build --write`), `build.json`
//! (`--units`), `build-variants.json` (`--variants`), `calls-<name>.txt` (the
//! `run.sh` of `cargo xtask bench-calls-bundle`). `--calls` first keeps a
//! results file as `calls-<name>.txt`; `--check` fails where BENCHMARKS.md is
//! not what the results say.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::stats::{self, median, median_of};
use crate::{bench_build, Result};

const USAGE: &str = "usage: cargo xtask bench-report [--calls FILE [--name NAME]] [--check]";

pub fn run(args: &[String]) -> Result {
    let (mut calls, mut name, mut check) = (None, None, false);
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--calls" => calls = Some(PathBuf::from(it.next().ok_or(USAGE)?)),
            "--name" => name = Some(it.next().ok_or(USAGE)?.clone()),
            "--check" => check = true,
            _ => return Err(USAGE.into()),
        }
    }
    let root = crate::root();
    if let Some(src) = calls {
        keep_calls(&root, &src, name.as_deref())?;
    } else if name.is_some() {
        return Err(format!("--name names the file of --calls\n{USAGE}"));
    }
    let text = render(&root)?;
    let out = root.join("BENCHMARKS.md");
    if check {
        let current = std::fs::read_to_string(&out).unwrap_or_default();
        if current != text {
            return Err(
                "BENCHMARKS.md is not what benches/results/ says: run `cargo xtask bench-report` \
                 and commit the result"
                    .into(),
            );
        }
        eprintln!("bench-report: BENCHMARKS.md is up to date");
        return Ok(());
    }
    write(&out, &text)?;
    eprintln!("bench-report: wrote BENCHMARKS.md");
    Ok(())
}

fn read(path: &Path) -> Result<String> {
    std::fs::read_to_string(path).map_err(|e| format!("reading {}: {e}", path.display()))
}

fn write(path: &Path, text: &str) -> Result {
    std::fs::write(path, text).map_err(|e| format!("writing {}: {e}", path.display()))
}

pub fn read_json(path: &Path) -> Result<Value> {
    serde_json::from_str(&read(path)?)
        .map_err(|e| format!("{} is not the JSON a benchmark writes: {e}", path.display()))
}

/// Copies a `run.sh` results file to `benches/results/calls-<name>.txt`.
fn keep_calls(root: &Path, src: &Path, name: Option<&str>) -> Result {
    let calls = Calls::parse(&read(src)?);
    if calls.results.is_empty() {
        eprintln!(
            "bench-report: {} has no measurement (run.sh found no driver?); keeping it anyway",
            src.display()
        );
    }
    let name = match name {
        Some(n) => n.to_string(),
        None => slug(calls.info("gpu").unwrap_or("gpu")),
    };
    let dir = root.join("benches/results");
    std::fs::create_dir_all(&dir).map_err(|e| format!("creating {}: {e}", dir.display()))?;
    let dest = dir.join(format!("calls-{name}.txt"));
    let same = matches!((src.canonicalize(), dest.canonicalize()), (Ok(a), Ok(b)) if a == b);
    if !same {
        std::fs::copy(src, &dest)
            .map_err(|e| format!("copying {} to {}: {e}", src.display(), dest.display()))?;
    }
    eprintln!("bench-report: kept benches/results/calls-{name}.txt");
    Ok(())
}

/// `NVIDIA H200, 580.159.04` -> `nvidia-h200`.
fn slug(gpu: &str) -> String {
    let model = gpu.split(',').next().unwrap_or_default().to_lowercase();
    let mut out = String::new();
    for c in model.chars() {
        if c.is_ascii_lowercase() || c.is_ascii_digit() {
            out.push(c);
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_matches('-').to_string()
}

// --- Formatting -------------------------------------------------------------

fn secs(v: Option<f64>, digits: usize) -> String {
    v.map_or("–".into(), |v| format!("{v:.digits$} s"))
}

fn s(v: Option<f64>) -> String {
    secs(v, 2)
}

fn x(v: Option<f64>) -> String {
    v.map_or("–".into(), |v| format!("{v:.2}x"))
}

fn ratio(a: Option<f64>, b: Option<f64>) -> Option<f64> {
    match (a, b) {
        (Some(a), Some(b)) if b != 0.0 => Some(a / b),
        _ => None,
    }
}

/// The number at `path` in `v`.
fn num(v: &Value, path: &[&str]) -> Option<f64> {
    path.iter().try_fold(v, |v, p| v.get(p))?.as_f64()
}

fn text<'a>(v: &'a Value, path: &[&str]) -> &'a str {
    path.iter()
        .try_fold(v, |v, p| v.get(p))
        .and_then(Value::as_str)
        .unwrap_or("?")
}

fn strings<'a>(v: &'a Value, path: &[&str]) -> Vec<&'a str> {
    path.iter()
        .try_fold(v, |v, p| v.get(p))
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

fn yes(ok: bool) -> &'static str {
    if ok {
        "**yes**"
    } else {
        "**no**"
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

// --- Build ------------------------------------------------------------------

/// How unit times were taken: Cargo's `--timings` report in the measurements
/// kept from before, Cargo's JSON messages since.
fn unit_source(config: &Value) -> (&'static str, &'static str, &'static str) {
    if config["timings"] == "messages" {
        (
            "cargo xtask bench-build --units",
            "--rounds",
            "unit times come from Cargo's JSON messages, stamped as they arrive (a unit ends at its \
             message and starts at the last message of what it waits for)",
        )
    } else {
        (
            "scripts/bench-build",
            "--runs",
            "unit times come from Cargo's `--timings` report",
        )
    }
}

fn build_section(b: &Value) -> Vec<String> {
    let (m, c) = (&b["machine"], &b["config"]);
    let rounds: &[Value] = b["rounds"].as_array().map_or(&[], Vec::as_slice);
    let n = rounds.len();
    let (command, runs, source) = unit_source(c);
    let col = |path: &[&str]| median_of(rounds.iter().map(|r| num(r, path)));
    let paired = |f: &dyn Fn(&Value) -> Option<f64>| median_of(rounds.iter().map(f));
    let mut out = vec![
        format!(
            "Measured {} by `{command} {runs} {}`: {n} round{}, each building both crates back to \
             back, so ratios are taken within a round; every figure is the median over rounds.\n",
            text(m, &["date"]),
            c["runs"],
            plural(n)
        ),
        format!(
            "- Machine: {} cores, {}, {}; load average {} at start, {} at the end (other builds \
             may share the machine: compare ratios, not seconds).",
            m["nproc"],
            text(m, &["cpu"]),
            text(m, &["os"]),
            text(m, &["load_at_start"]),
            text(m, &["load_at_end"])
        ),
        format!(
            "- Toolchain: {}; {}; C compiler: {}.",
            text(m, &["rustc"]),
            text(m, &["cargo"]),
            text(m, &["cc"])
        ),
        format!(
            "- libcuda-sys at {}, CUDA {} headers through `LIBCUDA_SYS_INCLUDE_DIR` (`{}`), bindgen \
             {}; no libcuda on the machine, so the linked build also compiles the stand-in library.",
            text(c, &["commit"]),
            text(c, &["headers"]),
            text(c, &["include_dir"]),
            text(c, &["bindgen"])
        ),
        format!(
            "- cudarc {} from crates.io, `default-features = false`, features {} (the driver API, \
             CUDA 13.0 bindings, dynamic loading), in a scratch crate that depends on nothing else.",
            text(c, &["cudarc"]),
            strings(c, &["cudarc_features"])
                .iter()
                .map(|f| format!("`{f}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        format!(
            "- Each clean build: `cargo build -p libcuda-sys{}` (`--release` for release) in a fresh \
             target directory; {source}.\n",
            if c["timings"] == "messages" {
                " --message-format=json"
            } else {
                " --timings"
            }
        ),
        "### Clean build, debug and release\n".into(),
        "| | libcuda-sys | cudarc | libcuda-sys / cudarc |".into(),
        "|---|---:|---:|---:|".into(),
    ];
    // The build script's run and the bindings' compile: libcuda-sys's own work.
    let own = |r: &Value, o: &str| {
        num(r, &[o, "script_run", "duration"]).unwrap_or(0.0)
            + num(r, &[o, "lib", "duration"]).unwrap_or(0.0)
    };
    for prof in ["debug", "release"] {
        let (o, t) = (format!("ours_{prof}"), format!("cudarc_{prof}"));
        let (o, t) = (o.as_str(), t.as_str());
        let wall_ratio = paired(&|r: &Value| ratio(num(r, &[o, "wall"]), num(r, &[t, "wall"])));
        out.push(format!(
            "| **{prof}: whole clean build (wall)** | {} | {} | {} |",
            s(col(&[o, "wall"])),
            s(col(&[t, "wall"])),
            x(wall_ratio)
        ));
        out.push(format!(
            "| {prof}: bindgen compiled (floor: its dependency chain, ends at) | {} | – | |",
            s(col(&[o, "bindgen", "end"]))
        ));
        for (label, unit) in [
            ("build script compile", "script_compile"),
            ("build script run", "script_run"),
            ("crate compile (the generated bindings / cudarc)", "lib"),
        ] {
            let (ours, theirs) = (col(&[o, unit, "duration"]), col(&[t, unit, "duration"]));
            out.push(format!(
                "| {prof}: {label} | {} | {} | {} |",
                s(ours),
                s(theirs),
                x(ratio(ours, theirs))
            ));
        }
        let both = median_of(rounds.iter().map(|r| Some(own(r, o))));
        let cr = paired(&|r: &Value| ratio(Some(own(r, o)), num(r, &[t, "lib", "duration"])));
        out.push(format!(
            "| {prof}: build script run + bindings compile, vs cudarc's crate compile | {} | {} | {} |",
            s(both),
            s(col(&[t, "lib", "duration"])),
            x(cr)
        ));
    }
    out.push(String::new());

    // Targets.
    let own_ratio = |prof: &str| {
        let (o, t) = (format!("ours_{prof}"), format!("cudarc_{prof}"));
        paired(&|r: &Value| ratio(Some(own(r, &o)), num(r, &[&t, "lib", "duration"])))
    };
    let whole = |prof: &str, what: &[&str]| {
        let (o, t) = (format!("ours_{prof}"), format!("cudarc_{prof}"));
        let mut path = vec![o.as_str()];
        path.extend_from_slice(what);
        paired(&|r: &Value| ratio(num(r, &path), num(r, &[&t, "wall"])))
    };
    let (dbg, rel) = (own_ratio("debug"), own_ratio("release"));
    let (whole_d, whole_r) = (whole("debug", &["wall"]), whole("release", &["wall"]));
    let beyond_d = median_of(rounds.iter().map(|r| {
        Some(num(r, &["ours_debug", "wall"])? - num(r, &["ours_debug", "bindgen", "end"])?)
    }));
    let noop = col(&["noop", "wall"]);
    let noop_scripts = rounds
        .iter()
        .map(|r| strings(r, &["noop", "build_scripts_run"]).len())
        .max()
        .unwrap_or(0);
    let noop_fresh = rounds
        .iter()
        .all(|r| r["noop"]["fresh_libcuda_sys"] == true);
    let touch = col(&["touch_dependent", "wall"]);
    let union = |what: &str| {
        let mut all: Vec<&str> = rounds
            .iter()
            .flat_map(|r| strings(r, &["touch_dependent", what]))
            .collect();
        all.sort();
        all.dedup();
        all
    };
    let touched = union("build_scripts_run");
    let reran = touched.iter().any(|s| s.starts_with("libcuda-sys"));
    let compiled = union("compiled");
    let or = |v: &[&str], none: &'static str| {
        if v.is_empty() {
            none.to_string()
        } else {
            v.join(", ")
        }
    };
    out.push("### Targets\n".into());
    out.push("| target | measured | met |".into());
    out.push("|---|---|---|".into());
    out.push(format!(
        "| build script run + bindings compile no slower than cudarc's crate compile | debug {}, \
         release {} of cudarc's | {} |",
        x(dbg),
        x(rel),
        yes(dbg.unwrap_or(9.0) <= 1.0 && rel.unwrap_or(9.0) <= 1.0)
    ));
    out.push(format!(
        "| whole clean build within 3x of cudarc's | debug {}, release {} | {} |",
        x(whole_d),
        x(whole_r),
        yes(whole_d.unwrap_or(9.0) <= 3.0 && whole_r.unwrap_or(9.0) <= 3.0)
    ));
    let (floor_d, floor_r) = (
        whole("debug", &["bindgen", "end"]),
        whole("release", &["bindgen", "end"]),
    );
    out.push(format!(
        "| floor: bindgen's own compile (and its dependencies) | bindgen ready at {} in debug, {} \
         cudarc's whole build ({} in release); libcuda-sys's own work after it (debug): {} | \
         (reference) |",
        s(col(&["ours_debug", "bindgen", "end"])),
        x(floor_d),
        x(floor_r),
        s(beyond_d)
    ));
    out.push(format!(
        "| no-op rebuild (`cargo build --workspace{}`) < 0.5 s, no build script run | {}, {noop_scripts} \
         build scripts run, libcuda-sys {} | {} |",
        if c["timings"] == "messages" {
            " --message-format=json"
        } else {
            " -v"
        },
        s(noop),
        if noop_fresh { "Fresh" } else { "NOT fresh" },
        yes(noop.is_some_and(|n| n < 0.5) && noop_scripts == 0 && noop_fresh)
    ));
    out.push(format!(
        "| touching `dependent/src/lib.rs` does not re-run libcuda-sys's build script | {}; build \
         scripts run: {}; compiled: {} | {} |",
        s(touch),
        or(&touched, "none"),
        or(&compiled, "nothing"),
        yes(!reran)
    ));
    out.push(String::new());

    // Steps.
    let mut sources: Vec<&str> = rounds
        .iter()
        .map(|r| text(r, &["script_linked", "source"]))
        .collect();
    sources.sort();
    sources.dedup();
    out.push("### The build script's steps\n".into());
    out.push(if c["timings"] == "messages" {
        format!(
            "The debug build script as Cargo ran it in the clean debug build (linked) and the \
             `dynamic-loading` build after it, once per round; a step's time is what the script \
             recorded for it (`build_steps.json` in its `OUT_DIR`; source: {}).\n",
            sources.join(", ")
        )
    } else {
        format!(
            "The debug build script Cargo built (build scripts are unoptimized in release too), run \
             alone with the environment Cargo gave it and a fresh `OUT_DIR`, once per round and \
             mode; a step ends when its first output appears in `OUT_DIR` or its first log line is \
             printed (source: {}).\n",
            sources.join(", ")
        )
    });
    out.push("| step | linked (default) | dynamic-loading |".into());
    out.push("|---|---:|---:|".into());
    let steps = |mode: &str| {
        let mut names: Vec<String> = Vec::new();
        let mut values: Vec<Vec<f64>> = Vec::new();
        for r in rounds {
            for step in r[mode]["steps"].as_array().into_iter().flatten() {
                let name = step[0].as_str().unwrap_or("?").to_string();
                let i = match names.iter().position(|n| *n == name) {
                    Some(i) => i,
                    None => {
                        names.push(name);
                        values.push(Vec::new());
                        names.len() - 1
                    }
                };
                values[i].extend(step[1].as_f64());
            }
        }
        let medians: Vec<Option<f64>> = values.iter().map(|v| median(v)).collect();
        (names, medians)
    };
    let (ln, lv) = steps("script_linked");
    let (dn, dv) = steps("script_dynamic");
    let of = |names: &[String], values: &[Option<f64>], name: &str| {
        names.iter().position(|n| n == name).and_then(|i| values[i])
    };
    for name in ln.iter().chain(dn.iter().filter(|n| !ln.contains(n))) {
        out.push(format!(
            "| {name} | {} | {} |",
            secs(of(&ln, &lv, name), 3),
            secs(of(&dn, &dv, name), 3)
        ));
    }
    out.push(format!(
        "| **total** | {} | {} |",
        secs(col(&["script_linked", "total"]), 3),
        secs(col(&["script_dynamic", "total"]), 3)
    ));
    out.push(String::new());
    let mut recompiled: Vec<&str> = rounds
        .iter()
        .flat_map(|r| strings(r, &["ours_debug_dynamic", "compiled"]))
        .collect();
    recompiled.sort();
    recompiled.dedup();
    out.push(format!(
        "`--features dynamic-loading` added to the debug build's target directory: build script run \
         {}, bindings compile {} (linked: {}); the switch took {} in all{}.",
        s(col(&["ours_debug_dynamic", "script_run", "duration"])),
        s(col(&["ours_debug_dynamic", "lib", "duration"])),
        s(col(&["ours_debug", "lib", "duration"])),
        s(col(&["ours_debug_dynamic", "wall"])),
        if recompiled.is_empty() {
            String::new()
        } else {
            format!(", recompiling {}", recompiled.join(", "))
        }
    ));
    if recompiled.contains(&"bindgen") {
        out.push(
            "bindgen and its dependents are recompiled because `libloading` (the feature's \
             dependency) and its `cfg-if` are also build dependencies (through clang-sys): a crate \
             that is both a build dependency and a normal one is compiled once, with the normal \
             profile's debuginfo, so the build-dependency graph changes under bindgen (a different \
             libloading version would still share `cfg-if`)."
                .into(),
        );
    }
    out.push(String::new());
    out
}

fn variants_section(v: &Value) -> Vec<String> {
    let (m, c) = (&v["machine"], &v["config"]);
    let rounds: &[Value] = v["rounds"].as_array().map_or(&[], Vec::as_slice);
    let (command, runs, _) = unit_source(c);
    let mut out = vec![
        format!(
            "Measured {} by `{command} --variants {runs} {}` on {} cores ({}), {}, libcuda-sys at \
             {}: each candidate is a patch applied to a copy of the tree (`git apply \
             benches/variants/<name>.patch` applies it here), clean debug `cargo build -p \
             libcuda-sys {}`, all candidates built back to back in each round; medians over rounds, \
             differences to the baseline of the same round.\n",
            text(m, &["date"]),
            c["runs"],
            m["nproc"],
            text(m, &["cpu"]),
            text(m, &["rustc"]),
            text(c, &["commit"]),
            if c["timings"] == "messages" {
                "--message-format=json"
            } else {
                "--timings"
            }
        ),
        "| candidate | change | whole build | bindgen compiled at | build script compile | build \
         script run | bindings compile |"
            .into(),
        "|---|---|---:|---:|---:|---:|---:|".into(),
    ];
    let cell = |name: &str, path: &[&str]| {
        let mut full = vec![name];
        full.extend_from_slice(path);
        let mut base = vec!["baseline"];
        base.extend_from_slice(path);
        let vals: Vec<Option<f64>> = rounds.iter().map(|r| num(r, &full)).collect();
        let Some(value) = median_of(vals.iter().copied()) else {
            return "–".to_string();
        };
        if name == "baseline" {
            return s(Some(value));
        }
        let delta = median_of(
            rounds
                .iter()
                .zip(&vals)
                .map(|(r, v)| Some((*v)? - num(r, &base)?)),
        );
        match delta {
            Some(d) => format!(
                "{} ({}{:.2})",
                s(Some(value)),
                if d >= 0.0 { '+' } else { '−' },
                d.abs()
            ),
            None => s(Some(value)),
        }
    };
    for var in v["variants"].as_array().into_iter().flatten() {
        let name = text(var, &["name"]);
        if !rounds.iter().any(|r| r.get(name).is_some()) {
            continue;
        }
        let mut what = text(var, &["what"]).to_string();
        if let Some(patch) = var["patch"].as_str() {
            what.push_str(&format!(" ([patch]({patch}))"));
        }
        out.push(format!(
            "| {name} | {what} | {} | {} | {} | {} | {} |",
            cell(name, &["wall"]),
            cell(name, &["bindgen", "end"]),
            cell(name, &["script_compile", "duration"]),
            cell(name, &["script_run", "duration"]),
            cell(name, &["lib", "duration"])
        ));
    }
    out.push(String::new());
    out
}

// --- Calls ------------------------------------------------------------------

/// Each program's runs of one call, in round order: `(program, ns per call)`.
type Runs = Vec<(String, Vec<f64>)>;

/// A table cell from a program's name, its runs and C's.
type Cell<'a> = &'a dyn Fn(&str, &[f64], &[f64]) -> String;

/// A `run.sh` results file: `info <key> <value>`, `result <round> <variant>
/// <bench> <ns>`, `status ...` and `detail <round> <variant> <line>` lines.
struct Calls {
    info: Vec<(String, String)>,
    /// Per call, per program, the runs in round order; both in order of appearance.
    results: Vec<(String, Runs)>,
    statuses: Vec<String>,
}

impl Calls {
    fn parse(text: &str) -> Calls {
        let mut calls = Calls {
            info: Vec::new(),
            results: Vec::new(),
            statuses: Vec::new(),
        };
        for line in text.lines() {
            let (kind, rest) = line.split_once(' ').unwrap_or((line, ""));
            match kind {
                "info" if line.contains(' ') => {
                    let (k, v) = rest.split_once(' ').unwrap_or((rest, ""));
                    calls.set(k, v);
                }
                "result" => {
                    let f: Vec<&str> = line.split_whitespace().collect();
                    let (Some(variant), Some(bench), Some(ns)) = (
                        f.get(2),
                        f.get(3),
                        f.get(4).and_then(|n| n.parse::<f64>().ok()),
                    ) else {
                        continue;
                    };
                    calls.add(bench, variant, ns);
                }
                "status" => calls.statuses.push(line.to_string()),
                // `detail <round> <variant> device <n>: <name>; ...`: the device's name.
                "detail" if calls.info("device").is_none() => {
                    let mut f = rest.splitn(3, ' ');
                    let (_, _, line) = (f.next(), f.next(), f.next().unwrap_or_default());
                    let device = line
                        .strip_prefix("device ")
                        .and_then(|l| l.split_once(": "))
                        .filter(|(n, _)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
                        .and_then(|(_, name)| name.split_once(';'))
                        .map(|(name, _)| name);
                    if let Some(d) = device {
                        calls.set("device", d);
                    }
                }
                _ => {}
            }
        }
        calls
    }

    fn set(&mut self, key: &str, value: &str) {
        match self.info.iter_mut().find(|(k, _)| k == key) {
            Some(kv) => kv.1 = value.to_string(),
            None => self.info.push((key.to_string(), value.to_string())),
        }
    }

    fn info(&self, key: &str) -> Option<&str> {
        self.info
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    fn get(&self, key: &str) -> &str {
        self.info(key).unwrap_or("?")
    }

    fn add(&mut self, bench: &str, variant: &str, ns: f64) {
        let i = match self.results.iter().position(|(b, _)| b == bench) {
            Some(i) => i,
            None => {
                self.results.push((bench.to_string(), Vec::new()));
                self.results.len() - 1
            }
        };
        let per = &mut self.results[i].1;
        match per.iter_mut().find(|(v, _)| v == variant) {
            Some((_, runs)) => runs.push(ns),
            None => per.push((variant.to_string(), vec![ns])),
        }
    }
}

const VARIANTS: [(&str, &str); 5] = [
    ("c", "C (gcc -O2)"),
    ("c-noplt", "C (gcc -O2 -fno-plt)"),
    ("rust-linked", "libcuda-sys linked"),
    ("rust-dynamic", "libcuda-sys dynamic-loading"),
    ("cudarc", "cudarc `driver::sys`"),
];

fn call_label(bench: &str) -> &str {
    match bench {
        "pool_get_attribute" => "`cuMemPoolGetAttribute` (USED_MEM_CURRENT, default pool)",
        "alloc_free_async_256" => {
            "`cuMemAllocFromPoolAsync` + `cuMemFreeAsync`, 256 B, one stream (per pair)"
        }
        "stream_query" => "`cuStreamQuery`, idle stream",
        other => other,
    }
}

fn runs<'a>(per: &'a [(String, Vec<f64>)], variant: &str) -> &'a [f64] {
    per.iter()
        .find(|(v, _)| v == variant)
        .map_or(&[], |(_, r)| r.as_slice())
}

fn calls_section(title: &str, rel: &str, calls: &Calls) -> Vec<String> {
    let mut out = vec![
        format!("### {title}\n"),
        format!(
            "From [`{rel}`]({rel}), written by `run.sh` of `{}` on {}.\n",
            calls
                .info("bundle_tool")
                .unwrap_or("scripts/bench-calls-bundle"),
            calls.get("date")
        ),
        format!(
            "- GPU: {}; driver's CUDA version {}; libcuda: `{}`.",
            calls.get("gpu"),
            calls.get("driver_cuda"),
            calls.get("libcuda")
        ),
        format!("- CPU: {}; host {}.", calls.get("cpu"), calls.get("host")),
        format!(
            "- Binaries built {} with {} (release) at {}, CUDA {} headers; cudarc {}; C: {}.",
            calls.get("bundle_built"),
            calls.get("bundle_rustc"),
            calls.get("bundle_commit"),
            calls.get("bundle_headers"),
            calls.get("bundle_cudarc"),
            calls.get("c_compiler")
        ),
    ];
    // `batch 1000 batches 200 warmup 20 device 0`, the first key implied.
    let batch_line = format!("batch {}", calls.info("batch").unwrap_or_default());
    let words: Vec<&str> = batch_line.split_whitespace().collect();
    let batch = |key: &str| {
        words
            .chunks_exact(2)
            .find(|kv| kv[0] == key)
            .map_or("?", |kv| kv[1])
    };
    out.push(format!(
        "- {} rounds, the programs interleaved in a rotated order each round; each program times {} \
         batches of {} calls after {} warm-up batches on device {}. A figure is the median over \
         rounds of each run's median over batches of a batch's time divided by its calls; in \
         parentheses the lowest and highest run. `c` calls through the PLT (gcc's default), `c \
         -fno-plt` through the GOT, as rustc does on x86-64.\n",
        calls.get("rounds"),
        batch("batches"),
        batch("batch"),
        batch("warmup"),
        batch("device")
    ));
    if calls.results.is_empty() {
        out.push("No measurement in this file (no usable driver where it ran):\n".into());
        out.extend(calls.statuses.iter().take(8).map(|s| format!("    {s}")));
        out.push(String::new());
        return out;
    }
    let present: Vec<(&str, &str)> = VARIANTS
        .iter()
        .copied()
        .filter(|(k, _)| {
            calls
                .results
                .iter()
                .any(|(_, per)| !runs(per, k).is_empty())
        })
        .collect();
    let header = || {
        [
            format!(
                "| call | {} |",
                present
                    .iter()
                    .map(|(_, l)| *l)
                    .collect::<Vec<_>>()
                    .join(" | ")
            ),
            format!("|---|{}", "---:|".repeat(present.len())),
        ]
    };
    let table = |out: &mut Vec<String>, cell: Cell| {
        out.extend(header());
        for (bench, per) in &calls.results {
            let c = runs(per, "c");
            let cells: Vec<String> = present
                .iter()
                .map(|(k, _)| match runs(per, k) {
                    [] => "–".to_string(),
                    vals => cell(k, vals, c),
                })
                .collect();
            out.push(format!("| {} | {} |", call_label(bench), cells.join(" | ")));
        }
        out.push(String::new());
    };
    table(&mut out, &|k, vals, c| {
        let v = median(vals).unwrap_or_default();
        let lo = vals.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = vals.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let r = match median(c) {
            Some(c) if c != 0.0 && k != "c" => format!(", **{:.2}x** C", v / c),
            _ => String::new(),
        };
        format!("{v:.2} ns ({lo:.2}–{hi:.2}){r}")
    });
    // Each run is in a fast or a slow state as a whole (the slow one 30-70%
    // above, set by the host, not by the program: identical C code lands in
    // both), so a median over rounds mixes the two. The fastest run of each
    // program compares the programs in the same state.
    out.push(
        "Fastest run of each program (the minimum over rounds of its median over batches), ratio \
         to C's fastest. Runs fall into a fast and a slow state as a whole, for identical code too \
         (see the ranges above), so this compares like with like; the difference between `c` and \
         `c -fno-plt`, which differ only in how the call is made, shows the resolution.\n"
            .into(),
    );
    let min = |v: &[f64]| v.iter().copied().fold(f64::INFINITY, f64::min);
    table(&mut out, &|k, vals, c| {
        let v = min(vals);
        let r = match c {
            [] => String::new(),
            c if min(c) == 0.0 || k == "c" => String::new(),
            c => format!(", **{:.3}x** C", v / min(c)),
        };
        format!("{v:.2} ns{r}")
    });
    out.push(
        "Within the fast state: each program's runs for a call are split into a fast and a slow \
         group (Otsu's threshold on their logarithms; one group where the two medians differ by \
         less than 10%), per program, since programs differ by their code too; a figure is the \
         median over a program's fast runs (how many of its runs that is in parentheses), the \
         ratio is to C's, and the verdict (faster below 0.97x, slower above 1.03x, else same) is \
         checked on the odd and the even rounds apart: **stable** where both halves give the \
         verdict of all rounds. This is the statistic the verdicts rest on: a median over all \
         rounds ranks programs by how often they landed in the slow state, the fastest run by one \
         lucky run.\n"
            .into(),
    );
    table(&mut out, &|k, vals, c| {
        let Some(f) = stats::against_c(vals, c) else {
            return "–".to_string();
        };
        let mut cell = format!("{:.2} ns ({}/{})", f.median, f.fast, vals.len());
        if k != "c" {
            cell.push_str(&format!(
                ", **{:.3}x** C, {}, {}",
                f.ratio,
                f.verdict,
                if f.stable { "**stable**" } else { "not stable" }
            ));
        }
        cell
    });
    out
}

// --- The whole file ---------------------------------------------------------

const HEAD: &str = "# Benchmarks

<!-- Generated by `cargo xtask bench-report` from benches/results/; do not edit by hand. -->

What libcuda-sys costs to build and to call, side by side with C and with [cudarc](https://crates.io/crates/cudarc). Every figure below is generated from the raw measurements in [`benches/results/`](benches/results/).

Reproduce:

```sh
cargo xtask bench-build --write                  # the three configurations beside cudarc, as new users build them
cargo xtask bench-build --units --write          # build costs unit by unit: benches/results/build.json, then this file
cargo xtask bench-build --units --variants --write   # candidate optimizations: benches/results/build-variants.json
cargo xtask bench-calls-bundle                   # call overhead: binaries + C source + run.sh in .bench-bundle/
bash .bench-bundle/run.sh                        # on a GPU machine (no Rust needed): results.txt
cargo xtask bench-report --calls results.txt --name h200   # back here: keep it, regenerate this file
cargo xtask bench-calls-bundle --self-test       # the same against a no-op libcuda, on any machine
```
";

pub fn render(root: &Path) -> Result<String> {
    let results = root.join("benches/results");
    let mut out: Vec<String> = vec![HEAD.into(), "## Build".into(), String::new()];
    let modes = results.join("build-modes.json");
    if modes.exists() {
        out.push(bench_build::section(&read_json(&modes)?));
        out.push(String::new());
    }
    let build = results.join("build.json");
    if build.exists() {
        out.extend(build_section(&read_json(&build)?));
    } else {
        out.push("No measurement yet: run `cargo xtask bench-build --units --write`.\n".into());
    }
    let variants = results.join("build-variants.json");
    if variants.exists() {
        out.push("### Candidate optimizations\n".into());
        out.extend(variants_section(&read_json(&variants)?));
    }
    out.push("## Call overhead".into());
    out.push(String::new());
    out.push(
        "Per-call cost of three memory-pool and stream calls, warm (after the first call, so \
         `dynamic-loading`'s lazy resolution is done): C calling libcuda directly, libcuda-sys \
         linked (`examples/call_overhead.rs`), libcuda-sys with `dynamic-loading` (an atomic load \
         and an indirect call), and cudarc's raw `driver::sys` (`benches/cudarc-calls`, dynamic \
         loading through a `OnceLock` per function). Same loops, same batches, same process \
         layout; the C source is `benches/call_overhead.c`.\n"
            .into(),
    );
    let mut files: Vec<String> = std::fs::read_dir(&results)
        .map_err(|e| format!("reading {}: {e}", results.display()))?
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.starts_with("calls-") && n.ends_with(".txt"))
        .collect();
    files.sort();
    if files.is_empty() {
        out.push(
            "No results yet: `cargo xtask bench-calls-bundle`, then `bash .bench-bundle/run.sh` \
             on a GPU machine.\n"
                .into(),
        );
    }
    for file in files {
        let name = &file["calls-".len()..file.len() - ".txt".len()];
        let calls = Calls::parse(&read(&results.join(&file))?);
        let device = calls.info("device").filter(|d| !d.is_empty());
        let title = if device.is_some_and(|d| d.contains("no-op")) {
            format!(
                "No-op stand-in libcuda on the build machine ({name}): the bindings' own call \
                 path, no driver work"
            )
        } else {
            format!("{} ({name})", device.or(calls.info("gpu")).unwrap_or(name))
        };
        out.extend(calls_section(
            &title,
            &format!("benches/results/{file}"),
            &calls,
        ));
    }
    Ok(out.join("\n").trim_end().to_string() + "\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gpu_names_become_file_names() {
        assert_eq!(slug("NVIDIA H200, 580.159.04"), "nvidia-h200");
        assert_eq!(slug("unknown (no nvidia-smi)"), "unknown-no-nvidia-smi");
    }

    #[test]
    fn results_file_is_read_in_order() {
        let calls = Calls::parse(
            "# comment\ninfo gpu NVIDIA H200, 580\ninfo rounds 2\nstatus 1 c 0 \n\
             result 1 c stream_query 10.5\nresult 1 cudarc stream_query 11\n\
             detail 1 c device 0: NVIDIA H200; driver CUDA 13.0\nresult 2 c stream_query 9.5\n",
        );
        assert_eq!(calls.info("gpu"), Some("NVIDIA H200, 580"));
        assert_eq!(calls.info("device"), Some("NVIDIA H200"));
        assert_eq!(calls.results.len(), 1);
        assert_eq!(runs(&calls.results[0].1, "c"), &[10.5, 9.5]);
        assert_eq!(calls.statuses.len(), 1);
    }
}
