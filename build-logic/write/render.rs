//! The files of the bindings rendered from their data, with this crate's
//! documentation (`docs`) and tables: for generated bindings at build time,
//! and by `cargo xtask pregenerate` for the pregenerated set of every release,
//! which ships them (`rendered/`); `files` writes them either way.

use std::fmt::Write as _;
use std::path::Path;

use crate::env::write_error;
use crate::model::{Bindings, Enumerator, Function, Module, Rename, Result, BLOCK, RENDERED_FILES};
use crate::sentences::result;
use crate::tables;
use crate::write::docs;

/// The files of the bindings that `files::all` filters, rendered from `b`
/// (the functions declared for the linker): those of `RENDERED_FILES`, then
/// each interop module's `<module>.rs`.
pub fn files(b: &Bindings) -> Vec<(String, String)> {
    // The types' pages and the functions' take about as long each: a build
    // renders them on two threads.
    let (types, functions) = std::thread::scope(|scope| {
        let types = scope.spawn(|| (docs::types(b), enumerators(b)));
        let functions = functions(b);
        (types.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)), functions)
    });
    // In the order of RENDERED_FILES.
    let texts = [
        types.0,
        functions,
        renames(&b.renames),
        docs::macro_constants(b),
        value_types(b),
        types.1,
        accessors(b),
        map(b),
    ];
    let files = RENDERED_FILES.iter().map(|n| n.to_string()).zip(texts);
    let modules = b.modules.iter().map(|m| (format!("{}.rs", m.name), module(b, m)));
    files.chain(modules).collect()
}

/// `map.rs`: the module `map`, whose page is the map of the API: every group
/// of NVIDIA's reference, `cuda.h`'s then each interop module's, with this
/// crate's title and line for it, its page, and a link to each of its
/// functions, each link in the function's block (`//~ name`), which
/// `files::all` drops with the function where the floor leaves it out.
fn map(b: &Bindings) -> String {
    let mut text = String::new();
    let intro = "Every group of NVIDIA's driver API reference, in this crate's words: what its \
                 functions are for, its page of NVIDIA's reference, and its functions in these \
                 bindings (the plain names, as C calls them). The sequences that only work as a \
                 whole are in [`workflows`].";
    let _ = writeln!(text, "#[doc = {intro:?}]");
    let headers = std::iter::once((None, &b.reference, &b.functions, &b.renames))
        .chain(b.modules.iter().map(|m| (Some(m.name), &m.reference, &m.functions, &m.renames)));
    for (module, reference, functions, renames) in headers {
        // Each function under the name its reference (and C) gives it
        // (`cuMemAlloc`: the first plain name of one that has several), in
        // its group, in one pass: a build renders this unoptimized.
        let mut plain: std::collections::HashMap<&str, &str> = Default::default();
        for r in renames {
            plain.entry(&r.target).or_insert(&r.plain);
        }
        let group_of: std::collections::HashMap<&str, &str> = reference
            .functions
            .iter()
            .filter_map(|d| Some((d.name.as_str(), d.group.as_deref()?)))
            .collect();
        let mut members: std::collections::HashMap<&str, Vec<(&str, &str)>> = Default::default();
        for f in functions {
            let name = plain.get(f.name.as_str()).copied().unwrap_or(&f.name);
            if let Some(group) = group_of.get(name) {
                members.entry(group).or_default().push((&f.name, name));
            }
        }
        for group in &reference.groups {
            let (title, line) = crate::sentences::group(group);
            let _ =
                writeln!(text, "#[doc = \"\"]\n#[doc = {:?}]\n#[doc = \"\"]", format!("# {title}"));
            let feature = module.map_or(String::new(), |m| format!(" (feature `{m}`)"));
            let page = docs::group_page(group);
            let said = format!("{line}{feature} NVIDIA's page: [{group}]({page}).");
            let _ = writeln!(text, "#[doc = {said:?}]\n#[doc = \"\"]");
            for (bound, plain) in members.get(group.as_str()).into_iter().flatten() {
                let link = match module {
                    None => format!("[`{plain}`]"),
                    Some(m) => format!("[`{plain}`](crate::{m}::{plain})"),
                };
                let _ = writeln!(text, "{BLOCK} {bound}\n#[doc = {link:?}]");
            }
            let _ = writeln!(text, "{BLOCK}");
        }
    }
    text.push_str("pub mod map {}\n");
    text
}

/// The tables as rows of text, which `cargo xtask pregenerate` merges into the
/// pregenerated set: cuda.h's in `tables/`, each interop module's in
/// `tables/<module>/` with its types as bindgen made them (its functions are
/// in `<module>.rs`).
pub fn tables(b: &Bindings, out_dir: &Path) -> Result<()> {
    let rows = tables::Tables {
        functions: b.functions.iter().map(|f| f.name.as_str()).collect(),
        since: b.since.as_ref(),
        renames: &b.renames,
        typed: &b.typed,
        bitmasks: &b.bitmasks,
        reference: &b.reference,
    };
    write_tables(&out_dir.join("tables"), tables::write(&rows).into_iter().collect())?;
    for m in &b.modules {
        let rows = tables::Tables {
            functions: m.functions.iter().map(|f| f.name.as_str()).collect(),
            since: b.since.as_ref(),
            renames: &m.renames,
            typed: &[],
            bitmasks: &[],
            reference: &m.reference,
        };
        let mut files: Vec<(&str, String)> = tables::write(&rows)
            .into_iter()
            .filter(|(name, _)| tables::MODULE_TABLES.contains(name))
            .collect();
        files.push(("types.rs", m.types.clone()));
        write_tables(&out_dir.join("tables").join(m.name), files)?;
    }
    Ok(())
}

/// Writes `files` into `dir`, which it makes.
fn write_tables(dir: &Path, files: Vec<(&str, String)>) -> Result<()> {
    std::fs::create_dir_all(dir).map_err(|e| write_error(dir, e))?;
    for (name, text) in files {
        let path = dir.join(name);
        std::fs::write(&path, text).map_err(|e| write_error(&path, e))?;
    }
    Ok(())
}

/// `enumerators.rs`: every C enumerator under its C name at the crate root,
/// typed as its enum's typedef (`CUDA_SUCCESS: CUresult`), as C makes them
/// global: `use libcuda_sys::*;` then `match r { CUDA_SUCCESS => .. }`. And
/// what each `CUresult` means, for its `Display`.
fn enumerators(b: &Bindings) -> String {
    let mut out = conversions(b, &b.functions, &b.types, &b.aliases, &b.enumerators);
    out.push_str("// C's enumerators under their global C names.\n");
    let mut meanings = String::new();
    for e in &b.enumerators {
        let (ty, name) = (b.typedef_of(&e.owner), &e.name);
        let value = docs::value(b, e).map_or(String::new(), |v| format!(", `{name} = {v}`"));
        let result = result(name).filter(|_| ty == "CUresult");
        let meaning = result.map_or(String::new(), |(m, _)| format!(": {m}"));
        out.push_str(&format!(
            "/// [`{ty}::{name}`] under its C name{value}{meaning}.\npub const {name}: {ty} = {ty}::{name};\n"
        ));
        if let Some((m, _)) = result {
            let _ = writeln!(meanings, "            (Self::{name}.0 as i64, {m:?}),");
        }
    }
    let _ = writeln!(
        out,
        "impl CUresult {{\n    /// What this result means, in a line of this crate's own (`Display` prints\n    \
         /// it); `None` for a value without one (newer than these bindings, say).\n    \
         #[inline]\n    pub const fn meaning(self) -> Option<&'static str> {{\n        \
         crate::enums::name_of(self.0 as i64, &[\n{meanings}        ])\n    }}\n}}"
    );
    out
}

/// `From` each enum (of `aliases`, `(enum, typedef)`, and `enumerators`, those
/// of `types`) into the integer a parameter takes its values as (`params.txt`:
/// `cuStreamCreate`'s `c_uint Flags` takes `CUstream_flags`), or an attribute
/// holds them in (`CU_DEVICE_ATTRIBUTE_COMPUTE_MODE`'s `int` holds a
/// `CUcomputemode`): `CU_STREAM_NON_BLOCKING.into()`. The conversion is C's:
/// the enum's integer, as that type. Every enum a row of `params.txt` names
/// converts into its own integer whichever modules are bound (an interop
/// function's `Flags` takes `CUgraphicsRegisterFlags` as a `c_uint`); the
/// types of `functions` and the attributes add the rest.
fn conversions(
    b: &Bindings,
    functions: &[Function],
    types: &str,
    aliases: &[(String, String)],
    enumerators: &[Enumerator],
) -> String {
    use crate::sentences::{param, params};
    let integer = |rust: &str| -> Option<&'static str> {
        let rust: String = rust.split_whitespace().collect();
        let rust = rust.trim_start_matches("*mut").trim_start_matches("*const");
        let last = rust.rsplit("::").next().unwrap_or(rust);
        Some(match last {
            "c_uint" | "cuuint32_t" | "u32" => "u32",
            "c_int" | "i32" => "i32",
            "c_ulonglong" | "cuuint64_t" | "u64" => "u64",
            "c_longlong" | "i64" => "i64",
            "c_ushort" | "u16" => "u16",
            "c_uchar" | "u8" => "u8",
            "usize" => "usize",
            _ => return None,
        })
    };
    // Each newtype of `types` (`pub struct X(pub c_uint);`) and its integer, read once.
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let code = docs::code_only(types);
    let newtypes: std::collections::HashMap<&str, &'static str> = code
        .match_indices("pub struct ")
        .filter_map(|(at, m)| {
            let rest = &types[at + m.len()..];
            let name = &rest[..rest.find(|c: char| !ident(c))?];
            let inner = rest[name.len()..].trim_start().strip_prefix('(')?;
            Some((name, integer(inner[..inner.find(')')?].trim_start_matches("pub"))?))
        })
        .collect();
    // An enum of `types` by its typedef or its own name, and its integer.
    let repr = |family: &str| -> Option<&'static str> {
        let owner = aliases.iter().find(|(_, t)| t == family).map_or(family, |(e, _)| e.as_str());
        enumerators.iter().find(|e| e.owner == owner)?;
        newtypes.get(owner).copied()
    };
    let mut pairs: Vec<(&str, &str)> = Vec::new();
    for family in params().iter().filter_map(|p| p.family()) {
        pairs.extend(repr(family).map(|int| (family, int)));
    }
    for f in functions {
        for (name, ty) in docs::params(&f.decl) {
            let Some(family) = param(&f.name, &name).and_then(|p| p.family()) else { continue };
            if let (Some(int), Some(_)) = (integer(&ty), repr(family)) {
                pairs.push((family, int));
            }
        }
    }
    for t in &b.typed {
        if let (Some(values), Some(int)) = (&t.values, t.rust_type.as_deref().and_then(integer)) {
            pairs.extend(repr(values).map(|_| (values.as_str(), int)));
        }
    }
    pairs.sort_unstable();
    pairs.dedup();
    let mut out = String::new();
    for (family, int) in pairs {
        let _ = writeln!(
            out,
            "/// Its integer as the `{int}` a C parameter or attribute takes it as.\n\
             impl From<{family}> for {int} {{\n    #[inline]\n    fn from(value: {family}) -> {int} {{\n        \
             value.0 as {int}\n    }}\n}}"
        );
    }
    out
}

/// `accessors.rs`: `member()` and `set_member()` for each member that moved,
/// so that the same code compiles against every release.
fn accessors(b: &Bindings) -> String {
    let mut out = String::from("// Accessors of the members that moved between releases.\n");
    for m in &b.moved {
        let (record, member, path, ty) = (&m.record, &m.member, &m.path, &m.ty);
        // A member of an anonymous union: `cargo xtask pregenerate` and
        // the generated path let only integers through, any bits of which are a value.
        let read = if path.contains('.') {
            format!("// SAFETY: an integer member of a C union: any bits are a value.\n        unsafe {{ self.{path} }}")
        } else {
            format!("self.{path}")
        };
        out.push_str(&format!(
            "impl {record} {{\n    /// `{member}`, here `self.{path}`: the same call in every release, where the\n    \
             /// member is in an anonymous union or not (crate docs, [Members that moved](crate#members-that-moved)).\n    \
             pub fn {member}(&self) -> {ty} {{\n        {read}\n    }}\n    \
             /// Sets `{member}` (`self.{path}`), in every release: see [`Self::{member}`].\n    \
             pub fn set_{member}(&mut self, value: {ty}) {{\n        self.{path} = value;\n    }}\n}}\n"
        ));
    }
    out
}

/// `<module>.rs` of an interop module: its types, its functions (as
/// `functions.rs` declares them), its plain names, and its enumerators under
/// their C names.
fn module(b: &Bindings, m: &Module) -> String {
    let mut out = format!("// The {} interop module: what its header adds to cuda.h's.\n", m.name);
    out.push_str(&docs::module_types(b, m));
    out.push_str(&functions_of(b, &m.functions, Some(m)));
    out.push_str(&renames(&m.renames));
    // `name()` and `Debug` of its enums, as for cuda.h's (none is a bit mask).
    render_names(&m.enumerators, &m.aliases, &[], &mut out);
    out.push_str(&conversions(b, &m.functions, &m.types, &m.aliases, &m.enumerators));
    for e in &m.enumerators {
        let ty = m.aliases.iter().find(|(en, _)| *en == e.owner).map_or(&e.owner, |(_, a)| a);
        let _ = writeln!(
            out,
            "/// [`{ty}::{n}`] under its C name.\npub const {n}: {ty} = {ty}::{n};",
            n = e.name
        );
    }
    out
}

/// `functions.rs`: the `extern "C"` block of the functions, each declaration
/// with this crate's lines around the header's text (`docs::function`).
fn functions(b: &Bindings) -> String {
    functions_of(b, &b.functions, None)
}

/// The declarations of `list`, functions of `b` or of its interop `module`,
/// in an `extern "C"` block (`files::all` makes it the `functions!`
/// invocation of dynamic loading), each in a block headed by its name.
fn functions_of(b: &Bindings, list: &[Function], module: Option<&Module>) -> String {
    let mut out = String::from("unsafe extern \"C\" {\n");
    let index = docs::functions::Index::new(b, module);
    for f in list {
        let (mut before, after) = docs::functions::function(b, &index, f);
        // A paragraph of its own, before the header's text; a list of ours
        // ends there (an HTML comment), not in the list of facts after it.
        if before.last().is_some_and(|l| l.starts_with("- ")) {
            before.extend([String::new(), "<!-- -->".into()]);
        }
        if !before.is_empty() {
            before.push(String::new());
        }
        let _ = writeln!(out, "{BLOCK} {}", f.name);
        for line in &before {
            out.push_str(&format!("#[doc = {line:?}] "));
        }
        out.push_str(&docs::insert_before(&f.decl, &f.name, &after));
        out.push('\n');
    }
    let _ = writeln!(out, "{BLOCK}\n}}");
    out
}

/// `OUT_DIR/renames.rs`: one `pub use` per plain name, as the header's macro
/// makes it. A `use` keeps the target's exact signature and symbol, and its
/// page shows the target's documentation, which names the plain name.
fn renames(renames: &[Rename]) -> String {
    let mut out =
        String::from("// Plain names of renamed driver functions, from the header's own macros.\n");
    for r in renames {
        let _ = writeln!(out, "{BLOCK} {}", r.target);
        out.push_str(&format!("#[doc(inline)]\npub use self::{} as {};\n", r.target, r.plain));
    }
    let _ = writeln!(out, "{BLOCK}");
    out
}

/// `name()` and `Debug` for every C enum: the enumerator's name for a value
/// (the first one the header lists, where two share a value: `cuda.h` lists
/// the current name before the deprecated ones), `None` for a value the
/// header does not list; `Debug` shows it under the C typedef's name.
fn render_names(
    enumerators: &[crate::model::Enumerator],
    aliases: &[(String, String)],
    bitmasks: &[String],
    out: &mut String,
) {
    let mut owners: Vec<&str> = Vec::new();
    for crate::model::Enumerator { owner, .. } in enumerators {
        if !owners.contains(&owner.as_str()) {
            owners.push(owner);
        }
    }
    for owner in owners {
        let names: Vec<&str> =
            enumerators.iter().filter(|e| e.owner == owner).map(|e| e.name.as_str()).collect();
        let _ = writeln!(
            out,
            "impl {owner} {{\n    /// The name of this value's enumerator in the header, `None` for a value\n    /// the header does not list (from a newer driver, say).\n    #[inline]\n    pub const fn name(self) -> Option<&'static str> {{\n        crate::enums::name_of(self.0 as i64, &["
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
        let shown =
            aliases.iter().find(|(e, _)| e == owner).map_or(owner, |(_, alias)| alias.as_str());
        let bits: String = if bitmasks.iter().any(|m| m == owner) {
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
            "impl ::core::fmt::Debug for {owner} {{\n    #[inline]\n    fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {{\n        crate::enums::fmt_enumerator(f, \"{shown}\", self.name(), {value}, &[{bits}])\n    }}\n}}"
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

fn value_types(bindings: &Bindings) -> String {
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
            "slot" => "Slot",
            "out" => "Out",
            "inout" => "InOut",
            _ => "Scalar",
        };
        let access = match (t.setters.is_empty(), t.reset_only) {
            (true, _) => "ReadOnly",
            (false, true) => "ResetOnly",
            (false, false) => "Settable",
        };
        // The line of the release bound, where the facts table has one.
        let line = docs::enums::cited(bindings, t).map(|(line, _)| line);
        let source = match (t.source.split_once(' '), line) {
            (Some(("measured", _)), Some(line)) => format!("Measured {{ line: {line:?} }}"),
            (Some(("named", _)), Some(line)) => format!("Named {{ line: {line:?} }}"),
            (Some(_), Some(line)) => format!("Documented {{ line: {line:?} }}"),
            _ if t.source == "comment" => "Comment".into(),
            _ => "Signature".into(),
        };
        let value_type = name_of(
            "ValueType",
            format!(
                "ValueType {{ c_name: {c:?}, size: {size}, align: {align}, signed: {signed:?}, \
                 shape: Shape::{shape}, values: {values:?} }}",
                c = t.c_type,
                signed = t.signed,
                values = t.values,
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
             #[inline]\n    pub const fn value_type(self) -> Option<ValueType> {{\n        \
             match self.typed() {{\n            Some(e) => Some(e.value_type),\n            None => None,\n        }}\n    }}\n    \
             /// This attribute's entry of [`VALUE_TYPES`]: its value type, getters and setters.\n    \
             #[inline]\n    pub const fn typed(self) -> Option<&'static TypedEnumerator> {{\n        \
             crate::value_type::entry({first}, {end}, self.0 as i64)\n    }}\n}}"
        );
    }
    render_names(&bindings.enumerators, &bindings.aliases, &bindings.bitmasks, &mut out);
    render_bitmasks(&bindings.bitmasks, &mut out);
    out
}
