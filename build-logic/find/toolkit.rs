//! Find `cuda.h`, in the order the crate docs give ("Finding the
//! headers"); every candidate is logged with why it was taken or passed over.
//! Variables that are set are checked in every mode; the automatic search runs
//! only where the bindings are to be generated.

use std::path::{Path, PathBuf};

use crate::env::{self, log, Place, Target};
use crate::model::{Error, Result, Toolkit};

/// What was looked at, for the error message when nothing fits.
struct Tried {
    lines: Vec<String>,
}

impl Tried {
    fn note(&mut self, source: &str, path: &Path, outcome: &str) {
        let line = format!("{source}: {} ({outcome})", path.display());
        log(format!("candidate {line}"));
        self.lines.push(line);
    }
}

pub const ROOT_VARS: [&str; 4] = ["CUDA_PATH", "CUDA_HOME", "CUDA_ROOT", "CUDA_TOOLKIT_ROOT_DIR"];

/// The outcome of a search that did not fail: a toolkit, or the error that
/// says where nothing was found (an error only when generation was asked for).
pub enum Search {
    Found(Toolkit),
    NotFound(Error),
}

impl Search {
    pub fn found(self) -> Option<Toolkit> {
        match self {
            Search::Found(t) => Some(t),
            Search::NotFound(_) => None,
        }
    }
}

/// `everywhere`: every place in the order above; otherwise only the variables
/// that name a directory (1 and 2), to check them.
/// `automatic`: the places of the search after the variables, in order
/// (`find::places::AUTOMATIC`).
pub fn discover(target: &Target, everywhere: bool, automatic: &[(&str, Place)]) -> Result<Search> {
    match search(target, everywhere, automatic)? {
        Search::Found(toolkit) => settle(toolkit).map(Search::Found),
        not_found => Ok(not_found),
    }
}

/// The toolkit as its resolved directories: the bindings, `DEP_CUDA_INCLUDE`
/// and every dependent then name the same files, even if a symlink such as
/// `/usr/local/cuda` is later pointed at another toolkit (which Cargo cannot
/// see: rebuild with `cargo clean -p libcuda-sys` after switching). And paths
/// that cannot travel in build-script output are refused here, not truncated.
fn settle(mut toolkit: Toolkit) -> Result<Toolkit> {
    let what = format!("{}: the CUDA include directory", toolkit.found_by);
    if let Ok(resolved) = toolkit.include_dir.canonicalize() {
        // A symlink with a plain path to a directory whose own path cannot be
        // passed on (`:`, a line break, non-UTF-8) is used as it is.
        if resolved != toolkit.include_dir && passable(&what, &resolved).is_ok() {
            log(format!("{} resolves to {}", toolkit.include_dir.display(), resolved.display()));
            toolkit.include_dir = resolved;
        }
    }
    if let Some(root) = &toolkit.root {
        let resolved = root.canonicalize().unwrap_or_else(|_| root.clone());
        if passable("the CUDA root", &resolved).is_ok() {
            toolkit.root = Some(resolved);
        }
    }
    passable(&what, &toolkit.include_dir)?;
    Ok(toolkit)
}

/// Whether `path` can travel in build-script output intact: as one line of
/// UTF-8 text, and in `DEP_CUDA_INCLUDES`, a path list.
fn passable(what: &str, path: &Path) -> Result<()> {
    env::directive_path(what, path)?;
    if std::env::join_paths([path]).is_err() {
        return Err(Error::new(
            format!("{what} {} contains the path-list separator", path.display()),
            "DEP_CUDA_INCLUDES passes the include directory on as a path list, which this path would split.\n\n\
             Fix: use a directory without `:` (`;` on Windows) in its path, or a symlink to it whose\n\
             path has none, and point the variable at the symlink.",
        ));
    }
    Ok(())
}

/// Whether `dir` holds `cuda.h`, or why not in words that name the fault: a
/// directory this user may not read is not "without cuda.h", nor is one whose
/// `cuda.h` is a broken link or a directory.
fn has_cuda_h(dir: &Path) -> std::result::Result<bool, String> {
    let header = dir.join("cuda.h");
    let denied = |e: &std::io::Error| e.kind() == std::io::ErrorKind::PermissionDenied;
    match std::fs::metadata(&header) {
        Ok(m) if m.is_file() => Ok(true),
        Ok(m) if m.is_dir() => Err("holds a cuda.h that is a directory".into()),
        Ok(_) => Err("holds a cuda.h that is not a regular file".into()),
        Err(e) if denied(&e) => Err("cannot be read: permission denied".into()),
        // ELOOP: the link points back at itself; the directory's own, or cuda.h's.
        Err(e) if e.raw_os_error() == Some(40) => match std::fs::metadata(dir) {
            Err(e) if e.raw_os_error() == Some(40) => Err("is a symlink loop".into()),
            _ => Err("holds a cuda.h that is a symlink loop".into()),
        },
        Err(_) if std::fs::symlink_metadata(&header).is_ok() => {
            let to = std::fs::read_link(&header).unwrap_or_default();
            Err(format!("holds a cuda.h that is a broken symlink (to {})", to.display()))
        }
        Err(_) => match std::fs::read_dir(dir) {
            Err(e) if denied(&e) => Err("cannot be read: permission denied".into()),
            _ => Ok(false),
        },
    }
}

fn search(target: &Target, everywhere: bool, automatic: &[(&str, Place)]) -> Result<Search> {
    let mut tried = Tried { lines: Vec::new() };

    // Checked before the include-directory override, which wins over them:
    // a toolkit variable that is set but wrong is an error whatever is used.
    let (roots, warnings) = root_vars()?;
    let from_root = match roots.into_iter().next() {
        Some((name, root)) => {
            let include = include_dirs(target, &root)
                .into_iter()
                .map(|d| (has_cuda_h(&d), d))
                .find(|(has, _)| !matches!(has, Ok(false)));
            match include {
                Some((Ok(_), include_dir)) => Some((name, root, include_dir)),
                Some((Err(why), dir)) => {
                    return Err(explicit_error(&name, &root, &[dir], Some(why)))
                }
                None => {
                    return Err(explicit_error(&name, &root, &include_dirs(target, &root), None))
                }
            }
        }
        None => None,
    };

    if let Some((name, given)) = target.target_var("LIBCUDA_SYS_INCLUDE_DIR") {
        let dir = env::absolute(&name, given)?;
        match has_cuda_h(&dir) {
            Ok(true) => {}
            Ok(false) => return Err(explicit_error(&name, &dir, std::slice::from_ref(&dir), None)),
            Err(why) => {
                return Err(explicit_error(&name, &dir, std::slice::from_ref(&dir), Some(why)))
            }
        }
        tried.note(&name, &dir, "taken: holds cuda.h");
        if let Some((root_name, _, _)) = &from_root {
            log(format!("{name} wins over {root_name}"));
        }
        let root = toolkit_above(&dir);
        return Ok(Search::Found(Toolkit {
            lib_dirs: root.iter().flat_map(|r| toolkit_lib_dirs(target, r)).collect(),
            root,
            given: Some(dir.clone()),
            include_dir: dir,
            found_by: name,
            warnings: Vec::new(),
        }));
    }

    if let Some((name, root, include_dir)) = from_root {
        tried.note(&name, &include_dir, "taken: holds cuda.h");
        let mut toolkit = found(target, root.clone(), include_dir, name, warnings);
        toolkit.given = Some(root);
        return Ok(Search::Found(toolkit));
    }

    if !everywhere {
        log("no toolkit variable is set; the pregenerated bindings need no search");
        return Ok(Search::NotFound(not_found(target, &tried)));
    }

    for &(source, candidates) in automatic {
        let candidates = candidates(target);
        if candidates.is_empty() {
            tried.lines.push(format!("{source}: nothing to try"));
        }
        for candidate in candidates {
            // pip wheels and pkg-config name an include directory; the others a root.
            let (root, includes) = if candidate.ends_with("include") {
                (candidate.parent().map(Path::to_path_buf), vec![candidate.clone()])
            } else {
                (Some(candidate.clone()), include_dirs(target, &candidate))
            };
            for include in includes {
                let has = has_cuda_h(&include);
                if has == Ok(true) {
                    tried.note(source, &include, "taken: holds cuda.h");
                    let root = root.unwrap_or_else(|| include.clone());
                    return Ok(Search::Found(found(
                        target,
                        root,
                        include,
                        source.to_string(),
                        warnings,
                    )));
                }
                let why = match has {
                    Err(why) => why,
                    Ok(_) if include.is_dir() => "no cuda.h".into(),
                    Ok(_) => "not a directory".into(),
                };
                tried.note(source, &include, &why);
            }
        }
    }
    Ok(Search::NotFound(not_found(target, &tried)))
}

fn found(
    target: &Target,
    root: PathBuf,
    include_dir: PathBuf,
    found_by: String,
    warnings: Vec<String>,
) -> Toolkit {
    Toolkit {
        lib_dirs: toolkit_lib_dirs(target, &root),
        root: Some(root),
        include_dir,
        found_by,
        given: None,
        warnings,
    }
}

/// `(variable, path)` of each toolkit-root variable that is set, in order.
type RootVars = Vec<(String, PathBuf)>;

/// The toolkit-root variables that are set, and a warning for each one that
/// names another directory than the first.
fn root_vars() -> Result<(RootVars, Vec<String>)> {
    let set: RootVars = ROOT_VARS
        .iter()
        .filter_map(|name| {
            env::var(name)
                .filter(|v| !v.is_empty())
                .map(|v| env::absolute(name, v).map(|p| (name.to_string(), p)))
        })
        .collect::<Result<_>>()?;
    // Every one that is set must be a directory, the losers too: a typo in one
    // is never hidden by another.
    if let Some((name, path)) = set.iter().find(|(_, p)| !p.is_dir()) {
        return Err(explicit_error(name, path, &include_dirs_of(path), None));
    }
    let mut warnings = Vec::new();
    if let Some((winner, root)) = set.first() {
        log(format!("{winner} wins among {}", ROOT_VARS.join(", ")));
        for (other, path) in &set[1..] {
            if !same_dir(root, path) {
                warnings.push(format!(
                    "{winner}={} is used; {other}={} is ignored (they disagree; {} takes precedence over {other})",
                    root.display(),
                    path.display(),
                    winner
                ));
            }
        }
    }
    Ok((set, warnings))
}

fn same_dir(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

/// Include directories of a toolkit root: `include`, then the cross-target ones.
fn include_dirs(target: &Target, root: &Path) -> Vec<PathBuf> {
    let mut dirs = vec![root.join("include")];
    for t in target.toolkit_target_dirs() {
        dirs.push(root.join("targets").join(t).join("include"));
    }
    if target.is_windows() {
        dirs.push(root.join("Library").join("include"));
    }
    dirs
}

/// The toolkit that holds an include directory given by itself: above the
/// headers themselves, not above a symlink to them, and above `targets/<triple>`
/// (the toolkit's own `include` is a symlink into `targets/x86_64-linux/include`).
fn toolkit_above(include: &Path) -> Option<PathBuf> {
    let real = include.canonicalize().unwrap_or_else(|_| include.to_path_buf());
    let parent = real.parent()?;
    match parent.parent() {
        Some(targets) if targets.file_name().is_some_and(|n| n == "targets") => {
            targets.parent().map(Path::to_path_buf)
        }
        _ => Some(parent.to_path_buf()),
    }
}

/// Library directories of a toolkit root, stubs last.
fn toolkit_lib_dirs(target: &Target, root: &Path) -> Vec<PathBuf> {
    if target.is_windows() {
        return vec![root.join("lib").join("x64"), root.join("Library").join("lib")];
    }
    let mut dirs = vec![root.join("lib64"), root.join("lib")];
    for t in target.toolkit_target_dirs() {
        dirs.push(root.join("targets").join(t).join("lib"));
    }
    let stubs: Vec<PathBuf> = dirs.iter().map(|d| d.join("stubs")).collect();
    dirs.extend(stubs);
    dirs
}

/// An explicit directory must exist and hold cuda.h: a wrong override is never
/// silently replaced by some other toolkit.
fn explicit_error(name: &str, given: &Path, looked: &[PathBuf], why: Option<String>) -> Error {
    let what = match why {
        Some(why) => why,
        None if env::unreachable(given) => env::UNREACHABLE.into(),
        None if !given.exists() => "does not exist".into(),
        None if !given.is_dir() => "is not a directory".into(),
        None => "has no cuda.h".into(),
    };
    let (kind, example) = if name.contains("INCLUDE_DIR") {
        ("the directory that holds cuda.h", "/usr/local/cuda/include")
    } else {
        ("a CUDA toolkit root (the directory above include/cuda.h)", "/usr/local/cuda")
    };
    // CUDA_PATH=/usr/local/cuda/include: a root variable naming the include
    // directory itself.
    let hint = match given.parent() {
        Some(parent) if !name.contains("INCLUDE_DIR") && given.join("cuda.h").is_file() => format!(
            "\n{} holds cuda.h itself: it is an include directory, and {name} names the directory\n\
             above it. Set {name}={} (or LIBCUDA_SYS_INCLUDE_DIR={}).",
            given.display(),
            parent.display(),
            given.display()
        ),
        _ => String::new(),
    };
    let list: Vec<String> =
        looked.iter().map(|p| format!("  {}", p.join("cuda.h").display())).collect();
    Error::new(
        format!("{name}={} {what}", given.display()),
        format!(
            "{name} must name {kind}.\n\
             It is set to {}, which {what}. Looked for:\n{}\n{hint}\n\
             Fix one of:\n\
             - point {name} at a CUDA toolkit, e.g. {name}={example}\n\
             - install the headers with pip (pip install nvidia-cuda-runtime) and point\n  \
               LIBCUDA_SYS_INCLUDE_DIR at .../site-packages/nvidia/cu13/include\n\
             - unset {name} to let the build search the usual places: unset {name}",
            given.display(),
            list.join("\n"),
        ),
    )
}

/// The `include` directory of a root, for messages about a root variable.
fn include_dirs_of(root: &Path) -> Vec<PathBuf> {
    vec![root.join("include")]
}

fn not_found(target: &Target, tried: &Tried) -> Error {
    let looked = if tried.lines.is_empty() {
        "  (no candidate)".to_string()
    } else {
        tried.lines.iter().map(|l| format!("  {l}")).collect::<Vec<_>>().join("\n")
    };
    let prefix = env::target_prefixed(&target.triple, "");
    Error::new(
        "no CUDA headers (cuda.h) found",
        format!(
            "libcuda-sys generates its bindings from the cuda.h of a CUDA toolkit and found none.\n\
             $HOST = {}\n$TARGET = {}\n\n\
             Variables consulted: {prefix}LIBCUDA_SYS_INCLUDE_DIR, LIBCUDA_SYS_INCLUDE_DIR,\n\
             {} (all unset or empty), PATH (for nvcc), PKG_CONFIG_PATH, CONDA_PREFIX, VIRTUAL_ENV, PYTHONPATH.\n\n\
             Places tried:\n{looked}\n\n\
             Fix one of:\n\
             - install the headers alone with pip: pip install nvidia-cuda-runtime   (CUDA 13.x; nvidia-cuda-runtime-cu12 for 12.x)\n\
             - install a CUDA toolkit (Debian/Ubuntu: apt install nvidia-cuda-toolkit, or NVIDIA's cuda-toolkit-13-0 package)\n\
             - set CUDA_PATH to the toolkit root (the directory above include/cuda.h)\n\
             - set LIBCUDA_SYS_INCLUDE_DIR to the directory that holds cuda.h\n\
             - or use the crate's pregenerated bindings: unset LIBCUDA_SYS_BINDINGS (or set it to pregenerated)",
            target.host,
            target.triple,
            ROOT_VARS.join(", "),
        ),
    )
}
