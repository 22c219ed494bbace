//! What rustc will compute for the bindings on the target, read from the
//! bindings themselves, for targets whose standard library this machine lacks
//! (so no Rust can be compiled for them here).
//!
//! - Records: bindgen writes libclang's size, alignment and field offsets for
//!   the target into each record's layout test (`["Size of X"][size_of::<X>()
//!   - 16usize]`), a constant that stops the crate compiling on the target if
//!   rustc disagrees. Those numbers are taken as the Rust side.
//! - Typedefs and enums: their size follows from the Rust type they name:
//!   `core::ffi`'s C types (`c_long` is 32-bit on Windows), pointers, arrays,
//!   or another record or typedef.
//! - Constants: the literal bindgen wrote, through the casts and aliases the
//!   bindings spell out.
//!
//! Nothing is assumed about a type that cannot be resolved: it is an error
//! that names it.

use std::collections::HashMap;

/// The target's widths that decide the C types' sizes in Rust.
pub struct Target {
    pub pointer_bytes: u64,
    /// `core::ffi::c_long`: 4 bytes on Windows (LLP64), the pointer's width elsewhere.
    pub long_bytes: u64,
    /// `core::ffi::c_char` is unsigned on aarch64 Linux, signed on the others here.
    pub char_unsigned: bool,
}

impl Target {
    /// From the `CARGO_CFG_TARGET_*` variables Cargo gives a build script.
    pub fn from_cargo() -> Target {
        let pointer_bytes = std::env::var("CARGO_CFG_TARGET_POINTER_WIDTH")
            .ok()
            .and_then(|w| w.parse::<u64>().ok())
            .unwrap_or(64)
            / 8;
        let windows = std::env::var("CARGO_CFG_TARGET_OS").is_ok_and(|os| os == "windows");
        let aarch64 = std::env::var("CARGO_CFG_TARGET_ARCH").is_ok_and(|a| a == "aarch64");
        Target {
            pointer_bytes,
            long_bytes: if windows { 4 } else { pointer_bytes },
            char_unsigned: aarch64 && !windows,
        }
    }
}

#[derive(Default)]
pub struct Layout {
    pointer: u64,
    long: u64,
    char_unsigned: bool,
    /// `(size, align)` of each record, from its layout test.
    records: HashMap<String, (Option<u64>, Option<u64>)>,
    /// `(record, rust field) -> offset`, from the layout tests.
    offsets: HashMap<(String, String), u64>,
    /// `pub type X = T;` and newtype enums `pub struct X(pub T);`: the type X stands for.
    types: HashMap<String, syn::Type>,
    /// `pub use self::X_enum as X;`.
    uses: HashMap<String, String>,
    /// `pub const X: T = e;`.
    consts: HashMap<String, (syn::Type, syn::Expr)>,
    /// `impl Owner { pub const X: Owner = Owner(e); }`.
    associated: HashMap<(String, String), syn::Expr>,
}

type Result<T> = std::result::Result<T, String>;

impl Layout {
    pub fn read<'a>(files: impl IntoIterator<Item = &'a syn::File>, target: &Target) -> Layout {
        let mut layout = Layout {
            pointer: target.pointer_bytes,
            long: target.long_bytes,
            char_unsigned: target.char_unsigned,
            ..Layout::default()
        };
        for item in files.into_iter().flat_map(|f| &f.items) {
            match item {
                syn::Item::Const(c) if c.ident == "_" => layout.layout_test(&c.expr),
                syn::Item::Const(c) => {
                    layout.consts.insert(c.ident.to_string(), ((*c.ty).clone(), (*c.expr).clone()));
                }
                syn::Item::Type(t) => {
                    layout.types.insert(t.ident.to_string(), (*t.ty).clone());
                }
                syn::Item::Struct(s) => {
                    if let syn::Fields::Unnamed(f) = &s.fields {
                        if f.unnamed.len() == 1 {
                            layout.types.insert(s.ident.to_string(), f.unnamed[0].ty.clone());
                        }
                    }
                }
                syn::Item::Use(u) => {
                    if let syn::UseTree::Path(syn::UsePath { tree, .. }) = &u.tree {
                        if let syn::UseTree::Rename(r) = &**tree {
                            layout.uses.insert(r.rename.to_string(), r.ident.to_string());
                        }
                    }
                }
                syn::Item::Impl(imp) => {
                    let syn::Type::Path(owner) = &*imp.self_ty else {
                        continue;
                    };
                    let Some(owner) = owner.path.segments.last() else {
                        continue;
                    };
                    for it in &imp.items {
                        if let syn::ImplItem::Const(c) = it {
                            layout.associated.insert(
                                (owner.ident.to_string(), c.ident.to_string()),
                                c.expr.clone(),
                            );
                        }
                    }
                }
                _ => {}
            }
        }
        layout
    }

    /// `const _: () = { ["Size of X"][... - 16usize]; ... };`
    fn layout_test(&mut self, expr: &syn::Expr) {
        let syn::Expr::Block(block) = expr else {
            return;
        };
        for stmt in &block.block.stmts {
            let syn::Stmt::Expr(syn::Expr::Index(index), _) = stmt else {
                continue;
            };
            let syn::Expr::Array(label) = &*index.expr else {
                continue;
            };
            let Some(syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(label), .. })) =
                label.elems.first()
            else {
                continue;
            };
            let syn::Expr::Binary(difference) = &*index.index else {
                continue;
            };
            let Ok(value) = integer(&difference.right) else {
                continue;
            };
            let value = value as u64;
            let label = label.value();
            if let Some(name) = label.strip_prefix("Size of ") {
                self.records.entry(name.to_string()).or_default().0 = Some(value);
            } else if let Some(name) = label.strip_prefix("Alignment of ") {
                self.records.entry(name.to_string()).or_default().1 = Some(value);
            } else if let Some(path) = label.strip_prefix("Offset of field: ") {
                if let Some((record, field)) = path.split_once("::") {
                    self.offsets.insert((record.to_string(), field.to_string()), value);
                }
            }
        }
    }

    pub fn size(&self, name: &str) -> Result<u64> {
        Ok(self.named(name, 0)?.0)
    }

    pub fn align(&self, name: &str) -> Result<u64> {
        Ok(self.named(name, 0)?.1)
    }

    pub fn offset(&self, record: &str, field: &str) -> Result<u64> {
        self.offsets
            .get(&(record.to_string(), field.to_string()))
            .copied()
            .ok_or_else(|| format!("no layout test gives the offset of {record}::{field}"))
    }

    /// The value of constant `name` (of `owner`, for an enumerator).
    pub fn value(&self, owner: Option<&str>, name: &str) -> Result<i128> {
        match owner {
            Some(owner) => self.associated_value(owner, name, 0),
            None => {
                let (ty, expr) = self
                    .consts
                    .get(name)
                    .ok_or_else(|| format!("no constant {name} in the bindings"))?;
                let value = self.eval(expr, 0)?;
                self.convert(value, ty, 0)
            }
        }
    }

    fn associated_value(&self, owner: &str, name: &str, depth: u32) -> Result<i128> {
        let owner = self.uses.get(owner).map(String::as_str).unwrap_or(owner);
        let expr = self
            .associated
            .get(&(owner.to_string(), name.to_string()))
            .ok_or_else(|| format!("no constant {owner}::{name} in the bindings"))?;
        self.eval(expr, depth + 1)
    }

    /// `(size, align)` of the type called `name` in the bindings or `core::ffi`.
    fn named(&self, name: &str, depth: u32) -> Result<(u64, u64)> {
        if depth > 32 {
            return Err(format!("{name}: the type aliases do not end"));
        }
        if let Some(primitive) = self.primitive(name) {
            return Ok(primitive);
        }
        if let Some((size, align)) = self.records.get(name) {
            return match (size, align) {
                (Some(s), Some(a)) => Ok((*s, *a)),
                _ => Err(format!("{name}: its layout test lacks the size or alignment")),
            };
        }
        if let Some(ty) = self.types.get(name) {
            return self.of(ty, depth + 1);
        }
        if let Some(target) = self.uses.get(name) {
            return self.named(target, depth + 1);
        }
        Err(format!("{name}: not a record with a layout test, a type alias or a C type"))
    }

    fn primitive(&self, name: &str) -> Option<(u64, u64)> {
        let size = match name {
            "u8" | "i8" | "bool" | "c_char" | "c_schar" | "c_uchar" => 1,
            "u16" | "i16" | "c_short" | "c_ushort" => 2,
            "u32" | "i32" | "f32" | "c_int" | "c_uint" | "c_float" => 4,
            "u64" | "i64" | "f64" | "c_longlong" | "c_ulonglong" | "c_double" => 8,
            "c_long" | "c_ulong" => self.long,
            "usize" | "isize" => self.pointer,
            _ => return None,
        };
        Some((size, size))
    }

    fn of(&self, ty: &syn::Type, depth: u32) -> Result<(u64, u64)> {
        match ty {
            syn::Type::Ptr(_) | syn::Type::FnPtr(_) => Ok((self.pointer, self.pointer)),
            syn::Type::Array(array) => {
                let (size, align) = self.of(&array.elem, depth + 1)?;
                let len = integer(&array.len)? as u64;
                Ok((size * len, align))
            }
            syn::Type::Paren(p) => self.of(&p.elem, depth),
            syn::Type::Path(p) => {
                let last =
                    p.path.segments.last().ok_or_else(|| "an empty type path".to_string())?;
                // `Option<unsafe extern "C" fn(..)>`: a nullable function pointer.
                if last.ident == "Option" {
                    return Ok((self.pointer, self.pointer));
                }
                self.named(&last.ident.to_string(), depth + 1)
            }
            other => {
                Err(format!("cannot size the type `{}`", quote::ToTokens::to_token_stream(other)))
            }
        }
    }

    fn eval(&self, expr: &syn::Expr, depth: u32) -> Result<i128> {
        if depth > 32 {
            return Err("the constants refer to each other without end".into());
        }
        match expr {
            syn::Expr::Lit(_) => integer(expr),
            syn::Expr::Unary(syn::ExprUnary { op: syn::UnOp::Neg(_), expr, .. }) => {
                Ok(-self.eval(expr, depth + 1)?)
            }
            syn::Expr::Paren(p) => self.eval(&p.expr, depth + 1),
            syn::Expr::Group(g) => self.eval(&g.expr, depth + 1),
            syn::Expr::Cast(cast) => {
                let value = self.eval(&cast.expr, depth + 1)?;
                self.convert(value, &cast.ty, depth + 1)
            }
            // A newtype enum's value: `Owner(3)`.
            syn::Expr::Call(call) if call.args.len() == 1 => self.eval(&call.args[0], depth + 1),
            syn::Expr::Path(p) => {
                let segments: Vec<String> =
                    p.path.segments.iter().map(|s| s.ident.to_string()).collect();
                match segments.as_slice() {
                    [name] => self.value(None, name),
                    [.., owner, name] => self.associated_value(owner, name, depth),
                    [] => Err("an empty path".into()),
                }
            }
            other => Err(format!("cannot evaluate `{}`", quote::ToTokens::to_token_stream(other))),
        }
    }

    /// `value as ty`: integers wrap to the type's width and signedness, a
    /// pointer holds the value as an unsigned address.
    fn convert(&self, value: i128, ty: &syn::Type, depth: u32) -> Result<i128> {
        if depth > 32 {
            return Err("the types refer to each other without end".into());
        }
        let (bits, signed) = match ty {
            syn::Type::Ptr(_) => (self.pointer * 8, false),
            syn::Type::Path(p) => {
                let name = p.path.segments.last().map(|s| s.ident.to_string()).unwrap_or_default();
                // An enum or handle type: through what it stands for.
                if self.primitive(&name).is_none() {
                    if let Some(inner) = self.types.get(&name) {
                        return self.convert(value, inner, depth + 1);
                    }
                    if let Some(target) = self.uses.get(&name) {
                        let path: syn::Type = syn::parse_str(target).map_err(|e| e.to_string())?;
                        return self.convert(value, &path, depth + 1);
                    }
                    // A newtype enum: its value is `.0`, the integer it holds.
                    return Ok(value);
                }
                let signed = matches!(
                    name.as_str(),
                    "i8" | "i16"
                        | "i32"
                        | "i64"
                        | "isize"
                        | "c_schar"
                        | "c_short"
                        | "c_int"
                        | "c_long"
                        | "c_longlong"
                ) || (name == "c_char" && !self.char_unsigned);
                let (size, _) = self.primitive(&name).unwrap_or((8, 8));
                (size * 8, signed)
            }
            _ => return Ok(value),
        };
        let modulus = 1i128 << bits;
        let wrapped = value.rem_euclid(modulus);
        Ok(if signed && wrapped >= modulus / 2 { wrapped - modulus } else { wrapped })
    }
}

/// An integer literal (suffix ignored), possibly negated.
fn integer(expr: &syn::Expr) -> Result<i128> {
    match expr {
        syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Int(i), .. }) => {
            i.base10_parse::<i128>().map_err(|e| e.to_string())
        }
        syn::Expr::Unary(syn::ExprUnary { op: syn::UnOp::Neg(_), expr, .. }) => Ok(-integer(expr)?),
        other => {
            Err(format!("`{}` is not an integer literal", quote::ToTokens::to_token_stream(other)))
        }
    }
}
