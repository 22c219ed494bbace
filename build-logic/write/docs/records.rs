//! The pages of structs, unions and `#define` constants: each record's page
//! of NVIDIA's reference and calling contract, a line of every field, the
//! parent of each type bindgen names after it, and each constant's line.

use std::collections::BTreeMap;

use crate::model::{Bindings, REFERENCE};
use crate::sentences::{constant, contracts, field};

/// The lines of the records and constants of `text` (types or constants as
/// Rust text, of `b` or of one of its interop modules), into `lines`: which
/// member each anonymous type is, each record's page of NVIDIA's reference and
/// its contract, each constant's line. Returns each record's path, for
/// [`insert_fields`].
pub(super) fn lines<'a>(
    b: &Bindings,
    text: &'a str,
    lines: &mut BTreeMap<&'a str, Vec<String>>,
) -> BTreeMap<&'a str, String> {
    let records = records(text);
    for (name, line) in anonymous(&records) {
        lines.entry(name).or_default().push(line);
    }
    let pages: BTreeMap<&str, &str> = std::iter::once(&b.reference)
        .chain(b.modules.iter().map(|m| &m.reference))
        .flat_map(|r| &r.pages)
        .map(|(tag, page)| (tag.as_str(), page.as_str()))
        .collect();
    for name in records.keys() {
        let own = lines.entry(name).or_default();
        if let Some(page) = pages.get(name) {
            let shown = page.trim_start_matches("struct").trim_start_matches("union");
            own.push(format!(
                "NVIDIA's reference: [{}]({REFERENCE}/{page}.html).",
                shown.replace("__", "_")
            ));
        }
        for c in contracts(name) {
            own.extend([String::new(), c.to_string()]);
        }
    }
    for (name, line) in constants(text) {
        lines.entry(name).or_default().extend(line);
    }
    paths(&records)
}

/// `(name, line)` of each constant of `text` outside an `impl` block (an
/// enum's values are documented with it): its line of `constants.txt`, or for
/// a second name of an enumerator (`CU_STREAM_ATTRIBUTE_PRIORITY`), whose;
/// `None` for one this crate has no line of.
pub(super) fn constants(text: &str) -> Vec<(&str, Option<String>)> {
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(found) = ["impl ", "pub const "].iter().filter_map(|m| text[at..].find(m)).min()
    {
        let start = at + found;
        let rest = &text[start..];
        if rest.starts_with("impl ") {
            // Past the block: its constants are an enum's values.
            let open = rest.find('{').map_or(rest.len(), |o| o + 1);
            at = start + open + body_end(&rest[open..]);
            continue;
        }
        let rest = &rest["pub const ".len()..];
        let name =
            rest.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).next().unwrap_or("");
        let statement = &rest[..rest.find(';').unwrap_or(rest.len())];
        at = start + "pub const ".len() + statement.len();
        let line = match (constant(name), second_name(statement)) {
            (Some(line), _) => Some(line.to_string()),
            (None, Some((owner, target))) => Some(format!(
                "A second name of [`{target}`]({owner}::{target}), which the header keeps for \
                 the older spelling: the same value, documented there."
            )),
            (None, None) => None,
        };
        out.push((name, line));
    }
    out
}

/// `(enum, enumerator)` of a constant defined as another enumerator
/// (`X: CUlaunchAttributeID_enum = CUlaunchAttributeID_enum::CU_LAUNCH_ATTRIBUTE_PRIORITY`).
fn second_name(statement: &str) -> Option<(String, String)> {
    let value: String = statement.split_once('=')?.1.split_whitespace().collect();
    let (owner, target) = value.split_once("::")?;
    let word = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    (word(owner) && word(target)).then(|| (owner.to_string(), target.to_string()))
}

/// The path of each record of `records` as `fields.txt` names its fields: a
/// record's own name, or for one bindgen names after its parent, the parent's
/// path and the member's name (none for C's anonymous members).
pub(super) fn paths<'a>(records: &Records<'a>) -> BTreeMap<&'a str, String> {
    let mut out: BTreeMap<&str, String> = BTreeMap::new();
    // Parents before their children: a parent's name is a prefix of theirs.
    let mut names: Vec<&str> = records.keys().copied().collect();
    names.sort_by_key(|n| n.len());
    for name in names {
        let parent = name.rsplit_once("__bindgen_ty_").map(|(p, _)| p);
        let path = match parent.and_then(|p| Some((p, out.get(p)?.clone()))) {
            Some((p, path)) => {
                let member = records[p]
                    .1
                    .iter()
                    .find(|(_, t)| t == name || t.ends_with(&format!("[{name};")));
                match member.map(|(f, _)| f.as_str()) {
                    Some(f) if f.starts_with("__bindgen_anon_") => path,
                    Some(f) => format!("{path}.{f}"),
                    None => continue,
                }
            }
            None => name.to_string(),
        };
        out.insert(name, path);
    }
    out
}

/// `text` with this crate's line of every field (`fields.txt`) before the
/// field, after the header's text of it, in one pass; `paths` are its
/// records' (`lines`).
pub(super) fn insert_fields(text: &str, paths: &BTreeMap<&str, String>) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 4);
    let mut rest = text;
    let next = |rest: &str| {
        let found = ["pub struct ", "pub union "].map(|m| rest.find(m).map(|i| (i, m.len())));
        found.into_iter().flatten().min()
    };
    while let Some((at, len)) = next(rest) {
        let after = &rest[at + len..];
        let name: String =
            after.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
        let Some(open) = after.find(['{', ';', '(']).filter(|&i| after[i..].starts_with('{'))
        else {
            out.push_str(&rest[..at + len]);
            rest = after;
            continue;
        };
        out.push_str(&rest[..at + len + open + 1]);
        let body = &after[open + 1..];
        let end = body_end(body);
        let path = paths.get(name.as_str());
        out.push_str(&with_field_lines(&body[..end], |f| {
            path.and_then(|p| field(&format!("{p}.{f}")))
        }));
        rest = &body[end..];
    }
    out.push_str(rest);
    out
}

/// The characters of Rust text outside its string literals (the doc
/// attributes' text), with their byte offsets.
fn code(text: &str) -> impl Iterator<Item = (usize, char)> + '_ {
    let (mut in_string, mut escaped) = (false, false);
    text.char_indices().filter(move |&(_, c)| {
        let code = !in_string && c != '"';
        match (in_string, c) {
            (true, _) if escaped => escaped = false,
            (true, '\\') => escaped = true,
            (_, '"') => in_string = !in_string,
            _ => {}
        }
        code
    })
}

/// Where a record's body ends: its closing `}`, strings skipped.
fn body_end(body: &str) -> usize {
    let mut depth = 0usize;
    for (i, c) in code(body) {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => return i,
            '}' => depth -= 1,
            _ => {}
        }
    }
    body.len()
}

/// A record's body with `#[doc]` lines before each `pub field:` that `line` has one for.
fn with_field_lines(body: &str, line: impl Fn(&str) -> Option<&'static str>) -> String {
    let mut out = String::with_capacity(body.len() * 2);
    let mut last = 0;
    for (i, _) in code(body).filter(|&(i, _)| body[i..].starts_with("pub ")) {
        let prev = body[..i].chars().next_back();
        if prev.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_') {
            continue;
        }
        let rest = body[i + 4..].trim_start();
        let name: String =
            rest.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
        if !rest[name.len()..].trim_start().starts_with(':') {
            continue;
        }
        if let Some(text) = line(&name) {
            out.push_str(&body[last..i]);
            out.push_str(&format!("#[doc = \"\"] #[doc = {text:?}] "));
            last = i;
        }
    }
    out.push_str(&body[last..]);
    out
}

/// For each struct or union bindgen names after its parent
/// (`CUmemLocation_st__bindgen_ty_1`, a type C declares inside another without
/// a name of its own), the line that says which member of which record it is.
fn anonymous<'a>(records: &Records<'a>) -> Vec<(&'a str, String)> {
    let mut out = Vec::new();
    for (name, (kind, fields)) in records {
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
        out.push((*name, what));
    }
    out
}

/// `name -> (struct or union, [(field, type)])` of each record of the types
/// text (bindgen's tokens or formatted Rust), the types without blanks.
pub(super) type Records<'a> = BTreeMap<&'a str, (&'static str, Vec<(String, String)>)>;

pub(super) fn records(types: &str) -> Records<'_> {
    let mut out = BTreeMap::new();
    for (kind, marker) in [("struct", "pub struct "), ("union", "pub union ")] {
        for (at, _) in types.match_indices(marker) {
            let rest = &types[at + marker.len()..];
            let end = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'));
            let name = &rest[..end.unwrap_or(rest.len())];
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
    let end = body_end(text);
    code(&text[..end]).map(|(_, c)| c).collect()
}
