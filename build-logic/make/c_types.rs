//! C types as the attribute getters name them: the scalar types with their
//! size, alignment and signedness, and the bound typedefs, structs and unions
//! resolved to them, for `attributes`; and the two readings of syn's tree
//! that `items` shares: tokens as text, and doc comments.

use std::collections::BTreeMap;

use quote::ToTokens;

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

/// The doc comment of an item or field, its lines joined.
pub(crate) fn doc(attrs: &[syn::Attribute]) -> String {
    let lines = attrs.iter().filter(|a| a.path().is_ident("doc")).filter_map(|a| match &a.meta {
        syn::Meta::NameValue(syn::MetaNameValue {
            value: syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(s), .. }),
            ..
        }) => Some(s.value()),
        _ => None,
    });
    lines.collect::<Vec<_>>().join("\n")
}

/// Tokens as text without spaces: `*mut::core::ffi::c_int`.
pub(crate) fn text(t: &impl ToTokens) -> String {
    t.to_token_stream().to_string().replace(' ', "")
}

/// What of the bindings' types the derivation looks at.
pub(crate) struct Types<'a> {
    /// Whether a name is one the bindings define (a type, constant or function).
    pub defined: &'a dyn Fn(&str) -> bool,
    /// `pub type A = T;` and `pub use self::T as A;`: A -> T.
    pub aliases: BTreeMap<String, String>,
    /// Newtype enums -> their integer.
    pub enums: BTreeMap<String, String>,
    /// Structs and unions.
    pub records: BTreeMap<String, Record>,
    /// bindgen's layout assertions: record -> `(size, align)`.
    pub layouts: BTreeMap<String, (usize, usize)>,
}

impl<'a> Types<'a> {
    /// `types`: every item but the functions; `aliases`: `(enum, typedef)`;
    /// `enums`: the newtype enums.
    pub fn new(
        types: &[syn::Item],
        aliases: &[(String, String)],
        enums: &[String],
        defined: &'a dyn Fn(&str) -> bool,
    ) -> Types<'a> {
        let mut t = Types {
            defined,
            aliases: BTreeMap::new(),
            enums: BTreeMap::new(),
            records: BTreeMap::new(),
            layouts: BTreeMap::new(),
        };
        for (name, to) in aliases {
            t.aliases.insert(to.clone(), name.clone());
        }
        for item in types {
            match item {
                syn::Item::Type(a) => {
                    t.aliases.insert(a.ident.to_string(), text(&a.ty));
                }
                syn::Item::Struct(s) if enums.iter().any(|e| s.ident == e) => {
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
    pub(crate) fn layout_assertions(&mut self, expr: &syn::Expr) {
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
    pub(crate) fn resolve(&self, ty: &str) -> String {
        let mut ty = ty.trim_start_matches("self::").to_string();
        for _ in 0..16 {
            match self.aliases.get(&ty) {
                Some(next) => ty = next.trim_start_matches("self::").to_string(),
                None => break,
            }
        }
        ty
    }

    pub(crate) fn primitive(
        rust: &str,
    ) -> Option<&'static (&'static str, &'static str, usize, Option<bool>)> {
        let last = rust.rsplit("::").next().unwrap_or(rust);
        PRIMITIVES.iter().find(|p| p.1 == last)
    }

    /// `(size, align, signed)` of a Rust type of the bindings, 64-bit targets.
    pub(crate) fn layout(&self, rust: &str) -> Option<(usize, usize, Option<bool>)> {
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
    pub(crate) fn c_name(&self, rust: &str) -> String {
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
    pub(crate) fn rust_of(&self, c: &str) -> Option<String> {
        if let Some((element, count)) = c.strip_suffix(']').and_then(|c| c.split_once('[')) {
            return Some(format!("[{}; {count}]", self.rust_of(element)?));
        }
        if let Some(pointee) = c.strip_suffix('*') {
            return Some(format!("*mut {}", self.rust_of(pointee.trim())?));
        }
        // `const char *`: the pointee's constness changes no layout.
        let c = c.strip_prefix("const ").unwrap_or(c);
        match PRIMITIVES.iter().find(|p| p.0 == c) {
            Some((_, rust, ..)) if rust.starts_with("c_") => Some(format!("::core::ffi::{rust}")),
            Some((_, rust, ..)) => Some(rust.to_string()),
            None if (self.defined)(c) => Some(c.to_string()),
            None => None,
        }
    }
}

/// A pub struct or union of the bindings.
pub(crate) struct Record {
    pub is_union: bool,
    pub fields: Vec<Field>,
}

/// A named member, its Rust type as text, and its documentation.
pub(crate) struct Field {
    pub name: String,
    pub ty: String,
    pub doc: String,
}

pub(crate) fn fields<'f>(fields: impl Iterator<Item = &'f syn::Field>) -> Vec<Field> {
    fields
        .filter_map(|f| {
            let (ty, doc) = (text(&f.ty), doc(&f.attrs));
            Some(Field { name: f.ident.as_ref()?.to_string(), ty, doc })
        })
        .collect()
}
