//! The write step: the files `src/lib.rs` includes from `OUT_DIR`. Most of
//! them the pregenerated set ships rendered, its release's part of each
//! (`Bindings::rendered`); for generated bindings `write::render` makes them.
//! Either way the functions the floor left out leave the files here, block by
//! block, and what depends on the build (the crate root's page, the `since`
//! table, the items list) is made here.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::Path;

use crate::env::write_error;
use crate::model::{items_file, Bindings, Function, Origin, Rename, Result, BLOCK, REFERENCE};

/// Writes the files `src/lib.rs` includes: `generated`, the files
/// `write::render` made of generated bindings, or the pregenerated set's
/// (`Bindings::rendered`) where there are none; `linked`: the functions are
/// declared for the linker, not loaded at run time (`dynamic-loading`).
pub fn all(
    b: &Bindings,
    generated: Option<&[(String, String)]>,
    origin: &Origin,
    out_dir: &Path,
    linked: bool,
) -> Result<()> {
    let bound: BTreeSet<&str> = b.all_functions().map(|f| f.name.as_str()).collect();
    let mut files = vec![
        ("crate_docs.md".to_string(), crate_root(b, origin)),
        ("since.rs".to_string(), since(b)),
        ("items.txt".to_string(), items(&b.names, &b.functions, &b.renames)),
    ];
    for m in &b.modules {
        files.push((items_file(m.name), items(&m.names, &m.functions, &m.renames)));
    }
    for (name, text) in generated.unwrap_or(&b.rendered) {
        files.push((name.clone(), bound_only(text, &bound, linked)));
    }
    for (name, text) in files {
        let path = out_dir.join(name);
        std::fs::write(&path, text).map_err(|e| write_error(&path, e))?;
    }
    Ok(())
}

/// How a rendered file declares the functions for the linker; with dynamic
/// loading the same list is the `functions!` invocation that `src/lib.rs`
/// expands to the wrappers. Both read back the same (`make::items::read`).
const LINKED: &str = "unsafe extern \"C\" {";
const LOADED: &str = "functions! {";

/// `text` less the blocks (`//~ name` to the next `//~` line) of functions
/// not `bound` (those the floor left out), its functions declared for the
/// linker or loaded.
fn bound_only(text: &str, bound: &BTreeSet<&str>, linked: bool) -> String {
    let mut out = String::with_capacity(text.len());
    let mut keep = true;
    for line in text.lines() {
        if let Some(tag) = line.strip_prefix(BLOCK) {
            let name = tag.trim();
            keep = name.is_empty() || bound.contains(name);
        }
        if keep {
            out.push_str(if line == LINKED && !linked { LOADED } else { line });
            out.push('\n');
        }
    }
    out
}

/// `crate_docs.md`: the crate root's paragraph on the release these docs show.
fn crate_root(b: &Bindings, origin: &Origin) -> String {
    let v = b.version;
    let how = match origin {
        Origin::Generated { .. } => format!(
            "These docs are of bindings generated from CUDA {v}'s headers (`CUDA_VERSION` {n}), \
             with the header's documentation after this crate's own.",
            n = v.number
        ),
        Origin::Pregenerated { .. } => format!(
            "These docs are of CUDA {v}'s bindings (`CUDA_VERSION` {n}) from the crate's \
             pregenerated set{newest}: docs.rs has no CUDA headers, so its page shows these, \
             with this crate's own documentation and none of the header's.",
            n = v.number,
            newest = match b.history.releases.last() == Some(&v.number) {
                true => ", its newest release",
                false => "",
            }
        ),
    };
    format!(
        "{how} Another release's items are its feature's (`cuda-12080` for 12.8, see [Choosing \
         a CUDA release](crate::building#choosing-a-cuda-release)): `cargo doc -p libcuda-sys --features \
         cuda-12080 --open` shows them, and a dependent's docs.rs page shows its release with \
         `[package.metadata.docs.rs] features = [\"libcuda-sys/cuda-12080\"]`. Each function's \
         page says what it does, the driver it needs, and links its page of [NVIDIA's driver \
         API reference]({REFERENCE}).\n"
    )
}

/// `items.txt` (`DEP_CUDA_ITEMS`): every name `cuda.h`'s bindings declare at
/// the crate root, one a line, sorted: for a dependent's bindgen pass to leave
/// out and take from this crate instead (the crate docs, "A binding crate on
/// libcuda-sys"). The functions are those bound, after the driver floor. An
/// interop module's, the same of its module ([`items_file`]).
fn items(names: &[String], functions: &[Function], renames: &[Rename]) -> String {
    let functions = functions.iter().map(|f| &f.name);
    let plain = renames.iter().map(|r| &r.plain);
    let mut names: Vec<&String> = names.iter().chain(functions).chain(plain).collect();
    names.sort_unstable();
    names.dedup();
    names.into_iter().map(|n| format!("{n}\n")).collect()
}

/// `OUT_DIR/since.rs`: the tables behind `libcuda_sys::since`: the bound
/// functions, each with the version its ABI needs, and the plain names with
/// the function each is an alias of.
fn since(bindings: &Bindings) -> String {
    let mut out = String::from(
        "/// Whether the headers had `cudaTypedefs.h`, the source of [`SINCE`].\npub const SINCE_AVAILABLE: bool = ",
    );
    let _ = writeln!(out, "{};", bindings.since.is_some());
    let mut names: Vec<&str> = bindings.all_functions().map(|f| f.name.as_str()).collect();
    names.sort_unstable();
    out.push_str("/// Every bound function, sorted.\npub const FUNCTIONS: &[&str] = &[\n");
    for name in &names {
        let _ = writeln!(out, "    \"{name}\",");
    }
    out.push_str("];\n/// `(bound function, CUDA_VERSION that introduced its ABI)`, sorted by name.\npub const SINCE: &[(&str, u32)] = &[\n");
    if let Some(since) = &bindings.since {
        for name in &names {
            if let Some(v) = since.get(*name) {
                let _ = writeln!(out, "    (\"{name}\", {v}),");
            }
        }
    }
    out.push_str("];\n/// `(plain name, the bound function it is an alias of)`, sorted by name.\npub const PLAIN_NAMES: &[(&str, &str)] = &[\n");
    let mut plain: Vec<_> = bindings.all_renames().collect();
    plain.sort_by(|a, b| a.plain.cmp(&b.plain));
    for r in plain {
        let _ = writeln!(out, "    (\"{}\", \"{}\"),", r.plain, r.target);
    }
    out.push_str("];\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const RENDERED: &str = "// cuda.h\nunsafe extern \"C\" {\n//~ cuA\n#[doc = \"A\"] pub fn cuA(\n    x: u32,\n) -> CUresult;\n//~ cuB_v2\npub fn cuB_v2() -> CUresult;\n//~\n}\n//~ cuB_v2\npub use self::cuB_v2 as cuB;\n//~\n";

    #[test]
    fn the_floor_leaves_out_the_blocks_of_its_functions_and_nothing_else() {
        let all = bound_only(RENDERED, &BTreeSet::from(["cuA", "cuB_v2"]), true);
        assert_eq!(all, RENDERED);
        let floored = bound_only(RENDERED, &BTreeSet::from(["cuA"]), true);
        assert_eq!(
            floored,
            "// cuda.h\nunsafe extern \"C\" {\n//~ cuA\n#[doc = \"A\"] pub fn cuA(\n    x: u32,\n) -> CUresult;\n//~\n}\n//~\n"
        );
        let loaded = bound_only(RENDERED, &BTreeSet::from(["cuA", "cuB_v2"]), false);
        assert_eq!(loaded, RENDERED.replace("unsafe extern \"C\" {", "functions! {"));
    }
}
