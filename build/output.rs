//! What either source of bindings hands on, as plain data: the generated
//! path fills it from bindgen's output, the pregenerated path from the release's
//! part of `pregenerated/`. One renderer (`write`) makes the files `src/`
//! includes from it, so the crate cannot tell the two apart. Where they come
//! from is `mode::Origin`, beside them: this module imports only the version
//! type and the tables' row types.

use std::collections::BTreeMap;

pub use crate::tables::{Moved, Rename, Typed};
use crate::version::CudaVersion;

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

/// The pregenerated releases whose headers declare each item
/// (`pregenerated/items.txt`): what the "since" lines of the docs say.
pub struct History {
    /// Every pregenerated release, oldest first.
    pub releases: Vec<u32>,
    pub of: BTreeMap<String, Vec<u32>>,
}

pub struct Bindings {
    pub version: CudaVersion,
    /// Types, constants and enumerators (no functions), as Rust text.
    pub types: String,
    pub functions: Vec<Function>,
    pub renames: Vec<Rename>,
    /// Constants the header defines as casts or second names (Rust text).
    pub macro_constants: String,
    /// The CUDA version each function's ABI needs, or `None` without `cudaTypedefs.h`.
    pub since: Option<BTreeMap<String, u32>>,
    pub typed: Vec<Typed>,
    /// Every enumerator of every C enum, in the header's order.
    pub enumerators: Vec<Enumerator>,
    /// `(enum, typedef)`: `CUresult` for `cudaError_enum`.
    pub aliases: Vec<(String, String)>,
    /// The enums `cuda.h` uses as bit masks (`value_types::is_bitmask`).
    pub bitmasks: Vec<String>,
    /// The members that moved between releases, each where these bindings have it.
    pub moved: Vec<Moved>,
    pub history: History,
}

impl Bindings {
    /// Every symbol a stand-in libcuda must export: the bound functions, then
    /// the plain names (so that a wrong alias links and is caught by the tests
    /// instead of hidden).
    pub fn link_symbols(&self) -> impl Iterator<Item = &str> {
        self.functions
            .iter()
            .map(|f| f.name.as_str())
            .chain(self.renames.iter().map(|r| r.plain.as_str()))
    }

    /// The C typedef of an enum (`CUresult` for `cudaError_enum`), or its own name.
    pub fn typedef_of<'a>(&'a self, owner: &'a str) -> &'a str {
        self.aliases.iter().find(|(e, _)| e == owner).map_or(owner, |(_, alias)| alias)
    }
}
