//! The model the three stages share (`find`, `make`, `write`): the bindings
//! as plain data, the CUDA version and releases, the toolkit found, where the
//! bindings come from, what a fallback watches, and the one error type. It
//! imports nothing of this crate, so that every module can import it.
//!
//! The bindings: either source fills [`Bindings`], the generated path from
//! bindgen's output, the pregenerated path from the release's part of
//! `pregenerated/`; one renderer (`write`) makes the files `src/` includes
//! from it, so the crate cannot tell the two apart. Where they come from is
//! [`Origin`], beside them.

mod origin;
pub mod panics;

pub use origin::*;

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

// The error: a one-line summary (shown as a `cargo:warning`) and the long
// text that says what was tried and how to fix it.

#[derive(Debug)]
pub struct Error {
    pub summary: String,
    pub detail: String,
}

impl Error {
    pub fn new(summary: impl Into<String>, detail: impl Into<String>) -> Self {
        Error { summary: summary.into(), detail: detail.into() }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "libcuda-sys: {}", self.summary)?;
        if !self.detail.is_empty() {
            writeln!(f)?;
            write!(f, "{}", self.detail.trim_end())?;
        }
        Ok(())
    }
}

pub type Result<T> = std::result::Result<T, Error>;

// CUDA releases: how one is written, and which exist, for the searches that
// probe each (`/usr/local/cuda-X.Y`, `cuda-X.Y.pc`) and the cumulative
// `cuda_X_Y` cfgs. The releases this crate has bindings of are
// `pregenerated/releases.txt` (`pregenerated::parse_releases`).

/// `12.8` -> 12080: a major without a leading zero and one digit of minor,
/// so that `13.05` is no way of writing 13.5.
pub fn parse_version(text: &str) -> Option<u32> {
    let (major, minor) = text.split_once('.')?;
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(major) || major.starts_with('0') || !digits(minor) || minor.len() != 1 {
        return None;
    }
    Some(major.parse::<u32>().ok()? * 1000 + minor.parse::<u32>().ok()? * 10)
}

/// `13050` -> `13.5`.
pub fn dotted(number: u32) -> String {
    format!("{}.{}", number / 1000, number % 1000 / 10)
}

/// The releases with the memory-pool API, from 11.2: each major with its last
/// minor. A newer major or minor than these is still read from the headers
/// (`version`); only the searches and the cfgs go no further.
const MAJORS: [(u32, u32); 3] = [(11, 8), (12, 9), (13, 9)];

const FIRST: (u32, u32) = (11, 2);

/// Every release of `MAJORS` from `FIRST`, oldest first, as `(major, minor)`.
pub(crate) fn known() -> impl DoubleEndedIterator<Item = (u32, u32)> {
    MAJORS
        .iter()
        .flat_map(|&(major, last)| (0..=last).map(move |minor| (major, minor)))
        .filter(|&r| r >= FIRST)
}

/// Memory pools (`cuMemPool*`, `CUmemPool_attribute`) arrived in 11.2.
pub(crate) const MINIMUM: u32 = 11020;

#[derive(Clone, Copy)]
pub struct CudaVersion {
    /// As in the header: `major * 1000 + minor * 10`, e.g. 13000.
    pub number: u32,
}

impl CudaVersion {
    pub(crate) fn major(self) -> u32 {
        self.number / 1000
    }
    pub(crate) fn minor(self) -> u32 {
        self.number % 1000 / 10
    }
}

impl std::fmt::Display for CudaVersion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&crate::model::dotted(self.number))
    }
}

/// A `CUDA_VERSION` of a release that can exist (major 1 to 99): a damaged
/// header's `4294967295` would otherwise become four million cfgs.
pub(crate) fn plausible(number: Option<u32>, path: &Path) -> Result<CudaVersion> {
    match number {
        Some(number @ 1000..=99_999) => Ok(CudaVersion { number }),
        _ => Err(Error::new(
            format!("{} does not define CUDA_VERSION as a CUDA release", path.display()),
            "CUDA_VERSION is major * 1000 + minor * 10 (13000 for CUDA 13.0).\n\
             The header is not the CUDA driver API header, or is damaged.\n\
             Fix: point LIBCUDA_SYS_INCLUDE_DIR or CUDA_PATH at a CUDA toolkit 11.2 or newer, or unset them.",
        )),
    }
}

/// Cumulative cfgs: `cuda_11_2` ... up to and including the header's version.
/// Pure, so dependents can compute the same from `DEP_CUDA_VERSION`.
pub(crate) fn cfgs(version: CudaVersion) -> Vec<String> {
    all_cfgs(version).into_iter().filter(|(n, _)| *n <= version.number).map(|(_, c)| c).collect()
}

/// Every cfg name this crate may emit, for `rustc-check-cfg`.
pub(crate) fn all_cfgs(version: CudaVersion) -> Vec<(u32, String)> {
    // The known releases; a header newer than them still gets its own cfg and
    // every one below it (each minor of a newer major).
    let mut releases: Vec<(u32, u32)> = crate::model::known().collect();
    let last_known = releases.last().map_or(0, |r| r.0);
    releases.extend((last_known + 1..=version.major()).flat_map(|m| (0..=9).map(move |n| (m, n))));
    let own = (version.major(), version.minor());
    if !releases.contains(&own) {
        releases.push(own);
        releases.sort_unstable();
    }
    releases
        .into_iter()
        .map(|(major, minor)| (major * 1000 + minor * 10, format!("cuda_{major}_{minor}")))
        .filter(|(number, _)| *number >= MINIMUM)
        .collect()
}

/// One driver function: its name and its declaration as Rust text
/// (`pub fn name(...) -> CUresult;`, with its attributes).
pub struct Function {
    pub name: String,
    pub decl: String,
}

/// A C enumerator: its enum (the Rust newtype), its name, and its value where
/// it is a literal.
pub struct Enumerator {
    pub owner: String,
    pub name: String,
    pub value: Option<i128>,
}

/// Whether an enumerator, the last of its enum, counts the others rather than
/// being one of them: `CU_DEVICE_ATTRIBUTE_MAX`, `CU_JIT_NUM_OPTIONS`.
#[cfg(feature = "generate")]
pub(crate) fn end_marker(name: &str) -> bool {
    name.ends_with("_MAX") || name.ends_with("NUM_OPTIONS")
}

/// The pregenerated releases whose headers declare each item
/// (`pregenerated/items.txt`): what the "since" lines of the docs say.
pub struct History {
    /// Every pregenerated release, oldest first.
    pub releases: Vec<u32>,
    /// The releases of each item, for the docs' "since" lines: empty in the
    /// pregenerated set's loaded bindings, whose docs come rendered.
    pub of: BTreeMap<String, Vec<u32>>,
}

/// A plain name and the bound function a C call of it reaches.
pub struct Rename {
    pub plain: String,
    pub target: String,
}

/// The value of one attribute enumerator: its type, who reads and writes it,
/// and where that comes from.
pub struct Typed {
    pub owner: String,
    pub name: String,
    /// The C type as the header writes it: `int`, `CUcontext`, `char[1024]`;
    /// for a member of a union, the member's (`struct { unsigned int x; ... }`).
    pub c_type: String,
    /// The Rust type of the same layout, where the bindings have one.
    pub rust_type: Option<String>,
    /// `(size, alignment)` in bytes on 64-bit targets, where known; of one
    /// element for an array.
    pub layout: Option<(usize, usize)>,
    /// For an integer: whether it is signed.
    pub signed: Option<bool>,
    /// `scalar`, `boolean`, `array` or `string`; for an option (`CUjit_option`),
    /// whose value sits in a pointer-sized slot of the values array, `slot`
    /// (the driver reads it), `out` (the driver writes the value into the
    /// slot) or `inout` (it reads it, then writes a result back).
    pub shape: String,
    /// The enum whose values an integer value takes (`CUcomputemode` for
    /// `CU_DEVICE_ATTRIBUTE_COMPUTE_MODE`), as its comment names it.
    pub values: Option<String>,
    /// The member of the getter's union that holds it (launch attributes).
    pub member: Option<String>,
    pub getters: Vec<String>,
    pub setters: Vec<String>,
    /// Settable only back to zero (the high watermarks).
    pub reset_only: bool,
    /// `comment`, `signature`, or `documented`/`measured`/`named` with the
    /// `cuda.h` line of this crate's facts table (`documented 13.5:15930`).
    pub source: String,
    /// The header's description (generated), or ours (pregenerated), on one line.
    pub description: String,
}

/// What NVIDIA's documentation of the header says of its functions, kept as
/// facts (`make::reference` reads them from `cuda.h`; `pregenerated/reference.txt`
/// and `groups.txt` keep them): never a sentence of it.
#[derive(Default)]
pub struct Reference {
    /// Each doxygen group, a page of NVIDIA's online reference
    /// (`CUDA_MALLOC_ASYNC`), whose title this crate gives in its own words
    /// (`sentences::group`).
    pub groups: Vec<String>,
    /// Every function the header declares, under the name it declares
    /// (`cuMemAlloc`, which a macro renames to `cuMemAlloc_v2`).
    pub functions: Vec<Documented>,
    /// `(tag, page)` of each struct or union declared with a typedef of its
    /// own (`typedef struct CUDA_MEMCPY2D_st { ... } CUDA_MEMCPY2D_v2;`), which
    /// NVIDIA's reference has a page for under that typedef's name:
    /// `structCUDA__MEMCPY2D__v2` (`.html`).
    pub pages: Vec<(String, String)>,
}

/// One function of [`Reference`].
pub struct Documented {
    pub name: String,
    /// The group it is declared in, where there is one.
    pub group: Option<String>,
    /// The result codes its `\return` list names, in its order.
    pub returns: Vec<String>,
    /// The driver functions its `\sa` list names, in its order.
    pub refers: Vec<String>,
    /// The parameters whose direction its `\param` list documents, in its
    /// order: `[in]`, `[out]`, `[in,out]`, or a description that starts
    /// `Returned`/`Returns` (out).
    pub params: Vec<(String, Direction)>,
}

/// Which way data goes through a parameter, as the header documents it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Direction {
    In,
    Out,
    InOut,
}

impl Direction {
    /// As `reference.txt` writes it.
    pub fn word(self) -> &'static str {
        match self {
            Direction::In => "in",
            Direction::Out => "out",
            Direction::InOut => "inout",
        }
    }

    pub fn from_word(word: &str) -> Option<Direction> {
        [Direction::In, Direction::Out, Direction::InOut].into_iter().find(|d| d.word() == word)
    }
}

/// A struct member that moved into or out of an anonymous union between
/// releases (`pregenerated/moved_members.txt`), and where these bindings have it.
pub struct Moved {
    pub record: String,
    pub member: String,
    /// `id`, or `__bindgen_anon_1.id`.
    pub path: String,
    pub ty: String,
}

/// What heads a block of a rendered file that belongs to one function, its
/// declaration or a plain name of it: `//~ name`, to the next `//~` line (`//~`
/// alone ends the last). The floor leaves a function out block by block.
pub const BLOCK: &str = "//~";

/// The file in `OUT_DIR` that names an interop module's items
/// (`DEP_CUDA_ITEMS_<MODULE>`), as `items.txt` does `cuda.h`'s.
pub fn items_file(module: &str) -> String {
    format!("items_{module}.txt")
}

/// The files of `cuda.h`'s bindings that the pregenerated set ships rendered
/// (`pregenerated/rendered/`) and a generated build renders, in this order,
/// as `OUT_DIR` has them; each interop module's `<module>.rs` follows.
pub const RENDERED_FILES: [&str; 8] = [
    "bindings.rs",
    "functions.rs",
    "renames.rs",
    "macro_constants.rs",
    "value_types.rs",
    "enumerators.rs",
    "accessors.rs",
    "map.rs",
];

/// NVIDIA's online driver-API reference: a doxygen group is a page of it.
pub const REFERENCE: &str = "https://docs.nvidia.com/cuda/cuda-driver-api";

pub struct Bindings {
    pub version: CudaVersion,
    /// Types, constants and enumerators (no functions), as Rust text.
    pub types: String,
    pub functions: Vec<Function>,
    pub renames: Vec<Rename>,
    /// Constants the header defines as casts or second names (Rust text).
    pub macro_constants: String,
    /// The name of every other item of `cuda.h`'s bindings: types, constants
    /// and enumerators (`OUT_DIR/items.txt` adds the functions and plain names).
    pub names: Vec<String>,
    /// The CUDA version each function's ABI needs, or `None` without `cudaTypedefs.h`.
    pub since: Option<BTreeMap<String, u32>>,
    pub typed: Vec<Typed>,
    /// Every enumerator of every C enum, in the header's order.
    pub enumerators: Vec<Enumerator>,
    /// `(enum, typedef)`: `CUresult` for `cudaError_enum`.
    pub aliases: Vec<(String, String)>,
    /// The enums `cuda.h` uses as bit masks (`make::items::is_bitmask`).
    pub bitmasks: Vec<String>,
    /// The members that moved between releases, each where these bindings have it.
    pub moved: Vec<Moved>,
    pub history: History,
    /// NVIDIA's documentation of the functions, as facts.
    pub reference: Reference,
    /// The graphics-interop modules bound (`gl`, `egl`, `vdpau`), each only
    /// with what its header adds to `cuda.h`'s; empty without their features.
    pub modules: Vec<Module>,
    /// `(name, text)` of the files the pregenerated set ships rendered
    /// (`pregenerated::load`), which `write::files` copies instead of
    /// rendering; empty for generated bindings. With them, the fields above
    /// hold only names: the functions, plain names, versions and modules.
    pub rendered: Vec<(String, String)>,
}

/// One graphics-interop module of the bindings (`OUT_DIR/<name>.rs`).
pub struct Module {
    /// Its feature and module name: `gl`.
    pub name: &'static str,
    /// The header it is generated from: `cudaGL.h`.
    pub header: &'static str,
    /// The header its functions are dated from: `cudaGLTypedefs.h`.
    pub typedefs: &'static str,
    /// Its types, constants and enumerators, as Rust text.
    pub types: String,
    /// The names its types declare (as [`Bindings::names`]), for `DEP_CUDA_ITEMS_<MODULE>`.
    pub names: Vec<String>,
    pub functions: Vec<Function>,
    pub renames: Vec<Rename>,
    /// Its C enums' enumerators, which it also has under their C names.
    pub enumerators: Vec<Enumerator>,
    /// `(enum, typedef)`, as in [`Bindings::aliases`].
    pub aliases: Vec<(String, String)>,
    /// NVIDIA's documentation of its functions, as facts (its groups too).
    pub reference: Reference,
}

impl Bindings {
    /// Every symbol a stand-in libcuda must export: the bound functions, then
    /// the plain names (so that a wrong alias links and is caught by the tests
    /// instead of hidden).
    pub(crate) fn link_symbols(&self) -> impl Iterator<Item = &str> {
        self.functions
            .iter()
            .map(|f| f.name.as_str())
            .chain(self.renames.iter().map(|r| r.plain.as_str()))
            .chain(self.modules.iter().flat_map(|m| {
                let functions = m.functions.iter().map(|f| f.name.as_str());
                functions.chain(m.renames.iter().map(|r| r.plain.as_str()))
            }))
    }

    /// Every bound function, the interop modules' too.
    pub(crate) fn all_functions(&self) -> impl Iterator<Item = &Function> {
        self.functions.iter().chain(self.modules.iter().flat_map(|m| &m.functions))
    }

    /// Every plain name, the interop modules' too.
    pub(crate) fn all_renames(&self) -> impl Iterator<Item = &Rename> {
        self.renames.iter().chain(self.modules.iter().flat_map(|m| &m.renames))
    }

    /// The bound functions the `since` table has no release for (`cudaTypedefs.h`
    /// of another release than `cuda.h`); `None` without the table.
    pub(crate) fn undated(&self) -> Option<Vec<&str>> {
        let since = self.since.as_ref()?;
        let names = self.all_functions().map(|f| f.name.as_str());
        Some(names.filter(|name| !since.contains_key(*name)).collect())
    }

    /// Whether the enum `owner`'s values are options, each with its value in a
    /// slot of an array beside the array of options (`CUjit_option`).
    #[cfg(feature = "generate")]
    pub(crate) fn is_option(&self, owner: &str) -> bool {
        let slot = |t: &Typed| ["slot", "out", "inout"].contains(&t.shape.as_str());
        self.typed.iter().any(|t| t.owner == owner && slot(t))
    }

    /// The C typedef of an enum (`CUresult` for `cudaError_enum`), or its own name.
    #[cfg(feature = "generate")]
    pub(crate) fn typedef_of<'a>(&'a self, owner: &'a str) -> &'a str {
        typedef_of(&self.aliases, owner)
    }
}

/// The C typedef of an enum among `aliases` (`(enum, typedef)`), or its own name.
#[cfg(feature = "generate")]
pub(crate) fn typedef_of<'a>(aliases: &'a [(String, String)], owner: &'a str) -> &'a str {
    aliases.iter().find(|(e, _)| e == owner).map_or(owner, |(_, alias)| alias)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_release_number_is_a_version() {
        let path = Path::new("cuda.h");
        assert_eq!(plausible(Some(13000), path).map(|v| v.number).ok(), Some(13000));
        for bad in [Some(4_294_967_295), Some(0), Some(999), Some(100_000), None] {
            assert!(plausible(bad, path).is_err(), "{bad:?}");
        }
    }
}
