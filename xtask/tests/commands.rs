//! The xtask commands that prepare a machine (`headers`, `setup`) and those
//! that start with setup (`test`, `report`), run as subprocesses from the
//! workspace root, and the report's exit statuses: `cargo test -p xtask --test
//! commands`.
//!
//! Stubs stand in for pip, apt-get and cargo where the real ones would make a
//! test slow or depend on the network, change the machine, or hide what is
//! under test (a stub pip decides which of several concurrent runs finishes
//! first). A test that cannot run here says `skipped: <test>: <reason>` on
//! stderr (testkit::skip).
#![cfg(unix)]

use std::fs;
use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use testkit::skip;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").canonicalize().expect("workspace root")
}

/// A scratch directory, removed when dropped.
fn temp_dir() -> tempfile::TempDir {
    tempfile::Builder::new().prefix("libcuda-sys-xtask-").tempdir().expect("temporary directory")
}

/// An executable `/bin/sh` script `name` in `dir`.
fn stub(dir: &Path, name: &str, body: &str) {
    let path = dir.join(name);
    fs::write(&path, format!("#!/bin/sh\n{body}\n")).expect("write stub");
    fs::set_permissions(&path, fs::Permissions::from_mode(0o755)).expect("chmod stub");
}

/// Stubs that record each call in `dir/calls` and fail: a test that sees a
/// line there for a program xtask should not have run fails.
fn recording_stubs(dir: &Path, names: &[&str]) {
    recording_stubs_exiting(dir, names, 1);
}

fn recording_stubs_exiting(dir: &Path, names: &[&str], status: u8) {
    for name in names {
        let log = dir.join("calls");
        let body = format!("echo \"{name} $*\" >> \"{}\"\nexit {status}", log.display());
        stub(dir, name, &body);
    }
}

fn calls(dir: &Path) -> String {
    fs::read_to_string(dir.join("calls")).unwrap_or_default()
}

/// `dir` first on PATH, then the PATH of this process without the directories
/// that hold any of `hide`.
fn path_with(dir: &Path, hide: &[&str]) -> String {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let kept = std::env::split_paths(&path).filter(|d| !hide.iter().any(|h| d.join(h).exists()));
    std::env::join_paths(std::iter::once(dir.to_path_buf()).chain(kept))
        .expect("PATH")
        .into_string()
        .expect("PATH is UTF-8")
}

/// `xtask args` run from the workspace root, without the settings that
/// choose CUDA headers, so only what a test sets applies, and without the
/// `CARGO` that Cargo sets for tests, so that xtask runs the `cargo` on PATH
/// (a stub, where a test puts one there).
fn xtask(args: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_xtask"));
    cmd.current_dir(root()).args(args);
    for var in [
        "CARGO",
        "LIBCUDA_SYS_XTASK_RUSTDOC",
        "XTASK_CUDA_HEADERS",
        "LIBCUDA_SYS_INCLUDE_DIR",
        "LIBCUDA_SYS_HEADER_CACHE",
        "LIBCUDA_SYS_DRIVER_PATH",
        "CUDA_PATH",
        "CUDA_HOME",
        "CUDA_ROOT",
        "CUDA_TOOLKIT_ROOT_DIR",
        "CONDA_PREFIX",
        "LIBCLANG_PATH",
    ] {
        cmd.env_remove(var);
    }
    cmd
}

fn run(cmd: &mut Command) -> Output {
    cmd.output().unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"))
}

fn text(out: &Output) -> String {
    format!(
        "status {:?}\n--- stdout\n{}--- stderr\n{}",
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// The interpreter `python3` names here (pyenv's shims are scripts that need
/// their own PATH): what a stub `python3` hands everything but pip to.
fn real_python() -> Option<PathBuf> {
    let out =
        Command::new("python3").args(["-c", "import sys; print(sys.executable)"]).output().ok()?;
    let path = PathBuf::from(String::from_utf8(out.stdout).ok()?.trim());
    (out.status.success() && path.is_file()).then_some(path)
}

/// The report's source that declares its exit statuses.
fn report_source() -> PathBuf {
    root().join("tools/mempool-report/src/exit.rs")
}

/// The report's exit statuses, `EXIT_*` in its source.
fn report_exit_statuses() -> Vec<(String, i32)> {
    let path = report_source();
    let source = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    source
        .lines()
        .filter_map(|l| {
            let rest = l.trim().strip_prefix("pub const EXIT_")?;
            let (name, value) = rest.split_once(": u8 = ")?;
            Some((name.to_owned(), value.strip_suffix(';')?.parse().ok()?))
        })
        .collect()
}

fn report_exit_status(name: &str) -> i32 {
    let statuses = report_exit_statuses();
    statuses
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| *v)
        .unwrap_or_else(|| panic!("no EXIT_{name} in {}: {statuses:?}", report_source().display()))
}

// ---------------------------------------------------------------------------
// cargo xtask headers: which versions
// ---------------------------------------------------------------------------

/// Which versions have a wheel is `headers::wheel`'s unit test; here, that
/// one without is refused before pip is asked, and one with is asked for.
#[test]
fn headers_asks_pip_only_for_a_version_with_a_wheel() {
    let stubs = temp_dir();
    recording_stubs(stubs.path(), &["python3", "pip", "pip3"]);
    let cache = stubs.path().join("cache");
    let headers = |version| {
        run(xtask(&["headers", version])
            .env("PATH", path_with(stubs.path(), &[]))
            .env("LIBCUDA_SYS_HEADER_CACHE", &cache))
    };
    let out = headers("12.7");
    assert_eq!(calls(stubs.path()), "", "pip was asked: {}", text(&out));
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(out.stdout.is_empty() && !cache.exists(), "{}", text(&out));
    assert!(String::from_utf8_lossy(&out.stderr).contains("'12.7'"), "{}", text(&out));
    // The stub pip fails: a fetch that cannot be done, and leaves nothing.
    let out = headers("12.4.127");
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let calls = calls(stubs.path());
    assert!(
        calls.contains("-m pip download")
            && calls.contains(" nvidia-cuda-runtime-cu12==12.4.127.*"),
        "{calls}"
    );
    let left: Vec<_> = fs::read_dir(&cache)
        .map(|d| d.flatten().map(|e| e.file_name()).collect())
        .unwrap_or_default();
    assert!(left.is_empty(), "a failed fetch left {left:?}");
}

// ---------------------------------------------------------------------------
// cargo xtask headers: concurrent runs
// ---------------------------------------------------------------------------

/// A `python3` whose `pip download` hands out `dir/wheel.whl` after a moment
/// (so that concurrent runs overlap); all else goes to the real interpreter.
fn stub_pip(dir: &Path, python: &Path) {
    let body = format!(
        r#"if [ "$1" = -m ] && [ "$2" = pip ]; then
  prev= dest=
  for a in "$@"; do [ "$prev" = -d ] && dest=$a; prev=$a; done
  sleep 0.3; mkdir -p "$dest" && cp "{d}/wheel.whl" "$dest/nvidia_cuda_runtime-13.5.0-py3-none-manylinux2014_x86_64.whl"
  exit
fi
exec "{python}" "$@""#,
        d = dir.display(),
        python = python.display()
    );
    stub(dir, "python3", &body);
    let wheel = r#"
import sys, zipfile
with zipfile.ZipFile(sys.argv[1] + "/wheel.whl", "w") as z:
    for i in range(200):
        z.writestr(f"nvidia/cu13/include/h{i}.h", "/* filler */\n" * 200)
    z.writestr("nvidia/cu13/include/cuda.h", "/* the wheel's cuda.h */\n")
"#;
    let out = run(Command::new(python).arg("-c").arg(wheel).arg(dir));
    assert!(out.status.success(), "fake wheel: {}", text(&out));
}

#[test]
fn concurrent_fetches_agree_and_leave_one_complete_copy() {
    let Some(python) = real_python() else {
        return skip("no python3 here (cargo xtask headers needs it)");
    };
    let stubs = temp_dir();
    stub_pip(stubs.path(), &python);
    let cache = stubs.path().join("cache");
    let children: Vec<_> = (0..4)
        .map(|_| {
            xtask(&["headers", "13.5"])
                .env("PATH", path_with(stubs.path(), &[]))
                .env("LIBCUDA_SYS_HEADER_CACHE", &cache)
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .expect("spawn cargo xtask headers")
        })
        .collect();
    let include = cache.join("13.5/nvidia/cu13/include");
    for child in children {
        let out = child.wait_with_output().expect("output");
        assert!(out.status.success(), "{}", text(&out));
        assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), include.to_str().unwrap());
    }
    assert_eq!(fs::read_to_string(include.join("cuda.h")).unwrap(), "/* the wheel's cuda.h */\n");
    // Each run's own copy is gone: renamed into place, or dropped for the winner's.
    let entries: Vec<String> = fs::read_dir(&cache)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(entries, ["13.5"], "left in the cache");
}

/// A fetch interrupted (killed: Ctrl-C, or anything else) leaves its unpacking
/// directory; the next run removes it, and only it.
#[test]
fn an_interrupted_fetch_is_swept_by_the_next_run() {
    use std::os::unix::process::{CommandExt, ExitStatusExt};
    let Some(python) = real_python() else {
        return skip("no python3 here (cargo xtask headers needs it)");
    };
    let stubs = temp_dir();
    stub_pip(stubs.path(), &python);
    let cache = stubs.path().join("cache");
    let headers = || {
        let mut cmd = xtask(&["headers", "13.5"]);
        cmd.env("PATH", path_with(stubs.path(), &[])).env("LIBCUDA_SYS_HEADER_CACHE", &cache);
        cmd
    };
    let entries = || -> Vec<String> {
        fs::read_dir(&cache)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect()
    };
    // A live run's directory, which the sweep must leave: its lock is held
    // here, and the pid in its name (as runs named theirs before the lock) is
    // beyond pid_max, as another pid namespace's may be.
    fs::create_dir_all(&cache).unwrap();
    let live = ".partial-13.0.4194305.keep".to_string();
    fs::create_dir(cache.join(&live)).unwrap();
    let held = fs::File::create(cache.join(&live).join(".lock")).unwrap();
    held.lock().unwrap();
    // A process group of its own, killed as a whole as Ctrl-C would interrupt it,
    // pip too. SIGKILL: a SIGINT could be ignored where the tests run in the
    // background (`nohup`), and no process drops its `TempDir` on either.
    let mut child =
        headers().process_group(0).stdout(Stdio::null()).stderr(Stdio::null()).spawn().unwrap();
    let started = std::time::Instant::now();
    // Once its directory has its lock file: a directory still being set up stays.
    let locked = || entries().iter().any(|e| cache.join(e).join(".lock").is_file() && *e != live);
    while !locked() && started.elapsed().as_secs() < 30 {
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let group = format!("-{}", child.id());
    let kill = Command::new("kill").args(["-KILL", "--", &group]).status().unwrap();
    assert!(kill.success());
    let status = child.wait().unwrap();
    assert_eq!(status.signal(), Some(9), "the run ended before it was killed: {status:?}");
    let abandoned = entries();
    assert!(abandoned.iter().any(|e| e.starts_with(".partial-13.5.")), "{abandoned:?}");

    let out = run(&mut headers());
    assert!(out.status.success(), "{}", text(&out));
    let mut left = entries();
    left.sort();
    assert_eq!(left, [live, "13.5".to_string()], "left in the cache");
    drop(held);
}

// ---------------------------------------------------------------------------
// cargo xtask setup, and the commands that start with it
// ---------------------------------------------------------------------------

/// `xtask args` with the stubs in `stubs` first on PATH, the directories that
/// hold any of `hide` left out, and a header cache of its own.
fn with_stubs(args: &[&str], stubs: &Path, hide: &[&str]) -> Command {
    let mut cmd = xtask(args);
    cmd.env("PATH", path_with(stubs, hide)).env("LIBCUDA_SYS_HEADER_CACHE", stubs.join("cache"));
    cmd
}

/// A complete copy of CUDA `version`'s headers (12.x or 13.x) in the header
/// cache `cache`, as a fetch leaves one, so that setup hands it out without
/// pip: its include directory.
fn cached_headers(cache: &Path, version: &str) -> PathBuf {
    let copy = cache.join(version);
    let (sub, wheel) = match version.starts_with("12.") {
        true => ("nvidia/cuda_runtime/include", "nvidia_cuda_runtime_cu12"),
        false => ("nvidia/cu13/include", "nvidia_cuda_runtime"),
    };
    let include = copy.join(sub);
    fs::create_dir_all(&include).unwrap();
    fs::write(include.join("cuda.h"), format!("/* {version} */\n")).unwrap();
    let wheel = format!("{wheel}-{version}.0-py3-none-manylinux2014_x86_64.whl\n");
    fs::write(copy.join("WHEEL"), wheel).unwrap();
    include
}

/// Wrong arguments, and a bundle directory that is not a bundle's, are
/// refused before setup or a build runs; the directory is kept.
#[test]
fn refusals_come_before_anything_runs() {
    let stubs = temp_dir();
    recording_stubs(stubs.path(), &["apt-get", "sudo", "python3", "cargo"]);
    let dir = stubs.path().join("sources");
    fs::create_dir_all(&dir).unwrap();
    fs::write(dir.join("keep.rs"), "fn main() {}\n").unwrap();
    let dir = dir.to_str().unwrap();
    for (args, says) in [
        (&["report", "--jsn"][..], "usage: cargo xtask report"),
        (&["test", "--all"][..], "usage: cargo xtask test"),
        (&["gpu-bundle", "13.0", dir][..], "is not empty and holds no bundle"),
        (&["bench-calls-bundle", "13.0", dir][..], "is not empty and holds no bundle"),
    ] {
        let out = run(&mut with_stubs(args, stubs.path(), &[]));
        assert!(!out.status.success() && text(&out).contains(says), "{args:?}: {}", text(&out));
        assert_eq!(calls(stubs.path()), "", "{args:?}: something ran before the refusal");
    }
    assert!(Path::new(dir).join("keep.rs").is_file(), "a bundle deleted the directory");
}

/// A usage error of `report` or `test` has an exit status none of the
/// report's other statuses has (setup's among them), the report's for one;
/// with `--json`, the report's error object on stdout.
#[test]
fn a_usage_error_has_an_exit_status_of_its_own() {
    let stubs = temp_dir();
    recording_stubs(stubs.path(), &["apt-get", "sudo", "python3", "cargo"]);
    let statuses = report_exit_statuses();
    for args in [
        &["report", "--jsn"][..],
        &["report", "--json", "--jsn"],
        &["test", "--all"],
        &["rust-version", "1.85"],
    ] {
        let out = run(&mut with_stubs(args, stubs.path(), &[]));
        let code = out.status.code().expect("an exit status");
        let shared: Vec<_> = statuses.iter().filter(|(n, v)| *v == code && n != "USAGE").collect();
        assert!(shared.is_empty(), "{args:?}: exit status {code} is the report's {shared:?}");
        assert_eq!(code, report_exit_status("USAGE"), "{args:?}: {}", text(&out));
        assert_eq!(calls(stubs.path()), "", "{args:?}: something ran before the refusal");
        if args.contains(&"--json") {
            let json: serde_json::Value = serde_json::from_slice(&out.stdout)
                .unwrap_or_else(|e| panic!("{args:?}: no JSON ({e}): {}", text(&out)));
            assert_eq!(json["status"]["exit_code"], code, "{json}");
            let message = json["error"]["message"].as_str().unwrap_or_default();
            assert!(message.contains("\"--jsn\""), "{json}");
            assert!(json["error"]["usage"].as_str().is_some_and(|u| u.contains("xtask report")));
        } else {
            assert!(out.stdout.is_empty(), "{args:?}: {}", text(&out));
        }
    }
}

#[test]
fn setup_stops_when_a_fetch_fails_and_asks_for_the_trimmed_version() {
    let stubs = temp_dir();
    recording_stubs(stubs.path(), &["apt-get", "sudo", "python3"]);
    let out = run(with_stubs(&["setup"], stubs.path(), &[]).env("XTASK_CUDA_HEADERS", " 12.4 "));
    assert_eq!(out.status.code(), Some(report_exit_status("SETUP")), "{}", text(&out));
    assert!(out.stdout.is_empty(), "{}", text(&out));
    let calls = calls(stubs.path());
    assert!(
        calls.contains("-m pip download") && calls.contains(" nvidia-cuda-runtime-cu12==12.4.*"),
        "{calls}"
    );
}

#[test]
fn setup_says_when_there_is_no_python() {
    let stubs = temp_dir();
    recording_stubs(stubs.path(), &["apt-get", "sudo"]);
    let out =
        run(with_stubs(&["setup"], stubs.path(), &["python3"]).env("XTASK_CUDA_HEADERS", "12.0"));
    assert_eq!(out.status.code(), Some(report_exit_status("SETUP")), "{}", text(&out));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("no python3 on PATH"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn setup_stops_without_a_toolkit_or_headers() {
    let stubs = temp_dir();
    recording_stubs(stubs.path(), &["apt-get", "sudo", "python3"]);
    let out = run(&mut with_stubs(&["setup"], stubs.path(), &["nvcc"]));
    if String::from_utf8_lossy(&out.stderr).contains("using the CUDA headers already") {
        return skip("a CUDA toolkit is installed here");
    }
    assert_eq!(out.status.code(), Some(report_exit_status("SETUP")), "{}", text(&out));
    assert!(out.stdout.is_empty(), "{}", text(&out));
    assert!(String::from_utf8_lossy(&out.stderr).contains("(no CUDA toolkit found)"));
}

/// A variable that names no headers stops setup with its status, naming it.
#[test]
fn setup_stops_for_a_variable_that_names_no_headers() {
    let stubs = temp_dir();
    recording_stubs(stubs.path(), &["apt-get", "sudo", "python3"]);
    for var in ["LIBCUDA_SYS_INCLUDE_DIR", "CUDA_PATH"] {
        let mut cmd = with_stubs(&["setup"], stubs.path(), &[]);
        cmd.env(var, "/nonexistent/cuda");
        let out = run(&mut cmd);
        assert_eq!(out.status.code(), Some(report_exit_status("SETUP")), "{var}: {}", text(&out));
        assert!(
            text(&out).contains(&format!("{var}=/nonexistent/cuda holds no")),
            "{}",
            text(&out)
        );
    }
}

/// A part of a name that no check holds is an error, not a run of nothing.
#[test]
fn fallback_tests_with_a_filter_that_matches_nothing_fail() {
    let out = run(&mut xtask(&["fallback-tests", "no-such-check-name"]));
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(
        text(&out).contains("no suite or check's name holds `no-such-check-name`"),
        "{}",
        text(&out)
    );
}

#[test]
fn setup_test_and_report_stop_for_a_version_without_headers() {
    let statuses = report_exit_statuses();
    let setup_failed = report_exit_status("SETUP");
    assert_eq!(
        statuses.iter().filter(|(_, v)| *v == setup_failed).count(),
        1,
        "the report's exit statuses are not distinct: {statuses:?}"
    );
    let stubs = temp_dir();
    recording_stubs(stubs.path(), &["apt-get", "sudo", "cargo"]);
    for args in [&["setup"][..], &["test"][..], &["report"][..], &["report", "--json"][..]] {
        for version in ["99", "11.0"] {
            let out = run(with_stubs(args, stubs.path(), &[]).env("XTASK_CUDA_HEADERS", version));
            assert_eq!(out.status.code(), Some(setup_failed), "{args:?} {version}: {}", text(&out));
            assert!(out.stdout.is_empty(), "{args:?} {version}: {}", text(&out));
            assert!(!calls(stubs.path()).contains("cargo"), "{args:?} {version}: cargo ran");
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(stderr.contains(&format!("setup: no CUDA {version} headers")), "{stderr}");
        }
    }
}

/// A relative `LIBCUDA_SYS_HEADER_CACHE` gives an absolute include directory:
/// the exported one holds from any directory a build then runs in.
#[test]
fn a_relative_header_cache_gives_an_absolute_include_dir() {
    let stubs = temp_dir();
    recording_stubs(stubs.path(), &["apt-get", "sudo", "python3"]);
    let include = cached_headers(&stubs.path().join("cache"), "12.4");
    let out = run(with_stubs(&["setup"], stubs.path(), &[])
        .current_dir(stubs.path())
        .env("LIBCUDA_SYS_HEADER_CACHE", "cache")
        .env("XTASK_CUDA_HEADERS", "12.4"));
    assert!(out.status.success(), "{}", text(&out));
    let exported = String::from_utf8_lossy(&out.stdout);
    assert!(
        exported.contains(&format!("export LIBCUDA_SYS_INCLUDE_DIR={}", include.display())),
        "{}",
        text(&out)
    );
}

#[test]
fn report_runs_with_the_headers_setup_fetched_and_keeps_the_reports_status() {
    let stubs = temp_dir();
    recording_stubs(stubs.path(), &["apt-get", "sudo", "python3"]);
    let include = cached_headers(&stubs.path().join("cache"), "12.4");
    let static_table = report_exit_status("STATIC");
    let log = stubs.path().join("cargo-calls");
    stub(
        stubs.path(),
        "cargo",
        &format!(
            "echo \"$LIBCUDA_SYS_INCLUDE_DIR $*\" >> \"{}\"\nexit {static_table}",
            log.display()
        ),
    );
    let out =
        run(with_stubs(&["report", "--json"], stubs.path(), &[]).env("XTASK_CUDA_HEADERS", "12.4"));
    assert_eq!(out.status.code(), Some(static_table), "{}", text(&out));
    assert_eq!(
        fs::read_to_string(&log).unwrap_or_default(),
        format!("{} run --quiet -p mempool-report -- --json\n", include.display()),
        "{}",
        text(&out)
    );
    assert_eq!(calls(stubs.path()), "", "pip or apt-get ran");
    let out = run(with_stubs(&["setup"], stubs.path(), &[]).env("XTASK_CUDA_HEADERS", "12.4"));
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        format!("export LIBCUDA_SYS_INCLUDE_DIR={}\n", include.display())
    );
}

/// libclang where bindgen looks for it (LLVM's trees, the multiarch directories).
fn libclang_installed() -> Option<PathBuf> {
    let dirs = ["/usr/lib"].iter().flat_map(|d| fs::read_dir(d).into_iter().flatten().flatten());
    dirs.map(|e| e.path())
        .flat_map(|d| [d.join("lib"), d])
        .flat_map(|d| fs::read_dir(d).into_iter().flatten().flatten())
        .map(|e| e.path())
        .find(|p| p.file_name().unwrap_or_default().to_string_lossy().starts_with("libclang-"))
}

#[test]
fn setup_finds_libclang_without_ldconfig_on_path() {
    let Some(libclang) = libclang_installed() else {
        return skip("no libclang installed here to be found");
    };
    let stubs = temp_dir();
    // Succeeding, so that an install would go on to name libclang.
    recording_stubs_exiting(stubs.path(), &["apt-get", "sudo"], 0);
    // Headers of the user's own, so that setup fetches none.
    let include = stubs.path().join("include");
    fs::create_dir_all(&include).unwrap();
    fs::write(include.join("cuda.h"), "#define CUDA_VERSION 13000\n").unwrap();
    let mut cmd = with_stubs(&["setup"], stubs.path(), &["ldconfig"]);
    cmd.env("LIBCUDA_SYS_INCLUDE_DIR", &include);
    let out = run(&mut cmd);
    assert!(out.status.success(), "{}", text(&out));
    let calls = calls(stubs.path());
    assert!(
        !calls.contains("libclang") && !text(&out).contains("installing libclang"),
        "setup reinstalled libclang ({} is there): {calls}\n{}",
        libclang.display(),
        text(&out)
    );
}

/// libclang without clang's resource headers (Debian's `libclang1-N` alone):
/// setup installs them. The headers are hidden in a private mount namespace
/// (`unshare -m`, root), each `clang` directory beside a libclang covered by
/// an empty one.
#[test]
fn setup_installs_clangs_resource_headers_where_libclang_lacks_them() {
    let Some(libclang) = libclang_installed() else {
        return skip("no libclang installed here to be found");
    };
    let unshare = Command::new("unshare").args(["-m", "true"]).output();
    if !unshare.is_ok_and(|o| o.status.success()) {
        return skip(
            "`unshare -m` is not available (root and util-linux are needed to hide headers)",
        );
    }
    let libdirs = ["/usr/lib", "/usr/lib64", "/usr/local/lib", "/usr/local"];
    let mut hide: Vec<PathBuf> = libdirs
        .iter()
        .flat_map(|d| fs::read_dir(d).into_iter().flatten().flatten())
        .flat_map(|e| [e.path().join("lib/clang"), e.path().join("clang")])
        .chain(libdirs.iter().map(|d| Path::new(d).join("clang")))
        .filter(|d| d.is_dir())
        .collect();
    hide.sort();
    hide.dedup();
    let stubs = temp_dir();
    recording_stubs_exiting(stubs.path(), &["apt-get", "sudo"], 0);
    let empty = stubs.path().join("empty");
    fs::create_dir(&empty).unwrap();
    let include = stubs.path().join("include");
    fs::create_dir_all(&include).unwrap();
    fs::write(include.join("cuda.h"), "#define CUDA_VERSION 13000\n").unwrap();
    let setup = with_stubs(&["setup"], stubs.path(), &[]);
    let mut cmd = Command::new("unshare");
    let script = "empty=$1; shift; for d in \"$@\"; do mount --bind \"$empty\" \"$d\" || exit 99; done; exec \"$XTASK\" setup";
    cmd.args(["-m", "sh", "-c", script, "sh"]).arg(&empty).args(&hide);
    cmd.current_dir(root()).env("XTASK", setup.get_program());
    for (k, v) in setup.get_envs() {
        match v {
            Some(v) => cmd.env(k, v),
            None => cmd.env_remove(k),
        };
    }
    // Headers of the user's own, so that setup fetches none.
    cmd.env("LIBCUDA_SYS_INCLUDE_DIR", &include);
    let out = run(&mut cmd);
    assert!(out.status.success(), "{}", text(&out));
    let calls = calls(stubs.path());
    let install = calls.lines().find(|l| l.contains(" install "));
    assert!(
        install.is_some_and(|l| l.contains("libclang-common-") || l.contains("libclang-dev")),
        "setup installed nothing for {} without its resource headers (hidden: {hide:?}): {calls}\n{}",
        libclang.display(),
        text(&out)
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("stddef.h"), "{}", text(&out));
}

// ---------------------------------------------------------------------------
// cargo xtask gpu-bundle, bench-calls-bundle: what a bundle writes and removes
// ---------------------------------------------------------------------------

/// Stubs for a bundle made without building: a `cargo` whose builds name
/// shell scripts in `stubs/built` as the executables (the test binary the one
/// `stubs/test-name` names: `test_name` to begin with), and 13.0 headers in
/// the cache.
fn bundle_stubs(stubs: &Path, test_name: &str) {
    let built = stubs.join("built");
    fs::create_dir_all(&built).unwrap();
    for name in
        ["gpu_test", "other_test", "mempool-report", "call_overhead", "cudarc-calls", "nvrtc"]
    {
        stub(&built, name, &format!("echo \"fake {name}\""));
    }
    fs::write(stubs.join("test-name"), test_name).unwrap();
    // Cargo's messages and metadata, as it writes them, for packages in `/x`.
    let id = |package: &str| format!("path+file:///x#{package}@0.0.0");
    let artifact = |package: &str, target: &str, test: bool, exe: &str| {
        serde_json::json!({
            "reason": "compiler-artifact",
            "package_id": id(package),
            "manifest_path": "/x/Cargo.toml",
            "target": {
                "kind": [if test { "test" } else { "bin" }], "crate_types": ["bin"],
                "name": target, "src_path": "/x/src/main.rs", "edition": "2021",
                "doc": true, "doctest": false, "test": true
            },
            "profile": {
                "opt_level": "0", "debuginfo": 0, "debug_assertions": true,
                "overflow_checks": true, "test": test
            },
            "features": [], "filenames": [], "fresh": false,
            "executable": format!("{}/{exe}", built.display())
        })
        .to_string()
    };
    let package = |name: &str| {
        serde_json::json!({
            "name": name, "version": "0.0.0", "id": id(name), "source": null,
            "dependencies": [], "targets": [], "features": {},
            "manifest_path": "/x/Cargo.toml"
        })
    };
    let metadata = serde_json::json!({
        "packages": [package("libcuda-sys"), package("mempool-report")],
        "workspace_members": [id("libcuda-sys"), id("mempool-report")],
        "resolve": null, "workspace_root": "/x", "target_directory": "/x/target", "version": 1
    });
    let test = artifact("libcuda-sys", "$test", true, "$test");
    let lines = [
        artifact("mempool-report", "mempool-report", false, "mempool-report"),
        artifact("libcuda-sys", "call_overhead", false, "call_overhead"),
        artifact("cudarc-calls", "cudarc-calls", false, "cudarc-calls"),
    ];
    // The docs' recipe crate (`recipe-nvrtc`), built by its manifest's path.
    let recipe = artifact("nvrtc-recipe", "nvrtc", true, "nvrtc");
    let body = format!(
        "if [ \"$1\" = metadata ]; then echo '{metadata}'; exit; fi\n\
         case \" $* \" in *\" --manifest-path Cargo.toml \"*) echo '{recipe}'; exit;; esac\n\
         test=$(cat \"{}\")\necho '{test}' | sed \"s/\\$test/$test/g\"\necho '{}'",
        stubs.join("test-name").display(),
        lines.join("'\necho '")
    );
    stub(stubs, "cargo", &body);
    cached_headers(&stubs.join("cache"), "13.0");
    // NVRTC's tree for the recipe's crate, as `cargo xtask headers lib` leaves it.
    let nvrtc = stubs.join("cache/lib-nvidia-cuda-nvrtc-13.0.x");
    fs::create_dir_all(nvrtc.join("nvidia/cu13/include/nv")).unwrap();
    fs::write(nvrtc.join("nvidia/cu13/include/nv/target"), "").unwrap();
    fs::write(nvrtc.join("WHEEL"), "nvidia_cuda_nvrtc-13.0.88-py3-none-manylinux2014_x86_64.whl\n")
        .unwrap();
}

fn bundle(command: &str, stubs: &Path, dir: &Path) -> Output {
    run(&mut with_stubs(&[command, "13.0", dir.to_str().unwrap()], stubs, &[]))
}

/// Files under `dir`, relative, sorted.
fn files_under(dir: &Path) -> Vec<String> {
    fn walk(dir: &Path, base: &Path, out: &mut Vec<String>) {
        for e in fs::read_dir(dir).unwrap().flatten() {
            let path = e.path();
            if path.is_dir() {
                walk(&path, base, out);
            } else {
                out.push(path.strip_prefix(base).unwrap().to_string_lossy().into_owned());
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out.sort();
    out
}

#[test]
fn a_new_bundle_removes_only_what_the_last_one_wrote() {
    for (command, binary) in [("gpu-bundle", "bin/gpu_test"), ("bench-calls-bundle", "")] {
        let stubs = temp_dir();
        bundle_stubs(stubs.path(), "gpu_test");
        let dir = stubs.path().join("bundle");
        let out = bundle(command, stubs.path(), &dir);
        assert!(out.status.success(), "{command}: {}", text(&out));
        assert!(binary.is_empty() || dir.join(binary).is_file(), "{command}: {}", text(&out));
        // What a user copies back: results, and a file beside the binaries.
        fs::write(dir.join("results.txt"), "GPU results\n").unwrap();
        fs::write(dir.join("bin/notes"), "mine\n").unwrap();
        fs::write(stubs.path().join("test-name"), "other_test").unwrap();
        let out = bundle(command, stubs.path(), &dir);
        assert!(out.status.success(), "{command}: {}", text(&out));
        assert_eq!(fs::read_to_string(dir.join("results.txt")).unwrap(), "GPU results\n");
        assert_eq!(fs::read_to_string(dir.join("bin/notes")).unwrap(), "mine\n");
        if !binary.is_empty() {
            assert!(!dir.join(binary).exists(), "{command}: the earlier bundle's binary stayed");
            assert!(dir.join("bin/other_test").is_file(), "{command}: {:?}", files_under(&dir));
        }
    }
}

#[test]
fn a_bundle_names_the_files_in_its_way_and_deletes_nothing() {
    let stubs = temp_dir();
    bundle_stubs(stubs.path(), "gpu_test");
    let dir = stubs.path().join("bundle");
    let out = bundle("gpu-bundle", stubs.path(), &dir);
    assert!(out.status.success(), "{}", text(&out));
    // A file of the user's where the next bundle writes one of its own.
    fs::write(stubs.path().join("test-name"), "other_test").unwrap();
    fs::write(dir.join("bin/other_test"), "mine\n").unwrap();
    let before = files_under(&dir);
    let out = bundle("gpu-bundle", stubs.path(), &dir);
    assert!(!out.status.success(), "{}", text(&out));
    assert!(text(&out).contains("bin/other_test"), "{}", text(&out));
    assert_eq!(files_under(&dir), before, "{}", text(&out));
    assert_eq!(fs::read_to_string(dir.join("bin/other_test")).unwrap(), "mine\n");
    // A bundle whose mark lists no files (as before there were manifests):
    // refused before anything is built, naming what is in the way.
    fs::write(dir.join(".libcuda-sys-bundle"), "made by cargo xtask\n").unwrap();
    let out = bundle("gpu-bundle", stubs.path(), &dir);
    assert!(!out.status.success(), "{}", text(&out));
    assert!(text(&out).contains("info.txt, run.sh;"), "{}", text(&out));
    assert!(!text(&out).contains("bundle: cargo"), "it built first: {}", text(&out));
    assert_eq!(files_under(&dir), before, "{}", text(&out));
}

#[test]
fn a_bundle_writes_through_a_symlink_and_prints_a_command_that_runs() {
    let stubs = temp_dir();
    bundle_stubs(stubs.path(), "gpu_test");
    let target = stubs.path().join("the target");
    fs::create_dir(&target).unwrap();
    let link = stubs.path().join("a bundle, 'quoted'");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let out = bundle("gpu-bundle", stubs.path(), &link);
    assert!(out.status.success(), "{}", text(&out));
    assert!(fs::symlink_metadata(&link).unwrap().file_type().is_symlink(), "the link was replaced");
    assert!(target.join("run.sh").is_file() && target.join("bin/gpu_test").is_file());
    // The printed line, run by a POSIX shell from the repository root.
    let line = String::from_utf8(out.stdout.clone()).unwrap();
    let ran = run(Command::new("sh").arg("-c").arg(line.trim()).current_dir(root()));
    assert!(ran.status.success(), "{line}: {}", text(&ran));
    assert!(String::from_utf8_lossy(&ran.stdout).contains("fake gpu_test"), "{}", text(&ran));
}

/// `eval "$(cargo xtask setup)"` sets the include directory and runs nothing
/// else, whatever the path holds.
#[test]
fn setup_quotes_the_include_directory_for_the_shell() {
    let stubs = temp_dir();
    recording_stubs(stubs.path(), &["apt-get", "sudo", "python3"]);
    let pwned = stubs.path().join("pwned");
    let cache = PathBuf::from(format!(
        "{}/x'; touch {}; '\\ $HOME \"`true`\"",
        stubs.path().display(),
        pwned.display()
    ));
    let include = cached_headers(&cache, "12.4");
    let out = run(with_stubs(&["setup"], stubs.path(), &[])
        .env("XTASK_CUDA_HEADERS", "12.4")
        .env("LIBCUDA_SYS_HEADER_CACHE", &cache));
    assert!(out.status.success(), "{}", text(&out));
    let script = "eval \"$1\" && printf %s \"$LIBCUDA_SYS_INCLUDE_DIR\"";
    let shell = run(Command::new("sh")
        .args(["-c", script, "sh"])
        .arg(String::from_utf8(out.stdout.clone()).unwrap())
        .current_dir(stubs.path()));
    assert!(!pwned.exists(), "the export line ran a command: {}", text(&out));
    assert!(shell.status.success(), "{}\n{}", text(&out), text(&shell));
    assert_eq!(String::from_utf8_lossy(&shell.stdout), include.to_str().unwrap(), "{}", text(&out));
}
