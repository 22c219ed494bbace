//! Where each member of a struct or union is, bindgen's anonymous fields
//! (`__bindgen_anon_N`, C's anonymous unions and structs) seen through: C's
//! `loc.id` is `loc.__bindgen_anon_1.id` in Rust. `cargo xtask pregenerate`
//! finds with it the members that moved between releases; the build script,
//! where such a member is in the bindings it generated.

use std::collections::BTreeMap;

use quote::ToTokens;

/// A member as C names it (`record.name`), and how Rust reaches it.
pub struct Member {
    pub record: String,
    pub name: String,
    /// `id`, or `__bindgen_anon_1.id`.
    pub path: String,
    /// Its Rust type, as tokens.
    pub ty: String,
    /// Whether that type is an integer, any bits of which are a value.
    pub integer: bool,
}

/// Every named member of every struct and union of `items`.
pub fn all(items: &[syn::Item]) -> Vec<Member> {
    let mut records = BTreeMap::new();
    for item in items {
        let (name, fields): (_, Vec<&syn::Field>) = match item {
            syn::Item::Struct(s) => (&s.ident, s.fields.iter().collect()),
            syn::Item::Union(u) => (&u.ident, u.fields.named.iter().collect()),
            _ => continue,
        };
        let fields: Vec<(String, &syn::Type)> = fields
            .into_iter()
            .filter_map(|f| Some((f.ident.as_ref()?.to_string(), &f.ty)))
            .collect();
        records.insert(name.to_string(), fields);
    }
    let mut out = Vec::new();
    for record in records.keys().filter(|r| !r.contains("__bindgen_")) {
        walk(&records, record, record, "", &mut out);
    }
    out
}

fn walk(
    records: &BTreeMap<String, Vec<(String, &syn::Type)>>,
    record: &str,
    at: &str,
    prefix: &str,
    out: &mut Vec<Member>,
) {
    for (field, ty) in records.get(at).into_iter().flatten() {
        let path = format!("{prefix}{field}");
        let text = ty.to_token_stream().to_string();
        if field.starts_with("__bindgen_anon_") && records.contains_key(&text) {
            walk(records, record, &text, &format!("{path}."), out);
        } else {
            let integer = is_integer(ty);
            out.push(Member {
                record: record.into(),
                name: field.clone(),
                path,
                ty: text,
                integer,
            });
        }
    }
}

/// Rust's integer types and the `core::ffi` names bindgen gives C's (a macro
/// bindgen was told is unsigned comes out as `c_uint`).
const INTEGER_TYPES: [&str; 17] = [
    "u8",
    "u16",
    "u32",
    "u64",
    "i8",
    "i16",
    "i32",
    "i64",
    "c_char",
    "c_schar",
    "c_uchar",
    "c_int",
    "c_uint",
    "c_long",
    "c_ulong",
    "c_longlong",
    "c_ulonglong",
];

pub fn is_integer(ty: &syn::Type) -> bool {
    let syn::Type::Path(p) = ty else { return false };
    p.path
        .segments
        .last()
        .map(|s| INTEGER_TYPES.contains(&s.ident.to_string().as_str()))
        .unwrap_or(false)
}
