//! Value types as data. The header documents the C type behind each attribute
//! enumerator as `(value type = T)` at the start of its comment; reading an
//! `int` attribute into a 64-bit buffer gives garbage in the upper half, so a
//! wrapper needs the type of every attribute, new ones included. This step
//! turns those comments into a table, `OUT_DIR/value_types.rs`.

use std::fmt::Write;

use crate::items::Items;

/// `(value type = T)` at the start of a comment.
fn declared_type(doc: &str) -> Option<(&str, &str)> {
    let rest = doc
        .trim_start()
        .strip_prefix("(value type")?
        .trim_start()
        .strip_prefix('=')?;
    let (ty, description) = rest.split_once(')')?;
    Some((ty.trim(), description))
}

/// The Rust expression for the size of C type `ty`, when the bindings have it.
fn size_of(items: &Items, ty: &str) -> Option<String> {
    let primitive = match ty {
        "int" => Some("::core::ffi::c_int"),
        "unsigned int" => Some("::core::ffi::c_uint"),
        "size_t" => Some("usize"),
        _ => None,
    };
    let rust = match primitive {
        Some(p) => p.to_string(),
        None if items.has_item(ty) || items.enums.iter().any(|e| e == ty) => ty.to_string(),
        None => return None,
    };
    Some(format!("::core::mem::size_of::<{rust}>()"))
}

/// One paragraph, for a one-line description in tables.
fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn escape(text: &str) -> String {
    text.replace('\\', "\\\\").replace('"', "\\\"")
}

/// `name()` for every C enum: the enumerator's name for a value (the first one
/// the header lists, where two share a value), `None` for a value the header
/// does not list.
fn render_names(items: &Items, out: &mut String) {
    for owner in &items.enums {
        let mut seen = Vec::new();
        let _ = writeln!(
            out,
            "impl {owner} {{\n    /// The name of this value's enumerator in the header, `None` for a value\n    /// the header does not list (from a newer driver, say).\n    pub const fn name(self) -> Option<&'static str> {{\n        match self.0 {{"
        );
        for k in items
            .constants
            .iter()
            .filter(|k| k.owner.as_deref() == Some(owner))
        {
            if !seen.contains(&k.name) {
                let _ = writeln!(
                    out,
                    "            v if v == Self::{n}.0 => Some(\"{n}\"),",
                    n = k.name
                );
                seen.push(k.name.clone());
            }
        }
        out.push_str("            _ => None,\n        }\n    }\n}\n");
    }
}

pub fn render(items: &Items) -> String {
    let mut out = String::from("/// Every enumerator whose header documentation declares `(value type = T)`.\npub const VALUE_TYPES: &[TypedEnumerator] = &[\n");
    let mut per_enum: Vec<(String, Vec<(String, String)>)> = Vec::new();
    for k in &items.constants {
        let Some(owner) = &k.owner else { continue };
        let Some((ty, description)) = declared_type(&k.doc) else {
            continue;
        };
        let size = size_of(items, ty)
            .map(|s| format!("Some({s})"))
            .unwrap_or_else(|| "None".into());
        let setter = items
            .functions
            .iter()
            .find(|f| {
                f.name.contains("Set")
                    && f.name.contains("Attribute")
                    && f.doc.contains(&format!("`{}`", k.name))
            })
            .map(|f| format!("Some(\"{}\")", f.name))
            .unwrap_or_else(|| "None".into());
        // Kept as a flag so that it survives where the descriptions do not (the shipped set).
        let lower = description.to_ascii_lowercase();
        let reset_only = setter != "None"
            && lower.contains("reset")
            && (lower.contains("to zero") || lower.contains("to 0"));
        let _ = writeln!(
            out,
            "    TypedEnumerator {{ enumeration: \"{owner}\", name: \"{n}\", value: {owner}::{n}.0 as i64, value_type: ValueType {{ c_name: \"{ty}\", size: {size} }}, setter: {setter}, reset_only: {reset_only}, description: \"{d}\" }},",
            n = k.name,
            d = escape(&one_line(description)),
        );
        let arm = format!("Some(ValueType {{ c_name: \"{ty}\", size: {size} }})");
        match per_enum.iter_mut().find(|(e, _)| e == owner) {
            Some((_, arms)) => arms.push((k.name.clone(), arm)),
            None => per_enum.push((owner.clone(), vec![(k.name.clone(), arm)])),
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
    render_names(items, &mut out);
    out
}
