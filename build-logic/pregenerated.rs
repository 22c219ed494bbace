//! The pregenerated bindings, `pregenerated/`, made by `cargo xtask pregenerate`
//! with this crate's own generator from NVIDIA's pip headers of every release
//! in `releases.txt`, both variants. Declarations, values, names and types
//! only: the documentation is this crate's own, added by `docs` as for
//! generated bindings.
//!
//! Each file holds every release at once, in sections (see `sections`).
//!
//! `types.rs` and `macro_constants.rs` are Rust items, `functions.rs` the
//! declarations of the `functions!` list; the `.txt` files are the tables of
//! `tables` (their rows, writer and reader), and `items.txt` every item's
//! name, in the sections of the releases that declare it.
//!
//! The sections of the pregenerated set's files. Each file holds every release at
//! once: an item that is the same in several releases is written once, in a
//! section headed `//@ <releases>`, which runs to the next such line.
//! `<releases>` is a comma-separated list of `all`, `X.Y`, `X.Y-` (to the
//! newest), `X.Y-X.Y`, each optionally followed by `default` or `per-thread`
//! (the variant; both without). Loading a release keeps the lines of its
//! sections, so no Rust parser is needed. (`cargo xtask pregenerate` writes
//! the headings and checks that this reading gives back every release.)

use std::path::Path;

use crate::env::{log, Target};
use crate::interop::Interop;
use crate::model::{
    parse_version, Bindings, CudaVersion, Enumerator, Error, Function, History, Module, Result,
};
use crate::tables::{
    read_bitmasks, read_moved, read_reference, read_renames, read_since, read_value_types,
};

/// The pregenerated set, relative to the crate's root.
pub(crate) const DIR: &str = "pregenerated";

/// The releases of `releases.txt`, oldest first, as `CUDA_VERSION` numbers.
pub fn releases(target: &Target) -> Result<Vec<u32>> {
    Ok(releases_in(&target.manifest_dir)?.into_iter().map(|(number, _)| number).collect())
}

/// `(CUDA_VERSION, wheel version)` of each release of `releases.txt` in the
/// crate at `crate_dir`, oldest first.
pub fn releases_in(crate_dir: &Path) -> Result<Vec<(u32, String)>> {
    let text = read(crate_dir, "releases.txt")?;
    parse_releases(&text).map_err(|e| damaged("releases.txt", e))
}

fn read(manifest_dir: &Path, name: &str) -> Result<String> {
    let path = manifest_dir.join(DIR).join(name);
    std::fs::read_to_string(&path).map_err(|e| damaged(name, format!("{}: {e}", path.display())))
}

fn damaged(what: &str, why: impl std::fmt::Display) -> Error {
    Error::new(
        format!("the pregenerated bindings are damaged: {DIR}/{what}"),
        format!(
            "{why}\n\nA copy of the crate whose {DIR} folder is missing or changed is damaged: fetch the\n\
             crate again, or generate the bindings instead (LIBCUDA_SYS_BINDINGS=generate, with CUDA\n\
             headers and libclang)."
        ),
    )
}

/// The release's part of `name`, or why the file is damaged.
fn section(target: &Target, name: &str, release: u32) -> Result<String> {
    let text = read(&target.manifest_dir, name)?;
    select(&text, release, target.per_thread_default_stream()).map_err(|e| damaged(name, e))
}

/// Which pregenerated releases declare each item, for generated bindings too.
pub fn history(target: &Target) -> Result<History> {
    let releases = releases(target)?;
    let text = read(&target.manifest_dir, "items.txt")?;
    let of = releases_of_lines(&text, &releases).map_err(|e| damaged("items.txt", e))?;
    Ok(History { releases, of })
}

/// `(record, member)` of every member that moved in some release: where it is
/// in generated bindings, `members` finds.
#[cfg(feature = "generate")]
pub fn moved_members(target: &Target) -> Result<Vec<(String, String)>> {
    let text = read(&target.manifest_dir, "moved_members.txt")?;
    let body: String =
        text.lines().filter(|l| !l.starts_with("//")).map(|l| format!("{l}\n")).collect();
    let mut out: Vec<(String, String)> = read_moved(&body)
        .map_err(|e| damaged("moved_members.txt", e))?
        .into_iter()
        .map(|m| (m.record, m.member))
        .collect();
    out.sort();
    out.dedup();
    Ok(out)
}

/// The bindings of `release` from `pregenerated/`, with the interop `modules`;
/// `reason` is why they are used.
pub fn load(target: &Target, release: u32, reason: &str, modules: &[&Interop]) -> Result<Bindings> {
    let version = CudaVersion { number: release };
    log(format!("pregenerated CUDA {version} bindings ({DIR}): {reason}"));
    let types = section(target, "types.rs", release)?;
    if types.is_empty() {
        return Err(damaged("types.rs", format!("no section holds CUDA {version}")));
    }
    closed(&types).map_err(|why| damaged("types.rs", format!("CUDA {version}'s part: {why}")))?;
    let table = |name: &str| section(target, name, release);
    let mut since = rows(target, release, "since.txt", read_since)?;
    let mut bound = Vec::new();
    for m in modules {
        let (module, dated) = load_module(target, release, m)?;
        since.extend(dated);
        bound.push(module);
    }
    let renames = rows(target, release, "renames.txt", read_renames)?;
    let mut typed = rows(target, release, "value_types.txt", read_value_types)?;
    for t in &mut typed {
        t.description = crate::sentences::sentence(&t.name).unwrap_or_default().to_string();
    }
    let types = joined_impls(&types);
    let bitmasks = read_bitmasks(&table("bitmasks.txt")?);
    let moved = rows(target, release, "moved_members.txt", read_moved)?;
    let reference = reference(target, release, "")?;
    let functions = functions(&section(target, "functions.rs", release)?);
    // `items.txt` lists the functions too, which the floor may leave out.
    let declared: std::collections::BTreeSet<&str> =
        functions.iter().map(|f| f.name.as_str()).collect();
    let names = table("items.txt")?
        .lines()
        .filter(|l| !l.is_empty() && !declared.contains(l))
        .map(str::to_string)
        .collect();
    Ok(Bindings {
        version,
        enumerators: enumerators(&types),
        aliases: aliases(&types),
        bitmasks,
        moved,
        history: history(target)?,
        types,
        functions,
        renames,
        macro_constants: section(target, "macro_constants.rs", release)?,
        names,
        since: Some(since),
        typed,
        reference,
        modules: bound,
    })
}

/// An interop module of `release`, from `pregenerated/<module>/`, and its
/// functions' versions.
fn load_module(
    target: &Target,
    release: u32,
    m: &Interop,
) -> Result<(Module, std::collections::BTreeMap<String, u32>)> {
    let file = |name: &str| format!("{}/{name}", m.feature);
    let types = section(target, &file("types.rs"), release)?;
    closed(&types).map_err(|why| damaged(&file("types.rs"), why))?;
    let types = joined_impls(&types);
    let since = rows(target, release, &file("since.txt"), read_since)?;
    let renames = rows(target, release, &file("renames.txt"), read_renames)?;
    let reference = reference(target, release, &file(""))?;
    let module = Module {
        name: m.feature,
        header: m.header,
        typedefs: m.typedefs,
        enumerators: enumerators(&types),
        aliases: aliases(&types),
        functions: functions(&section(target, &file("functions.rs"), release)?),
        types,
        renames,
        reference,
    };
    Ok((module, since))
}

/// Table `name` of `release`, read by `read`, or why the file is damaged.
fn rows<T>(
    target: &Target,
    release: u32,
    name: &str,
    read: impl Fn(&str) -> std::result::Result<T, String>,
) -> Result<T> {
    read(&section(target, name, release)?).map_err(|e| damaged(name, e))
}

/// NVIDIA's facts of `release` from `<dir>reference.txt`, `<dir>groups.txt`
/// and `<dir>pages.txt` (`dir` is `""` for cuda.h's, `gl/` for a module's).
fn reference(target: &Target, release: u32, dir: &str) -> Result<crate::model::Reference> {
    let [functions, groups, pages] =
        ["reference.txt", "groups.txt", "pages.txt"].map(|f| format!("{dir}{f}"));
    let text = |name: &str| section(target, name, release);
    read_reference(&text(&functions)?, &text(&groups)?, &text(&pages)?)
        .map_err(|e| damaged(&format!("{functions}, {groups}, {pages}"), e))
}

/// Rust whose brackets all close: a file cut short (a copy that stopped) is
/// told here, not by rustc's "unclosed delimiter" in a file the user never wrote.
fn closed(text: &str) -> std::result::Result<(), String> {
    let mut open: Vec<char> = Vec::new();
    let mut in_string = false;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match (in_string, c) {
            (true, '\\') => {
                chars.next();
            }
            (_, '"') => in_string = !in_string,
            (false, '{' | '(' | '[') => open.push(c),
            (false, '}' | ')' | ']') => {
                let want = match c {
                    '}' => '{',
                    ')' => '(',
                    _ => '[',
                };
                if open.pop() != Some(want) {
                    return Err(format!("a `{c}` closes nothing it opened"));
                }
            }
            _ => {}
        }
    }
    match (in_string, open.last()) {
        (true, _) => Err("it ends inside a string: cut short".into()),
        (false, Some(c)) => {
            Err(format!("{} bracket(s) never closed, the last `{c}`: cut short", open.len()))
        }
        (false, None) => Ok(()),
    }
}

/// The set keeps one enumerator per `impl Enum { ... }` block, so that a
/// release that adds one shares the others; as one block per enum again, the
/// documentation shows them together, as for generated bindings.
fn joined_impls(types: &str) -> String {
    let mut out = String::with_capacity(types.len());
    let mut open: Option<&str> = None;
    let mut lines = types.lines().peekable();
    while let Some(line) = lines.next() {
        if line.starts_with("impl ") && line.ends_with(" {") {
            open = Some(line);
        } else if line == "}" && open.is_some() && lines.peek() == open.as_ref() {
            lines.next();
            continue;
        } else if !line.starts_with(' ') {
            open = None;
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// `(enum, typedef)` of every `pub use self::X_enum as X;`.
fn aliases(types: &str) -> Vec<(String, String)> {
    types
        .lines()
        .filter_map(|l| l.strip_prefix("pub use self::")?.strip_suffix(';'))
        .filter_map(|l| l.split_once(" as "))
        .map(|(e, alias)| (e.to_string(), alias.to_string()))
        .collect()
}

/// Every enumerator of the `impl Enum { pub const NAME: Enum = Enum(value); }`
/// blocks, whose value is on the line or, when long, alone on the next one.
fn enumerators(types: &str) -> Vec<Enumerator> {
    let mut out = Vec::new();
    let mut owner: Option<&str> = None;
    let mut lines = types.lines().peekable();
    while let Some(line) = lines.next() {
        if let Some(name) = line.strip_prefix("impl ").and_then(|l| l.strip_suffix(" {")) {
            owner = Some(name);
        } else if line == "}" {
            owner = None;
        } else if let (Some(owner), Some(rest)) = (owner, line.trim().strip_prefix("pub const ")) {
            let Some((name, rest)) = rest.split_once(':') else { continue };
            let value = match rest.split_once('(').map(|(_, v)| v) {
                Some("") => lines.peek().map(|next| next.trim().trim_end_matches(',')),
                Some(v) => v.strip_suffix(");"),
                None => None,
            };
            let value = value.and_then(|v| v.parse().ok());
            out.push(Enumerator { owner: owner.to_string(), name: name.to_string(), value });
        }
    }
    out
}

/// The declarations of `functions.rs`, one per `pub fn` (each ends with the
/// line, at the left margin, that ends in `;`).
fn functions(text: &str) -> Vec<Function> {
    let mut out = Vec::new();
    let mut decl = String::new();
    let mut name = String::new();
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("pub fn ") {
            name = rest.split(['(', '<']).next().unwrap_or_default().to_string();
        }
        decl.push_str(line);
        decl.push('\n');
        if line.ends_with(';') && !line.starts_with(' ') {
            out.push(Function { name: std::mem::take(&mut name), decl: std::mem::take(&mut decl) });
        }
    }
    out
}

/// `releases.txt`: `(CUDA_VERSION, wheel version)` of each `X.Y wheel-version`
/// line, oldest first; `#` lines and blank ones are comments.
pub fn parse_releases(text: &str) -> std::result::Result<Vec<(u32, String)>, String> {
    let mut out = Vec::new();
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
        let mut words = line.split_whitespace();
        match (words.next().and_then(parse_version), words.next(), words.next()) {
            (Some(number), Some(wheel), None) => out.push((number, wheel.to_string())),
            _ => return Err(format!("`{line}` is not `X.Y wheel-version`")),
        }
    }
    out.sort();
    Ok(out)
}

/// Which release and variant a section heading includes.
fn includes(heading: &str, release: u32, per_thread: bool) -> std::result::Result<bool, String> {
    let mut any = false;
    for clause in heading.split(',').map(str::trim) {
        let (range, variant) = match clause.split_once(' ') {
            Some((range, variant)) => (range, Some(variant.trim())),
            None => (clause, None),
        };
        let bad = || format!("`//@ {heading}` is not a section heading");
        let (low, high) = match range {
            "all" => (0, u32::MAX),
            r => match r.split_once('-') {
                Some((low, "")) => (parse_version(low).ok_or_else(bad)?, u32::MAX),
                Some((low, high)) => {
                    (parse_version(low).ok_or_else(bad)?, parse_version(high).ok_or_else(bad)?)
                }
                None => {
                    let v = parse_version(r).ok_or_else(bad)?;
                    (v, v)
                }
            },
        };
        let variant_matches = match variant {
            None => true,
            Some("default") => !per_thread,
            Some("per-thread") => per_thread,
            Some(_) => return Err(bad()),
        };
        any |= variant_matches && (low..=high).contains(&release);
    }
    Ok(any)
}

/// The lines of `text` in the sections of `release` and the variant; what
/// comes before the first heading is the file's own header, left out.
pub fn select(text: &str, release: u32, per_thread: bool) -> std::result::Result<String, String> {
    let mut out = String::with_capacity(text.len() / 2);
    let mut keep = false;
    for line in text.lines() {
        if let Some(heading) = line.strip_prefix("//@ ") {
            keep = includes(heading, release, per_thread)?;
        } else if keep {
            out.push_str(line);
            out.push('\n');
        }
    }
    Ok(out)
}

/// Each line of `text` with the releases of `releases` whose sections hold it
/// (in either variant): for a table of names, the releases that have each.
pub(crate) fn releases_of_lines(
    text: &str,
    releases: &[u32],
) -> std::result::Result<std::collections::BTreeMap<String, Vec<u32>>, String> {
    let mut out: std::collections::BTreeMap<String, Vec<u32>> = Default::default();
    let mut current: Vec<u32> = Vec::new();
    for line in text.lines() {
        if let Some(heading) = line.strip_prefix("//@ ") {
            current.clear();
            for &r in releases {
                if includes(heading, r, false)? || includes(heading, r, true)? {
                    current.push(r);
                }
            }
        } else if !current.is_empty() {
            let have = out.entry(line.to_string()).or_default();
            have.extend(&current);
            have.sort_unstable();
            have.dedup();
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_have_one_spelling() {
        assert_eq!(parse_version("12.8"), Some(12080));
        assert_eq!(parse_version("13.0"), Some(13000));
        for bad in ["13.05", "013.5", "13", "13.", ".5", "13.5.1", "13.x", "13.10"] {
            assert_eq!(parse_version(bad), None, "{bad}");
        }
    }

    #[test]
    fn releases_are_sorted_and_rows_of_two() {
        let text = "# comment\n\n13.0 13.0.96\n12.8 12.8.90\n";
        let want = vec![(12080, "12.8.90".to_string()), (13000, "13.0.96".to_string())];
        assert_eq!(parse_releases(text), Ok(want));
        assert!(parse_releases("13.0\n").is_err());
        assert!(parse_releases("13.0 a b\n").is_err());
    }

    const FILE: &str = "// header, left out\n//@ all\nA\n//@ 12.0-12.9\nB\n//@ 13.0- default\nC\n//@ 12.8, 13.0- per-thread\nD\n";

    #[test]
    fn a_release_keeps_its_sections_and_variant() {
        // A variant belongs to its own clause: `12.8` is both variants.
        assert_eq!(select(FILE, 12080, false).unwrap(), "A\nB\nD\n");
        assert_eq!(select(FILE, 12090, true).unwrap(), "A\nB\n");
        assert_eq!(select(FILE, 13050, false).unwrap(), "A\nC\n");
        assert_eq!(select(FILE, 13050, true).unwrap(), "A\nD\n");
        assert_eq!(select(FILE, 11070, false).unwrap(), "A\n");
        assert!(select("//@ 13.0 nightly\nX\n", 13000, false).is_err());
        assert!(select("//@ 13.05-\nX\n", 13000, false).is_err());
    }

    #[test]
    fn each_line_gets_the_releases_of_either_variant() {
        let releases = [11070, 12080, 12090, 13000, 13050];
        let of = releases_of_lines(FILE, &releases).unwrap();
        assert_eq!(of["A"], releases);
        assert_eq!(of["B"], [12080, 12090]);
        assert_eq!(of["C"], [13000, 13050]);
        assert_eq!(of["D"], [12080, 13000, 13050]);
        assert!(!of.contains_key("// header, left out"));
    }

    #[test]
    fn a_file_cut_short_is_told() {
        assert!(
            super::closed("pub struct A { pub x: [u8; 2] }\nconst S: &str = \"}(\\\"\";\n").is_ok()
        );
        assert!(
            super::closed("pub struct A { pub x: [u8; 2] }\nimpl A {\n    pub const B").is_err()
        );
        assert!(super::closed("const S: &str = \"abc").is_err());
        assert!(super::closed("fn f() { ) }").is_err());
    }
}
