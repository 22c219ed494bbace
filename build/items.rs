//! The generated bindings read back with `syn`: the functions, constants and
//! types that were bound. Everything derived from the bindings (plain-name
//! aliases, value types, the dynamic-loading wrappers, the stand-in library,
//! and systest's ABI check) starts from this one list, so it can never name an
//! item that was not generated.

use quote::ToTokens;

use crate::error::{Error, Result};
use crate::members::is_integer;

pub struct Function {
    pub name: String,
    /// The header's documentation, as rustdoc will show it.
    pub doc: String,
    /// The declaration as bindgen wrote it.
    pub item: syn::ForeignItemFn,
}

impl Function {
    /// The declaration as Rust source.
    pub fn decl(&self) -> String {
        self.item.to_token_stream().to_string()
    }
}

/// A struct or union; systest's ABI check reads its layout fields.
pub struct Record {
    pub name: String,
    pub is_union: bool,
    /// Declared but not defined in C (`struct CUctx_st;`): no size to compare.
    pub opaque: bool,
    /// Named fields as `(rust name, C name)`; bindgen's own fields
    /// (`__bindgen_anon_N`, `_bitfield_N`) have no C name and are left out.
    pub fields: Vec<(String, String)>,
}

/// An integer constant: either `pub const NAME` (a `#define`) or an enumerator,
/// `Enum::NAME` of a newtype enum.
pub struct Constant {
    pub name: String,
    pub owner: Option<String>,
    pub doc: String,
    /// An enumerator's value, where it is a literal (`Owner(0x4)`).
    pub value: Option<i128>,
}

#[derive(Default)]
pub struct Items {
    /// Every item but the functions, as bound.
    pub types: Vec<syn::Item>,
    pub functions: Vec<Function>,
    pub records: Vec<Record>,
    pub constants: Vec<Constant>,
    /// Type aliases and newtype enums: C typedef and enum names.
    pub typedefs: Vec<String>,
    pub enums: Vec<String>,
    /// `(enum, typedef)` of `typedef enum X_enum { .. } X;`.
    pub aliases: Vec<(String, String)>,
}

/// Parses Rust source (the build script's own output, read again by systest).
#[allow(dead_code)]
pub fn parse(code: &str) -> Result<syn::File> {
    syn::parse_file(code)
        .map_err(|e| Error::new("the generated bindings do not parse as Rust", e.to_string()))
}

pub fn read(file: syn::File) -> Result<Items> {
    let mut items = Items::default();
    for item in file.items {
        let block = match item {
            syn::Item::ForeignMod(block) => block,
            // `functions! { ... }`, as `OUT_DIR/functions.rs` declares them.
            syn::Item::Macro(m) if m.mac.path.is_ident("functions") => {
                let tokens = m.mac.tokens;
                syn::parse2(quote::quote!(extern "C" { #tokens })).map_err(|e| {
                    Error::new("the generated functions do not parse as Rust", e.to_string())
                })?
            }
            other => {
                items.classify(&other);
                items.types.push(other);
                continue;
            }
        };
        for f in block.items {
            if let syn::ForeignItem::Fn(f) = f {
                items.functions.push(Function {
                    name: f.sig.ident.to_string(),
                    doc: doc(&f.attrs),
                    item: f,
                });
            }
        }
    }
    Ok(items)
}

impl Items {
    /// Records what a non-function item declares.
    fn classify(&mut self, item: &syn::Item) {
        match item {
            syn::Item::Struct(s) if is_newtype_enum(s) => self.enums.push(s.ident.to_string()),
            syn::Item::Struct(s) => self.records.push(Record {
                name: s.ident.to_string(),
                is_union: false,
                opaque: s.fields.iter().any(|f| f.ident.as_ref().is_some_and(|i| i == "_unused")),
                fields: named_fields(s.fields.iter()),
            }),
            syn::Item::Union(u) => self.records.push(Record {
                name: u.ident.to_string(),
                is_union: true,
                opaque: false,
                fields: named_fields(u.fields.named.iter()),
            }),
            syn::Item::Type(t) => self.typedefs.push(t.ident.to_string()),
            // `typedef enum X_enum { .. } X;` comes out as `pub use self::X_enum as X;`.
            syn::Item::Use(u) => {
                if let syn::UseTree::Path(syn::UsePath { tree, .. }) = &u.tree {
                    if let syn::UseTree::Rename(r) = &**tree {
                        self.typedefs.push(r.rename.to_string());
                        self.aliases.push((r.ident.to_string(), r.rename.to_string()));
                    }
                }
            }
            syn::Item::Const(c) if is_integer(&c.ty) => self.constants.push(Constant {
                name: c.ident.to_string(),
                owner: None,
                doc: doc(&c.attrs),
                value: None,
            }),
            syn::Item::Impl(imp) => {
                let syn::Type::Path(owner) = &*imp.self_ty else {
                    return;
                };
                let owner =
                    owner.path.segments.last().map(|s| s.ident.to_string()).unwrap_or_default();
                for it in &imp.items {
                    if let syn::ImplItem::Const(c) = it {
                        self.constants.push(Constant {
                            name: c.ident.to_string(),
                            owner: Some(owner.clone()),
                            doc: doc(&c.attrs),
                            value: enumerator_value(&c.expr),
                        });
                    }
                }
            }
            _ => {}
        }
    }

    /// `bindings.rs`: everything but the functions.
    pub fn render_types(&self) -> String {
        let mut out = String::new();
        for item in &self.types {
            out.push_str(&item.to_token_stream().to_string());
            out.push('\n');
        }
        out
    }

    /// The documentation of C enum `name` (bindgen puts it on the newtype).
    pub fn enum_doc(&self, name: &str) -> String {
        self.types
            .iter()
            .find_map(|item| match item {
                syn::Item::Struct(s) if s.ident == name => Some(doc(&s.attrs)),
                _ => None,
            })
            .unwrap_or_default()
    }

    /// Leaves `Debug` out of the newtype enums' derives: the crate implements
    /// it with the enumerator's name (`value_types`).
    pub fn drop_enum_debug(&mut self) {
        for item in &mut self.types {
            let syn::Item::Struct(s) = item else { continue };
            if !is_newtype_enum(s) {
                continue;
            }
            for attr in &mut s.attrs {
                if !attr.path().is_ident("derive") {
                    continue;
                }
                let Ok(paths) = attr.parse_args_with(
                    syn::punctuated::Punctuated::<syn::Path, syn::Token![,]>::parse_terminated,
                ) else {
                    continue;
                };
                let kept: Vec<&syn::Path> = paths.iter().filter(|p| !p.is_ident("Debug")).collect();
                *attr = syn::parse_quote!(#[derive(#(#kept),*)]);
            }
        }
    }

    /// The value of `pub const NAME: .. = <integer>;`, a `#define` bindgen bound.
    pub fn define(&self, name: &str) -> Option<i128> {
        self.types.iter().find_map(|item| match item {
            syn::Item::Const(c) if c.ident == name => match &*c.expr {
                syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Int(i), .. }) => i.base10_parse().ok(),
                _ => None,
            },
            _ => None,
        })
    }

    pub fn function(&self, name: &str) -> Option<&Function> {
        self.functions.iter().find(|f| f.name == name)
    }

    pub fn has_item(&self, name: &str) -> bool {
        self.function(name).is_some()
            || self.typedefs.iter().any(|t| t == name)
            || self.records.iter().any(|r| r.name == name)
            || self.constants.iter().any(|c| c.owner.is_none() && c.name == name)
    }
}

/// `Owner(4)`, `Owner(-1)`: the literal inside bindgen's enumerator.
fn enumerator_value(expr: &syn::Expr) -> Option<i128> {
    let syn::Expr::Call(call) = expr else {
        return None;
    };
    match call.args.first()? {
        syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Int(i), .. }) => i.base10_parse().ok(),
        syn::Expr::Unary(syn::ExprUnary { op: syn::UnOp::Neg(_), expr, .. }) => match &**expr {
            syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Int(i), .. }) => {
                i.base10_parse::<i128>().ok().map(|v| -v)
            }
            _ => None,
        },
        _ => None,
    }
}

/// bindgen's newtype enums: `pub struct Name(pub c_uint);` with associated consts.
fn is_newtype_enum(s: &syn::ItemStruct) -> bool {
    matches!(&s.fields, syn::Fields::Unnamed(f) if f.unnamed.len() == 1)
        && s.attrs.iter().any(|a| {
            a.path().is_ident("repr")
                && a.meta
                    .require_list()
                    .map(|l| l.tokens.to_string() == "transparent")
                    .unwrap_or(false)
        })
}

/// Rust keywords bindgen renames by appending `_` (`type` becomes `type_`).
const KEYWORDS: [&str; 12] =
    ["type", "ref", "fn", "match", "loop", "move", "mod", "impl", "use", "where", "crate", "self"];

fn named_fields<'a>(fields: impl Iterator<Item = &'a syn::Field>) -> Vec<(String, String)> {
    fields
        .filter_map(|f| f.ident.as_ref().map(|i| i.to_string()))
        .filter(|n| !n.starts_with("__bindgen") && !n.starts_with("_bitfield") && n != "_unused")
        .map(|n| {
            let c = n.strip_suffix('_').filter(|k| KEYWORDS.contains(k)).unwrap_or(&n).to_string();
            (n, c)
        })
        .collect()
}

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
