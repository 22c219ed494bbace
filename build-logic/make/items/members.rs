//! Where each member of a struct or union is, bindgen's anonymous fields
//! (`__bindgen_anon_N`, C's anonymous unions and structs) seen through: C's
//! `loc.id` is `loc.__bindgen_anon_1.id` in Rust. `cargo xtask pregenerate`
//! finds with it the members that moved between releases; the build script,
//! where such a member is in the bindings it generated. And which C enums are
//! bit masks (`is_bitmask`).

use super::*;

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

pub(crate) fn is_integer(ty: &syn::Type) -> bool {
    let syn::Type::Path(p) = ty else { return false };
    p.path
        .segments
        .last()
        .map(|s| INTEGER_TYPES.contains(&s.ident.to_string().as_str()))
        .unwrap_or(false)
}

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
pub(crate) fn is_bitmask(name: &str, doc: &str, enumerators: &[(&str, i128)]) -> bool {
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
pub fn bitmasks(items: &crate::make::items::Items) -> Vec<String> {
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
