//! The crate's own documentation lines, added to generated and pregenerated
//! bindings alike (after the header's text, where there is any):
//! - each enum: what it is, the functions that take or write it, and for one
//!   whose enumerators have value types, a table of them;
//! - each enumerator: its value (`CU_MEMPOOL_ATTR_RELEASE_THRESHOLD = 4`, a
//!   mask's in hex), and for an attribute its value type, size, getters,
//!   setters and where the type comes from;
//! - each item that not every pregenerated release declares: since when;
//! - each function: what it does (first, before the header's text), what its
//!   ABI changed, its C name where a macro renames it, what an attribute
//!   getter's or setter's value must be, the result codes and functions its
//!   header documentation names (linked), its page of NVIDIA's reference, and
//!   the driver it needs;
//! - each `CUresult`: what it means and what a caller does about it;
//! - each struct or union bindgen names (`CUmemLocation_st__bindgen_ty_1`):
//!   the member of which record it is.
//!
//! The memory-pool and pointer attributes also get a sentence each (`sentences`).

use std::collections::{BTreeMap, HashMap, HashSet};

use crate::model::dotted;
use crate::model::CudaVersion;
use crate::model::{Bindings, Documented, Enumerator, Function, Module, Origin, Typed};
use crate::sentences::{abi_note, family, result, sentence, summary, ENUMS, REFUSED_BY_13_0};

/// The line each function's documentation gets: the driver it needs, as the
/// header `typedefs` (`cudaTypedefs.h`, or an interop module's) dates it.
pub(crate) fn since(version: u32, typedefs: &str) -> String {
    let version = CudaVersion { number: version };
    format!("Needs a driver of CUDA {version} or newer (`{typedefs}`).")
}

/// The crate root's paragraph on the release these docs show.
pub(crate) fn crate_root(b: &Bindings, origin: &Origin) -> String {
    let v = b.version;
    let how = match origin {
        Origin::Generated { .. } => format!(
            "These docs are of bindings generated from CUDA {v}'s headers (`CUDA_VERSION` {n}), \
             with the header's documentation after this crate's own.",
            n = v.number
        ),
        Origin::Pregenerated { .. } => format!(
            "These docs are of CUDA {v}'s bindings (`CUDA_VERSION` {n}) from the crate's \
             pregenerated set{newest}: docs.rs has no CUDA headers, so its page shows these, \
             with this crate's own documentation and none of the header's.",
            n = v.number,
            newest = match b.history.releases.last() == Some(&v.number) {
                true => ", its newest release",
                false => "",
            }
        ),
    };
    format!(
        "{how} Another release's items are its feature's (`cuda-12080` for 12.8, see [Choosing \
         a CUDA release](#choosing-a-cuda-release)): `cargo doc -p libcuda-sys --features \
         cuda-12080 --open` shows them, and a dependent's docs.rs page shows its release with \
         `[package.metadata.docs.rs] features = [\"libcuda-sys/cuda-12080\"]`. Each function's \
         page says what it does, the driver it needs, and links its page of [NVIDIA's driver \
         API reference]({REFERENCE}).\n"
    )
}

/// NVIDIA's online driver-API reference: a doxygen group is a page of it.
const REFERENCE: &str = "https://docs.nvidia.com/cuda/cuda-driver-api";

/// The page of NVIDIA's reference a group is (each `_` of its name doubled).
fn group_page(group: &str) -> String {
    format!("{REFERENCE}/group__{}.html", group.replace('_', "__"))
}

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
    groups: HashMap<&'a str, &'a str>,
    /// The attribute enums each function reads (`true`) or writes.
    accessors: HashMap<&'a str, Vec<(&'a str, bool)>>,
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
            groups: references
                .flat_map(|r| &r.groups)
                .map(|(id, t)| (id.as_str(), t.as_str()))
                .collect(),
            accessors,
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
        if !d.returns.is_empty() {
            let codes = list(d.returns.iter().collect(), &index.enumerators, "CUresult::");
            after.push(format!("- Result codes its documentation lists: {codes}."));
        }
        let others: Vec<&String> =
            d.refers.iter().filter(|r| **r != f.name && !plain.contains(&r.as_str())).collect();
        if !others.is_empty() {
            after.push(format!("- Related functions: {}.", list(others, &index.bound, "")));
        }
        if let Some(g) = &d.group {
            let title = index.groups.get(g.as_str()).copied().unwrap_or(g);
            after.push(format!("- NVIDIA's reference: [{title}]({}).", group_page(g)));
        }
    }
    if let Some(v) = b.since.as_ref().and_then(|s| s.get(&f.name)) {
        after.push(format!("- {}", since(*v, module.map_or("cudaTypedefs.h", |m| m.typedefs))));
    }
    if let Some(h) = history(b, &f.name) {
        paragraph(&mut after, h);
    }
    (before, after)
}

/// `text` as a paragraph after `lines`: a blank line between.
fn paragraph(lines: &mut Vec<String>, text: String) {
    if !lines.is_empty() {
        lines.push(String::new());
    }
    lines.push(text);
}

/// `a` or `an`, before a word.
fn article(word: &str) -> &'static str {
    match word.starts_with(['a', 'e', 'i', 'o', 'u', 'A', 'E', 'I', 'O', 'U']) {
        true => "an",
        false => "a",
    }
}

/// What a type name stands for, through every re-export (`pub use self::A as
/// B;`) and type alias (`pub type A = B;`, as tokens or formatted).
fn resolve(b: &Bindings, name: &str) -> String {
    let mut name = name.to_string();
    for _ in 0..8 {
        if let Some((target, _)) = b.aliases.iter().find(|(_, alias)| *alias == name) {
            name = target.clone();
            continue;
        }
        let alias = format!("pub type {name} ");
        let Some(at) = b.types.find(&alias) else { break };
        let rest = &b.types[at + alias.len()..];
        let target: String = rest.split(';').next().unwrap_or("").split_whitespace().collect();
        match target.strip_prefix('=') {
            Some(t)
                if !t.is_empty() && t.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') =>
            {
                name = t.to_string()
            }
            _ => break,
        }
    }
    name
}

/// `(name, type)` of each parameter of a declaration, the type without blanks.
fn params(decl: &str) -> Vec<(String, String)> {
    let Some(at) = decl.find("pub fn ") else { return Vec::new() };
    let rest = &decl[at..];
    let (Some(open), Some(close)) = (rest.find('('), rest.rfind(") ->")) else {
        return Vec::new();
    };
    rest[open + 1..close]
        .split(',')
        .filter_map(|p| p.split_once(':'))
        .map(|(n, ty)| (n.trim().to_string(), ty.split_whitespace().collect()))
        .collect()
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

/// Which pregenerated releases declare an item.
enum Presence {
    /// Every one.
    All,
    /// Runs of consecutive releases (`12.0 to 12.9`), oldest first.
    Runs(Vec<(u32, u32)>),
    /// None: the item is new in headers newer than them.
    New,
}

fn presence(b: &Bindings, name: &str) -> Presence {
    let all = &b.history.releases;
    let Some(have) = b.history.of.get(name) else {
        return Presence::New;
    };
    if have == all {
        return Presence::All;
    }
    let mut runs: Vec<(u32, u32)> = Vec::new();
    for (i, &r) in all.iter().enumerate().filter(|(_, r)| have.contains(r)) {
        // The release before `r` ends the last run: `r` extends it.
        match runs.last_mut() {
            Some(last) if i > 0 && all[i - 1] == last.1 => last.1 = r,
            _ => runs.push((r, r)),
        }
    }
    Presence::Runs(runs)
}

/// Runs as the docs write them: `13.2` for one that reaches the newest
/// release, else `12.0 to 12.9, 13.1`.
fn releases_text(b: &Bindings, runs: &[(u32, u32)]) -> String {
    let newest = b.history.releases.last().copied();
    match runs {
        [(first, last)] if Some(*last) == newest => dotted(*first),
        runs => runs
            .iter()
            .map(
                |&(a, z)| {
                    if a == z {
                        dotted(a)
                    } else {
                        format!("{} to {}", dotted(a), dotted(z))
                    }
                },
            )
            .collect::<Vec<_>>()
            .join(", "),
    }
}

/// Which pregenerated releases declare `name`, where not all do: "In the
/// headers since CUDA 13.2." The headers' own release where no pregenerated one
/// has it (generated bindings of a newer release).
pub fn history(b: &Bindings, name: &str) -> Option<String> {
    let all = &b.history.releases;
    match presence(b, name) {
        Presence::All => None,
        Presence::New => (!all.contains(&b.version.number)).then(|| {
            format!(
                "Not in the headers of any release from CUDA {} to {}: new in these ({}).",
                dotted(*all.first().unwrap_or(&0)),
                dotted(*all.last().unwrap_or(&0)),
                b.version
            )
        }),
        Presence::Runs(runs) => Some(match runs.as_slice() {
            [(_, last)] if all.last() == Some(last) => {
                format!("In the headers since CUDA {}.", releases_text(b, &runs))
            }
            _ => format!("In the headers of CUDA {} only.", releases_text(b, &runs)),
        }),
    }
}

/// An enumerator's value as the docs show it: in hex for a mask's.
pub(crate) fn value(b: &Bindings, e: &Enumerator) -> Option<String> {
    let v = e.value?;
    Some(if b.bitmasks.contains(&e.owner) {
        // `1 << 31` of an `int` enum is its 32-bit pattern, not a negative number.
        format!("{:#x}", if v < 0 { v & 0xffff_ffff } else { v })
    } else {
        v.to_string()
    })
}

/// `[`a`], [`b`] and [`c`]`.
fn linked(names: &[String]) -> String {
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    links(&names)
}

/// How an attribute can be set, in a sentence.
fn access(typed: &Typed) -> String {
    match (typed.setters.as_slice(), typed.reset_only) {
        ([], _) => "read-only".to_string(),
        (setters, true) => format!("read-only, except that {} can reset it to 0", linked(setters)),
        (setters, false) => format!("set with {}", linked(setters)),
    }
}

/// Its size as the docs write it: `8 bytes, unsigned`.
fn bytes(typed: &Typed) -> Option<String> {
    let (size, _) = typed.layout?;
    let sign = match typed.signed {
        Some(true) => ", signed",
        Some(false) => ", unsigned",
        None => "",
    };
    let each = if typed.shape == "array" { " each" } else { "" };
    let unit = if size == 1 { "byte" } else { "bytes" };
    Some(format!("{size} {unit}{each}{sign}"))
}

/// Where the value type comes from, in a sentence.
fn source(b: &Bindings, typed: &Typed) -> String {
    let kind = typed.source.split_once(' ').map_or(typed.source.as_str(), |(k, _)| k);
    let at = || {
        let (line, bound) = cited(b, typed).unwrap_or_default();
        let (release, line) = line.split_once(':').unwrap_or((&line, ""));
        let other = match bound {
            true => String::new(),
            false => {
                format!(" (the facts table cites no line of CUDA {}'s, bound here)", b.version)
            }
        };
        format!("CUDA {release}'s `cuda.h`, line {line}{other},")
    };
    match kind {
        "comment" => "`cuda.h` declares it in the enumerator's comment.".into(),
        "signature" if typed.member.is_some() => {
            "The getter writes a union; `cuda.h`'s comments name the member.".into()
        }
        "signature" => match typed.getters.first() {
            Some(g) => format!("The signature of [`{g}`] fixes it."),
            None => "The getter's signature fixes it.".into(),
        },
        "measured" => format!(
            "{} says what the value is but not its C type: the width is the one a CUDA \
             13.0 driver (580.159.04) writes, measured on an H200; `tests/gpu_attributes.rs` \
             measures it on any GPU.",
            at()
        ),
        "named" => format!(
            "{} says what the value is but not its C type, and no driver this crate was \
             measured on has it yet: the type is the one `cuda.h` gives such a value elsewhere.",
            at()
        ),
        _ => format!("{} states it (this crate's facts table).", at()),
    }
}

/// The `cuda.h` line the facts table cites for a value type from it, `13.0:14172`:
/// that of the release bound where its header says it (`true`), else the
/// table's own (`false`); `None` for a type from the header or a signature.
pub(crate) fn cited(b: &Bindings, typed: &Typed) -> Option<(String, bool)> {
    let (kind, _) = typed.source.split_once(' ')?;
    if !["documented", "measured", "named"].contains(&kind) {
        return None;
    }
    let fact = crate::sentences::facts().iter().find(|f| f.enumerator == typed.name)?;
    Some(fact.cited(&dotted(b.version.number)))
}

/// The lines of an enumerator with a value type: its sentence, then ours.
fn value_type_lines(b: &Bindings, typed: &Typed) -> Vec<String> {
    let c = &typed.c_type;
    let size = bytes(typed).map_or(String::new(), |b| format!(" ({b})"));
    let what = match (typed.member.as_deref(), typed.shape.as_str()) {
        (Some(m), _) => format!("Value: the member `{m}` of the union, `{c}`{size}"),
        (None, "boolean") => format!("Value type `{c}`{size}, a boolean: zero or not"),
        (None, "array") => {
            format!("Value type an array of `{c}`{size}, as many as the size passed")
        }
        (None, "string") => format!("Value type `{c}`{size}, a NUL-terminated string"),
        _ => format!("Value type `{c}`{size}"),
    };
    let read = match typed.getters.as_slice() {
        [] => "no function reads it back".to_string(),
        getters => format!("read with {}", linked(getters)),
    };
    let mut lines = vec![format!("{what}; {read}; {}. {}", access(typed), source(b, typed))];
    if let Some(s) = sentence(&typed.name) {
        lines.splice(0..0, [s.to_string(), String::new()]);
    }
    lines
}

/// The line of an attribute enum's enumerator that has no value type.
fn untyped_line(b: &Bindings, e: &Enumerator) -> String {
    let last = b.enumerators.iter().filter(|x| x.owner == e.owner).filter_map(|x| x.value).max();
    let no_value = crate::sentences::facts().iter().any(|f| f.enumerator == e.name && f.ty == "-");
    if e.name.ends_with("_MAX") && e.value == last {
        "The end of the enum, not an attribute: no value type.".into()
    } else if no_value {
        "An entry that takes no value: no value type.".into()
    } else {
        "No value type in these bindings: this crate's facts table does not know it yet, so \
         `value_type()` gives `None`."
            .into()
    }
}

/// Who uses each type name: `(functions taking it, functions writing one
/// through a `*mut` pointer)`, from their signatures, each read once.
type Users<'a> = BTreeMap<&'a str, (Vec<&'a str>, Vec<&'a str>)>;

fn users(b: &Bindings) -> Users<'_> {
    let mut out: Users = BTreeMap::new();
    for f in &b.functions {
        // The signature only: the attributes before it hold the header's text.
        let Some(at) = f.decl.find("pub fn ") else { continue };
        let words: Vec<&str> = f.decl[at..]
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .filter(|w| !w.is_empty())
            .collect();
        for (i, w) in words.iter().enumerate().skip(2) {
            let (take, write) = out.entry(w).or_default();
            let list = if words[i - 1] == "mut" { write } else { take };
            if list.last() != Some(&f.name.as_str()) {
                list.push(&f.name);
            }
        }
    }
    out
}

fn links(names: &[&str]) -> String {
    const SHOWN: usize = 24;
    let mut out: Vec<String> = names.iter().take(SHOWN).map(|n| format!("[`{n}`]")).collect();
    if names.len() > SHOWN {
        out.push(format!("{} more", names.len() - SHOWN));
    }
    match out.len() {
        1 => out.remove(0),
        n => format!("{} and {}", out[..n - 1].join(", "), out[n - 1]),
    }
}

/// An enum's own lines: what it is, who takes it, and its value-type table.
fn enum_lines(b: &Bindings, users: &Users, owner: &str) -> Vec<String> {
    let typedef = b.typedef_of(owner);
    let mut lines = Vec::new();
    if let Some((_, s)) = ENUMS.iter().find(|(e, _)| *e == owner) {
        lines.extend([s.to_string(), String::new()]);
    }
    // C spells an enum without a typedef `enum X`.
    let c_name =
        if typedef == owner { format!("type `enum {owner}`") } else { format!("enum `{typedef}`") };
    lines.push(format!(
        "The C {c_name} as a newtype over its integer: its values are the associated \
         constants, also at the crate root under their C names, and [`{owner}::name`] names one."
    ));
    if b.bitmasks.iter().any(|m| m == owner) {
        lines.push(String::new());
        lines.push("A mask (see [`BITMASKS`]): its values are bits, combined with `|`.".into());
    }
    let (mut take, mut write) = (Vec::new(), Vec::new());
    for name in [owner, typedef] {
        if let Some((t, w)) = users.get(name) {
            take.extend(t.iter().filter(|f| !take.contains(*f)).copied().collect::<Vec<_>>());
            write.extend(w.iter().filter(|f| !write.contains(*f)).copied().collect::<Vec<_>>());
        }
    }
    if typedef == "CUresult" {
        lines.extend([String::new(), "Every driver function returns one.".into()]);
    } else {
        for (list, verb) in [(&take, "Taken by"), (&write, "Written by")] {
            if !list.is_empty() {
                let how = if verb == "Written by" { " (through a pointer)" } else { "" };
                lines.extend([String::new(), format!("{verb} {}{how}.", links(list))]);
            }
        }
    }
    let typed: Vec<&Typed> = b.typed.iter().filter(|t| t.owner == owner).collect();
    if !typed.is_empty() {
        lines.extend([
            String::new(),
            "# Value types".into(),
            String::new(),
            "| value | name | value type | bytes | access | since | from |".into(),
            "|---|---|---|---|---|---|---|".into(),
        ]);
        for t in typed {
            let e = b.enumerators.iter().find(|e| e.name == t.name);
            let value = e.and_then(|e| value(b, e)).unwrap_or_default();
            let since = match presence(b, &t.name) {
                Presence::All => "every release".to_string(),
                Presence::Runs(runs) => releases_text(b, &runs),
                Presence::New => b.version.to_string(),
            };
            let ty = match (&t.member, t.shape.as_str()) {
                (Some(m), _) => format!("`.{m}`: `{}`", t.c_type),
                (None, "scalar") => format!("`{}`", t.c_type),
                (None, shape) => format!("`{}` ({shape})", t.c_type),
            };
            let access = match (t.setters.is_empty(), t.reset_only) {
                (true, _) => "read-only",
                (false, true) => "reset to 0",
                (false, false) => "settable",
            };
            let line = cited(b, t).map(|(line, _)| line);
            let from = match (t.source.split_once(' '), line) {
                (Some((kind @ ("measured" | "named"), _)), Some(line)) => {
                    format!("{kind} ({line})")
                }
                (_, Some(line)) => format!("cuda.h {line}"),
                _ => t.source.clone(),
            };
            lines.push(format!(
                "| {value} | [`{n}`]({typedef}::{n}) | {ty} | {} | {access} | {since} | {from} |",
                bytes(t).unwrap_or_else(|| "?".into()),
                n = t.name
            ));
        }
    }
    lines
}

/// The types text, each item with this crate's lines.
pub(crate) fn types(b: &Bindings) -> String {
    let mut lines: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    for e in &b.enumerators {
        let mut own = Vec::new();
        if let Some(v) = value(b, e) {
            own.push(format!("`{} = {v}`", e.name));
        }
        if let Some(t) = b.typed.iter().find(|t| t.name == e.name) {
            own.push(String::new());
            own.extend(value_type_lines(b, t));
        } else if b.typed.iter().any(|t| t.owner == e.owner) {
            own.extend([String::new(), untyped_line(b, e)]);
        }
        if let Some((meaning, action)) = result(&e.name).filter(|_| e.owner == "cudaError_enum") {
            own.extend([
                String::new(),
                format!("Meaning: {meaning}. What a caller does: {action}"),
            ]);
        }
        if let Some(h) = history(b, &e.name) {
            let older = if REFUSED_BY_13_0.contains(&e.name.as_str()) {
                "A CUDA 13.0 driver refuses it: `CUDA_ERROR_INVALID_VALUE`."
            } else {
                "A driver of an older release may not know it."
            };
            own.extend([String::new(), format!("{h} {older}")]);
        }
        lines.entry(e.name.as_str()).or_default().extend(own);
    }
    let mut owners: Vec<&str> = b.enumerators.iter().map(|e| e.owner.as_str()).collect();
    owners.dedup();
    let users = users(b);
    for owner in owners {
        lines.entry(owner).or_default().extend(enum_lines(b, &users, owner));
    }
    one_page_per_enum(&b.aliases, &mut lines);
    let anonymous = anonymous(&b.types);
    for (name, line) in &anonymous {
        lines.entry(name).or_default().push(line.clone());
    }
    for name in b.history.of.keys() {
        if !lines.contains_key(name.as_str()) {
            if let Some(h) = history(b, name) {
                lines.insert(name, vec![h]);
            }
        }
    }
    insert_all(&b.types, &lines)
}

/// One page per C enum, under its typedef's name: the newtype (`cudaError_enum`)
/// is hidden and its re-export under the typedef (`pub use self::cudaError_enum
/// as CUresult;`) inlined, so that rustdoc shows `CUresult` once and links
/// every mention of either name there, instead of two identical pages.
pub(crate) fn one_page_per_enum<'a>(
    aliases: &'a [(String, String)],
    lines: &mut BTreeMap<&'a str, Vec<String>>,
) {
    for (e, alias) in aliases {
        lines.entry(e).or_default().push("#[doc(hidden)]".into());
        lines.entry(alias).or_default().push("#[doc(inline)]".into());
    }
}

/// For each struct or union bindgen names after its parent
/// (`CUmemLocation_st__bindgen_ty_1`, a type C declares inside another without
/// a name of its own), the line that says which member of which record it is.
fn anonymous(types: &str) -> Vec<(String, String)> {
    let records = records(types);
    let mut out = Vec::new();
    for (name, (kind, fields)) in &records {
        let Some((parent, _)) = name.rsplit_once("__bindgen_ty_") else { continue };
        let Some((field, _)) =
            records.get(parent).and_then(|(_, f)| f.iter().find(|(_, t)| t == name))
        else {
            continue;
        };
        let members: Vec<String> =
            fields.iter().map(|(f, _)| format!("`{f}`")).filter(|f| !f.starts_with("`_")).collect();
        let members = match members.as_slice() {
            [] => String::new(),
            [one] => format!(", which holds {one}"),
            [most @ .., last] => format!(", which holds {} and {last}", most.join(", ")),
        };
        let what = match field.strip_prefix("__bindgen_anon_") {
            // C's anonymous member: its own members are the parent's in C.
            Some(_) => format!(
                "The {kind} C declares inside [`{parent}`] without a name{members}: in C they are \
                 members of [`{parent}`] itself; in Rust they are reached through its field `{field}`."
            ),
            None => format!(
                "The type of [`{parent}`]'s member `{field}`, a {kind} C declares inline without a \
                 name of its own{members}."
            ),
        };
        out.push((name.clone(), what));
    }
    out
}

/// `name -> (struct or union, [(field, type)])` of each record of the types
/// text (bindgen's tokens or formatted Rust), the types without blanks.
type Records = BTreeMap<String, (&'static str, Vec<(String, String)>)>;

fn records(types: &str) -> Records {
    let mut out = BTreeMap::new();
    for (kind, marker) in [("struct", "pub struct "), ("union", "pub union ")] {
        for (at, _) in types.match_indices(marker) {
            let rest = &types[at + marker.len()..];
            let name: String =
                rest.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
            let Some(open) = rest.find(['{', ';', '(']).filter(|&i| rest[i..].starts_with('{'))
            else {
                continue;
            };
            let body = block(&rest[open + 1..]);
            let fields = body
                .split(',')
                .filter_map(|f| f.rsplit_once("pub ").map(|(_, f)| f))
                .filter_map(|f| f.split_once(':'))
                .map(|(n, t)| (n.trim().to_string(), t.split_whitespace().collect::<String>()))
                .collect();
            out.insert(name, (kind, fields));
        }
    }
    out
}

/// The text up to the `}` that closes a block, its doc attributes' strings skipped.
fn block(text: &str) -> String {
    let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
    let mut out = String::new();
    for c in text.chars() {
        match (in_string, c) {
            (true, _) if escaped => escaped = false,
            (true, '\\') => escaped = true,
            (true, '"') => in_string = false,
            (true, _) => {}
            (false, '"') => in_string = true,
            (false, '{') => depth += 1,
            (false, '}') if depth == 0 => break,
            (false, '}') => depth -= 1,
            (false, c) => out.push(c),
        }
    }
    out
}

/// `text` with `#[doc = ...]` lines before each `pub <keyword> <name>` that
/// `lines` has lines for (after the item's own attributes, so that they follow
/// its documentation), in one pass. A line that starts with `#[` is an
/// attribute, written as it is; a re-export (`pub use self::X as Y;`) is named
/// by its `Y`.
pub(crate) fn insert_all(text: &str, lines: &BTreeMap<&str, Vec<String>>) -> String {
    const KEYWORDS: [&str; 7] = ["const", "struct", "union", "type", "fn", "static", "use"];
    let mut out = String::with_capacity(text.len() + text.len() / 4);
    let mut rest = text;
    while let Some(at) = rest.find("pub ") {
        let after = &rest[at + 4..];
        let word = |s: &str| {
            let end = s.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(s.len());
            s[..end].to_string()
        };
        let keyword = word(after);
        let name = match keyword.as_str() {
            "use" => after[..after.find(';').unwrap_or(after.len())]
                .rsplit_once(" as ")
                .map_or(String::new(), |(_, alias)| word(alias.trim_start())),
            _ => word(after[keyword.len()..].trim_start()),
        };
        // Not the end of a longer word (`mypub `).
        let prev = rest[..at].chars().next_back().or(out.chars().next_back());
        let own = prev.is_none_or(|c| !(c.is_ascii_alphanumeric() || c == '_'));
        out.push_str(&rest[..at]);
        if own && KEYWORDS.contains(&keyword.as_str()) {
            if let Some(add) = lines.get(name.as_str()).filter(|l| !l.is_empty()) {
                let attribute = |l: &String| l.starts_with("#[");
                // A blank doc line first, so that ours is a paragraph of its own.
                if !add.iter().all(attribute) {
                    out.push_str("#[doc = \"\"] ");
                }
                for line in add {
                    match attribute(line) {
                        true => out.push_str(line),
                        false => out.push_str(&format!("#[doc = {line:?}]")),
                    }
                    out.push(' ');
                }
            }
        }
        out.push_str("pub ");
        rest = after;
    }
    out.push_str(rest);
    out
}

/// `#[doc = "..."]` lines inserted in `decl` (one declaration) before its `pub fn`.
pub(crate) fn insert_before(decl: &str, name: &str, add: &[String]) -> String {
    insert_all(decl, &BTreeMap::from([(name, add.to_vec())]))
}
