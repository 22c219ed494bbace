//! A function's page: what it does and its calling contract first (before the
//! header's text), what its ABI changed, its C name where a macro renames it,
//! what its untyped parameters take and which way its pointers go, what an
//! attribute getter's or setter's value must be; after the header's text, the
//! result codes and functions its documentation names (linked), its page of
//! NVIDIA's reference, and the driver it needs.

use std::collections::{HashMap, HashSet};

use crate::model::{Bindings, Direction, Documented, Function, Module, Typed};
use crate::sentences::{abi_note, contracts, family, param, summary, Param};

use super::enums::bytes;
use super::{article, group_page, history, paragraph, params, resolve, since};

/// What the function pages look up, each indexed once: the build script runs
/// unoptimized, and a search of every list for each of 600 functions costs
/// every build a third of a second.
pub(crate) struct Index<'a> {
    enumerators: HashSet<&'a str>,
    /// Functions and plain names.
    bound: HashSet<&'a str>,
    documented: HashMap<&'a str, &'a Documented>,
    /// The plain names of each function a macro renames.
    plain: HashMap<&'a str, Vec<&'a str>>,
    /// The attribute enums each function reads (`true`) or writes.
    accessors: HashMap<&'a str, Vec<(&'a str, bool)>>,
    /// The `#define` constants, for the families of flags parameters (`CU_MEMHOSTALLOC_*`).
    constants: Vec<&'a str>,
}

impl<'a> Index<'a> {
    /// The index of `b`'s own functions, or of those of its interop module
    /// `module`, which also links to the crate root's (it imports them).
    pub(crate) fn new(b: &'a Bindings, module: Option<&'a Module>) -> Index<'a> {
        let (functions, renames) = match module {
            Some(m) => (&m.functions[..], &m.renames[..]),
            None => (&[][..], &[][..]),
        };
        let mut plain: HashMap<&str, Vec<&str>> = HashMap::new();
        for r in b.renames.iter().chain(renames) {
            plain.entry(&r.target).or_default().push(&r.plain);
        }
        let mut accessors: HashMap<&str, Vec<(&str, bool)>> = HashMap::new();
        for t in &b.typed {
            for (list, get) in [(&t.getters, true), (&t.setters, false)] {
                for f in list {
                    let owners = accessors.entry(f).or_default();
                    if !owners.contains(&(t.owner.as_str(), get)) {
                        owners.push((&t.owner, get));
                    }
                }
            }
        }
        // NVIDIA's facts of cuda.h's functions and of every module's: a module
        // function's page may refer to cuda.h's, and the converse.
        let references =
            std::iter::once(&b.reference).chain(b.modules.iter().map(|m| &m.reference));
        Index {
            enumerators: b.enumerators.iter().map(|e| e.name.as_str()).collect(),
            bound: b
                .functions
                .iter()
                .chain(functions)
                .map(|f| f.name.as_str())
                .chain(b.renames.iter().chain(renames).map(|r| r.plain.as_str()))
                .collect(),
            documented: references
                .clone()
                .flat_map(|r| &r.functions)
                .map(|d| (d.name.as_str(), d))
                .collect(),
            plain,
            accessors,
            constants: [b.types.as_str(), b.macro_constants.as_str()]
                .into_iter()
                .chain(b.modules.iter().map(|m| m.types.as_str()))
                .flat_map(super::records::constants)
                .map(|(name, _)| name)
                .collect(),
        }
    }
}

/// The lines of a function's documentation: `(before, after)` the header's
/// text, each line a paragraph's, with blank lines between paragraphs.
pub(crate) fn function(b: &Bindings, index: &Index, f: &Function) -> (Vec<String>, Vec<String>) {
    let plain: &[&str] = index.plain.get(f.name.as_str()).map_or(&[], Vec::as_slice);
    // The header's own name for it: its own, the plain name a macro renames, or its family's.
    let documented: Option<&Documented> = [f.name.as_str()]
        .into_iter()
        .chain(plain.iter().copied())
        .chain([family(&f.name)])
        .find_map(|n| index.documented.get(n).copied());
    let mut before: Vec<String> = Vec::new();
    if let Some(s) = summary(&f.name) {
        paragraph(&mut before, s.to_string());
    }
    if let Some(note) = abi_note(&f.name) {
        paragraph(&mut before, note.to_string());
    }
    if f.name.ends_with("_ptsz") {
        paragraph(
            &mut before,
            "The per-thread default stream variant (`_ptsz`): a null stream here is the calling \
             thread's own default stream, not the legacy default stream that synchronizes with \
             every other; C compiled with `CUDA_API_PER_THREAD_DEFAULT_STREAM` calls it."
                .into(),
        );
    } else if f.name.ends_with("_ptds") {
        paragraph(
            &mut before,
            "The per-thread default stream variant (`_ptds`) of a call that takes no stream: it \
             is ordered on the calling thread's own default stream, not on the legacy default \
             stream; C compiled with `CUDA_API_PER_THREAD_DEFAULT_STREAM` calls it."
                .into(),
        );
    }
    // Its family's contract, and that of each name C gives it (`cuGraphInstantiate`
    // is `cuGraphInstantiateWithFlags` from CUDA 12.0).
    let mut keys = vec![family(&f.name)];
    for p in plain.iter().map(|p| family(p)) {
        if !keys.contains(&p) {
            keys.push(p);
        }
    }
    for c in keys.into_iter().flat_map(contracts) {
        paragraph(&mut before, c.to_string());
    }
    // libcuda's own symbol of the plain name: the legacy stream's variant, or an older ABI.
    let own = match f.name.ends_with("_ptsz") || f.name.ends_with("_ptds") {
        true => "the legacy default stream's variant",
        false => "an older ABI",
    };
    let module = b.modules.iter().find(|m| m.functions.iter().any(|g| g.name == f.name));
    let header = module.map_or("cuda.h", |m| m.header);
    for p in plain {
        paragraph(
            &mut before,
            format!(
                "C calls it `{p}`: `{header}` has `#define {p} ... {t}`, and [`{p}`] here is this \
                 function. libcuda's own `{p}` symbol is {own}, never bound.",
                t = f.name
            ),
        );
    }
    for line in attribute_lines(b, index, f) {
        paragraph(&mut before, line);
    }
    let (items, pointers, arrays) = parameter_lines(b, index, f, documented);
    if !items.is_empty() {
        paragraph(&mut before, "What its untyped parameters take:".into());
        before.extend(items);
    }
    if let Some(p) = pointers {
        paragraph(&mut before, p);
    }
    if !arrays.is_empty() {
        paragraph(&mut before, "Its arrays, and how many elements each holds:".into());
        before.extend(arrays);
    }
    // The facts, as a list.
    let mut after = Vec::new();
    if let Some(d) = documented {
        // Linked where these bindings have the item, else a code span.
        let list = |names: Vec<&String>, known: &HashSet<&str>, path: &str| -> String {
            let shown = names.into_iter().map(|n| match known.contains(n.as_str()) {
                true => format!("[`{n}`]({path}{n})"),
                false => format!("`{n}`"),
            });
            shown.collect::<Vec<_>>().join(", ")
        };
        // Generated bindings carry the header's own "Returns" and "See also"
        // sections: the same facts once is enough.
        // (A heading inside the header's one doc string, its newlines escaped.)
        let header_has = |heading: &str| f.decl.contains(&format!("\\n# {heading}\\n"));
        if !d.returns.is_empty() && !header_has("Returns") {
            let codes = list(d.returns.iter().collect(), &index.enumerators, "CUresult::");
            after.push(format!("- Result codes its documentation lists: {codes}."));
        }
        let others: Vec<&String> =
            d.refers.iter().filter(|r| **r != f.name && !plain.contains(&r.as_str())).collect();
        if !others.is_empty() && !header_has("See also") {
            after.push(format!("- Related functions: {}.", list(others, &index.bound, "")));
        }
        if let Some(g) = &d.group {
            let (title, _) = crate::sentences::group(g);
            // `Memory Management [DEPRECATED]`: brackets in a link's text are text.
            let title = title.replace('[', "\\[").replace(']', "\\]");
            after.push(format!("- NVIDIA's reference: [{title}]({}).", group_page(g)));
        }
    }
    if let Some(v) = b.since.as_ref().and_then(|s| s.get(&f.name)) {
        after.push(format!("- {}", since(*v, module.map_or("cudaTypedefs.h", |m| m.typedefs))));
    }
    // The release that introduced a function is its ABI's, which the line
    // above gives: the history says only where it ended.
    let dated = b.since.as_ref().is_some_and(|s| s.contains_key(&f.name));
    if let Some(h) = history(b, &f.name).filter(|h| !dated || h.ends_with("only.")) {
        paragraph(&mut after, h);
    }
    (before, after)
}

/// A function's parameters that C leaves untyped, each as a list item
/// (`params.txt`): the enum or `#define` family an integer flags or mode
/// parameter takes, what a `void *` points to and which way data goes. And a
/// sentence on which of its other pointers the driver reads and writes, as the
/// header documents them (`[in]`, `[out]`, `Returned ...`) or `const` says.
fn parameter_lines(
    b: &Bindings,
    index: &Index,
    f: &Function,
    documented: Option<&Documented>,
) -> (Vec<String>, Option<String>, Vec<String>) {
    let (mut items, mut arrays) = (Vec::new(), Vec::new());
    let (mut reads, mut writes, mut both) = (Vec::new(), Vec::new(), Vec::new());
    for (name, ty) in params(&f.decl) {
        if let Some(a) = crate::sentences::array(&f.name, &name) {
            arrays.push(format!("- `{name}`: {}. {}", a.length(), a.text));
        }
        if let Some(p) = param(&f.name, &name) {
            items.extend(parameter_item(b, index, &name, &ty, p));
            continue;
        }
        if !ty.starts_with('*') {
            continue;
        }
        let told = documented.and_then(|d| d.params.iter().find(|(n, _)| *n == name));
        let shown = format!("`*{name}`");
        match (told.map(|(_, d)| *d), ty.starts_with("*const")) {
            (Some(Direction::Out), _) => writes.push(shown),
            (Some(Direction::InOut), _) => both.push(shown),
            (Some(Direction::In), _) | (None, true) => reads.push(shown),
            (None, false) => {}
        }
    }
    let phrases: Vec<String> = [("reads", reads), ("writes", writes), ("reads and writes", both)]
        .into_iter()
        .filter(|(_, names)| !names.is_empty())
        .map(|(verb, names)| format!("{verb} {}", names.join(", ")))
        .collect();
    let pointers = (!phrases.is_empty())
        .then(|| format!("Through its other pointers the driver {}.", phrases.join("; ")));
    (items, pointers, arrays)
}

/// The list item of a parameter of `params.txt`; `None` for an attribute's
/// value, which the lines of its value types tell.
fn parameter_item(b: &Bindings, index: &Index, name: &str, ty: &str, p: &Param) -> Option<String> {
    let attribute = b.typed.iter().any(|t| b.typedef_of(&t.owner) == p.takes);
    if p.text.is_empty() && attribute {
        return None;
    }
    let c_type = ty.trim_start_matches("*mut").trim_start_matches("*const");
    let c_type = c_type.trim_start_matches("::core::ffi::");
    let (label, what) = match (p.kind, p.family()) {
        // The row says what to pass, where it says anything.
        ("zero", _) if !p.text.is_empty() => (" (reserved)", String::new()),
        ("zero", _) => ("", "reserved: pass 0.".to_string()),
        (_, Some(family)) => {
            let bits = p.kind == "bits";
            ("", family_text(b, index, family, bits, c_type, ty.starts_with('*')))
        }
        ("bits" | "one", None) => ("", String::new()),
        ("in", _) => (" (read by the driver)", String::new()),
        ("out", _) => (" (written by the driver)", String::new()),
        ("inout", _) => (" (read, then written back, by the driver)", String::new()),
        ("slot", _) => (" (a value in the pointer's own bits, no pointer)", String::new()),
        (_, _) => (" (never read or written through by the driver)", String::new()),
    };
    let text =
        [what.as_str(), p.text].iter().filter(|t| !t.is_empty()).copied().collect::<Vec<_>>();
    Some(format!("- `{name}`{label}: {}", text.join(" ")))
}

/// What an integer parameter (or the integer a pointer parameter holds)
/// takes: an enum's values, converted to `c_type` with `.into()`, or the
/// constants of a `#define` family (`CU_MEMHOSTALLOC_*`).
fn family_text(
    b: &Bindings,
    index: &Index,
    family: &str,
    bits: bool,
    c_type: &str,
    written: bool,
) -> String {
    let how = match (bits, written) {
        (true, false) => "values, combined with `|`",
        (false, false) => "value, one of them",
        (true, true) => "values, combined with `|`, written by the driver",
        (false, true) => "value, written by the driver",
    };
    if let Some(prefix) = family.strip_suffix('*') {
        let names: Vec<String> = index
            .constants
            .iter()
            .filter(|n| n.starts_with(prefix))
            .map(|n| format!("[`{n}`]"))
            .collect();
        return match names.is_empty() {
            true => format!("the `{family}` constants' {how}."),
            false => format!("the `{family}` constants' {how}: {}.", names.join(", ")),
        };
    }
    // Under its typedef (`CUstream_flags`), or its own name where C's typedef
    // names an anonymous enum (`CUgreenCtxCreate_flags`).
    let enumerators = b.enumerators.iter().chain(b.modules.iter().flat_map(|m| &m.enumerators));
    let aliases = b.aliases.iter().chain(b.modules.iter().flat_map(|m| &m.aliases));
    let known = { aliases }.any(|(_, t)| t == family) || { enumerators }.any(|e| e.owner == family);
    let shown = if known { format!("[`{family}`]") } else { format!("`{family}`") };
    format!(
        "{article} {shown} {how} (`.into()` gives the `{c_type}`).",
        article = match bits {
            true => "the",
            false => "a",
        }
    )
}

/// For a getter or setter of attributes: what its value parameter must be,
/// linked to the enum's value-type table.
fn attribute_lines(b: &Bindings, index: &Index, f: &Function) -> Vec<String> {
    let Some(owners) = index.accessors.get(f.name.as_str()) else { return Vec::new() };
    let params = params(&f.decl);
    let mut lines = Vec::new();
    for &(owner, get) in owners {
        let typedef = b.typedef_of(owner);
        let table = format!("[value types]({typedef}#value-types)");
        // The enum under any of its names (`CUstreamAttrID` is `CUlaunchAttributeID`).
        let is_enum = |ty: &str| {
            let ty = resolve(b, ty.trim_start_matches("*mut").trim_start_matches("*const"));
            ty == owner
        };
        let Some(attr) = params.iter().position(|(_, ty)| is_enum(ty)) else {
            // The attributes come inside a struct (`cuLaunchKernelEx`'s `config`).
            lines.push(format!(
                "The [`{typedef}`] values it takes each carry a value of that attribute's type: \
                 see the {table}."
            ));
            continue;
        };
        if b.is_option(owner) {
            // An array of options, beside an array of their values.
            let (options, values) =
                (&params[attr].0, params.get(attr + 1).map_or("", |(v, _)| v.as_str()));
            lines.push(format!(
                "Slot `i` of `{values}` holds the value of option `{options}[i]`, of that \
                 option's type (the {table} of [`{typedef}`], or `{options}[i].value_type()`): an \
                 integer in the slot's own bits (`v as usize as *mut c_void`), a pointer as \
                 itself. The driver writes the results of the `Out` and `InOut` options back into \
                 their slots, a `float` in the low 4 bytes (`f32::from_bits(slot as usize as u32)`)."
            ));
            continue;
        }
        let pointer = |ty: &str| {
            (ty.starts_with("*mut") || (!get && ty.starts_with("*const"))) && !is_enum(ty)
        };
        let value = params.iter().find(|(_, ty)| pointer(ty)).or(match get {
            true => None,
            false => params.get(attr + 1),
        });
        let Some((value, value_ty)) = value else { continue };
        let entries: Vec<&Typed> = b.typed.iter().filter(|t| t.owner == owner).collect();
        let c = &entries[0].c_type;
        let one_type = entries.iter().all(|t| t.c_type == *c && t.member.is_none());
        let (attr, points) = (&params[attr].0, value_ty.starts_with('*'));
        if entries.iter().any(|t| t.member.is_some()) {
            lines.push(format!(
                "Which member of the union `{value}` points to holds the value depends on \
                 `{attr}`: see the {table} of [`{typedef}`], or ask `{attr}.typed()`."
            ));
            continue;
        }
        lines.push(match (one_type, get, points) {
            (true, true, _) => format!(
                "`{value}` receives {a} `{c}`{size} for every [`{typedef}`] (its {table}).",
                a = article(c),
                size = bytes(entries[0]).map_or(String::new(), |b| format!(" ({b})"))
            ),
            (true, false, _) => {
                format!("`{value}` is {a} `{c}` for every [`{typedef}`] (its {table}).", a = article(c))
            }
            (false, true, _) => format!(
                "What `{value}` points to must have the value type of `{attr}`, which differs from \
                 one [`{typedef}`] to another: see its {table}, or ask `{attr}.value_type()`. The \
                 driver writes that many bytes, whatever the buffer's size."
            ),
            (false, false, true) => format!(
                "What `{value}` points to must have the value type of `{attr}`, which differs from \
                 one [`{typedef}`] to another: see its {table}, or ask `{attr}.value_type()`."
            ),
            (false, false, false) => format!(
                "Which values `{value}` may take depends on `{attr}`: see the {table} of [`{typedef}`]."
            ),
        });
    }
    lines
}
