//! Plain names. `cuda.h` declares `cuMemAlloc` and renames it with
//! `#define cuMemAlloc cuMemAlloc_v2` (or `__CUDA_API_PTSZ(...)` under
//! `CUDA_API_PER_THREAD_DEFAULT_STREAM`), so bindgen only sees the versioned
//! declaration. libcuda still exports the plain name with the legacy ABI, so
//! binding it by hand would call the wrong function. Here the preprocessor
//! lists every macro in force (`-dM`), expands each `cu*` one, and every name
//! that expands to a bound function becomes a Rust alias of that function.

use crate::output::Rename;

/// The macros to expand: those named like driver functions.
#[cfg(feature = "generate")]
pub fn candidates(macros: &[(String, String)]) -> impl Iterator<Item = &str> {
    macros.iter().map(|(name, _)| name.as_str()).filter(|n| is_driver_name(n))
}

/// Every expansion (`(macro, what it expands to)`) that renames a plain name
/// to a bound function.
#[cfg(feature = "generate")]
pub fn find(expansions: &[(String, String)], items: &crate::items::Items) -> Vec<Rename> {
    let mut renames: Vec<Rename> = expansions
        .iter()
        .filter(|(plain, target)| {
            is_driver_name(plain)
                && plain != target
                && items.function(target).is_some()
                && !items.has_item(plain)
        })
        .map(|(plain, target)| Rename { plain: plain.clone(), target: target.clone() })
        .collect();
    renames.sort_by(|a, b| a.plain.cmp(&b.plain));
    renames
}

/// Object-like macros named like driver functions (`cuX`); function-like ones
/// (`NAME(args)`) cannot rename a declaration.
#[cfg(feature = "generate")]
fn is_driver_name(name: &str) -> bool {
    name.starts_with("cu")
        && name[2..].starts_with(|c: char| c.is_ascii_uppercase())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// `OUT_DIR/renames.rs`: one `pub use` per plain name, documented with the
/// macro it mirrors. A `use` keeps the target's exact signature and symbol.
pub fn render(renames: &[Rename]) -> String {
    let mut out =
        String::from("// Plain names of renamed driver functions, from the header's own macros.\n");
    for r in renames {
        out.push_str(&format!(
            "/// Plain name of [`{t}`]: `cuda.h` has `#define {p} ... {t}`, so a C call to `{p}` calls `{t}`, and so does this.\n\
             /// (libcuda's own `{p}` symbol is the legacy ABI and is never bound.)\n\
             #[doc(inline)]\npub use self::{t} as {p};\n",
            p = r.plain,
            t = r.target
        ));
    }
    out
}
