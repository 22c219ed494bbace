//! What a build of the crate bound, read from the files its build script wrote
//! into `OUT_DIR`, parsed as the Rust they are.

use std::path::Path;

use crate::Result;

/// The functions of `functions.rs`: the `extern "C"` declarations (linked) or
/// the wrappers (dynamic loading).
pub fn functions(out_dir: &Path) -> Result<Vec<String>> {
    let path = out_dir.join("functions.rs");
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let file = syn::parse_file(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut names = Vec::new();
    for item in file.items {
        match item {
            syn::Item::ForeignMod(block) => {
                for f in block.items {
                    if let syn::ForeignItem::Fn(f) = f {
                        names.push(f.sig.ident.to_string());
                    }
                }
            }
            syn::Item::Fn(f) => names.push(f.sig.ident.to_string()),
            _ => {}
        }
    }
    Ok(names)
}

#[cfg(test)]
mod tests {
    #[test]
    fn functions_of_both_modes() {
        let dir = std::env::temp_dir().join(format!("xtask-bindings-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("functions.rs"),
            "unsafe extern \"C\" { pub fn cuInit(Flags: u32) -> CUresult; pub fn cuMemAlloc_v2(p: *mut u64, n: usize) -> CUresult; }\n\
             pub unsafe fn cuDriverGetVersion(v: *mut i32) -> CUresult { todo!() }\n\
             const SYMBOLS: usize = 1;\n",
        )
        .unwrap();
        let names = super::functions(&dir).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(names, ["cuInit", "cuMemAlloc_v2", "cuDriverGetVersion"]);
    }
}
