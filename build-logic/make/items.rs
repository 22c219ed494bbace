//! The generated bindings read back with `syn`: the functions, constants and
//! types that were bound. Everything derived from the bindings (plain-name
//! aliases, value types, the dynamic-loading wrappers, the stand-in library,
//! and systest's ABI check) starts from this one list, so it can never name an
//! item that was not generated. Where each member of a record is, and which
//! enums are bit masks: [`members`].

use std::collections::BTreeMap;

use quote::ToTokens;

use crate::make::c_types::doc;
use crate::model::{Error, Result};

pub mod members;
pub(crate) use members::is_integer;
pub use members::{all, bitmasks, Member};

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

/// The rename of `pub use self::X as Y;`, as bindgen writes a typedef of an enum.
fn renamed(u: &syn::ItemUse) -> Option<&syn::UseRename> {
    match &u.tree {
        syn::UseTree::Path(syn::UsePath { tree, .. }) => match &**tree {
            syn::UseTree::Rename(r) => Some(r),
            _ => None,
        },
        _ => None,
    }
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
            // `functions! { ... }`, as `OUT_DIR/functions.rs` declares them
            // with `dynamic-loading`.
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

/// The names `items` declare: items, and the enumerators of `impl` blocks
/// (`pregenerated/items.txt`, `OUT_DIR/items.txt`).
pub fn names(items: &[syn::Item]) -> Vec<String> {
    let mut out = Vec::new();
    for item in items {
        match item {
            // `const _: () = ...` (bindgen's layout assertions) names nothing.
            syn::Item::Const(c) if c.ident != "_" => out.push(c.ident.to_string()),
            syn::Item::Struct(s) => out.push(s.ident.to_string()),
            syn::Item::Union(u) => out.push(u.ident.to_string()),
            syn::Item::Type(t) => out.push(t.ident.to_string()),
            syn::Item::Static(s) => out.push(s.ident.to_string()),
            syn::Item::Use(syn::ItemUse { tree: syn::UseTree::Path(p), .. }) => {
                if let syn::UseTree::Rename(r) = &*p.tree {
                    out.push(r.rename.to_string());
                }
            }
            syn::Item::Impl(imp) if imp.trait_.is_none() => {
                out.extend(imp.items.iter().filter_map(|i| match i {
                    syn::ImplItem::Const(c) => Some(c.ident.to_string()),
                    _ => None,
                }));
            }
            _ => {}
        }
    }
    out
}

/// `file` (an interop module's bindgen output, which also holds what its
/// declarations use of `cuda.h`) without every item `bound` (`cuda.h`'s own
/// bindings) already has, by name: what is left is what the module's header
/// adds. Subtracting by name, rather than keeping `cuda.h`'s items out of the
/// run, lets bindgen see them whole (a union of `CUarray`s stays `Copy`).
pub fn without(mut file: syn::File, bound: &Items) -> syn::File {
    let known = |name: &str| bound.has_item(name) || bound.enums.iter().any(|e| e == name);
    let path_name = |ty: &syn::Type| match ty {
        syn::Type::Path(p) => p.path.segments.last().map(|s| s.ident.to_string()),
        _ => None,
    };
    file.items.retain_mut(|item| match item {
        syn::Item::Struct(s) => !known(&s.ident.to_string()),
        syn::Item::Union(u) => !known(&u.ident.to_string()),
        syn::Item::Type(t) => !known(&t.ident.to_string()),
        syn::Item::Use(u) => renamed(u).is_none_or(|r| !known(&r.rename.to_string())),
        syn::Item::Impl(imp) => path_name(&imp.self_ty).is_none_or(|n| !known(&n)),
        // bindgen's layout tests (`const _: () = { size_of::<X>() ... }`) go with their type.
        syn::Item::Const(c) if c.ident == "_" => {
            let text = c.expr.to_token_stream().to_string();
            !text
                .split(":: < ")
                .skip(1)
                .any(|rest| known(rest.split(' ').next().unwrap_or_default()))
        }
        syn::Item::Const(c) => !known(&c.ident.to_string()),
        syn::Item::ForeignMod(block) => {
            block.items.retain(|f| match f {
                syn::ForeignItem::Fn(f) => bound.function(&f.sig.ident.to_string()).is_none(),
                _ => true,
            });
            !block.items.is_empty()
        }
        _ => true,
    });
    file
}

impl Items {
    /// `(size, align)` of each struct and union, as bindgen's layout
    /// assertions say, and of each enum, its integer's.
    pub fn layouts(&self) -> BTreeMap<String, (usize, usize)> {
        let types = crate::make::c_types::Types::new(&self.types, &[], &self.enums, &|_| false);
        let enums = self.enums.iter().filter_map(|e| Some((e.clone(), types.layout(e)?)));
        let enums: Vec<_> = enums.map(|(e, (size, align, _))| (e, (size, align))).collect();
        let mut layouts = types.layouts;
        layouts.extend(enums);
        layouts
    }

    /// The functions as the model keeps them: name and declaration.
    pub fn model_functions(&self) -> Vec<crate::model::Function> {
        let function =
            |f: &Function| crate::model::Function { name: f.name.clone(), decl: f.decl() };
        self.functions.iter().map(function).collect()
    }

    /// The enumerators of the C enums (constants that have an owner), as the model keeps them.
    pub fn model_enumerators(&self) -> Vec<crate::model::Enumerator> {
        let enumerator = |k: &Constant| {
            let owner = k.owner.clone()?;
            Some(crate::model::Enumerator { owner, name: k.name.clone(), value: k.value })
        };
        self.constants.iter().filter_map(enumerator).collect()
    }

    /// Gives the function `name` the documentation `text` where bindgen gave
    /// it none (see `make::reference`).
    pub fn document(&mut self, name: &str, text: &str) {
        if let Some(f) = self.functions.iter_mut().find(|f| f.name == name && f.doc.is_empty()) {
            f.item.attrs.insert(0, syn::parse_quote!(#[doc = #text]));
            f.doc = doc(&f.item.attrs);
        }
    }

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
                if let Some(r) = renamed(u) {
                    self.typedefs.push(r.rename.to_string());
                    self.aliases.push((r.ident.to_string(), r.rename.to_string()));
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
            // `typedef enum X_enum { .. } X;`: libclang gives the enum's comment
            // to the typedef too, and rustdoc would show the re-export's
            // documentation and then the enum's, the same text twice.
            let alias = match item {
                syn::Item::Use(u) => renamed(u).map(|r| (u, r.ident.to_string())),
                _ => None,
            };
            if let Some((u, e)) = alias {
                let mut u = u.clone();
                if doc(&u.attrs) == self.enum_doc(&e) {
                    u.attrs.retain(|a| !a.path().is_ident("doc"));
                }
                out.push_str(&u.to_token_stream().to_string());
            } else {
                out.push_str(&item.to_token_stream().to_string());
            }
            out.push('\n');
        }
        out
    }

    /// The documentation of C enum `name` (bindgen puts it on the newtype).
    pub(crate) fn enum_doc(&self, name: &str) -> String {
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

    pub(crate) fn function(&self, name: &str) -> Option<&Function> {
        self.functions.iter().find(|f| f.name == name)
    }

    pub(crate) fn has_item(&self, name: &str) -> bool {
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
