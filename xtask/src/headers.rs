//! `cargo xtask headers VERSION`: the CUDA headers of one version from
//! NVIDIA's pip wheels (headers only: no libcuda, no stub), cached in
//! `.cuda-headers/` (or `LIBCUDA_SYS_HEADER_CACHE`); prints the include
//! directory. A version no wheel carries is refused before pip is asked.
//!
//! `cargo xtask headers lib PACKAGE[==VERSION] ...`: NVIDIA's library
//! packages for CUDA 13.0 (`nvidia-cuda-nvrtc`, `nvidia-cublas`, ...; a
//! package without a version is taken at `13.0.*`) with the headers theirs
//! include (the runtime's, `crt/`, and cccl's `nv/target`), unpacked into one
//! tree as pip would install them; prints its root (`nvidia/cu13`, with
//! `include/` and `lib/`). `curand` is `lib nvidia-curand==10.4.0.*`, CUDA
//! 13.0's cuRAND, for the workspace's cuRAND binding crate.
//!
//! Concurrent runs (parallel CI jobs, the tests) each unpack into a temporary
//! directory inside the cache and rename it into place: a reader sees no copy
//! or a complete one, and a copy once handed out is never removed (the run
//! that loses the race keeps the winner's). A copy without its mark is an
//! error that names it. Each run locks its temporary directory; a run removes
//! those of others whose lock it can take, left by runs that were killed.

use std::fs;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::Result;

/// Written last into a copy, with the wheel's file name: with `cuda.h` it
/// marks a copy that was complete when it was renamed into place.
const MARK: &str = "WHEEL";

pub fn run(args: &[String]) -> std::result::Result<(), crate::Error> {
    let usage = "usage: cargo xtask headers VERSION|curand (e.g. 12.4, 13.0, 13.5.37, 13), \
                 or cargo xtask headers lib PACKAGE[==VERSION] ... (e.g. nvidia-cuda-nvrtc)";
    let root = match args {
        [curand] if curand == "curand" => curand_root()?,
        [lib, packages @ ..] if lib == "lib" && !packages.is_empty() => {
            // A name pip would misread is an error of its own (status 2), as a version is.
            let specs: Vec<String> = packages
                .iter()
                .map(|p| requirement(p))
                .collect::<Result<_>>()
                .map_err(|e| crate::Error::new(2, e))?;
            library_root(&specs)?
        }
        [version] if version != "lib" => {
            // A version no wheel carries is an error of its own (status 2), apart
            // from a fetch that failed.
            wheel(version).map_err(|e| crate::Error::new(2, e))?;
            include_dir(version)?
        }
        _ => return Err(usage.to_string().into()),
    };
    println!("{}", root.display());
    Ok(())
}

/// Whose wheel: the headers are the same text in every platform's wheel (the
/// Windows one with CRLF line ends), but only the Windows wheel of CUDA 13 holds
/// `cuda.lib`, and the cross checks use each target's own files.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Platform {
    LinuxX86_64,
    LinuxAarch64,
    WindowsX86_64,
}

impl Platform {
    /// The platform of a Rust target triple.
    pub fn of(target: &str) -> Result<Platform> {
        match target {
            "x86_64-unknown-linux-gnu" => Ok(Platform::LinuxX86_64),
            "aarch64-unknown-linux-gnu" => Ok(Platform::LinuxAarch64),
            t if t.starts_with("x86_64-pc-windows-") => Ok(Platform::WindowsX86_64),
            other => Err(format!("no CUDA wheel platform known for {other}")),
        }
    }

    /// pip's `--platform` tags, any of which the wheel may carry.
    fn tags(self) -> &'static [&'static str] {
        match self {
            Platform::LinuxX86_64 => &[
                "manylinux2014_x86_64",
                "manylinux_2_17_x86_64",
                "manylinux_2_27_x86_64",
                "manylinux_2_28_x86_64",
            ],
            Platform::LinuxAarch64 => &[
                "manylinux2014_aarch64",
                "manylinux_2_17_aarch64",
                "manylinux_2_27_aarch64",
                "manylinux_2_28_aarch64",
            ],
            Platform::WindowsX86_64 => &["win_amd64"],
        }
    }

    /// Where in the cache: the host's wheels at the top, as they always were.
    fn dir(self, cache: &Path) -> PathBuf {
        match self {
            Platform::LinuxX86_64 => cache.to_path_buf(),
            Platform::LinuxAarch64 => cache.join("aarch64"),
            Platform::WindowsX86_64 => cache.join("win_amd64"),
        }
    }
}

/// The include directory holding `cuda.h` of `version` (`13.5` or an exact
/// wheel version such as `13.5.37`), fetched on first use.
pub fn include_dir(version: &str) -> Result<PathBuf> {
    include_dir_for(version, Platform::LinuxX86_64)
}

/// [`include_dir`] from `platform`'s wheel.
pub fn include_dir_for(version: &str, platform: Platform) -> Result<PathBuf> {
    let wheel = wheel(version)?;
    let specs = [format!("{}=={version}.*", wheel.package)];
    let cuda_h = Path::new(wheel.sub).join("cuda.h");
    let tree = unpacked(&platform.dir(&cache()), version, &specs, &cuda_h, platform)?;
    Ok(tree.join(wheel.sub))
}

/// What NVIDIA's libraries' headers include, from CUDA 13.0's packages: the
/// runtime's headers (`driver_types.h`), `crt/host_config.h`, and cccl's
/// `nv/target` (through `cuda_fp16.h`).
const INCLUDED: [&str; 3] =
    ["nvidia-cuda-runtime==13.0.*", "nvidia-cuda-crt==13.0.*", "nvidia-cuda-cccl==13.0.*"];

/// pip's requirement for `package` as `headers lib` takes it: `NAME` (at
/// CUDA 13.0's `13.0.*`) or `NAME==VERSION`, of NVIDIA's packages (`nvidia-`)
/// and nothing pip would read as more than a name and a version.
pub fn requirement(package: &str) -> Result<String> {
    let (name, version) = package.split_once("==").unwrap_or((package, "13.0.*"));
    let name_ok = name.strip_prefix("nvidia-").is_some_and(|rest| {
        !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
    });
    let version_ok = version.starts_with(|c: char| c.is_ascii_digit())
        && version.bytes().all(|b| b.is_ascii_digit() || b == b'.' || b == b'*');
    if !name_ok || !version_ok {
        return Err(format!(
            "'{package}' is not an NVIDIA package as `headers lib` takes one: \
             nvidia-NAME or nvidia-NAME==VERSION (e.g. nvidia-cuda-nvrtc, nvidia-curand==10.4.0.*)"
        ));
    }
    Ok(format!("{name}=={version}"))
}

/// The root (`include/`, `lib/`) of the tree that the wheels of `specs`
/// (pip requirements, [`requirement`]'s) and [`INCLUDED`] unpack to, as pip
/// installs CUDA 13's packages (`nvidia/cu13`), fetched on first use and
/// cached under a name of the requirements.
pub fn library_root(specs: &[String]) -> Result<PathBuf> {
    let mut specs = specs.to_vec();
    specs.sort();
    specs.dedup();
    let name = format!("lib-{}", specs.join("+").replace("==", "-").replace('*', "x"));
    let named = |spec: &str| specs.iter().any(|s| s.split("==").next() == spec.split("==").next());
    let included: Vec<String> =
        INCLUDED.iter().filter(|s| !named(s)).map(|s| s.to_string()).collect();
    specs.extend(included);
    let sub = Path::new("nvidia/cu13");
    let required = sub.join("include/nv/target");
    let tree = unpacked(&cache(), &name, &specs, &required, Platform::LinuxX86_64)?;
    Ok(tree.join(sub))
}

/// The root (`include/curand.h`, `lib/libcurand.so.10`) of cuRAND 10.4.0
/// (CUDA 13.0's) from its pip wheels, fetched on first use: `CURAND_ROOT` of
/// the workspace's cuRAND binding crate (`curand/`).
pub fn curand_root() -> Result<PathBuf> {
    library_root(&["nvidia-curand==10.4.0.*".to_string()])
}

/// The tree `platform`'s wheels of `specs` unpack to, cached in
/// `cache/<name>` (complete when it holds `required` and the mark), fetched
/// where it is not.
fn unpacked(
    cache: &Path,
    name: &str,
    specs: &[String],
    required: &Path,
    platform: Platform,
) -> Result<PathBuf> {
    let dest = cache.join(name);
    if complete(&dest, required) {
        return Ok(dest);
    }
    fs::create_dir_all(cache).map_err(|e| format!("{}: {e}", cache.display()))?;
    sweep_abandoned(cache);
    let (tmp, _lock) = partial_dir(cache, name)?;
    let tree = fetch(specs, required, platform, tmp.path())?;
    // Ours goes into place, or another run's is there: that one may have been
    // handed out already, so it stays and ours goes with the temporary directory.
    if std::fs::rename(&tree, &dest).is_err() && !complete(&dest, required) {
        return Err(format!(
            "{} is there but incomplete (no {MARK} or no {}): remove it and fetch again",
            dest.display(),
            required.display()
        ));
    }
    Ok(dest)
}

/// The lock file of an unpacking directory, held (`flock`) by its run for as
/// long as the run lives: the kernel drops it however the run ends, and it
/// means the same to runs in other pid namespaces (containers sharing the
/// cache), where a pid names no process or another one.
const LOCK: &str = ".lock";

/// A new unpacking directory for `version` in `cache`, and its lock, held
/// until the file is closed. The lock file gets its name once locked, so that
/// a sweep never finds it unlocked while its run lives.
fn partial_dir(cache: &Path, version: &str) -> Result<(tempfile::TempDir, fs::File)> {
    let tmp = tempfile::Builder::new()
        .prefix(&format!(".partial-{version}."))
        .tempdir_in(cache)
        .map_err(|e| format!("{}: {e}", cache.display()))?;
    let unnamed = tmp.path().join(".lock-new");
    let lock = fs::File::create_new(&unnamed).map_err(|e| format!("{}: {e}", unnamed.display()))?;
    // Where the file system has no such locks the directory keeps no lock
    // file, and no sweep removes it.
    if lock.lock().is_ok() {
        fs::rename(&unnamed, tmp.path().join(LOCK))
            .map_err(|e| format!("{}: {e}", unnamed.display()))?;
    }
    Ok((tmp, lock))
}

/// Removes the unpacking directories of runs that ended without removing
/// them (a SIGINT drops no `TempDir`): those whose lock this run can take.
/// One without a lock file is being set up, and stays.
fn sweep_abandoned(cache: &Path) {
    for entry in fs::read_dir(cache).into_iter().flatten().flatten() {
        if !entry.file_name().to_string_lossy().starts_with(".partial-") {
            continue;
        }
        let Ok(lock) = fs::File::open(entry.path().join(LOCK)) else { continue };
        // Held while the directory goes: no other sweep removes it twice.
        if lock.try_lock().is_ok() {
            let _ = fs::remove_dir_all(entry.path());
        }
    }
}

/// Whether [`include_dir`] would ask pip: `version` has a wheel that is not
/// in the cache yet.
pub fn needs_fetch(version: &str) -> bool {
    wheel(version).is_ok() && cached_include_dir_for(version, Platform::LinuxX86_64).is_none()
}

/// The include directory of `version` from `platform`'s wheel where the cache
/// has it, without fetching.
pub fn cached_include_dir_for(version: &str, platform: Platform) -> Option<PathBuf> {
    let wheel = wheel(version).ok()?;
    let dest = platform.dir(&cache()).join(version);
    complete(&dest, &Path::new(wheel.sub).join("cuda.h")).then(|| dest.join(wheel.sub))
}

fn cache() -> PathBuf {
    cache_at(std::env::var_os("LIBCUDA_SYS_HEADER_CACHE"))
}

/// Empty is unset (not the current directory); a relative path is made
/// absolute here, so that the include directory setup exports holds anywhere.
fn cache_at(var: Option<std::ffi::OsString>) -> PathBuf {
    match var.filter(|v| !v.is_empty()) {
        Some(dir) => std::path::absolute(&dir).unwrap_or_else(|_| PathBuf::from(dir)),
        None => crate::root().join(".cuda-headers"),
    }
}

/// The pip package of a CUDA version and where its wheel keeps `cuda.h`.
struct Wheel {
    package: &'static str,
    sub: &'static str,
}

/// pip would take `99` or `11.0` to the index and fail there, after a network
/// round trip, with a message about pip; and a version with no wheel must not
/// be mistaken for a fetch that merely failed.
fn wheel(version: &str) -> Result<Wheel> {
    let number = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let parts: Vec<&str> = version.split('.').collect();
    let known = match parts.as_slice() {
        [major] => ["11", "12", "13"].contains(major),
        // A release as the crate writes one (`crate::release`), then the wheels there are.
        [major, minor, patch @ ..]
            if patch.len() <= 1
                && patch.iter().all(|p| number(p))
                && crate::model::parse_version(&format!("{major}.{minor}")).is_some() =>
        {
            match *major {
                "11" => ["7", "8"].contains(minor),
                // There was no 12.7.
                "12" => *minor != "7",
                "13" => true,
                _ => false,
            }
        }
        _ => false,
    };
    if !known {
        return Err(format!(
            "no CUDA headers wheel for version '{version}': NVIDIA publishes 11.7, 11.8, \
             12.0-12.6, 12.8, 12.9 and 13.x (e.g. 12.4, 13.0, 13.5.37)"
        ));
    }
    Ok(match parts[0] {
        "11" => Wheel { package: "nvidia-cuda-runtime-cu11", sub: "nvidia/cuda_runtime/include" },
        "12" => Wheel { package: "nvidia-cuda-runtime-cu12", sub: "nvidia/cuda_runtime/include" },
        _ => Wheel { package: "nvidia-cuda-runtime", sub: "nvidia/cu13/include" },
    })
}

fn complete(dir: &Path, required: &Path) -> bool {
    dir.join(MARK).is_file() && dir.join(required).is_file()
}

/// Downloads the wheels of `specs` into `tmp` and unpacks them into one tree,
/// as pip installs them; returns the tree, marked complete, once it holds
/// `required`.
fn fetch(specs: &[String], required: &Path, platform: Platform, tmp: &Path) -> Result<PathBuf> {
    let download = tmp.join("download");
    // Naming the platform and Python version lets any host's pip fetch any
    // platform's wheel.
    let status = python()
        .args(["-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:"])
        .args(platform.tags().iter().flat_map(|tag| ["--platform", tag]))
        .args(["--python-version", "3.11", "-d"])
        .arg(&download)
        .args(specs)
        // pip's progress and errors are for the person reading stderr; stdout
        // carries only the include directory.
        .stdout(Stdio::null())
        .status()
        .map_err(|e| no_python(&e))?;
    let specs = specs.join(" ");
    if !status.success() {
        return Err(format!(
            "pip could not download {specs} (no such release, or no network); \
             `python3 -m pip download` said why above"
        ));
    }
    let wheels: Vec<PathBuf> = fs::read_dir(&download)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "whl"))
        .collect();
    if wheels.is_empty() {
        return Err(format!("pip downloaded no wheel for {specs}"));
    }
    let tree = tmp.join("tree");
    let mut names = String::new();
    for whl in &wheels {
        // A wheel is a zip file; Python, there for pip anyway, unpacks it.
        let out = python()
            .args(["-m", "zipfile", "-e"])
            .arg(whl)
            .arg(&tree)
            .output()
            .map_err(|e| no_python(&e))?;
        let name = whl.file_name().unwrap_or_default().to_string_lossy();
        if !out.status.success() {
            return Err(format!(
                "python3 -m zipfile could not unpack {name}:\n{}",
                String::from_utf8_lossy(&out.stderr)
            ));
        }
        names.push_str(&format!("{name}\n"));
    }
    if !tree.join(required).is_file() {
        return Err(format!("{} has no {}", names.trim().replace('\n', ", "), required.display()));
    }
    fs::write(tree.join(MARK), names).map_err(|e| format!("{MARK}: {e}"))?;
    Ok(tree)
}

fn python() -> Command {
    Command::new("python3")
}

fn no_python(e: &std::io::Error) -> String {
    if e.kind() == ErrorKind::NotFound {
        "no python3 on PATH: NVIDIA's header wheels are fetched with pip \
         (apt-get install python3-pip), or set LIBCUDA_SYS_INCLUDE_DIR to a directory holding cuda.h"
            .to_string()
    } else {
        format!("python3: {e}")
    }
}

#[cfg(test)]
mod tests {
    /// A fetch in another pid namespace (a container sharing the cache) has
    /// a pid that names no process here, or another one: its lock, not its
    /// pid, keeps its directory.
    #[test]
    fn the_sweep_leaves_a_locked_partial_directory_and_removes_an_unlocked_one() {
        let cache = tempfile::tempdir().unwrap();
        // Named as runs named theirs before the lock, with pids beyond Linux's pid_max.
        let partial = |name: &str| {
            let dir = cache.path().join(name);
            std::fs::create_dir(&dir).unwrap();
            std::fs::write(dir.join(super::LOCK), "").unwrap();
            dir
        };
        let live = partial(".partial-13.5.4194305.live");
        let held = std::fs::File::open(live.join(super::LOCK)).unwrap();
        held.lock().unwrap();
        let abandoned = partial(".partial-13.5.4194306.gone");
        // One as a fetch makes it, and one still being set up (no lock file yet).
        let (own, own_lock) = super::partial_dir(cache.path(), "13.0").unwrap();
        let starting = cache.path().join(".partial-13.0.starting");
        std::fs::create_dir(&starting).unwrap();
        super::sweep_abandoned(cache.path());
        assert!(own.path().join(super::LOCK).is_file() && starting.is_dir());
        assert!(live.join(super::LOCK).is_file(), "a live fetch's directory was removed");
        assert!(!abandoned.exists(), "an abandoned directory stayed");
        drop((held, own_lock));
        let own = own.keep();
        super::sweep_abandoned(cache.path());
        assert!(!live.exists() && !own.exists(), "a directory whose lock nobody holds stayed");
    }

    #[test]
    fn a_library_package_is_taken_at_cuda_13_0_unless_it_names_its_version() {
        let req = |p: &str| super::requirement(p);
        assert_eq!(req("nvidia-cuda-nvrtc").unwrap(), "nvidia-cuda-nvrtc==13.0.*");
        assert_eq!(req("nvidia-curand==10.4.0.*").unwrap(), "nvidia-curand==10.4.0.*");
        assert_eq!(req("nvidia-cublas==13.0.0.19").unwrap(), "nvidia-cublas==13.0.0.19");
        for bad in [
            "cuda-nvrtc",
            "nvidia-",
            "nvidia-x==",
            "nvidia-x==>=1",
            "nvidia-x[extra]",
            "nvidia-x y",
        ] {
            let e = req(bad).err().unwrap_or_else(|| panic!("{bad} accepted"));
            assert!(e.contains(&format!("'{bad}'")), "{e}");
        }
    }

    #[test]
    fn an_empty_cache_variable_is_unset_and_a_relative_one_absolute() {
        let default = crate::root().join(".cuda-headers");
        assert_eq!(super::cache_at(None), default);
        assert_eq!(super::cache_at(Some("".into())), default);
        let relative = super::cache_at(Some("headers-cache".into()));
        assert_eq!(relative, std::env::current_dir().unwrap().join("headers-cache"));
    }

    #[test]
    fn a_wheel_for_the_releases_nvidia_publishes_and_no_other() {
        for (version, package) in [
            ("11", "cu11"),
            ("11.7", "cu11"),
            ("11.8.89", "cu11"),
            ("12", "cu12"),
            ("12.0", "cu12"),
            ("12.6", "cu12"),
            ("12.8", "cu12"),
            ("12.9", "cu12"),
            ("12.4.127", "cu12"),
            ("13", "runtime"),
            ("13.0", "runtime"),
            ("13.5.37", "runtime"),
        ] {
            let wheel = super::wheel(version).unwrap_or_else(|e| panic!("{version}: {e}"));
            assert!(wheel.package.ends_with(package), "{version}: {}", wheel.package);
        }
        for version in [
            "99",
            "garbage",
            "11.0",
            "11.6",
            "10.2",
            "12.10",
            "12.7",
            "14.0",
            "13.5.",
            "13.05",
            // One rule for a release (build-logic/model.rs): its minor is one digit.
            "13.12",
            "13.x",
            "12.4-rc1",
            "-1",
            "13 .0",
            "13.5.37.1",
        ] {
            let error = super::wheel(version).err().unwrap_or_else(|| panic!("{version} accepted"));
            assert!(error.contains(&format!("'{version}'")) && error.contains("12.0-12.6, 12.8"));
        }
    }

    /// Each row of the build's facts table (`build-logic/sentences/attribute_facts.txt`) names
    /// the line of NVIDIA's header that says it: the line holds the row's words,
    /// and the last enumerator of the table named before them, on that line or
    /// up to 12 lines above, is the row's (for a member of a union, the line
    /// names `Union::member`, or the member is declared within 16 lines). Run
    /// against each release's headers, fetched where the cache lacks them.
    #[test]
    fn the_facts_table_names_the_lines_that_say_its_facts() {
        let facts = libcuda_sys_build::sentences::facts();
        let known: Vec<&str> = facts.iter().map(|f| f.enumerator).collect();
        let mut checked = 0;
        // The table's own line, and the line of each release whose docs cite one.
        let cited = facts.iter().flat_map(|f| {
            let (release, line) = f.line.split_once(':').unwrap();
            let own = (release, line.parse::<usize>().unwrap());
            std::iter::once((f, own)).chain(f.lines.iter().map(move |l| (f, *l)))
        });
        for (f, (release, n)) in cited {
            // Fetched where the cache lacks them: the check never skips.
            let header = super::include_dir(release)
                .unwrap_or_else(|e| panic!("CUDA {release}'s headers: {e}"))
                .join("cuda.h");
            let text = std::fs::read_to_string(&header).unwrap();
            let lines: Vec<&str> = text.lines().collect();
            let at = lines[n - 1];
            assert!(
                at.contains(f.says),
                "{}: {release}:{n} does not say `{}`: {at}",
                f.enumerator,
                f.says
            );
            if let Some(member) = f.ty.strip_prefix('.') {
                // Its declaration: a member's comment may run above or below it.
                let near = lines[n.saturating_sub(17)..(n + 16).min(lines.len())].join(" ");
                let declared = near.contains(&format!(" {member};"))
                    || near.contains(&format!("}} {member};"));
                assert!(
                    declared || at.contains(&format!("::{member}")),
                    "{}: no `{member}` at or near {release}:{n}",
                    f.enumerator
                );
            } else {
                // The lines above, and this one up to its words.
                let window = lines[n.saturating_sub(13)..n - 1].join(" ")
                    + " "
                    + &at[..at.find(f.says).unwrap()];
                let named = window
                    .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .rfind(|w| known.contains(w));
                assert_eq!(named, Some(f.enumerator), "{release}:{n}");
            }
            checked += 1;
        }
        println!("{checked} lines of {} facts checked against their headers", facts.len());
    }
}
