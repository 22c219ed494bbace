//! systest's reading of the tables libcuda-sys's build script renders as Rust
//! (`renames.rs`, `macro_constants.rs`, `BITMASKS` in `value_types.rs`). Each
//! reader takes every item of its file or fails: a file whose shape changed is
//! a build error that names the item, never an empty list that would leave the
//! checks of that table with nothing to check.

use crate::model::{Error, Result};
use quote::ToTokens;
// The row type of the crate's own table of plain names.
pub use crate::model::Rename;

fn unreadable(file: &str, what: &str, found: &dyn quote::ToTokens) -> Error {
    let mut text = found.to_token_stream().to_string();
    if text.len() > 200 {
        let end = (0..=200).rev().find(|i| text.is_char_boundary(*i)).unwrap_or(0);
        text.truncate(end);
        text.push_str(" ...");
    }
    Error::new(
        format!("systest cannot read {file}: {what}"),
        format!(
            "{file}, as libcuda-sys's build script wrote it, holds\n    {text}\n\
             systest/tables.rs reads that file item by item; teach it the new shape\n\
             rather than let the checks of this table check nothing."
        ),
    )
}

/// The item as the error shows it: without its documentation.
fn undocumented(item: &syn::Item) -> syn::Item {
    let mut item = item.clone();
    match &mut item {
        syn::Item::Use(u) => u.attrs.clear(),
        syn::Item::Const(c) => c.attrs.clear(),
        syn::Item::Static(s) => s.attrs.clear(),
        syn::Item::Fn(f) => f.attrs.clear(),
        syn::Item::Macro(m) => m.attrs.clear(),
        _ => {}
    }
    item
}

/// `renames.rs`: nothing but `pub use self::cuMemAlloc_v2 as cuMemAlloc;`.
pub fn renames(file: &syn::File) -> Result<Vec<Rename>> {
    let what = "an item that is no `pub use self::TARGET as PLAIN;`";
    file.items
        .iter()
        .map(|item| match item {
            syn::Item::Use(syn::ItemUse { tree: syn::UseTree::Path(p), .. })
                if p.ident == "self" =>
            {
                match &*p.tree {
                    syn::UseTree::Rename(r) => {
                        Ok(Rename { plain: r.rename.to_string(), target: r.ident.to_string() })
                    }
                    _ => Err(unreadable("renames.rs", what, &undocumented(item))),
                }
            }
            _ => Err(unreadable("renames.rs", what, &undocumented(item))),
        })
        .collect()
}

/// An interop module's file (`gl.rs`): its items as Rust source, without
/// its plain names (`pub use self::cuGLGetDevices_v2 as cuGLGetDevices;`),
/// which are returned apart, as `renames.rs`'s are.
pub fn module(file: &syn::File) -> (String, Vec<Rename>) {
    let mut code = String::new();
    let mut renames = Vec::new();
    for item in &file.items {
        if let syn::Item::Use(syn::ItemUse { tree: syn::UseTree::Path(p), .. }) = item {
            if let syn::UseTree::Rename(r) = &*p.tree {
                let plain = r.rename.to_string();
                // A function's plain name (`cu` and a capital); enum typedefs stay items.
                if plain.starts_with("cu")
                    && plain[2..].starts_with(|c: char| c.is_ascii_uppercase())
                {
                    renames.push(Rename { plain, target: r.ident.to_string() });
                    continue;
                }
            }
        }
        code.push_str(&item.to_token_stream().to_string());
        code.push('\n');
    }
    (code, renames)
}

/// `macro_constants.rs`: nothing but `pub const NAME: TYPE = VALUE;`.
pub fn macro_constants(file: &syn::File) -> Result<Vec<String>> {
    file.items
        .iter()
        .map(|item| match item {
            syn::Item::Const(c) => Ok(c.ident.to_string()),
            other => Err(unreadable(
                "macro_constants.rs",
                "an item that is no `pub const`",
                &undocumented(other),
            )),
        })
        .collect()
}

/// `BITMASKS` of `value_types.rs`: `&["CUctx_flags_enum", ...]`.
pub fn bitmasks(file: &syn::File) -> Result<Vec<String>> {
    let what = "`BITMASKS` is no `&[\"NAME\", ...]` of string literals";
    let Some(c) = file.items.iter().find_map(|item| match item {
        syn::Item::Const(c) if c.ident == "BITMASKS" => Some(c),
        _ => None,
    }) else {
        return Err(Error::new(
            "systest cannot read value_types.rs: it has no `const BITMASKS`",
            "systest/tables.rs looks for `pub const BITMASKS: &[&str] = &[...]` in\n\
             value_types.rs as libcuda-sys's build script wrote it, to check each mask's `|`.",
        ));
    };
    let syn::Expr::Reference(r) = &*c.expr else {
        return Err(unreadable("value_types.rs", what, &c.expr));
    };
    let syn::Expr::Array(a) = &*r.expr else {
        return Err(unreadable("value_types.rs", what, &c.expr));
    };
    a.elems
        .iter()
        .map(|e| match e {
            syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(s), .. }) => Ok(s.value()),
            other => Err(unreadable("value_types.rs", what, other)),
        })
        .collect()
}
