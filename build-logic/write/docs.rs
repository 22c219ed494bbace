//! The crate's own documentation lines, added to generated and pregenerated
//! bindings alike (after the header's text, where there is any):
//! - each enum: what it is, the functions that take or write it, and for one
//!   whose enumerators have value types, a table of them;
//! - each enumerator: its value (`CU_MEMPOOL_ATTR_RELEASE_THRESHOLD = 4`, a
//!   mask's in hex), and for an attribute its value type, size, getters,
//!   setters and where the type comes from;
//! - each item that not every pregenerated release declares: since when;
//! - each function: the driver it needs.
//!
//! The memory-pool and pointer attributes also get a sentence each (`sentences`).

use std::collections::BTreeMap;

use crate::model::dotted;
use crate::model::CudaVersion;
use crate::model::{Bindings, Enumerator, Typed};
use crate::sentences::{sentence, ENUMS, REFUSED_BY_13_0};

/// The line each function's documentation gets.
pub(crate) fn since(version: u32) -> String {
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
    Some(format!("{size} bytes{each}{sign}"))
}

/// Where the value type comes from, in a sentence.
fn source(typed: &Typed) -> String {
    let (kind, line) = typed.source.split_once(' ').unwrap_or((&typed.source, ""));
    let at = |line: &str| {
        let (release, line) = line.split_once(':').unwrap_or((line, ""));
        format!("CUDA {release}'s `cuda.h`, line {line}")
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
            at(line)
        ),
        "named" => format!(
            "{} says what the value is but not its C type, and no driver this crate was \
             measured on has it yet: the type is the one `cuda.h` gives such a value elsewhere.",
            at(line)
        ),
        _ => format!("{} states it (this crate's facts table).", at(line)),
    }
}

/// The lines of an enumerator with a value type: its sentence, then ours.
fn value_type_lines(typed: &Typed) -> Vec<String> {
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
    let mut lines = vec![format!("{what}; {read}; {}. {}", access(typed), source(typed))];
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
            let from = match t.source.split_once(' ') {
                Some((kind @ ("measured" | "named"), line)) => format!("{kind} ({line})"),
                Some((_, line)) => format!("cuda.h {line}"),
                None => t.source.clone(),
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
            own.extend(value_type_lines(t));
        } else if b.typed.iter().any(|t| t.owner == e.owner) {
            own.extend([String::new(), untyped_line(b, e)]);
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
pub(crate) fn insert_all(text: &str, lines: &BTreeMap<&str, Vec<String>>) -> String {
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
pub(crate) fn insert_before(decl: &str, name: &str, add: &[String]) -> String {
    insert_all(decl, &BTreeMap::from([(name, add.to_vec())]))
}
