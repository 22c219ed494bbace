//! `enumerators.rs`: each C enum's `name()`, `Debug` and conversions, and
//! the bit-mask operators of the enums that are masks.

use super::*;

/// `enumerators.rs`: every C enumerator under its C name at the crate root,
/// typed as its enum's typedef (`CUDA_SUCCESS: CUresult`), as C makes them
/// global: `use libcuda_sys::*;` then `match r { CUDA_SUCCESS => .. }`. And
/// what each `CUresult` means, for its `Display`.
pub(super) fn enumerators(b: &Bindings) -> String {
    let mut out = conversions(b, &b.functions, &b.types, &b.aliases, &b.enumerators);
    out.push_str("// C's enumerators under their global C names.\n");
    let mut meanings = String::new();
    for e in &b.enumerators {
        let (ty, name) = (b.typedef_of(&e.owner), &e.name);
        let value = docs::value(b, e).map_or(String::new(), |v| format!(", `{name} = {v}`"));
        let result = result(name).filter(|_| ty == "CUresult");
        let meaning = result.map_or(String::new(), |(m, _)| format!(": {m}"));
        out.push_str(&format!(
            "/// [`{ty}::{name}`] under its C name{value}{meaning}.\npub const {name}: {ty} = {ty}::{name};\n"
        ));
        if let Some((m, _)) = result {
            let _ = writeln!(meanings, "            (Self::{name}.0 as i64, {m:?}),");
        }
    }
    let _ = writeln!(
        out,
        "impl CUresult {{\n    /// What this result means, in a line of this crate's own (`Display` prints\n    \
         /// it); `None` for a value without one (newer than these bindings, say).\n    \
         #[inline]\n    pub const fn meaning(self) -> Option<&'static str> {{\n        \
         crate::enums::name_of(self.0 as i64, &[\n{meanings}        ])\n    }}\n}}"
    );
    out
}

/// `From` each enum (of `aliases`, `(enum, typedef)`, and `enumerators`, those
/// of `types`) into the integer a parameter takes its values as (`params.txt`:
/// `cuStreamCreate`'s `c_uint Flags` takes `CUstream_flags`), or an attribute
/// holds them in (`CU_DEVICE_ATTRIBUTE_COMPUTE_MODE`'s `int` holds a
/// `CUcomputemode`): `CU_STREAM_NON_BLOCKING.into()`. The conversion is C's:
/// the enum's integer, as that type. Every enum a row of `params.txt` names
/// converts into its own integer whichever modules are bound (an interop
/// function's `Flags` takes `CUgraphicsRegisterFlags` as a `c_uint`); the
/// types of `functions` and the attributes add the rest.
pub(super) fn conversions(
    b: &Bindings,
    functions: &[Function],
    types: &str,
    aliases: &[(String, String)],
    enumerators: &[Enumerator],
) -> String {
    use crate::sentences::{param, params};
    let integer = |rust: &str| -> Option<&'static str> {
        let rust: String = rust.split_whitespace().collect();
        let rust = rust.trim_start_matches("*mut").trim_start_matches("*const");
        let last = rust.rsplit("::").next().unwrap_or(rust);
        Some(match last {
            "c_uint" | "cuuint32_t" | "u32" => "u32",
            "c_int" | "i32" => "i32",
            "c_ulonglong" | "cuuint64_t" | "u64" => "u64",
            "c_longlong" | "i64" => "i64",
            "c_ushort" | "u16" => "u16",
            "c_uchar" | "u8" => "u8",
            "usize" => "usize",
            _ => return None,
        })
    };
    // Each newtype of `types` (`pub struct X(pub c_uint);`) and its integer, read once.
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let code = docs::code_only(types);
    let newtypes: std::collections::HashMap<&str, &'static str> = code
        .match_indices("pub struct ")
        .filter_map(|(at, m)| {
            let rest = &types[at + m.len()..];
            let name = &rest[..rest.find(|c: char| !ident(c))?];
            let inner = rest[name.len()..].trim_start().strip_prefix('(')?;
            Some((name, integer(inner[..inner.find(')')?].trim_start_matches("pub"))?))
        })
        .collect();
    // An enum of `types` by its typedef or its own name, and its integer.
    let repr = |family: &str| -> Option<&'static str> {
        let owner = aliases.iter().find(|(_, t)| t == family).map_or(family, |(e, _)| e.as_str());
        enumerators.iter().find(|e| e.owner == owner)?;
        newtypes.get(owner).copied()
    };
    let mut pairs: Vec<(&str, &str)> = Vec::new();
    for family in params().iter().filter_map(|p| p.family()) {
        pairs.extend(repr(family).map(|int| (family, int)));
    }
    for f in functions {
        for (name, ty) in docs::params(&f.decl) {
            let Some(family) = param(&f.name, &name).and_then(|p| p.family()) else { continue };
            if let (Some(int), Some(_)) = (integer(&ty), repr(family)) {
                pairs.push((family, int));
            }
        }
    }
    for t in &b.typed {
        if let (Some(values), Some(int)) = (&t.values, t.rust_type.as_deref().and_then(integer)) {
            pairs.extend(repr(values).map(|_| (values.as_str(), int)));
        }
    }
    pairs.sort_unstable();
    pairs.dedup();
    let mut out = String::new();
    for (family, int) in pairs {
        let _ = writeln!(
            out,
            "/// Its integer as the `{int}` a C parameter or attribute takes it as.\n\
             impl From<{family}> for {int} {{\n    #[inline]\n    fn from(value: {family}) -> {int} {{\n        \
             value.0 as {int}\n    }}\n}}"
        );
    }
    out
}

/// `name()` and `Debug` for every C enum: the enumerator's name for a value
/// (the first one the header lists, where two share a value: `cuda.h` lists
/// the current name before the deprecated ones), `None` for a value the
/// header does not list; `Debug` shows it under the C typedef's name.
pub(super) fn render_names(
    enumerators: &[crate::model::Enumerator],
    aliases: &[(String, String)],
    bitmasks: &[String],
    out: &mut String,
) {
    let mut owners: Vec<&str> = Vec::new();
    for crate::model::Enumerator { owner, .. } in enumerators {
        if !owners.contains(&owner.as_str()) {
            owners.push(owner);
        }
    }
    for owner in owners {
        let names: Vec<&str> =
            enumerators.iter().filter(|e| e.owner == owner).map(|e| e.name.as_str()).collect();
        let _ = writeln!(
            out,
            "impl {owner} {{\n    /// The name of this value's enumerator in the header, `None` for a value\n    /// the header does not list (from a newer driver, say).\n    #[inline]\n    pub const fn name(self) -> Option<&'static str> {{\n        crate::enums::name_of(self.0 as i64, &["
        );
        // A table, not a `match` with a guard per enumerator: the same answer,
        // and a tenth less of the crate's compile time.
        let mut seen = Vec::new();
        for name in &names {
            if !seen.contains(name) {
                let _ = writeln!(out, "            (Self::{name}.0 as i64, \"{name}\"),");
                seen.push(name);
            }
        }
        out.push_str("        ])\n    }\n}\n");
        let shown =
            aliases.iter().find(|(e, _)| e == owner).map_or(owner, |(_, alias)| alias.as_str());
        let bits: String = if bitmasks.iter().any(|m| m == owner) {
            names
                .iter()
                .map(|n| format!("(\"{n}\", crate::enums::bits::<Self>(Self::{n}.0 as i64)), "))
                .collect()
        } else {
            String::new()
        };
        // A mask's value by its bits (`1 << 31` of an `int` enum is no negative number).
        let value = if bits.is_empty() {
            "self.0 as i64"
        } else {
            "crate::enums::bits::<Self>(self.0 as i64)"
        };
        let _ = writeln!(
            out,
            "impl ::core::fmt::Debug for {owner} {{\n    #[inline]\n    fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {{\n        crate::enums::fmt_enumerator(f, \"{shown}\", self.name(), {value}, &[{bits}])\n    }}\n}}"
        );
    }
}

/// `BITMASKS`, and the operators of each.
pub(super) fn render_bitmasks(bitmasks: &[String], out: &mut String) {
    out.push_str(concat!(
        "/// The C enums `cuda.h` uses as bit masks: each has `|`, `|=`, `&`, `&=` and\n",
        "/// `contains`, and its `Debug` lists the bits of a combination. An enum is one\n",
        "/// when the header calls it a set of flags (its name says flags, `CUctx_flags`,\n",
        "/// or its comment starts with \"Flags for\" or \"Bitmask\",\n",
        "/// `CUmemAllocationHandleType`) and its values are bits: each enumerator but 0\n",
        "/// and the `0x7FFFFFFF` sentinel is a single bit, or a union of the enum's bits\n",
        "/// named as a group (`CU_CTX_SCHED_MASK`, `CU_COREDUMP_LIGHTWEIGHT_FLAGS`).\n",
        "/// An enum the header calls flags whose values are a choice of one\n",
        "/// (`CUmemAccess_flags`: `READ` is 1, `READWRITE` 3), or a mode beside flag bits\n",
        "/// (`CUstreamWaitValue_flags`: `GEQ` 0 to `NOR` 3, with `FLUSH` `1 << 30`), is no\n",
        "/// mask, and its `Debug` shows a number for a value no enumerator has: combine\n",
        "/// its values through `.0`, as C does\n",
        "/// (`CU_STREAM_WAIT_VALUE_NOR.0 | CU_STREAM_WAIT_VALUE_FLUSH.0`).\n",
        "pub const BITMASKS: &[&str] = &[\n",
    ));
    for m in bitmasks {
        let _ = writeln!(out, "    \"{m}\",");
    }
    out.push_str("];\n");
    if !bitmasks.is_empty() {
        let _ = writeln!(out, "bitmask!({});", bitmasks.join(", "));
    }
}
