//! Environment of the build: every variable the script reads goes through
//! [`var`], which registers it with `rerun-if-env-changed` at the point of the
//! read, and the target comes from `CARGO_CFG_TARGET_*` because the script runs
//! on the host, not on the target.
//!
//! Also the C compiler as the user set it (`CC`, `CFLAGS`, cross compilers):
//! its command line, the user's flags, and the error where there is none.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use crate::model::{Error, Result};

mod compiler;
pub use compiler::Compiler;

/// `DOCS_RS` set (not empty, not `0`): a docs.rs build, where rustdoc links nothing.
pub fn docs_rs() -> bool {
    var("DOCS_RS").is_some_and(|v| !v.is_empty() && v != "0")
}

/// Reads `name`, tells Cargo to re-run the script when it changes and logs it
/// (the log is visible with `cargo build -vv`).
pub fn var(name: &str) -> Option<OsString> {
    println!("cargo::rerun-if-env-changed={name}");
    let value = std::env::var_os(name);
    match &value {
        Some(v) => log(format!("{name} = {}", v.to_string_lossy())),
        None => log(format!("{name} unset")),
    }
    value
}

/// The defines that select the header's API: the per-thread default stream's
/// (`DEP_CUDA_PER_THREAD_DEFAULT_STREAM` tells a dependent which was used).
pub fn api_defines(per_thread_default_stream: bool) -> Vec<&'static str> {
    match per_thread_default_stream {
        true => vec!["CUDA_API_PER_THREAD_DEFAULT_STREAM"],
        false => Vec::new(),
    }
}

/// A variable Cargo always sets for build scripts (empty where it is not, as
/// when the script is run by hand).
fn cargo_var(name: &str) -> String {
    std::env::var(name).unwrap_or_default()
}

/// `path` as it will stand in a `cargo::` line: text on one line. Cargo reads
/// directives line by line, so a newline would cut one short, and non-UTF-8
/// cannot be written at all; `what` names where the path came from.
pub fn directive_path(what: &str, path: &std::path::Path) -> Result<String> {
    // Quoted with escapes: the message itself must stay on one line.
    let bad = |why: &str| {
        crate::model::Error::new(
            format!("{what} {path:?} {why}"),
            format!(
                "Build-script output is line-oriented text, and {path:?} {why}, so it cannot be\n\
                 passed on to rustc and dependents intact.\n\n\
                 Fix: use a directory whose path is UTF-8 without line breaks (a symlink to it will do)\n\
                 and point the variable at that."
            ),
        )
    };
    let text = path.to_str().ok_or_else(|| bad("is not UTF-8"))?;
    if text.contains(['\n', '\r']) {
        return Err(bad("contains a line break"));
    }
    Ok(text.to_string())
}

/// The variables bindgen reads its extra clang flags from, with their values:
/// read here too, so that a change re-runs the script and the flags are checked.
pub fn bindgen_extra_clang_args(triple: &str) -> Vec<(String, Option<String>)> {
    [
        "BINDGEN_EXTRA_CLANG_ARGS".to_string(),
        format!("BINDGEN_EXTRA_CLANG_ARGS_{triple}"),
        format!("BINDGEN_EXTRA_CLANG_ARGS_{}", triple.replace('-', "_")),
    ]
    .into_iter()
    .map(|name| {
        let value = var(&name).map(|v| v.to_string_lossy().into_owned());
        (name, value)
    })
    .collect()
}

pub fn log(message: impl AsRef<str>) {
    eprintln!("libcuda-sys: {}", message.as_ref());
}

/// libcuda-sys's features as its build script was compiled with them. Not
/// `CARGO_FEATURE_*`: those in the environment can be inherited (an outer
/// build, an exported variable) and would switch the ABI of a build that
/// never asked for it.
pub struct Features {
    pub bindgen: bool,
    pub per_thread_default_stream: bool,
    pub dynamic_loading: bool,
    /// Every `cuda-XXXXX` feature, with whether it is on.
    pub releases: &'static [(u32, bool)],
    /// Every interop feature (`gl`, `egl`, `vdpau`), with whether it is on.
    pub interop: &'static [(&'static str, bool)],
}

/// A place the toolkit search asks (`find::places::AUTOMATIC`): the candidate
/// roots or include directories it gives for the target.
pub type Place = fn(&Target) -> Vec<PathBuf>;

/// The platform the bindings are generated for, and what the build script
/// brings that this crate does not link: its features, cc and pkg-config.
pub struct Target {
    pub triple: String,
    pub host: String,
    pub os: String,
    pub arch: String,
    /// `CARGO_CFG_TARGET_POINTER_WIDTH`: `64` on every target CUDA supports.
    pub pointer_width: String,
    pub out_dir: PathBuf,
    pub manifest_dir: PathBuf,
    pub features: Features,
    pub c_compiler: FindCompiler,
    pub pkg_config: ProbePkgConfig,
}

impl Target {
    pub fn from_cargo(
        features: Features,
        c_compiler: FindCompiler,
        pkg_config: ProbePkgConfig,
    ) -> Target {
        Target {
            features,
            c_compiler,
            pkg_config,
            triple: cargo_var("TARGET"),
            host: cargo_var("HOST"),
            os: cargo_var("CARGO_CFG_TARGET_OS"),
            arch: cargo_var("CARGO_CFG_TARGET_ARCH"),
            pointer_width: cargo_var("CARGO_CFG_TARGET_POINTER_WIDTH"),
            out_dir: PathBuf::from(cargo_var("OUT_DIR")),
            manifest_dir: PathBuf::from(cargo_var("CARGO_MANIFEST_DIR")),
        }
    }

    /// A 32-bit target, which the driver API has not supported since CUDA 12.0
    /// and whose layouts the bindings do not have: an error before anything else.
    pub fn check_pointer_width(&self) -> Result<()> {
        match self.pointer_width.as_str() {
            "32" | "16" => Err(crate::model::Error::new(
                format!("libcuda-sys supports 64-bit targets only, not {}", self.triple),
                format!(
                    "{} has {}-bit pointers. CUDA's driver API is 64-bit only (its 32-bit driver ended with\n\
                     CUDA 12.0), and the bindings' layouts are those of 64-bit targets.\n\n\
                     Fix: build for a 64-bit target (x86_64-unknown-linux-gnu, aarch64-unknown-linux-gnu,\n\
                     x86_64-pc-windows-msvc), or leave libcuda-sys out of this target's dependencies\n\
                     ([target.'cfg(target_pointer_width = \"64\")'.dependencies]).",
                    self.triple, self.pointer_width
                ),
            )),
            _ => Ok(()),
        }
    }

    pub(crate) fn is_native(&self) -> bool {
        self.triple == self.host
    }

    /// Reads `X86_64_UNKNOWN_LINUX_GNU_<name>` before `<name>` (the openssl-sys
    /// convention, so one environment can hold settings for several targets).
    /// Returns the variable that was set along with its value.
    pub(crate) fn target_var(&self, name: &str) -> Option<(String, OsString)> {
        let prefixed = target_prefixed(&self.triple, name);
        for candidate in [prefixed, name.to_string()] {
            if let Some(value) = var(&candidate).filter(|v| !v.is_empty()) {
                return Some((candidate, value));
            }
        }
        None
    }

    /// The `targets/<dir>` names a toolkit uses for this target's headers and libraries.
    pub(crate) fn toolkit_target_dirs(&self) -> &'static [&'static str] {
        match (self.os.as_str(), self.arch.as_str()) {
            ("linux", "x86_64") => &["x86_64-linux"],
            ("linux", "aarch64") => &["sbsa-linux", "aarch64-linux"],
            ("windows", "x86_64") => &["x64"],
            _ => &[],
        }
    }

    /// The directory a Debian-style multiarch system keeps libraries in.
    pub(crate) fn multiarch_lib_dir(&self) -> Option<&'static str> {
        match (self.os.as_str(), self.arch.as_str()) {
            ("linux", "x86_64") => Some("/usr/lib/x86_64-linux-gnu"),
            ("linux", "aarch64") => Some("/usr/lib/aarch64-linux-gnu"),
            _ => None,
        }
    }

    /// Defines for the header that the crate's features ask for, applied to
    /// bindgen and the preprocessor alike.
    pub fn defines(&self) -> Vec<&'static str> {
        api_defines(self.per_thread_default_stream())
    }

    pub(crate) fn per_thread_default_stream(&self) -> bool {
        self.features.per_thread_default_stream
    }

    pub fn dynamic_loading(&self) -> bool {
        self.features.dynamic_loading
    }

    pub(crate) fn is_windows(&self) -> bool {
        self.os == "windows"
    }
}

/// Finds the target's C compiler with `include` and `defines` added, or says
/// why there is none (the error of [`no_compiler`]).
pub type FindCompiler = fn(include: Option<&Path>, defines: &[&str]) -> Result<Compiler>;

/// Why a pkg-config probe found no include paths.
pub enum Probe {
    /// There is no `pkg-config` to run.
    NotInstalled,
    /// pkg-config's own message: most often, no such `.pc` file.
    Failed(String),
}

/// Asks pkg-config for the include paths of `name` (`cuda-12.4`); `register`:
/// whether to print `rerun-if-env-changed` for the variables it reads. The
/// build script makes it, as it links the `pkg-config` crate and this crate
/// does not (so that this crate compiles from the start of a build).
pub type ProbePkgConfig =
    fn(name: &str, register: bool) -> std::result::Result<Vec<PathBuf>, Probe>;

/// The command the compiler runs as, wrapper (`ccache`, `env`) included, then its arguments.
pub(crate) fn command_line(compiler: &Compiler) -> Vec<String> {
    let cmd = compiler.to_command();
    std::iter::once(cmd.get_program())
        .chain(cmd.get_args())
        .map(|a| a.to_string_lossy().into_owned())
        .collect()
}

/// `cmd`'s program and arguments as a shell command line a user can paste,
/// without the environment it runs in.
pub fn shown(cmd: &std::process::Command) -> String {
    let words = std::iter::once(cmd.get_program()).chain(cmd.get_args());
    words.map(|w| shell_word(&w.to_string_lossy())).collect::<Vec<_>>().join(" ")
}

/// `word` as one word of a POSIX shell command line: as it is where it holds
/// only characters no shell treats specially, otherwise in single quotes, each
/// `'` in it written `'\''` (out of the quotes, escaped, back in).
pub fn shell_word(word: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "_-./:=+,@%".contains(c);
    if !word.is_empty() && word.chars().all(plain) {
        return word.to_string();
    }
    format!("'{}'", word.replace('\'', r"'\''"))
}

/// `name` for one target, as openssl-sys spells it: `X86_64_UNKNOWN_LINUX_GNU_<name>`.
pub fn target_prefixed(triple: &str, name: &str) -> String {
    format!("{}_{name}", triple.to_uppercase().replace('-', "_"))
}

/// The variables cc reads for `base` (`CC`, `CFLAGS`) that are set, most
/// specific first: `<base>_<target>` (both spellings), `TARGET_<base>`, `<base>`.
#[cfg(feature = "generate")]
fn set_vars(base: &str) -> Vec<(String, String)> {
    let target = std::env::var("TARGET").unwrap_or_default();
    [
        format!("{base}_{target}"),
        format!("{base}_{}", target.replace('-', "_")),
        format!("TARGET_{base}"),
        base.to_string(),
    ]
    .into_iter()
    .filter_map(|name| {
        let value = std::env::var(&name).ok().filter(|v| !v.is_empty())?;
        Some((name, value))
    })
    .collect()
}

/// `CC`/`CFLAGS` as set, `NAME=value`, for messages.
#[cfg(feature = "generate")]
pub(crate) fn user_flags() -> Vec<String> {
    ["CC", "CFLAGS"]
        .iter()
        .flat_map(|base| set_vars(base))
        .map(|(name, value)| format!("{name}={value}"))
        .collect()
}

/// The Debian/Ubuntu package of the GNU C cross compiler for `triple`: the
/// one cc names (`tool`: `powerpc64le-linux-gnu-gcc`) where that is a GNU
/// Linux one, else the triple's architecture's (`riscv64gc` is `riscv64`).
/// Package names spell the prefix's underscores as dashes (`gcc-x86-64-linux-gnu`).
pub fn cross_gcc_package(tool: &str, triple: &str) -> String {
    let named = Path::new(tool).file_name().and_then(|n| n.to_str());
    let prefix = match named.and_then(|n| n.strip_suffix("-gcc")).filter(|p| p.contains("-linux-"))
    {
        Some(prefix) => prefix.to_string(),
        None => {
            let arch = triple.split('-').next().unwrap_or_default();
            format!("{}-linux-gnu", if arch.starts_with("riscv64") { "riscv64" } else { arch })
        }
    };
    format!("gcc-{}", prefix.replace('_', "-"))
}

/// `program` could not be run (empty where cc found none to name).
pub fn no_compiler(program: &str, why: &str) -> Error {
    // Cargo sets both for build scripts; a cross build needs the target's compiler.
    let target = std::env::var("TARGET").unwrap_or_default();
    let host = std::env::var("HOST").unwrap_or_default();
    let named = |program: &str| {
        Path::new(program).file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()
    };
    let fix = if target != host && !target.is_empty() {
        // cc names the cross compiler it wants (`riscv64-linux-gnu-gcc` for
        // riscv64gc-...): Debian and Ubuntu package it as `gcc-<its prefix>`.
        let tool = named(program);
        let package = match target.contains("windows") {
            true => "gcc-mingw-w64-x86-64".to_string(),
            false => cross_gcc_package(&tool, &target),
        };
        let example = if tool.is_empty() { "the compiler" } else { &tool };
        format!(
            "Fix: install a C cross compiler for {target} (Debian/Ubuntu: apt-get install {package})\n\
             and name it in CC_{} (or CC_{target}), e.g. CC_{}={example}",
            target.replace('-', "_"),
            target.replace('-', "_"),
        )
    } else {
        "Fix: install one (Debian/Ubuntu: apt-get install gcc) or set CC to its path.".to_string()
    };
    let summary = if program.is_empty() {
        "no C compiler found".to_string()
    } else {
        format!("no C compiler found: {program} cannot be run")
    };
    Error::new(
        summary,
        format!(
            "libcuda-sys runs the C preprocessor on cuda.h and needs a C compiler: {}{why}\n\n{fix}",
            if program.is_empty() { String::new() } else { format!("{program}: ") }
        ),
    )
}

/// A file the build writes (in `OUT_DIR`) that could not be written.
pub fn write_error(path: &Path, e: std::io::Error) -> Error {
    Error::new(format!("cannot write {}", path.display()), e.to_string())
}

/// A path this user cannot reach (a directory above it is not searchable):
/// not to be called missing.
pub(crate) fn unreachable(path: &Path) -> bool {
    std::fs::metadata(path).is_err_and(|e| e.kind() == std::io::ErrorKind::PermissionDenied)
}

pub(crate) const UNREACHABLE: &str =
    "cannot be reached: permission denied (a directory above it is not searchable by this user)";

/// A directory a variable names, which must be absolute: the build script runs
/// in the crate's own directory (for a crates.io dependency, the registry's
/// copy), not where cargo was started, so a relative path would silently mean
/// another place.
pub(crate) fn absolute(name: &str, value: OsString) -> Result<PathBuf> {
    let path = PathBuf::from(value);
    if path.is_absolute() {
        return Ok(path);
    }
    Err(Error::new(
        format!("{name}={} is a relative path", path.display()),
        format!(
            "{name} must be an absolute path: the build script runs in libcuda-sys's own directory,\n\
             not in the one cargo was started from, so `{}` would be looked for somewhere else.\n\n\
             Fix: {name}=\"$PWD/{}\" (or the full path), or unset {name}",
            path.display(),
            path.display()
        ),
    ))
}
