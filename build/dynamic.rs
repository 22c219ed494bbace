//! The `dynamic-loading` mode: instead of `extern "C"` declarations that the
//! linker resolves, every function is a small Rust function with the same name
//! and signature that calls through a table filled lazily at run time (see
//! `src/dynamic.rs`). The table's entries say, for each bound symbol, which name
//! to ask `cuGetProcAddress` for: the plain name when the header renames it
//! (`cuMemAlloc` -> `cuMemAlloc_v2`), so the driver hands back the ABI of the
//! header's `CUDA_VERSION`; the symbol itself otherwise.

use std::fmt::Write;

use quote::ToTokens;

use crate::items::Items;
use crate::renames::Rename;

/// `OUT_DIR/dynamic_symbols.rs`, the table `src/dynamic.rs` resolves from; the
/// wrappers index it in the same order.
pub fn render_symbols(items: &Items, renames: &[Rename]) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "/// `(symbol, name to ask cuGetProcAddress for)` of every bound function."
    );
    let _ = writeln!(
        out,
        "pub(crate) const SYMBOLS: [(&str, &str); {}] = [",
        items.functions.len()
    );
    for f in &items.functions {
        let query = renames
            .iter()
            .find(|r| r.target == f.name)
            .map(|r| r.plain.as_str())
            .unwrap_or(&f.name);
        let _ = writeln!(out, "    (\"{}\\0\", \"{query}\\0\"),", f.name);
    }
    out.push_str("];\n");
    out
}

/// One wrapper per bound function, same name, signature and documentation.
pub fn render(items: &Items) -> String {
    let mut out = String::from(
        "\n// Dynamic loading: every function resolves through crate::dynamic at first use.\n",
    );
    for (index, f) in items.functions.iter().enumerate() {
        let sig = &f.item.sig;
        let (args, types): (Vec<String>, Vec<String>) = sig
            .inputs
            .iter()
            .filter_map(|a| match a {
                syn::FnArg::Typed(t) => Some((
                    t.pat.to_token_stream().to_string(),
                    t.ty.to_token_stream().to_string(),
                )),
                syn::FnArg::Receiver(_) => None,
            })
            .unzip();
        let params: Vec<String> = args
            .iter()
            .zip(&types)
            .map(|(a, t)| format!("{a}: {t}"))
            .collect();
        for attr in &f.item.attrs {
            let _ = writeln!(out, "{}", attr.to_token_stream());
        }
        let _ = writeln!(
            out,
            "pub unsafe fn {name}({params}) -> CUresult {{\n    \
                 match crate::dynamic::resolve({index}) {{\n        \
                     Ok(__libcuda_sys_fn) => {{\n            \
                         let __libcuda_sys_call: unsafe extern \"C\" fn({types}) -> CUresult = unsafe {{ ::core::mem::transmute(__libcuda_sys_fn) }};\n            \
                         unsafe {{ __libcuda_sys_call({args}) }}\n        \
                     }}\n        \
                     Err(e) => e,\n    \
                 }}\n}}",
            name = f.name,
            params = params.join(", "),
            types = types.join(", "),
            args = args.join(", "),
        );
    }
    out
}
