//! Where headers may be, and what a build watches there. The places the
//! search asks after the variables: `nvcc` on `PATH`, pkg-config, conda,
//! Python's `sys.path` (pip wheels), the standard directories; Python, asked
//! once; the driver directory a user names (`LIBCUDA_SYS_LIB_DIR`), checked in
//! every mode. And what a build watches besides its own sources
//! (`rerun-if-changed`), so that a later build notices headers, `nvcc` or
//! libclang appearing where the search looks. The crate docs ("When the build
//! runs again") list the places.
//!
//! Cargo's rule, from its fingerprint code (`find_stale_file`,
//! `paths::mtime_recursive`): a path is stale when its modification time is
//! newer than the start of the script's last run; a directory's time is the
//! newest of every entry in its tree, symlinks followed, so a watched
//! directory is walked whole on every build; a path that does not exist is
//! always stale. Hence a directory is watched only where that is cheap and
//! quiet: it exists, its tree is small, and nothing the build writes is in it.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::env::{self, absolute, log, unreachable, Place, Target, UNREACHABLE};
use crate::model::{Error, Result, Watch, Why};

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

/// What Python says of where packages go: `sys.path`, and pip's user site
/// (`pip install --user`), which is on `sys.path` only once it exists.
#[derive(Default)]
struct Python {
    sys_path: Vec<PathBuf>,
    user_site: Option<PathBuf>,
}

impl Python {
    /// The directories `pip install` writes to.
    fn site_dirs(&self) -> Vec<PathBuf> {
        let mut dirs: Vec<PathBuf> = self
            .sys_path
            .iter()
            .filter(|d| d.ends_with("site-packages") || d.ends_with("dist-packages"))
            .cloned()
            .collect();
        if let Some(user) = self.user_site.as_ref().filter(|u| !dirs.contains(u)) {
            dirs.push(user.clone());
        }
        dirs
    }
}

/// `python3` (else `python`), asked once.
fn python() -> &'static Python {
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
        return windows_roots(target);
    }
    let mut roots = vec![PathBuf::from("/usr/local/cuda")];
    roots.extend(versioned(Path::new("/usr/local"), "cuda-"));
    roots.extend(["/opt/cuda", "/usr/lib/cuda", "/usr"].map(PathBuf::from));
    roots
}

/// NVIDIA's installer puts each toolkit in
/// `%ProgramFiles%\NVIDIA GPU Computing Toolkit\CUDA\vX.Y` and sets
/// `CUDA_PATH`, which a shell or service started before the install lacks.
/// `ProgramFiles` is the Windows host's; a build on another host (a cross
/// build) looks there only where the variable names a directory.
fn windows_roots(target: &Target) -> Vec<PathBuf> {
    let program_files = env::var("ProgramFiles")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| target.host.contains("windows").then(|| PathBuf::from(r"C:\Program Files")));
    let Some(program_files) = program_files else {
        log(
            "no ProgramFiles on this host: the toolkit's default Windows directory is not searched",
        );
        return Vec::new();
    };
    versioned(&program_files.join("NVIDIA GPU Computing Toolkit").join("CUDA"), "v")
}

/// The entries of `dir` named `<prefix>X.Y` (`cuda-12.8`, `v13.0`), newest
/// release first, by number: 13.0 before 12.9 and 9.2.
fn versioned(dir: &Path, prefix: &str) -> Vec<PathBuf> {
    let mut found: Vec<((u32, u32), PathBuf)> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            let (a, b) = name.strip_prefix(prefix)?.split_once('.')?;
            Some(((a.parse().ok()?, b.parse().ok()?), e.path()))
        })
        .collect();
    found.sort_by_key(|v| std::cmp::Reverse(v.0));
    found.into_iter().map(|(_, p)| p).collect()
}

/// The most entries a watched directory's tree may have: Cargo walks it on
/// every build, and a large tree is also one that changes for other reasons.
const MAX_ENTRIES: usize = 4096;

/// Files that every install through the system's package manager rewrites
/// (a toolkit, Debian's `nvidia-cuda-toolkit`, `libclang-dev`): one `stat` each.
const PACKAGE_DATABASES: [&str; 3] =
    ["/var/lib/dpkg/status", "/var/lib/rpm/rpmdb.sqlite", "/var/lib/rpm/Packages"];

/// What a build must never watch: the directories it writes, and those that
/// hold them, the crate or the user's home.
struct Rules {
    /// The target (or build) directory: `OUT_DIR`'s ancestor with Cargo's `CACHEDIR.TAG`.
    target_dir: PathBuf,
    manifest_dir: PathBuf,
    home: Option<PathBuf>,
}

impl Rules {
    fn new(target: &Target) -> Rules {
        let canonical = |p: &Path| p.canonicalize().unwrap_or_else(|_| p.to_path_buf());
        let out_dir = canonical(&target.out_dir);
        let target_dir = out_dir
            .ancestors()
            .find(|a| a.join("CACHEDIR.TAG").is_file())
            .unwrap_or(&out_dir)
            .to_path_buf();
        let home = env::var(if target.host.contains("windows") { "USERPROFILE" } else { "HOME" })
            .filter(|h| !h.is_empty())
            .map(|h| canonical(Path::new(&h)));
        Rules { target_dir, manifest_dir: canonical(&target.manifest_dir), home }
    }

    /// Why `dir` (canonical, existing) cannot be watched, if it cannot.
    fn refusal(&self, dir: &Path) -> Option<&'static str> {
        if dir.parent().is_none() {
            return Some("the root directory");
        }
        if self.home.as_deref().is_some_and(|h| h.starts_with(dir)) {
            return Some("it holds the home directory");
        }
        if self.target_dir.starts_with(dir) || dir.starts_with(&self.target_dir) {
            return Some("the build writes there");
        }
        if self.manifest_dir.starts_with(dir) {
            return Some("it holds libcuda-sys itself");
        }
        tree_refusal(dir)
    }

    /// The path that watches `place`: itself, or where it does not exist yet,
    /// the nearest directory above it (whose time changes when it appears).
    fn watch_for(&self, place: &Path) -> std::result::Result<PathBuf, String> {
        let existing = place.ancestors().find(|a| a.exists()).unwrap_or(place);
        let dir = existing.canonicalize().map_err(|e| e.to_string())?;
        match self.refusal(&dir) {
            None => Ok(dir),
            Some(why) => Err(format!("{} ({why})", dir.display())),
        }
    }
}

/// A tree Cargo can walk on every build without cost or false alarms: at most
/// [`MAX_ENTRIES`] entries, no Cargo project or target directory in it.
fn tree_refusal(dir: &Path) -> Option<&'static str> {
    let mut left = MAX_ENTRIES;
    let mut seen = std::collections::HashSet::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        // Cargo follows symlinks, and skips a loop (`/usr/bin/X11 -> .`): so does the count.
        if !dir.canonicalize().is_ok_and(|c| seen.insert(c)) {
            continue;
        }
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            if left == 0 {
                return Some("too large to walk on every build");
            }
            left -= 1;
            let name = entry.file_name();
            if name == "Cargo.toml" || name == "CACHEDIR.TAG" {
                return Some("it holds a Cargo project or target directory");
            }
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            }
        }
    }
    None
}

impl Watch {
    /// Watches `place` where the rules allow; `say`: a place that is not
    /// watched is named in the warning (a `PATH` entry is only logged: its
    /// toolkit's own root is named).
    fn add(&mut self, rules: &Rules, place: &Path, say: bool) {
        if !place.is_absolute() {
            return;
        }
        match rules.watch_for(place) {
            Ok(dir) => {
                if !self.paths.iter().any(|p| dir.starts_with(p)) {
                    self.paths.retain(|p| !p.starts_with(&dir));
                    self.paths.push(dir);
                }
            }
            Err(why) => {
                log(format!("not watched: {} through {why}", place.display()));
                if say {
                    self.unwatched.push(place.to_path_buf());
                }
            }
        }
    }
}

/// The automatic mode's fallback: `missing` is the error generation would have
/// given, which becomes the reason in the warning. Headers, libclang and
/// `nvcc` installed later end the fallback where they can be watched.
pub fn fallback(missing: &Error, target: &Target, undo: &'static str) -> Why {
    Why {
        reason: missing.summary.clone(),
        warn: true,
        undo,
        watch: fallback_watch(target, python()),
        release: None,
    }
}

/// A fallback's watch: where the headers, `nvcc` and libclang it lacks would
/// appear, in the places and order of the search (`discover`).
fn fallback_watch(target: &Target, python: &Python) -> Watch {
    let rules = Rules::new(target);
    let mut watch = Watch::default();
    for db in PACKAGE_DATABASES.map(Path::new).into_iter().filter(|p| p.is_file()) {
        watch.paths.push(db.to_path_buf());
    }
    // nvcc on PATH; relative and empty entries name no fixed place.
    if let Some(path) = env::var("PATH") {
        for dir in std::env::split_paths(&path) {
            watch.add(&rules, &dir, false);
        }
    }
    if let Some(prefix) = env::var("CONDA_PREFIX").filter(|p| !p.is_empty()) {
        let prefix = PathBuf::from(prefix);
        // Every conda install writes its record in conda-meta.
        watch.add(&rules, &prefix.join("conda-meta"), true);
        watch.add(&rules, &prefix.join("include"), true);
        for t in target.toolkit_target_dirs() {
            watch.add(&rules, &prefix.join("targets").join(t).join("include"), true);
        }
    }
    // `pip install` (`--user`, `--target` a directory on PYTHONPATH) puts the
    // headers under `nvidia/` of a site directory. Until some NVIDIA package made
    // it, only the site directory itself could stand for it, and every install
    // there (`maturin develop`, `pip install` of anything) would re-run the build:
    // it is named instead.
    let mut sites = python.site_dirs();
    if let Some(path) = env::var("PYTHONPATH") {
        sites.extend(std::env::split_paths(&path).filter(|d| python.sys_path.contains(d)));
    }
    for site in sites {
        let nvidia = site.join("nvidia");
        if nvidia.is_dir() {
            watch.add(&rules, &nvidia, true);
        } else if nvidia.is_absolute() && !watch.unwatched.contains(&nvidia) {
            log(format!("not watched: {} (not there yet)", nvidia.display()));
            watch.unwatched.push(nvidia);
        }
    }
    if !target.is_windows() {
        for root in ["/usr/local/cuda", "/opt/cuda", "/usr/include"] {
            watch.add(&rules, Path::new(root), true);
        }
    }
    if let Some(dir) = env::var("LIBCLANG_PATH").filter(|p| !p.is_empty()) {
        watch.add(&rules, Path::new(&dir), true);
    }
    watch
}

/// Generated bindings' watch: their include directory, where a header that
/// appears later (`cudaTypedefs.h`, the profiler's) changes them. The headers
/// bindgen read are watched one by one as well (its Cargo callbacks).
pub fn generated(target: &Target, include_dir: &Path) -> Watch {
    let mut watch = Watch::default();
    watch.add(&Rules::new(target), include_dir, false);
    watch
}
