//! The pregenerated bindings, `pregenerated/`, made by `cargo xtask pregenerate`
//! with this crate's own generator from NVIDIA's pip headers of every release
//! in `releases.txt`, both variants, in two layers:
//! - the declarations: values, names and types, no documentation. `types.rs`
//!   and `macro_constants.rs` are Rust items, `functions.rs` the
//!   declarations; the `.txt` files are the tables of `tables` (their rows,
//!   writer and reader), and `items.txt` every item's name, in the sections
//!   of the releases that declare it;
//! - `rendered/`: the files a build writes into `OUT_DIR`, rendered from the
//!   declarations by this crate's own `write::render` with its
//!   documentation. A build with the pregenerated set copies its release's
//!   part ([`load`]) instead of rendering it: only what depends on the build
//!   machine (the floor, the crate root's page, the linking) is done there.
//!   `pregenerate --check` holds them to a fresh rendering.
//!
//! Each file holds every release at once, in sections: an item (a line, in
//! `rendered/`) that is the same in several releases is written once, in a
//! section headed `//@ <releases>`, which runs to the next such line.
//! `<releases>` is a comma-separated list of `all`, `X.Y`, `X.Y-` (to the
//! newest), `X.Y-X.Y`, each optionally followed by `default` or `per-thread`
//! (the variant; both without). Loading a release keeps the lines of its
//! sections, so no Rust parser is needed. (`cargo xtask pregenerate` writes
//! the headings and checks that this reading gives back every release.)

use std::path::Path;

use crate::env::{log, Target};
use crate::interop::Interop;
#[cfg(feature = "pregenerate")]
use crate::model::Enumerator;
use crate::model::{
    parse_version, Bindings, CudaVersion, Error, Function, History, Module, Result, BLOCK,
    RENDERED_FILES,
};
#[cfg(feature = "generate")]
use crate::tables::read_moved;
#[cfg(feature = "pregenerate")]
use crate::tables::{read_bitmasks, read_reference, read_value_types};
use crate::tables::{read_renames, read_since};

mod sections;
#[cfg(feature = "generate")]
pub(crate) use sections::releases_of_lines;
pub use sections::{parse_releases, select};

/// The pregenerated set, relative to the crate's root.
pub const DIR: &str = "pregenerated";

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

/// One copy of the set: the crate directory that holds it, and the variant read
/// (the per-thread default stream's, or the default one).
#[derive(Clone, Copy)]
pub struct Set<'a> {
    pub crate_dir: &'a Path,
    pub per_thread: bool,
}

impl<'a> Set<'a> {
    /// The set of the crate being built, in the variant its features ask for.
    pub fn of(target: &'a Target) -> Self {
        Set { crate_dir: &target.manifest_dir, per_thread: target.per_thread_default_stream() }
    }

    /// The release's part of `name`, or why the file is damaged.
    pub fn section(self, name: &str, release: u32) -> Result<String> {
        let text = read(self.crate_dir, name)?;
        select(&text, release, self.per_thread).map_err(|e| damaged(name, e))
    }

    /// Table `name` of `release`, read by `read`, or why the file is damaged.
    fn rows<T>(
        self,
        release: u32,
        name: &str,
        read: impl Fn(&str) -> std::result::Result<T, String>,
    ) -> Result<T> {
        read(&self.section(name, release)?).map_err(|e| damaged(name, e))
    }
}

/// Which pregenerated releases declare each item, for generated bindings too.
#[cfg(feature = "generate")]
pub fn history(target: &Target) -> Result<History> {
    history_in(&target.manifest_dir)
}

#[cfg(feature = "generate")]
fn history_in(crate_dir: &Path) -> Result<History> {
    let releases: Vec<u32> = releases_in(crate_dir)?.into_iter().map(|(n, _)| n).collect();
    let text = read(crate_dir, "items.txt")?;
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

/// The declarations of `release` from `set`, with the interop `modules`, as
/// the model the renderer takes: what `cargo xtask pregenerate` renders the
/// shipped files (`rendered/`) from.
#[cfg(feature = "pregenerate")]
pub fn declarations(set: Set, release: u32, modules: &[&Interop]) -> Result<Bindings> {
    let version = CudaVersion { number: release };
    let types = set.section("types.rs", release)?;
    if types.is_empty() {
        return Err(damaged("types.rs", format!("no section holds CUDA {version}")));
    }
    closed(&types).map_err(|why| damaged("types.rs", format!("CUDA {version}'s part: {why}")))?;
    let table = |name: &str| set.section(name, release);
    let mut since = set.rows(release, "since.txt", read_since)?;
    let mut bound = Vec::new();
    for m in modules {
        let (module, dated) = declarations_of_module(set, release, m)?;
        since.extend(dated);
        bound.push(module);
    }
    let renames = set.rows(release, "renames.txt", read_renames)?;
    let mut typed = set.rows(release, "value_types.txt", read_value_types)?;
    for t in &mut typed {
        t.description = crate::sentences::sentence(&t.name).unwrap_or_default().to_string();
    }
    let types = joined_impls(&types);
    let bitmasks = read_bitmasks(&table("bitmasks.txt")?);
    let moved = set.rows(release, "moved_members.txt", read_moved)?;
    let reference = reference(set, release, "")?;
    let functions = functions(&set.section("functions.rs", release)?);
    Ok(Bindings {
        version,
        enumerators: enumerators(&types),
        aliases: aliases(&types),
        bitmasks,
        moved,
        history: history_in(set.crate_dir)?,
        types,
        names: names(&table("items.txt")?, &functions),
        functions,
        renames,
        macro_constants: set.section("macro_constants.rs", release)?,
        since: Some(since),
        typed,
        reference,
        modules: bound,
        rendered: Vec::new(),
    })
}

/// The names of `items.txt` (a release's part) that are not `functions`',
/// which the floor may leave out.
fn names(items: &str, functions: &[Function]) -> Vec<String> {
    let declared: std::collections::BTreeSet<&str> =
        functions.iter().map(|f| f.name.as_str()).collect();
    items.lines().filter(|l| !l.is_empty() && !declared.contains(l)).map(str::to_string).collect()
}

/// An interop module of `release`, from `pregenerated/<module>/`, and its
/// functions' versions.
#[cfg(feature = "pregenerate")]
fn declarations_of_module(
    set: Set,
    release: u32,
    m: &Interop,
) -> Result<(Module, std::collections::BTreeMap<String, u32>)> {
    let file = |name: &str| format!("{}/{name}", m.feature);
    let types = set.section(&file("types.rs"), release)?;
    closed(&types).map_err(|why| damaged(&file("types.rs"), why))?;
    let types = joined_impls(&types);
    let since = set.rows(release, &file("since.txt"), read_since)?;
    let renames = set.rows(release, &file("renames.txt"), read_renames)?;
    let reference = reference(set, release, &file(""))?;
    let module = Module {
        name: m.feature,
        header: m.header,
        typedefs: m.typedefs,
        enumerators: enumerators(&types),
        aliases: aliases(&types),
        functions: functions(&set.section(&file("functions.rs"), release)?),
        types,
        names: Vec::new(),
        renames,
        reference,
    };
    Ok((module, since))
}

/// The bindings of `release` from `pregenerated/`, with the interop `modules`;
/// `reason` is why they are used. Their files come rendered (`rendered/`,
/// each function's declaration in a block that the floor may leave out, see
/// `write::files`); the model holds what the rest of the build asks of it:
/// the names of the functions and plain names, and the releases of each.
pub fn load(target: &Target, release: u32, reason: &str, modules: &[&Interop]) -> Result<Bindings> {
    let set = Set::of(target);
    let version = CudaVersion { number: release };
    log(format!("pregenerated CUDA {version} bindings ({DIR}): {reason}"));
    let file = |name: String| -> Result<(String, String)> {
        let text = set.section(&format!("{RENDERED}/{name}"), release)?;
        closed(&text).map_err(|why| {
            damaged(&format!("{RENDERED}/{name}"), format!("CUDA {version}'s part: {why}"))
        })?;
        Ok((name, text))
    };
    // `bindings.rs` first, then `functions.rs`, which names the functions.
    let mut rendered = Vec::new();
    for name in RENDERED_FILES {
        rendered.push(file(name.to_string())?);
    }
    if rendered[0].1.is_empty() {
        return Err(damaged("rendered/bindings.rs", format!("no section holds CUDA {version}")));
    }
    let mut since = set.rows(release, "since.txt", read_since)?;
    let mut bound = Vec::new();
    for m in modules {
        let (name, text) = file(format!("{}.rs", m.feature))?;
        since.extend(set.rows(release, &format!("{}/since.txt", m.feature), read_since)?);
        let functions = blocks(&text);
        bound.push(Module {
            name: m.feature,
            header: m.header,
            typedefs: m.typedefs,
            types: String::new(),
            names: names(&set.section(&format!("{}/items.txt", m.feature), release)?, &functions),
            functions,
            renames: set.rows(release, &format!("{}/renames.txt", m.feature), read_renames)?,
            enumerators: Vec::new(),
            aliases: Vec::new(),
            reference: Default::default(),
        });
        rendered.push((name, text));
    }
    let functions = blocks(&rendered[1].1);
    Ok(Bindings {
        version,
        types: String::new(),
        names: names(&set.section("items.txt", release)?, &functions),
        functions,
        renames: set.rows(release, "renames.txt", read_renames)?,
        macro_constants: String::new(),
        since: Some(since),
        typed: Vec::new(),
        enumerators: Vec::new(),
        aliases: Vec::new(),
        bitmasks: Vec::new(),
        moved: Vec::new(),
        history: History { releases: releases(target)?, of: Default::default() },
        reference: Default::default(),
        modules: bound,
        rendered,
    })
}

/// The folder of the rendered files, in `pregenerated/`.
pub const RENDERED: &str = "rendered";

/// The functions of a rendered file: the blocks of its list of declarations
/// (`//~ name` each, to the `//~` that ends the list; the plain names' blocks
/// after it are named by their targets). The declarations stay in the text.
fn blocks(text: &str) -> Vec<Function> {
    text.lines()
        .map_while(|l| {
            l.strip_prefix(BLOCK).map_or(Some(None), |tag| tag.strip_prefix(' ').map(Some))
        })
        .flatten()
        .map(|name| Function { name: name.to_string(), decl: String::new() })
        .collect()
}

/// NVIDIA's facts of `release` from `<dir>reference.txt`, `<dir>groups.txt`
/// and `<dir>pages.txt` (`dir` is `""` for cuda.h's, `gl/` for a module's).
#[cfg(feature = "pregenerate")]
fn reference(set: Set, release: u32, dir: &str) -> Result<crate::model::Reference> {
    let [functions, groups, pages] =
        ["reference.txt", "groups.txt", "pages.txt"].map(|f| format!("{dir}{f}"));
    let text = |name: &str| set.section(name, release);
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
            // A comment (`/// doc`, `//~ name`) runs to the end of its line.
            (false, '/') if chars.clone().next() == Some('/') => {
                chars.by_ref().find(|&c| c == '\n');
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
#[cfg(feature = "pregenerate")]
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
#[cfg(feature = "pregenerate")]
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
#[cfg(feature = "pregenerate")]
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
#[cfg(feature = "pregenerate")]
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
    fn the_functions_of_a_rendered_file_are_its_blocks_before_the_plain_names() {
        let text = "//~ cuA\npub fn cuA();\n//~ cuB_v2\npub fn cuB_v2();\n//~\n}\n//~ cuB_v2\npub use self::cuB_v2 as cuB;\n//~\n";
        let names: Vec<String> = blocks(text).into_iter().map(|f| f.name).collect();
        assert_eq!(names, ["cuA", "cuB_v2"]);
    }

    #[test]
    fn a_file_cut_short_is_told() {
        assert!(super::closed("/// it's (not) \"closed [\n//~ cuA\npub fn cuA();\n").is_ok());
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
