//! libclang: loaded before bindgen, its resource directory, and bindgen's
//! failures on it as errors that say what to do.

use std::path::Path;

use crate::model::panics::{self, caught};
use crate::model::{Error, Result};

const LIBCLANG_FIX: &str = "Fix one of:\n\
     - Debian/Ubuntu: apt-get install libclang-dev\n\
     - Fedora: dnf install clang-devel; Arch: pacman -S clang\n\
     - set LIBCLANG_PATH to the directory that holds libclang.so (e.g. /usr/lib/llvm-14/lib)";

/// libclang, loaded before bindgen because bindgen panics when it cannot
/// load it; this way the user gets the places searched and the fix. A
/// library that loads but is not libclang (no `clang_createIndex`) is refused
/// too, for the same reason. It loads on a thread of its own: opening it (and
/// the LLVM it links) takes a while, which the C preprocessor's runs and the
/// header's reading fill. [`Loading::finish`] makes it the calling thread's
/// libclang, as clang-sys keeps the loaded library per thread.
pub struct Loading<'scope> {
    /// `LIBCLANG_PATH` and what is wrong with it, for the error.
    named: Option<String>,
    thread: std::thread::ScopedJoinHandle<'scope, std::result::Result<Loaded, String>>,
}

type Loaded = std::result::Result<std::sync::Arc<clang_sys::SharedLibrary>, String>;

impl<'scope> Loading<'scope> {
    /// Starts loading libclang, on a thread of `scope`.
    pub fn start<'env>(scope: &'scope std::thread::Scope<'scope, 'env>) -> Self {
        // clang-sys searches only LIBCLANG_PATH when it is set, empty or not:
        // empty is unset here, as for every variable (before the loading
        // thread starts: the environment is changed while no other runs).
        let path = crate::env::var("LIBCLANG_PATH");
        if path.as_ref().is_some_and(|p| p.is_empty()) {
            std::env::remove_var("LIBCLANG_PATH");
        }
        let named = path.filter(|p| !p.is_empty()).map(|p| {
            let dir = std::path::Path::new(&p);
            let state = if !dir.exists() {
                "does not exist"
            } else if dir.is_dir() {
                "holds no libclang that loads"
            } else {
                "is a file, not a directory"
            };
            format!("LIBCLANG_PATH={} {state}", dir.display())
        });
        let load = || -> Loaded {
            clang_sys::load()?;
            clang_sys::get_library().ok_or_else(|| "clang-sys kept no library".to_string())
        };
        Loading { named, thread: scope.spawn(move || caught(load)) }
    }

    /// libclang loaded into the calling thread, or why not.
    pub fn finish(self) -> Result<()> {
        // A panic is no missing libclang: it is said as what it is.
        let loaded = panics::joined(self.thread.join())
            .map_err(|panic| panics::error("loading libclang", &panic))?;
        let e = match loaded {
            Ok(library) => {
                clang_sys::set_library(Some(library));
                return is_libclang();
            }
            Err(e) => e,
        };
        let summary = match &self.named {
            Some(n) => format!("libclang not found ({n}; bindgen needs it to read cuda.h)"),
            None => "libclang not found (bindgen needs it to read cuda.h)".to_string(),
        };
        let fix = match &self.named {
            Some(_) => format!(
                "{LIBCLANG_FIX}\n- or unset LIBCLANG_PATH to let clang-sys search the usual places"
            ),
            None => LIBCLANG_FIX.to_string(),
        };
        Err(Error::new(summary, format!("{e}\n\n{fix}")))
    }
}

/// The loaded library exports `clang_createIndex`: it is libclang; and the
/// functions bindgen calls before any other, or it panics where no unwinding
/// is possible (inside a libclang callback, or a destructor).
fn is_libclang() -> Result<()> {
    use clang_sys as c;
    let path = clang_sys::get_library().map(|l| l.path().display().to_string()).unwrap_or_default();
    if !c::clang_createIndex::is_loaded() {
        return Err(Error::new(
            format!("{path} is not libclang (bindgen needs libclang to read cuda.h)"),
            format!(
                "clang-sys loaded {path}, which does not export clang_createIndex: it is some other\n\
                 library under a libclang name.\n\n{LIBCLANG_FIX}"
            ),
        ));
    }
    let needed = [
        ("clang_disposeIndex", c::clang_disposeIndex::is_loaded()),
        ("clang_parseTranslationUnit", c::clang_parseTranslationUnit::is_loaded()),
        ("clang_disposeTranslationUnit", c::clang_disposeTranslationUnit::is_loaded()),
        ("clang_getTranslationUnitCursor", c::clang_getTranslationUnitCursor::is_loaded()),
        ("clang_visitChildren", c::clang_visitChildren::is_loaded()),
        ("clang_getNumDiagnostics", c::clang_getNumDiagnostics::is_loaded()),
    ];
    let missing: Vec<&str> = needed.iter().filter(|(_, has)| !has).map(|(name, _)| *name).collect();
    if missing.is_empty() {
        return Ok(());
    }
    Err(Error::new(
        format!("{path} is an incomplete libclang (it lacks {})", missing.join(", ")),
        format!(
            "clang-sys loaded {path}, which exports clang_createIndex but not\n  {}\n\
             which bindgen calls first.\n\n{LIBCLANG_FIX}",
            missing.join("\n  ")
        ),
    ))
}

/// The version text of the libclang this machine loads ("Debian clang version
/// 14.0.6"): bindgen's output depends on it, so `cargo xtask pregenerate`
/// keeps it with what it generated.
#[cfg(feature = "pregenerate")]
pub fn libclang_version() -> Result<String> {
    std::thread::scope(|scope| Loading::start(scope).finish())?;
    // SAFETY: libclang is loaded into this thread; the string is copied, then disposed.
    unsafe {
        let version = clang_sys::clang_getClangVersion();
        let text = clang_sys::clang_getCString(version);
        let copied = match text.is_null() {
            true => String::new(),
            false => std::ffi::CStr::from_ptr(text).to_string_lossy().into_owned(),
        };
        clang_sys::clang_disposeString(version);
        Ok(copied)
    }
}

/// For a cross build, where libclang most often fails for want of the
/// target's C library headers: which package has them, and the variable that
/// names a sysroot elsewhere.
fn cross_hint(target: &str) -> String {
    if std::env::var("HOST").is_ok_and(|host| host == target) {
        return String::new();
    }
    let package = if target.starts_with("aarch64-") && target.contains("-linux-gnu") {
        "libc6-dev-arm64-cross (with gcc-aarch64-linux-gnu)"
    } else if target.ends_with("-windows-gnu") {
        "mingw-w64-x86-64-dev (with gcc-mingw-w64-x86-64)"
    } else if target.ends_with("-windows-msvc") {
        "none on Linux: libclang needs the Windows SDK and MSVC headers; build on Windows, or \
         use the pregenerated bindings (LIBCUDA_SYS_BINDINGS=pregenerated)"
    } else {
        "the C library development files for that target"
    };
    format!(
        "\n\nThis is a cross build for {target}: libclang parses cuda.h as that target and needs\n\
         the target's C library headers (stdlib.h). Debian/Ubuntu package: {package}.\n\
         Headers elsewhere: BINDGEN_EXTRA_CLANG_ARGS_{}=\"--sysroot=/path/to/sysroot\"",
        target.replace('-', "_")
    )
}

/// Clang's own headers (`stddef.h`, `stdarg.h`, `mm_malloc.h`, ...), which
/// libclang reads from its resource directory (`clang/<version>/include`) and
/// which no target parses without: glibc's `stdlib.h` includes `stddef.h`,
/// which libclang takes from there alone (GCC's copy is in GCC's own
/// directory, which clang does not search), and a MinGW target
/// (`x86_64-pc-windows-gnu`) also needs `mm_malloc.h`. libclang looks for the
/// directory relative to its own file (`<dir>/../lib/clang/<major>`), which
/// misses where a distribution keeps libclang in the multiarch directory
/// (Debian: `/usr/lib/x86_64-linux-gnu`) and the headers elsewhere
/// (`/usr/lib/llvm-14/lib/clang/14.0.6`): this finds it for the libclang that
/// was loaded. Only an unambiguous match is used: with several installed
/// versions and no way to tell which is the loaded one, libclang keeps its own
/// choice.
pub fn resource_dir() -> Option<std::path::PathBuf> {
    let library = clang_sys::get_library()?;
    let major = major_version(library.path());
    let mut found: Vec<std::path::PathBuf> = clang_dirs(library.path())
        .iter()
        .filter_map(|versions| std::fs::read_dir(versions).ok())
        .flatten()
        .flatten()
        .filter(|e| {
            let version = e.file_name().to_string_lossy().into_owned();
            major.is_empty() || version == major || version.starts_with(&format!("{major}."))
        })
        .filter_map(|e| e.path().join("include/stddef.h").canonicalize().ok())
        .filter_map(|header| Some(header.parent()?.parent()?.to_path_buf()))
        .collect();
    found.sort();
    found.dedup();
    (found.len() == 1).then(|| found.remove(0))
}

/// The directories near `library` (a libclang) that hold clang's headers by
/// version (`clang/14`, `clang/14.0.6`): beside it, one level up, and in the
/// `lib` beside its directory (libclang's own rule; on Windows it is in
/// `bin`), for its path and for the one past its symlinks.
fn clang_dirs(library: &Path) -> Vec<std::path::PathBuf> {
    let mut dirs = Vec::new();
    for file in [library.to_path_buf(), library.canonicalize().unwrap_or_default()] {
        let Some(dir) = file.parent().filter(|d| !d.as_os_str().is_empty()) else {
            continue;
        };
        let up = dir.parent().unwrap_or(dir);
        for candidate in [dir.join("clang"), up.join("clang"), up.join("lib").join("clang")] {
            if !dirs.contains(&candidate) {
                dirs.push(candidate);
            }
        }
    }
    dirs
}

/// The major version of a libclang, as its file names say it, past symlinks
/// (`libclang-14.so.1`, `libclang.so.17`, `/usr/lib/llvm-14/lib/libclang.so`);
/// empty where they do not (Debian's `libclang.so.1` numbers the ABI, not the release).
fn major_version(library: &Path) -> String {
    let digits = |s: &str| -> String { s.chars().take_while(char::is_ascii_digit).collect() };
    let paths = [library.to_path_buf(), library.canonicalize().unwrap_or_default()];
    let names: Vec<String> = paths
        .iter()
        .filter_map(|p| p.file_name())
        .map(|n| n.to_string_lossy().into_owned())
        .collect();
    let dashed = names.iter().filter_map(|n| n.strip_prefix("libclang-")).map(digits);
    let numbered = names
        .iter()
        .filter_map(|n| n.split_once(".so.").map(|(_, v)| digits(v)))
        .filter(|v| v.parse::<u32>().is_ok_and(|n| n >= 3));
    let llvm = paths
        .iter()
        .flat_map(|p| p.ancestors())
        .filter_map(|a| a.file_name()?.to_str()?.strip_prefix("llvm-").map(digits));
    dashed.chain(numbered).chain(llvm).find(|v| !v.is_empty()).unwrap_or_default()
}

/// Clang's headers that no C library has: one of them "not found" means
/// libclang came without its resource directory.
const CLANG_ONLY_HEADERS: [&str; 4] = ["stddef.h", "stdarg.h", "stdbool.h", "mm_malloc.h"];

/// bindgen's error `e` (for `include`'s `cuda.h`) where libclang lacks clang's
/// own headers, as the error that names the package that has them; `None`
/// for any other error.
pub fn without_clang_headers(include: &Path, e: &str) -> Option<Error> {
    let header =
        CLANG_ONLY_HEADERS.iter().find(|h| e.contains(&format!("'{h}' file not found")))?;
    let library = clang_sys::get_library().map(|l| l.path().to_path_buf()).unwrap_or_default();
    let major = major_version(&library);
    let (version, package) = match major.as_str() {
        "" => ("<version>".to_string(), "libclang-common-<version>-dev".to_string()),
        n => (n.to_string(), format!("libclang-common-{n}-dev")),
    };
    let looked: Vec<String> =
        clang_dirs(&library).iter().map(|d| format!("  {}", d.display())).collect();
    let versions = match major.as_str() {
        "" => "any version".to_string(),
        n => format!("{n} or {n}.*"),
    };
    Some(Error::new(
        format!(
            "libclang has no {header} of its own: clang's headers for it are not installed \
             (Debian/Ubuntu: {package}, or libclang-dev)"
        ),
        format!(
            "bindgen could not parse {}:\n{}\n\n\
             libclang ({})\n\
             reads clang's own headers (stddef.h, stdarg.h, mm_malloc.h, ...) from its resource\n\
             directory, and has none: no <version>/include/{header} ({versions}) in\n{}\n\
             No C library has these headers, and GCC's copies are not on libclang's path. Debian and\n\
             Ubuntu package libclang alone (libclang1-{version}) and its headers apart ({package},\n\
             which libclang-dev brings in).\n\n\
             Fix one of:\n\
             - Debian/Ubuntu: apt-get install {package} (or libclang-dev)\n\
             - elsewhere: install clang of libclang's version, whose package has these headers\n\
             - name a resource directory of that version, e.g.\n  \
               BINDGEN_EXTRA_CLANG_ARGS=\"-resource-dir=/usr/lib/llvm-{version}/lib/clang/{version}\"\n\
             - point LIBCLANG_PATH at the lib directory of a complete LLVM installation\n\
             - use the crate's pregenerated bindings: unset LIBCUDA_SYS_BINDINGS (or set it to pregenerated)",
            include.join("cuda.h").display(),
            e.trim_end(),
            library.display(),
            looked.join("\n"),
        ),
    ))
}

/// bindgen panicked (`panic`, its message) on `include`'s `cuda.h` for `target`.
/// `extra_args`: bindgen's own variables ([`crate::env::bindgen_extra_clang_args`]).
pub fn stopped(
    include: &Path,
    target: &str,
    panic: &str,
    extra_args: &[(String, Option<String>)],
) -> Error {
    let extra_values: Vec<String> = extra_args
        .iter()
        .map(|(name, value)| match value {
            Some(v) => format!("{name} = {v}"),
            None => format!("{name} unset"),
        })
        .collect();
    Error::new(
        format!(
            "bindgen stopped on {}: {}",
            include.join("cuda.h").display(),
            panic.lines().next().unwrap_or_default()
        ),
        format!(
            "bindgen gave up on the header with an internal assertion:\n{panic}\n\n\
             The settings that change what it does:\n  {}\n  libclang loaded: {}\n\n\
             Fix one of:\n\
             - remove flags from BINDGEN_EXTRA_CLANG_ARGS that change the target's ABI (-m32,\n  \
               --target=...): the bindings are for {}\n\
             - point LIBCLANG_PATH at another, complete libclang (11 or newer)\n\
             - use the crate's pregenerated bindings: unset LIBCUDA_SYS_BINDINGS (or set it to pregenerated)",
            extra_values.join("\n  "),
            clang_sys::get_library().map(|l| l.path().display().to_string()).unwrap_or_default(),
            target,
        ),
    )
}

/// bindgen returned `e` instead of bindings for `include`'s `cuda.h` and `target`.
pub fn unparsable(include: &Path, target: &str, e: &str) -> Error {
    Error::new(
        format!("bindgen could not parse {}", include.join("cuda.h").display()),
        format!(
            "{e}\n\n\
             The header did not parse with libclang. Fix one of:\n\
             - check that the toolkit's include directory is complete (cuda.h includes stdlib.h and stdint.h)\n\
             - point LIBCUDA_SYS_INCLUDE_DIR / CUDA_PATH at another toolkit\n\
             - pass extra clang flags with BINDGEN_EXTRA_CLANG_ARGS (e.g. a sysroot when cross-compiling){}",
            cross_hint(target),
        ),
    )
}
