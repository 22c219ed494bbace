//! What either source of bindings hands on, as plain data: the generated
//! path fills it from bindgen's output, the pregenerated path from the release's
//! part of `pregenerated/`. One renderer writes the files `src/` includes
//! from `OUT_DIR`, so the crate cannot tell the two apart.

use std::collections::BTreeMap;
use std::path::Path;

use crate::discover::Toolkit;
use crate::error::Result;
use crate::mode::Why;
use crate::preprocess::io_error;
use crate::version::CudaVersion;
use crate::{docs, renames, since, value_types};

/// One driver function: its name and its declaration as Rust text
/// (`pub fn name(...) -> CUresult;`, with its attributes).
pub struct Function {
    pub name: String,
    pub decl: String,
}

/// A plain name and the bound function a C call of it reaches.
pub struct Rename {
    pub plain: String,
    pub target: String,
}

/// A C enumerator: its enum (the Rust newtype), its name, and its value where
/// it is a literal.
pub struct Enumerator {
    pub owner: String,
    pub name: String,
    pub value: Option<i128>,
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

/// The pregenerated releases whose headers declare each item
/// (`pregenerated/items.txt`): what the "since" lines of the docs say.
pub struct History {
    /// Every pregenerated release, oldest first.
    pub releases: Vec<u32>,
    pub of: BTreeMap<String, Vec<u32>>,
}

/// An enumerator whose header documentation declares `(value type = T)`.
pub struct Typed {
    pub owner: String,
    pub name: String,
    pub c_type: String,
    /// The Rust type whose size is the value's, where the bindings have one.
    pub size_type: Option<String>,
    /// The `cu*Set*Attribute*` function that takes it, if any.
    pub setter: Option<String>,
    /// Settable only back to zero (the high watermarks).
    pub reset_only: bool,
    /// The header's description (generated), or ours (pregenerated), on one line.
    pub description: String,
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
    pub origin: Origin,
}

// Without the `bindgen` feature only the pregenerated set exists.
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
    /// The pregenerated set; `ignored` is a toolkit that was found or named but
    /// that these bindings do not come from.
    Pregenerated { why: Why, ignored: Option<Toolkit> },
}

impl Bindings {
    /// The toolkit the bindings come from, or one found beside pregenerated bindings
    /// (its stub library can still be linked).
    pub fn toolkit(&self) -> Option<&Toolkit> {
        match &self.origin {
            Origin::Generated { toolkit, .. } => Some(toolkit),
            Origin::Pregenerated { ignored, .. } => ignored.as_ref(),
        }
    }

    /// The headers these bindings come from, where there are any.
    pub fn headers(&self) -> Option<&Toolkit> {
        match &self.origin {
            Origin::Generated { toolkit, .. } => Some(toolkit),
            Origin::Pregenerated { .. } => None,
        }
    }

    /// `LIBCUDA_SYS_DRIVER_FLOOR`: leaves out of the linked bindings what a
    /// driver older than `floor` lacks, so that using one is a compile error
    /// instead of a program that does not start. Returns what was left out.
    pub fn apply_floor(&mut self, floor: u32, where_: &str) -> Result<Vec<String>> {
        let Some(since) = &self.since else {
            return Err(since::unavailable_for_floor(where_, floor));
        };
        let undated: Vec<&str> = self
            .functions
            .iter()
            .map(|f| f.name.as_str())
            .filter(|name| !since.contains_key(*name))
            .collect();
        if !undated.is_empty() {
            return Err(since::undated_for_floor(where_, floor, &undated));
        }
        let newer: Vec<String> = self
            .functions
            .iter()
            .filter(|f| since[&f.name] > floor)
            .map(|f| f.name.clone())
            .collect();
        self.functions.retain(|f| !newer.contains(&f.name));
        self.renames.retain(|r| !newer.contains(&r.target));
        Ok(newer)
    }

    /// Every symbol a stand-in libcuda must export: the bound functions, then
    /// the plain names (so that a wrong alias links and is caught by the tests
    /// instead of hidden).
    pub fn link_symbols(&self) -> impl Iterator<Item = &str> {
        self.functions
            .iter()
            .map(|f| f.name.as_str())
            .chain(self.renames.iter().map(|r| r.plain.as_str()))
    }

    /// Writes the files `src/lib.rs` includes.
    pub fn write(&self, out_dir: &Path) -> Result<()> {
        let files = [
            ("bindings.rs", docs::types(self)),
            ("functions.rs", self.render_functions()),
            ("renames.rs", renames::render(&self.renames)),
            ("macro_constants.rs", self.macro_constants.clone()),
            ("since.rs", since::render(self)),
            ("value_types.rs", value_types::render(self)),
            ("enumerators.rs", self.render_enumerators()),
            ("accessors.rs", self.render_accessors()),
        ];
        for (name, text) in files {
            let path = out_dir.join(name);
            std::fs::write(&path, text).map_err(|e| io_error(&path, e))?;
        }
        Ok(())
    }

    /// `enumerators.rs`: every C enumerator under its C name at the crate root,
    /// typed as its enum's typedef (`CUDA_SUCCESS: CUresult`), as C makes them
    /// global: `use libcuda_sys::*;` then `match r { CUDA_SUCCESS => .. }`.
    fn render_enumerators(&self) -> String {
        let mut out = String::from("// C's enumerators under their global C names.\n");
        for e in &self.enumerators {
            let (ty, name) = (self.typedef_of(&e.owner), &e.name);
            let value = docs::value(self, e).map_or(String::new(), |v| format!(", `{name} = {v}`"));
            out.push_str(&format!(
                "/// [`{ty}::{name}`] under its C name{value}.\npub const {name}: {ty} = {ty}::{name};\n"
            ));
        }
        out
    }

    /// The C typedef of an enum (`CUresult` for `cudaError_enum`), or its own name.
    pub fn typedef_of<'a>(&'a self, owner: &'a str) -> &'a str {
        self.aliases.iter().find(|(e, _)| e == owner).map_or(owner, |(_, alias)| alias)
    }

    /// `accessors.rs`: `member()` and `set_member()` for each member that moved,
    /// so that the same code compiles against every release.
    fn render_accessors(&self) -> String {
        let mut out = String::from("// Accessors of the members that moved between releases.\n");
        for m in &self.moved {
            let (record, member, path, ty) = (&m.record, &m.member, &m.path, &m.ty);
            // A member of an anonymous union: `cargo xtask pregenerate` and
            // the generated path let only integers through, any bits of which are a value.
            let read = if path.contains('.') {
                format!("// SAFETY: an integer member of a C union: any bits are a value.\n        unsafe {{ self.{path} }}")
            } else {
                format!("self.{path}")
            };
            out.push_str(&format!(
                "impl {record} {{\n    /// `{member}`, here `self.{path}`: the same call in every release, where the\n    \
                 /// member is in an anonymous union or not (crate docs, [Members that moved](crate#members-that-moved)).\n    \
                 pub fn {member}(&self) -> {ty} {{\n        {read}\n    }}\n    \
                 /// Sets `{member}` (`self.{path}`), in every release: see [`Self::{member}`].\n    \
                 pub fn set_{member}(&mut self, value: {ty}) {{\n        self.{path} = value;\n    }}\n}}\n"
            ));
        }
        out
    }

    /// `functions.rs`: one `functions!` invocation, which `src/lib.rs` expands
    /// to `extern "C"` declarations or to the dynamic-loading wrappers; each
    /// declaration with the driver version it needs.
    fn render_functions(&self) -> String {
        let mut out = String::from("functions! {\n");
        for f in &self.functions {
            let needs = self.since.as_ref().and_then(|s| s.get(&f.name)).map(|v| docs::since(*v));
            // Each a paragraph of its own.
            let mut add: Vec<String> = needs.into_iter().collect();
            if let Some(h) = docs::history(self, &f.name) {
                add.extend([String::new(), h]);
            }
            let decl = docs::insert_before(&f.decl, &f.name, &add);
            out.push_str(&decl);
            out.push('\n');
        }
        out.push_str("}\n");
        out
    }
}
