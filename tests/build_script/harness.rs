//! What every case shares: the fake toolkit trees, the cleared environment
//! and what a run of the build script said; with [`crate::setup`], what the
//! cases stand on.

pub use crate::setup::*;
pub use std::collections::BTreeSet;
pub use std::ffi::{OsStr, OsString};
pub use std::fs;
pub use std::os::unix::fs::{symlink, PermissionsExt};
pub use std::path::{Path, PathBuf};
pub use std::process::Command;

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
    /// Directories an empty one is mounted over for the run (see [`Case::hide`]).
    pub hidden: Vec<PathBuf>,
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
            hidden: Vec::new(),
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
        fs::copy(build_script(&[]), case.dir.join("build-script-build")).unwrap();
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

    /// `rel/cuda.h`, [`small_cuda_h`]: for the cases about where the headers
    /// are found and what the variables around them do, which bindgen reads
    /// for real, in a fifth of the time the whole header takes.
    pub fn small_headers(&self, rel: &str) -> PathBuf {
        self.header(rel, &small_cuda_h())
    }

    /// A fake toolkit root `rel` whose `include` holds [`Case::small_headers`].
    pub fn small_toolkit(&self, rel: &str) -> PathBuf {
        self.small_headers(&format!("{rel}/include"));
        self.dir.join(rel)
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

    /// Whether the script this case runs has `feature`: its own or the test's.
    pub fn has_feature(&self, feature: &str) -> bool {
        own_features().contains(&feature) || self.features.iter().any(|f| f == feature)
    }

    pub fn out_dir(&self) -> PathBuf {
        self.out_dir
            .clone()
            .unwrap_or_else(|| self.dir.join("target/debug/build/libcuda-sys-0/out"))
    }

    /// The symbols the built stand-in (`stub/libcuda.so.1`) defines, as `nm -D` lists them.
    pub fn stand_in_exports(&self) -> Vec<String> {
        let nm = std::process::Command::new("nm")
            .args(["-D", "--defined-only"])
            .arg(self.out_dir().join("stub/libcuda.so.1"))
            .output()
            .expect("nm");
        assert!(nm.status.success(), "nm: {}", String::from_utf8_lossy(&nm.stderr));
        let symbols = String::from_utf8_lossy(&nm.stdout);
        symbols.lines().filter_map(|l| l.split_whitespace().nth(2)).map(String::from).collect()
    }

    /// Runs the script with an empty directory mounted over `dir`, in a mount
    /// namespace of its own (`unshare -m`: root only), so that the rest of the
    /// machine never sees it gone. `false` (said as `skipped`) where that cannot be done.
    pub fn hide(&mut self, dir: &Path) -> bool {
        let unshare = Command::new("unshare").args(["-m", "true"]).output();
        if !unshare.is_ok_and(|o| o.status.success()) {
            testkit::skip("`unshare -m` is not available here (it needs root)");
            return false;
        }
        self.hidden.push(dir.to_path_buf());
        true
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
            Some(_) => self.dir.join("build-script-build"),
            None => build_script(&self.features),
        };
        let mut cmd = match self.hidden.is_empty() {
            true => Command::new(&script),
            false => self.hiding(&script),
        };
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

impl Case {
    /// `script` run by a shell in a mount namespace of its own, after an empty
    /// directory is mounted over each hidden one. By full paths: the case's
    /// `PATH` has neither `mount` nor `sh`.
    fn hiding(&self, script: &Path) -> Command {
        let empty = self.mkdir("hidden-by-an-empty-directory");
        let word = |p: &Path| format!("'{}'", p.display().to_string().replace('\'', r"'\''"));
        let mount = which("mount").expect("mount on PATH");
        let mut line = String::from("set -e; ");
        for dir in &self.hidden {
            line.push_str(&format!("{} --bind {} {}; ", word(&mount), word(&empty), word(dir)));
        }
        line.push_str("exec \"$0\"");
        let mut cmd = Command::new(which("unshare").expect("unshare on PATH"));
        cmd.args(["-m", "/bin/sh", "-c", &line]).arg(script);
        cmd
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

    /// No panic reached Rust's own hook (its text, a backtrace, an abort):
    /// the build script reports each as an error of its own.
    pub fn assert_no_panic(&self) {
        for text in [&self.stdout, &self.stderr] {
            for bad in ["' panicked at", "RUST_BACKTRACE", "stack backtrace", "non-unwinding panic"]
            {
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

    /// The explanation of a failure is lines of its own: none starts with more
    /// than the few spaces of a list's indentation (the source's indentation of
    /// a string literal that runs over several lines would).
    pub fn assert_explanation_unindented(&self) {
        let warning = self.warnings().first().copied().unwrap_or_default();
        let start = format!("\nlibcuda-sys: {warning}\n");
        let at =
            self.stderr.find(&start).unwrap_or_else(|| panic!("no explanation\n{}", self.report()));
        let deep: Vec<&str> = self.stderr[at..]
            .lines()
            .filter(|l| l.len() - l.trim_start_matches(' ').len() > 4)
            .collect();
        assert!(deep.is_empty(), "indented lines {deep:?}\n{}", self.report());
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

/// A `cuda.h` of a few declarations at the real headers' release: a
/// documented function, an enum (`-fshort-enums` narrows it), a struct with
/// padding (packing changes its layout), and a stream function renamed as
/// the real header renames it where the per-thread default stream is asked for.
pub fn small_cuda_h() -> String {
    format!(
        "#ifndef __cuda_cuda_h__\n#define __cuda_cuda_h__\n#define CUDA_VERSION {}\n\
         #if defined(__CUDA_API_VERSION_INTERNAL) || defined(CUDA_API_PER_THREAD_DEFAULT_STREAM)\n\
         #define __CUDA_API_PTSZ(api) api ## _ptsz\n#else\n#define __CUDA_API_PTSZ(api) api\n#endif\n\
         #define cuStreamQuery __CUDA_API_PTSZ(cuStreamQuery)\n\
         typedef int CUdevice;\ntypedef struct CUstream_st *CUstream;\n\
         typedef enum cudaError_enum {{ CUDA_SUCCESS = 0, CUDA_ERROR_INVALID_VALUE = 1 }} CUresult;\n\
         typedef struct CUsmall_st {{ char tag; double value; }} CUsmall;\n\
         /**\n * \\brief Initializes the driver.\n */\nCUresult cuInit(unsigned int Flags);\n\
         CUresult cuDeviceGet(CUdevice *device, int ordinal);\n\
         CUresult cuStreamQuery(CUstream hStream);\n#endif\n",
        *REAL_VERSION
    )
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
            "Value type `cuuint64_t` (8 bytes, unsigned); read with [`cuMemPoolGetAttribute`]; \
             set with [`cuMemPoolSetAttribute`]."
        ),
        "no value-type line in OUT_DIR/bindings.rs"
    );
    assert!(bindings.contains("How many bytes of unused reservation the pool keeps"));
    let functions = out("functions.rs");
    // Linked: the extern block itself; dynamic-loading: the list its macro expands.
    let opener =
        if case.has_feature("dynamic-loading") { "functions! {" } else { "unsafe extern \"C\" {" };
    assert!(functions.starts_with(opener), "{}", &functions[..80]);
    assert!(functions.contains("Needs a driver of CUDA 11.2 or newer"));
    for file in ["renames.rs", "since.rs", "value_types.rs", "macro_constants.rs"] {
        assert!(!out(file).is_empty(), "OUT_DIR/{file} missing or empty");
    }
}
