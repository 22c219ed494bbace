//! The two benchmarks, each a table in BENCHMARKS.md (between its markers),
//! made from raw measurements kept in `benches/results/`.
//!
//! `cargo xtask bench-build [--rounds N] [--baseline REV] [--write]`: what a
//! user pays to build, as a new user builds: each configuration is a fresh
//! project outside the workspace that resolves its own lockfile and depends
//! on the packaged crate (`cargo package`, unpacked) or on cudarc. Rounds
//! interleave the configurations (in a rotated order), each built from clean;
//! a figure is the median over rounds with the range beside it, a ratio the
//! median of the rounds' own ratios. "Ours" is the part of the build after
//! bindgen's last piece is compiled: libcuda-sys's build script, run, and the
//! bindings compiled. A second table gives the critical path of our builds,
//! unit by unit (the build logic's compile, the build script's compile and
//! run, the crate's compile), from each build's `--timings` report. `--baseline REV` adds the default build and the
//! `default-features = false` one of another commit, for before and after
//! (the latter shows what compiling the crate itself costs).
//!
//! `cargo xtask bench-calls FILE [--write]`: the table of a call benchmark run
//! (`cargo xtask bench-calls-bundle`, then its `run.sh` on a GPU machine).

use std::path::Path;
use std::process::Command;

use cargo_metadata::Message;
use serde_json::{json, Value};

use crate::{cargo, headers, Result};

/// `(name, dependency line, environment)`; `{path}` is the packaged crate,
/// `{floor}` benches/bindgen-floor. cudarc first and the floor second: the
/// ratios are to them.
const CONFIGS: [(&str, &str, &str); 6] = [
    (
        "cudarc (pregenerated bindings, `driver`, `cuda-13000`, `dynamic-loading`)",
        "cudarc = { version = \"=0.19.10\", default-features = false, features = [\"std\", \"driver\", \"cuda-13000\", \"dynamic-loading\"] }",
        "",
    ),
    (
        "the floor: bindgen 0.73 over CUDA 13.0's cuda.h in a build script, newtype enums, libcuda linked (benches/bindgen-floor)",
        "bindgen-floor = { path = {floor} }",
        "generate",
    ),
    ("libcuda-sys default: generated from CUDA 13.0 headers", "libcuda-sys = { path = {path} }", "generate"),
    (
        "libcuda-sys default, `LIBCUDA_SYS_BINDINGS=pregenerated`",
        "libcuda-sys = { path = {path}, features = [\"cuda-13000\"] }",
        "pregenerated",
    ),
    (
        "libcuda-sys default, no headers: the fallback to the pregenerated bindings",
        "libcuda-sys = { path = {path}, features = [\"cuda-13000\"] }",
        "",
    ),
    (
        "libcuda-sys `default-features = false`, `cuda-13000`",
        "libcuda-sys = { path = {path}, default-features = false, features = [\"cuda-13000\"] }",
        "",
    ),
];

pub fn build(args: &[String]) -> Result {
    let (mut rounds, mut baseline, mut write) = (3, None, false);
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--rounds" => {
                rounds = it
                    .next()
                    .and_then(|n| n.parse().ok())
                    .filter(|n| *n > 0)
                    .ok_or("--rounds N, N > 0")?
            }
            "--baseline" => baseline = Some(it.next().ok_or("--baseline REV")?.clone()),
            "--write" => write = true,
            _ => {
                return Err(
                    "usage: cargo xtask bench-build [--rounds N] [--baseline REV] [--write]".into(),
                )
            }
        }
    }
    let work = std::env::temp_dir().join("libcuda-sys-bench");
    let _ = std::fs::remove_dir_all(&work);
    let include = headers::include_dir("13.0")?;
    let floor = crate::root().join("benches/bindgen-floor");
    let mut configs: Vec<(String, String, &str)> =
        CONFIGS.iter().map(|(n, d, e)| (n.to_string(), d.to_string(), *e)).collect();
    let mut packages = vec![package(&work.join("current"), None)?];
    if let Some(rev) = &baseline {
        packages.push(package(&work.join("baseline"), Some(rev))?);
        configs.push((
            format!("libcuda-sys default at {rev}: generated"),
            CONFIGS[2].1.into(),
            "generate",
        ));
        configs.push((
            format!("libcuda-sys `default-features = false`, `cuda-13000` at {rev}"),
            CONFIGS[5].1.into(),
            "",
        ));
    }
    let mut projects = Vec::new();
    for (i, (name, dependency, _)) in configs.iter().enumerate() {
        let package = &packages[usize::from(i >= CONFIGS.len())];
        let dir = work.join(format!("project-{i}"));
        std::fs::create_dir_all(dir.join("src")).map_err(|e| e.to_string())?;
        let ours = dependency.contains("{path}");
        let manifest = format!(
            "[package]\nname = \"bench-{i}\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n\
             [dependencies]\n{}\n\n[workspace]\n{}",
            dependency
                .replace("{path}", &format!("{:?}", package.sys.display().to_string()))
                .replace("{floor}", &format!("{:?}", floor.display().to_string())),
            if ours { package.patch() } else { String::new() }
        );
        std::fs::write(dir.join("Cargo.toml"), manifest).map_err(|e| e.to_string())?;
        std::fs::write(dir.join("src/lib.rs"), "").map_err(|e| e.to_string())?;
        eprintln!("bench-build: resolving {name}");
        crate::run(cmd(&dir, configs[i].2, &include, &["generate-lockfile"]))?;
        crate::run(cmd(&dir, configs[i].2, &include, &["fetch"]))?;
        projects.push(dir);
    }
    // samples[config][round] = (clean build seconds, seconds after bindgen,
    // no-op build seconds, libcuda-sys's critical path)
    let mut samples = vec![Vec::new(); configs.len()];
    for round in 0..rounds {
        for k in 0..configs.len() {
            let i = (k + round) % configs.len();
            eprintln!("bench-build: round {} of {rounds}: {}", round + 1, configs[i].0);
            let _ = std::fs::remove_dir_all(projects[i].join("target"));
            let mut build = cmd(&projects[i], configs[i].2, &include, &["build", "--timings"]);
            build.arg("--message-format=json");
            let b = cargo::build(build)?;
            if !b.success {
                return Err(format!("{}: the build failed:\n{}", configs[i].0, b.stderr));
            }
            // When bindgen's library was compiled, by its target.
            let bindgen_done = b.timed.iter().rev().find_map(|(t, m)| match m {
                Message::CompilerArtifact(a) if a.target.name == "bindgen" => Some(*t),
                _ => None,
            });
            // The same build again, nothing changed: what every later `cargo build` costs.
            let again = cargo::build(cmd(
                &projects[i],
                configs[i].2,
                &include,
                &["build", "--message-format=json"],
            ))?;
            let path = critical_path(&projects[i].join("target/cargo-timings/cargo-timing.html"))?;
            samples[i].push((b.wall, bindgen_done.map(|t| b.wall - t), again.wall, path));
        }
    }
    let data = json!({
        "date": date(),
        "machine": format!("{} cores, {}", std::thread::available_parallelism().map_or(0, |n| n.get()), rustc()),
        "rounds": rounds,
        "configs": configs.iter().zip(&samples).map(|((name, _, _), s)| json!({
            "name": name,
            "clean_s": s.iter().map(|x| x.0).collect::<Vec<_>>(),
            "ours_s": s.iter().filter_map(|x| x.1).collect::<Vec<_>>(),
            "noop_s": s.iter().map(|x| x.2).collect::<Vec<_>>(),
            "ratio": s.iter().zip(&samples[0]).map(|(x, c)| x.0 / c.0).collect::<Vec<_>>(),
            "ratio_floor": s.iter().zip(&samples[1]).map(|(x, f)| x.0 / f.0).collect::<Vec<_>>(),
            "path": PATH.iter().enumerate().map(|(k, (key, _))| (key.to_string(), json!(
                s.iter().filter_map(|x| x.3.map(|p| p[k])).collect::<Vec<_>>()
            ))).collect::<serde_json::Map<_, _>>(),
        })).collect::<Vec<_>>(),
    });
    let table = format!("{}\n{}", build_table(&data), path_table(&data));
    println!("{table}");
    if write {
        keep("build.json", &format!("{data:#}\n"))?;
        into_benchmarks_md("build", &table)?;
    }
    Ok(())
}

/// `cargo package` of the working tree (or of commit `rev`), unpacked.
fn package(work: &Path, rev: Option<&str>) -> Result<cargo::Unpacked> {
    std::fs::create_dir_all(work).map_err(|e| e.to_string())?;
    let source = match rev {
        None => crate::root(),
        Some(rev) => {
            let tree = work.join("tree");
            std::fs::create_dir_all(&tree).map_err(|e| e.to_string())?;
            let word = |p: &Path| crate::shell_word(&p.to_string_lossy());
            let archive = format!(
                "git -C {} archive --format=tar {} | tar -x -C {}",
                word(&crate::root()),
                crate::shell_word(rev),
                word(&tree)
            );
            let mut sh = Command::new("sh");
            sh.args(["-c", &archive]);
            crate::run(sh)?;
            tree
        }
    };
    let mut cmd = cargo::published(&source, "package", &["--allow-dirty", "--no-verify"]);
    cmd.env("CARGO_TARGET_DIR", work.join("target"));
    crate::run(cmd)?;
    cargo::unpack_packages(&work.join("target/package"), work)
}

/// `cargo args` in `dir`, in the configuration's mode, with nothing of this
/// machine's that would change the build (a compiler cache, flags).
fn cmd(dir: &Path, mode: &str, include: &Path, args: &[&str]) -> Command {
    let mut cmd = cargo::command(args);
    cmd.current_dir(dir).env("CARGO_TERM_COLOR", "never");
    for var in [
        "RUSTC_WRAPPER",
        "CARGO_BUILD_RUSTC_WRAPPER",
        "CARGO_TARGET_DIR",
        "RUSTFLAGS",
        "CARGO_ENCODED_RUSTFLAGS",
    ] {
        cmd.env_remove(var);
    }
    // The packaged crates are path dependencies here, which Cargo compiles
    // incrementally; from crates.io it never does (cargo's profiles.rs: only
    // path sources are incremental), and a first build is slower for it.
    cmd.env("CARGO_INCREMENTAL", "0");
    match mode {
        "generate" => cmd.env("LIBCUDA_SYS_INCLUDE_DIR", include),
        "pregenerated" => cmd.env("LIBCUDA_SYS_BINDINGS", "pregenerated"),
        _ => &mut cmd,
    };
    cmd
}

/// `median (min–max)` of `values`, formatted with `f`.
fn spread(values: &[f64], f: impl Fn(f64) -> String) -> String {
    let mut v: Vec<f64> = values.iter().copied().filter(|x| x.is_finite()).collect();
    if v.is_empty() {
        return "-".into();
    }
    v.sort_by(f64::total_cmp);
    let median =
        if v.len() % 2 == 1 { v[v.len() / 2] } else { (v[v.len() / 2 - 1] + v[v.len() / 2]) / 2.0 };
    format!("{} ({}–{})", f(median), f(v[0]), f(v[v.len() - 1]))
}

fn numbers(v: &Value) -> Vec<f64> {
    v.as_array().map(|a| a.iter().filter_map(Value::as_f64).collect()).unwrap_or_default()
}

fn build_table(data: &Value) -> String {
    let mut out = format!(
        "Clean builds of fresh dependent projects (debug, each resolving its own lockfile), {} rounds \
         interleaved; {}; {}. Median (range).\n\n\
         | configuration | clean build | / cudarc | / floor | after bindgen is compiled | no-op build |\n|---|---:|---:|---:|---:|---:|\n",
        data["rounds"],
        data["machine"].as_str().unwrap_or_default(),
        data["date"].as_str().unwrap_or_default(),
    );
    for c in data["configs"].as_array().into_iter().flatten() {
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} |\n",
            c["name"].as_str().unwrap_or_default(),
            spread(&numbers(&c["clean_s"]), |x| format!("{x:.1} s")),
            spread(&numbers(&c["ratio"]), |x| format!("{x:.2}x")),
            spread(&numbers(&c["ratio_floor"]), |x| format!("{x:.2}x")),
            spread(&numbers(&c["ours_s"]), |x| format!("{x:.1} s")),
            spread(&numbers(&c["noop_s"]), |x| format!("{x:.2} s")),
        ));
    }
    out
}

/// libcuda-sys's critical path, in the order its units run: `(key, unit)`,
/// the unit as a `--timings` report names it (`(package, target, mode)`).
const PATH: [(&str, (&str, &str, &str)); 4] = [
    ("logic_s", ("libcuda-sys-build", "", "todo")),
    ("script_compile_s", ("libcuda-sys", " build-script", "todo")),
    ("script_run_s", ("libcuda-sys", " build-script (run)", "run-custom-build")),
    ("crate_s", ("libcuda-sys", "", "todo")),
];

/// The seconds of each unit of [`PATH`] in a `cargo build --timings` report,
/// where the build has them all (not cudarc's, not the floor's). Stable Cargo
/// gives a unit's start and duration only there, as the JSON array
/// `UNIT_DATA` the page's script draws from.
fn critical_path(report: &Path) -> Result<Option<[f64; 4]>> {
    let page = std::fs::read_to_string(report).map_err(|e| format!("{}: {e}", report.display()))?;
    let key = "const UNIT_DATA = ";
    let at = page.find(key).ok_or_else(|| format!("{}: no {key}", report.display()))?;
    let units: Vec<Value> = serde_json::Deserializer::from_str(&page[at + key.len()..])
        .into_iter()
        .next()
        .and_then(|v| v.ok())
        .ok_or_else(|| format!("{}: UNIT_DATA is not JSON", report.display()))?;
    let seconds = |(name, target, mode): (&str, &str, &str)| {
        units.iter().find_map(|u| {
            (u["name"] == name && u["target"] == target && u["mode"] == mode)
                .then(|| u["duration"].as_f64())
                .flatten()
        })
    };
    let found: Vec<f64> = PATH.iter().filter_map(|(_, unit)| seconds(*unit)).collect();
    Ok(found.try_into().ok())
}

fn path_table(data: &Value) -> String {
    let mut out = String::from(
        "libcuda-sys's critical path, from each build's `--timings` report. Median (range).\n\n\
         | configuration | build logic compiled | build script compiled | build script ran | crate compiled |\n\
         |---|---:|---:|---:|---:|\n",
    );
    for c in data["configs"].as_array().into_iter().flatten() {
        if numbers(&c["path"]["crate_s"]).is_empty() {
            continue;
        }
        let cells: Vec<String> = PATH
            .iter()
            .map(|(key, _)| spread(&numbers(&c["path"][key]), |x| format!("{x:.2} s")))
            .collect();
        out.push_str(&format!(
            "| {} | {} |\n",
            c["name"].as_str().unwrap_or_default(),
            cells.join(" | ")
        ));
    }
    out
}

/// `cargo xtask bench-calls FILE [--write]`: the call table of a `run.sh`
/// results file; `--write` keeps the file as `benches/results/calls.txt` and
/// puts the table in BENCHMARKS.md.
pub fn calls(args: &[String]) -> Result {
    let (file, write) = match args {
        [file] => (file, false),
        [file, w] if w == "--write" => (file, true),
        _ => return Err("usage: cargo xtask bench-calls FILE [--write]".into()),
    };
    let text = std::fs::read_to_string(file).map_err(|e| format!("{file}: {e}"))?;
    // `result ROUND VARIANT BENCH NS`
    let mut results: Vec<(String, String, f64)> = Vec::new();
    let mut info = Vec::new();
    for line in text.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["result", _, variant, bench, ns] => {
                let ns = ns.parse().map_err(|_| format!("{file}: {line}"))?;
                results.push((bench.to_string(), variant.to_string(), ns));
            }
            ["info", rest @ ..] => info.push(rest.join(" ")),
            _ => {}
        }
    }
    let variants = ["c", "rust-linked", "rust-dynamic", "cudarc"];
    let mut benches: Vec<&str> = Vec::new();
    for (b, _, _) in &results {
        if !benches.contains(&b.as_str()) {
            benches.push(b);
        }
    }
    if benches.is_empty() {
        return Err(format!("{file} holds no measurement"));
    }
    let mut table = format!(
        "ns per driver call, warm: median over rounds (range) of each run's median over batches; \
         each variant once a round, interleaved. {}\n\n| call | {} |\n|---|{}\n",
        info.join("; "),
        variants.join(" | "),
        "---:|".repeat(variants.len())
    );
    for bench in benches {
        let cells: Vec<String> = variants
            .iter()
            .map(|v| {
                let ns: Vec<f64> =
                    results.iter().filter(|r| r.0 == bench && r.1 == *v).map(|r| r.2).collect();
                spread(&ns, |x| format!("{x:.1}"))
            })
            .collect();
        table.push_str(&format!("| `{bench}` | {} |\n", cells.join(" | ")));
    }
    println!("{table}");
    if write {
        keep("calls.txt", &text)?;
        into_benchmarks_md("calls", &table)?;
    }
    Ok(())
}

/// Keeps the raw measurements as `benches/results/{name}`.
fn keep(name: &str, text: &str) -> Result {
    let path = crate::root().join("benches/results").join(name);
    std::fs::create_dir_all(path.parent().unwrap_or(&path))
        .and_then(|()| std::fs::write(&path, text))
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// BENCHMARKS.md with `table` between the markers of `section`.
fn into_benchmarks_md(section: &str, table: &str) -> Result {
    let path = crate::root().join("BENCHMARKS.md");
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let (begin, end) = (format!("<!-- {section} -->\n"), format!("<!-- /{section} -->"));
    let (Some(a), Some(b)) = (text.find(&begin), text.find(&end)) else {
        return Err(format!("BENCHMARKS.md has no {begin:?} ... {end:?} markers"));
    };
    let text = format!("{}{begin}{table}{}", &text[..a], &text[b..]);
    std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))
}

fn rustc() -> String {
    let out = Command::new("rustc").arg("--version").output();
    out.map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string()).unwrap_or_default()
}

fn date() -> String {
    let out = Command::new("date").args(["-u", "+%Y-%m-%d"]).output();
    out.map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string()).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_critical_path_is_read_from_a_timings_report() {
        let dir = tempfile::tempdir().unwrap();
        let report = dir.path().join("cargo-timing.html");
        let unit = |name: &str, target: &str, mode: &str, duration: f64| {
            format!(
                r#"{{"name":"{name}","target":"{target}","mode":"{mode}","start":1.0,"duration":{duration},"sections":null}}"#
            )
        };
        let units = [
            unit("syn", "", "todo", 3.0),
            unit("libcuda-sys-build", "", "todo", 2.99),
            unit("libcuda-sys", " build-script", "todo", 0.4),
            unit("libcuda-sys", " build-script (run)", "run-custom-build", 1.83),
            unit("libcuda-sys", "", "todo", 0.78),
        ];
        let page = |units: &[String]| {
            format!(
                "<script>\nconst UNIT_DATA = [\n{}\n];\nconst CONCURRENCY_DATA = [];\n",
                units.join(",\n")
            )
        };
        std::fs::write(&report, page(&units)).unwrap();
        assert_eq!(super::critical_path(&report).unwrap(), Some([2.99, 0.4, 1.83, 0.78]));
        // cudarc's build has none of them.
        std::fs::write(&report, page(&units[..1])).unwrap();
        assert_eq!(super::critical_path(&report).unwrap(), None);
        std::fs::write(&report, "<html></html>").unwrap();
        assert!(super::critical_path(&report).is_err());
    }

    #[test]
    fn spread_is_the_median_and_the_range() {
        let f = |x: f64| format!("{x:.1}");
        assert_eq!(super::spread(&[3.0, 1.0, 2.0], f), "2.0 (1.0–3.0)");
        assert_eq!(super::spread(&[4.0, 1.0, 2.0, 3.0], f), "2.5 (1.0–4.0)");
        assert_eq!(super::spread(&[], f), "-");
    }
}
