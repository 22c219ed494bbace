//! `OUT_DIR/value_types.rs`: the value type of every attribute enumerator
//! (`VALUE_TYPES`, found by `attributes`), each attribute enum's
//! `value_type()`, `name()` and `Debug` of every C enum, and the bit masks.

use std::fmt::Write;

use crate::output::Bindings;

/// Whether a C enum is a bit mask, which gets `|`, `&`, their assignments and
/// `contains`: `cuda.h` calls it a set of flags, and its values are bits. It
/// calls it flags in its name (`CUctx_flags`, `CUgraphicsRegisterFlags`) or in
/// a comment that starts with "Flags for" or "Bitmask"
/// (`CUmemAllocationHandleType`). Its values are bits when each enumerator but
/// 0 and the `0x7FFFFFFF` sentinel is a single bit (a negative one of an `int`
/// enum by its 32-bit pattern: `CU_COREDUMP_LOG_ONLY` is `1 << 31`), or a union
/// of the enum's single bits that its name calls a group (`_MASK`, `_FLAGS`:
/// `CU_CTX_SCHED_MASK`, `CU_COREDUMP_LIGHTWEIGHT_FLAGS`). That keeps out what
/// the header calls flags but numbers as a choice of one value: 1, 2, 3
/// (`CUcoredumpSettings`), `READ` 1 and `READWRITE` 3 (`CUmemAccess_flags`),
/// or a mode beside a flag bit, whose values a `|` would read as bits
/// (`CUstreamWaitValue_flags`: `NOR` is 3, so `NOR | FLUSH` would show as
/// `EQ | AND | FLUSH`).
#[cfg(feature = "generate")]
pub fn is_bitmask(name: &str, doc: &str, enumerators: &[(&str, i128)]) -> bool {
    let doc = doc.trim_start();
    let called_flags = name.to_ascii_lowercase().contains("flag")
        || doc.starts_with("Flags for")
        || doc.starts_with("Bitmask");
    let bits = |v: i128| if (-(1 << 31)..0).contains(&v) { v & 0xFFFF_FFFF } else { v };
    let single = |v: i128| bits(v) > 0 && bits(v).count_ones() == 1;
    let all_bits =
        enumerators.iter().filter(|(_, v)| single(*v)).fold(0, |acc, (_, v)| acc | bits(*v));
    let is_group = |name: &str, v: i128| {
        (name.ends_with("_MASK") || name.ends_with("_FLAGS")) && v > 0 && v & !all_bits == 0
    };
    called_flags
        && enumerators
            .iter()
            .filter(|(_, v)| *v != 0 && *v != 0x7FFF_FFFF)
            .all(|(name, v)| single(*v) || is_group(name, *v))
}

/// The enums of the generated bindings that are bit masks.
#[cfg(feature = "generate")]
pub fn bitmasks(items: &crate::items::Items) -> Vec<String> {
    items
        .enums
        .iter()
        .filter(|e| {
            let enumerators: Vec<(&str, i128)> = items
                .constants
                .iter()
                .filter(|k| k.owner.as_ref() == Some(*e))
                .filter_map(|k| Some((k.name.as_str(), k.value?)))
                .collect();
            is_bitmask(e, &items.enum_doc(e), &enumerators)
        })
        .cloned()
        .collect()
}

/// `name()` and `Debug` for every C enum: the enumerator's name for a value
/// (the first one the header lists, where two share a value: `cuda.h` lists
/// the current name before the deprecated ones), `None` for a value the
/// header does not list; `Debug` shows it under the C typedef's name.
fn render_names(bindings: &Bindings, out: &mut String) {
    let mut owners: Vec<&str> = Vec::new();
    for crate::output::Enumerator { owner, .. } in &bindings.enumerators {
        if !owners.contains(&owner.as_str()) {
            owners.push(owner);
        }
    }
    for owner in owners {
        let names: Vec<&str> = bindings
            .enumerators
            .iter()
            .filter(|e| e.owner == owner)
            .map(|e| e.name.as_str())
            .collect();
        let _ = writeln!(
            out,
            "impl {owner} {{\n    /// The name of this value's enumerator in the header, `None` for a value\n    /// the header does not list (from a newer driver, say).\n    pub const fn name(self) -> Option<&'static str> {{\n        crate::enums::name_of(self.0 as i64, &["
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
        let shown = bindings
            .aliases
            .iter()
            .find(|(e, _)| e == owner)
            .map_or(owner, |(_, alias)| alias.as_str());
        let bits: String = if bindings.bitmasks.iter().any(|m| m == owner) {
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
            "impl ::core::fmt::Debug for {owner} {{\n    fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {{\n        crate::enums::fmt_enumerator(f, \"{shown}\", self.name(), {value}, &[{bits}])\n    }}\n}}"
        );
    }
}

/// `BITMASKS`, and the operators of each.
fn render_bitmasks(bitmasks: &[String], out: &mut String) {
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

pub fn render(bindings: &Bindings) -> String {
    let mut out = String::from(
        "/// The value type of every attribute enumerator these bindings know: see\n\
         /// [Value types](crate#value-types).\npub const VALUE_TYPES: &[TypedEnumerator] = &[\n",
    );
    let quoted = |list: &[String]| list.iter().map(|f| format!("{f:?}, ")).collect::<String>();
    // Value types and function lists shared by many entries, each written once
    // as a constant: a tenth of the tokens for rustc to read.
    let mut shared: Vec<(String, String)> = Vec::new();
    let mut name_of = |ty: &str, text: String| -> String {
        let i = match shared.iter().position(|(_, t)| *t == text) {
            Some(i) => i,
            None => {
                shared.push((ty.to_string(), text));
                shared.len() - 1
            }
        };
        format!("V{i}")
    };
    // The entries of each enum, which are together: `(enum, first, end)`.
    let mut ranges: Vec<(&str, usize, usize)> = Vec::new();
    let mut asserted: Vec<&str> = Vec::new();
    let mut asserts = String::new();
    for (i, t) in bindings.typed.iter().enumerate() {
        let (size, align) = match (&t.layout, &t.rust_type) {
            (Some((size, align)), _) => (format!("Some({size})"), format!("Some({align})")),
            (None, Some(r)) => (
                format!("Some(::core::mem::size_of::<{r}>())"),
                format!("Some(::core::mem::align_of::<{r}>())"),
            ),
            (None, None) => ("None".into(), "None".into()),
        };
        let shape = match t.shape.as_str() {
            "boolean" => "Boolean",
            "array" => "Array",
            "string" => "String",
            _ => "Scalar",
        };
        let access = match (t.setters.is_empty(), t.reset_only) {
            (true, _) => "ReadOnly",
            (false, true) => "ResetOnly",
            (false, false) => "Settable",
        };
        let source = match t.source.split_once(' ') {
            Some(("measured", line)) => format!("Measured {{ line: {line:?} }}"),
            Some(("named", line)) => format!("Named {{ line: {line:?} }}"),
            Some((_, line)) => format!("Documented {{ line: {line:?} }}"),
            None if t.source == "comment" => "Comment".into(),
            None => "Signature".into(),
        };
        let value_type = name_of(
            "ValueType",
            format!(
                "ValueType {{ c_name: {c:?}, size: {size}, align: {align}, signed: {signed:?}, shape: Shape::{shape} }}",
                c = t.c_type,
                signed = t.signed,
            ),
        );
        let getters = name_of("&[&str]", format!("&[{}]", quoted(&t.getters)));
        let setters = name_of("&[&str]", format!("&[{}]", quoted(&t.setters)));
        // The literal where the bindings have it: no path for rustc to resolve.
        let value = bindings
            .enumerators
            .iter()
            .find(|e| e.name == t.name)
            .and_then(|e| e.value)
            .map_or_else(|| format!("{}::{}.0 as i64", t.owner, t.name), |v| v.to_string());
        let _ = writeln!(
            out,
            "    TypedEnumerator {{ enumeration: \"{owner}\", name: \"{n}\", value: {value}, \
             value_type: {value_type}, member: {member:?}, getters: {getters}, setters: {setters}, \
             access: Access::{access}, source: Source::{source}, description: {d:?} }},",
            owner = t.owner,
            n = t.name,
            member = t.member,
            d = t.description,
        );
        match ranges.last_mut() {
            Some((owner, _, end)) if *owner == t.owner => *end = i + 1,
            _ => ranges.push((&t.owner, i, i + 1)),
        }
        // What the docs say of the size is what the compiler makes of it.
        if let (Some((size, align)), Some(r)) = (&t.layout, &t.rust_type) {
            if !asserted.contains(&r.as_str()) {
                asserted.push(r);
                let _ = writeln!(
                    asserts,
                    "const _: () = assert!(::core::mem::size_of::<{r}>() == {size} && ::core::mem::align_of::<{r}>() == {align});"
                );
            }
        }
    }
    out.push_str("];\n");
    for (i, (ty, text)) in shared.iter().enumerate() {
        let _ = writeln!(out, "const V{i}: {ty} = {text};");
    }
    out.push_str(&asserts);
    for (owner, first, end) in ranges {
        let _ = writeln!(
            out,
            "impl {owner} {{\n    /// The type of this attribute's value ([Value types](crate#value-types)); `None` for\n    \
             /// a value these bindings do not know, an enum's end marker, or an entry without a value.\n    \
             pub const fn value_type(self) -> Option<ValueType> {{\n        \
             match self.typed() {{\n            Some(e) => Some(e.value_type),\n            None => None,\n        }}\n    }}\n    \
             /// This attribute's entry of [`VALUE_TYPES`]: its value type, getters and setters.\n    \
             pub const fn typed(self) -> Option<&'static TypedEnumerator> {{\n        \
             crate::value_type::entry({first}, {end}, self.0 as i64)\n    }}\n}}"
        );
    }
    render_names(bindings, &mut out);
    render_bitmasks(&bindings.bitmasks, &mut out);
    out
}
