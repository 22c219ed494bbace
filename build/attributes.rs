//! The value type of every attribute enumerator of the generated bindings.
//! An attribute enum is one a `cu*Get*Attribute*` function (or
//! `cuCtxGetLimit`) takes; each of its enumerators gets its type from, in
//! order:
//! 1. `(value type = T)` at the start of its comment (memory pools, graph memory);
//! 2. the getter's signature: `int *` of `cuDeviceGetAttribute`, `size_t *`
//!    of `cuCtxGetLimit`; a union (`CUlaunchAttributeValue *` of
//!    `cuStreamGetAttribute`) narrowed to the member that the enumerator's
//!    comment, or the member's own, names;
//! 3. this crate's facts table, `attribute_facts.txt`, where the getter takes
//!    `void *` and only its documentation says what it writes.
//!
//! The rest, `None`: an enum's end marker (`CU_DEVICE_ATTRIBUTE_MAX`), an
//! enumerator that takes no value (`CU_LAUNCH_ATTRIBUTE_IGNORE`), and one
//! the table does not know yet.

use std::collections::BTreeMap;

use quote::ToTokens;

use crate::items::Items;
use crate::tables::{facts, Fact, Typed};

/// C's scalar types: `(C name, Rust name, size, signed)`.
const PRIMITIVES: [(&str, &str, usize, Option<bool>); 21] = [
    ("char", "c_char", 1, None),
    ("bool", "bool", 1, None),
    ("unsigned char", "c_uchar", 1, Some(false)),
    ("short", "c_short", 2, Some(true)),
    ("unsigned short", "c_ushort", 2, Some(false)),
    ("int", "c_int", 4, Some(true)),
    ("unsigned int", "c_uint", 4, Some(false)),
    ("long long", "c_longlong", 8, Some(true)),
    ("unsigned long long", "c_ulonglong", 8, Some(false)),
    ("size_t", "usize", 8, Some(false)),
    ("float", "f32", 4, None),
    ("double", "f64", 8, None),
    ("void", "c_void", 0, None),
    ("int8_t", "i8", 1, Some(true)),
    ("uint8_t", "u8", 1, Some(false)),
    ("int16_t", "i16", 2, Some(true)),
    ("uint16_t", "u16", 2, Some(false)),
    ("int32_t", "i32", 4, Some(true)),
    ("uint32_t", "u32", 4, Some(false)),
    ("int64_t", "i64", 8, Some(true)),
    ("uint64_t", "u64", 8, Some(false)),
];

/// Tokens as text without spaces: `*mut::core::ffi::c_int`.
fn text(t: &impl ToTokens) -> String {
    t.to_token_stream().to_string().replace(' ', "")
}

/// What of the bindings' types the derivation looks at.
struct Types<'a> {
    items: &'a Items,
    /// `pub type A = T;` and `pub use self::T as A;`: A -> T.
    aliases: BTreeMap<String, String>,
    /// Newtype enums -> their integer.
    enums: BTreeMap<String, String>,
    /// Structs and unions.
    records: BTreeMap<String, Record>,
    /// bindgen's layout assertions: record -> `(size, align)`.
    layouts: BTreeMap<String, (usize, usize)>,
}

impl<'a> Types<'a> {
    fn new(items: &'a Items) -> Types<'a> {
        let mut t = Types {
            items,
            aliases: BTreeMap::new(),
            enums: BTreeMap::new(),
            records: BTreeMap::new(),
            layouts: BTreeMap::new(),
        };
        for (name, to) in &items.aliases {
            t.aliases.insert(to.clone(), name.clone());
        }
        for item in &items.types {
            match item {
                syn::Item::Type(a) => {
                    t.aliases.insert(a.ident.to_string(), text(&a.ty));
                }
                syn::Item::Struct(s) if items.enums.iter().any(|e| s.ident == e) => {
                    if let Some(f) = s.fields.iter().next() {
                        t.enums.insert(s.ident.to_string(), text(&f.ty));
                    }
                }
                syn::Item::Struct(s) => {
                    let fields = fields(s.fields.iter());
                    t.records.insert(s.ident.to_string(), Record { is_union: false, fields });
                }
                syn::Item::Union(u) => {
                    let fields = fields(u.fields.named.iter());
                    t.records.insert(u.ident.to_string(), Record { is_union: true, fields });
                }
                syn::Item::Const(c) => t.layout_assertions(&c.expr),
                _ => {}
            }
        }
        t
    }

    /// `["Size of X"][size_of::<X>() - 32usize];` and its `Alignment of` twin.
    fn layout_assertions(&mut self, expr: &syn::Expr) {
        let syn::Expr::Block(block) = expr else { return };
        let mut sizes = BTreeMap::new();
        let mut aligns = BTreeMap::new();
        for stmt in &block.block.stmts {
            let syn::Stmt::Expr(syn::Expr::Index(index), _) = stmt else { continue };
            let syn::Expr::Array(label) = &*index.expr else { continue };
            let Some(syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(label), .. })) =
                label.elems.first()
            else {
                continue;
            };
            let syn::Expr::Binary(b) = &*index.index else { continue };
            let syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Int(n), .. }) = &*b.right else {
                continue;
            };
            let Ok(n) = n.base10_parse::<usize>() else { continue };
            let label = label.value();
            if let Some(name) = label.strip_prefix("Size of ") {
                sizes.insert(name.to_string(), n);
            } else if let Some(name) = label.strip_prefix("Alignment of ") {
                aligns.insert(name.to_string(), n);
            }
        }
        for (name, size) in sizes {
            if let Some(align) = aligns.get(&name) {
                self.layouts.insert(name, (size, *align));
            }
        }
    }

    /// A type name through its aliases to what they name.
    fn resolve(&self, ty: &str) -> String {
        let mut ty = ty.trim_start_matches("self::").to_string();
        for _ in 0..16 {
            match self.aliases.get(&ty) {
                Some(next) => ty = next.trim_start_matches("self::").to_string(),
                None => break,
            }
        }
        ty
    }

    fn primitive(rust: &str) -> Option<&'static (&'static str, &'static str, usize, Option<bool>)> {
        let last = rust.rsplit("::").next().unwrap_or(rust);
        PRIMITIVES.iter().find(|p| p.1 == last)
    }

    /// `(size, align, signed)` of a Rust type of the bindings, 64-bit targets.
    fn layout(&self, rust: &str) -> Option<(usize, usize, Option<bool>)> {
        let ty = self.resolve(rust);
        if ty.starts_with('*') || ty.starts_with("::core::option::Option<") {
            return Some((8, 8, None));
        }
        if let Some(inner) = ty.strip_prefix('[').and_then(|t| t.strip_suffix(']')) {
            let (element, count) = inner.rsplit_once(';')?;
            let (size, align, _) = self.layout(element)?;
            return Some((size * count.trim().parse::<usize>().ok()?, align, None));
        }
        if let Some(p) = Self::primitive(&ty).filter(|p| p.2 > 0) {
            return Some((p.2, p.2, p.3));
        }
        if let Some(inner) = self.enums.get(&ty) {
            let (size, align, _) = self.layout(inner)?;
            return Some((size, align, None));
        }
        self.layouts.get(&ty).map(|&(size, align)| (size, align, None))
    }

    /// How C writes a Rust type of the bindings: `int`, `CUcontext`, a
    /// member's anonymous `struct { unsigned int x; ... }`.
    fn c_name(&self, rust: &str) -> String {
        if let Some(pointee) = rust.strip_prefix("*mut").or_else(|| rust.strip_prefix("*const")) {
            return format!("{} *", self.c_name(pointee));
        }
        if let Some(p) = Self::primitive(rust) {
            return p.0.to_string();
        }
        match self.records.get(rust) {
            Some(r) if rust.contains("__bindgen_ty_") => {
                let kind = if r.is_union { "union" } else { "struct" };
                let body: Vec<String> = r
                    .fields
                    .iter()
                    .map(|f| format!("{} {};", self.c_name(&f.ty), f.name))
                    .collect();
                format!("{kind} {{ {} }}", body.join(" "))
            }
            _ => rust.to_string(),
        }
    }

    /// The Rust type of a C type of the facts table.
    fn rust_of(&self, c: &str) -> Option<String> {
        if let Some((element, count)) = c.strip_suffix(']').and_then(|c| c.split_once('[')) {
            return Some(format!("[{}; {count}]", self.rust_of(element)?));
        }
        if let Some(pointee) = c.strip_suffix('*') {
            return Some(format!("*mut {}", self.rust_of(pointee.trim())?));
        }
        match PRIMITIVES.iter().find(|p| p.0 == c) {
            Some(("bool", ..)) => Some("bool".into()),
            Some((_, rust, ..)) if *rust == "usize" => Some("usize".into()),
            Some((_, rust, ..)) => Some(format!("::core::ffi::{rust}")),
            None if self.items.has_item(c) || self.items.enums.iter().any(|e| e == c) => {
                Some(c.to_string())
            }
            None => None,
        }
    }
}

/// A struct or union of the bindings.
struct Record {
    is_union: bool,
    fields: Vec<Field>,
}

/// A named member, its Rust type as text, and its documentation.
struct Field {
    name: String,
    ty: String,
    doc: String,
}

fn fields<'f>(fields: impl Iterator<Item = &'f syn::Field>) -> Vec<Field> {
    fields
        .filter_map(|f| {
            let (ty, doc) = (text(&f.ty), crate::items::doc(&f.attrs));
            Some(Field { name: f.ident.as_ref()?.to_string(), ty, doc })
        })
        .collect()
}

/// A function that reads or writes attributes of an enum, and how it takes them.
struct Accessor<'a> {
    name: &'a str,
    /// The first `*mut T` parameter, for a getter that takes the enum by value.
    out: Option<String>,
}

/// `cu*Get*Attribute*`, `cuCtxGetLimit` and their `Set` twins.
fn verb(name: &str) -> Option<bool> {
    let noun = name.contains("Attribute") || name.contains("Limit");
    match (name.contains("Get"), name.contains("Set")) {
        (true, false) if noun => Some(true),
        (false, true) if noun => Some(false),
        _ => None,
    }
}

/// The value types of every attribute enumerator of `items`.
pub fn find(items: &Items) -> Result<Vec<Typed>, String> {
    let types = Types::new(items);
    let facts = facts();
    // enum -> (getters, setters)
    let mut accessors: BTreeMap<String, (Vec<Accessor>, Vec<Accessor>)> = BTreeMap::new();
    for f in &items.functions {
        let Some(get) = verb(&f.name) else { continue };
        let params: Vec<String> = f
            .item
            .sig
            .inputs
            .iter()
            .filter_map(|a| match a {
                syn::FnArg::Typed(p) => Some(text(&p.ty)),
                syn::FnArg::Receiver(_) => None,
            })
            .collect();
        for p in &params {
            let (by_value, ty) = match p.strip_prefix("*mut").or_else(|| p.strip_prefix("*const")) {
                Some(pointee) => (false, types.resolve(pointee)),
                None => (true, types.resolve(p)),
            };
            if !items.enums.contains(&ty) {
                continue;
            }
            let out = by_value
                .then(|| params.iter().find(|q| q.starts_with("*mut")))
                .flatten()
                .map(|q| q["*mut".len()..].to_string());
            let (getters, setters) = accessors.entry(ty).or_default();
            let list = if get { getters } else { setters };
            list.push(Accessor { name: &f.name, out });
            break;
        }
    }
    let launches: Vec<&str> = items
        .functions
        .iter()
        .map(|f| f.name.as_str())
        .filter(|n| n.starts_with("cuLaunchKernelEx"))
        .collect();
    let mut typed = Vec::new();
    for (owner, (getters, setters)) in &accessors {
        if getters.is_empty() {
            continue;
        }
        let enumerators: Vec<_> =
            items.constants.iter().filter(|k| k.owner.as_deref() == Some(owner)).collect();
        let last = enumerators.iter().filter_map(|k| k.value).max();
        for k in &enumerators {
            let fact = facts.iter().find(|f| f.enumerator == k.name);
            let declared = declared_type(&k.doc);
            // The end marker of an enum, never an attribute.
            if declared.is_none() && k.name.ends_with("_MAX") && k.value == last {
                continue;
            }
            let Some(value) = value_of(&types, k, declared, getters, fact) else { continue };
            let valid = valid_for(&k.doc);
            let kind_of = |name: &str| {
                if name.contains("Stream") {
                    "streams"
                } else if name.contains("GraphKernelNode") {
                    "graph nodes"
                } else {
                    ""
                }
            };
            let allowed = |name: &str| valid.as_ref().is_none_or(|v| v.contains(&kind_of(name)));
            let mut readers: Vec<String> =
                getters.iter().map(|g| g.name).filter(|n| allowed(n)).map(str::to_string).collect();
            readers.dedup();
            let mut writers: Vec<String> = setters
                .iter()
                .map(|s| s.name)
                .filter(|n| {
                    if valid.is_some() || value.member.is_some() {
                        // Launch attributes: where their comment says they apply.
                        allowed(n)
                    } else {
                        // Others: the setter's documentation lists those it takes.
                        items.function(n).is_some_and(|f| f.doc.contains(&format!("`{}`", k.name)))
                    }
                })
                .map(str::to_string)
                .collect();
            if valid.as_ref().is_some_and(|v| v.contains(&"launches")) {
                writers.extend(launches.iter().map(|n| n.to_string()));
            }
            let lower = value.description.to_ascii_lowercase();
            let reset_only = !writers.is_empty()
                && lower.contains("reset")
                && (lower.contains("to zero") || lower.contains("to 0"));
            let rust_type = types.rust_of_value(&value);
            let layout = rust_type.as_deref().and_then(|r| types.layout(r));
            typed.push(Typed {
                owner: owner.clone(),
                name: k.name.clone(),
                c_type: value.c_type,
                layout: layout.map(|(size, align, _)| (size, align)),
                signed: layout.and_then(|l| l.2).filter(|_| value.shape != "boolean"),
                rust_type,
                shape: value.shape.to_string(),
                member: value.member,
                getters: readers,
                setters: writers,
                reset_only,
                source: value.source,
                description: value.description.split_whitespace().collect::<Vec<_>>().join(" "),
            });
        }
    }
    // In the header's order, enum by enum as the bindings declare them.
    let position = |name: &str| items.constants.iter().position(|k| k.name == name);
    typed.sort_by_key(|t| position(&t.name));
    Ok(typed)
}

/// An enumerator's value as one of the three sources gives it.
struct Value<'a> {
    c_type: String,
    /// The Rust type, where it is not the C type's own.
    rust_type: Option<String>,
    shape: &'a str,
    member: Option<String>,
    source: String,
    description: &'a str,
}

impl Types<'_> {
    fn rust_of_value(&self, v: &Value) -> Option<String> {
        v.rust_type.clone().or_else(|| self.rust_of(&v.c_type))
    }
}

fn value_of<'a>(
    types: &Types,
    k: &'a crate::items::Constant,
    declared: Option<(&'a str, &'a str)>,
    getters: &[Accessor],
    fact: Option<&Fact<'a>>,
) -> Option<Value<'a>> {
    if let Some((ty, description)) = declared {
        return Some(Value {
            c_type: ty.to_string(),
            rust_type: None,
            shape: "scalar",
            member: None,
            source: "comment".into(),
            description,
        });
    }
    let from_fact = |f: &Fact<'a>| format!("{} {}", f.evidence, f.line);
    let out = getters.iter().find_map(|g| g.out.as_deref()).map(|t| types.resolve(t));
    match out {
        Some(t) if Types::primitive(&t).is_some_and(|p| p.2 == 0) => {}
        // A union: the member the comments or the facts name.
        Some(t) if types.records.get(&t).is_some_and(|r| r.is_union) => {
            let fields = &types.records[&t].fields;
            let aliases: Vec<&String> = types
                .aliases
                .iter()
                .filter(|(_, to)| types.resolve(to) == t)
                .map(|(from, _)| from)
                .chain([&t])
                .collect();
            let by_comment = named_member(&k.doc, &aliases, fields).or_else(|| {
                let mention = format!("`{}`", k.name);
                fields
                    .iter()
                    .find(|f| first_enumerator(&f.doc).as_deref() == Some(&mention))
                    .map(|f| f.name.clone())
            });
            let (member, source) = match (by_comment, fact) {
                (Some(m), _) => (m, "signature".to_string()),
                (None, Some(f)) if f.ty.starts_with('.') => (f.ty[1..].to_string(), from_fact(f)),
                _ => return None,
            };
            let ty = &fields.iter().find(|f| f.name == member)?.ty;
            return Some(Value {
                c_type: types.c_name(ty),
                rust_type: Some(ty.clone()),
                shape: "scalar",
                member: Some(member),
                source,
                description: "",
            });
        }
        Some(t) => {
            return Some(Value {
                c_type: types.c_name(&t),
                rust_type: Some(t),
                shape: "scalar",
                member: None,
                source: "signature".into(),
                description: "",
            })
        }
        None => {}
    }
    let f = fact.filter(|f| f.ty != "-" && !f.ty.starts_with('.'))?;
    Some(Value {
        c_type: f.ty.to_string(),
        rust_type: None,
        shape: f.shape,
        member: None,
        source: from_fact(f),
        description: "",
    })
}

/// The first `Union::member` an enumerator's comment names, of the union's
/// members (the comment converter writes some as `` `Union``member` ``).
fn named_member(doc: &str, unions: &[&String], fields: &[Field]) -> Option<String> {
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut words: Vec<(usize, usize)> = Vec::new();
    let mut start = None;
    for (i, c) in doc.char_indices().chain([(doc.len(), ' ')]) {
        match (word(c), start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                words.push((s, i));
                start = None;
            }
            _ => {}
        }
    }
    words.windows(2).find_map(|w| {
        let (union, gap, member) =
            (&doc[w[0].0..w[0].1], &doc[w[0].1..w[1].0], &doc[w[1].0..w[1].1]);
        let joined = gap.contains("::") || gap == "``";
        (joined && unions.iter().any(|u| *u == union) && fields.iter().any(|f| f.name == member))
            .then(|| member.to_string())
    })
}

/// The first `` `CU_...` `` a member's documentation names.
fn first_enumerator(doc: &str) -> Option<String> {
    let at = doc.find("`CU_")?;
    let end = doc[at + 1..].find('`')?;
    Some(doc[at..at + end + 2].to_string())
}

/// `Valid for streams, graph nodes, launches.` of a launch attribute's comment.
fn valid_for(doc: &str) -> Option<Vec<&'static str>> {
    let rest = &doc[doc.find("Valid for ")? + "Valid for ".len()..];
    let sentence = &rest[..rest.find('.').unwrap_or(rest.len())];
    Some(
        ["streams", "graph nodes", "launches"]
            .into_iter()
            .filter(|kind| sentence.contains(kind))
            .collect(),
    )
}

/// `(value type = T)` at the start of a comment.
fn declared_type(doc: &str) -> Option<(&str, &str)> {
    let rest = doc.trim_start().strip_prefix("(value type")?.trim_start().strip_prefix('=')?;
    let (ty, description) = rest.split_once(')')?;
    Some((ty.trim(), description))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_facts_table_reads() {
        let facts = facts();
        assert!(facts.iter().any(|f| f.enumerator == "CU_POINTER_ATTRIBUTE_ALLOWED_HANDLE_TYPES"));
        for f in &facts {
            assert!(
                ["scalar", "boolean", "array", "string"].contains(&f.shape),
                "{}",
                f.enumerator
            );
            assert!(["documented", "measured", "named"].contains(&f.evidence), "{}", f.enumerator);
            assert!(crate::release::parse_version(f.line.split(':').next().unwrap()).is_some());
        }
    }

    #[test]
    fn comments_name_members_and_validity() {
        let field = |name: &str| Field { name: name.into(), ty: String::new(), doc: String::new() };
        let fields = vec![field("clusterDim"), field("preferredClusterDim")];
        let union = "CUlaunchAttributeValue".to_string();
        let doc =
            "Valid for graph nodes, launches. Set `CUlaunchAttributeValue::preferredClusterDim` \
                   beside `CUlaunchAttributeValue::clusterDim`.";
        assert_eq!(named_member(doc, &[&union], &fields).as_deref(), Some("preferredClusterDim"));
        let doc = "Valid for graph nodes, launches. See `CUlaunchAttributeValue``clusterDim`.";
        assert_eq!(named_member(doc, &[&union], &fields).as_deref(), Some("clusterDim"));
        assert_eq!(
            named_member("`CUlaunchAttributeValue` and clusterDim", &[&union], &fields),
            None
        );
        assert_eq!(valid_for(doc), Some(vec!["graph nodes", "launches"]));
        assert_eq!(valid_for("Ignored entry"), None);
        assert_eq!(
            first_enumerator(
                "Value of launch attribute `CU_LAUNCH_ATTRIBUTE_PRIORITY`. See `CU_X`"
            )
            .as_deref(),
            Some("`CU_LAUNCH_ATTRIBUTE_PRIORITY`")
        );
        assert_eq!(verb("cuDeviceGetAttribute"), Some(true));
        assert_eq!(verb("cuCtxSetLimit"), Some(false));
        assert_eq!(verb("cuMemGetAllocationGranularity"), None);
    }
}
