//! What either source of bindings hands on: the files `src/` includes from
//! `OUT_DIR`, the header version, and where they came from. Generated and
//! shipped bindings have the same files, so the crate cannot tell them apart.

use std::path::Path;

use crate::cpp::io_error;
use crate::discover::Toolkit;
use crate::error::Result;
use crate::mode::Why;
use crate::version::CudaVersion;

/// Types, constants and enums (no functions).
pub const BINDINGS: &str = "bindings.rs";
/// The functions: `extern "C"` declarations, or the dynamic-loading wrappers.
pub const FUNCTIONS: &str = "functions.rs";
/// Plain-name aliases (`pub use cuMemAlloc_v2 as cuMemAlloc`).
pub const RENAMES: &str = "renames.rs";
/// Casts and enumerator aliases the header defines as macros (`CU_STREAM_LEGACY`).
pub const MACRO_CONSTANTS: &str = "macro_constants.rs";
/// `SINCE`: the CUDA version each function's ABI needs.
pub const SINCE: &str = "since.rs";
/// `VALUE_TYPES`, `value_type()` and `name()`.
pub const VALUE_TYPES: &str = "value_types.rs";
/// The dynamic-loading symbol table (also read by the driver-symbol test).
pub const SYMBOLS: &str = "dynamic_symbols.rs";
/// One symbol a line: what a stand-in libcuda must export.
pub const LINK_SYMBOLS: &str = "link_symbols.txt";

// Without the `bindgen` feature only the shipped set exists.
#[cfg_attr(not(feature = "bindgen"), allow(dead_code))]
pub enum Origin {
    /// From the headers of `toolkit`; `compiler` is the C compiler command
    /// that read them (with the include directory and defines).
    Generated {
        toolkit: Toolkit,
        compiler: Vec<String>,
        /// FNV-1a of the `cuda.h` read, passed on as `DEP_CUDA_CUDA_H_FNV1A64`.
        fingerprint: String,
    },
    /// The shipped set in `dir`; `ignored` is a toolkit a variable named but
    /// that these bindings do not come from.
    Shipped {
        why: Why,
        dir: String,
        ignored: Option<Toolkit>,
    },
}

pub struct Output {
    pub version: CudaVersion,
    /// `(file name in OUT_DIR, text)`, each written once.
    pub files: Vec<(&'static str, String)>,
    pub functions: usize,
    pub renames: usize,
    pub origin: Origin,
}

impl Output {
    pub fn write(&self, out_dir: &Path) -> Result<()> {
        for (name, text) in &self.files {
            let path = out_dir.join(name);
            std::fs::write(&path, text).map_err(|e| io_error(&path, e))?;
        }
        Ok(())
    }

    pub fn file(&self, name: &str) -> &str {
        self.files
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, text)| text.as_str())
            .unwrap_or_default()
    }

    /// The toolkit the bindings come from, or one found beside shipped bindings
    /// (its stub library can still be linked).
    pub fn toolkit(&self) -> Option<&Toolkit> {
        match &self.origin {
            Origin::Generated { toolkit, .. } => Some(toolkit),
            Origin::Shipped { ignored, .. } => ignored.as_ref(),
        }
    }

    /// The headers these bindings come from, where there are any.
    pub fn headers(&self) -> Option<&Toolkit> {
        match &self.origin {
            Origin::Generated { toolkit, .. } => Some(toolkit),
            Origin::Shipped { .. } => None,
        }
    }
}

/// The text of [`LINK_SYMBOLS`]: every bound function, then every plain name
/// (a stand-in exports those too, so that a wrong alias links and is caught by
/// the tests instead of hidden).
#[cfg_attr(not(feature = "bindgen"), allow(dead_code))]
pub fn link_symbols<'a>(
    functions: impl Iterator<Item = &'a str>,
    plain: impl Iterator<Item = &'a str>,
) -> String {
    functions.chain(plain).map(|n| format!("{n}\n")).collect()
}
