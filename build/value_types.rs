//! Value types as data. The header documents the C type behind each attribute
//! enumerator as `(value type = T)` at the start of its comment; reading an
//! `int` attribute into a 64-bit buffer gives garbage in the upper half, so a
//! wrapper needs the type of every attribute, new ones included. This step
//! turns those comments into a table, `OUT_DIR/value_types.rs`, together with
//! `name()` for every C enum.

use std::fmt::Write;

use crate::output::Bindings;

/// The enumerators with a value type, from the generated bindings.
#[cfg(feature = "bindgen")]
pub fn find(items: &crate::items::Items) -> Vec<crate::output::Typed> {
    let mut typed = Vec::new();
    for k in &items.constants {
        let Some(owner) = &k.owner else { continue };
        let Some((ty, description)) = declared_type(&k.doc) else {
            continue;
        };
        let setter = items
            .functions
            .iter()
            .find(|f| {
                f.name.contains("Set")
                    && f.name.contains("Attribute")
                    && f.doc.contains(&format!("`{}`", k.name))
            })
            .map(|f| f.name.clone());
        // Kept as a flag so that it survives where the descriptions do not (the pregenerated set).
        let lower = description.to_ascii_lowercase();
        let reset_only = setter.is_some()
            && lower.contains("reset")
            && (lower.contains("to zero") || lower.contains("to 0"));
        typed.push(crate::output::Typed {
            owner: owner.clone(),
            name: k.name.clone(),
            c_type: ty.to_string(),
            size_type: size_type(items, ty),
            setter,
            reset_only,
            description: description.split_whitespace().collect::<Vec<_>>().join(" "),
        });
    }
    typed
}

/// Whether a C enum is a bit mask, which gets `|`, `&` and their assignments:
/// `cuda.h` calls it a set of flags, and its values allow it. Either its name
/// says flags (`CUctx_flags`, `CUgraphicsRegisterFlags`), or its comment starts
/// with "Flags for" or "Bitmask" and each of its enumerators, but 0 and the
/// `0x7FFFFFFF` sentinel, is a single bit (`CUmemAllocationHandleType`). The
/// second condition keeps out what the header loosely calls flags but numbers
/// 1, 2, 3 (`CUcoredumpSettings`).
#[cfg(feature = "bindgen")]
pub fn is_bitmask(name: &str, doc: &str, values: &[i128]) -> bool {
    if name.to_ascii_lowercase().contains("flag") {
        return true;
    }
    let doc = doc.trim_start();
    (doc.starts_with("Flags for") || doc.starts_with("Bitmask"))
        && values
            .iter()
            .filter(|v| **v != 0 && **v != 0x7FFF_FFFF)
            .all(|v| *v > 0 && v.count_ones() == 1)
}

/// The enums of the generated bindings that are bit masks.
#[cfg(feature = "bindgen")]
pub fn bitmasks(items: &crate::items::Items) -> Vec<String> {
    items
        .enums
        .iter()
        .filter(|e| {
            let values: Vec<i128> = items
                .constants
                .iter()
                .filter(|k| k.owner.as_ref() == Some(*e))
                .filter_map(|k| k.value)
                .collect();
            is_bitmask(e, &items.enum_doc(e), &values)
        })
        .cloned()
        .collect()
}

/// `(value type = T)` at the start of a comment.
#[cfg(feature = "bindgen")]
fn declared_type(doc: &str) -> Option<(&str, &str)> {
    let rest = doc.trim_start().strip_prefix("(value type")?.trim_start().strip_prefix('=')?;
    let (ty, description) = rest.split_once(')')?;
    Some((ty.trim(), description))
}

/// The Rust type of the same size as C type `ty`, when the bindings have it.
#[cfg(feature = "bindgen")]
fn size_type(items: &crate::items::Items, ty: &str) -> Option<String> {
    let primitive = match ty {
        "int" => Some("::core::ffi::c_int"),
        "unsigned int" => Some("::core::ffi::c_uint"),
        "size_t" => Some("usize"),
        _ => None,
    };
    match primitive {
        Some(p) => Some(p.to_string()),
        None if items.has_item(ty) || items.enums.iter().any(|e| e == ty) => Some(ty.to_string()),
        None => None,
    }
}

/// `name()` and `Debug` for every C enum: the enumerator's name for a value
/// (the first one the header lists, where two share a value: `cuda.h` lists
/// the current name before the deprecated ones), `None` for a value the
/// header does not list; `Debug` shows it under the C typedef's name.
fn render_names(bindings: &Bindings, out: &mut String) {
    let mut owners: Vec<&str> = Vec::new();
    for (owner, _) in &bindings.enumerators {
        if !owners.contains(&owner.as_str()) {
            owners.push(owner);
        }
    }
    for owner in owners {
        let names: Vec<&str> = bindings
            .enumerators
            .iter()
            .filter(|(o, _)| o == owner)
            .map(|(_, n)| n.as_str())
            .collect();
        let _ = writeln!(
            out,
            "impl {owner} {{\n    /// The name of this value's enumerator in the header, `None` for a value\n    /// the header does not list (from a newer driver, say).\n    pub const fn name(self) -> Option<&'static str> {{\n        match self.0 {{"
        );
        let mut seen = Vec::new();
        for name in &names {
            if !seen.contains(name) {
                let _ = writeln!(out, "            v if v == Self::{name}.0 => Some(\"{name}\"),");
                seen.push(name);
            }
        }
        out.push_str("            _ => None,\n        }\n    }\n}\n");
        let shown = bindings
            .aliases
            .iter()
            .find(|(e, _)| e == owner)
            .map_or(owner, |(_, alias)| alias.as_str());
        let bits: String = if bindings.bitmasks.iter().any(|m| m == owner) {
            names.iter().map(|n| format!("(\"{n}\", Self::{n}.0 as i64), ")).collect()
        } else {
            String::new()
        };
        let _ = writeln!(
            out,
            "impl ::core::fmt::Debug for {owner} {{\n    fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {{\n        crate::enums::fmt_enumerator(f, \"{shown}\", self.name(), self.0 as i64, &[{bits}])\n    }}\n}}"
        );
    }
}

/// `BITMASKS`, and the operators of each.
fn render_bitmasks(bitmasks: &[String], out: &mut String) {
    out.push_str("/// The C enums `cuda.h` uses as bit masks: each has `|`, `|=`, `&`, `&=` and\n/// `contains`, and its `Debug` lists the bits of a combination. An enum is one\n/// when the header calls it a set of flags and its values allow it: its name\n/// says flags (`CUctx_flags`), or its comment starts with \"Flags for\" or\n/// \"Bitmask\" and each enumerator but 0 and the `0x7FFFFFFF` sentinel is a\n/// single bit (`CUmemAllocationHandleType`).\npub const BITMASKS: &[&str] = &[\n");
    for m in bitmasks {
        let _ = writeln!(out, "    \"{m}\",");
    }
    out.push_str("];\n");
    if !bitmasks.is_empty() {
        let _ = writeln!(out, "bitmask!({});", bitmasks.join(", "));
    }
}

pub fn render(bindings: &Bindings) -> String {
    let typed = &bindings.typed;
    let mut out = String::from("/// Every enumerator whose header documentation declares `(value type = T)`.\npub const VALUE_TYPES: &[TypedEnumerator] = &[\n");
    let mut per_enum: Vec<(&str, Vec<(&str, String)>)> = Vec::new();
    for t in typed {
        let size = t
            .size_type
            .as_ref()
            .map_or("None".to_string(), |s| format!("Some(::core::mem::size_of::<{s}>())"));
        let setter = t.setter.as_ref().map_or("None".to_string(), |s| format!("Some({s:?})"));
        let _ = writeln!(
            out,
            "    TypedEnumerator {{ enumeration: \"{owner}\", name: \"{n}\", value: {owner}::{n}.0 as i64, value_type: ValueType {{ c_name: \"{ty}\", size: {size} }}, setter: {setter}, reset_only: {reset_only}, description: {d:?} }},",
            owner = t.owner,
            n = t.name,
            ty = t.c_type,
            reset_only = t.reset_only,
            d = t.description,
        );
        let arm = format!("Some(ValueType {{ c_name: \"{}\", size: {size} }})", t.c_type);
        match per_enum.iter_mut().find(|(e, _)| *e == t.owner) {
            Some((_, arms)) => arms.push((&t.name, arm)),
            None => per_enum.push((&t.owner, vec![(&t.name, arm)])),
        }
    }
    out.push_str("];\n");
    for (owner, arms) in per_enum {
        let _ = writeln!(
            out,
            "impl {owner} {{\n    /// The C type of this attribute's value, as the header documents it\n    /// (`None` for a value the header declares no type for, such as one newer than\n    /// these bindings).\n    pub const fn value_type(self) -> Option<ValueType> {{\n        match self {{"
        );
        for (name, arm) in arms {
            let _ = writeln!(out, "            Self::{name} => {arm},");
        }
        out.push_str("            _ => None,\n        }\n    }\n}\n");
    }
    render_names(bindings, &mut out);
    render_bitmasks(&bindings.bitmasks, &mut out);
    out
}
