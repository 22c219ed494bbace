//! `cargo xtask setup`, and what `test`, `report` and `ci` do first: installs
//! what a fresh Debian/Ubuntu machine lacks for building libcuda-sys, and
//! nothing that is there: libclang (with clang's resource headers, which
//! bindgen needs too) and pkg-config through apt; CUDA headers,
//! kept where a toolkit is installed, otherwise (or when `XTASK_CUDA_HEADERS`
//! names a version, e.g. 12.4) fetched from NVIDIA's pip wheels and handed to
//! the builds as `LIBCUDA_SYS_INCLUDE_DIR`. When the headers cannot be had,
//! setup says why and xtask ends with [`FAILED`], rather than let the build
//! find other headers (or none) and pass against those.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use libcuda_sys_build::find::toolkit::ROOT_VARS;

use crate::headers;

/// xtask's exit status when setup fails: the report's `EXIT_SETUP`, which it
/// documents beside its own statuses.
pub const FAILED: u8 = crate::exit::EXIT_SETUP;

/// What setup decided for the builds.
#[derive(Debug, Default)]
pub struct Env {
    /// Headers setup fetched; `None` leaves discovery to the build script.
    pub include_dir: Option<PathBuf>,
    /// cuRAND's root for the workspace's cuRAND binding crate (`CURAND_ROOT`),
    /// where [`Env::with_curand`] fetched it.
    pub curand_root: Option<PathBuf>,
}

impl Env {
    /// `cargo args` in the workspace root, in this process's environment
    /// (the caller's toolkit variables stay) with setup's headers.
    pub fn cargo(&self, args: &[&str]) -> Command {
        self.with_headers(crate::cargo::in_root(args))
    }

    /// `cmd` with setup's headers.
    pub fn with_headers(&self, mut cmd: Command) -> Command {
        if let Some(dir) = &self.include_dir {
            cmd.env("LIBCUDA_SYS_INCLUDE_DIR", dir);
        }
        if let Some(dir) = &self.curand_root {
            cmd.env("CURAND_ROOT", dir);
        }
        cmd
    }

    /// With cuRAND for the workspace's cuRAND binding crate, which `--workspace`
    /// builds take in: a `CURAND_ROOT` of the caller's stays; otherwise it is
    /// fetched from pip (CUDA 13.0's), or the failure is said and the crate's
    /// build then says what it lacks.
    pub fn with_curand(mut self) -> Env {
        if std::env::var_os("CURAND_ROOT").is_some_and(|v| !v.is_empty()) {
            return self;
        }
        ensure_pip();
        match headers::curand_root() {
            Ok(root) => {
                eprintln!("setup: cuRAND (pip wheels) in {}", root.display());
                self.curand_root = Some(root);
            }
            Err(e) => eprintln!("setup: cuRAND for curand/: {e}"),
        }
        self
    }
}

pub fn run(args: &[String]) -> std::result::Result<(), crate::Error> {
    if !args.is_empty() {
        return Err("usage: cargo xtask setup".to_string().into());
    }
    // For a shell: `eval "$(cargo xtask setup)"`, whatever the path holds.
    if let Some(dir) = prepare()?.include_dir {
        let dir = dir.to_str().ok_or(format!("{}: not UTF-8", dir.display()))?;
        println!("export LIBCUDA_SYS_INCLUDE_DIR={}", crate::shell_word(dir));
    }
    Ok(())
}

/// libclang, pkg-config and the CUDA headers.
pub fn prepare() -> std::result::Result<Env, crate::Error> {
    tools();
    headers_env().map_err(|e| crate::Error::new(FAILED, format!("setup: {e}")))
}

/// libclang with clang's resource headers, and pkg-config, installed through
/// apt where missing. A failed install is said and not fatal: the build then
/// says what it lacks. A `LIBCLANG_PATH` of the user's is left as it is.
pub fn tools() {
    let found = || -> Vec<PathBuf> {
        libclang_dirs().iter().flat_map(|d| read_dir(d)).filter(|p| is_libclang(p)).collect()
    };
    let chosen = std::env::var_os("LIBCLANG_PATH").is_some_and(|v| !v.is_empty());
    if !chosen && found().is_empty() {
        apt(&["libclang-dev"]);
    } else if !chosen {
        let missing = without_resource_headers(&found());
        if !missing.is_empty() {
            eprintln!(
                "setup: libclang is installed without clang's resource headers (stddef.h, \
                 stdarg.h): bindgen would fail on `'stddef.h' file not found`"
            );
            apt(&missing.iter().map(String::as_str).collect::<Vec<_>>());
            let still = without_resource_headers(&found());
            if !still.is_empty() {
                eprintln!(
                    "setup: clang's resource headers are still missing: install {}",
                    still.join(" ")
                );
            }
        }
    }
    if find_on_path("pkg-config").is_none() {
        apt(&["pkg-config"]);
    }
    // The window system's headers, so that the interop modules are generated
    // and checked (systest) against them, not against the crate's stand-ins.
    let missing: Vec<&str> = libcuda_sys_build::interop::MODULES
        .iter()
        .filter(|m| m.os == "linux")
        .filter(|m| m.stand_ins.iter().any(|(h, _)| !Path::new("/usr/include").join(h).is_file()))
        .map(|m| m.package)
        .collect();
    if !missing.is_empty() {
        apt(&missing);
    }
}

fn headers_env() -> crate::Result<Env> {
    let var = |name: &str| {
        std::env::var(name).ok().map(|v| v.trim().to_string()).filter(|v| !v.is_empty())
    };
    let (version, why) = match var("XTASK_CUDA_HEADERS") {
        Some(version) => (version.clone(), format!("for XTASK_CUDA_HEADERS={version}")),
        None if var("LIBCUDA_SYS_INCLUDE_DIR").is_some() || has_toolkit() => {
            // A variable that names no headers is the user's mistake, said here,
            // not an exit 0 and a build that fails later.
            if let Some(dir) = var("LIBCUDA_SYS_INCLUDE_DIR") {
                if !Path::new(&dir).join("cuda.h").is_file() {
                    return Err(format!("LIBCUDA_SYS_INCLUDE_DIR={dir} holds no cuda.h: point it at the directory that holds cuda.h, or unset it"));
                }
            } else if let Some((name, root)) = ROOT_VARS.iter().find_map(|v| Some((v, var(v)?))) {
                let root = Path::new(&root);
                let targets = read_dir(&root.join("targets")).map(|t| t.join("include/cuda.h"));
                if !std::iter::once(root.join("include/cuda.h")).chain(targets).any(|h| h.is_file())
                {
                    return Err(format!("{name}={} holds no include/cuda.h: point it at a CUDA toolkit, or unset it", root.display()));
                }
            }
            eprintln!("setup: using the CUDA headers already on this machine");
            return Ok(Env::default());
        }
        None => ("13".into(), "(no CUDA toolkit found)".into()),
    };
    if headers::needs_fetch(&version) {
        ensure_pip();
    }
    let dir = headers::include_dir(&version).map_err(|e| {
        format!("no CUDA {version} headers {why} ({e}); stopping instead of building against other headers")
    })?;
    eprintln!("setup: CUDA {version} headers (pip wheel) in {}", dir.display());
    Ok(Env { include_dir: Some(dir), curand_root: None })
}

/// A C compiler (`program` on `PATH`) and the C library header that shows its
/// sysroot is there, installed through apt (`packages`) where either is
/// missing; an error saying what to install when that fails.
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
    let root =
        std::fs::metadata("/proc/self").is_ok_and(|m| std::os::unix::fs::MetadataExt::uid(&m) == 0);
    let run = |args: &[&str]| {
        let mut cmd = Command::new(if root { args[0] } else { "sudo" });
        cmd.args(&args[usize::from(root)..]).stdout(Stdio::null());
        cmd.status().is_ok_and(|s| s.success())
    };
    let install = [
        &["env", "DEBIAN_FRONTEND=noninteractive", "apt-get", "install", "-y", "-qq"][..],
        packages,
    ]
    .concat();
    if !(run(&["apt-get", "update", "-qq"]) && run(&install)) {
        eprintln!(
            "setup: apt-get could not install {}; the build says what it lacks",
            packages.join(" ")
        );
    }
}

/// The Python that fetches headers needs pip: through apt where Debian's
/// python3 comes without it.
fn ensure_pip() {
    let mut pip = Command::new("python3");
    pip.args(["-m", "pip", "--version"]).stdout(Stdio::null()).stderr(Stdio::null());
    if !pip.status().is_ok_and(|s| s.success()) {
        apt(&["python3-pip"]);
    }
}

/// The directories libclang may be in: where clang-sys looks (LLVM's own
/// trees, the multiarch directories): read here rather than through `ldconfig
/// -p`, which is not on a normal user's `PATH` on Debian.
pub fn libclang_dirs() -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> =
        ["/usr/lib64", "/usr/lib", "/usr/local/lib", "/lib", "/lib64"].map(PathBuf::from).to_vec();
    for entry in read_dir(Path::new("/usr/lib")).chain(read_dir(Path::new("/usr/local"))) {
        let name = entry.file_name().unwrap_or_default().to_string_lossy().into_owned();
        if name.starts_with("llvm") {
            dirs.push(entry.join("lib"));
        } else if name.ends_with("-linux-gnu") {
            dirs.push(entry);
        }
    }
    dirs
}

/// `libclang.so`, `libclang.so.18`, `libclang-18.so.1`, ...
fn is_libclang(path: &Path) -> bool {
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    name.starts_with("libclang.so")
        || name
            .strip_prefix("libclang-")
            .is_some_and(|v| v.starts_with(|c: char| c.is_ascii_digit()) && v.contains(".so"))
}

/// The apt packages that would give the libclang files of `libclangs` the
/// resource headers they lack, one for each LLVM version that has none
/// (`libclang-common-N-dev`; `libclang-dev` where the version is not known).
/// libclang looks for them beside itself, in `<its dir>/clang/<version>/include`
/// (clang's resource directory); Debian's `libclang1-N` comes without them.
fn without_resource_headers(libclangs: &[PathBuf]) -> Vec<String> {
    let mut versions: Vec<(Option<u32>, bool)> = Vec::new();
    for file in libclangs {
        let dir = file.parent().unwrap_or(Path::new("/"));
        let has = read_dir(&dir.join("clang")).any(|v| v.join("include/stddef.h").is_file());
        let version = llvm_version(file);
        match versions.iter_mut().find(|(v, _)| *v == version) {
            Some((_, seen)) => *seen |= has,
            None => versions.push((version, has)),
        }
    }
    let mut packages: Vec<String> = versions
        .into_iter()
        .filter(|(_, has)| !has)
        .map(|(v, _)| v.map_or("libclang-dev".into(), |v| format!("libclang-common-{v}-dev")))
        .collect();
    packages.sort();
    packages.dedup();
    packages
}

/// The LLVM major version of a libclang file: in the name of the file it
/// leads to (`libclang-14.so.14.0.6`, `libclang.so.18.1`), or of the LLVM
/// tree it is in (`/usr/lib/llvm-14/lib`).
fn llvm_version(file: &Path) -> Option<u32> {
    let digits = |s: &str| -> Option<u32> {
        let n: String = s.chars().take_while(char::is_ascii_digit).collect();
        n.parse().ok()
    };
    let real = std::fs::canonicalize(file).unwrap_or_else(|_| file.to_path_buf());
    let name = real.file_name().unwrap_or_default().to_string_lossy().into_owned();
    let from_name = name
        .strip_prefix("libclang-")
        .or_else(|| name.strip_prefix("libclang.so."))
        .and_then(digits);
    from_name.or_else(|| {
        file.components().find_map(|c| digits(c.as_os_str().to_str()?.strip_prefix("llvm-")?))
    })
}

/// A toolkit where the build script looks first: its variables, `nvcc`, the
/// standard place. Headers elsewhere (conda, pip's site-packages) are not
/// looked for: setup then fetches its own, which only means a download.
fn has_toolkit() -> bool {
    let set = |name: &str| std::env::var_os(name).is_some_and(|v| !v.is_empty());
    ROOT_VARS.iter().any(|v| set(v))
        || find_on_path("nvcc").is_some()
        || Path::new("/usr/local/cuda/include/cuda.h").is_file()
}

fn find_on_path(program: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path).map(|d| d.join(program)).find(|p| p.is_file())
}

fn read_dir(dir: &Path) -> impl Iterator<Item = PathBuf> {
    std::fs::read_dir(dir).into_iter().flatten().flatten().map(|e| e.path())
}

#[cfg(test)]
mod tests {
    use std::fs;
    use std::path::Path;

    /// Empty files at `files`, paths under `root`.
    fn files(root: &Path, files: &[&str]) {
        for f in files {
            let path = root.join(f);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, "").unwrap();
        }
    }

    /// Debian's libclang1-N alone: libclang, no `clang/N/include/stddef.h`
    /// beside it; libclang-common-N-dev puts it there.
    #[test]
    fn libclang_without_its_resource_headers_is_found_missing() {
        let root = tempfile::tempdir().unwrap();
        let root = root.path();
        files(root, &["x86_64-linux-gnu/libclang-14.so.14.0.6"]);
        let tree = root.join("llvm-14/lib");
        fs::create_dir_all(&tree).unwrap();
        std::os::unix::fs::symlink(
            "../../x86_64-linux-gnu/libclang-14.so.14.0.6",
            tree.join("libclang.so.1"),
        )
        .unwrap();
        let libclangs =
            [root.join("x86_64-linux-gnu/libclang-14.so.14.0.6"), tree.join("libclang.so.1")];
        assert_eq!(super::without_resource_headers(&libclangs), ["libclang-common-14-dev"]);
        // The directory alone, or another file there, is not the headers.
        files(&tree, &["clang/14.0.6/include/stdarg.h"]);
        assert_eq!(super::without_resource_headers(&libclangs), ["libclang-common-14-dev"]);
        files(&tree, &["clang/14.0.6/include/stddef.h"]);
        assert!(super::without_resource_headers(&libclangs).is_empty());
        // A second LLVM without them, and a libclang of no known version.
        files(root, &["llvm-15/lib/libclang-15.so.1", "lib64/libclang.so"]);
        let more = [
            &libclangs[..],
            &[root.join("llvm-15/lib/libclang-15.so.1"), root.join("lib64/libclang.so")],
        ]
        .concat();
        assert_eq!(
            super::without_resource_headers(&more),
            ["libclang-common-15-dev", "libclang-dev"]
        );
        files(root, &["lib64/clang/18/include/stddef.h"]);
        assert_eq!(super::without_resource_headers(&more), ["libclang-common-15-dev"]);
    }
}
