//! Bundles of binaries for a machine with a GPU and no Rust: the test binaries
//! (`cargo xtask gpu-bundle`) and the call benchmark (`cargo xtask
//! bench-calls-bundle`). Cargo's JSON messages say which executables it built;
//! the bundle holds copies of them and a `run.sh` (from `xtask/templates/`),
//! never a libcuda: on the GPU machine the driver's `libcuda.so.1` is used.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::{cargo, headers, machine, Result};

const GPU_RUN: &str = include_str!("../templates/gpu-run.sh");
const CALLS_RUN: &str = include_str!("../templates/calls-run.sh");
const NOOP_LIBCUDA: &str = include_str!("../templates/noop_libcuda.c");

/// An executable Cargo built.
struct Executable {
    package: String,
    target: String,
    kind: String,
    src_path: PathBuf,
    path: PathBuf,
    test: bool,
}

fn executables(build: &cargo::Build) -> Vec<Executable> {
    build
        .messages
        .iter()
        .filter(|m| m["reason"] == "compiler-artifact")
        .filter_map(|m| {
            Some(Executable {
                package: cargo::package_name(m["package_id"].as_str()?),
                target: m["target"]["name"].as_str()?.to_string(),
                kind: m["target"]["kind"][0].as_str()?.to_string(),
                src_path: PathBuf::from(m["target"]["src_path"].as_str()?),
                path: PathBuf::from(m["executable"].as_str()?),
                test: m["profile"]["test"] == true,
            })
        })
        .collect()
}

/// Runs a `cargo build`/`cargo test --no-run` with `--message-format=json`
/// (diagnostics rendered on stderr) and fails with Cargo's errors.
fn build(what: &str, args: &[&str], env: &[(&str, &Path)]) -> Result<cargo::Build> {
    eprintln!("bundle: building {what}");
    let mut cmd = cargo::command(args);
    cmd.arg("--message-format=json-render-diagnostics");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let build = cargo::build(cmd)?;
    if !build.success {
        return Err(format!(
            "building {what} failed (cargo {}):\n{}",
            args.join(" "),
            build.stderr
        ));
    }
    Ok(build)
}

/// Marks a directory as a bundle these commands made, which they may replace.
const MARK: &str = ".libcuda-sys-bundle";

/// A bundle goes into a new or empty directory, or one that holds an earlier
/// bundle (its mark): anything else is refused before anything is built, and
/// never deleted.
fn claim(dir: &Path) -> Result {
    match std::fs::read_dir(dir).map(|mut entries| entries.next().is_none()) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(format!("{}: {e}", dir.display())),
        Ok(empty) if empty || dir.join(MARK).is_file() => Ok(()),
        Ok(_) => Err(format!(
            "{} is not empty and holds no bundle these commands made: refusing to replace it; \
             name a new or empty directory",
            dir.display()
        )),
    }
}

/// `dir`, emptied if [`claim`] allowed it, with its mark.
fn fresh_dir(dir: &Path) -> Result {
    claim(dir)?;
    if dir.exists() {
        std::fs::remove_dir_all(dir).map_err(|e| format!("removing {}: {e}", dir.display()))?;
    }
    std::fs::create_dir_all(dir.join("bin"))
        .map_err(|e| format!("creating {}: {e}", dir.display()))?;
    write(
        &dir.join(MARK),
        "made by cargo xtask; replaced by the next bundle made here\n",
        false,
    )
}

fn copy(from: &Path, to: &Path) -> Result {
    if let Some(dir) = to.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("creating {}: {e}", dir.display()))?;
    }
    std::fs::copy(from, to)
        .map(drop)
        .map_err(|e| format!("copying {} to {}: {e}", from.display(), to.display()))
}

fn write(path: &Path, contents: impl AsRef<[u8]>, executable: bool) -> Result {
    std::fs::write(path, contents).map_err(|e| format!("writing {}: {e}", path.display()))?;
    if executable {
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755))
                .map_err(|e| format!("{}: {e}", path.display()))?;
        }
    }
    Ok(())
}

/// Every file under `dir`.
fn files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(files(&path));
        } else {
            out.push(path);
        }
    }
    out
}

/// Debug information stripped (where `strip` exists: the bundle only gets
/// smaller), and no libcuda anywhere in it.
fn finish(dir: &Path, binaries: &[PathBuf]) -> Result {
    if Command::new("strip").arg("--version").output().is_ok() {
        let status = Command::new("strip")
            .arg("--strip-debug")
            .args(binaries)
            .status()
            .map_err(|e| format!("strip: {e}"))?;
        if !status.success() {
            return Err("strip --strip-debug failed on the bundle's binaries".into());
        }
    }
    let all = files(dir);
    if let Some(lib) = all.iter().find(|f| {
        f.file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n.starts_with("libcuda.so"))
    }) {
        return Err(format!(
            "{} ended up in the bundle; refusing (the GPU machine's driver must be used)",
            lib.display()
        ));
    }
    Ok(())
}

fn size(dir: &Path) -> u64 {
    files(dir)
        .iter()
        .filter_map(|f| f.metadata().ok())
        .map(|m| m.len())
        .sum()
}

fn built() -> String {
    format!(
        "{} on {}",
        machine::first_line("date", &["-u", "+%Y-%m-%dT%H:%M:%SZ"]).unwrap_or_default(),
        machine::first_line("uname", &["-n"]).unwrap_or_default()
    )
}

/// `DIR` as given, relative to the current directory.
fn absolute(dir: &str) -> Result<PathBuf> {
    let dir = PathBuf::from(dir);
    if dir.is_absolute() {
        return Ok(dir);
    }
    Ok(std::env::current_dir()
        .map_err(|e| format!("the current directory: {e}"))?
        .join(dir))
}

/// `dir` as the user should type it from the workspace root.
fn shown(dir: &Path) -> String {
    dir.strip_prefix(crate::root())
        .unwrap_or(dir)
        .display()
        .to_string()
}

/// `LIBCUDA_SYS_CUDA_VERSION` of libcuda-sys's build script run.
fn cuda_version(build: &cargo::Build) -> String {
    build
        .messages
        .iter()
        .filter(|m| {
            m["reason"] == "build-script-executed"
                && cargo::package_name(m["package_id"].as_str().unwrap_or_default())
                    == "libcuda-sys"
        })
        .flat_map(|m| m["env"].as_array().cloned().unwrap_or_default())
        .find(|kv| kv[0] == "LIBCUDA_SYS_CUDA_VERSION")
        .and_then(|kv| kv[1].as_str().map(str::to_string))
        .unwrap_or_default()
}

// --- The GPU tests ------------------------------------------------------------

const GPU_USAGE: &str =
    "usage: cargo xtask gpu-bundle [VERSION [DIR]] [--features F] [--driver-floor V]";

/// Where a test reads the build tree while it runs, by what its source says:
/// such a binary runs only where Cargo put it (on the build machine); on the
/// GPU machine its tests are reported as skipped.
fn reads_build_tree(source: &str) -> Vec<&'static str> {
    let code: String = source
        .lines()
        .filter(|l| !l.contains("include!("))
        .map(|l| l.split("//").next().unwrap_or_default())
        .collect::<Vec<_>>()
        .join("\n");
    let current_exe_parent = code.split(';').any(|statement| {
        statement
            .split_once("current_exe()")
            .is_some_and(|(_, rest)| rest.contains(".parent()"))
    });
    [
        (code.contains("c_side("), "OUT_DIR/abi_check.c"),
        (code.contains("env!(\"OUT_DIR\")"), "OUT_DIR"),
        (code.contains("CARGO_TARGET_TMPDIR"), "CARGO_TARGET_TMPDIR"),
        (code.contains("CARGO_MANIFEST_DIR"), "the sources"),
        (
            code.contains("LIBCUDA_SYS_INCLUDE_DIR_USED") || code.contains("DEP_CUDA_INCLUDE)"),
            "the headers",
        ),
        (current_exe_parent, "target dir"),
    ]
    .into_iter()
    .filter_map(|(hit, label)| hit.then_some(label))
    .collect()
}

pub fn gpu(args: &[String]) -> Result {
    let mut positional = Vec::new();
    let (mut features, mut floor) = (None, None);
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--features" => features = Some(it.next().ok_or(GPU_USAGE)?.clone()),
            "--driver-floor" => floor = Some(it.next().ok_or(GPU_USAGE)?.clone()),
            s if s.starts_with('-') => return Err(GPU_USAGE.into()),
            _ => positional.push(a.clone()),
        }
    }
    if positional.len() > 2 {
        return Err(GPU_USAGE.into());
    }
    let version = positional.first().map_or("13.0", String::as_str);
    let out = absolute(positional.get(1).map_or(".gpu-bundle", String::as_str))?;
    claim(&out)?;
    let include = headers::include_dir(version)?;
    // This program, for run.sh to read the results with: taken before the
    // builds below could relink it.
    let results_reader = std::fs::read(std::env::current_exe().map_err(|e| e.to_string())?)
        .map_err(|e| format!("reading xtask itself: {e}"))?;
    let mut env: Vec<(&str, &Path)> = vec![("LIBCUDA_SYS_INCLUDE_DIR", &include)];
    let floor_path = floor.as_ref().map(PathBuf::from);
    if let Some(f) = &floor_path {
        env.push(("LIBCUDA_SYS_DRIVER_FLOOR", f));
    }

    // Features are the crate's, asked for through its package name so that the
    // report's tests get them too.
    let features = features.map(|f| {
        f.split([',', ' '])
            .filter(|s| !s.is_empty())
            .map(|s| format!("libcuda-sys/{s}"))
            .collect::<Vec<_>>()
            .join(",")
    });
    // The dependent crate links C that calls libcuda, so it only builds linked.
    // xtask and the call harness have nothing to test on a GPU.
    let mut test_args = vec!["test", "--locked", "--tests", "--no-run"];
    match &features {
        Some(f) => test_args.extend(["-p", "libcuda-sys", "-p", "mempool-report", "--features", f]),
        None => test_args.extend([
            "--workspace",
            "--exclude",
            "xtask",
            "--exclude",
            "call-harness",
        ]),
    }
    let tests = build(
        &format!(
            "the test binaries against the CUDA {version} headers ({}){}",
            include.display(),
            features
                .as_ref()
                .map(|f| format!(", features {f}"))
                .unwrap_or_default()
        ),
        &test_args,
        &env,
    )?;
    // The report, the main job, run first on the GPU machine.
    let mut report_args = vec![
        "build",
        "--locked",
        "-p",
        "mempool-report",
        "--bin",
        "mempool-report",
    ];
    if let Some(f) = &features {
        report_args.extend(["--features", f]);
    }
    let report = build("mempool-report", &report_args, &env)?;

    fresh_dir(&out)?;
    let mut binaries = Vec::new();
    let reader = out.join("xtask");
    write(&reader, &results_reader, true)?;
    binaries.push(reader);
    if let Some(r) = executables(&report)
        .into_iter()
        .find(|e| e.target == "mempool-report")
    {
        let to = out.join("report/mempool-report");
        copy(&r.path, &to)?;
        binaries.push(to);
    }
    let mut tests_built: Vec<Executable> =
        executables(&tests).into_iter().filter(|e| e.test).collect();
    if tests_built.is_empty() {
        return Err("cargo built no test executable".into());
    }
    tests_built.sort_by(|a, b| a.target.cmp(&b.target).then(a.package.cmp(&b.package)));
    let mut manifest = String::new();
    for t in &tests_built {
        let source = std::fs::read_to_string(&t.src_path).unwrap_or_default();
        let needs = reads_build_tree(&source);
        let to = out.join("bin").join(&t.target);
        copy(&t.path, &to)?;
        binaries.push(to);
        manifest.push_str(&format!(
            "{}\t{}\t{}\t{}\n",
            t.target,
            t.kind,
            if needs.is_empty() {
                "-".to_string()
            } else {
                needs.join(", ")
            },
            t.path.display()
        ));
    }
    write(&out.join("manifest.tsv"), &manifest, false)?;

    // The bound functions, for run.sh to list what a driver lacks when a
    // binary cannot start.
    let out_dir = tests.out_dir("libcuda-sys")?.clone();
    let names = match crate::bindings::functions(&out_dir) {
        Ok(names) => names.iter().map(|n| format!("{n}\n")).collect(),
        Err(e) => {
            eprintln!("bundle: {e}: run.sh will not name the functions a driver lacks");
            String::new()
        }
    };
    write(&out.join("functions.txt"), &names, false)?;
    finish(&out, &binaries)?;

    let info = [
        ("headers", version.to_string()),
        (
            "features",
            features.clone().unwrap_or_else(|| "none".into()),
        ),
        (
            "driver_floor",
            floor.clone().unwrap_or_else(|| "none".into()),
        ),
        ("cuda_version", cuda_version(&tests)),
        ("include_dir", include.display().to_string()),
        ("commit", machine::commit()),
        ("built", built()),
        ("out_dir", out_dir.display().to_string()),
        ("stand_in", out_dir.join("stub").display().to_string()),
    ];
    let info: String = info.iter().map(|(k, v)| format!("{k}={v}\n")).collect();
    write(&out.join("info.txt"), &info, false)?;
    write(&out.join("run.sh"), GPU_RUN, true)?;

    let rel = shown(&out);
    eprintln!(
        "\ngpu-bundle: {} test binaries, {:.1} MiB, CUDA {version} headers, in {rel}/",
        tests_built.len(),
        size(&out) as f64 / (1 << 20) as f64
    );
    eprintln!(
        "gpu-bundle: to try it here against the stand-in libcuda (everything skips): \
         LD_LIBRARY_PATH={}/stub bash {rel}/run.sh",
        out_dir.display()
    );
    eprintln!("gpu-bundle: on the GPU machine, from the repository root, run:");
    println!("bash {rel}/run.sh");
    Ok(())
}

// --- The call benchmark -------------------------------------------------------

const CALLS_USAGE: &str = "usage: cargo xtask bench-calls-bundle [VERSION [DIR]] [--self-test]";
/// The bundle is copied to the GPU machine: keep it small.
const MAX_BUNDLE: u64 = 20 << 20;

/// The executable of `target` among what a build made.
fn executable_of(build: &cargo::Build, target: &str) -> Result<PathBuf> {
    executables(build)
        .into_iter()
        .find(|e| e.target == target)
        .map(|e| e.path)
        .ok_or_else(|| format!("Cargo reported no executable for {target}"))
}

pub fn calls(args: &[String]) -> Result {
    let self_test = args.iter().any(|a| a == "--self-test");
    let positional: Vec<&String> = args.iter().filter(|a| *a != "--self-test").collect();
    if positional.len() > 2 || positional.iter().any(|a| a.starts_with('-')) {
        return Err(CALLS_USAGE.into());
    }
    let version = positional.first().map_or("13.0", |s| s.as_str());
    let out = absolute(positional.get(1).map_or(".bench-bundle", |s| s.as_str()))?;
    claim(&out)?;
    let include = headers::include_dir(version)?;
    let env = [("LIBCUDA_SYS_INCLUDE_DIR", include.as_path())];

    let example = [
        "build",
        "--release",
        "--locked",
        "-p",
        "libcuda-sys",
        "--example",
        "call_overhead",
    ];
    let linked = build(
        &format!("examples/call_overhead (release, CUDA {version} headers)"),
        &example,
        &env,
    )?;
    // Copied before the next build replaces the file.
    fresh_dir(&out)?;
    let bin = out.join("bin");
    let mut binaries = Vec::new();
    let mut keep = |from: PathBuf, name: &str| -> Result {
        let to = bin.join(name);
        copy(&from, &to)?;
        binaries.push(to);
        Ok(())
    };
    keep(
        executable_of(&linked, "call_overhead")?,
        "call_overhead-rust-linked",
    )?;
    let mut dynamic_args = example.to_vec();
    dynamic_args.extend(["--features", "dynamic-loading"]);
    let dynamic = build(
        "examples/call_overhead with dynamic-loading",
        &dynamic_args,
        &env,
    )?;
    keep(
        executable_of(&dynamic, "call_overhead")?,
        "call_overhead-rust-dynamic",
    )?;
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| crate::root().join("target"))
        .join("cudarc-calls");
    let manifest = crate::root().join("benches/cudarc-calls/Cargo.toml");
    let manifest = manifest.to_str().ok_or("the workspace path is not UTF-8")?;
    let cudarc = build(
        "benches/cudarc-calls (release)",
        &[
            "build",
            "--release",
            "--locked",
            "--manifest-path",
            manifest,
        ],
        &[("CARGO_TARGET_DIR", &target)],
    )?;
    keep(
        executable_of(&cudarc, "cudarc-calls")?,
        "call_overhead-cudarc",
    )?;
    copy(
        &crate::root().join("benches/call_overhead.c"),
        &out.join("call_overhead.c"),
    )?;
    finish(&out, &binaries)?;

    let cudarc_version = cudarc
        .messages
        .iter()
        .filter_map(|m| m["package_id"].as_str())
        .find_map(|id| cargo::package_version(id, "cudarc"))
        .unwrap_or_else(|| "?".into());
    let info = [
        ("headers", version.to_string()),
        ("cuda_version", cuda_version(&linked)),
        ("commit", machine::commit()),
        ("built", built()),
        (
            "rustc",
            machine::first_line("rustc", &["-V"]).unwrap_or_default(),
        ),
        (
            "cudarc",
            format!("{cudarc_version} (driver, cuda-13000, dynamic-loading)"),
        ),
        ("tool", "cargo xtask bench-calls-bundle".to_string()),
    ];
    let info: String = info.iter().map(|(k, v)| format!("{k}={v}\n")).collect();
    write(&out.join("info.txt"), &info, false)?;
    write(&out.join("run.sh"), CALLS_RUN, true)?;
    let bytes = size(&out);
    if bytes > MAX_BUNDLE {
        return Err(format!(
            "the bundle is {} KiB, over {} MiB",
            bytes >> 10,
            MAX_BUNDLE >> 20
        ));
    }
    let rel = shown(&out);
    eprintln!(
        "bench-calls-bundle: {} binaries, {:.1} MiB, CUDA {version} headers, in {rel}/",
        binaries.len(),
        bytes as f64 / (1 << 20) as f64
    );
    if self_test {
        return self_test_run(&out, &include);
    }
    eprintln!("bench-calls-bundle: on the GPU machine, from the repository root, run:");
    println!("bash {rel}/run.sh");
    Ok(())
}

/// The bundle run here against a no-op `libcuda.so.1` (every function returns
/// `CUDA_SUCCESS` at once): the programs then measure their own call path.
fn self_test_run(out: &Path, include: &Path) -> Result {
    let mock = std::env::temp_dir().join(format!("libcuda-sys-noop-{}", std::process::id()));
    std::fs::create_dir_all(&mock).map_err(|e| format!("creating {}: {e}", mock.display()))?;
    let result = (|| {
        let source = mock.join("noop_libcuda.c");
        write(&source, NOOP_LIBCUDA, false)?;
        let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
        let status = Command::new(&cc)
            .args(["-O2", "-shared", "-fPIC", "-Wl,-soname,libcuda.so.1", "-o"])
            .arg(mock.join("libcuda.so.1"))
            .arg(format!("-I{}", include.display()))
            .arg(&source)
            .status()
            .map_err(|e| format!("{cc}: {e} (set CC to a C compiler)"))?;
        if !status.success() {
            return Err(format!(
                "{cc} could not build the no-op libcuda from {}",
                source.display()
            ));
        }
        eprintln!(
            "bench-calls-bundle: self-test: running the bundle against a no-op libcuda.so.1 ({})",
            mock.display()
        );
        let results = std::env::var_os("BENCH_RESULTS")
            .map(PathBuf::from)
            .unwrap_or_else(|| out.join("results.txt"));
        let status = Command::new("bash")
            .arg(out.join("run.sh"))
            .arg(std::env::var("BENCH_ROUNDS").unwrap_or_else(|_| "3".into()))
            .env("LIBCUDA_DIR", &mock)
            .env("CUDA_INCLUDE", include)
            .env("BENCH_RESULTS", &results)
            .status()
            .map_err(|e| format!("bash: {e}"))?;
        if !status.success() {
            return Err(format!(
                "run.sh against the no-op libcuda failed ({status})"
            ));
        }
        Ok(())
    })();
    let _ = std::fs::remove_dir_all(&mock);
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn build_tree_readers_are_found_outside_comments() {
        assert_eq!(
            reads_build_tree("let d = env!(\"OUT_DIR\");\n// CARGO_MANIFEST_DIR\n"),
            vec!["OUT_DIR"]
        );
        assert_eq!(
            reads_build_tree("let t = std::env::current_exe().unwrap().parent().unwrap();"),
            vec!["target dir"]
        );
        assert!(reads_build_tree("#[test] fn f() { assert!(true) }").is_empty());
    }
}
