//! What a build of the crate bound, read from the files its build script wrote
//! into `OUT_DIR`, parsed as the Rust they are.

use std::path::Path;

use crate::Result;

/// Every bound function: `FUNCTIONS` of `since.rs`.
pub fn functions(out_dir: &Path) -> Result<Vec<String>> {
    let path = out_dir.join("since.rs");
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let file = syn::parse_file(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let names: Vec<String> = array(&file, "FUNCTIONS").into_iter().flatten().collect();
    if names.is_empty() {
        return Err(format!("{}: no FUNCTIONS", path.display()));
    }
    Ok(names)
}

/// The literal elements of the tuples of `const NAME: &[...] = &[(..), ..]`.
pub fn array(file: &syn::File, name: &str) -> Vec<Vec<String>> {
    let literal = |e: &syn::Expr| match e {
        syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(s),
            ..
        }) => s.value(),
        syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Int(i),
            ..
        }) => i.base10_digits().to_string(),
        other => quote::ToTokens::to_token_stream(other).to_string(),
    };
    elements(file, name)
        .iter()
        .map(|e| match e {
            syn::Expr::Tuple(t) => t.elems.iter().map(literal).collect(),
            other => vec![literal(other)],
        })
        .collect()
}

pub fn elements<'a>(file: &'a syn::File, name: &str) -> Vec<&'a syn::Expr> {
    for item in &file.items {
        if let syn::Item::Const(c) = item {
            if c.ident == name {
                if let syn::Expr::Reference(r) = &*c.expr {
                    if let syn::Expr::Array(a) = &*r.expr {
                        return a.elems.iter().collect();
                    }
                }
            }
        }
    }
    Vec::new()
}

#[cfg(test)]
mod tests {
    #[test]
    fn functions_and_tables() {
        let dir = std::env::temp_dir().join(format!("xtask-bindings-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("since.rs"),
            "pub const FUNCTIONS: &[&str] = &[\"cuInit\", \"cuMemAlloc_v2\"];\n\
             pub const SINCE: &[(&str, u32)] = &[(\"cuInit\", 2000)];\n",
        )
        .unwrap();
        let names = super::functions(&dir).unwrap();
        let file =
            syn::parse_file(&std::fs::read_to_string(dir.join("since.rs")).unwrap()).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(names, ["cuInit", "cuMemAlloc_v2"]);
        assert_eq!(super::array(&file, "SINCE"), [["cuInit", "2000"]]);
    }
}
