//! The derived tables as rows of text, the form `pregenerated/` keeps them in,
//! each with its one writer and its one reader. Every build writes its own into
//! `OUT_DIR/tables/`, which `cargo xtask pregenerate` merges, line by line,
//! into the sections of `pregenerated/`; rendering a pregenerated release
//! (`cargo xtask pregenerate`) reads them back, and a build with one its
//! versions and plain names. Fields are split on whitespace (on tabs in `value_types.txt` and
//! `moved_members.txt`), `-` where there is none. `items.txt` and
//! `moved_members.txt` compare all releases, so xtask writes them. systest and
//! xtask read the tables with this module too.

use std::collections::BTreeMap;
#[cfg(feature = "generate")]
use std::fmt::Write;

use crate::model::Rename;
#[cfg(feature = "pregenerate")]
use crate::model::{Direction, Documented};
#[cfg(feature = "generate")]
use crate::model::{Moved, Reference, Typed};

/// What the tables hold, as the build script has it.
#[cfg(feature = "generate")]
pub(crate) struct Tables<'a> {
    /// Every bound function.
    pub functions: Vec<&'a str>,
    pub since: Option<&'a BTreeMap<String, u32>>,
    pub renames: &'a [Rename],
    pub typed: &'a [Typed],
    pub bitmasks: &'a [String],
    pub reference: &'a Reference,
}

/// The tables an interop module has of its own: an attribute enum's value
/// types and bit masks are `cuda.h`'s only (its headers add none).
#[cfg(feature = "generate")]
pub const MODULE_TABLES: [&str; 5] =
    ["since.txt", "renames.txt", "reference.txt", "groups.txt", "pages.txt"];

/// The tables every build writes, `(file, text)`.
#[cfg(feature = "generate")]
pub(crate) fn write(b: &Tables) -> [(&'static str, String); 7] {
    let mut names = b.functions.clone();
    names.sort_unstable();
    let mut since = String::new();
    for name in names {
        if let Some(v) = b.since.and_then(|s| s.get(name)) {
            let _ = writeln!(since, "{name} {v}");
        }
    }
    let mut plain: Vec<&Rename> = b.renames.iter().collect();
    plain.sort_by(|x, y| x.plain.cmp(&y.plain));
    let renames = plain.iter().map(|r| format!("{} {}\n", r.plain, r.target)).collect();
    let value_types = b.typed.iter().map(value_type_row).collect();
    let bitmasks = b.bitmasks.iter().map(|m| format!("{m}\n")).collect();
    let list = |l: &[String]| if l.is_empty() { "-".into() } else { l.join(",") };
    let reference = b
        .reference
        .functions
        .iter()
        .map(|f| {
            let group = f.group.as_deref().unwrap_or("-");
            let params: Vec<String> =
                f.params.iter().map(|(n, d)| format!("{n}:{}", d.word())).collect();
            let (returns, refers) = (list(&f.returns), list(&f.refers));
            format!("{} {group} {returns} {refers} {}\n", f.name, list(&params))
        })
        .collect();
    let groups = b.reference.groups.iter().map(|id| format!("{id}\n")).collect();
    let pages = b.reference.pages.iter().map(|(tag, page)| format!("{tag} {page}\n")).collect();
    [
        ("since.txt", since),
        ("renames.txt", renames),
        ("value_types.txt", value_types),
        ("bitmasks.txt", bitmasks),
        ("reference.txt", reference),
        ("groups.txt", groups),
        ("pages.txt", pages),
    ]
}

/// `reference.txt` (`function group returns refers params`, the lists
/// comma-separated, each parameter `name:direction`), `groups.txt`
/// (`group`) and `pages.txt` (`tag page`).
#[cfg(feature = "pregenerate")]
pub fn read_reference(functions: &str, groups: &str, pages: &str) -> Result<Reference, String> {
    let list = |field: &str| match field {
        "-" => Vec::new(),
        _ => field.split(',').map(str::to_string).collect(),
    };
    let param = |p: String| -> Result<(String, Direction), String> {
        let (name, word) = p.split_once(':').ok_or_else(|| format!("`{p}`: no direction"))?;
        let d = Direction::from_word(word).ok_or_else(|| format!("`{p}`: no direction"))?;
        Ok((name.to_string(), d))
    };
    let functions = rows(functions, 5, false)?
        .into_iter()
        .map(|row| {
            Ok(Documented {
                name: row[0].to_string(),
                group: (row[1] != "-").then(|| row[1].to_string()),
                returns: list(row[2]),
                refers: list(row[3]),
                params: list(row[4]).into_iter().map(param).collect::<Result<_, _>>()?,
            })
        })
        .collect::<Result<_, String>>()?;
    let groups = rows(groups, 1, true)?.into_iter().map(|r| r[0].to_string()).collect();
    let pages =
        rows(pages, 2, false)?.into_iter().map(|r| (r[0].to_string(), r[1].to_string())).collect();
    Ok(Reference { groups, functions, pages })
}

/// The rows of a table, each of `fields` fields, or the line that is not one.
pub(crate) fn rows(text: &str, fields: usize, tabs: bool) -> Result<Vec<Vec<&str>>, String> {
    text.lines()
        .map(|line| {
            let row: Vec<&str> =
                if tabs { line.split('\t').collect() } else { line.split_whitespace().collect() };
            if row.len() == fields {
                Ok(row)
            } else {
                Err(format!("`{line}` is not a row of {fields} fields"))
            }
        })
        .collect()
}

/// `since.txt`: `function version`.
pub(crate) fn read_since(text: &str) -> Result<BTreeMap<String, u32>, String> {
    rows(text, 2, false)?
        .into_iter()
        .map(|row| {
            let v = row[1].parse().map_err(|_| format!("`{}`: no version", row.join(" ")))?;
            Ok((row[0].to_string(), v))
        })
        .collect()
}

/// `renames.txt`: `plain target`.
pub fn read_renames(text: &str) -> Result<Vec<Rename>, String> {
    Ok(rows(text, 2, false)?
        .into_iter()
        .map(|row| Rename { plain: row[0].to_string(), target: row[1].to_string() })
        .collect())
}

/// The fields of a `value_types.txt` row, in order.
#[cfg(feature = "pregenerate")]
pub(crate) const VALUE_TYPE_FIELDS: [&str; 14] = [
    "enum",
    "enumerator",
    "C type",
    "Rust type",
    "size",
    "align",
    "signed",
    "shape",
    "values",
    "member",
    "getters",
    "setters",
    "access",
    "source",
];

#[cfg(feature = "generate")]
fn value_type_row(t: &Typed) -> String {
    let dash = |f: Option<String>| f.unwrap_or_else(|| "-".into());
    let list = |l: &[String]| if l.is_empty() { "-".into() } else { l.join(",") };
    let access = match (t.setters.is_empty(), t.reset_only) {
        (true, _) => "read-only",
        (false, true) => "reset-only",
        (false, false) => "settable",
    };
    let fields = [
        t.owner.clone(),
        t.name.clone(),
        t.c_type.clone(),
        dash(t.rust_type.clone()),
        dash(t.layout.map(|l| l.0.to_string())),
        dash(t.layout.map(|l| l.1.to_string())),
        dash(t.signed.map(|s| if s { "signed" } else { "unsigned" }.to_string())),
        t.shape.clone(),
        dash(t.values.clone()),
        dash(t.member.clone()),
        list(&t.getters),
        list(&t.setters),
        access.to_string(),
        t.source.clone(),
    ];
    fields.join("\t") + "\n"
}

/// `value_types.txt`: the fields of `VALUE_TYPE_FIELDS`, tab-separated, `-`
/// where there is none; the descriptions are the header's, which the table leaves out.
#[cfg(feature = "pregenerate")]
pub fn read_value_types(text: &str) -> Result<Vec<Typed>, String> {
    let none = |field: &str| (field != "-").then(|| field.to_string());
    let list = |field: &str| {
        if field == "-" {
            Vec::new()
        } else {
            field.split(',').map(str::to_string).collect()
        }
    };
    let number = |field: &str| field.parse::<usize>().map_err(|_| format!("`{field}`: no size"));
    rows(text, VALUE_TYPE_FIELDS.len(), true)?
        .into_iter()
        .map(|row| {
            let layout = match (row[4], row[5]) {
                ("-", "-") => None,
                (size, align) => Some((number(size)?, number(align)?)),
            };
            Ok(Typed {
                owner: row[0].to_string(),
                name: row[1].to_string(),
                c_type: row[2].to_string(),
                rust_type: none(row[3]),
                layout,
                signed: match row[6] {
                    "signed" => Some(true),
                    "unsigned" => Some(false),
                    _ => None,
                },
                shape: row[7].to_string(),
                values: none(row[8]),
                member: none(row[9]),
                getters: list(row[10]),
                setters: list(row[11]),
                reset_only: row[12] == "reset-only",
                source: row[13].to_string(),
                description: String::new(),
            })
        })
        .collect()
}

/// `bitmasks.txt`: one enum a line.
#[cfg(feature = "pregenerate")]
pub(crate) fn read_bitmasks(text: &str) -> Vec<String> {
    text.lines().map(str::to_string).collect()
}

/// `moved_members.txt`: `record member path type`.
#[cfg(feature = "generate")]
pub(crate) fn read_moved(text: &str) -> Result<Vec<Moved>, String> {
    Ok(rows(text, 4, true)?
        .into_iter()
        .map(|row| Moved {
            record: row[0].to_string(),
            member: row[1].to_string(),
            path: row[2].to_string(),
            ty: row[3].to_string(),
        })
        .collect())
}
