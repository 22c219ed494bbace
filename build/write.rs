//! The write step: the files `src/lib.rs` includes from `OUT_DIR`, rendered
//! from the bindings' data with this crate's documentation (`docs`) and tables
//! (`since`, `value_types`, `renames`).

use std::path::Path;

use crate::error::Result;
use crate::output::Bindings;
use crate::preprocess::write_error;
use crate::{docs, renames, since, tables, value_types};

/// Writes the files `src/lib.rs` includes.
pub fn all(b: &Bindings, out_dir: &Path) -> Result<()> {
    let files = [
        ("bindings.rs", docs::types(b)),
        ("functions.rs", functions(b)),
        ("renames.rs", renames::render(&b.renames)),
        ("macro_constants.rs", b.macro_constants.clone()),
        ("since.rs", since::render(b)),
        ("value_types.rs", value_types::render(b)),
        ("enumerators.rs", enumerators(b)),
        ("accessors.rs", accessors(b)),
    ];
    for (name, text) in files {
        let path = out_dir.join(name);
        std::fs::write(&path, text).map_err(|e| write_error(&path, e))?;
    }
    // The same tables as rows of text, which `cargo xtask pregenerate` merges.
    let dir = out_dir.join("tables");
    std::fs::create_dir_all(&dir).map_err(|e| write_error(&dir, e))?;
    let rows = tables::Tables {
        functions: b.functions.iter().map(|f| f.name.as_str()).collect(),
        since: b.since.as_ref(),
        renames: &b.renames,
        typed: &b.typed,
        bitmasks: &b.bitmasks,
    };
    for (name, text) in tables::write(&rows) {
        let path = dir.join(name);
        std::fs::write(&path, text).map_err(|e| write_error(&path, e))?;
    }
    Ok(())
}

/// `enumerators.rs`: every C enumerator under its C name at the crate root,
/// typed as its enum's typedef (`CUDA_SUCCESS: CUresult`), as C makes them
/// global: `use libcuda_sys::*;` then `match r { CUDA_SUCCESS => .. }`.
fn enumerators(b: &Bindings) -> String {
    let mut out = String::from("// C's enumerators under their global C names.\n");
    for e in &b.enumerators {
        let (ty, name) = (b.typedef_of(&e.owner), &e.name);
        let value = docs::value(b, e).map_or(String::new(), |v| format!(", `{name} = {v}`"));
        out.push_str(&format!(
            "/// [`{ty}::{name}`] under its C name{value}.\npub const {name}: {ty} = {ty}::{name};\n"
        ));
    }
    out
}

/// `accessors.rs`: `member()` and `set_member()` for each member that moved,
/// so that the same code compiles against every release.
fn accessors(b: &Bindings) -> String {
    let mut out = String::from("// Accessors of the members that moved between releases.\n");
    for m in &b.moved {
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
fn functions(b: &Bindings) -> String {
    let mut out = String::from("functions! {\n");
    for f in &b.functions {
        let needs = b.since.as_ref().and_then(|s| s.get(&f.name)).map(|v| docs::since(*v));
        // Each a paragraph of its own.
        let mut add: Vec<String> = needs.into_iter().collect();
        if let Some(h) = docs::history(b, &f.name) {
            add.extend([String::new(), h]);
        }
        let decl = docs::insert_before(&f.decl, &f.name, &add);
        out.push_str(&decl);
        out.push('\n');
    }
    out.push_str("}\n");
    out
}
