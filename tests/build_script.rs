//! The build script, end to end: the compiled `build-script-main` binary is run
//! directly, with a cleared environment that holds only what Cargo would set and
//! what each case adds, against fake toolkit trees made under
//! `CARGO_TARGET_TMPDIR`. `PATH` is a directory of symlinks to the C compiler
//! (and whatever a case adds, such as `nvcc`, `python3` or `pkg-config`), so
//! nothing of this machine's own setup is found unless a case puts it there.
//!
//! Each case checks the exit status, the `cargo::` lines on stdout and the
//! explanation on stderr, and that nothing panicked. Successful cases use a fake
//! toolkit whose headers are the ones this crate was built with (a symlink), so
//! they run bindgen for real (about a second each).

// The fake trees and the target name are Linux-only, as is the stand-in libcuda.
#![cfg(all(
    target_os = "linux",
    target_env = "gnu",
    any(target_arch = "x86_64", target_arch = "aarch64")
))]

use std::collections::{BTreeMap, BTreeSet};
use std::ffi::{OsStr, OsString};
use std::fs;
use std::os::unix::fs::{symlink, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{LazyLock, Mutex};

/// The target (and host) the build script is told about: the one these tests
/// were compiled for, so the build script behaves as in a native build.
#[cfg(target_arch = "x86_64")]
const TARGET: &str = "x86_64-unknown-linux-gnu";
#[cfg(target_arch = "aarch64")]
const TARGET: &str = "aarch64-unknown-linux-gnu";

/// The toolkit's `targets/<dir>` name for [`TARGET`] (conda keeps headers there).
#[cfg(target_arch = "x86_64")]
const TOOLKIT_TARGET_DIR: &str = "x86_64-linux";
#[cfg(target_arch = "aarch64")]
const TOOLKIT_TARGET_DIR: &str = "sbsa-linux";

/// The headers this crate itself was built with: every successful case links a
/// fake toolkit's `include` to them.
static REAL_INCLUDE: LazyLock<String> = LazyLock::new(|| {
    // The build script's recorded output for this build (`OUT_DIR/../output`),
    // its `DEP_CUDA_INCLUDE` (empty for the pregenerated bindings).
    let output = Path::new(env!("OUT_DIR")).with_file_name("output");
    let text = fs::read_to_string(&output).unwrap_or_else(|e| panic!("{}: {e}", output.display()));
    text.lines()
        .find_map(|l| l.strip_prefix("cargo::metadata=include="))
        .unwrap_or_default()
        .to_string()
});
/// Their `CUDA_VERSION` (13000 for the 13.0 headers).
static REAL_VERSION: LazyLock<String> = LazyLock::new(|| libcuda_sys::HEADER_VERSION.to_string());

/// Where this crate was itself built from its pregenerated bindings (no headers or
/// no libclang here), the cases that run bindgen to the end cannot run: says
/// `skipped` and returns true.
fn generation_unavailable() -> bool {
    if libcuda_sys::PREGENERATED {
        testkit::skip("libcuda-sys was built from its pregenerated bindings on this machine (no CUDA headers or no libclang): nothing to generate with",
        );
    }
    libcuda_sys::PREGENERATED
}

/// Where the script under test has `dynamic-loading` (as in that feature's
/// suite), it links nothing and applies no floor: cases about either say
/// `skipped` and return true (the default suite runs them).
fn linking_untestable() -> bool {
    let dynamic = cfg!(feature = "dynamic-loading");
    if dynamic {
        testkit::skip("the build script of this suite has dynamic-loading, which links nothing");
    }
    dynamic
}

/// The newest release of the pregenerated set (`pregenerated/releases.txt`), which
/// it binds without a release feature, as `CUDA_VERSION`.
fn newest_pregenerated() -> u32 {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("pregenerated/releases.txt");
    let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let last = text
        .lines()
        .rev()
        .find(|l| l.starts_with(|c: char| c.is_ascii_digit()))
        .expect("a release");
    let (major, minor) = last.split_whitespace().next().unwrap().split_once('.').unwrap();
    major.parse::<u32>().unwrap() * 1000 + minor.parse::<u32>().unwrap() * 10
}

/// A file that starts like a shared library (the build script checks the ELF
/// header, not the rest): linking is not what these cases test. For the
/// target's architecture ([`elf_header`] for another).
const ELF_STAND_IN: &[u8] = &elf_header(ELF_MACHINE);

/// The ELF header of a 64-bit little-endian shared object for `machine`.
const fn elf_header(machine: u16) -> [u8; 20] {
    let m = machine.to_le_bytes();
    [0x7f, b'E', b'L', b'F', 2, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 0, m[0], m[1]]
}

/// ELF's `e_machine` of x86-64 and AArch64.
const EM_X86_64: u16 = 62;
const EM_AARCH64: u16 = 183;
#[cfg(target_arch = "x86_64")]
const ELF_MACHINE: u16 = EM_X86_64;
#[cfg(target_arch = "aarch64")]
const ELF_MACHINE: u16 = EM_AARCH64;

/// What the C compiler needs on `PATH` (the driver, the assembler, the linker).
const COMPILER_TOOLS: [&str; 4] = ["cc", "gcc", "as", "ld"];

/// `X86_64_UNKNOWN_LINUX_GNU_<name>`.
fn prefixed(name: &str) -> String {
    format!("{}_{name}", TARGET.to_uppercase().replace('-', "_"))
}

/// The variables the build script reads first in every run.
fn always_read() -> Vec<String> {
    vec![
        prefixed("LIBCUDA_SYS_LIB_DIR"),
        "LIBCUDA_SYS_LIB_DIR".into(),
        prefixed("LIBCUDA_SYS_INCLUDE_DIR"),
        "LIBCUDA_SYS_INCLUDE_DIR".into(),
    ]
}

const ROOT_VARS: [&str; 4] = ["CUDA_PATH", "CUDA_HOME", "CUDA_ROOT", "CUDA_TOOLKIT_ROOT_DIR"];

/// The variables read on the way to bindgen, once a header was found.
fn generation_vars() -> Vec<String> {
    vec![
        "LIBCLANG_PATH".into(),
        "BINDGEN_EXTRA_CLANG_ARGS".into(),
        format!("BINDGEN_EXTRA_CLANG_ARGS_{TARGET}"),
    ]
}

/// The features this test was compiled with, which the script under test
/// has too (a release feature of the test build is not passed on: no suite sets one).
fn own_features() -> Vec<&'static str> {
    [
        ("bindgen", cfg!(feature = "bindgen")),
        ("dynamic-loading", cfg!(feature = "dynamic-loading")),
        ("per-thread-default-stream", cfg!(feature = "per-thread-default-stream")),
    ]
    .into_iter()
    .filter_map(|(name, on)| on.then_some(name))
    .collect()
}

/// The build script compiled with [`own_features`] and `extra`: it reads its
/// features from how it was compiled, so a case that needs another feature
/// needs another binary. Cargo builds each once, in a target directory of its
/// own, and names it in its JSON messages.
fn build_script(extra: &[String]) -> PathBuf {
    static SCRIPTS: LazyLock<Mutex<BTreeMap<Vec<String>, PathBuf>>> =
        LazyLock::new(Default::default);
    let mut features: Vec<String> = own_features().into_iter().map(String::from).collect();
    features.extend_from_slice(extra);
    features.sort_unstable();
    features.dedup();
    let mut scripts = SCRIPTS.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(script) = scripts.get(&features) {
        return script.clone();
    }
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let out = Command::new(cargo)
        .args([
            "build",
            "--offline",
            "--locked",
            "--message-format=json-render-diagnostics",
            "-p",
            "libcuda-sys",
        ])
        .args(["--no-default-features", "--features", &features.join(",")])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("CARGO_TARGET_DIR", Path::new(env!("CARGO_TARGET_TMPDIR")).join("build-scripts"))
        // Only the compiled script is wanted: its run stops at once.
        .env("LIBCUDA_SYS_BINDINGS", "compile-only")
        .output()
        .expect("run cargo");
    let script = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|m| m["reason"] == "compiler-artifact" && m["target"]["kind"][0] == "custom-build")
        .filter(|m| m["package_id"].as_str().is_some_and(|id| id.contains("libcuda-sys")))
        .find_map(|m| Some(PathBuf::from(m["filenames"][0].as_str()?)))
        .unwrap_or_else(|| {
            panic!(
                "cargo built no build script for features {features:?}:\n{}",
                String::from_utf8_lossy(&out.stderr)
            )
        });
    scripts.insert(features, script.clone());
    script
}

/// `name` on this process's own `PATH`.
fn which(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).map(|d| d.join(name)).find(|p| p.is_file())
}

/// The real interpreter behind `python3` (not a pyenv or asdf shim, which would
/// need its own setup on `PATH`).
fn python3() -> Option<PathBuf> {
    let out =
        Command::new("python3").args(["-c", "import sys; print(sys.executable)"]).output().ok()?;
    let exe = PathBuf::from(String::from_utf8(out.stdout).ok()?.trim());
    (out.status.success() && exe.is_file()).then_some(exe)
}

/// A copy of `from` (a file, or a directory and all under it), readable by every user.
fn copy_tree(from: &Path, to: &Path) {
    if !from.is_dir() {
        fs::copy(from, to).unwrap();
        fs::set_permissions(to, fs::Permissions::from_mode(0o644)).unwrap();
        return;
    }
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap().flatten() {
        copy_tree(&entry.path(), &to.join(entry.file_name()));
    }
}

/// One run of the build script: its own directory (fake trees, `bin`, `OUT_DIR`)
/// and the variables it adds to the base environment.
struct Case {
    name: &'static str,
    dir: PathBuf,
    bin: PathBuf,
    vars: Vec<(String, OsString)>,
    extra_path: Vec<PathBuf>,
    /// Features the script is compiled with besides the test's own.
    features: Vec<String>,
    /// Run the script as this user, from a copy of what it reads (see [`Case::as_user`]).
    uid: Option<u32>,
    out_dir: Option<PathBuf>,
}

impl Drop for Case {
    /// A staged case's copies are large (the script): not left in the temporary directory.
    fn drop(&mut self) {
        if self.uid.is_some() {
            let _ = fs::remove_dir_all(&self.dir);
            let _ = self.dir.parent().map(fs::remove_dir);
        }
    }
}

/// Where the cases' directories are: a path with a space in it, as users' are.
fn cases_root() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("build script")
}

impl Case {
    fn new(name: &'static str) -> Case {
        Case::with_tools(name, &COMPILER_TOOLS)
    }

    fn with_tools(name: &'static str, tools: &[&str]) -> Case {
        Case::in_dir(cases_root().join(name), name, tools)
    }

    fn in_dir(dir: PathBuf, name: &'static str, tools: &[&str]) -> Case {
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        // Canonical, so that paths the script canonicalizes (nvcc) compare equal.
        let dir = dir.canonicalize().unwrap();
        let bin = dir.join("bin");
        fs::create_dir_all(&bin).unwrap();
        // A target directory as Cargo lays it out, which the build must tell
        // from the rest (it never watches a directory it writes into).
        fs::create_dir_all(dir.join("target")).unwrap();
        fs::write(dir.join("target/CACHEDIR.TAG"), "Signature: 8a477f597d28d172789f06886806bc55\n")
            .unwrap();
        // Generation unless a case asks for another mode: the cases below test
        // it, and its errors must not turn into the automatic fallback.
        let case = Case {
            name,
            dir,
            bin,
            vars: vec![("LIBCUDA_SYS_BINDINGS".into(), "generate".into())],
            extra_path: Vec::new(),
            features: Vec::new(),
            uid: None,
            out_dir: None,
        };
        for tool in tools {
            if let Some(path) = which(tool) {
                case.tool(tool, &path);
            }
        }
        case
    }

    /// A case run as `uid`, who may not reach this checkout or its target
    /// directory (root's home is 0700): the case lives in a directory of the
    /// system's temporary directory, with copies of the script and of what it
    /// reads from the crate (`wrapper.h`, `pregenerated/`). `None` (said as
    /// `skipped`) where that user cannot reach it either.
    fn as_user(name: &'static str, uid: u32) -> Option<Case> {
        let tmp = std::env::temp_dir().canonicalize().unwrap();
        let staging = tmp.join(format!("libcuda-sys build script {}", std::process::id()));
        let mut case = Case::in_dir(staging.join(name), name, &COMPILER_TOOLS);
        case.uid = Some(uid);
        let crate_copy = case.mkdir("crate");
        fs::copy(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("wrapper.h"),
            crate_copy.join("wrapper.h"),
        )
        .unwrap();
        copy_tree(
            &Path::new(env!("CARGO_MANIFEST_DIR")).join("pregenerated"),
            &crate_copy.join("pregenerated"),
        );
        fs::copy(build_script(&[]), case.dir.join("build-script-main")).unwrap();
        // Every directory from the temporary directory down is the user's to enter.
        for dir in staging.ancestors().take_while(|d| d.starts_with(&tmp) && *d != tmp.as_path()) {
            fs::set_permissions(dir, fs::Permissions::from_mode(0o755)).unwrap();
        }
        let reachable = staging
            .ancestors()
            .all(|d| fs::metadata(d).is_ok_and(|m| m.permissions().mode() & 0o001 != 0));
        if !reachable {
            testkit::skip(&format!("user {uid} cannot enter {}", staging.display()));
            return None;
        }
        Some(case)
    }

    /// A case with a small header in `LIBCUDA_SYS_INCLUDE_DIR` and nothing
    /// clang-sys can load: it searches only `LIBCLANG_PATH` when that is set,
    /// here an empty directory (returned).
    fn without_libclang(name: &'static str) -> (Case, PathBuf) {
        let mut case = Case::new(name);
        let empty = case.mkdir("no-libclang-here");
        let include = case.header(
            "include",
            "#define CUDA_VERSION 13000\ntypedef int CUresult;\nCUresult cuInit(unsigned int Flags);\n",
        );
        case.env("LIBCUDA_SYS_INCLUDE_DIR", &include).env("LIBCLANG_PATH", &empty);
        (case, empty)
    }

    /// A directory under the case's own, created.
    fn mkdir(&self, rel: &str) -> PathBuf {
        let dir = self.dir.join(rel);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// `rel/cuda.h` with `text`, returning the directory.
    fn header(&self, rel: &str, text: &str) -> PathBuf {
        let dir = self.mkdir(rel);
        fs::write(dir.join("cuda.h"), text).unwrap();
        dir
    }

    /// A fake toolkit root `rel` whose `include` is the real headers (where
    /// this crate was built from its pregenerated bindings, a stand-in `cuda.h`, good
    /// enough for a toolkit that must not be chosen).
    fn toolkit(&self, rel: &str) -> PathBuf {
        let root = self.mkdir(rel);
        if REAL_INCLUDE.as_str().is_empty() {
            self.header(&format!("{rel}/include"), "#define CUDA_VERSION 13000\n");
        } else {
            symlink(&*REAL_INCLUDE, root.join("include")).unwrap();
        }
        root
    }

    /// `bin/name` -> `target`.
    fn tool(&self, name: &str, target: &Path) {
        symlink(target, self.bin.join(name)).unwrap();
    }

    fn env(&mut self, name: impl Into<String>, value: impl AsRef<OsStr>) -> &mut Case {
        self.vars.push((name.into(), value.as_ref().to_os_string()));
        self
    }

    /// Appends a directory to `PATH`, after `bin`.
    fn path(&mut self, dir: &Path) -> &mut Case {
        self.extra_path.push(dir.to_path_buf());
        self
    }

    /// Builds the script with `feature` too (Cargo compiles a build script with the features of its package).
    fn feature(&mut self, feature: impl Into<String>) -> &mut Case {
        self.features.push(feature.into());
        self
    }

    fn out_dir(&self) -> PathBuf {
        self.out_dir
            .clone()
            .unwrap_or_else(|| self.dir.join("target/debug/build/libcuda-sys-0/out"))
    }

    /// `OUT_DIR` elsewhere than Cargo's layout.
    fn out_dir_at(&mut self, dir: PathBuf) -> &mut Case {
        self.out_dir = Some(dir);
        self
    }

    /// The crate directory the script runs in: this one, or a case's copy.
    fn manifest_dir(&self) -> PathBuf {
        match self.uid {
            Some(_) => self.dir.join("crate"),
            None => PathBuf::from(env!("CARGO_MANIFEST_DIR")),
        }
    }

    fn run(&self) -> Outcome {
        let out_dir = self.out_dir();
        let _ = fs::remove_dir_all(&out_dir);
        fs::create_dir_all(&out_dir).unwrap();
        let path =
            std::env::join_paths(std::iter::once(&self.bin).chain(&self.extra_path)).unwrap();
        let script = match self.uid {
            Some(_) => self.dir.join("build-script-main"),
            None => build_script(&self.features),
        };
        let mut cmd = Command::new(&script);
        cmd.env_clear()
            .current_dir(self.manifest_dir())
            .env("OUT_DIR", &out_dir)
            .env("TARGET", TARGET)
            .env("HOST", TARGET)
            .env("CARGO_CFG_TARGET_OS", std::env::consts::OS)
            .env("CARGO_CFG_TARGET_ARCH", std::env::consts::ARCH)
            .env("CARGO_CFG_TARGET_ENV", "gnu")
            .env("CARGO_CFG_TARGET_VENDOR", "unknown")
            .env("CARGO_CFG_TARGET_POINTER_WIDTH", "64")
            .env("CARGO_CFG_TARGET_ENDIAN", "little")
            .env("CARGO_MANIFEST_DIR", self.manifest_dir())
            .env("CARGO_MANIFEST_LINKS", "cuda")
            .env("CARGO_PKG_NAME", env!("CARGO_PKG_NAME"))
            .env("CARGO_PKG_VERSION", env!("CARGO_PKG_VERSION"))
            .env("OPT_LEVEL", "0")
            .env("PROFILE", "debug")
            .env("DEBUG", "false")
            .env("PATH", &path);
        if let Some(home) = std::env::var_os("HOME") {
            cmd.env("HOME", home);
        }
        cmd.envs(self.vars.iter().map(|(k, v)| (k, v)));
        if let Some(uid) = self.uid {
            use std::os::unix::process::CommandExt;
            // The case's files and OUT_DIR are its to write.
            for dir in out_dir.ancestors().take_while(|d| d.starts_with(&self.dir)) {
                fs::set_permissions(dir, fs::Permissions::from_mode(0o777)).unwrap();
            }
            cmd.uid(uid).gid(uid);
        }
        let out = cmd.output().unwrap_or_else(|e| panic!("run {}: {e}", script.display()));
        let outcome = Outcome {
            case: self.name,
            code: out.status.code(),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        };
        outcome.assert_no_panic();
        outcome.assert_consulted_vars_rerun();
        outcome
    }
}

/// What one run printed.
struct Outcome {
    case: &'static str,
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

impl Outcome {
    /// Everything, for assertion messages (stdout without the long rerun list).
    fn report(&self) -> String {
        let stdout: Vec<&str> = self.stdout.lines().filter(|l| !l.contains("rerun-if-")).collect();
        format!(
            "case {}: exit {:?}\n--- stdout (rerun-if lines left out) ---\n{}\n--- stderr ---\n{}",
            self.case,
            self.code,
            stdout.join("\n"),
            self.stderr
        )
    }

    fn assert_no_panic(&self) {
        for text in [&self.stdout, &self.stderr] {
            for bad in ["panicked", "RUST_BACKTRACE"] {
                assert!(!text.contains(bad), "`{bad}` in the output\n{}", self.report());
            }
        }
    }

    /// `cargo::warning=` (or old-style `cargo:warning=`) lines, the text after `=`.
    fn warnings(&self) -> Vec<&str> {
        self.directive("warning")
    }

    fn directive(&self, name: &str) -> Vec<&str> {
        let new = format!("cargo::{name}=");
        let old = format!("cargo:{name}=");
        self.stdout
            .lines()
            .filter_map(|l| l.strip_prefix(new.as_str()).or_else(|| l.strip_prefix(old.as_str())))
            .collect()
    }

    /// The value of `cargo::metadata=key=...`, empty where there is none (a failed run).
    fn metadata_or_empty(&self, key: &str) -> &str {
        let prefix = format!("{key}=");
        self.directive("metadata")
            .into_iter()
            .find_map(|m| m.strip_prefix(prefix.as_str()))
            .unwrap_or_default()
    }

    /// The value of `cargo::metadata=key=...`.
    fn metadata(&self, key: &str) -> &str {
        let prefix = format!("{key}=");
        let values: Vec<&str> = self
            .directive("metadata")
            .into_iter()
            .filter_map(|m| m.strip_prefix(prefix.as_str()))
            .collect();
        assert_eq!(values.len(), 1, "metadata key {key}: {values:?}\n{}", self.report());
        values[0]
    }

    fn reruns(&self) -> BTreeSet<&str> {
        self.directive("rerun-if-env-changed").into_iter().collect()
    }

    /// Every variable in `names` has a `rerun-if-env-changed` line.
    fn assert_reruns<S: AsRef<str>>(&self, names: &[S]) {
        let reruns = self.reruns();
        let missing: Vec<&str> =
            names.iter().map(AsRef::as_ref).filter(|n| !reruns.contains(n)).collect();
        assert!(missing.is_empty(), "no rerun-if-env-changed for {missing:?}\n{}", self.report());
    }

    /// The script logs each variable it reads (`libcuda-sys: NAME unset` or
    /// `libcuda-sys: NAME = value`); each of those must re-run it when changed.
    fn assert_consulted_vars_rerun(&self) {
        let is_name = |w: &str| {
            !w.is_empty() && w.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        };
        let consulted: Vec<&str> = self
            .stderr
            .lines()
            .filter_map(|l| l.strip_prefix("libcuda-sys: "))
            .filter_map(|l| {
                l.strip_suffix(" unset").or_else(|| l.split_once(" = ").map(|(name, _)| name))
            })
            .filter(|w| is_name(w))
            .collect();
        self.assert_reruns(&consulted);
    }

    /// Exit status 1, exactly one warning, which contains `summary` and is the
    /// first line of the explanation on stderr.
    fn failure(&self, summary: &str) {
        assert_eq!(self.code, Some(1), "the build script should fail\n{}", self.report());
        let warnings = self.warnings();
        assert_eq!(
            warnings.len(),
            1,
            "one cargo::warning line on failure, got {warnings:?}\n{}",
            self.report()
        );
        assert!(
            warnings[0].contains(summary),
            "the warning should say `{summary}`\n{}",
            self.report()
        );
        assert!(
            self.stderr.contains(&format!("\nlibcuda-sys: {}\n", warnings[0])),
            "stderr should start the explanation with the summary\n{}",
            self.report()
        );
        assert!(self.directive("metadata").is_empty(), "no metadata on failure\n{}", self.report());
    }

    fn assert_stderr_has(&self, phrases: &[&str]) {
        let missing: Vec<&&str> = phrases.iter().filter(|p| !self.stderr.contains(**p)).collect();
        assert!(missing.is_empty(), "stderr lacks {missing:?}\n{}", self.report());
    }

    /// Exit status 0 and the header found where expected, by `found_by`.
    fn found(&self, include: &Path, found_by: &str) {
        assert_eq!(self.code, Some(0), "the build script should succeed\n{}", self.report());
        assert_eq!(self.metadata("found_by"), found_by, "{}", self.report());
        // Passed on resolved: the directory itself, not a symlink to it.
        let resolved = include.canonicalize().unwrap();
        assert_eq!(Path::new(self.metadata("include")), resolved, "{}", self.report());
        assert_eq!(self.metadata("version"), *REAL_VERSION, "{}", self.report());
        // The target-prefixed include variable, once set, makes the plain one moot.
        self.assert_reruns(&always_read()[..3]);
        self.assert_reruns(&generation_vars());
    }
}

/// The standard locations of the last discovery step that hold a `cuda.h`: where
/// there is one, "nothing found" cannot happen on this machine.
fn installed_toolkit_headers() -> Vec<PathBuf> {
    let mut roots: Vec<PathBuf> =
        ["/usr/local/cuda", "/opt/cuda", "/usr/lib/cuda", "/usr"].map(PathBuf::from).to_vec();
    roots.extend(
        fs::read_dir("/usr/local")
            .into_iter()
            .flatten()
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().starts_with("cuda-"))
            .map(|e| e.path()),
    );
    roots
        .iter()
        .flat_map(|r| {
            [r.join("include"), r.join("targets").join(TOOLKIT_TARGET_DIR).join("include")]
        })
        .map(|d| d.join("cuda.h"))
        .filter(|h| h.is_file())
        .collect()
}

// ---------------------------------------------------------------------------
// 1. Nothing found.

#[test]
fn no_headers_anywhere_is_a_clear_error() {
    let installed = installed_toolkit_headers();
    if !installed.is_empty() {
        return testkit::skip(&format!("this machine has CUDA headers in a standard location ({installed:?}), so the search cannot come up empty"));
    }
    let run = Case::new("no_headers").run();
    if run.code == Some(0) {
        return testkit::skip(&format!(
            "the search found headers on this machine: {} ({})",
            run.metadata("include"),
            run.metadata("found_by")
        ));
    }
    run.failure("no CUDA headers (cuda.h) found");
    // No Python on the case's PATH: said as such, not as "nothing on sys.path".
    run.assert_stderr_has(&["pip wheels: no python3 on PATH", "no Python to ask for its sys.path"]);
    run.assert_stderr_has(&[
        "found none",
        &format!("$TARGET = {TARGET}"),
        "Variables consulted",
        "Places tried:",
        "nvcc on PATH: nothing to try",
        "pkg-config: nothing to try",
        "conda ($CONDA_PREFIX): nothing to try",
        "pip wheel: nothing to try",
        "standard location: /usr/local/cuda/include (not a directory)",
        "standard location: /usr/include (no cuda.h)",
        "Fix one of:",
        "pip install nvidia-cuda-runtime",
        "set CUDA_PATH",
        "set LIBCUDA_SYS_INCLUDE_DIR",
        "or use the crate's pregenerated bindings",
    ]);
    let mut vars = always_read();
    vars.extend(ROOT_VARS.map(String::from));
    vars.extend(
        ["PATH", "PKG_CONFIG_PATH", "CONDA_PREFIX", "VIRTUAL_ENV", "PYTHONPATH"].map(String::from),
    );
    run.assert_reruns(&vars);
}

// ---------------------------------------------------------------------------
// 2.-4. Explicit settings that are wrong are errors, never silently replaced.

#[test]
fn include_dir_override_must_hold_cuda_h() {
    let mut case = Case::new("include_dir_wrong");
    // A valid toolkit elsewhere, which must not be used instead.
    let other = case.toolkit("other");

    let run =
        case.env("LIBCUDA_SYS_INCLUDE_DIR", "/nonexistent/include").env("CUDA_PATH", &other).run();
    run.failure("LIBCUDA_SYS_INCLUDE_DIR=/nonexistent/include does not exist");
    run.assert_stderr_has(&[
        "LIBCUDA_SYS_INCLUDE_DIR must name the directory that holds cuda.h",
        "Looked for:\n  /nonexistent/include/cuda.h",
        "pip install nvidia-cuda-runtime",
        "unset LIBCUDA_SYS_INCLUDE_DIR",
    ]);

    let mut case = Case::new("include_dir_empty");
    let empty = case.mkdir("empty");
    let run = case.env("LIBCUDA_SYS_INCLUDE_DIR", &empty).run();
    run.failure(&format!("LIBCUDA_SYS_INCLUDE_DIR={} has no cuda.h", empty.display()));
    run.assert_stderr_has(&[
        &format!("Looked for:\n  {}", empty.join("cuda.h").display()),
        "e.g. LIBCUDA_SYS_INCLUDE_DIR=/usr/local/cuda/include",
    ]);

    // The header itself instead of its directory: a common slip.
    let mut case = Case::new("include_dir_is_file");
    let file = case.header("inc", "#define CUDA_VERSION 13000\n").join("cuda.h");
    let run = case.env(prefixed("LIBCUDA_SYS_INCLUDE_DIR"), &file).run();
    run.failure(&format!(
        "{}={} is not a directory",
        prefixed("LIBCUDA_SYS_INCLUDE_DIR"),
        file.display()
    ));
}

#[test]
fn cuda_path_without_cuda_h_is_an_error() {
    let mut case = Case::new("cuda_path_wrong");
    let empty = case.mkdir("not-a-toolkit");
    // CUDA_HOME is valid but comes after CUDA_PATH: a wrong CUDA_PATH is not skipped.
    let home = case.toolkit("home");
    let run = case.env("CUDA_PATH", &empty).env("CUDA_HOME", &home).run();
    run.failure(&format!("CUDA_PATH={} has no cuda.h", empty.display()));
    run.assert_stderr_has(&[
        "CUDA_PATH must name a CUDA toolkit root (the directory above include/cuda.h)",
        &format!("  {}", empty.join("include/cuda.h").display()),
        &format!(
            "  {}",
            empty.join("targets").join(TOOLKIT_TARGET_DIR).join("include/cuda.h").display()
        ),
        "e.g. CUDA_PATH=/usr/local/cuda",
        "unset CUDA_PATH",
    ]);
    run.assert_reruns(&ROOT_VARS);
}

#[test]
fn lib_dir_override_that_does_not_exist_is_an_error() {
    let run = Case::new("lib_dir_missing")
        .env("LIBCUDA_SYS_LIB_DIR", "/nonexistent/lib64")
        .env("LIBCUDA_SYS_INCLUDE_DIR", &*REAL_INCLUDE)
        .run();
    run.failure("LIBCUDA_SYS_LIB_DIR=/nonexistent/lib64 is not a directory");
    run.assert_stderr_has(&[
        "holds libcuda.so",
        "It is set to /nonexistent/lib64",
        "Fix: point it at the driver's library directory",
        "unset LIBCUDA_SYS_LIB_DIR",
    ]);
}

#[test]
fn lib_dir_override_without_libcuda_is_an_error() {
    if linking_untestable() {
        return;
    }
    let mut case = Case::new("lib_dir_empty");
    let lib = case.mkdir("lib");
    // The pregenerated bindings: linking is the same for both, and needs no headers.
    let run =
        case.env("LIBCUDA_SYS_LIB_DIR", &lib).env("LIBCUDA_SYS_BINDINGS", "pregenerated").run();
    run.failure(&format!("LIBCUDA_SYS_LIB_DIR={} holds no libcuda", lib.display()));
    run.assert_stderr_has(&["Looked for libcuda.so, libcuda.so.1", "ldconfig -p | grep libcuda"]);
}

#[test]
fn a_text_file_named_libcuda_is_not_a_library() {
    if linking_untestable() {
        return;
    }
    let mut case = Case::new("lib_dir_text_file");
    let lib = case.mkdir("lib");
    fs::write(lib.join("libcuda.so"), "INPUT(nothing here)\n").unwrap();
    let run =
        case.env("LIBCUDA_SYS_LIB_DIR", &lib).env("LIBCUDA_SYS_BINDINGS", "pregenerated").run();
    run.failure(&format!("LIBCUDA_SYS_LIB_DIR={} holds no libcuda", lib.display()));
    run.assert_stderr_has(&[
        "is not a shared library (no ELF header), passed over",
        "that is not a shared library does not count",
    ]);
}

#[test]
fn a_stub_named_as_the_driver_directory_is_linked_as_a_stub() {
    if linking_untestable() {
        return;
    }
    // The toolkit's stubs directory.
    let mut case = Case::new("lib_dir_toolkit_stub");
    let stubs = case.mkdir("cuda/lib64/stubs");
    fs::write(stubs.join("libcuda.so"), ELF_STAND_IN).unwrap();
    let run =
        case.env("LIBCUDA_SYS_LIB_DIR", &stubs).env("LIBCUDA_SYS_BINDINGS", "pregenerated").run();
    assert_eq!(run.metadata("link_kind"), "toolkit-stub", "{}", run.report());
    assert!(run.warnings().iter().any(|w| w.contains("stub libcuda")), "{}", run.report());
    // The crate's own stand-in, from an earlier build's OUT_DIR.
    let run =
        Case::new("lib_dir_stand_in_source").env("LIBCUDA_SYS_BINDINGS", "pregenerated").run();
    if run.metadata("link_kind") != "generated-stub" {
        return testkit::skip("this machine has a libcuda, so no stand-in is built");
    }
    let mut case = Case::new("lib_dir_stand_in");
    let copy = case.mkdir("lib");
    let source = cases_root()
        .join("lib_dir_stand_in_source/target/debug/build/libcuda-sys-0/out/stub/libcuda.so.1");
    fs::copy(source, copy.join("libcuda.so.1")).unwrap();
    let run =
        case.env("LIBCUDA_SYS_LIB_DIR", &copy).env("LIBCUDA_SYS_BINDINGS", "pregenerated").run();
    assert_eq!(run.metadata("link_kind"), "generated-stub", "{}", run.report());
    assert!(run.warnings().iter().any(|w| w.contains("stand-in")), "{}", run.report());
}

#[test]
fn a_libcuda_of_another_architecture_is_not_taken() {
    if linking_untestable() {
        return;
    }
    let other = if ELF_MACHINE == EM_X86_64 { EM_AARCH64 } else { EM_X86_64 };
    let mut case = Case::new("lib_dir_other_arch");
    let lib = case.mkdir("lib");
    fs::write(lib.join("libcuda.so.1"), elf_header(other)).unwrap();
    let run =
        case.env("LIBCUDA_SYS_LIB_DIR", &lib).env("LIBCUDA_SYS_BINDINGS", "pregenerated").run();
    run.failure(&format!("LIBCUDA_SYS_LIB_DIR={} holds no libcuda", lib.display()));
    run.assert_stderr_has(&[&format!(
        "is a library for another architecture (ELF class 2, machine {other})"
    )]);
    // A 32-bit driver.
    let mut case = Case::new("lib_dir_32_bit");
    let lib = case.mkdir("lib");
    let mut header = elf_header(ELF_MACHINE);
    header[4] = 1;
    fs::write(lib.join("libcuda.so.1"), header).unwrap();
    let run =
        case.env("LIBCUDA_SYS_LIB_DIR", &lib).env("LIBCUDA_SYS_BINDINGS", "pregenerated").run();
    run.failure(&format!("LIBCUDA_SYS_LIB_DIR={} holds no libcuda", lib.display()));
    run.assert_stderr_has(&["is a library for another architecture (ELF class 1"]);
}

#[test]
fn an_out_dir_with_a_line_break_is_refused_in_every_mode() {
    for feature in [None, Some("dynamic-loading")] {
        let mut case = Case::new("out_dir_line_break");
        if let Some(f) = feature {
            case.feature(f);
        }
        let odd = case.mkdir("odd\nout");
        let run = case.env("LIBCUDA_SYS_BINDINGS", "pregenerated").out_dir_at(odd).run();
        run.failure("OUT_DIR");
        assert!(run.stderr.contains("contains a line break"), "{}", run.report());
    }
}

#[test]
fn a_cuda_h_that_is_no_file_is_called_what_it_is() {
    let mut case = Case::new("cuda_h_odd");
    let dangling = case.mkdir("dangling");
    symlink(case.dir.join("nowhere.h"), dangling.join("cuda.h")).unwrap();
    let looped = case.mkdir("loop");
    symlink(looped.join("cuda.h"), looped.join("cuda.h")).unwrap();
    let dir = case.mkdir("dir");
    fs::create_dir(dir.join("cuda.h")).unwrap();
    for (include, said) in [
        (&dangling, format!("a broken symlink (to {})", case.dir.join("nowhere.h").display())),
        (&looped, "a symlink loop".to_string()),
        (&dir, "a directory".to_string()),
    ] {
        let run = case.env("LIBCUDA_SYS_INCLUDE_DIR", include).run();
        run.failure(&format!(
            "LIBCUDA_SYS_INCLUDE_DIR={} holds a cuda.h that is {said}",
            include.display()
        ));
    }
}

#[test]
fn user_cflags_stay_out_of_the_stand_in() {
    let run = Case::new("stand_in_cflags")
        .env("LIBCUDA_SYS_BINDINGS", "pregenerated")
        .env("CFLAGS", "-fsanitize=address -DUSER_FLAG_MARK")
        .run();
    if run.metadata("link_kind") != "generated-stub" {
        return testkit::skip("this machine has a libcuda, so no stand-in is built");
    }
    let line = run
        .stderr
        .lines()
        .find(|l| l.starts_with("libcuda-sys: stand-in libcuda: "))
        .unwrap_or_else(|| panic!("no stand-in command logged\n{}", run.report()));
    assert!(!line.contains("-fsanitize=address") && !line.contains("USER_FLAG_MARK"), "{line}");
}

#[test]
fn a_file_as_lib_dir_is_called_a_file() {
    let mut case = Case::new("lib_dir_file");
    let file = case.dir.join("libcuda.so.1");
    fs::write(&file, ELF_STAND_IN).unwrap();
    let run =
        case.env("LIBCUDA_SYS_LIB_DIR", &file).env("LIBCUDA_SYS_BINDINGS", "pregenerated").run();
    run.failure(&format!("LIBCUDA_SYS_LIB_DIR={} is not a directory", file.display()));
    run.assert_stderr_has(&["which is a file, not a directory"]);
    assert!(!run.stderr.contains("does not exist"), "{}", run.report());
}

#[test]
fn relative_paths_in_variables_are_errors() {
    for var in ["CUDA_PATH", "LIBCUDA_SYS_INCLUDE_DIR", "LIBCUDA_SYS_LIB_DIR"] {
        let run = Case::new("relative_paths")
            .env(var, "cuda/include")
            .env("LIBCUDA_SYS_BINDINGS", "")
            .run();
        run.failure(&format!("{var}=cuda/include is a relative path"));
        run.assert_stderr_has(&["must be an absolute path", "$PWD/cuda/include"]);
    }
}

#[test]
fn include_dirs_that_break_directives_are_errors() {
    let mut case = Case::new("newline_path");
    let include = case.header("bad\ndir/include", "#define CUDA_VERSION 13000\n");
    let run = case.env("LIBCUDA_SYS_INCLUDE_DIR", &include).run();
    run.failure("contains a line break");
    let mut case = Case::new("colon_path");
    let include = case.header("bad:dir/include", "#define CUDA_VERSION 13000\n");
    let run = case.env("LIBCUDA_SYS_INCLUDE_DIR", &include).run();
    run.failure("contains the path-list separator");
}

#[test]
fn the_header_s_fingerprint_follows_its_bytes() {
    if generation_unavailable() {
        return;
    }
    let fingerprint = |name: &'static str, extra: &str| {
        let mut case = Case::new(name);
        let include = case.mkdir("include");
        let header = fs::read_to_string(Path::new(&*REAL_INCLUDE).join("cuda.h")).unwrap();
        fs::write(include.join("cuda.h"), format!("{header}{extra}")).unwrap();
        let run = case.env("LIBCUDA_SYS_INCLUDE_DIR", &include).run();
        assert_eq!(run.code, Some(0), "{}", run.report());
        run.metadata("cuda_h_fnv1a64").to_string()
    };
    let (a, b, c) = (
        fingerprint("fingerprint_a", ""),
        fingerprint("fingerprint_b", ""),
        fingerprint("fingerprint_c", "/* one byte more or less */\n"),
    );
    assert_eq!(a.len(), 16, "{a}");
    assert_eq!(a, b, "the same bytes, the same fingerprint");
    assert_ne!(a, c, "other bytes, another fingerprint");
}

#[test]
fn without_cuda_typedefs_h_the_build_works_and_says_so() {
    if linking_untestable() {
        return;
    }
    if generation_unavailable() {
        return;
    }
    // An include directory with cuda.h alone.
    let mut case = Case::new("no_typedefs");
    let include = case.mkdir("include");
    fs::copy(Path::new(&*REAL_INCLUDE).join("cuda.h"), include.join("cuda.h")).unwrap();
    let run = case.env("LIBCUDA_SYS_INCLUDE_DIR", &include).run();
    assert_eq!(run.code, Some(0), "{}", run.report());
    run.assert_stderr_has(&[
        "cudaTypedefs.h is absent: which driver each function needs is unavailable",
    ]);
    let since = fs::read_to_string(case.out_dir().join("since.rs")).unwrap();
    assert!(since.contains("SINCE_AVAILABLE: bool = false"), "{since}");
    // A floor cannot be honoured without it, and says why.
    let run = case.env("LIBCUDA_SYS_DRIVER_FLOOR", "13.0").run();
    run.failure("LIBCUDA_SYS_DRIVER_FLOOR=13.0 needs cudaTypedefs.h beside cuda.h");
}

#[test]
fn an_unused_toolkit_variable_is_quoted_as_set() {
    let mut case = Case::new("resolved_include");
    let real = case.header("cuda-13.0/include", "#define CUDA_VERSION 13000\n");
    // /usr/local/cuda style: a symlink to the versioned toolkit.
    symlink(case.dir.join("cuda-13.0"), case.dir.join("cuda")).unwrap();
    let run = case
        .env("CUDA_PATH", case.dir.join("cuda"))
        .env("LIBCUDA_SYS_BINDINGS", "pregenerated")
        .run();
    // The pregenerated set ignores the headers but checks them; the warning quotes
    // the value set, not the include directory it resolves to.
    assert!(real.join("cuda.h").is_file());
    assert!(
        run.warnings()
            .iter()
            .any(|w| w
                .contains(&format!("CUDA_PATH={} is not used", case.dir.join("cuda").display()))),
        "{}",
        run.report()
    );
}

// ---------------------------------------------------------------------------
// 5.-6. Headers that are not usable.

#[test]
fn header_older_than_11_2_is_rejected() {
    let mut case = Case::new("too_old");
    let root = case.mkdir("cuda-11.0");
    let include = case.header("cuda-11.0/include", "#define CUDA_VERSION 11000\n");
    let run = case.env("CUDA_PATH", &root).run();
    run.failure(&format!(
        "cuda.h in {} is CUDA 11.0 (CUDA_VERSION 11000); libcuda-sys needs 11.2 or newer",
        include.display()
    ));
    run.assert_stderr_has(&[
        "first appeared in CUDA 11.2",
        "pip install nvidia-cuda-runtime",
        "point CUDA_PATH or LIBCUDA_SYS_INCLUDE_DIR at a newer toolkit",
    ]);
}

#[test]
fn header_without_cuda_version_is_rejected() {
    let mut case = Case::new("no_version");
    let include = case.header("include", "/* not the driver API */\n#define NOT_CUDA 1\n");
    let run = case.env("LIBCUDA_SYS_INCLUDE_DIR", &include).run();
    run.failure(&format!(
        "{} does not define CUDA_VERSION as a number",
        include.join("cuda.h").display()
    ));
    run.assert_stderr_has(&["not the CUDA driver API header", "11.2 or newer"]);
}

#[test]
fn header_that_does_not_preprocess_is_a_clear_error() {
    let mut case = Case::new("no_preprocess");
    let include =
        case.header("include", "#include \"cuda_missing_part.h\"\n#define CUDA_VERSION 13000\n");
    let run = case.env("LIBCUDA_SYS_INCLUDE_DIR", &include).run();
    run.failure(&format!("the C preprocessor failed on {}", include.join("cuda.h").display()));
    run.assert_stderr_has(&[
        "cuda.h does not preprocess with the C compiler",
        "-E",
        "complete set of CUDA headers",
        "CC and CFLAGS",
    ]);
}

#[test]
fn header_that_bindgen_cannot_parse_is_a_clear_error() {
    if generation_unavailable() {
        return;
    }
    let mut case = Case::new("no_parse");
    // Preprocesses (so CUDA_VERSION is read), but is not C.
    let include = case.header("include", "#define CUDA_VERSION 13000\ntypedef int CUresult;\nCUresult cuInit(unsigned int Flags) oops;\nint cuBroken = ;\n");
    let run = case.env("LIBCUDA_SYS_INCLUDE_DIR", &include).run();
    run.failure(&format!("bindgen could not parse {}", include.join("cuda.h").display()));
    run.assert_stderr_has(&[
        "cuda.h:3:",
        "error:",
        "The header did not parse with libclang",
        "BINDGEN_EXTRA_CLANG_ARGS",
    ]);
}

#[test]
fn no_c_compiler_is_a_clear_error() {
    let mut case = Case::with_tools("no_compiler", &[]);
    let include = case.header("include", "#define CUDA_VERSION 13000\n");
    let run = case.env("LIBCUDA_SYS_INCLUDE_DIR", &include).run();
    run.failure("no C compiler found");
    // cc's words for it differ between its versions; the fix does not.
    run.assert_stderr_has(&["needs a C compiler", "apt-get install gcc", "set CC"]);
}

#[test]
fn no_cross_compiler_names_the_cross_compiler() {
    let mut case = Case::with_tools("no_cross_compiler", &[]);
    let include = case.header("include", "#define CUDA_VERSION 13000\n");
    let run = case
        .env("TARGET", "aarch64-unknown-linux-gnu")
        .env("CARGO_CFG_TARGET_ARCH", "aarch64")
        .env("LIBCUDA_SYS_INCLUDE_DIR", &include)
        .run();
    run.failure("no C compiler found");
    run.assert_stderr_has(&[
        "C cross compiler for aarch64-unknown-linux-gnu",
        "apt-get install gcc-aarch64-linux-gnu",
        "CC_aarch64_unknown_linux_gnu",
    ]);
    assert!(!run.stderr.contains("apt-get install gcc)"), "{}", run.report());
}

#[test]
fn a_cross_target_without_its_c_headers_names_the_sysroot_setting() {
    // A C compiler for the target is named (the host's gcc stands in, so the
    // preprocessor passes), but libclang, parsing as riscv64, finds no C
    // library headers for it: the error names the variable for a sysroot.
    if generation_unavailable() {
        return;
    }
    let mut case = Case::new("cross_no_sysroot");
    let include = case.header(
        "include",
        "#include <stdlib.h>\n#define CUDA_VERSION 13000\ntypedef int CUresult;\n",
    );
    let gcc = which("gcc").expect("gcc");
    let run = case
        .env("TARGET", "riscv64gc-unknown-linux-gnu")
        .env("CARGO_CFG_TARGET_ARCH", "riscv64")
        .env("CC_riscv64gc_unknown_linux_gnu", &gcc)
        // Without cc's target flags (-march=rv64gc), which the host's gcc refuses.
        .env("CRATE_CC_NO_DEFAULTS", "1")
        .env("LIBCUDA_SYS_INCLUDE_DIR", &include)
        .run();
    run.failure("bindgen could not parse");
    run.assert_stderr_has(&[
        "cross build for riscv64gc-unknown-linux-gnu",
        "the target's C library headers (stdlib.h)",
        "BINDGEN_EXTRA_CLANG_ARGS_riscv64gc_unknown_linux_gnu=\"--sysroot=",
    ]);
}

#[test]
fn a_cc_that_is_not_a_c_compiler_is_named() {
    let mut case = Case::new("cc_true");
    let include = case.header("include", "#define CUDA_VERSION 13000\n");
    let truth = which("true").expect("`true` on PATH");
    let run = case.env("CC", &truth).env("LIBCUDA_SYS_INCLUDE_DIR", &include).run();
    run.failure(&format!("the C compiler {} printed no macros", truth.display()));
    // Not blamed on the header.
    assert!(!run.stderr.contains("CUDA_VERSION"), "{}", run.report());
}

#[test]
fn cflags_are_named_when_the_preprocessor_fails() {
    let mut case = Case::new("cflags_named");
    let include = case.header("include", "#define CUDA_VERSION 13000\n");
    let flags = "-include /nonexistent/forced.h";
    let run = case.env("CFLAGS", flags).env("LIBCUDA_SYS_INCLUDE_DIR", &include).run();
    run.failure(&format!(
        "the C preprocessor failed on {}/cuda.h (with CFLAGS={flags})",
        include.display()
    ));
    run.assert_stderr_has(&["check the compiler and flags: CFLAGS=", "/nonexistent/forced.h"]);
}

// Variables of the C compiler and the compiler's own diagnostics.

#[test]
fn c_compiler_variables_rerun_the_script() {
    let mut case = Case::new("cc_vars");
    // Fails right after the preprocessor has run: no bindgen needed.
    let include = case.header("include", "#define CUDA_VERSION 11000\n");
    let run = case
        .env("LIBCUDA_SYS_INCLUDE_DIR", &include)
        .env("CC", "cc")
        .env("CFLAGS", "-DLIBCUDA_SYS_TEST=1")
        .run();
    run.failure("needs 11.2 or newer");
    run.assert_reruns(&["CC", "CFLAGS"]);
}

#[test]
fn preprocessor_error_shows_the_compiler_diagnostic() {
    let mut case = Case::new("no_preprocess_diagnostic");
    let include =
        case.header("include", "#include \"cuda_missing_part.h\"\n#define CUDA_VERSION 13000\n");
    // A CI secret in the environment: the command is shown, its environment never.
    let secret = "s3cr3t-token-value-4711";
    let run = case.env("LIBCUDA_SYS_INCLUDE_DIR", &include).env("MY_API_TOKEN", secret).run();
    run.failure("the C preprocessor failed");
    run.assert_stderr_has(&["cuda_missing_part.h", "No such file or directory"]);
    assert!(
        !run.stdout.contains(secret) && !run.stderr.contains(secret),
        "the environment leaked into the output\n{}",
        run.report()
    );
}

// ---------------------------------------------------------------------------
// 7. libclang.

#[test]
fn libclang_that_cannot_be_loaded_is_a_clear_error() {
    let (case, empty) = Case::without_libclang("no_libclang");
    let run = case.run();
    if run.code == Some(0) {
        return testkit::skip(&format!(
            "libclang was loaded although LIBCLANG_PATH={} is empty (exit {:?})",
            empty.display(),
            run.code
        ));
    }
    run.failure(&format!(
        "libclang not found (LIBCLANG_PATH={} holds no libclang that loads; bindgen needs it to read cuda.h)",
        empty.display()
    ));
    run.assert_stderr_has(&[
        "couldn't find any valid shared libraries matching",
        "apt-get install libclang-dev",
        "dnf install clang-devel",
        "or unset LIBCLANG_PATH",
    ]);
    run.assert_reruns(&["LIBCLANG_PATH"]);
}

#[test]
fn a_libclang_path_that_does_not_exist_is_named() {
    let (mut case, _) = Case::without_libclang("libclang_path_missing");
    let run = case.env("LIBCLANG_PATH", "/nonexistent").run();
    run.failure(
        "libclang not found (LIBCLANG_PATH=/nonexistent does not exist; bindgen needs it to read cuda.h)",
    );
    // In the automatic mode the fallback warning says the same.
    let (mut case, _) = Case::without_libclang("libclang_path_missing_fallback");
    let run = case.env("LIBCLANG_PATH", "/nonexistent").env("LIBCUDA_SYS_BINDINGS", "").run();
    assert!(
        run.warnings()
            .iter()
            .any(|w| w
                .contains("because libclang not found (LIBCLANG_PATH=/nonexistent does not exist")),
        "{}",
        run.report()
    );
}

#[test]
fn an_empty_libclang_path_is_unset() {
    if generation_unavailable() {
        return;
    }
    // Empty, clang-sys would search nothing else; unset, it finds this machine's libclang.
    let mut case = Case::new("libclang_path_empty");
    let root = case.toolkit("toolkit");
    let run = case.env("CUDA_PATH", &root).env("LIBCLANG_PATH", "").run();
    run.found(&root.join("include"), "CUDA_PATH");
}

#[test]
fn a_library_that_is_not_libclang_is_a_clear_error() {
    // Some shared library that is not libclang, under libclang's name.
    let Some(libm) = [
        "/lib/x86_64-linux-gnu/libm.so.6",
        "/lib/aarch64-linux-gnu/libm.so.6",
        "/usr/lib64/libm.so.6",
        "/lib64/libm.so.6",
    ]
    .into_iter()
    .map(Path::new)
    .find(|p| p.is_file()) else {
        return testkit::skip("no libm.so.6 to pose as libclang");
    };
    let (mut case, dir) = Case::without_libclang("not_libclang");
    fs::copy(libm, dir.join("libclang.so")).unwrap();
    let run = case.env("LIBCLANG_PATH", &dir).run();
    run.failure(&format!("{} is not libclang", dir.join("libclang.so").display()));
    run.assert_stderr_has(&["does not export clang_createIndex", "apt-get install libclang-dev"]);
}

#[test]
fn clang_flags_that_change_the_abi_are_a_clear_error() {
    if generation_unavailable() {
        return;
    }
    let mut case = Case::new("m32");
    let root = case.toolkit("toolkit");
    // bindgen asserts that the target's pointer width is the one it was told.
    let run = case.env("CUDA_PATH", &root).env("BINDGEN_EXTRA_CLANG_ARGS", "-m32").run();
    run.failure("bindgen stopped on");
    run.assert_stderr_has(&[
        "BINDGEN_EXTRA_CLANG_ARGS = -m32",
        "that change the target's ABI",
        &format!("the bindings are for {TARGET}"),
    ]);
}

// ---------------------------------------------------------------------------
// 8. Discovery order, and 9. what a successful run emits.

#[test]
fn include_dir_beats_cuda_path_and_emits_everything() {
    if linking_untestable() {
        return;
    }
    if generation_unavailable() {
        return;
    }
    let mut case = Case::new("include_dir_wins");
    let root = case.toolkit("toolkit");
    let other = case.toolkit("other");
    let run =
        case.env("LIBCUDA_SYS_INCLUDE_DIR", root.join("include")).env("CUDA_PATH", &other).run();
    run.found(&root.join("include"), "LIBCUDA_SYS_INCLUDE_DIR");
    assert!(run.warnings().iter().all(|w| !w.contains("CUDA_PATH")), "{}", run.report());

    // Version and the cust_raw-compatible keys.
    let number: u32 = REAL_VERSION.parse().unwrap();
    let (major, minor) = (number / 1000, number % 1000 / 10);
    assert_eq!(run.metadata("version_major"), major.to_string());
    assert_eq!(run.metadata("version_minor"), minor.to_string());
    assert_eq!(run.metadata("driver_version"), *REAL_VERSION);
    assert_eq!(run.metadata("driver_version_major"), major.to_string());
    assert_eq!(run.metadata("driver_version_minor"), minor.to_string());
    let resolved = root.join("include").canonicalize().unwrap();
    assert_eq!(Path::new(run.metadata("includes")), resolved);
    assert_eq!(Path::new(run.metadata("root")), root);
    let ptds = cfg!(feature = "per-thread-default-stream").to_string();
    assert_eq!(run.metadata("per_thread_default_stream"), ptds);

    // Cumulative cfgs, all declared.
    let cfgs = run.directive("rustc-cfg");
    let own = format!("cuda_{major}_{minor}");
    for cfg in ["cuda_11_2", own.as_str()] {
        assert!(cfgs.contains(&cfg), "no rustc-cfg={cfg}: {cfgs:?}");
    }
    let next = format!("cuda_{major}_{}", minor + 1);
    assert!(!cfgs.contains(&next.as_str()), "rustc-cfg={next} for a {major}.{minor} header");
    assert!(!cfgs.contains(&"cuda_11_1"), "no cfg below the 11.2 minimum");
    let check = run.directive("rustc-check-cfg").join(" ");
    for cfg in cfgs.iter().chain([&next.as_str()]) {
        assert!(check.contains(cfg), "{cfg} not declared in {check}");
    }
    assert!(
        !cfgs.contains(&"libcuda_sys_pregenerated"),
        "generated bindings marked as pregenerated"
    );
    assert_eq!(Path::new(run.metadata("bindings_dir")), case.out_dir(), "{}", run.report());

    // Link lines: wherever libcuda came from, it is there.
    let lib_dir = PathBuf::from(run.metadata("lib_dir"));
    assert_eq!(run.directive("rustc-link-search"), vec![format!("native={}", lib_dir.display())]);
    let libs = run.directive("rustc-link-lib");
    assert!(libs == ["dylib=cuda"] || libs == ["dylib:+verbatim=libcuda.so.1"], "{libs:?}");
    assert!(
        lib_dir.join("libcuda.so").exists() || lib_dir.join("libcuda.so.1").exists(),
        "no libcuda in {}",
        lib_dir.display()
    );
    match run.metadata("link_kind") {
        "generated-stub" => {
            assert_eq!(lib_dir, case.out_dir().join("stub"));
            assert!(run.warnings().iter().any(|w| w.contains("stand-in")), "{}", run.report());
        }
        "driver" | "toolkit-stub" => {}
        other => panic!("link_kind={other}"),
    }
    // Nothing for tests only: they read the crate's constants.
    assert!(run.directive("rustc-env").is_empty(), "{}", run.report());
    for file in [
        "bindings.rs",
        "functions.rs",
        "renames.rs",
        "value_types.rs",
        "since.rs",
        "macro_constants.rs",
    ] {
        let len = fs::metadata(case.out_dir().join(file)).map(|m| m.len()).unwrap_or(0);
        assert!(len > 0, "OUT_DIR/{file} missing or empty");
    }
}

#[test]
fn target_prefixed_include_dir_beats_plain_one() {
    if generation_unavailable() {
        return;
    }
    let mut case = Case::new("prefixed_wins");
    let prefixed_root = case.toolkit("for-target");
    let plain_root = case.toolkit("plain");
    let name = prefixed("LIBCUDA_SYS_INCLUDE_DIR");
    let run = case
        .env(&name, prefixed_root.join("include"))
        .env("LIBCUDA_SYS_INCLUDE_DIR", plain_root.join("include"))
        .run();
    run.found(&prefixed_root.join("include"), &name);
}

#[test]
fn cuda_path_beats_cuda_home_and_warns_when_they_disagree() {
    if generation_unavailable() {
        return;
    }
    let mut case = Case::new("cuda_path_wins");
    let path_root = case.toolkit("cuda-path");
    let home_root = case.toolkit("cuda-home");
    // CUDA_ROOT names the same directory as CUDA_PATH (through a symlink): no warning for it.
    let alias = case.dir.join("cuda-path-alias");
    symlink(&path_root, &alias).unwrap();
    let run = case
        .env("CUDA_PATH", &path_root)
        .env("CUDA_HOME", &home_root)
        .env("CUDA_ROOT", &alias)
        .run();
    run.found(&path_root.join("include"), "CUDA_PATH");
    assert_eq!(Path::new(run.metadata("root")), path_root);
    let disagree: Vec<&str> =
        run.warnings().into_iter().filter(|w| w.contains("disagree")).collect();
    assert_eq!(disagree.len(), 1, "one warning, for CUDA_HOME only\n{}", run.report());
    for part in [
        format!("CUDA_PATH={}", path_root.display()),
        format!("CUDA_HOME={}", home_root.display()),
        "is ignored".into(),
    ] {
        assert!(disagree[0].contains(&part), "warning lacks `{part}`: {}", disagree[0]);
    }
    run.assert_reruns(&ROOT_VARS);
}

#[test]
fn nvcc_on_path_is_found() {
    if generation_unavailable() {
        return;
    }
    let mut case = Case::new("nvcc");
    let root = case.toolkit("toolkit");
    let nvcc = case.mkdir("toolkit/bin").join("nvcc");
    fs::write(&nvcc, "#!/bin/sh\necho 'nvcc: fake' >&2\nexit 1\n").unwrap();
    fs::set_permissions(&nvcc, fs::Permissions::from_mode(0o755)).unwrap();
    let run = case.path(&root.join("bin")).run();
    run.found(&root.join("include"), "nvcc on PATH");
    assert_eq!(Path::new(run.metadata("root")), root);
    let mut vars = ROOT_VARS.map(String::from).to_vec();
    vars.push("PATH".into());
    run.assert_reruns(&vars);
}

#[test]
fn conda_prefix_is_found() {
    if generation_unavailable() {
        return;
    }
    let mut case = Case::new("conda");
    // conda's cuda packages keep the headers under targets/<dir>/include only.
    let prefix = case.mkdir("env");
    let include = case.mkdir(&format!("env/targets/{TOOLKIT_TARGET_DIR}"));
    symlink(&*REAL_INCLUDE, include.join("include")).unwrap();
    // Empty values count as unset.
    let run = case
        .env("CONDA_PREFIX", &prefix)
        .env("CUDA_PATH", "")
        .env("LIBCUDA_SYS_INCLUDE_DIR", "")
        .run();
    run.found(&include.join("include"), "conda ($CONDA_PREFIX)");
    assert_eq!(Path::new(run.metadata("root")), prefix);
    run.assert_reruns(&["CUDA_PATH", "PATH", "PKG_CONFIG_PATH", "CONDA_PREFIX"]);
}

#[test]
fn pip_wheel_on_pythonpath_is_found() {
    if generation_unavailable() {
        return;
    }
    let Some(python) = python3() else {
        return testkit::skip("no python3 on PATH");
    };
    let mut case = Case::new("pip");
    case.tool("python3", &python);
    let site = case.mkdir("site-packages");
    let wheel = case.mkdir("site-packages/nvidia/cu13");
    symlink(&*REAL_INCLUDE, wheel.join("include")).unwrap();
    let run = case.env("PYTHONPATH", &site).run();
    run.found(&wheel.join("include"), "pip wheel");
    run.assert_reruns(&["PATH", "CONDA_PREFIX", "VIRTUAL_ENV", "PYTHONPATH"]);
}

#[test]
fn pkg_config_file_is_found() {
    if generation_unavailable() {
        return;
    }
    let Some(pkg_config) = which("pkg-config") else {
        return testkit::skip("pkg-config is not installed");
    };
    let mut case = Case::new("pkg_config");
    case.tool("pkg-config", &pkg_config);
    let root = case.toolkit("cuda-13.0");
    let pc = case.mkdir("pkgconfig");
    fs::write(
        pc.join("cuda-13.0.pc"),
        format!(
            "cudaroot={}\nlibdir=${{cudaroot}}/lib64\nincludedir=${{cudaroot}}/include\n\n\
             Name: cuda\nDescription: CUDA Driver Library\nVersion: 13.0\nLibs: -L${{libdir}} -lcuda\nCflags: -I${{includedir}}\n",
            // As a .pc file writes a path with spaces.
            root.display().to_string().replace(' ', "\\ ")
        ),
    )
    .unwrap();
    // PKG_CONFIG_LIBDIR replaces the system's own .pc directories, so a CUDA
    // installed on this machine cannot answer first.
    let system = case.mkdir("no-system-pc");
    let run = case.env("PKG_CONFIG_PATH", &pc).env("PKG_CONFIG_LIBDIR", &system).run();
    run.found(&root.join("include"), "pkg-config");
    run.assert_reruns(&["PATH", "PKG_CONFIG_PATH", "PKG_CONFIG_LIBDIR"]);
}

#[test]
fn a_pc_file_that_does_not_parse_is_logged_and_the_search_stays_short() {
    let Some(pkg_config) = which("pkg-config") else {
        return testkit::skip("pkg-config is not installed");
    };
    if !installed_toolkit_headers().is_empty() {
        return testkit::skip("this machine has CUDA headers in a standard location");
    }
    let mut case = Case::new("pkg_config_garbage");
    case.tool("pkg-config", &pkg_config);
    let pc = case.mkdir("pkgconfig");
    fs::write(pc.join("cuda-12.4.pc"), "this is not a pc file {{{\n").unwrap();
    let system = case.mkdir("no-system-pc");
    let run = case.env("PKG_CONFIG_PATH", &pc).env("PKG_CONFIG_LIBDIR", &system).run();
    run.failure("no CUDA headers (cuda.h) found");
    run.assert_stderr_has(&[&format!(
        "pkg-config could not read {}, passed over",
        pc.join("cuda-12.4.pc").display()
    )]);
    // 29 release names are probed; their variables are registered once.
    let reruns = run.directive("rerun-if-env-changed").len();
    assert!(reruns < 120, "{reruns} rerun-if-env-changed lines\n{}", run.report());
}

// ---------------------------------------------------------------------------
// Which libcuda is linked.

#[test]
fn lib_dir_override_links_the_driver_library() {
    if linking_untestable() {
        return;
    }
    if generation_unavailable() {
        return;
    }
    let mut case = Case::new("lib_dir_driver");
    // Driver installs often have only the versioned name, linked verbatim.
    let lib = case.mkdir("driver");
    fs::write(lib.join("libcuda.so.1"), ELF_STAND_IN).unwrap();
    let run =
        case.env("LIBCUDA_SYS_LIB_DIR", &lib).env("LIBCUDA_SYS_INCLUDE_DIR", &*REAL_INCLUDE).run();
    run.found(Path::new(&*REAL_INCLUDE), "LIBCUDA_SYS_INCLUDE_DIR");
    assert_eq!(run.metadata("link_kind"), "driver");
    assert_eq!(Path::new(run.metadata("lib_dir")), lib);
    assert_eq!(run.directive("rustc-link-search"), vec![format!("native={}", lib.display())]);
    assert_eq!(run.directive("rustc-link-lib"), vec!["dylib:+verbatim=libcuda.so.1"]);
    assert!(run.warnings().is_empty(), "no warning when the driver is linked\n{}", run.report());
}

#[test]
fn toolkit_stub_is_copied_under_the_runtime_name() {
    if linking_untestable() {
        return;
    }
    if generation_unavailable() {
        return;
    }
    let mut case = Case::new("toolkit_stub");
    let root = case.toolkit("toolkit");
    let stubs = case.mkdir("toolkit/lib64/stubs");
    fs::write(stubs.join("libcuda.so"), ELF_STAND_IN).unwrap();
    let run = case.env("CUDA_PATH", &root).run();
    run.found(&root.join("include"), "CUDA_PATH");
    if run.metadata("link_kind") == "driver" {
        return testkit::skip(&format!(
            "this machine has a libcuda driver library ({}), which comes before toolkit stubs",
            run.metadata("lib_dir")
        ));
    }
    assert_eq!(run.metadata("link_kind"), "toolkit-stub", "{}", run.report());
    let stub_dir = case.out_dir().join("stub");
    assert_eq!(Path::new(run.metadata("lib_dir")), stub_dir);
    assert_eq!(run.directive("rustc-link-lib"), vec!["dylib=cuda"]);
    for name in ["libcuda.so", "libcuda.so.1"] {
        assert_eq!(fs::read(stub_dir.join(name)).ok().as_deref(), Some(ELF_STAND_IN), "{name}");
    }
    assert!(
        run.warnings()
            .iter()
            .any(|w| w.contains("stub libcuda") && w.contains("CUDA_ERROR_STUB_LIBRARY")),
        "{}",
        run.report()
    );
}

// ---------------------------------------------------------------------------
// 10. Where the bindings come from: the pregenerated set and its modes.

/// What every run that used the pregenerated set must show: no headers named, the
/// release's version and cfgs, and its files in `OUT_DIR` with the crate's own
/// documentation lines.
fn assert_pregenerated(run: &Outcome, case: &Case, version: u32) {
    assert_eq!(run.code, Some(0), "{}", run.report());
    assert_eq!(run.metadata("found_by"), "pregenerated", "{}", run.report());
    for key in ["include", "includes", "root", "cuda_h_fnv1a64"] {
        assert_eq!(run.metadata(key), "", "{key}: {}", run.report());
    }
    assert_eq!(run.metadata("version"), version.to_string());
    let cfgs = run.directive("rustc-cfg");
    let (major, minor) = (version / 1000, version % 1000 / 10);
    let own = format!("cuda_{major}_{minor}");
    let next = format!("cuda_{major}_{}", minor + 1);
    assert!(cfgs.contains(&"libcuda_sys_pregenerated"), "{}", run.report());
    assert!(cfgs.contains(&own.as_str()), "no {own}: {cfgs:?}");
    assert!(!cfgs.contains(&next.as_str()), "{next}: {cfgs:?}");
    let out = |file: &str| fs::read_to_string(case.out_dir().join(file)).unwrap_or_default();
    let bindings = out("bindings.rs");
    assert!(
        bindings.contains(&format!("pub const CUDA_VERSION: u32 = {version};")),
        "OUT_DIR/bindings.rs is not CUDA {version}"
    );
    // The crate's own lines: value types, a pool attribute's sentence, `since`.
    assert!(
        bindings.contains(
            "Value type `cuuint64_t` (8 bytes); settable with [`cuMemPoolSetAttribute`]."
        ),
        "no value-type line in OUT_DIR/bindings.rs"
    );
    assert!(bindings.contains("How many bytes of unused reservation the pool keeps"));
    let functions = out("functions.rs");
    assert!(functions.starts_with("functions! {"), "{}", &functions[..80]);
    assert!(functions.contains("Needs a driver of CUDA 11.2 or newer"));
    for file in ["renames.rs", "since.rs", "value_types.rs", "macro_constants.rs"] {
        assert!(!out(file).is_empty(), "OUT_DIR/{file} missing or empty");
    }
}

#[test]
fn no_headers_falls_back_to_the_pregenerated_bindings_with_one_warning() {
    if !installed_toolkit_headers().is_empty() {
        return testkit::skip("this machine has CUDA headers in a standard location");
    }
    let mut case = Case::new("fallback_no_headers");
    let run = case.env("LIBCUDA_SYS_BINDINGS", "").run();
    assert_pregenerated(&run, &case, newest_pregenerated());
    let fallback: Vec<&str> =
        run.warnings().into_iter().filter(|w| w.contains("pregenerated")).collect();
    assert_eq!(fallback.len(), 1, "{}", run.report());
    for phrase in [
        "using the pregenerated bindings of libcuda-sys (CUDA ",
        "because no CUDA headers (cuda.h) found",
        "pip install nvidia-cuda-runtime",
        "libclang",
        "LIBCUDA_SYS_BINDINGS=generate makes it an error",
    ] {
        assert!(fallback[0].contains(phrase), "`{phrase}` not in {}", fallback[0]);
    }
    // Linked against a stand-in built from the pregenerated symbol list, with a C compiler alone.
    if run.metadata("link_kind") == "generated-stub" {
        let source = fs::read_to_string(case.out_dir().join("stub/libcuda_stub.c")).unwrap();
        assert!(source.contains("int cuMemPoolGetAttribute(void)"));
        assert!(source.contains("int cuMemAlloc_v2(void)"));
    }
    run.assert_reruns(&["LIBCUDA_SYS_BINDINGS", "DOCS_RS"]);
}

#[test]
fn libclang_missing_falls_back_to_the_pregenerated_bindings() {
    let (mut case, _) = Case::without_libclang("fallback_no_libclang");
    let run = case.env("LIBCUDA_SYS_BINDINGS", "").run();
    if run.metadata("found_by") != "pregenerated" {
        return testkit::skip("libclang was loaded although LIBCLANG_PATH is an empty directory");
    }
    // The headers are CUDA 13.0: their release, not the newest.
    assert_pregenerated(&run, &case, 13000);
    assert!(
        run.warnings().iter().any(|w| w.contains("because libclang not found")),
        "{}",
        run.report()
    );
}

// ---------------------------------------------------------------------------
// Headers found but not generated from: their release decides.

/// A case whose `LIBCUDA_SYS_INCLUDE_DIR` holds a `cuda.h` of `version`, and no libclang.
fn headers_of(name: &'static str, version: u32) -> (Case, PathBuf) {
    let (mut case, _) = Case::without_libclang(name);
    let include = case.header("include", &format!("#define CUDA_VERSION {version}\n"));
    case.env("LIBCUDA_SYS_INCLUDE_DIR", &include).env("LIBCUDA_SYS_BINDINGS", "");
    (case, include)
}

#[test]
fn headers_not_generated_from_bind_the_pregenerated_set_of_their_release() {
    // (headers, bound, what the warning says of the choice)
    for (headers, bound, said) in [
        (12020, 12020, "the headers' own release".to_string()),
        // 12.7 was never released with headers; a newer minor than the set knows.
        (
            12070,
            12060,
            "the newest pregenerated release not newer than the headers' CUDA 12.7".into(),
        ),
        (
            13090,
            13050,
            "the newest pregenerated release not newer than the headers' CUDA 13.9".into(),
        ),
    ] {
        let (case, include) = headers_of("headers_release", headers);
        let run = case.run();
        if run.metadata_or_empty("found_by") == "CUDA_PATH" {
            return testkit::skip(
                "libclang was loaded although LIBCLANG_PATH is an empty directory",
            );
        }
        assert_pregenerated(&run, &case, bound);
        assert_eq!(run.metadata("driver_version"), bound.to_string());
        let expected = format!(
            "using the pregenerated bindings of libcuda-sys (CUDA {}.{}, {said}: LIBCUDA_SYS_INCLUDE_DIR={}) because libclang not found",
            bound / 1000,
            bound % 1000 / 10,
            include.display()
        );
        let warnings = run.warnings();
        assert!(
            warnings.iter().any(|w| w.contains(&expected)),
            "no `{expected}`\n{}",
            run.report()
        );
    }
    // The same rule without generation asked for at all.
    let (mut case, include) = headers_of("headers_release_pregenerated", 12020);
    let run = case.env("LIBCUDA_SYS_BINDINGS", "pregenerated").run();
    assert_pregenerated(&run, &case, 12020);
    let expected = format!(
        "LIBCUDA_SYS_INCLUDE_DIR={} is not used: LIBCUDA_SYS_BINDINGS=pregenerated, so the pregenerated bindings of libcuda-sys (CUDA 12.2, the headers' own release) are",
        include.display()
    );
    assert!(run.warnings().iter().any(|w| w.contains(&expected)), "{}", run.report());
    // A release feature still wins over the headers.
    let (mut case, _) = headers_of("headers_release_feature", 12020);
    let run = case.feature("cuda-13000").run();
    assert_pregenerated(&run, &case, 13000);
}

#[test]
fn headers_older_than_every_pregenerated_release_are_an_error() {
    let (case, include) = headers_of("headers_too_old", 11040);
    let run = case.run();
    run.failure(&format!(
        "the headers found (LIBCUDA_SYS_INCLUDE_DIR={}) are CUDA 11.4, older than every pregenerated release",
        include.display()
    ));
    run.assert_stderr_has(&["apt-get install libclang-dev", "features = [\"cuda-11070\"]"]);
}

// ---------------------------------------------------------------------------
// Features come from how the script was compiled, not from the environment.

#[test]
fn inherited_feature_variables_change_nothing() {
    let mut case = Case::new("inherited_features");
    for var in [
        "CARGO_FEATURE_PER_THREAD_DEFAULT_STREAM",
        "CARGO_FEATURE_DYNAMIC_LOADING",
        "CARGO_FEATURE_CUDA_12080",
        "CARGO_FEATURE_CUDA_13000",
    ] {
        case.env(var, "1");
    }
    let run = case.env("LIBCUDA_SYS_BINDINGS", "pregenerated").run();
    assert_pregenerated(&run, &case, newest_pregenerated());
    let ptds = cfg!(feature = "per-thread-default-stream").to_string();
    assert_eq!(run.metadata("per_thread_default_stream"), ptds, "{}", run.report());
    let dynamic = cfg!(feature = "dynamic-loading");
    assert_eq!(run.metadata("link_kind") == "dynamic-loading", dynamic, "{}", run.report());
    let renames = fs::read_to_string(case.out_dir().join("renames.rs")).unwrap();
    assert_eq!(
        renames.contains("cuMemAllocAsync_ptsz"),
        cfg!(feature = "per-thread-default-stream")
    );
}

// ---------------------------------------------------------------------------
// What a build watches: never what it writes, `/` or `$HOME`; cheap places only.

/// The `rerun-if-changed` paths of a run, less the crate's own sources.
fn watched_paths(run: &Outcome) -> Vec<PathBuf> {
    run.directive("rerun-if-changed")
        .into_iter()
        .filter(|p| !["build.rs", "build", "wrapper.h", "pregenerated"].contains(p))
        .map(PathBuf::from)
        .collect()
}

/// Every watched path exists (Cargo re-runs for a missing one on every
/// build), is absolute, and neither is nor holds `/`, the home directory,
/// the crate or the target directory, nor lies in the target directory.
fn assert_watch_rules(run: &Outcome, case: &Case, home: &Path) {
    let target_dir = case.dir.join("target");
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).canonicalize().unwrap();
    for path in watched_paths(run) {
        let bad = !path.is_absolute()
            || !path.exists()
            || path.parent().is_none()
            || home.starts_with(&path)
            || manifest.starts_with(&path)
            || target_dir.starts_with(&path)
            || path.starts_with(&target_dir);
        assert!(!bad, "watched {}\n{}", path.display(), run.report());
    }
}

#[test]
fn a_fallback_watches_only_small_directories_it_never_writes() {
    if !installed_toolkit_headers().is_empty() {
        return testkit::skip("this machine has CUDA headers in a standard location");
    }
    let mut case = Case::new("fallback_watches");
    let home = case.mkdir("home");
    let later = case.mkdir("bin-for-nvcc");
    // A directory with more entries than a build should walk each time.
    let large = case.mkdir("large-bin");
    for i in 0..4100 {
        fs::write(large.join(format!("tool{i}")), "").unwrap();
    }
    // A project of the user's own, and a directory of it on PATH.
    let project = case.mkdir("project");
    fs::write(project.join("Cargo.toml"), "[package]\n").unwrap();
    let path = std::env::join_paths([
        case.bin.clone(),
        later.clone(),
        large.clone(),
        PathBuf::from("/"),
        home.clone(),
        PathBuf::new(),
        PathBuf::from("."),
        case.dir.join("missing/bin"),
        case.dir.join("target/debug"),
        case.out_dir(),
        project.join("bin"),
    ])
    .unwrap();
    let run = case
        .env("LIBCUDA_SYS_BINDINGS", "")
        .env("PATH", &path)
        .env("HOME", &home)
        .env("CONDA_PREFIX", &project)
        .run();
    assert_eq!(run.metadata("found_by"), "pregenerated", "{}", run.report());
    assert_watch_rules(&run, &case, &home);
    let watched = watched_paths(&run);
    // nvcc appearing in a directory of PATH, or in the case's own directory above
    // a missing one (small and written by no build here).
    for dir in [&case.bin, &later] {
        assert!(
            watched.iter().any(|w| dir.starts_with(w)),
            "{} not watched: {watched:?}",
            dir.display()
        );
    }
    for dir in [&large, &project] {
        assert!(
            !watched.iter().any(|w| w.starts_with(dir)),
            "{} watched: {watched:?}",
            dir.display()
        );
    }
    // What is not watched is said, with the command that ends the fallback.
    let warning =
        run.warnings().into_iter().find(|w| w.contains("using the pregenerated")).unwrap();
    // (conda's include directory: its prefix is the project.)
    for said in
        [project.join("include").display().to_string(), "`cargo clean -p libcuda-sys`".into()]
    {
        assert!(warning.contains(&said), "the warning lacks {said}\n{}", run.report());
    }
    // The system's package database: an install through apt or rpm re-runs the build.
    if Path::new("/var/lib/dpkg/status").is_file() {
        assert!(watched.contains(&PathBuf::from("/var/lib/dpkg/status")), "{watched:?}");
    }
    // conda: its install records, in a prefix too large to watch whole.
    let mut case = Case::new("fallback_watches_conda");
    let prefix = case.mkdir("conda");
    let meta = case.mkdir("conda/conda-meta");
    let lib = case.mkdir("conda/lib");
    for i in 0..4100 {
        fs::write(lib.join(format!("lib{i}.so")), "").unwrap();
    }
    let run = case.env("LIBCUDA_SYS_BINDINGS", "").env("CONDA_PREFIX", &prefix).run();
    assert!(watched_paths(&run).contains(&meta), "{:?}", watched_paths(&run));
}

#[test]
fn generated_bindings_watch_their_include_directory_unless_the_build_writes_there() {
    if generation_unavailable() {
        return;
    }
    let mut case = Case::new("generated_watches");
    let root = case.toolkit("toolkit");
    let run = case.env("CUDA_PATH", &root).run();
    run.found(&root.join("include"), "CUDA_PATH");
    let watched = watched_paths(&run);
    let include = root.join("include").canonicalize().unwrap();
    assert!(watched.contains(&include), "{watched:?}");
    assert!(!watched.contains(&case.bin), "{watched:?}");
    assert_watch_rules(&run, &case, Path::new("/nonexistent-home"));

    // Headers kept inside the target directory: read, never watched as a directory.
    let mut case = Case::new("generated_watches_in_target");
    let include = include_with(&case, "target/cuda-include", &[]);
    let run = case.env("LIBCUDA_SYS_INCLUDE_DIR", &include).run();
    assert_eq!(run.code, Some(0), "{}", run.report());
    assert!(!watched_paths(&run).contains(&include), "{}", run.report());
}

#[test]
fn docs_rs_uses_the_pregenerated_bindings_without_searching() {
    let mut case = Case::new("docs_rs");
    // A toolkit the search would find (nvcc on PATH) is not searched for.
    let root = case.mkdir("toolkit");
    let nvcc = case.mkdir("toolkit/bin").join("nvcc");
    fs::write(&nvcc, "#!/bin/sh\n").unwrap();
    fs::set_permissions(&nvcc, fs::Permissions::from_mode(0o755)).unwrap();
    case.mkdir("toolkit/include");
    let run = case
        .env("LIBCUDA_SYS_BINDINGS", "")
        .env("DOCS_RS", "1")
        .feature("dynamic-loading")
        .path(&root.join("bin"))
        .run();
    assert_pregenerated(&run, &case, newest_pregenerated());
    assert!(!run.stderr.contains("nvcc"), "{}", run.report());
    assert!(run.warnings().is_empty(), "{}", run.report());
    assert_eq!(run.metadata("link_kind"), "dynamic-loading");
    assert!(run.directive("rustc-link-lib").is_empty());
}

#[test]
fn pregenerated_per_thread_default_stream_variant() {
    let mut case = Case::new("pregenerated_ptds");
    let run =
        case.env("LIBCUDA_SYS_BINDINGS", "pregenerated").feature("per-thread-default-stream").run();
    assert_pregenerated(&run, &case, newest_pregenerated());
    assert_eq!(run.metadata("per_thread_default_stream"), "true");
    let renames = fs::read_to_string(case.out_dir().join("renames.rs")).unwrap();
    assert!(
        renames.contains("pub use self::cuMemAllocAsync_ptsz as cuMemAllocAsync;"),
        "{renames}"
    );
    // Asked for: no fallback warning.
    assert!(run.warnings().iter().all(|w| !w.contains("pregenerated")), "{}", run.report());
}

#[test]
fn the_profiler_api_is_bound_from_the_headers_there_are() {
    if generation_unavailable() {
        return;
    }
    // pip wheels: no cudaProfiler.h; the PFN_ types of cudaProfilerTypedefs.h
    // whose parameter types cuda.h has (not cuProfilerInitialize's CUoutput_mode).
    let mut case = Case::new("profiler_typedefs");
    let root = case.toolkit("toolkit");
    let run = case.env("CUDA_PATH", &root).run();
    run.found(&root.join("include"), "CUDA_PATH");
    let out = |case: &Case, file: &str| fs::read_to_string(case.out_dir().join(file)).unwrap();
    // Generated text is token-spaced (`pub fn cuProfilerStart ()`).
    let declares = |functions: &str, f: &str| {
        functions.contains(&format!("pub fn {f} (")) || functions.contains(&format!("pub fn {f}("))
    };
    let functions = out(&case, "functions.rs");
    assert!(declares(&functions, "cuProfilerStart"), "no cuProfilerStart");
    assert!(declares(&functions, "cuProfilerStop"), "no cuProfilerStop");
    assert!(!functions.contains("cuProfilerInitialize"));
    if run.metadata("link_kind") == "generated-stub" {
        let stub = out(&case, "stub/libcuda_stub.c");
        assert!(stub.contains("int cuProfilerStart(void)"), "not in the stand-in");
    }

    // A toolkit's own cudaProfiler.h (here a small one of the same shape) is taken as it is.
    let mut case = Case::new("profiler_header");
    let include = case.mkdir("include");
    for entry in fs::read_dir(&*REAL_INCLUDE).unwrap().flatten() {
        symlink(entry.path(), include.join(entry.file_name())).unwrap();
    }
    fs::write(
        include.join("cudaProfiler.h"),
        "#include \"cuda.h\"\n\
         typedef enum CUoutput_mode_enum { CU_OUT_KEY_VALUE_PAIR = 0, CU_OUT_CSV = 1 } CUoutput_mode;\n\
         CUresult CUDAAPI cuProfilerInitialize(const char *configFile, const char *outputFile, CUoutput_mode outputMode);\n\
         CUresult CUDAAPI cuProfilerStart(void);\nCUresult CUDAAPI cuProfilerStop(void);\n",
    )
    .unwrap();
    let run = case.env("LIBCUDA_SYS_INCLUDE_DIR", &include).run();
    assert_eq!(run.code, Some(0), "{}", run.report());
    let functions = out(&case, "functions.rs");
    for f in ["cuProfilerInitialize", "cuProfilerStart", "cuProfilerStop"] {
        assert!(declares(&functions, f), "no {f}");
    }
    assert!(out(&case, "since.rs").contains("(\"cuProfilerInitialize\", 4000)"));
}

// ---------------------------------------------------------------------------
// Inputs that must be said as they are.

/// The real headers, but with `replace` as the content of some files: a
/// directory of symlinks.
fn include_with(case: &Case, rel: &str, replace: &[(&str, String)]) -> PathBuf {
    let include = case.mkdir(rel);
    for entry in fs::read_dir(&*REAL_INCLUDE).unwrap().flatten() {
        let name = entry.file_name();
        match replace.iter().find(|(n, _)| OsStr::new(n) == name) {
            Some((n, text)) => fs::write(include.join(n), text).unwrap(),
            // Another user may not reach the real ones: copies, readable by all.
            None if case.uid.is_some() => copy_tree(&entry.path(), &include.join(&name)),
            None => symlink(entry.path(), include.join(&name)).unwrap(),
        }
    }
    include
}

#[test]
fn a_floor_that_cannot_date_a_function_is_an_error() {
    if linking_untestable() {
        return;
    }
    if generation_unavailable() {
        return;
    }
    // cudaTypedefs.h of another release than cuda.h: here one without the
    // PFN_ types of cuMemPoolGetAttribute.
    let mut case = Case::new("floor_undated");
    let typedefs = fs::read_to_string(Path::new(&*REAL_INCLUDE).join("cudaTypedefs.h")).unwrap();
    let older: String = typedefs
        .lines()
        .filter(|l| !l.contains("PFN_cuMemPoolGetAttribute"))
        .map(|l| format!("{l}\n"))
        .collect();
    let include = include_with(&case, "include", &[("cudaTypedefs.h", older)]);
    let run =
        case.env("LIBCUDA_SYS_INCLUDE_DIR", &include).env("LIBCUDA_SYS_DRIVER_FLOOR", "12.2").run();
    run.failure(
        "LIBCUDA_SYS_DRIVER_FLOOR=12.2: cudaTypedefs.h does not say which driver 1 bound functions need",
    );
    run.assert_stderr_has(&["cuMemPoolGetAttribute", "different CUDA releases"]);
    assert!(run.directive("metadata").iter().all(|m| !m.starts_with("driver_floor=")));
}

#[test]
fn a_symlink_makes_an_unpassable_include_directory_usable() {
    if generation_unavailable() {
        return;
    }
    let mut case = Case::new("colon_dir");
    let odd = include_with(&case, "with:colon/include", &[]);
    let plain = case.dir.join("plain-include");
    symlink(&odd, &plain).unwrap();
    let run = case.env("LIBCUDA_SYS_INCLUDE_DIR", &odd).run();
    run.failure("contains the path-list separator");
    run.assert_stderr_has(&["a symlink to it"]);
    // The advice works: the symlink is passed on as it is.
    let mut case = Case::new("colon_dir_symlink");
    let run = case.env("LIBCUDA_SYS_INCLUDE_DIR", &plain).run();
    assert_eq!(run.code, Some(0), "{}", run.report());
    assert_eq!(Path::new(run.metadata("include")), plain);
}

#[test]
fn a_floor_with_dynamic_loading_is_said_to_do_nothing() {
    let run = Case::new("floor_dynamic")
        .env("LIBCUDA_SYS_BINDINGS", "pregenerated")
        .feature("dynamic-loading")
        .env("LIBCUDA_SYS_DRIVER_FLOOR", "13.0")
        .run();
    assert_eq!(run.code, Some(0), "{}", run.report());
    assert!(
        run.warnings()
            .iter()
            .any(|w| w.contains("LIBCUDA_SYS_DRIVER_FLOOR=13.0 has no effect with dynamic-loading")),
        "{}",
        run.report()
    );
    assert_eq!(run.metadata("driver_floor"), "");
}

#[test]
fn macros_in_cflags_that_change_the_api_are_errors() {
    // With the per-thread-default-stream feature, its define is the feature's own.
    let ptds = (!cfg!(feature = "per-thread-default-stream"))
        .then_some("CUDA_API_PER_THREAD_DEFAULT_STREAM");
    for name in ptds.into_iter().chain(["__CUDA_API_VERSION_INTERNAL"]) {
        let mut case = Case::new("cflags_api_macro");
        let include = case.header("include", "#define CUDA_VERSION 13000\n");
        let flags = format!("-D{name}");
        let run = case.env("LIBCUDA_SYS_INCLUDE_DIR", &include).env("CFLAGS", &flags).run();
        run.failure(&format!("{name} is defined by the C flags (CFLAGS={flags})"));
        run.assert_stderr_has(&["plain-name aliases", "Fix:"]);
        // The same defines for bindgen alone, in each way bindgen takes them.
        let underscored = format!("BINDGEN_EXTRA_CLANG_ARGS_{}", TARGET.replace('-', "_"));
        let vars = [
            "BINDGEN_EXTRA_CLANG_ARGS".to_string(),
            format!("BINDGEN_EXTRA_CLANG_ARGS_{TARGET}"),
            underscored,
        ];
        for (var, flags) in
            vars.iter().zip([format!("-D{name}"), format!("-I/x -D {name}"), format!("-D{name}=1")])
        {
            let mut case = Case::new("bindgen_api_macro");
            let include = case.header("include", "#define CUDA_VERSION 13000\n");
            let run = case.env("LIBCUDA_SYS_INCLUDE_DIR", &include).env(var, &flags).run();
            run.failure(&format!("{name} is defined by {var}={flags}"));
        }
    }
}

#[test]
fn an_unreadable_include_directory_or_typedefs_header_is_said_so() {
    use std::os::unix::fs::MetadataExt;
    // Root reads whatever the permissions say: run the script as nobody then.
    let root = fs::metadata("/proc/self").map(|m| m.uid() == 0).unwrap_or(false);
    let new_case = |name| if root { Case::as_user(name, 65534) } else { Some(Case::new(name)) };
    let Some(mut case) = new_case("unreadable_include") else { return };
    let include = case.header("include", "#define CUDA_VERSION 13000\n");
    fs::set_permissions(&include, fs::Permissions::from_mode(0o000)).unwrap();
    case.env("LIBCUDA_SYS_INCLUDE_DIR", &include);
    let run = case.run();
    fs::set_permissions(&include, fs::Permissions::from_mode(0o755)).unwrap();
    run.failure(&format!(
        "LIBCUDA_SYS_INCLUDE_DIR={} cannot be read: permission denied",
        include.display()
    ));

    if generation_unavailable() {
        return;
    }
    let Some(mut case) = new_case("unreadable_typedefs") else { return };
    let typedefs = fs::read_to_string(Path::new(&*REAL_INCLUDE).join("cudaTypedefs.h")).unwrap();
    let include = include_with(&case, "include", &[("cudaTypedefs.h", typedefs)]);
    let file = include.join("cudaTypedefs.h");
    fs::set_permissions(&file, fs::Permissions::from_mode(0o000)).unwrap();
    case.env("LIBCUDA_SYS_INCLUDE_DIR", &include);
    let run = case.run();
    run.failure(&format!("cannot read {}: Permission denied", file.display()));
}

#[test]
fn the_program_cc_could_not_run_is_named() {
    // A wrapper that is not there: it, not the compiler behind it, is missing.
    let mut case = Case::new("cc_wrapper_missing");
    let include = case.header("include", "#define CUDA_VERSION 13000\n");
    let run = case.env("LIBCUDA_SYS_INCLUDE_DIR", &include).env("CC", "no-such-wrapper gcc").run();
    run.failure("no C compiler found: no-such-wrapper cannot be run");
}

#[test]
fn a_cc_with_a_wrapper_builds_the_stand_in() {
    let mut case = Case::with_tools("cc_env_wrapper", &["cc", "gcc", "as", "ld", "env"]);
    let run = case.env("LIBCUDA_SYS_BINDINGS", "pregenerated").env("CC", "env gcc").run();
    assert_eq!(run.code, Some(0), "{}", run.report());
    if run.metadata("link_kind") == "generated-stub" {
        let so = fs::read(case.out_dir().join("stub/libcuda.so.1")).unwrap();
        assert!(so.starts_with(b"\x7fELF"), "the stand-in is not a shared library");
    }
}

#[test]
fn a_cc_that_builds_no_library_is_an_error() {
    if linking_untestable() {
        return;
    }
    let mut case = Case::with_tools("cc_cpp", &["cpp", "cc", "gcc", "as", "ld"]);
    let cpp = case.bin.join("cpp");
    let run = case.env("LIBCUDA_SYS_BINDINGS", "pregenerated").env("CC", &cpp).run();
    if run.metadata_or_empty("link_kind") == "driver" {
        return testkit::skip("this machine has a driver: no stand-in is built");
    }
    run.failure(&format!(
        "the C compiler {} did not build a shared library for the stand-in libcuda",
        cpp.display()
    ));
}

#[test]
fn no_cross_compiler_names_the_one_cc_looked_for() {
    let mut case = Case::with_tools("no_riscv_compiler", &[]);
    let include = case.header("include", "#define CUDA_VERSION 13000\n");
    let run = case
        .env("TARGET", "riscv64gc-unknown-linux-gnu")
        .env("CARGO_CFG_TARGET_ARCH", "riscv64")
        .env("LIBCUDA_SYS_INCLUDE_DIR", &include)
        .run();
    run.failure("no C compiler found: riscv64-linux-gnu-gcc cannot be run");
    run.assert_stderr_has(&[
        "apt-get install gcc-riscv64-linux-gnu",
        "CC_riscv64gc_unknown_linux_gnu=riscv64-linux-gnu-gcc",
    ]);
    assert!(!run.stderr.contains("gcc-riscv64gc"), "{}", run.report());
}

#[test]
fn an_empty_or_zero_docs_rs_is_unset() {
    if !installed_toolkit_headers().is_empty() {
        return testkit::skip("this machine has CUDA headers in a standard location");
    }
    for value in ["", "0"] {
        let run =
            Case::new("docs_rs_off").env("LIBCUDA_SYS_BINDINGS", "").env("DOCS_RS", value).run();
        // Searched, as without DOCS_RS: nothing found, so the fallback and its
        // warning, not a docs.rs build (which says nothing).
        assert_eq!(run.code, Some(0), "{}", run.report());
        assert!(
            run.warnings().iter().any(|w| w.contains("because no CUDA headers (cuda.h) found")),
            "DOCS_RS={value:?}: {}",
            run.report()
        );
    }
}

#[test]
fn a_wrong_root_variable_is_an_error_beside_a_good_include_dir() {
    let mut case = Case::new("include_dir_and_wrong_cuda_path");
    let include = case.header("include", "#define CUDA_VERSION 13000\n");
    let run = case
        .env("LIBCUDA_SYS_BINDINGS", "pregenerated")
        .env("LIBCUDA_SYS_INCLUDE_DIR", &include)
        .env("CUDA_PATH", "/nonexistent")
        .run();
    run.failure("CUDA_PATH=/nonexistent does not exist");
}

#[test]
fn a_root_variable_naming_the_include_directory_is_told_its_parent() {
    let mut case = Case::new("cuda_path_is_include");
    let include = case.header("toolkit/include", "#define CUDA_VERSION 13000\n");
    let run = case.env("LIBCUDA_SYS_BINDINGS", "pregenerated").env("CUDA_PATH", &include).run();
    run.failure(&format!("CUDA_PATH={} has no cuda.h", include.display()));
    run.assert_stderr_has(&[
        "holds cuda.h itself",
        &format!("Set CUDA_PATH={}", case.dir.join("toolkit").display()),
    ]);
}

// ---------------------------------------------------------------------------
// The CUDA release: `cuda-XXXXX` features.

#[test]
fn a_release_feature_selects_its_pregenerated_release() {
    let mut case = Case::new("release_feature");
    let run = case.env("LIBCUDA_SYS_BINDINGS", "pregenerated").feature("cuda-12080").run();
    assert_pregenerated(&run, &case, 12080);
    let out = |file: &str| fs::read_to_string(case.out_dir().join(file)).unwrap();
    let bindings = out("bindings.rs");
    assert!(bindings.contains("CU_MEMPOOL_ATTR_USED_MEM_HIGH"));
    assert!(
        !bindings.contains("CU_MEMPOOL_ATTR_MAX_POOL_SIZE"),
        "a 13.2 attribute in the 12.8 bindings"
    );
    // The plain name reaches 12.8's ABI (13.0 moved cuCtxCreate to _v4).
    assert!(
        out("renames.rs").contains("pub use self::cuCtxCreate_v2 as cuCtxCreate;"),
        "{}",
        out("renames.rs")
    );
}

#[test]
fn two_release_features_are_an_error_that_names_both() {
    let run = Case::new("two_releases")
        .env("LIBCUDA_SYS_BINDINGS", "pregenerated")
        .feature("cuda-12080")
        .feature("cuda-13000")
        .run();
    run.failure(
        "libcuda-sys binds one CUDA release, and the features cuda-12080 and cuda-13000 are all on",
    );
    run.assert_stderr_has(&["cargo tree -e features -i libcuda-sys"]);
    // The long text is lines of its own, not the source's indentation.
    assert!(!run.stderr.contains("\n    "), "{}", run.report());
}

/// A pregenerated release other than the headers this crate was built with.
fn another_release() -> u32 {
    if *REAL_VERSION == "12080" {
        13000
    } else {
        12080
    }
}

#[test]
fn a_release_feature_and_headers_of_another_release_give_the_pregenerated_release() {
    if generation_unavailable() {
        return;
    }
    let other = another_release();
    let feature = format!("cuda-{other}");
    let mut case = Case::new("release_other_headers");
    let root = case.toolkit("toolkit");
    let run =
        case.env("LIBCUDA_SYS_BINDINGS", "").env("CUDA_PATH", &root).feature(feature.clone()).run();
    assert_pregenerated(&run, &case, other);
    let number: u32 = REAL_VERSION.parse().unwrap();
    let said = format!(
        "because the feature cuda-{other} asks for CUDA {}.{} and the headers found (CUDA_PATH={}) are CUDA {}.{}",
        other / 1000,
        other % 1000 / 10,
        root.display(),
        number / 1000,
        number % 1000 / 10
    );
    let warnings = run.warnings();
    assert!(
        warnings.iter().filter(|w| w.contains(&said)).count() == 1,
        "no one warning with `{said}`\n{}",
        run.report()
    );

    // Asked to generate, the same is an error.
    let mut case = Case::new("release_other_headers_generate");
    let root = case.toolkit("toolkit");
    let run = case.env("CUDA_PATH", &root).feature(feature.clone()).run();
    run.failure(&format!(
        "LIBCUDA_SYS_BINDINGS=generate: the headers found are CUDA {}.{}, the feature cuda-{other} asks for CUDA {}.{}",
        number / 1000,
        number % 1000 / 10,
        other / 1000,
        other % 1000 / 10
    ));
    let fix = format!(
        "- point LIBCUDA_SYS_INCLUDE_DIR or CUDA_PATH at headers of CUDA {}.{}\n",
        other / 1000,
        other % 1000 / 10
    );
    run.assert_stderr_has(&[fix.as_str()]);
}

#[test]
fn a_release_feature_and_headers_of_that_release_generate() {
    if generation_unavailable() {
        return;
    }
    let mut case = Case::new("release_same_headers");
    let root = case.toolkit("toolkit");
    let run = case
        .env("LIBCUDA_SYS_BINDINGS", "")
        .env("CUDA_PATH", &root)
        .feature(format!("cuda-{}", *REAL_VERSION))
        .run();
    run.found(&root.join("include"), "CUDA_PATH");
    assert_eq!(run.metadata("version"), *REAL_VERSION);
    assert!(run.warnings().iter().all(|w| !w.contains("pregenerated")), "{}", run.report());
}

#[test]
fn wrong_variables_are_errors_in_every_mode() {
    let modes: [(&str, &[(&str, &str)]); 4] = [
        ("automatic", &[("LIBCUDA_SYS_BINDINGS", "")]),
        ("generate", &[("LIBCUDA_SYS_BINDINGS", "generate")]),
        ("pregenerated", &[("LIBCUDA_SYS_BINDINGS", "pregenerated")]),
        ("docs.rs", &[("LIBCUDA_SYS_BINDINGS", ""), ("DOCS_RS", "1")]),
    ];
    let wrong: [(&str, &str, &str); 3] = [
        ("CUDA_PATH", "/nonexistent", "CUDA_PATH=/nonexistent does not exist"),
        (
            "LIBCUDA_SYS_INCLUDE_DIR",
            "/nonexistent/include",
            "LIBCUDA_SYS_INCLUDE_DIR=/nonexistent/include does not exist",
        ),
        (
            "LIBCUDA_SYS_LIB_DIR",
            "/nonexistent/lib",
            "LIBCUDA_SYS_LIB_DIR=/nonexistent/lib is not a directory",
        ),
    ];
    for (mode, settings) in modes {
        for (var, value, summary) in wrong {
            let mut case = Case::new("wrong_in_every_mode");
            for (k, v) in settings {
                case.env(*k, v);
            }
            let run = case.env(var, value).run();
            assert!(
                run.code == Some(1) && run.warnings().iter().any(|w| w.contains(summary)),
                "mode {mode}, {var}={value}: expected `{summary}`\n{}",
                run.report()
            );
        }
    }
}

#[test]
fn unknown_mode_is_an_error() {
    let run = Case::new("unknown_mode").env("LIBCUDA_SYS_BINDINGS", "pregenrated").run();
    run.failure("LIBCUDA_SYS_BINDINGS=pregenrated is not a mode");
    run.assert_stderr_has(&["generate", "pregenerated", "unset LIBCUDA_SYS_BINDINGS"]);
}

// ---------------------------------------------------------------------------
// 11. The driver floor, on the pregenerated releases.

#[test]
fn a_driver_floor_works_with_the_pregenerated_set() {
    if linking_untestable() {
        return;
    }
    let mut case = Case::new("floor_pregenerated");
    let run = case
        .env("LIBCUDA_SYS_BINDINGS", "pregenerated")
        .env("LIBCUDA_SYS_DRIVER_FLOOR", "12.0")
        .run();
    assert_pregenerated(&run, &case, newest_pregenerated());
    assert_eq!(run.metadata("driver_floor"), "12000");
    let functions = fs::read_to_string(case.out_dir().join("functions.rs")).unwrap();
    assert!(functions.contains("pub fn cuMemPoolGetAttribute("), "pool API left out");
    assert!(
        !functions.contains("pub fn cuMemGetDefaultMemPool("),
        "a 13.0 function bound under a 12.0 floor"
    );
    // The stand-in exports what is bound, no more.
    if run.metadata("link_kind") == "generated-stub" {
        let stub = fs::read_to_string(case.out_dir().join("stub/libcuda_stub.c")).unwrap();
        assert!(!stub.contains("cuMemGetDefaultMemPool"));
    }
    run.assert_reruns(&["LIBCUDA_SYS_DRIVER_FLOOR"]);
}

/// The functions a run bound (`FUNCTIONS` of its `since.rs`).
fn bound_functions(case: &Case) -> BTreeSet<String> {
    let since = fs::read_to_string(case.out_dir().join("since.rs")).unwrap();
    let list = since.split("pub const FUNCTIONS: &[&str] = &[").nth(1).unwrap();
    let list = list.split("];").next().unwrap();
    list.split('"').skip(1).step_by(2).map(str::to_string).collect()
}

#[test]
fn a_floor_binds_what_the_older_release_binds() {
    if linking_untestable() {
        return;
    }
    // For each pair of pregenerated releases: the newer one with the older as floor
    // binds the functions the older binds that the newer still declares:
    // nothing newer than the floor, nothing of the floor's lost.
    for (old, new, floor) in [("13000", "13050", "13.0"), ("12000", "12090", "12.0")] {
        let bound = |release: &str, floor: Option<&str>| {
            let mut case = Case::new("floor_pairs");
            case.env("LIBCUDA_SYS_BINDINGS", "pregenerated").feature(format!("cuda-{release}"));
            if let Some(floor) = floor {
                case.env("LIBCUDA_SYS_DRIVER_FLOOR", floor);
            }
            let run = case.run();
            assert_eq!(run.code, Some(0), "{}", run.report());
            bound_functions(&case)
        };
        let (older, newer, floored) = (bound(old, None), bound(new, None), bound(new, Some(floor)));
        let expected: BTreeSet<String> = older.intersection(&newer).cloned().collect();
        assert_eq!(floored, expected, "{new} with LIBCUDA_SYS_DRIVER_FLOOR={floor}");
        assert!(floored.len() < newer.len(), "the floor left nothing out of {new}");
    }
}

#[test]
fn a_driver_floor_must_be_a_cuda_version() {
    for floor in ["thirteen", "13", "13.0.1", "13.05", "013.0", "13.x"] {
        let run = Case::new("floor_malformed").env("LIBCUDA_SYS_DRIVER_FLOOR", floor).run();
        run.failure(&format!("LIBCUDA_SYS_DRIVER_FLOOR={floor} is not a CUDA version"));
        run.assert_stderr_has(&["from 11.0 on, the minor one digit"]);
    }
    for floor in ["9.2", "10.0"] {
        let run = Case::new("floor_too_old").env("LIBCUDA_SYS_DRIVER_FLOOR", floor).run();
        run.failure(&format!("LIBCUDA_SYS_DRIVER_FLOOR={floor} is older than any driver"));
    }
    let run = Case::new("floor_too_new").env("LIBCUDA_SYS_DRIVER_FLOOR", "100.0").run();
    run.failure("LIBCUDA_SYS_DRIVER_FLOOR=100.0 is not a CUDA release (their major versions have two digits)");
}

#[test]
fn a_driver_floor_is_passed_on() {
    if linking_untestable() {
        return;
    }
    if generation_unavailable() {
        return;
    }
    let mut case = Case::new("floor_metadata");
    let root = case.toolkit("toolkit");
    let run = case.env("CUDA_PATH", &root).env("LIBCUDA_SYS_DRIVER_FLOOR", "11.2").run();
    run.found(&root.join("include"), "CUDA_PATH");
    assert_eq!(run.metadata("driver_floor"), "11020");
    // Everything newer than 11.2 is gone from the linked functions, the pool API is not.
    let functions = fs::read_to_string(case.out_dir().join("functions.rs")).unwrap();
    assert!(functions.contains("cuMemPoolGetAttribute"), "pool API left out");
    assert!(
        !functions.contains("cuMemGetDefaultMemPool"),
        "a 13.0 function bound under an 11.2 floor"
    );
}

// ---------------------------------------------------------------------------
// 12. Other targets: discovery and linking against trees laid out like their
// toolkits and pip wheels. The pregenerated bindings stand in for generation, which
// needs the target's C headers; what is under test is where the build looks
// and what it links.

/// A case that builds for `triple` (`os`, `arch`, `env` as Cargo gives them).
fn for_target(name: &'static str, triple: &str, os: &str, arch: &str, env: &str) -> Case {
    let mut case = Case::new(name);
    case.env("TARGET", triple)
        .env("CARGO_CFG_TARGET_OS", os)
        .env("CARGO_CFG_TARGET_ARCH", arch)
        .env("CARGO_CFG_TARGET_ENV", env)
        .env("LIBCUDA_SYS_BINDINGS", "pregenerated");
    case
}

fn windows(name: &'static str) -> Case {
    for_target(name, "x86_64-pc-windows-msvc", "windows", "x86_64", "msvc")
}

#[test]
fn windows_toolkit_links_its_import_library() {
    if linking_untestable() {
        return;
    }
    let mut case = windows("windows_toolkit");
    case.header("toolkit/include", "#define CUDA_VERSION 13000\n");
    let lib = case.mkdir("toolkit/lib/x64");
    fs::write(lib.join("cuda.lib"), "!<arch>\n").unwrap();
    let run = case.env("CUDA_PATH", case.dir.join("toolkit")).run();
    assert_eq!(run.code, Some(0), "{}", run.report());
    assert_eq!(run.metadata("link_kind"), "import-library");
    assert_eq!(run.directive("rustc-link-search"), vec![format!("native={}", lib.display())]);
    assert_eq!(run.directive("rustc-link-lib"), vec!["dylib=cuda"]);
}

#[test]
fn windows_pip_wheel_links_its_import_library() {
    if linking_untestable() {
        return;
    }
    // nvidia-cuda-runtime's win_amd64 wheel: nvidia/cu13/include and nvidia/cu13/lib/x64/cuda.lib.
    let mut case = windows("windows_wheel");
    let include = case.header("site-packages/nvidia/cu13/include", "#define CUDA_VERSION 13000\n");
    let lib = case.mkdir("site-packages/nvidia/cu13/lib/x64");
    fs::write(lib.join("cuda.lib"), "!<arch>\n").unwrap();
    let run = case.env("LIBCUDA_SYS_INCLUDE_DIR", &include).run();
    assert_eq!(run.code, Some(0), "{}", run.report());
    assert_eq!(run.metadata("link_kind"), "import-library");
    assert_eq!(run.metadata("lib_dir"), lib.display().to_string());
}

#[test]
fn windows_without_cuda_lib_is_a_clear_error() {
    if linking_untestable() {
        return;
    }
    let mut case = windows("windows_no_lib");
    case.header("toolkit/include", "#define CUDA_VERSION 13000\n");
    let run = case.env("CUDA_PATH", case.dir.join("toolkit")).run();
    run.failure("no libcuda to link");
    run.assert_stderr_has(&[
        "lib\\x64\\cuda.lib",
        "pip install nvidia-cuda-runtime",
        "dynamic-loading",
    ]);
}

#[test]
fn windows_dynamic_loading_links_nothing() {
    let mut case = windows("windows_dynamic");
    let run = case.feature("dynamic-loading").run();
    assert_eq!(run.code, Some(0), "{}", run.report());
    assert_eq!(run.metadata("link_kind"), "dynamic-loading");
    assert!(run.directive("rustc-link-lib").is_empty(), "{}", run.report());
}

#[test]
fn aarch64_toolkit_layouts_and_their_stubs() {
    if linking_untestable() {
        return;
    }
    // Linux SBSA (Grace) and Jetson (L4T) keep headers and stubs under targets/.
    for (dir, name) in [("sbsa-linux", "aarch64_sbsa"), ("aarch64-linux", "aarch64_jetson")] {
        let mut case = for_target(name, "aarch64-unknown-linux-gnu", "linux", "aarch64", "gnu");
        let include =
            case.header(&format!("toolkit/targets/{dir}/include"), "#define CUDA_VERSION 13000\n");
        let stubs = case.mkdir(&format!("toolkit/targets/{dir}/lib/stubs"));
        fs::write(stubs.join("libcuda.so"), elf_header(EM_AARCH64)).unwrap();
        let run = case.env("CUDA_PATH", case.dir.join("toolkit")).run();
        if run.metadata("link_kind") == "driver" {
            return testkit::skip("this machine has an aarch64 libcuda in the multiarch directory");
        }
        assert_eq!(run.code, Some(0), "{}", run.report());
        // The warning names the toolkit found (and not used by the pregenerated bindings).
        assert!(include.join("cuda.h").is_file());
        assert!(
            run.warnings().iter().any(|w| w.contains(&format!(
                "CUDA_PATH={} is not used",
                case.dir.join("toolkit").display()
            ))),
            "{dir}: {}",
            run.report()
        );
        assert_eq!(run.metadata("link_kind"), "toolkit-stub", "{dir}");
        assert_eq!(
            fs::read(case.out_dir().join("stub/libcuda.so.1")).ok().as_deref(),
            Some(&elf_header(EM_AARCH64)[..]),
            "{dir}: the stub is linked under the runtime name"
        );
    }
}
