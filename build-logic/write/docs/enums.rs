//! An enum's page and its enumerators': what the enum is and who takes it,
//! with the table of its enumerators' value types where they have them; each
//! enumerator's value and value type, and for a `CUresult` its meaning.

use std::collections::BTreeMap;

use crate::model::{dotted, Bindings, Enumerator, Function, Typed};
use crate::sentences::{contracts, enumerator_row, result, sentence, ENUMS, REFUSED_BY_13_0};

use super::{
    article, group_page, history, linked, links, presence, releases_text, value, Presence,
};

/// The enums of one header: `cuda.h`'s, or an interop module's.
pub(crate) struct Scope<'a> {
    pub enumerators: &'a [Enumerator],
    /// `(enum, typedef)`, as in [`Bindings::aliases`].
    pub aliases: &'a [(String, String)],
    /// The functions that may take or write them.
    pub functions: &'a [Function],
    /// The group of NVIDIA's reference whose page documents them (`CUDA_TYPES`).
    pub group: &'a str,
    /// Whether the release history (`b.history`) covers them: it holds `cuda.h`'s items only.
    pub dated: bool,
}

/// How an attribute can be set, in a sentence.
pub(super) fn access(typed: &Typed) -> String {
    match (typed.setters.as_slice(), typed.reset_only) {
        ([], _) => "read-only".to_string(),
        (setters, true) => format!("read-only, except that {} can reset it to 0", linked(setters)),
        (setters, false) => format!("set with {}", linked(setters)),
    }
}

/// Its size as the docs write it: `8 bytes, unsigned`.
pub(super) fn bytes(typed: &Typed) -> Option<String> {
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
pub(super) fn source(b: &Bindings, typed: &Typed) -> String {
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
pub(super) fn value_type_lines(b: &Bindings, typed: &Typed) -> Vec<String> {
    let c = &typed.c_type;
    let size = bytes(typed).map_or(String::new(), |b| format!(" ({b})"));
    let what = match (typed.member.as_deref(), typed.shape.as_str()) {
        (Some(m), _) => format!("Value: the member `{m}` of the union, `{c}`{size}"),
        (None, "boolean") => format!("Value type `{c}`{size}, a boolean: zero or not"),
        (None, "array") => {
            format!("Value type an array of `{c}`{size}, as many as the size passed")
        }
        (None, "string") => format!("Value type `{c}`{size}, a NUL-terminated string"),
        (None, "slot") => {
            format!("In its slot of the values array: {a} `{c}`{size}", a = article(c))
        }
        (None, "out") => format!(
            "In its slot of the values array: {a} `{c}`{size} that the driver writes there \
             (what the slot held is not read)",
            a = article(c)
        ),
        (None, "inout") => format!(
            "In its slot of the values array: {a} `{c}`{size} that the driver reads, then \
             overwrites with its result",
            a = article(c)
        ),
        _ => format!("Value type `{c}`{size}"),
    };
    let what = match &typed.values {
        Some(e) => format!("{what}, holding a [`{e}`] value (`.into()` converts one)"),
        None => what,
    };
    let read = match (typed.getters.as_slice(), b.is_option(&typed.owner)) {
        (_, true) => format!("passed to {}", linked(&typed.setters)),
        ([], false) => format!("no function reads it back; {}", access(typed)),
        (getters, false) => format!("read with {}; {}", linked(getters), access(typed)),
    };
    let mut lines = vec![format!("{what}; {read}. {}", source(b, typed))];
    if let Some(s) = sentence(&typed.name) {
        lines.splice(0..0, [s.to_string(), String::new()]);
    }
    lines
}

/// The line of an attribute enum's enumerator that has no value type.
pub(super) fn untyped_line(b: &Bindings, e: &Enumerator) -> String {
    let last = b.enumerators.iter().filter(|x| x.owner == e.owner).filter_map(|x| x.value).max();
    let no_value = crate::sentences::facts().iter().any(|f| f.enumerator == e.name && f.ty == "-");
    if crate::model::end_marker(&e.name) && e.value == last {
        "The end of the enum, not an attribute: no value type.".into()
    } else if b.is_option(&e.owner) {
        "Its comment in the header states no value type (it takes none, or is for NVIDIA's \
         own use): `value_type()` gives `None`."
            .into()
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
pub(super) type Users<'a> = BTreeMap<&'a str, (Vec<&'a str>, Vec<&'a str>)>;

pub(super) fn users(functions: &[Function]) -> Users<'_> {
    let mut out: Users = BTreeMap::new();
    for f in functions {
        // The signature only: the attributes before it hold the header's text,
        // which may say anything (`code_only` blanks it).
        let Some(at) = super::code_only(&f.decl).find("pub fn ") else { continue };
        let words: Vec<&str> = f.decl[at..]
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .filter(|w| !w.is_empty())
            .collect();
        for (i, w) in words.iter().enumerate().skip(2) {
            let (take, write) = out.entry(w).or_default();
            // `*mut` is written, but for an array of options (`options: *mut CUjit_option`).
            let written = words[i - 1] == "mut" && !words[i - 2].contains("ption");
            let list = if written { write } else { take };
            if list.last() != Some(&f.name.as_str()) {
                list.push(&f.name);
            }
        }
    }
    out
}

/// An enum's own lines: what it is, who takes it, and its value-type table.
pub(super) fn enum_lines(b: &Bindings, scope: &Scope, users: &Users, owner: &str) -> Vec<String> {
    let typedef = crate::model::typedef_of(scope.aliases, owner);
    let mut lines = Vec::new();
    if let Some((_, s)) = ENUMS.iter().find(|(e, _)| *e == owner) {
        lines.extend([s.to_string(), String::new()]);
    }
    // C spells an enum without a typedef `enum X`.
    let c_name =
        if typedef == owner { format!("type `enum {owner}`") } else { format!("enum `{typedef}`") };
    lines.push(format!(
        "The C {c_name} as a newtype over its integer: its values are the associated \
         constants, also at the crate root under their C names, and [`{typedef}::name`] names one."
    ));
    if b.bitmasks.iter().any(|m| m == owner) {
        lines.push(String::new());
        lines.push("A mask (see [`BITMASKS`]): its values are bits, combined with `|`.".into());
    }
    lines.extend([
        String::new(),
        format!(
            "NVIDIA's reference: [{}]({}).",
            crate::sentences::group(scope.group).0,
            group_page(scope.group)
        ),
    ]);
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
                (None, "scalar" | "slot") => format!("`{}`", t.c_type),
                (None, shape) => format!("`{}` ({shape})", t.c_type),
            };
            let ty = match &t.values {
                Some(e) => format!("{ty} of [`{e}`]"),
                None => ty,
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

/// The lines of every enum and enumerator of `enumerators` (whose enums have
/// the typedefs `aliases`), into `lines`; each enum on one page.
pub(super) fn lines<'a>(
    b: &'a Bindings,
    scope: &Scope<'a>,
    lines: &mut BTreeMap<&'a str, Vec<String>>,
) {
    for e in scope.enumerators {
        let mut own = Vec::new();
        if let Some(v) = value(b, e) {
            own.push(format!("`{} = {v}`", e.name));
        }
        if let Some(line) = enumerator_row(&e.name) {
            super::paragraph(&mut own, line.to_string());
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
        for c in contracts(&e.name) {
            own.extend([String::new(), c.to_string()]);
        }
        if let Some(h) = history(b, &e.name).filter(|_| scope.dated) {
            let older = if REFUSED_BY_13_0.contains(&e.name.as_str()) {
                "A CUDA 13.0 driver refuses it: `CUDA_ERROR_INVALID_VALUE`."
            } else {
                "A driver of an older release may not know it."
            };
            own.extend([String::new(), format!("{h} {older}")]);
        }
        lines.entry(e.name.as_str()).or_default().extend(own);
    }
    let mut owners: Vec<&str> = scope.enumerators.iter().map(|e| e.owner.as_str()).collect();
    owners.dedup();
    let users = users(scope.functions);
    for owner in owners {
        lines.entry(owner).or_default().extend(enum_lines(b, scope, &users, owner));
    }
    super::one_page_per_enum(scope.aliases, lines);
}
