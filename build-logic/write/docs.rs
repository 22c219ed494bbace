//! The crate's own documentation lines, added to generated and pregenerated
//! bindings alike (after the header's text, where there is any), one file per
//! kind of page:
//! - `functions`: what each function does, its calling contract, what its
//!   untyped parameters take and which way its pointers go, what an attribute
//!   getter's or setter's value must be, the result codes, related functions
//!   and page of NVIDIA's reference, and the driver it needs;
//! - `enums`: each enum, what it is and who takes it, with a table of its
//!   enumerators' value types where they have them; each enumerator's value,
//!   value type, and for a `CUresult` its meaning;
//! - `records`: each struct and union, its page of NVIDIA's reference and
//!   contract, and a line of every field; each `#define` constant's line.
//!
//! This file holds what they share: the release history of an item, links,
//! and the insertion of `#[doc]` lines into Rust text.

use std::collections::BTreeMap;

use crate::model::{dotted, CudaVersion, REFERENCE};
use crate::model::{Bindings, Enumerator};

pub(crate) mod enums;
pub(crate) mod functions;
pub(crate) mod records;

/// The line each function's documentation gets: the driver it needs, as the
/// header `typedefs` (`cudaTypedefs.h`, or an interop module's) dates it.
pub(crate) fn since(version: u32, typedefs: &str) -> String {
    let version = CudaVersion { number: version };
    format!("Needs a driver of CUDA {version} or newer (`{typedefs}`).")
}

/// The page of NVIDIA's reference a group is (each `_` of its name doubled).
pub(crate) fn group_page(group: &str) -> String {
    format!("{REFERENCE}/group__{}.html", group.replace('_', "__"))
}

/// `text` as a paragraph after `lines`: a blank line between.
pub(super) fn paragraph(lines: &mut Vec<String>, text: String) {
    if !lines.is_empty() {
        lines.push(String::new());
    }
    lines.push(text);
}

/// `a` or `an`, before a word.
pub(super) fn article(word: &str) -> &'static str {
    match word.starts_with(['a', 'e', 'i', 'o', 'u', 'A', 'E', 'I', 'O', 'U']) {
        true => "an",
        false => "a",
    }
}

/// What a type name stands for, through every re-export (`pub use self::A as
/// B;`) and type alias (`pub type A = B;`, as tokens or formatted).
pub(super) fn resolve(b: &Bindings, name: &str) -> String {
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
pub(super) fn params(decl: &str) -> Vec<(String, String)> {
    let code = code_only(decl);
    let Some(at) = code.find("pub fn ") else { return Vec::new() };
    let rest = &code[at..];
    let (Some(open), Some(close)) = (rest.find('('), rest.rfind(") ->")) else {
        return Vec::new();
    };
    rest[open + 1..close]
        .split(',')
        .filter_map(|p| p.split_once(':'))
        .map(|(n, ty)| (n.trim().to_string(), ty.split_whitespace().collect()))
        .collect()
}

/// Which pregenerated releases declare an item.
pub(super) enum Presence {
    /// Every one.
    All,
    /// Runs of consecutive releases (`12.0 to 12.9`), oldest first.
    Runs(Vec<(u32, u32)>),
    /// None: the item is new in headers newer than them.
    New,
}

pub(super) fn presence(b: &Bindings, name: &str) -> Presence {
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
pub(super) fn releases_text(b: &Bindings, runs: &[(u32, u32)]) -> String {
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
pub(super) fn linked(names: &[String]) -> String {
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    links(&names)
}

pub(super) fn links(names: &[&str]) -> String {
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

/// The types text, each item with this crate's lines.
pub(crate) fn types(b: &Bindings) -> String {
    let mut lines: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    let scope = enums::Scope {
        enumerators: &b.enumerators,
        aliases: &b.aliases,
        functions: &b.functions,
        group: "CUDA_TYPES",
        dated: true,
    };
    enums::lines(b, &scope, &mut lines);
    let paths = records::lines(b, &b.types, &mut lines);
    for name in b.history.of.keys() {
        if !lines.contains_key(name.as_str()) {
            if let Some(h) = history(b, name) {
                lines.insert(name, vec![h]);
            }
        }
    }
    records::insert_fields(&insert_all(&b.types, &lines), &paths)
}

/// An interop module's types text (`m.types`), each item with this crate's lines.
pub(crate) fn module_types(b: &Bindings, m: &crate::model::Module) -> String {
    let mut lines: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    // Its enums are documented on its own group's page (`CUDA_GL`), its first.
    let group = m.reference.groups.first().map_or("CUDA_TYPES", String::as_str);
    let scope = enums::Scope {
        enumerators: &m.enumerators,
        aliases: &m.aliases,
        functions: &m.functions,
        group,
        dated: false,
    };
    enums::lines(b, &scope, &mut lines);
    let paths = records::lines(b, &m.types, &mut lines);
    records::insert_fields(&insert_all(&m.types, &lines), &paths)
}

/// The constants `cuda.h` defines as casts or second names
/// (`b.macro_constants`), each with this crate's line.
pub(crate) fn macro_constants(b: &Bindings) -> String {
    let mut lines: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    records::lines(b, &b.macro_constants, &mut lines);
    insert_all(&b.macro_constants, &lines)
}

/// The path (`CUDA_RESOURCE_DESC_st.res.array.hArray`) of every named field
/// of the records of `types` (Rust text), as `fields.txt` names them.
pub fn field_paths(types: &str) -> Vec<String> {
    let records = records::records(types);
    let paths = records::paths(&records);
    let mut out = Vec::new();
    for (name, (_, fields)) in &records {
        let Some(path) = paths.get(name) else { continue };
        for (field, _) in fields.iter().filter(|(f, _)| !f.starts_with('_')) {
            out.push(format!("{path}.{field}"));
        }
    }
    out
}

/// Each constant of `text` (Rust text) outside an enum's `impl`, and whether
/// this crate has its line.
pub fn constants(text: &str) -> Vec<(&str, bool)> {
    records::constants(text).into_iter().map(|(name, line)| (name, line.is_some())).collect()
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

/// Rust text with the contents of its string literals blanked, each byte a
/// space, so that a search for items finds only items and never the text of a
/// doc attribute (a header comment may say `pub fn cuInit(...)`). Of the same
/// length: an offset into it is one into `text`.
pub(crate) fn code_only(text: &str) -> String {
    // Byte by byte: a quote or a backslash is never part of another
    // character in UTF-8, and a string's every byte is blanked, so what is
    // left is UTF-8 still. (A build runs this unoptimized, over every
    // declaration and its documentation: bytes, not chars.)
    let mut out = text.as_bytes().to_vec();
    let (mut in_string, mut escaped) = (false, false);
    for b in out.iter_mut() {
        if !in_string {
            in_string = *b == b'"';
            continue;
        }
        match *b {
            _ if escaped => escaped = false,
            b'\\' => escaped = true,
            // The closing quote is code again.
            b'"' => {
                in_string = false;
                continue;
            }
            _ => {}
        }
        *b = b' ';
    }
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// `text` with `#[doc = ...]` lines before each `pub <keyword> <name>` that
/// `lines` has lines for (after the item's own attributes, so that they follow
/// its documentation), in one pass. A line that starts with `#[` is an
/// attribute, written as it is; a re-export (`pub use self::X as Y;`) is named
/// by its `Y`.
pub(crate) fn insert_all(text: &str, lines: &BTreeMap<&str, Vec<String>>) -> String {
    const KEYWORDS: [&str; 7] = ["const", "struct", "union", "type", "fn", "static", "use"];
    let code = code_only(text);
    let word = |s: &str| {
        let end = s.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(s.len());
        s[..end].to_string()
    };
    let mut out = String::with_capacity(text.len() + text.len() / 4);
    let mut last = 0;
    for (at, _) in code.match_indices("pub ") {
        let after = &code[at + 4..];
        let keyword = word(after);
        let name = match keyword.as_str() {
            "use" => after[..after.find(';').unwrap_or(after.len())]
                .rsplit_once(" as ")
                .map_or(String::new(), |(_, alias)| word(alias.trim_start())),
            _ => word(after[keyword.len()..].trim_start()),
        };
        // Not the end of a longer word (`mypub `).
        let own =
            code[..at].chars().next_back().is_none_or(|c| !(c.is_ascii_alphanumeric() || c == '_'));
        if !own || !KEYWORDS.contains(&keyword.as_str()) {
            continue;
        }
        let Some(add) = lines.get(name.as_str()).filter(|l| !l.is_empty()) else { continue };
        out.push_str(&text[last..at]);
        last = at;
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
    out.push_str(&text[last..]);
    out
}

/// `#[doc = "..."]` lines inserted in `decl` (one declaration) before its `pub fn`.
pub(crate) fn insert_before(decl: &str, name: &str, add: &[String]) -> String {
    insert_all(decl, &BTreeMap::from([(name, add.to_vec())]))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A doc attribute that reads like an item (a header comment may say
    /// anything) is text: lines go before the item itself, once.
    #[test]
    fn doc_text_that_reads_like_an_item_is_not_one() {
        let text = "#[doc = \"Call `pub fn cuInit(Flags: u32)` first; \\\"pub struct X {\\\" é\"] \
                    pub fn cuInit(Flags: u32) -> CUresult;";
        let lines = BTreeMap::from([("cuInit", vec!["Ours.".to_string()])]);
        let out = insert_all(text, &lines);
        assert_eq!(out.matches("Ours.").count(), 1, "{out}");
        assert!(out
            .ends_with("#[doc = \"\"] #[doc = \"Ours.\"] pub fn cuInit(Flags: u32) -> CUresult;"));
        assert_eq!(code_only(text).len(), text.len());
        assert_eq!(params(text), [("Flags".to_string(), "u32".to_string())]);
        // Each byte of a string blanked, an escaped quote and a two-byte
        // character included; the quotes themselves stay.
        assert_eq!(code_only("a \"b\\\"é\" c \"d"), "a \"     \" c \" ");
    }
}
