//! The ABI check's sources (the systest pattern of libc and openssl-sys),
//! derived from the bound items: `abi_check.c` prints what the C compiler
//! computes, `abi_check.rs` holds what rustc computes, and the tests compile
//! and run the C side and compare the two, item by item.
//!
//! Nothing here is written per item: a new header brings its own items.

use std::collections::HashSet;
use std::fmt::Write;

use crate::cpp::{io_error, Header};
use crate::error::Result;
use crate::items::Items;
use crate::Rename;

/// `struct X {` / `union X {` / `enum X {` tags in the preprocessed header: a
/// Rust type of that name is a C tag, any other one a typedef name.
fn tags(preprocessed: &str) -> HashSet<(String, String)> {
    let words: Vec<&str> = preprocessed
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '{'))
        .flat_map(|w| w.split_inclusive('{'))
        .filter(|w| !w.is_empty())
        .collect();
    let mut out = HashSet::new();
    for w in words.windows(3) {
        if matches!(w[0], "struct" | "union" | "enum") && w[2].starts_with('{') {
            out.insert((w[0].to_string(), w[1].to_string()));
        }
    }
    out
}

fn c_type(tags: &HashSet<(String, String)>, kind: &str, name: &str) -> String {
    let is_tag = |n: &str| tags.contains(&(kind.to_string(), n.to_string()));
    if is_tag(name) {
        return format!("{kind} {name}");
    }
    // A tagged type nested in another one: bindgen names it `Outer_Inner`, C
    // keeps the tag `Inner` at file scope.
    for (at, _) in name.match_indices('_') {
        let (outer, inner) = (&name[..at], &name[at + 1..]);
        if is_tag(inner) && tags.iter().any(|(_, t)| t == outer) {
            return format!("{kind} {inner}");
        }
    }
    name.to_string()
}

/// `macro_constants` are the names of the bindings' constants of a pointer,
/// handle or enum type (casts and enumerator aliases the header defines as
/// macros): compared through `intptr_t` at run time.
pub fn write(
    header: &Header,
    items: &Items,
    renames: &[Rename],
    macro_constants: &[String],
    preprocessed: &str,
) -> Result<usize> {
    let tags = tags(preprocessed);
    let mut c = String::new();
    let mut rs = String::from("/// Why nothing is checked, if so.\npub const SKIPPED: Option<&str> = None;\n/// `(check, rustc's value)`: compared with what `abi_check.c` prints.\npub const RUST_SIDE: &[(&str, i128)] = &[\n");
    let mut checks = 0;
    let mut both = |c: &mut String, key: String, c_expr: &str, rust_expr: &str| {
        let _ = writeln!(c, "    P(\"{key}\", {c_expr});");
        let _ = writeln!(rs, "    (\"{key}\", ({rust_expr}) as i128),");
        checks += 1;
    };

    let _ = writeln!(
        c,
        "#include <stdio.h>\n#include <stddef.h>\n#include <stdint.h>\n#include \"{}\"",
        header.wrapper.display()
    );
    c.push_str(
        "#define STR(x) #x\n#define XSTR(x) STR(x)\n\
         /* Signed values print signed, the rest unsigned, so that 64-bit masks compare exactly. */\n\
         #define P(key, v) ((v) < 0 ? printf(\"%s %lld\\n\", key, (long long)(v)) : printf(\"%s %llu\\n\", key, (unsigned long long)(v)))\n\
         int main(void) {\n",
    );

    for r in items
        .records
        .iter()
        .filter(|r| !r.opaque && !r.name.contains("__bindgen"))
    {
        let ty = c_type(&tags, if r.is_union { "union" } else { "struct" }, &r.name);
        both(
            &mut c,
            format!("size {}", r.name),
            &format!("sizeof({ty})"),
            &format!("core::mem::size_of::<{}>()", r.name),
        );
        both(
            &mut c,
            format!("align {}", r.name),
            &format!("_Alignof({ty})"),
            &format!("core::mem::align_of::<{}>()", r.name),
        );
        for (rust, cname) in &r.fields {
            both(
                &mut c,
                format!("offset {}.{cname}", r.name),
                &format!("offsetof({ty}, {cname})"),
                &format!("core::mem::offset_of!({}, {rust})", r.name),
            );
        }
    }
    for e in items.enums.iter().filter(|e| !e.contains("__bindgen")) {
        let ty = c_type(&tags, "enum", e);
        both(
            &mut c,
            format!("size {e}"),
            &format!("sizeof({ty})"),
            &format!("core::mem::size_of::<{e}>()"),
        );
    }
    for t in &items.typedefs {
        both(
            &mut c,
            format!("size {t}"),
            &format!("sizeof({t})"),
            &format!("core::mem::size_of::<{t}>()"),
        );
        both(
            &mut c,
            format!("align {t}"),
            &format!("_Alignof({t})"),
            &format!("core::mem::align_of::<{t}>()"),
        );
    }
    for k in &items.constants {
        let rust = match &k.owner {
            Some(owner) => format!("{owner}::{}.0", k.name),
            None => k.name.clone(),
        };
        both(&mut c, format!("value {}", k.name), &k.name, &rust);
    }
    // Every memory-pool attribute the header declares, found in the header text
    // (not in the bindings): an unbound one fails to compile on the Rust side.
    let mut seen = HashSet::new();
    for word in preprocessed.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')) {
        if word.starts_with("CU_MEMPOOL_ATTR_") && seen.insert(word) {
            both(
                &mut c,
                format!("mempool {word}"),
                word,
                &format!("CUmemPool_attribute::{word}.0"),
            );
        }
    }
    // Every bound function must be declared by the header under its own name:
    // taking its address does not compile otherwise. `sizeof` keeps it unevaluated,
    // so the program needs no libcuda. The count is the C program's own.
    c.push_str("    int declared = 0;\n");
    for f in &items.functions {
        let _ = writeln!(c, "    declared += sizeof(&{}) != 0;", f.name);
    }
    c.push_str("    printf(\"functions %d\\n\", declared);\n");
    // What a C call of each plain name resolves to, as the compiler sees it now.
    for r in renames {
        let _ = writeln!(
            c,
            "    printf(\"symbol {p} %s\\n\", XSTR({p}));",
            p = r.plain
        );
    }
    for name in macro_constants {
        let _ = writeln!(c, "    P(\"macro {name}\", (long long)(intptr_t)({name}));");
    }
    c.push_str("    return 0;\n}\n");
    rs.push_str("];\n");

    // Pointers cannot become integers in a constant: these are read at run time.
    rs.push_str(
        "/// A constant's value as C's `(intptr_t)` gives it.\npub trait AbiValue { fn abi(self) -> i128; }\n\
         impl<T> AbiValue for *mut T { fn abi(self) -> i128 { self as usize as i128 } }\n\
         impl<T> AbiValue for *const T { fn abi(self) -> i128 { self as usize as i128 } }\n\
         impl AbiValue for i32 { fn abi(self) -> i128 { self as i128 } }\n\
         impl AbiValue for u32 { fn abi(self) -> i128 { self as i128 } }\n\
         impl AbiValue for i64 { fn abi(self) -> i128 { self as i128 } }\n\
         impl AbiValue for u64 { fn abi(self) -> i128 { self as i128 } }\n",
    );
    for e in items.enums.iter().filter(|e| !e.contains("__bindgen")) {
        let _ = writeln!(
            rs,
            "impl AbiValue for {e} {{ fn abi(self) -> i128 {{ self.0 as i128 }} }}"
        );
    }
    rs.push_str("/// `(\"macro NAME\", rustc's value)` of the constants defined as casts or aliases.\npub fn macro_values() -> Vec<(&'static str, i128)> {\n    vec![\n");
    for name in macro_constants {
        let _ = writeln!(rs, "        (\"macro {name}\", AbiValue::abi({name})),");
        checks += 1;
    }
    rs.push_str("    ]\n}\n");

    // What a Rust call of each plain name resolves to: the address the linker
    // or loader bound for it, compared with the symbol named by the C side.
    rs.push_str("/// `(plain name, address of the function a Rust call of it reaches)`.\npub fn plain_name_addresses() -> [(&'static str, *const ()); ");
    let _ = writeln!(rs, "{}] {{\n    [", renames.len());
    for r in renames {
        let _ = writeln!(rs, "        (\"{p}\", {p} as *const ()),", p = r.plain);
    }
    rs.push_str("    ]\n}\n");
    let _ = writeln!(
        rs,
        "/// Bound functions, for the report.\npub const FUNCTIONS: usize = {};",
        items.functions.len()
    );
    rs.push_str("/// Every bound function's name.\npub const FUNCTION_NAMES: &[&str] = &[\n");
    for f in &items.functions {
        let _ = writeln!(rs, "    \"{}\",", f.name);
    }
    rs.push_str("];\n");

    for (name, text) in [("abi_check.c", c), ("abi_check.rs", rs)] {
        let path = header.out_dir.join(name);
        std::fs::write(&path, text).map_err(|e| io_error(&path, e))?;
    }
    // The exact compiler and flags the build used, so the test compiles the C
    // side as a C user of this header would.
    let mut cmd = header.compiler_command();
    cmd.push(format!("-I{}", header.include_dir.display()));
    cmd.push("-Wno-deprecated-declarations".into());
    cmd.extend(header.defines.iter().map(|d| format!("-D{d}")));
    let path = header.out_dir.join("abi_cc.txt");
    std::fs::write(&path, cmd.join("\n")).map_err(|e| io_error(&path, e))?;
    Ok(checks)
}
