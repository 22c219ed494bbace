//! bindgen's output read back as a syntax tree, with the settings taken from
//! the header's macros: what the make stage reads of a run of bindgen.

use std::collections::HashMap;

use crate::model::{Error, Result};

/// The crate's MSRV; the generated code uses nothing newer.
pub const RUST_TARGET: (u64, u64) = (82, 0);

/// The C type of an integer macro whose expression is unsigned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unsigned {
    Int,
    LongLong,
}

/// Unsigned integer macros, judged from their text as the preprocessor dumped it:
/// an integer literal with a `u` suffix or an `unsigned` cast makes the whole
/// expression unsigned in C (`long long`/`ll` suffixes make it 64-bit).
/// bindgen's own evaluation gets these wrong (`#define X (~0u)` as a signed `-1`).
pub fn unsigned_macros(macros: &[(String, String)]) -> HashMap<String, Unsigned> {
    let is_unsigned_literal = |w: &str| {
        w.starts_with(|c: char| c.is_ascii_digit())
            && w.to_ascii_lowercase().trim_end_matches('l').ends_with('u')
    };
    macros
        .iter()
        .filter(|(name, _)| name.starts_with("CU"))
        .filter_map(|(name, body)| {
            let words: Vec<&str> = body
                .split(|c: char| !c.is_ascii_alphanumeric())
                .filter(|w| !w.is_empty())
                .collect();
            let unsigned =
                words.contains(&"unsigned") || words.iter().any(|w| is_unsigned_literal(w));
            let wide = body.to_ascii_lowercase().contains("ll") || words.contains(&"long");
            unsigned.then(|| (name.clone(), if wide { Unsigned::LongLong } else { Unsigned::Int }))
        })
        .collect()
}

/// bindgen writes a negative value it was told is `c_uint` as its 64-bit two's
/// complement, which does not compile; C's value is the same bits modulo 2^32.
fn wrap_unsigned(file: &mut syn::File, unsigned: &HashMap<String, Unsigned>) {
    for item in &mut file.items {
        let syn::Item::Const(c) = item else { continue };
        if !matches!(unsigned.get(&c.ident.to_string()), Some(Unsigned::Int)) {
            continue;
        }
        if let syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Int(int), .. }) = &mut *c.expr {
            if let Ok(value) = int.base10_parse::<u64>() {
                let wrapped = (value & u64::from(u32::MAX)).to_string();
                *int = syn::LitInt::new(&wrapped, int.span());
            }
        }
    }
}

/// bindgen's output read back (for the build script, which links no syn).
pub type File = syn::File;

/// bindgen's output as a syntax tree, with the unsigned macros' values as C has them.
pub fn read(bindings: &str, unsigned: &HashMap<String, Unsigned>) -> Result<syn::File> {
    let mut file = syn::parse_file(bindings)
        .map_err(|e| Error::new("the generated bindings do not parse as Rust", e.to_string()))?;
    wrap_unsigned(&mut file, unsigned);
    inline_defaults(&mut file);
    Ok(file)
}

/// bindgen's `Default` of a struct or union (all bytes zero) marked
/// `#[inline]`: compiled where it is called, as a generic is, instead of
/// along with the bindings, which call none of them.
fn inline_defaults(file: &mut syn::File) {
    let inline: syn::Attribute = syn::parse_quote!(#[inline]);
    for item in &mut file.items {
        let syn::Item::Impl(i) = item else { continue };
        let Some((path, _)) = &i.trait_ else { continue };
        if !path.is_ident("Default") {
            continue;
        }
        for member in &mut i.items {
            if let syn::ImplItem::Fn(f) = member {
                if !f.attrs.iter().any(|a| a.path().is_ident("inline")) {
                    f.attrs.push(inline.clone());
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unsigned_macros_are_judged_from_their_text() {
        let macros: Vec<(String, String)> = [
            ("CU_A", "(~0u)"),
            ("CU_B", "0xffffffffffffffffULL"),
            ("CU_C", "((unsigned int)-1)"),
            ("CU_D", "5"),
            ("OTHER", "1u"),
        ]
        .iter()
        .map(|(n, b)| (n.to_string(), b.to_string()))
        .collect();
        let found = unsigned_macros(&macros);
        assert_eq!(found.get("CU_A"), Some(&Unsigned::Int));
        assert_eq!(found.get("CU_B"), Some(&Unsigned::LongLong));
        assert_eq!(found.get("CU_C"), Some(&Unsigned::Int));
        assert_eq!(found.len(), 3, "{found:?}");
    }
}
