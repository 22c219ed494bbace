//! Plain names. `cuda.h` declares `cuMemAlloc` and renames it with
//! `#define cuMemAlloc cuMemAlloc_v2` (or `__CUDA_API_PTSZ(...)` under
//! `CUDA_API_PER_THREAD_DEFAULT_STREAM`), so bindgen only sees the versioned
//! declaration. libcuda still exports the plain name with the legacy ABI, so
//! binding it by hand would call the wrong function. Here the preprocessor
//! lists every macro in force (`-dM`), expands each `cu*` one, and every name
//! that expands to a bound function becomes a Rust alias of that function.
//!
//! Constants bindgen leaves out. `cuda.h` defines some handles and pointers as
//! casts (`#define CU_STREAM_LEGACY ((CUstream)0x1)`, `CU_DEVICE_CPU
//! ((CUdevice)-1)`, `CU_LAUNCH_PARAM_END ((void*)CU_LAUNCH_PARAM_END_AS_INT)`)
//! and some enumerators under a second name (`#define
//! CU_STREAM_ATTRIBUTE_PRIORITY CU_LAUNCH_ATTRIBUTE_PRIORITY`); bindgen
//! evaluates neither. The preprocessor expands every object-like `CU*` macro
//! the bindings lack, and each expansion that is an integer cast to a bound type
//! (or to `void *`), or a single enumerator, becomes a Rust constant of that C
//! type. What is left has no value (`CUDAAPI`, `CUDA_CB`): systest lists it.

use std::fmt::Write;

use crate::make::items::Items;
use crate::model::Rename;

/// The macros to expand: those named like driver functions.
pub fn rename_candidates(macros: &[(String, String)]) -> impl Iterator<Item = &str> {
    macros.iter().map(|(name, _)| name.as_str()).filter(|n| is_driver_name(n))
}

/// Every expansion (`(macro, what it expands to)`) that renames a plain name
/// to a bound function.
pub fn renames(expansions: &[(String, String)], items: &crate::make::items::Items) -> Vec<Rename> {
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
fn is_driver_name(name: &str) -> bool {
    name.starts_with("cu")
        && name[2..].starts_with(|c: char| c.is_ascii_uppercase())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

pub struct MacroConstant {
    pub name: String,
    /// The macro's body as the header writes it.
    pub definition: String,
    /// The Rust type and value.
    pub ty: String,
    pub value: String,
}

/// Object-like `CU*` macros: `(name, body)`, bodies empty or not.
fn object_like(macros: &[(String, String)]) -> impl Iterator<Item = &(String, String)> {
    macros.iter().filter(|(name, _)| {
        name.starts_with("CU") && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    })
}

/// Object-like `CU*` macros that the bindings do not have under their name:
/// `(name, body)`, bodies empty or not.
pub fn unbound<'a>(macros: &'a [(String, String)], items: &Items) -> Vec<&'a (String, String)> {
    // Every name the bindings declare, once: the header has thousands of macros.
    let declared: std::collections::HashSet<&str> = (items.functions.iter().map(|f| &f.name))
        .chain(&items.typedefs)
        .chain(items.records.iter().map(|r| &r.name))
        .chain(items.constants.iter().map(|k| &k.name))
        .map(String::as_str)
        .collect();
    object_like(macros).filter(|(name, _)| !declared.contains(name.as_str())).collect()
}

/// Every macro [`constant_candidates`] may name, whatever the bindings
/// declare: the preprocessor expands them while bindgen runs, and
/// [`expansions_of`] keeps the ones asked for once the bindings are read.
pub fn expandable(macros: &[(String, String)]) -> impl Iterator<Item = &str> {
    object_like(macros).filter(|(_, body)| !body.is_empty()).map(|(name, _)| name.as_str())
}

/// The expansions of `names`, in their order, from those of more names
/// (the preprocessor expands each on its own line, whatever the others are).
pub fn expansions_of(names: &[&str], expanded: &[(String, String)]) -> Vec<(String, String)> {
    let by_name: std::collections::HashMap<&str, &String> =
        expanded.iter().map(|(name, expansion)| (name.as_str(), expansion)).collect();
    names
        .iter()
        .filter_map(|name| Some((name.to_string(), by_name.get(name)?.to_string())))
        .collect()
}

/// The macros to expand: unbound ones with a body.
pub fn constant_candidates<'a>(
    macros: &'a [(String, String)],
    items: &Items,
) -> impl Iterator<Item = &'a str> {
    unbound(macros, items)
        .into_iter()
        .filter(|(_, body)| !body.is_empty())
        .map(|(name, _)| name.as_str())
}

/// Every expansion (`(macro, what it expands to)`) of an unbound macro that is
/// a constant this module binds.
pub fn constants(
    expansions: &[(String, String)],
    macros: &[(String, String)],
    items: &Items,
) -> Vec<MacroConstant> {
    let unbound = unbound(macros, items);
    let mut found: Vec<MacroConstant> = expansions
        .iter()
        .filter_map(|(name, expanded)| {
            let (_, definition) = unbound.iter().find(|(n, _)| n == name)?;
            let (ty, value) = meaning(expanded, items)?;
            Some(MacroConstant { name: name.clone(), definition: definition.clone(), ty, value })
        })
        .collect();
    found.sort_by(|a, b| a.name.cmp(&b.name));
    found
}

/// `(Rust type, Rust value)` of a fully expanded macro body, when it is a
/// constant this module binds.
fn meaning(expanded: &str, items: &Items) -> Option<(String, String)> {
    let text = without_outer_parens(&expanded.split_whitespace().collect::<Vec<_>>().join(" "));
    // One enumerator under another name.
    if let Some(k) = items.constants.iter().find(|k| k.owner.is_some() && k.name == text) {
        let owner = k.owner.as_deref()?;
        return Some((owner.to_string(), format!("{owner}::{}", k.name)));
    }
    // `(TYPE)INTEGER`.
    let rest = text.strip_prefix('(')?;
    let (ty, value) = rest.split_once(')')?;
    let ty = match ty.replace(' ', "").as_str() {
        "void*" => "*mut ::core::ffi::c_void".to_string(),
        name if items.typedefs.iter().any(|t| t == name) => name.to_string(),
        _ => return None,
    };
    let value = integer(&without_outer_parens(value.trim()))?;
    Some((ty.clone(), format!("{value}isize as {ty}")))
}

/// `((x))` -> `x`, only where the outer parentheses enclose everything.
fn without_outer_parens(text: &str) -> String {
    let mut text = text.trim();
    while text.starts_with('(') && text.ends_with(')') {
        let mut depth = 0;
        let closes_at_end = text.char_indices().all(|(i, c)| {
            match c {
                '(' => depth += 1,
                ')' => depth -= 1,
                _ => {}
            }
            depth > 0 || i == text.len() - 1
        });
        if !closes_at_end {
            break;
        }
        text = text[1..text.len() - 1].trim();
    }
    text.to_string()
}

/// A C integer literal, possibly negative, with any `u`/`l` suffix.
fn integer(text: &str) -> Option<i128> {
    let (negative, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, without_outer_parens(rest)),
        None => (false, text.to_string()),
    };
    let digits = digits.trim_end_matches(['u', 'U', 'l', 'L']);
    let value = match digits.strip_prefix("0x").or_else(|| digits.strip_prefix("0X")) {
        Some(hex) => i128::from_str_radix(hex, 16).ok()?,
        None => digits.parse().ok()?,
    };
    Some(if negative { -value } else { value })
}

/// `OUT_DIR/macro_constants.rs`.
pub fn render_constants(constants: &[MacroConstant]) -> String {
    let mut out = String::from(
        "// Constants cuda.h defines as casts or second names of enumerators, from its own macros.\n",
    );
    for c in constants {
        let _ = writeln!(
            out,
            "/// `#define {} {}` in `cuda.h`.\npub const {}: {} = {};",
            c.name, c.definition, c.name, c.ty, c.value
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outer_parentheses_go_only_where_they_enclose_everything() {
        assert_eq!(without_outer_parens(" ((x)) "), "x");
        assert_eq!(without_outer_parens("(a) | (b)"), "(a) | (b)");
        assert_eq!(without_outer_parens("((a) | (b))"), "(a) | (b)");
    }

    #[test]
    fn integer_literals_in_c_spellings() {
        assert_eq!(integer("0x10u"), Some(16));
        assert_eq!(integer("12UL"), Some(12));
        assert_eq!(integer("-(5)"), Some(-5));
        assert_eq!(integer("0XfF"), Some(255));
        assert_eq!(integer("CU_X"), None);
        assert_eq!(integer("1.5"), None);
    }
}
