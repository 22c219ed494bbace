//! The C preprocessor's view of `wrapper.h`, through the compiler the `cc`
//! crate selects (so the user's `CC`, `CFLAGS` and cross compiler apply). Used for `CUDA_VERSION` and
//! for the rename macros: the header decides, not a list kept here.
//! Its `CUDA_VERSION` too, checked against the minimum and against what bindgen bound.

use std::path::{Path, PathBuf};

use crate::env::{command_line, user_flags, Compiler};
use crate::model::{plausible, CudaVersion, Error, Result, MINIMUM};

mod checks;
pub use checks::{check_minimum, check_same};

/// Everything needed to preprocess or compile against the chosen header the way
/// the bindings were generated: include directory and defines.
#[derive(Clone)]
pub struct Header {
    pub wrapper: PathBuf,
    pub include_dir: PathBuf,
    pub defines: Vec<&'static str>,
    pub out_dir: PathBuf,
    pub target_triple: String,
    /// The profiler API's declarations, which `cuda.h` leaves out (see `profiler`).
    pub profiler: String,
    /// An interop module's includes after all that (`Header::with_module`);
    /// empty for `cuda.h`'s own pass.
    pub module: String,
    /// The preprocessor and clang flags of that module's pass: its defines and
    /// the stand-ins' directory (`-idirafter`).
    pub module_flags: Vec<String>,
    /// The compiler cc selects, with the include directory and defines; asked
    /// for once, since cc probes the compiler (three runs) every time.
    compiler: Compiler,
}

impl Header {
    pub fn new(
        wrapper: PathBuf,
        include_dir: PathBuf,
        defines: Vec<&'static str>,
        out_dir: PathBuf,
        target_triple: String,
        find: crate::env::FindCompiler,
    ) -> Result<Header> {
        let compiler = find(Some(&include_dir), &defines)?;
        Ok(Header {
            profiler: profiler(&include_dir),
            module: String::new(),
            module_flags: Vec::new(),
            wrapper,
            include_dir,
            defines,
            out_dir,
            target_triple,
            compiler,
        })
    }

    /// The C source that declares everything bound: `wrapper.h` and the
    /// profiler's declarations.
    pub fn source(&self) -> String {
        format!("#include \"{}\"\n{}{}", self.wrapper.display(), self.profiler, self.module)
    }

    /// The same header with an interop module's includes after it, read with
    /// `flags` (its defines, `-idirafter` of the stand-ins), for the module's
    /// own bindgen and preprocessor passes.
    pub fn with_module(&self, source: String, flags: Vec<String>) -> Header {
        Header {
            wrapper: self.wrapper.clone(),
            include_dir: self.include_dir.clone(),
            defines: self.defines.clone(),
            out_dir: self.out_dir.clone(),
            target_triple: self.target_triple.clone(),
            profiler: self.profiler.clone(),
            module: source,
            module_flags: flags,
            compiler: self.compiler.clone(),
        }
    }

    /// The text of the interop header `name` beside `cuda.h` (empty where it
    /// cannot be read: then bindgen has already failed on it).
    pub fn module_text(&self, name: &str) -> String {
        let bytes = std::fs::read(self.include_dir.join(name)).unwrap_or_default();
        String::from_utf8_lossy(&bytes).into_owned()
    }

    /// The preprocessor's output for the header followed by `body`.
    fn run(&self, body: &str, flags: &[&str]) -> Result<String> {
        let source = format!("{}\n{body}", self.source());
        let fail = |why: String| {
            // The user's flags may be the cause as much as the header: name them.
            let flags = user_flags();
            Error::new(
                format!(
                    "the C preprocessor failed on {}{}",
                    self.include_dir.join("cuda.h").display(),
                    if flags.is_empty() { String::new() } else { format!(" (with {})", flags.join(", ")) }
                ),
                format!(
                    "cuda.h does not preprocess with the C compiler cc selected ({}):\n{why}\n\n\
                     Fix one of:\n\
                     - check that the directory holds a complete set of CUDA headers (cuda.h and the\n  \
                       headers it includes), or point LIBCUDA_SYS_INCLUDE_DIR / CUDA_PATH at another toolkit\n\
                     - check the compiler and flags: {} (CC and CFLAGS, also per target as CC_<target>,\n  \
                       CFLAGS_<target>; a flag such as -m32 needs headers for that ABI too)",
                    self.compiler.path.display(),
                    if flags.is_empty() { "none set".to_string() } else { flags.join(", ") },
                ),
            )
        };
        let flags: Vec<&str> =
            self.module_flags.iter().map(String::as_str).chain(flags.iter().copied()).collect();
        self.compiler.preprocess(&source, &flags, &self.out_dir)?.map_err(fail)
    }

    /// The macro dump (`-dM`): every `#define` in force after including the header.
    pub fn macros(&self) -> Result<Vec<(String, String)>> {
        let dump = self.run("", &["-dM"])?;
        let macros: Vec<(String, String)> = dump
            .lines()
            .filter_map(|l| l.strip_prefix("#define "))
            .map(|l| {
                let (name, body) = l.split_once(' ').unwrap_or((l, ""));
                (name.to_string(), body.trim().to_string())
            })
            .collect();
        // Every C compiler predefines dozens of macros: none at all means CC is
        // not a C compiler (CC=/bin/true), whatever the header says.
        if macros.is_empty() {
            let path = self.compiler.path.display();
            return Err(Error::new(
                format!("the C compiler {path} printed no macros: it does not look like a C compiler"),
                format!(
                    "`{path} -E -dM` succeeded but printed no #define at all, not even the compiler's own.\n\n\
                     Fix: set CC (or CC_<target>) to a C compiler such as gcc or clang, or unset it."
                ),
            ));
        }
        Ok(macros)
    }

    /// Expands each of `names` after the header, returning `(name, expansion)`
    /// and the preprocessed header itself.
    pub fn expand(&self, names: &[&str]) -> Result<(Vec<(String, String)>, String)> {
        let mut body = String::from("\nLIBCUDA_SYS_BEGIN_EXPANSIONS\n");
        for n in names {
            body.push_str(&format!("\"{n}\" {n}\n"));
        }
        let text = self.run(&body, &[])?;
        let (header, tail) = text.split_once("LIBCUDA_SYS_BEGIN_EXPANSIONS").unwrap_or((&text, ""));
        let pairs = tail
            .lines()
            .filter_map(|l| {
                let rest = l.trim().strip_prefix('"')?;
                let (name, expansion) = rest.split_once('"')?;
                Some((name.to_string(), expansion.trim().to_string()))
            })
            .collect();
        Ok((pairs, header.to_string()))
    }

    /// `cuda.h`'s bytes.
    pub fn cuda_h(&self) -> Result<Vec<u8>> {
        let path = self.include_dir.join("cuda.h");
        std::fs::read(&path)
            .map_err(|e| Error::new(format!("cannot read {}", path.display()), e.to_string()))
    }

    /// A warning where `cuda_h` holds a NUL byte: libclang, and bindgen
    /// after it, read a comment only up to one, so the docs of the item
    /// there would end early without a word.
    pub fn nul_byte(&self, cuda_h: &[u8]) -> Option<String> {
        let at = cuda_h.iter().position(|&b| b == 0)?;
        let line = 1 + cuda_h[..at].iter().filter(|&&b| b == b'\n').count();
        Some(format!(
            "{} holds a NUL byte on line {line}: libclang reads a comment only up to it, so the \
             docs of the item there end early; the header is damaged, reinstall it",
            self.include_dir.join("cuda.h").display()
        ))
    }

    /// The text whose documentation the bindings carry: `cuda.h`, and the
    /// toolkit's `cudaProfiler.h` where [`Header::source`] includes it.
    pub fn documented(&self, cuda_h: &[u8]) -> String {
        let mut text = String::from_utf8_lossy(cuda_h).into_owned();
        if self.profiler.contains("cudaProfiler.h") {
            let bytes = std::fs::read(self.include_dir.join("cudaProfiler.h")).unwrap_or_default();
            text.push_str(&String::from_utf8_lossy(&bytes));
        }
        text
    }

    /// The compiler command line (path, then arguments, include directory and
    /// defines) for compiling against this header.
    pub fn compiler_command(&self) -> Vec<String> {
        command_line(&self.compiler)
    }

    /// [`Self::compiler_command`] without the user's CFLAGS ([`Compiler::natural`]).
    pub fn natural_compiler_command(&self) -> Vec<String> {
        command_line(&self.compiler.natural())
    }
}

/// FNV-1a (64-bit) of `cuda.h`'s bytes, for dependents to check that the
/// header they compile against is still the one the bindings came from:
/// a header replaced in place with an older file time is invisible to Cargo.
pub fn fingerprint(cuda_h: &[u8]) -> String {
    let hash = cuda_h.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x0000_0100_0000_01b3)
    });
    format!("{hash:016x}")
}

/// The profiler API (`cuProfilerStart`, `cuProfilerStop`, and
/// `cuProfilerInitialize` where the headers have its types) is declared in
/// `cudaProfiler.h`, which toolkits have and NVIDIA's pip wheels do not; both
/// have `cudaProfilerTypedefs.h`, whose `PFN_` types give the same prototypes.
/// So: the toolkit's header where there is one, else one prototype per `PFN_`
/// type (its newest version) whose parameter types `cuda.h` declares.
pub(crate) fn profiler(include_dir: &Path) -> String {
    if include_dir.join("cudaProfiler.h").is_file() {
        return "#include <cudaProfiler.h>\n".into();
    }
    let read = |name: &str| {
        let bytes = std::fs::read(include_dir.join(name)).unwrap_or_default();
        String::from_utf8_lossy(&bytes).into_owned()
    };
    let (typedefs, cuda_h) = (read("cudaProfilerTypedefs.h"), read("cuda.h"));
    let c_words = ["void", "const", "char", "int", "unsigned", "long", "short", "signed", "size_t"];
    let mut newest: Vec<(String, u32, String)> = Vec::new();
    for line in typedefs.lines() {
        let Some(rest) = line.trim().strip_prefix("typedef CUresult (CUDAAPI *PFN_") else {
            continue;
        };
        let Some((name, params)) = rest.split_once(")(") else {
            continue;
        };
        let Some((name, version)) = name.rsplit_once("_v") else {
            continue;
        };
        let (Ok(version), Some(params)) = (version.parse::<u32>(), params.strip_suffix(");"))
        else {
            continue;
        };
        // Each parameter is type words and then its name.
        let known = params.split(',').all(|param| {
            let words: Vec<&str> = param
                .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .filter(|w| !w.is_empty())
                .collect();
            let types = if words == ["void"] {
                &words[..]
            } else {
                &words[..words.len().saturating_sub(1)]
            };
            types.iter().all(|w| c_words.contains(w) || cuda_h.contains(w))
        });
        match newest.iter_mut().find(|(n, _, _)| n == name) {
            Some(entry) if entry.1 < version => {
                *entry = (name.to_string(), version, params.to_string())
            }
            Some(_) => {}
            None if known => newest.push((name.to_string(), version, params.to_string())),
            None => {}
        }
    }
    newest.iter().map(|(name, _, params)| format!("CUresult CUDAAPI {name}({params});\n")).collect()
}

/// `CUDA_VERSION` from the preprocessor's macro dump of the header.
pub fn from_macros(header: &Header, macros: &[(String, String)]) -> Result<CudaVersion> {
    let raw = macros
        .iter()
        .find(|(name, _)| name == "CUDA_VERSION")
        .map(|(_, body)| body.as_str())
        .unwrap_or_default();
    let path = header.include_dir.join("cuda.h");
    let number = raw.trim().parse().ok();
    plausible(number, &path)
        .map_err(|e| Error::new(format!("{} (got `{raw}`)", e.summary), e.detail))
}
