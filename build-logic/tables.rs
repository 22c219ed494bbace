//! The derived tables as rows of text, the form `pregenerated/` keeps them in,
//! each with its one writer and its one reader. Every build writes its own into
//! `OUT_DIR/tables/`, which `cargo xtask pregenerate` merges, line by line,
//! into the sections of `pregenerated/`; loading a pregenerated release reads
//! them back. Fields are split on whitespace (on tabs in `value_types.txt` and
//! `moved_members.txt`), `-` where there is none. `items.txt` and
//! `moved_members.txt` compare all releases, so xtask writes them. systest and
//! xtask read the tables with this module too.

use std::collections::BTreeMap;
use std::fmt::Write;

/// What the tables hold, as the build script has it.
pub(crate) struct Tables<'a> {
    /// Every bound function.
    pub functions: Vec<&'a str>,
    pub since: Option<&'a BTreeMap<String, u32>>,
    pub renames: &'a [Rename],
    pub typed: &'a [Typed],
    pub bitmasks: &'a [String],
}

/// A plain name and the bound function a C call of it reaches.
pub struct Rename {
    pub plain: String,
    pub target: String,
}

/// The value of one attribute enumerator: its type, who reads and writes it,
/// and where that comes from.
pub struct Typed {
    pub owner: String,
    pub name: String,
    /// The C type as the header writes it: `int`, `CUcontext`, `char[1024]`;
    /// for a member of a union, the member's (`struct { unsigned int x; ... }`).
    pub c_type: String,
    /// The Rust type of the same layout, where the bindings have one.
    pub rust_type: Option<String>,
    /// `(size, alignment)` in bytes on 64-bit targets, where known; of one
    /// element for an array.
    pub layout: Option<(usize, usize)>,
    /// For an integer: whether it is signed.
    pub signed: Option<bool>,
    /// `scalar`, `boolean`, `array` or `string`.
    pub shape: String,
    /// The member of the getter's union that holds it (launch attributes).
    pub member: Option<String>,
    pub getters: Vec<String>,
    pub setters: Vec<String>,
    /// Settable only back to zero (the high watermarks).
    pub reset_only: bool,
    /// `comment`, `signature`, or `documented`/`measured`/`named` with the
    /// `cuda.h` line of this crate's facts table (`documented 13.5:15930`).
    pub source: String,
    /// The header's description (generated), or ours (pregenerated), on one line.
    pub description: String,
}

/// A struct member that moved into or out of an anonymous union between
/// releases (`pregenerated/moved_members.txt`), and where these bindings have it.
pub struct Moved {
    pub record: String,
    pub member: String,
    /// `id`, or `__bindgen_anon_1.id`.
    pub path: String,
    pub ty: String,
}

/// The tables every build writes, `(file, text)`.
pub(crate) fn write(b: &Tables) -> [(&'static str, String); 4] {
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
    [
        ("since.txt", since),
        ("renames.txt", renames),
        ("value_types.txt", value_types),
        ("bitmasks.txt", bitmasks),
    ]
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
pub(crate) fn read_renames(text: &str) -> Result<Vec<Rename>, String> {
    Ok(rows(text, 2, false)?
        .into_iter()
        .map(|row| Rename { plain: row[0].to_string(), target: row[1].to_string() })
        .collect())
}

/// The fields of a `value_types.txt` row, in order.
pub(crate) const VALUE_TYPE_FIELDS: [&str; 13] = [
    "enum",
    "enumerator",
    "C type",
    "Rust type",
    "size",
    "align",
    "signed",
    "shape",
    "member",
    "getters",
    "setters",
    "access",
    "source",
];

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
                member: none(row[8]),
                getters: list(row[9]),
                setters: list(row[10]),
                reset_only: row[11] == "reset-only",
                source: row[12].to_string(),
                description: String::new(),
            })
        })
        .collect()
}

/// `bitmasks.txt`: one enum a line.
pub(crate) fn read_bitmasks(text: &str) -> Vec<String> {
    text.lines().map(str::to_string).collect()
}

/// `moved_members.txt`: `record member path type`.
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

/// `(enumerator, type, shape, evidence, cuda.h line, the words there)`.
const FACTS: &str = include_str!("attribute_facts.txt");

/// One row of the facts table.
pub struct Fact<'a> {
    pub enumerator: &'a str,
    /// A C type, `.member` of the getter's union, or `-`: no value.
    pub ty: &'a str,
    pub shape: &'a str,
    /// `documented`, `measured` or `named`.
    pub evidence: &'a str,
    /// `13.5:15932`: the release's `cuda.h`, and the line.
    pub line: &'a str,
    /// The words on that line that say it.
    pub says: &'a str,
}

/// The facts table's rows (the crate's own file: its unit test reads every row).
pub fn facts() -> Vec<Fact<'static>> {
    let row = |l: &'static str| {
        let mut f = l.split('\t');
        let mut next = || f.next().unwrap_or_default();
        Fact {
            enumerator: next(),
            ty: next(),
            shape: next(),
            evidence: next(),
            line: next(),
            says: next(),
        }
    };
    FACTS.lines().filter(|l| !l.starts_with('#')).map(row).collect()
}
