//! The ABI check's sources (the systest pattern of libc and openssl-sys),
//! derived from the bound items: `abi_check.c` prints what the C compiler
//! computes, `abi_check.rs` holds what rustc computes, and the tests compile
//! and run the C side and compare the two, item by item.
//!
//! Nothing here is written per item: a new header brings its own items.

use std::collections::HashSet;
use std::fmt::Write;

use crate::env::write_error;
use crate::header::Header;
use crate::items::Items;
use crate::layout::Layout;
use crate::model::{Error, Result};
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

/// What the Rust side of a check computes.
pub enum RustSide {
    Size(String),
    Align(String),
    /// `(record, Rust field name)`.
    Offset(String, String),
    /// A constant: `(enum it belongs to, name)`.
    Value(Option<String>, String),
    /// `A | B | ...` of a bit-mask enum's enumerators, with its `|`.
    Mask(String, Vec<String>),
    /// The size (or alignment) of an attribute's value type: in the crate's
    /// `VALUE_TYPES`, and the same number in its table for another target.
    ValueType {
        name: String,
        align: bool,
        table: usize,
    },
}

impl RustSide {
    /// The expression rustc evaluates on the host.
    fn expr(&self) -> String {
        match self {
            RustSide::Size(t) => format!("core::mem::size_of::<{t}>()"),
            RustSide::Align(t) => format!("core::mem::align_of::<{t}>()"),
            RustSide::Offset(r, f) => format!("core::mem::offset_of!({r}, {f})"),
            RustSide::Value(Some(owner), name) => format!("{owner}::{name}.0"),
            RustSide::Value(None, name) => name.clone(),
            RustSide::Mask(owner, names) => {
                let terms: Vec<String> = names.iter().map(|n| format!("{owner}::{n}")).collect();
                format!("({}).0", terms.join(" | "))
            }
            RustSide::ValueType { name, align, .. } => {
                let field = if *align { "align" } else { "size" };
                format!(
                    "VALUE_TYPES.iter().find(|e| e.name == {name:?}).and_then(|e| e.value_type.{field}).unwrap_or(0)"
                )
            }
        }
    }

    /// The same, read from the bindings for a target no Rust is compiled for.
    pub fn value(&self, layout: &Layout) -> std::result::Result<i128, String> {
        match self {
            RustSide::Size(t) => layout.size(t).map(i128::from),
            RustSide::Align(t) => layout.align(t).map(i128::from),
            RustSide::Offset(r, f) => layout.offset(r, f).map(i128::from),
            RustSide::Value(owner, name) => layout.value(owner.as_deref(), name),
            RustSide::Mask(owner, names) => names
                .iter()
                .map(|n| layout.value(Some(owner), n))
                .try_fold(0, |acc, v| v.map(|v| acc | v)),
            RustSide::ValueType { table, .. } => Ok(*table as i128),
        }
    }
}

/// One comparison: `key` names it, `c` is the C expression.
pub struct Check {
    pub key: String,
    pub c: String,
    pub rust: RustSide,
}

/// Every layout and value check of the bound items (the functions, plain
/// names and macro constants are checked apart: they are not numbers known to
/// both compilers alike).
pub fn checks(
    items: &Items,
    preprocessed: &str,
    bitmasks: &[String],
    typed: &[crate::model::Typed],
) -> Vec<Check> {
    let tags = tags(preprocessed);
    let mut checks = Vec::new();
    let mut both = |key: String, c: String, rust: RustSide| checks.push(Check { key, c, rust });
    for r in items.records.iter().filter(|r| !r.opaque && !r.name.contains("__bindgen")) {
        let ty = c_type(&tags, if r.is_union { "union" } else { "struct" }, &r.name);
        both(format!("size {}", r.name), format!("sizeof({ty})"), RustSide::Size(r.name.clone()));
        both(
            format!("align {}", r.name),
            format!("_Alignof({ty})"),
            RustSide::Align(r.name.clone()),
        );
        for (rust, cname) in &r.fields {
            both(
                format!("offset {}.{cname}", r.name),
                format!("offsetof({ty}, {cname})"),
                RustSide::Offset(r.name.clone(), rust.clone()),
            );
        }
    }
    for e in items.enums.iter().filter(|e| !e.contains("__bindgen")) {
        let ty = c_type(&tags, "enum", e);
        both(format!("size {e}"), format!("sizeof({ty})"), RustSide::Size(e.clone()));
    }
    for t in &items.typedefs {
        both(format!("size {t}"), format!("sizeof({t})"), RustSide::Size(t.clone()));
        both(format!("align {t}"), format!("_Alignof({t})"), RustSide::Align(t.clone()));
    }
    for k in &items.constants {
        both(
            format!("value {}", k.name),
            k.name.clone(),
            RustSide::Value(k.owner.clone(), k.name.clone()),
        );
    }
    // Each mask's single-bit enumerators combined, by C's `|` and by the enum's.
    for mask in bitmasks.iter().filter(|m| items.enums.contains(m)) {
        let bits: Vec<String> = items
            .constants
            .iter()
            .filter(|k| k.owner.as_ref() == Some(mask))
            // A single bit; of an `int` enum, `1 << 31` is one too (negative).
            .filter(|k| k.value.is_some_and(|v| v == -(1 << 31) || (v > 0 && v.count_ones() == 1)))
            .map(|k| k.name.clone())
            .collect();
        if !bits.is_empty() {
            both(
                format!("mask {mask}"),
                format!("({})", bits.join(" | ")),
                RustSide::Mask(mask.clone(), bits),
            );
        }
    }
    // The value type of every attribute: C's size and alignment of the C type
    // the table gives (a member's own `struct { ... }` too).
    for t in typed {
        let Some((size, align)) = t.layout else { continue };
        for (what, c, table) in [("size", "sizeof", size), ("align", "_Alignof", align)] {
            both(
                format!("value-type {what} {}", t.name),
                format!("{c}({})", t.c_type),
                RustSide::ValueType { name: t.name.clone(), align: what == "align", table },
            );
        }
    }
    // Every memory-pool attribute the header declares, found in the header text
    // (not in the bindings): an unbound one fails to compile on the Rust side.
    let mut seen = HashSet::new();
    for word in preprocessed.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')) {
        if word.starts_with("CU_MEMPOOL_ATTR_") && seen.insert(word) {
            both(
                format!("mempool {word}"),
                word.to_string(),
                RustSide::Value(Some("CUmemPool_attribute".into()), word.to_string()),
            );
        }
    }
    checks
}

/// `macro_constants` are the names of the bindings' constants of a pointer,
/// handle or enum type (casts and enumerator aliases the header defines as
/// macros): compared through `intptr_t` at run time.
pub fn write(
    header: &Header,
    items: &Items,
    renames: &[Rename],
    macro_constants: &[String],
    checks: &[Check],
) -> Result<usize> {
    let mut c = String::new();
    let mut rs = String::from("/// Why nothing is checked, if so.\npub const SKIPPED: Option<&str> = None;\n/// `(check, rustc's value)`: compared with what `abi_check.c` prints (at run\n/// time: a mask's `|` is not a constant operator).\npub fn rust_side() -> Vec<(&'static str, i128)> {\n    vec![\n");
    let _ = writeln!(
        c,
        "#include <stdio.h>\n#include <stdbool.h>\n#include <stddef.h>\n#include <stdint.h>\n{}",
        header.source()
    );
    c.push_str(
        "/* P's `< 0` on an unsigned value (cudaEGL.h's 0xFFFFFFFF) is the point, not a slip. */\n\
         #ifdef __GNUC__\n#pragma GCC diagnostic ignored \"-Wtype-limits\"\n#endif\n\
         #define STR(x) #x\n#define XSTR(x) STR(x)\n\
         /* Signed values print signed, the rest unsigned, so that 64-bit masks compare exactly. */\n\
         #define P(key, v) ((v) < 0 ? printf(\"%s %lld\\n\", key, (long long)(v)) : printf(\"%s %llu\\n\", key, (unsigned long long)(v)))\n\
         int main(void) {\n",
    );
    for check in checks {
        let _ = writeln!(c, "    P(\"{}\", {});", check.key, check.c);
        let _ = writeln!(rs, "        (\"{}\", ({}) as i128),", check.key, check.rust.expr());
    }
    let mut checks = checks.len();
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
        let _ = writeln!(c, "    printf(\"symbol {p} %s\\n\", XSTR({p}));", p = r.plain);
    }
    for name in macro_constants {
        let _ = writeln!(c, "    P(\"macro {name}\", (long long)(intptr_t)({name}));");
    }
    c.push_str("    return 0;\n}\n");
    rs.push_str("    ]\n}\n");

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
        let _ =
            writeln!(rs, "impl AbiValue for {e} {{ fn abi(self) -> i128 {{ self.0 as i128 }} }}");
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
    // A program that calls this references every bound function, so with full
    // RELRO (and `LD_BIND_NOW=1`) it starts only if the driver has every one.
    // But cuEventCreateFromEGLSync (the `egl` module), which desktop drivers
    // do not export (580.159.04 on x86-64): the program would start on none.
    let linked: Vec<_> =
        items.functions.iter().filter(|f| f.name != "cuEventCreateFromEGLSync").collect();
    let _ = writeln!(
        rs,
        "/// `(name, address)` of every bound function a desktop driver has.\npub fn all_functions() -> [(&'static str, *const ()); {}] {{\n    [",
        linked.len()
    );
    for f in linked {
        let _ = writeln!(rs, "        (\"{n}\", {n} as *const ()),", n = f.name);
    }
    rs.push_str("    ]\n}\n");

    for (name, text) in [("abi_check.c", c), ("abi_check.rs", rs)] {
        let path = header.out_dir.join(name);
        std::fs::write(&path, text).map_err(|e| write_error(&path, e))?;
    }
    // For the test, which compiles and runs the C side.
    let cmd = c_command(header);
    let path = header.out_dir.join("abi_cc.txt");
    std::fs::write(&path, cmd.join("\n")).map_err(|e| write_error(&path, e))?;
    Ok(checks)
}

/// The exact compiler and flags the build used, with the header's directory
/// and defines: how a C user of this header compiles against it.
fn c_command(header: &Header) -> Vec<String> {
    let mut cmd = header.compiler_command();
    cmd.push(format!("-I{}", header.include_dir.display()));
    cmd.push("-Wno-deprecated-declarations".into());
    cmd.extend(header.defines.iter().map(|d| format!("-D{d}")));
    // An interop module's defines and stand-in headers, as its pass read them.
    cmd.extend(header.module_flags.iter().cloned());
    cmd
}

/// What the static check compared: every value, by check, as the Rust side has it.
pub struct StaticCheck {
    pub values: Vec<(String, i128)>,
    pub functions: usize,
    pub macro_constants: usize,
    pub plain_names: usize,
}

/// The same checks for the target the build is for, without running anything
/// there: each Rust-side value (read from the bindings, see `layout.rs`) is a
/// `_Static_assert` in C compiled by the target's C compiler, every bound
/// function must be declared, and every plain name must expand, in the
/// target's preprocessor, to the function the bindings alias it to. On the
/// host this runs beside the run-time check, which keeps the reading of the
/// bindings honest.
pub fn check_statically(
    header: &Header,
    items: &Items,
    renames: &[Rename],
    macro_constants: &[String],
    checks: &[Check],
    layout: &Layout,
) -> Result<StaticCheck> {
    let unreadable = |key: &str, why: String| {
        Error::new(
            format!("the ABI check cannot read the Rust side of `{key}` from the bindings"),
            format!(
                "{why}\n\nThe bindings for {} hold something the static check does not understand;\n\
                 extend systest/layout.rs rather than leave the item unchecked.",
                header.target_triple
            ),
        )
    };
    let mut c = format!(
        "#include <stdbool.h>\n#include <stddef.h>\n#include <stdint.h>\n{}\n\
         /* Negative values compare signed, the rest unsigned, as the run-time check prints them. */\n\
         #define EQ(v, n) ((n) < 0 ? (long long)(v) == (long long)(n) : (unsigned long long)(v) == (unsigned long long)(n))\n",
        header.source()
    );
    let mut values = Vec::new();
    let mut assert = |c: &mut String, key: &str, c_expr: &str, value: i128| {
        let literal = if value < 0 { format!("({value}LL)") } else { format!("{value}ULL") };
        let _ = writeln!(c, "_Static_assert(EQ({c_expr}, {literal}), \"{key}\");");
        values.push((key.to_string(), value));
    };
    for check in checks {
        let value = check.rust.value(layout).map_err(|why| unreadable(&check.key, why))?;
        assert(&mut c, &check.key, &check.c, value);
    }
    for name in macro_constants {
        let key = format!("macro {name}");
        let value = layout.value(None, name).map_err(|why| unreadable(&key, why))?;
        assert(&mut c, &key, &format!("(intptr_t)({name})"), value);
    }
    for f in &items.functions {
        let _ = writeln!(c, "_Static_assert(sizeof(&{n}) != 0, \"function {n}\");", n = f.name);
    }
    let path = header.out_dir.join("abi_static.c");
    std::fs::write(&path, &c).map_err(|e| write_error(&path, e))?;

    let cmd = c_command(header);
    let mut command = std::process::Command::new(&cmd[0]);
    command.args(&cmd[1..]).args(["-std=c11", "-fsyntax-only"]).arg(&path);
    let out = command
        .output()
        .map_err(|e| Error::new(format!("cannot run {}", cmd[0]), e.to_string()))?;
    if !out.status.success() {
        let stderr = String::from_utf8_lossy(&out.stderr);
        let shown: Vec<&str> = stderr.lines().take(60).collect();
        return Err(Error::new(
            format!(
                "the bindings for {} disagree with the C compiler (static ABI check)",
                header.target_triple
            ),
            format!(
                "{} -fsyntax-only {} failed: each failed assertion names an item whose size, alignment,\n\
                 offset or value differs between the bindings and the C compiler for {}:\n{}",
                cmd[0],
                path.display(),
                header.target_triple,
                shown.join("\n")
            ),
        ));
    }

    // What each plain name expands to in the target's preprocessor.
    let plain: Vec<&str> = renames.iter().map(|r| r.plain.as_str()).collect();
    let (expansions, _) = header.expand(&plain)?;
    let expanded: std::collections::HashMap<&str, &str> =
        expansions.iter().map(|(n, e)| (n.as_str(), e.as_str())).collect();
    let wrong: Vec<String> = renames
        .iter()
        .filter(|r| expanded.get(r.plain.as_str()) != Some(&r.target.as_str()))
        .map(|r| {
            format!(
                "{}: the bindings call {}, the header {}",
                r.plain,
                r.target,
                expanded.get(r.plain.as_str()).unwrap_or(&"(nothing)")
            )
        })
        .collect();
    if !wrong.is_empty() {
        return Err(Error::new(
            format!(
                "{} plain names reach other functions than the header's for {}",
                wrong.len(),
                header.target_triple
            ),
            wrong.join("\n"),
        ));
    }
    Ok(StaticCheck {
        values,
        functions: items.functions.len(),
        macro_constants: macro_constants.len(),
        plain_names: renames.len(),
    })
}
