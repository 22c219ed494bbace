//! What every case shares: the fake toolkit trees, the cleared environment,
//! the compiled build script under test and what a run of it said.

pub use std::collections::{BTreeMap, BTreeSet};
pub use std::ffi::{OsStr, OsString};
pub use std::fs;
pub use std::os::unix::fs::{symlink, PermissionsExt};
pub use std::path::{Path, PathBuf};
pub use std::process::Command;
pub use std::sync::{LazyLock, Mutex};

/// The target (and host) the build script is told about: the one these tests
/// were compiled for, so the build script behaves as in a native build.
#[cfg(target_arch = "x86_64")]
pub const TARGET: &str = "x86_64-unknown-linux-gnu";
#[cfg(target_arch = "aarch64")]
pub const TARGET: &str = "aarch64-unknown-linux-gnu";

/// The toolkit's `targets/<dir>` name for [`TARGET`] (conda keeps headers there).
#[cfg(target_arch = "x86_64")]
pub const TOOLKIT_TARGET_DIR: &str = "x86_64-linux";
#[cfg(target_arch = "aarch64")]
pub const TOOLKIT_TARGET_DIR: &str = "sbsa-linux";

/// The headers this crate itself was built with: every successful case links a
/// fake toolkit's `include` to them.
pub static REAL_INCLUDE: LazyLock<String> = LazyLock::new(|| {
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
pub static REAL_VERSION: LazyLock<String> =
    LazyLock::new(|| libcuda_sys::HEADER_VERSION.to_string());

/// Where this crate was itself built from its pregenerated bindings (no headers or
/// no libclang here), the cases that run bindgen to the end cannot run: says
/// `skipped` and returns true.
pub fn generation_unavailable() -> bool {
    if libcuda_sys::PREGENERATED {
        testkit::skip("libcuda-sys was built from its pregenerated bindings on this machine (no CUDA headers or no libclang): nothing to generate with",
        );
    }
    libcuda_sys::PREGENERATED
}

/// Where the script under test has `dynamic-loading` (as in that feature's
/// suite), it links nothing and applies no floor: cases about either say
/// `skipped` and return true (the default suite runs them).
pub fn linking_untestable() -> bool {
    let dynamic = cfg!(feature = "dynamic-loading");
    if dynamic {
        testkit::skip("the build script of this suite has dynamic-loading, which links nothing");
    }
    dynamic
}

/// The newest release of the pregenerated set (`pregenerated/releases.txt`), which
/// it binds without a release feature, as `CUDA_VERSION`.
pub fn newest_pregenerated() -> u32 {
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
pub const ELF_STAND_IN: &[u8] = &elf_header(ELF_MACHINE);

/// The ELF header of a 64-bit little-endian shared object for `machine`.
pub const fn elf_header(machine: u16) -> [u8; 20] {
    let m = machine.to_le_bytes();
    [0x7f, b'E', b'L', b'F', 2, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 0, m[0], m[1]]
}

/// ELF's `e_machine` of x86-64 and AArch64.
pub const EM_X86_64: u16 = 62;
pub const EM_AARCH64: u16 = 183;
#[cfg(target_arch = "x86_64")]
pub const ELF_MACHINE: u16 = EM_X86_64;
#[cfg(target_arch = "aarch64")]
pub const ELF_MACHINE: u16 = EM_AARCH64;

/// What the C compiler needs on `PATH` (the driver, the assembler, the linker).
pub const COMPILER_TOOLS: [&str; 4] = ["cc", "gcc", "as", "ld"];

/// `X86_64_UNKNOWN_LINUX_GNU_<name>`.
pub fn prefixed(name: &str) -> String {
    format!("{}_{name}", TARGET.to_uppercase().replace('-', "_"))
}

/// The variables the build script reads first in every run.
pub fn always_read() -> Vec<String> {
    vec![
        prefixed("LIBCUDA_SYS_LIB_DIR"),
        "LIBCUDA_SYS_LIB_DIR".into(),
        prefixed("LIBCUDA_SYS_INCLUDE_DIR"),
        "LIBCUDA_SYS_INCLUDE_DIR".into(),
    ]
}

pub const ROOT_VARS: [&str; 4] = ["CUDA_PATH", "CUDA_HOME", "CUDA_ROOT", "CUDA_TOOLKIT_ROOT_DIR"];

/// The variables read on the way to bindgen, once a header was found.
pub fn generation_vars() -> Vec<String> {
    vec![
        "LIBCLANG_PATH".into(),
        "BINDGEN_EXTRA_CLANG_ARGS".into(),
        format!("BINDGEN_EXTRA_CLANG_ARGS_{TARGET}"),
    ]
}

/// The features this test was compiled with, which the script under test
/// has too (a release feature of the test build is not passed on: no suite sets one).
pub fn own_features() -> Vec<&'static str> {
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
pub fn build_script(extra: &[String]) -> PathBuf {
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
pub fn which(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).map(|d| d.join(name)).find(|p| p.is_file())
}

/// The real interpreter behind `python3` (not a pyenv or asdf shim, which would
/// need its own setup on `PATH`).
pub fn python3() -> Option<PathBuf> {
    let out =
        Command::new("python3").args(["-c", "import sys; print(sys.executable)"]).output().ok()?;
    let exe = PathBuf::from(String::from_utf8(out.stdout).ok()?.trim());
    (out.status.success() && exe.is_file()).then_some(exe)
}

/// A copy of `from` (a file, or a directory and all under it), readable by every user.
pub fn copy_tree(from: &Path, to: &Path) {
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
pub struct Case {
    pub name: &'static str,
    pub dir: PathBuf,
    pub bin: PathBuf,
    pub vars: Vec<(String, OsString)>,
    pub extra_path: Vec<PathBuf>,
    /// Features the script is compiled with besides the test's own.
    pub features: Vec<String>,
    /// Run the script as this user, from a copy of what it reads (see [`Case::as_user`]).
    pub uid: Option<u32>,
    pub out_dir: Option<PathBuf>,
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
pub fn cases_root() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("build script")
}

impl Case {
    pub fn new(name: &'static str) -> Case {
        Case::with_tools(name, &COMPILER_TOOLS)
    }

    pub fn with_tools(name: &'static str, tools: &[&str]) -> Case {
        Case::in_dir(cases_root().join(name), name, tools)
    }

    pub fn in_dir(dir: PathBuf, name: &'static str, tools: &[&str]) -> Case {
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
    pub fn as_user(name: &'static str, uid: u32) -> Option<Case> {
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
    pub fn without_libclang(name: &'static str) -> (Case, PathBuf) {
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
    pub fn mkdir(&self, rel: &str) -> PathBuf {
        let dir = self.dir.join(rel);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// `rel/cuda.h` with `text`, returning the directory.
    pub fn header(&self, rel: &str, text: &str) -> PathBuf {
        let dir = self.mkdir(rel);
        fs::write(dir.join("cuda.h"), text).unwrap();
        dir
    }

    /// A fake toolkit root `rel` whose `include` is the real headers (where
    /// this crate was built from its pregenerated bindings, a stand-in `cuda.h`, good
    /// enough for a toolkit that must not be chosen).
    pub fn toolkit(&self, rel: &str) -> PathBuf {
        let root = self.mkdir(rel);
        if REAL_INCLUDE.as_str().is_empty() {
            self.header(&format!("{rel}/include"), "#define CUDA_VERSION 13000\n");
        } else {
            symlink(&*REAL_INCLUDE, root.join("include")).unwrap();
        }
        root
    }

    /// `bin/name` -> `target`.
    pub fn tool(&self, name: &str, target: &Path) {
        symlink(target, self.bin.join(name)).unwrap();
    }

    pub fn env(&mut self, name: impl Into<String>, value: impl AsRef<OsStr>) -> &mut Case {
        self.vars.push((name.into(), value.as_ref().to_os_string()));
        self
    }

    /// Appends a directory to `PATH`, after `bin`.
    pub fn path(&mut self, dir: &Path) -> &mut Case {
        self.extra_path.push(dir.to_path_buf());
        self
    }

    /// Builds the script with `feature` too (Cargo compiles a build script with the features of its package).
    pub fn feature(&mut self, feature: impl Into<String>) -> &mut Case {
        self.features.push(feature.into());
        self
    }

    pub fn out_dir(&self) -> PathBuf {
        self.out_dir
            .clone()
            .unwrap_or_else(|| self.dir.join("target/debug/build/libcuda-sys-0/out"))
    }

    /// `OUT_DIR` elsewhere than Cargo's layout.
    pub fn out_dir_at(&mut self, dir: PathBuf) -> &mut Case {
        self.out_dir = Some(dir);
        self
    }

    /// The crate directory the script runs in: this one, or a case's copy.
    pub fn manifest_dir(&self) -> PathBuf {
        match self.uid {
            Some(_) => self.dir.join("crate"),
            None => PathBuf::from(env!("CARGO_MANIFEST_DIR")),
        }
    }

    pub fn run(&self) -> Outcome {
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
pub struct Outcome {
    pub case: &'static str,
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

impl Outcome {
    /// Everything, for assertion messages (stdout without the long rerun list).
    pub fn report(&self) -> String {
        let stdout: Vec<&str> = self.stdout.lines().filter(|l| !l.contains("rerun-if-")).collect();
        format!(
            "case {}: exit {:?}\n--- stdout (rerun-if lines left out) ---\n{}\n--- stderr ---\n{}",
            self.case,
            self.code,
            stdout.join("\n"),
            self.stderr
        )
    }

    pub fn assert_no_panic(&self) {
        for text in [&self.stdout, &self.stderr] {
            for bad in ["panicked", "RUST_BACKTRACE"] {
                assert!(!text.contains(bad), "`{bad}` in the output\n{}", self.report());
            }
        }
    }

    /// `cargo::warning=` (or old-style `cargo:warning=`) lines, the text after `=`.
    pub fn warnings(&self) -> Vec<&str> {
        self.directive("warning")
    }

    pub fn directive(&self, name: &str) -> Vec<&str> {
        let new = format!("cargo::{name}=");
        let old = format!("cargo:{name}=");
        self.stdout
            .lines()
            .filter_map(|l| l.strip_prefix(new.as_str()).or_else(|| l.strip_prefix(old.as_str())))
            .collect()
    }

    /// The value of `cargo::metadata=key=...`, empty where there is none (a failed run).
    pub fn metadata_or_empty(&self, key: &str) -> &str {
        let prefix = format!("{key}=");
        self.directive("metadata")
            .into_iter()
            .find_map(|m| m.strip_prefix(prefix.as_str()))
            .unwrap_or_default()
    }

    /// The value of `cargo::metadata=key=...`.
    pub fn metadata(&self, key: &str) -> &str {
        let prefix = format!("{key}=");
        let values: Vec<&str> = self
            .directive("metadata")
            .into_iter()
            .filter_map(|m| m.strip_prefix(prefix.as_str()))
            .collect();
        assert_eq!(values.len(), 1, "metadata key {key}: {values:?}\n{}", self.report());
        values[0]
    }

    pub fn reruns(&self) -> BTreeSet<&str> {
        self.directive("rerun-if-env-changed").into_iter().collect()
    }

    /// Every variable in `names` has a `rerun-if-env-changed` line.
    pub fn assert_reruns<S: AsRef<str>>(&self, names: &[S]) {
        let reruns = self.reruns();
        let missing: Vec<&str> =
            names.iter().map(AsRef::as_ref).filter(|n| !reruns.contains(n)).collect();
        assert!(missing.is_empty(), "no rerun-if-env-changed for {missing:?}\n{}", self.report());
    }

    /// The script logs each variable it reads (`libcuda-sys: NAME unset` or
    /// `libcuda-sys: NAME = value`); each of those must re-run it when changed.
    pub fn assert_consulted_vars_rerun(&self) {
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
    pub fn failure(&self, summary: &str) {
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

    pub fn assert_stderr_has(&self, phrases: &[&str]) {
        let missing: Vec<&&str> = phrases.iter().filter(|p| !self.stderr.contains(**p)).collect();
        assert!(missing.is_empty(), "stderr lacks {missing:?}\n{}", self.report());
    }

    /// Exit status 0 and the header found where expected, by `found_by`.
    pub fn found(&self, include: &Path, found_by: &str) {
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
pub fn installed_toolkit_headers() -> Vec<PathBuf> {
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

/// The real headers, but with `replace` as the content of some files: a
/// directory of symlinks.
pub fn include_with(case: &Case, rel: &str, replace: &[(&str, String)]) -> PathBuf {
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

/// What every run that used the pregenerated set must show: no headers named, the
/// release's version and cfgs, and its files in `OUT_DIR` with the crate's own
/// documentation lines.
pub fn assert_pregenerated(run: &Outcome, case: &Case, version: u32) {
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
