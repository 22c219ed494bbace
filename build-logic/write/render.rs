//! The files of the bindings rendered from their data, with this crate's
//! documentation (`docs`) and tables: for generated bindings at build time,
//! and by `cargo xtask pregenerate` for the pregenerated set of every release,
//! which ships them (`rendered/`); `files` writes them either way.

use std::fmt::Write as _;
use std::path::Path;

use crate::env::write_error;
use crate::model::panics;
use crate::model::{Bindings, Enumerator, Function, Module, Rename, Result, BLOCK, RENDERED_FILES};
use crate::sentences::result;
use crate::tables;
use crate::write::docs;

mod enumerators;
use enumerators::{conversions, enumerators, render_bitmasks, render_names};

/// The files of the bindings that `files::all` filters, rendered from `b`
/// (the functions declared for the linker): those of `RENDERED_FILES`, then
/// each interop module's `<module>.rs`.
pub fn files(b: &Bindings) -> Vec<(String, String)> {
    // The types' pages and the functions' take about as long each: a build
    // renders them on two threads.
    let (types, functions) = std::thread::scope(|scope| {
        let types = scope.spawn(|| panics::caught(|| (docs::types(b), enumerators(b))));
        let functions = functions(b);
        // Its panic goes on with its message and place, to where the caller catches it.
        let types = panics::joined(types.join())
            .unwrap_or_else(|panic| std::panic::resume_unwind(Box::new(panic)));
        (types, functions)
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
