//! The crate's own documentation lines, added to generated and pregenerated
//! bindings alike (after the header's text, where there is any):
//! - each enum: what it is, the functions that take or write it, and for one
//!   whose enumerators have value types, a table of them;
//! - each enumerator: its value (`CU_MEMPOOL_ATTR_RELEASE_THRESHOLD = 4`, a
//!   mask's in hex), and with a value type its C type, size and setter;
//! - each item that not every pregenerated release declares: since when;
//! - each function: the driver it needs.
//!
//! The memory-pool attributes also get a sentence each, written for this
//! crate: the pregenerated set carries none of the header's text, and docs.rs
//! renders it.

use std::collections::BTreeMap;

use crate::output::{Bindings, Enumerator, Typed};
use crate::release::dotted;
use crate::version::CudaVersion;

/// One sentence per `CU_MEMPOOL_ATTR_*`, in the order of their values.
const POOL_ATTRIBUTES: [(&str, &str); 15] = [
    (
        "CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES",
        "Non-zero (the default): an allocation may take memory that another stream \
         freed, once the allocating stream is ordered after that free (by an event, say).",
    ),
    (
        "CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC",
        "Non-zero (the default): an allocation may take memory whose free has already \
         completed, even when nothing orders the two streams.",
    ),
    (
        "CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES",
        "Non-zero (the default): to reuse memory whose free is still pending, the \
         allocator may make the allocating stream wait for it.",
    ),
    (
        "CU_MEMPOOL_ATTR_RELEASE_THRESHOLD",
        "How many bytes of unused reservation the pool keeps through a synchronization: \
         at each stream, event or context synchronize it gives what it holds above this \
         back to the system (0 by default, so it keeps nothing).",
    ),
    (
        "CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT",
        "Bytes the pool has reserved from the system right now, in use or not.",
    ),
    (
        "CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH",
        "The peak of `CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT` since the pool was made \
         or since this value was last set back to 0.",
    ),
    ("CU_MEMPOOL_ATTR_USED_MEM_CURRENT", "Bytes of the pool that live allocations hold right now."),
    (
        "CU_MEMPOOL_ATTR_USED_MEM_HIGH",
        "The peak of `CU_MEMPOOL_ATTR_USED_MEM_CURRENT` since the pool was made or \
         since this value was last set back to 0.",
    ),
    (
        "CU_MEMPOOL_ATTR_ALLOCATION_TYPE",
        "What kind of memory the pool hands out (pinned or managed), as chosen when it \
         was made.",
    ),
    (
        "CU_MEMPOOL_ATTR_EXPORT_HANDLE_TYPES",
        "The OS handle kinds the pool can be shared through with other processes; none \
         (`CU_MEM_HANDLE_TYPE_NONE`) for a pool that was itself imported, which cannot be \
         passed on.",
    ),
    (
        "CU_MEMPOOL_ATTR_LOCATION_ID",
        "The device ordinal or host NUMA node the pool's memory is on; \
         `CU_DEVICE_INVALID` when that place is not visible to this process.",
    ),
    (
        "CU_MEMPOOL_ATTR_LOCATION_TYPE",
        "Where the pool's memory is (a device, the host, a host NUMA node, ...); \
         `CU_MEM_LOCATION_TYPE_INVISIBLE` for an imported pool whose device this process \
         cannot see.",
    ),
    (
        "CU_MEMPOOL_ATTR_MAX_POOL_SIZE",
        "The most bytes the pool may reserve, possibly rounded up from what was asked \
         for at creation; 0 means unlimited.",
    ),
    (
        "CU_MEMPOOL_ATTR_HW_DECOMPRESS_ENABLED",
        "Non-zero when the pool was made for the hardware decompression engine \
         (`CU_MEM_POOL_CREATE_USAGE_HW_DECOMPRESS`).",
    ),
    (
        "CU_MEMPOOL_ATTR_LOCALITY_DOMAIN_ID",
        "For a pool confined to one locality domain of its device, that domain's ID; \
         -1 for a pool that spans the whole device.",
    ),
];

/// This crate's sentence for an enum, where it has one beyond the common one.
const ENUMS: [(&str, &str); 1] = [(
    "CUmemPool_attribute_enum",
    "What [`cuMemPoolGetAttribute`] reads and [`cuMemPoolSetAttribute`] writes of a memory \
     pool: its reuse policy, its release threshold, its usage counters and watermarks, and \
     what it was made with. Each attribute has its own value type, which the pointer passed \
     must point to; the table below, [`CUmemPool_attribute::value_type`] and \
     [`VALUE_TYPES`] give it.",
)];

/// Enumerators newer than CUDA 13.0 that a 13.0 driver (580.159.04, on an
/// H200) answers with `CUDA_ERROR_INVALID_VALUE`, as measured by
/// `tests/gpu_mempool.rs`, `attributes_newer_than_the_driver_are_refused`.
const REFUSED_BY_13_0: [&str; 7] = [
    "CU_MEMPOOL_ATTR_ALLOCATION_TYPE",
    "CU_MEMPOOL_ATTR_EXPORT_HANDLE_TYPES",
    "CU_MEMPOOL_ATTR_LOCATION_ID",
    "CU_MEMPOOL_ATTR_LOCATION_TYPE",
    "CU_MEMPOOL_ATTR_MAX_POOL_SIZE",
    "CU_MEMPOOL_ATTR_HW_DECOMPRESS_ENABLED",
    "CU_MEMPOOL_ATTR_LOCALITY_DOMAIN_ID",
];

/// This crate's sentence for an enumerator, where it has one.
pub fn sentence(name: &str) -> Option<&'static str> {
    POOL_ATTRIBUTES.iter().find(|(n, _)| *n == name).map(|(_, s)| *s)
}

/// The line each function's documentation gets.
pub fn since(version: u32) -> String {
    let version = CudaVersion { number: version };
    format!("Needs a driver of CUDA {version} or newer (`cudaTypedefs.h`).")
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
pub fn value(b: &Bindings, e: &Enumerator) -> Option<String> {
    let v = e.value?;
    Some(if b.bitmasks.contains(&e.owner) {
        // `1 << 31` of an `int` enum is its 32-bit pattern, not a negative number.
        format!("{:#x}", if v < 0 { v & 0xffff_ffff } else { v })
    } else {
        v.to_string()
    })
}

/// Bytes of a value type on every target CUDA supports (64-bit), where known.
fn size(typed: &Typed) -> Option<usize> {
    match typed.c_type.as_str() {
        "int" | "unsigned int" | "cuuint32_t" => Some(4),
        "cuuint64_t" | "size_t" | "CUdeviceptr" => Some(8),
        // C enums are int-sized; bindgen's newtype holds a c_uint or c_int.
        t if t.starts_with("CU") && typed.size_type.is_some() => Some(4),
        _ => None,
    }
}

fn access(typed: &Typed) -> String {
    match (&typed.setter, typed.reset_only) {
        (Some(f), true) => format!("read-only, except that [`{f}`] can reset it to 0"),
        (Some(f), false) => format!("settable with [`{f}`]"),
        (None, _) => "read-only".to_string(),
    }
}

/// The lines of an enumerator with a value type: ours, then its sentence.
fn value_type_lines(typed: &Typed) -> Vec<String> {
    let size = size(typed).map_or(String::new(), |n| format!(" ({n} bytes)"));
    let mut lines = vec![format!("Value type `{}`{size}; {}.", typed.c_type, access(typed))];
    if let Some(s) = sentence(&typed.name) {
        lines.splice(0..0, [s.to_string(), String::new()]);
    }
    lines
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
    let c_name = if typedef == owner { format!("`enum {owner}`") } else { format!("`{typedef}`") };
    lines.push(format!(
        "The C enum {c_name} as a newtype over its integer: its values are the associated \
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
            "| value | name | value type | size | settable | since |".into(),
            "|---|---|---|---|---|---|".into(),
        ]);
        for t in typed {
            let e = b.enumerators.iter().find(|e| e.name == t.name);
            let value = e.and_then(|e| value(b, e)).unwrap_or_default();
            let size = size(t).map_or("?".into(), |n| format!("{n} bytes"));
            let since = match presence(b, &t.name) {
                Presence::All => "every release".to_string(),
                Presence::Runs(runs) => releases_text(b, &runs),
                Presence::New => b.version.to_string(),
            };
            lines.push(format!(
                "| {value} | [`{n}`]({typedef}::{n}) | `{}` | {size} | {} | {since} |",
                t.c_type,
                access(t),
                n = t.name
            ));
        }
    }
    lines
}

/// The types text, each item with this crate's lines.
pub fn types(b: &Bindings) -> String {
    let mut lines: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    for e in &b.enumerators {
        let mut own = Vec::new();
        if let Some(v) = value(b, e) {
            own.push(format!("`{} = {v}`", e.name));
        }
        if let Some(t) = b.typed.iter().find(|t| t.name == e.name) {
            own.push(String::new());
            own.extend(value_type_lines(t));
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
    for name in b.history.of.keys() {
        if !lines.contains_key(name.as_str()) {
            if let Some(h) = history(b, name) {
                lines.insert(name, vec![h]);
            }
        }
    }
    insert_all(&b.types, &lines)
}

/// `text` with `#[doc = ...]` lines before each `pub <keyword> <name>` that
/// `lines` has lines for (after the item's own attributes, so that they follow
/// its documentation), in one pass.
pub fn insert_all(text: &str, lines: &BTreeMap<&str, Vec<String>>) -> String {
    const KEYWORDS: [&str; 6] = ["const", "struct", "union", "type", "fn", "static"];
    let mut out = String::with_capacity(text.len() + text.len() / 4);
    let mut rest = text;
    while let Some(at) = rest.find("pub ") {
        let after = &rest[at + 4..];
        let word = |s: &str| {
            let end = s.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(s.len());
            s[..end].to_string()
        };
        let keyword = word(after);
        let name = word(after[keyword.len()..].trim_start());
        // Not the end of a longer word (`mypub `).
        let prev = rest[..at].chars().next_back().or(out.chars().next_back());
        let own = prev.is_none_or(|c| !(c.is_ascii_alphanumeric() || c == '_'));
        out.push_str(&rest[..at]);
        if own && KEYWORDS.contains(&keyword.as_str()) {
            if let Some(add) = lines.get(name.as_str()).filter(|l| !l.is_empty()) {
                // A blank doc line first, so that ours is a paragraph of its own.
                out.push_str("#[doc = \"\"] ");
                for line in add {
                    out.push_str(&format!("#[doc = {line:?}] "));
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
pub fn insert_before(decl: &str, name: &str, add: &[String]) -> String {
    insert_all(decl, &BTreeMap::from([(name, add.to_vec())]))
}
