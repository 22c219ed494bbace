//! `cargo xtask setup`, and what `test`, `report`, `ci` and `abi-matrix` do
//! first: installs what a fresh Debian/Ubuntu machine lacks for building
//! libcuda-sys, and nothing where it is already there.
//!
//! - libclang (bindgen needs it) and pkg-config, through apt;
//! - CUDA headers: kept as they are when a toolkit is installed; otherwise, or
//!   when `XTASK_CUDA_HEADERS` names a version (e.g. 12.4), fetched from
//!   NVIDIA's pip wheels (`cargo xtask headers`) and handed to the builds as
//!   `LIBCUDA_SYS_INCLUDE_DIR`.
//!
//! When the headers cannot be had (a `XTASK_CUDA_HEADERS` with no wheel,
//! no network) setup says why and xtask ends with [`FAILED`], rather than let
//! the build find other headers (or none) and pass against those.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::headers;

/// xtask's exit status when setup fails: the report documents it (its
/// `EXIT_SETUP`) beside its own 0, 1 and 2, so it must differ from those.
pub const FAILED: u8 = 3;

/// What setup decided for the builds: applied to each cargo command the
/// other commands spawn.
#[derive(Debug, Default)]
pub struct Env {
    /// Headers setup fetched; `None` leaves discovery to the build script
    /// (a toolkit, or the caller's own `LIBCUDA_SYS_INCLUDE_DIR`).
    pub include_dir: Option<PathBuf>,
}

impl Env {
    pub fn apply<'a>(&self, cmd: &'a mut Command) -> &'a mut Command {
        if let Some(dir) = &self.include_dir {
            cmd.env("LIBCUDA_SYS_INCLUDE_DIR", dir);
        }
        cmd
    }

    /// `cargo args` in the workspace root, in this process's environment
    /// (the caller's toolkit variables stay) with setup's applied.
    pub fn cargo(&self, args: &[&str]) -> Command {
        let mut cmd = crate::cargo::in_root(args);
        self.apply(&mut cmd);
        cmd
    }
}

pub fn run(args: &[String]) -> std::result::Result<(), crate::Error> {
    if !args.is_empty() {
        return Err("usage: cargo xtask setup".to_string().into());
    }
    let env = prepare()?;
    // For a shell: `eval "$(cargo xtask setup)"`.
    if let Some(dir) = &env.include_dir {
        println!("export LIBCUDA_SYS_INCLUDE_DIR='{}'", dir.display());
    }
    Ok(())
}

/// libclang, pkg-config and the CUDA headers.
pub fn prepare() -> std::result::Result<Env, crate::Error> {
    tools();
    headers_env().map_err(|e| crate::Error::new(FAILED, format!("setup: {e}")))
}

/// libclang and pkg-config only, installed through apt where missing. A
/// failed install is said and not fatal: the build then says what it lacks.
pub fn tools() {
    if !has_libclang() {
        apt(&["libclang-dev"]);
    }
    if find_on_path("pkg-config").is_none() {
        apt(&["pkg-config"]);
    }
}

fn headers_env() -> crate::Result<Env> {
    let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
    if let Some(version) = var("XTASK_CUDA_HEADERS") {
        let version = version.to_string_lossy().trim().to_string();
        if headers::needs_fetch(&version) {
            ensure_pip();
        }
        let dir = headers::include_dir(&version).map_err(|e| {
            format!(
                "no CUDA {version} headers for XTASK_CUDA_HEADERS={version} ({e}); \
                 stopping instead of building against other headers"
            )
        })?;
        eprintln!(
            "setup: CUDA {version} headers (pip wheel) in {}",
            dir.display()
        );
        return Ok(Env {
            include_dir: Some(dir),
        });
    }
    if let Some(dir) = var("LIBCUDA_SYS_INCLUDE_DIR") {
        eprintln!(
            "setup: using LIBCUDA_SYS_INCLUDE_DIR={}",
            dir.to_string_lossy()
        );
        return Ok(Env::default());
    }
    if has_toolkit() {
        eprintln!("setup: using the CUDA toolkit already on this machine");
        return Ok(Env::default());
    }
    if headers::needs_fetch("13") {
        ensure_pip();
    }
    let dir = headers::include_dir("13").map_err(|e| {
        format!(
            "no CUDA toolkit found and the CUDA 13.x headers could not be fetched ({e}); \
             set LIBCUDA_SYS_INCLUDE_DIR to a directory holding cuda.h"
        )
    })?;
    eprintln!(
        "setup: no CUDA toolkit found; CUDA 13.x headers (pip wheel) in {}",
        dir.display()
    );
    Ok(Env {
        include_dir: Some(dir),
    })
}

/// A C compiler (`program` on `PATH`) and the C library header that shows its
/// sysroot is there, installed through apt (`packages`, space-separated) where
/// either is missing; an error saying what to install when that fails.
pub fn ensure_tool(program: &str, header: &Path, packages: &str) -> crate::Result {
    let present = || find_on_path(program).is_some() && header.is_file();
    if !present() {
        apt(&packages.split_whitespace().collect::<Vec<_>>());
    }
    if present() {
        Ok(())
    } else {
        Err(format!(
            "{program} or {} is missing: install {packages} (Debian/Ubuntu)",
            header.display()
        ))
    }
}

/// `apt-get install` of `packages`, through sudo unless root.
fn apt(packages: &[&str]) {
    eprintln!("setup: installing {} (apt-get)", packages.join(" "));
    let run = |args: &[&str]| {
        let mut cmd = if is_root() {
            Command::new(args[0])
        } else {
            let mut sudo = Command::new("sudo");
            sudo.arg(args[0]);
            sudo
        };
        cmd.args(&args[1..])
            .stdout(std::process::Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    };
    let installed = run(&["apt-get", "update", "-qq"])
        && run(&[
            &[
                "env",
                "DEBIAN_FRONTEND=noninteractive",
                "apt-get",
                "install",
                "-y",
                "-qq",
            ][..],
            packages,
        ]
        .concat());
    if !installed {
        eprintln!(
            "setup: apt-get could not install {}; install it yourself if the build asks for it",
            packages.join(" ")
        );
    }
}

#[cfg(unix)]
fn is_root() -> bool {
    extern "C" {
        fn geteuid() -> u32;
    }
    // SAFETY: no arguments, no failure.
    unsafe { geteuid() == 0 }
}

#[cfg(not(unix))]
fn is_root() -> bool {
    false
}

/// The Python that fetches headers needs pip: installed through apt where
/// Debian's python3 comes without it.
fn ensure_pip() {
    let has_pip = Command::new("python3")
        .args(["-m", "pip", "--version"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !has_pip {
        apt(&["python3-pip"]);
    }
}

/// Where bindgen (clang-sys) looks for libclang, and the directories the
/// loader's cache is built from (`/etc/ld.so.conf`): read here rather than
/// through `ldconfig -p`, which is not on a normal user's PATH on Debian.
fn has_libclang() -> bool {
    if std::env::var_os("LIBCLANG_PATH").is_some_and(|v| !v.is_empty()) {
        return true;
    }
    libclang_dirs()
        .iter()
        .flat_map(|d| read_dir(d))
        .any(|p| is_libclang(&file_name(&p)))
}

/// The directories libclang may be in: where clang-sys looks (LLVM's own
/// trees, the multiarch directories) and the loader's (`/etc/ld.so.conf`).
pub fn libclang_dirs() -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = ["/usr/lib64", "/usr/lib", "/usr/local/lib", "/lib", "/lib64"]
        .iter()
        .map(PathBuf::from)
        .collect();
    for entry in read_dir(Path::new("/usr/lib")) {
        let name = file_name(&entry);
        if name.starts_with("llvm-") {
            dirs.push(entry.join("lib"));
        } else if name.ends_with("-linux-gnu") {
            dirs.push(entry);
        }
    }
    for entry in read_dir(Path::new("/usr/local")) {
        if file_name(&entry).starts_with("llvm") {
            dirs.push(entry.join("lib"));
        }
    }
    dirs.extend(ld_so_conf(Path::new("/etc/ld.so.conf")));
    dirs.sort();
    dirs.dedup();
    dirs
}

/// `libclang.so`, `libclang.so.18`, `libclang-18.so.1`, ...
fn is_libclang(name: &str) -> bool {
    name.starts_with("libclang.so")
        || name
            .strip_prefix("libclang-")
            .is_some_and(|v| v.starts_with(|c: char| c.is_ascii_digit()) && v.contains(".so"))
}

/// The directories an ld.so.conf names, following its `include` globs (only
/// the `dir/*.conf` form Debian uses).
fn ld_so_conf(file: &Path) -> Vec<PathBuf> {
    let Ok(text) = std::fs::read_to_string(file) else {
        return Vec::new();
    };
    let mut dirs = Vec::new();
    for line in text
        .lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
    {
        if let Some(pattern) = line.strip_prefix("include ") {
            let pattern = Path::new(pattern.trim());
            if let (Some(dir), Some(name)) = (pattern.parent(), pattern.file_name()) {
                let suffix = name.to_string_lossy().trim_start_matches('*').to_string();
                for conf in read_dir(dir) {
                    if file_name(&conf).ends_with(&suffix) {
                        dirs.extend(ld_so_conf(&conf));
                    }
                }
            }
        } else if line.starts_with('/') {
            dirs.push(PathBuf::from(line));
        }
    }
    dirs
}

/// A toolkit the build script's discovery would find: its variables, `nvcc`,
/// `cuda.h` in the standard places or conda, or pip headers on Python's path.
fn has_toolkit() -> bool {
    let set = |name: &str| std::env::var_os(name).is_some_and(|v| !v.is_empty());
    if [
        "LIBCUDA_SYS_INCLUDE_DIR",
        "CUDA_PATH",
        "CUDA_HOME",
        "CUDA_ROOT",
        "CUDA_TOOLKIT_ROOT_DIR",
    ]
    .iter()
    .any(|v| set(v))
        || find_on_path("nvcc").is_some()
    {
        return true;
    }
    let mut includes: Vec<PathBuf> = [
        "/usr/local/cuda/include",
        "/opt/cuda/include",
        "/usr/lib/cuda/include",
        "/usr/include",
    ]
    .iter()
    .map(PathBuf::from)
    .collect();
    for entry in read_dir(Path::new("/usr/local")) {
        if file_name(&entry).starts_with("cuda-") {
            includes.push(entry.join("include"));
        }
    }
    if let Some(conda) = std::env::var_os("CONDA_PREFIX").filter(|v| !v.is_empty()) {
        let conda = PathBuf::from(conda);
        includes.push(conda.join("include"));
        includes.extend(read_dir(&conda.join("targets")).map(|t| t.join("include")));
    }
    includes.iter().any(|d| d.join("cuda.h").is_file()) || pip_headers_on_python_path()
}

fn pip_headers_on_python_path() -> bool {
    let Ok(out) = Command::new("python3")
        .args(["-c", "import json, sys; print(json.dumps(sys.path))"])
        .stderr(std::process::Stdio::null())
        .output()
    else {
        return false;
    };
    let paths: Vec<String> = serde_json::from_slice(&out.stdout).unwrap_or_default();
    paths.iter().any(|p| {
        ["nvidia/cu13/include", "nvidia/cuda_runtime/include"]
            .iter()
            .any(|sub| Path::new(p).join(sub).join("cuda.h").is_file())
    })
}

fn find_on_path(program: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .map(|d| d.join(program))
        .find(|p| p.is_file())
}

fn read_dir(dir: &Path) -> impl Iterator<Item = PathBuf> {
    std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .unwrap_or_default()
        .to_string_lossy()
        .into_owned()
}
