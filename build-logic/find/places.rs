//! The places the search asks after the variables: `nvcc` on `PATH`,
//! pkg-config, conda, Python's `sys.path` (pip wheels), the standard
//! directories; Python, asked once; and the driver directory a user names
//! (`LIBCUDA_SYS_LIB_DIR`), checked in every mode.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::env::{self, absolute, log, unreachable, Place, Target, UNREACHABLE};
use crate::model::{Error, Python, Result};

/// `LIBCUDA_SYS_LIB_DIR` (also target-prefixed), when the user named the
/// driver directory; it must be a directory.
pub fn lib_dir_override(target: &Target) -> Result<Option<PathBuf>> {
    match target.target_var("LIBCUDA_SYS_LIB_DIR") {
        Some((name, dir)) => explicit_lib_dir(&name, dir).map(Some),
        None => Ok(None),
    }
}

fn explicit_lib_dir(name: &str, dir: OsString) -> Result<PathBuf> {
    let dir = absolute(name, dir)?;
    if !dir.is_dir() {
        let (summary, what) = match (unreachable(&dir), dir.exists()) {
            (true, _) => (UNREACHABLE, UNREACHABLE),
            (false, true) => ("is not a directory", "is a file, not a directory"),
            (false, false) => ("is not a directory", "does not exist"),
        };
        return Err(Error::new(
            format!("{name}={} {summary}", dir.display()),
            format!(
                "{name} names the directory that holds libcuda.so (or libcuda.so.1, cuda.lib).\n\
                 It is set to {}, which {what}.\n\n\
                 Fix: point it at the driver's library directory (e.g. /usr/lib/x86_64-linux-gnu,\n\
                 /usr/local/nvidia/lib64, /usr/lib/wsl/lib), or unset it to let the build search: unset {name}",
                dir.display()
            ),
        ));
    }
    Ok(dir)
}
/// The places the search asks after the variables, in its order; each gives
/// candidate roots, or include directories (pip wheels, pkg-config).
pub const AUTOMATIC: [(&str, Place); 5] = [
    ("nvcc on PATH", nvcc_roots),
    ("pkg-config", pkg_config_roots),
    ("conda ($CONDA_PREFIX)", conda_roots),
    ("pip wheel", pip_include_dirs),
    ("standard location", standard_roots),
];

fn nvcc_roots(target: &Target) -> Vec<PathBuf> {
    let exe = if target.is_windows() { "nvcc.exe" } else { "nvcc" };
    let Some(path) = env::var("PATH") else {
        return Vec::new();
    };
    std::env::split_paths(&path)
        .map(|dir| dir.join(exe))
        .filter(|nvcc| nvcc.is_file())
        .filter_map(|nvcc| {
            let nvcc = nvcc.canonicalize().unwrap_or(nvcc);
            log(format!("found {}", nvcc.display()));
            nvcc.parent()?.parent().map(Path::to_path_buf)
        })
        .collect()
}

/// Every release with memory pools, newest first, for pkg-config's `cuda-X.Y`
/// and `/usr/local/cuda-X.Y`.
fn releases() -> impl Iterator<Item = (u32, u32)> {
    crate::model::known().rev()
}

fn pkg_config_roots(target: &Target) -> Vec<PathBuf> {
    if !target.is_native() && env::var("PKG_CONFIG_SYSROOT_DIR").is_none() {
        log("pkg-config skipped: cross-compiling without PKG_CONFIG_SYSROOT_DIR");
        return Vec::new();
    }
    let names =
        std::iter::once("cuda".to_string()).chain(releases().map(|(a, b)| format!("cuda-{a}.{b}")));
    let mut dirs = Vec::new();
    for (i, name) in names.enumerate() {
        // Every probe reads the same pkg-config variables: the first one registers
        // them, instead of one `rerun-if-env-changed` set per release name.
        match (target.pkg_config)(&name, i == 0) {
            Ok(include_paths) => {
                log(format!("pkg-config {name}: include paths {include_paths:?}"));
                dirs.extend(include_paths);
            }
            Err(env::Probe::NotInstalled) => {
                log("pkg-config is not installed");
                break;
            }
            // A `.pc` file that exists but does not parse is worth a line (pkg-config
            // itself calls it "not found"); an absent one (most names) is not.
            Err(env::Probe::Failed(why)) => {
                if let Some(file) = pc_file(&name) {
                    log(format!(
                        "pkg-config could not read {}, passed over: {}",
                        file.display(),
                        why.lines().find(|l| !l.trim().is_empty()).unwrap_or_default()
                    ));
                }
            }
        }
    }
    dirs.into_iter().map(|d| if d.ends_with("include") { d } else { d.join("include") }).collect()
}

/// `name.pc` in the directories pkg-config was told to search, if any.
fn pc_file(name: &str) -> Option<PathBuf> {
    ["PKG_CONFIG_PATH", "PKG_CONFIG_LIBDIR"]
        .iter()
        .filter_map(std::env::var_os)
        .flat_map(|paths| std::env::split_paths(&paths).collect::<Vec<_>>())
        .map(|dir| dir.join(format!("{name}.pc")))
        .find(|file| file.is_file())
}

fn conda_roots(target: &Target) -> Vec<PathBuf> {
    let Some(prefix) = env::var("CONDA_PREFIX").filter(|v| !v.is_empty()) else {
        return Vec::new();
    };
    let prefix = PathBuf::from(prefix);
    if target.is_windows() {
        vec![prefix.join("Library"), prefix]
    } else {
        vec![prefix]
    }
}

fn pip_include_dirs(target: &Target) -> Vec<PathBuf> {
    if !target.is_native() {
        log("pip wheels skipped: cross-compiling");
        return Vec::new();
    }
    // The interpreter's own view of its search path covers venvs, user sites
    // and PYTHONPATH without guessing their layout.
    env::var("VIRTUAL_ENV");
    env::var("PYTHONPATH");
    let mut dirs = Vec::new();
    for line in &python().sys_path {
        for sub in ["nvidia/cu13/include", "nvidia/cuda_runtime/include"] {
            let dir = line.join(sub);
            if dir.is_dir() && !dirs.contains(&dir) {
                dirs.push(dir);
            }
        }
    }
    if dirs.is_empty() {
        log("pip wheels: no nvidia/cu13 or nvidia/cuda_runtime include directory on Python's sys.path");
    }
    dirs
}

/// `python3` (else `python`), asked once.
pub fn python() -> &'static Python {
    static PYTHON: std::sync::OnceLock<Python> = std::sync::OnceLock::new();
    PYTHON.get_or_init(|| {
        let script = "import site, sys\n\
                      print(site.getusersitepackages() if site.ENABLE_USER_SITE else '')\n\
                      for p in sys.path:\n    print(p)";
        for python in ["python3", "python"] {
            let Ok(out) = Command::new(python).args(["-c", script]).output() else {
                log(format!("pip wheels: no {python} on PATH"));
                continue;
            };
            if !out.status.success() {
                log(format!("pip wheels: {python} could not print sys.path ({})", out.status));
                continue;
            }
            let text = String::from_utf8_lossy(&out.stdout);
            let mut lines = text.lines();
            let user_site = lines.next().filter(|l| !l.is_empty()).map(PathBuf::from);
            let sys_path = lines.filter(|l| !l.is_empty()).map(PathBuf::from).collect();
            return Python { sys_path, user_site };
        }
        log("pip wheels: no Python to ask for its sys.path, so none searched");
        Python::default()
    })
}

fn standard_roots(target: &Target) -> Vec<PathBuf> {
    if target.is_windows() {
        return Vec::new();
    }
    let mut roots = vec![PathBuf::from("/usr/local/cuda")];
    let mut versioned: Vec<((u32, u32), PathBuf)> = std::fs::read_dir("/usr/local")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            let (a, b) = name.strip_prefix("cuda-")?.split_once('.')?;
            Some(((a.parse().ok()?, b.parse().ok()?), e.path()))
        })
        .collect();
    versioned.sort_by_key(|v| std::cmp::Reverse(v.0));
    roots.extend(versioned.into_iter().map(|(_, p)| p));
    roots.extend(["/opt/cuda", "/usr/lib/cuda", "/usr"].map(PathBuf::from));
    roots
}
