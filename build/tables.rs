//! The derived tables as rows of text, the form `pregenerated/` keeps them in,
//! each with its one writer and its one reader. Every build writes its own into
//! `OUT_DIR/tables/`, which `cargo xtask pregenerate` merges, line by line,
//! into the sections of `pregenerated/`; loading a pregenerated release reads
//! them back. Fields are split on whitespace (on tabs in `value_types.txt` and
//! `moved_members.txt`), `-` where there is none. `items.txt` and
//! `moved_members.txt` compare all releases, so xtask writes them. Nothing of
//! the build script is imported: systest reads the tables with this file too.

use std::collections::BTreeMap;
use std::fmt::Write;

/// What the tables hold, as the build script has it.
pub struct Tables<'a> {
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

/// An enumerator whose header documentation declares `(value type = T)`.
pub struct Typed {
    pub owner: String,
    pub name: String,
    pub c_type: String,
    /// The Rust type whose size is the value's, where the bindings have one.
    pub size_type: Option<String>,
    /// The `cu*Set*Attribute*` function that takes it, if any.
    pub setter: Option<String>,
    /// Settable only back to zero (the high watermarks).
    pub reset_only: bool,
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
pub fn write(b: &Tables) -> [(&'static str, String); 4] {
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
    let dash = |f: &Option<String>| f.clone().unwrap_or_else(|| "-".into());
    let value_types = b
        .typed
        .iter()
        .map(|t| {
            let reset = if t.reset_only { "reset-only" } else { "-" };
            let (size, setter) = (dash(&t.size_type), dash(&t.setter));
            format!("{}\t{}\t{}\t{size}\t{setter}\t{reset}\n", t.owner, t.name, t.c_type)
        })
        .collect();
    let bitmasks = b.bitmasks.iter().map(|m| format!("{m}\n")).collect();
    [
        ("since.txt", since),
        ("renames.txt", renames),
        ("value_types.txt", value_types),
        ("bitmasks.txt", bitmasks),
    ]
}

/// The rows of a table, each of `fields` fields, or the line that is not one.
fn rows(text: &str, fields: usize, tabs: bool) -> Result<Vec<Vec<&str>>, String> {
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
pub fn read_since(text: &str) -> Result<BTreeMap<String, u32>, String> {
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

/// `value_types.txt`: `enum enumerator C-type size-type setter reset-only`;
/// the descriptions are the header's, which the table leaves out.
pub fn read_value_types(text: &str) -> Result<Vec<Typed>, String> {
    let none = |field: &str| (field != "-").then(|| field.to_string());
    Ok(rows(text, 6, true)?
        .into_iter()
        .map(|row| Typed {
            owner: row[0].to_string(),
            name: row[1].to_string(),
            c_type: row[2].to_string(),
            size_type: none(row[3]),
            setter: none(row[4]),
            reset_only: row[5] == "reset-only",
            description: String::new(),
        })
        .collect())
}

/// `bitmasks.txt`: one enum a line.
pub fn read_bitmasks(text: &str) -> Vec<String> {
    text.lines().map(str::to_string).collect()
}

/// `moved_members.txt`: `record member path type`.
pub fn read_moved(text: &str) -> Result<Vec<Moved>, String> {
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
