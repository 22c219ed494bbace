//! What a build watches besides its own sources (`rerun-if-changed`), so that
//! a later build notices headers, `nvcc` or libclang appearing where the
//! search looks. The crate docs ("When the build runs again") list the places.
//!
//! Cargo's rule, from its fingerprint code (`find_stale_file`,
//! `paths::mtime_recursive`): a path is stale when its modification time is
//! newer than the start of the script's last run; a directory's time is the
//! newest of every entry in its tree, symlinks followed, so a watched
//! directory is walked whole on every build; a path that does not exist is
//! always stale. Hence a directory is watched only where that is cheap and
//! quiet: it exists, its tree is small, and nothing the build writes is in it.

use std::path::{Path, PathBuf};

use crate::env::{self, log, Target};
use crate::model::{Error, Python, Watch, Why};

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
/// `nvcc` installed later end the fallback where they can be watched; `python`
/// says where pip installs them.
pub fn fallback(missing: &Error, target: &Target, python: &Python) -> Why {
    Why {
        reason: missing.summary.clone(),
        warn: true,
        undo: "install them (pip install nvidia-cuda-runtime, or a toolkit) and libclang (apt-get install libclang-dev)",
        watch: fallback_watch(target, python),
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
