//! `cargo xtask pregenerate [--check]`: the pregenerated bindings, `pregenerated/`.
//!
//! For every release of `pregenerated/releases.txt` and both variants (default,
//! per-thread default stream) the crate's own build script generates the
//! bindings from that release's pip headers (with the release's `cuda-XXXXX`
//! feature on). This command reads its output back from `OUT_DIR` (the Rust
//! items with syn; the derived tables as the rows the build wrote in
//! `OUT_DIR/tables/`, see `build-logic/tables.rs`), removes every documentation
//! comment (the header's text, and the crate's own lines, which the build
//! script adds again), formats each item, and merges the 34
//! builds: an item the same in several of them is written once, in a section
//! headed with the releases it belongs to (`build-logic/pregenerated.rs` reads them, and
//! this command checks that reading every build back gives its items
//! unchanged). The same bindgen, libclang and headers give the same bytes,
//! which `--check` verifies.

use std::collections::BTreeSet;
use std::path::Path;

use cargo_metadata::Message;
use syn::visit_mut::VisitMut;

use libcuda_sys_build::interop;
use libcuda_sys_build::make::items::{self, Member};
use libcuda_sys_build::pregenerated;
use libcuda_sys_build::write::render;

use crate::{cargo, headers, Result};

/// Where the pregenerated set lives, and its list of releases.
pub const DIR: &str = "pregenerated";
pub const RELEASES: &str = "pregenerated/releases.txt";

/// One build: a release and a variant.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Build {
    release: u32,
    per_thread: bool,
}

/// `(CUDA_VERSION, wheel version)` of every pregenerated release, oldest first.
pub fn releases() -> Result<Vec<(u32, String)>> {
    pregenerated::releases_in(&crate::root()).map_err(|e| e.to_string())
}

/// The wheel of the newest pregenerated release (the set's default).
pub fn newest_wheel() -> Result<String> {
    releases()?.pop().map(|(_, wheel)| wheel).ok_or_else(|| format!("{RELEASES} lists no release"))
}

/// `13.5` -> `13050` (0 for what is not X.Y).
pub fn number(dotted: &str) -> u32 {
    crate::model::parse_version(dotted).unwrap_or(0)
}

pub use crate::model::dotted;

pub fn run(args: &[String]) -> Result {
    let (check, only_rendered) = match args {
        [] => (false, false),
        [flag] if flag == "--check" => (true, false),
        [flag] if flag == "--rendered" => (false, true),
        _ => return Err("usage: cargo xtask pregenerate [--check | --rendered]".into()),
    };
    let dir = crate::root().join(DIR);
    let files = match only_rendered {
        true => rendered(&crate::root())?,
        false => generate()?,
    };
    if check {
        compare(&dir, &files)?;
        return crate::regeneration_key::write(&dir);
    }
    for (name, text) in &files {
        let path = dir.join(name);
        let parent = path.parent().unwrap_or(&dir);
        std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
        std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    if !only_rendered {
        crate::regeneration_key::write(&dir)?;
    }
    let size: usize = files.iter().map(|(_, t)| t.len()).sum();
    println!("wrote {} files, {} KiB, into {DIR}", files.len(), size / 1024);
    Ok(())
}

/// The files of the pregenerated set for `cuda.h`, in the order [`parts`]
/// gives each build's units; each interop module's follow ([`files`]).
const FILES: [&str; 12] = [
    "types.rs",
    "functions.rs",
    "macro_constants.rs",
    "since.txt",
    "renames.txt",
    "value_types.txt",
    "bitmasks.txt",
    "reference.txt",
    "groups.txt",
    "pages.txt",
    "items.txt",
    "moved_members.txt",
];

/// Each interop module's files, under `<module>/`: its types, functions and
/// tables, and its items' names (`items.txt`, last).
const MODULE_FILES: [&str; 8] = [
    "types.rs",
    "functions.rs",
    "since.txt",
    "renames.txt",
    "reference.txt",
    "groups.txt",
    "pages.txt",
    "items.txt",
];

/// The interop modules of one OS (`linux`, `windows`), in the crate's order.
fn modules_of(os: &str) -> Vec<&'static interop::Interop> {
    interop::MODULES.iter().filter(|m| m.os == os).collect()
}

/// Where the Direct3D modules are generated from: each release's Windows
/// headers, with that target's C compiler (MinGW).
const WINDOWS: &str = "x86_64-pc-windows-gnu";

/// Every file of the pregenerated set, in the order of each build's parts:
/// `cuda.h`'s, then each Linux interop module's, then each Windows one's.
fn files() -> Vec<String> {
    let modules = modules_of("linux").into_iter().chain(modules_of("windows"));
    let modules =
        modules.flat_map(|m| MODULE_FILES.iter().map(move |f| format!("{}/{f}", m.feature)));
    FILES.iter().map(|f| f.to_string()).chain(modules).collect()
}

/// Every generated file of the pregenerated set, `(name in DIR, text)`.
pub fn generate() -> Result<Vec<(String, String)>> {
    let releases = releases()?;
    let newest = releases.last().map(|r| r.0).ok_or("no release listed")?;
    let mut builds: Vec<(Build, Vec<Vec<String>>, Vec<Member>)> = Vec::new();
    // Newest first: the merged files follow the newest header's order.
    crate::setup::ensure_tool(
        "x86_64-w64-mingw32-gcc",
        Path::new("/usr/x86_64-w64-mingw32/include/d3d11.h"),
        "gcc-mingw-w64-x86-64 mingw-w64-x86-64-dev",
    )?;
    for (release, wheel) in releases.iter().rev() {
        let include = headers::include_dir(wheel)?;
        let windows = headers::include_dir_for(wheel, headers::Platform::WindowsX86_64)?;
        for per_thread in [false, true] {
            eprintln!(
                "pregenerate: CUDA {} ({wheel}){}",
                dotted(*release),
                if per_thread { ", per-thread-default-stream" } else { "" }
            );
            let linux = build(&include, *release, per_thread, None)?;
            let (mut parts, members) = parts(linux.out_dir("libcuda-sys")?, &modules_of("linux"))?;
            linux.remove_outputs(&["libcuda-sys"]);
            // The Direct3D modules, from the same release's Windows headers.
            let windows = build(&windows, *release, per_thread, Some(WINDOWS))?;
            parts.extend(module_parts(windows.out_dir("libcuda-sys")?, &modules_of("windows"))?);
            windows.remove_outputs(&["libcuda-sys"]);
            builds.push((Build { release: *release, per_thread }, parts, members));
        }
    }
    let moved = moved(builds.iter().map(|(_, _, m)| m.as_slice()))?;
    let builds: Vec<(Build, Vec<Vec<String>>)> = builds
        .into_iter()
        .map(|(build, mut parts, members)| {
            let rows = members
                .iter()
                .filter(|m| moved.contains(&(m.record.clone(), m.name.clone())))
                .map(|m| format!("{}\t{}\t{}\t{}\n", m.record, m.name, m.path, m.ty))
                .collect();
            // moved_members.txt, the last of cuda.h's files.
            parts.insert(FILES.len() - 1, rows);
            (build, parts)
        })
        .collect();
    let all: Vec<u32> = releases.iter().map(|r| r.0).collect();
    let origin = "// @generated by `cargo xtask pregenerate` from NVIDIA's pip headers of the releases in\n\
                  // releases.txt: declarations, values, names and types, no documentation. Do not edit.\n\
                  // Sections `//@ <releases> [variant]`: see build-logic/pregenerated.rs.\n";
    let mut files = Vec::new();
    for (i, name) in self::files().iter().enumerate() {
        let merged = merge(builds.iter().map(|(b, p)| (*b, p[i].as_slice())));
        let text = format!("{origin}{}", sectioned(&merged, &all, newest));
        // The build script's reading of the sections must give every build back.
        for (build, parts) in &builds {
            if pregenerated::select(&text, build.release, build.per_thread)? != parts[i].concat() {
                return Err(format!(
                    "{name}: the sections of CUDA {} (per-thread: {}) do not read back as generated",
                    dotted(build.release),
                    build.per_thread
                ));
            }
        }
        files.push((name.to_string(), text));
    }
    // The rendered files, from these declarations: a copy of the set as it will be.
    let copy = std::env::temp_dir().join(format!("libcuda-sys-pregenerate-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&copy);
    for (name, text) in files.iter().chain([&("releases.txt".to_string(), read(RELEASES)?)]) {
        let path = copy.join(DIR).join(name);
        std::fs::create_dir_all(path.parent().unwrap_or(&copy)).map_err(|e| e.to_string())?;
        std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    let rendered = rendered(&copy);
    let _ = std::fs::remove_dir_all(&copy);
    files.extend(rendered?);
    Ok(files)
}

fn read(name: &str) -> Result<String> {
    let path = crate::root().join(name);
    std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))
}

/// The rendered files (`rendered/`) of the set in `crate_dir`: for every
/// release and variant, what `write::render` makes of its declarations with
/// every interop module, merged line by line into sections as the
/// declarations are. A build with the pregenerated set then copies its part.
pub fn rendered(crate_dir: &Path) -> Result<Vec<(String, String)>> {
    let releases = pregenerated::releases_in(crate_dir).map_err(|e| e.to_string())?;
    let newest = releases.last().map(|r| r.0).ok_or("no release listed")?;
    let modules: Vec<&interop::Interop> = interop::MODULES.iter().collect();
    // Each build's files, as lines: the names are the same in every build.
    let (mut names, mut builds) = (Vec::new(), Vec::new());
    for (release, _) in releases.iter().rev() {
        for per_thread in [false, true] {
            let set = pregenerated::Set { crate_dir, per_thread };
            let b =
                pregenerated::declarations(set, *release, &modules).map_err(|e| e.to_string())?;
            let (files, lines): (Vec<String>, Vec<Vec<String>>) = render::files(&b)
                .into_iter()
                .map(|(name, text)| (name, text.lines().map(|l| format!("{l}\n")).collect()))
                .unzip();
            names = files;
            builds.push((Build { release: *release, per_thread }, lines));
        }
    }
    let all: Vec<u32> = releases.iter().map(|r| r.0).collect();
    let origin = "// @generated by `cargo xtask pregenerate` from the declarations of this set and the\n\
                  // crate's own documentation: the files a build writes into OUT_DIR. Do not edit.\n\
                  // Sections `//@ <releases> [variant]`: see build-logic/pregenerated.rs.\n";
    let mut files = Vec::new();
    for (i, name) in names.iter().enumerate() {
        let merged = merge(builds.iter().map(|(b, f)| (*b, f[i].as_slice())));
        let text = format!("{origin}{}", sectioned(&merged, &all, newest));
        for (build, f) in &builds {
            if pregenerated::select(&text, build.release, build.per_thread)? != f[i].concat() {
                return Err(format!(
                    "rendered/{name}: the sections of CUDA {} (per-thread: {}) do not read back as rendered",
                    dotted(build.release),
                    build.per_thread
                ));
            }
        }
        files.push((format!("{}/{name}", pregenerated::RENDERED), text));
    }
    Ok(files)
}

/// Builds libcuda-sys from `include`, the headers of `release`, for `target`
/// (the host where `None`) with every interop module of that target's OS. No
/// release feature: the headers decide, so that the script compiles once for every
/// release (twice, with and without `per-thread-default-stream`); the cfgs the
/// build emitted must name `release` as the newest.
fn build(
    include: &Path,
    release: u32,
    per_thread: bool,
    target: Option<&str>,
) -> Result<cargo::Build> {
    let mut cmd = cargo::command(&["check", "--package", "libcuda-sys", "--message-format=json"]);
    // Every interop module, which adds its own files and leaves cuda.h's as they are.
    let os = if target.is_some() { "windows" } else { "linux" };
    let mut features: Vec<&str> = modules_of(os).iter().map(|m| m.feature).collect();
    if let Some(target) = target {
        // Only the build script runs: the library (and libloading, which
        // Windows needs without an import library) would need Windows' std.
        cmd.args(["--target", target, "--keep-going"]);
        features.push("dynamic-loading");
    }
    if per_thread {
        features.push("per-thread-default-stream");
    }
    cmd.args(["--features", &features.join(",")]);
    cmd.env("LIBCUDA_SYS_INCLUDE_DIR", include)
        .env("LIBCUDA_SYS_BINDINGS", "generate")
        .env_remove("LIBCUDA_SYS_DRIVER_FLOOR")
        .env("CARGO_TARGET_DIR", cargo::checks_target_dir());
    // The build script's outputs are all the regeneration reads: the check
    // of the library after it (a second each) is stopped.
    let ours = &cargo::package("libcuda-sys")?.id;
    let build = cargo::build_until(
        cmd,
        |m| matches!(m, Message::BuildScriptExecuted(s) if s.package_id == *ours),
    )?;
    if !build.success {
        return Err(format!("the build from {} failed:\n{}", include.display(), build.failure()));
    }
    let newest = build
        .messages()
        .filter_map(|m| match m {
            Message::BuildScriptExecuted(s) => Some(&s.cfgs),
            _ => None,
        })
        .flatten()
        .filter_map(|c| {
            let (major, minor) = c.strip_prefix("cuda_")?.split_once('_')?;
            Some(major.parse::<u32>().ok()? * 1000 + minor.parse::<u32>().ok()? * 10)
        })
        .max();
    if newest != Some(release) {
        return Err(format!(
            "the headers in {} are of CUDA {}, not {}",
            include.display(),
            newest.map_or("(none said)".into(), dotted),
            dotted(release)
        ));
    }
    Ok(build)
}

/// One build's units for each of [`FILES`] but the last, then for each of
/// `modules` ([`module_parts`]), read back from its `OUT_DIR`, and the members
/// of its records.
fn parts(out: &Path, modules: &[&interop::Interop]) -> Result<(Vec<Vec<String>>, Vec<Member>)> {
    let bindings = rust_file(out, "bindings.rs")?;
    let macro_file = rust_file(out, "macro_constants.rs")?;
    let (function_names, functions) =
        declarations(rust_file(out, "functions.rs")?, "functions.rs")?;
    let mut names = items::names(&bindings.items);
    names.extend(items::names(&macro_file.items));
    names.extend(function_names);
    let names = names.into_iter().map(|n| format!("{n}\n")).collect();
    let members = items::all(&bindings.items);
    // The tables, as the build script wrote them.
    let table = |name: &str| lines(out, &format!("tables/{name}"));
    // In the order of FILES.
    let mut parts = vec![
        units(bindings),
        functions,
        units(macro_file),
        table("since.txt")?,
        table("renames.txt")?,
        table("value_types.txt")?,
        table("bitmasks.txt")?,
        table("reference.txt")?,
        table("groups.txt")?,
        table("pages.txt")?,
        names,
    ];
    parts.extend(module_parts(out, modules)?);
    Ok((parts, members))
}

/// The parts of each of `modules`, in the order of MODULE_FILES: its types as
/// bindgen made them, its functions from `<module>.rs`, its tables.
fn module_parts(out: &Path, modules: &[&interop::Interop]) -> Result<Vec<Vec<String>>> {
    let mut parts = Vec::new();
    for m in modules {
        let table = |name: &str| format!("tables/{}/{name}", m.feature);
        let types = rust_file(out, &table("types.rs"))?;
        let mut names = items::names(&types.items);
        parts.push(units(types));
        let file = format!("{}.rs", m.feature);
        let (function_names, functions) = declarations(rust_file(out, &file)?, &file)?;
        parts.push(functions);
        for name in &MODULE_FILES[2..MODULE_FILES.len() - 1] {
            parts.push(lines(out, &table(name))?);
        }
        names.extend(function_names);
        parts.push(names.into_iter().map(|n| format!("{n}\n")).collect());
    }
    Ok(parts)
}

/// `OUT_DIR/<name>`, parsed as Rust.
fn rust_file(out: &Path, name: &str) -> Result<syn::File> {
    let path = out.join(name);
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    syn::parse_file(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// `OUT_DIR/<name>` (a table), one unit a line.
fn lines(out: &Path, name: &str) -> Result<Vec<String>> {
    let path = out.join(name);
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(text.lines().map(|l| format!("{l}\n")).collect())
}

/// One unit per item of `file` (an enum's enumerators one each), documentation stripped.
fn units(file: syn::File) -> Vec<String> {
    file.items.into_iter().flat_map(exploded).map(|i| unparse(vec![i])).collect()
}

/// The names and the declarations, documentation stripped, of the
/// functions in `file` (of `OUT_DIR/<name>`): its `extern "C"` block, or
/// its `functions!` list (`dynamic-loading`).
fn declarations(file: syn::File, name: &str) -> Result<(Vec<String>, Vec<String>)> {
    let block: syn::ItemForeignMod = file
        .items
        .into_iter()
        .find_map(|item| match item {
            syn::Item::ForeignMod(block) => Some(Ok(block)),
            syn::Item::Macro(m) if m.mac.path.is_ident("functions") => {
                let tokens = m.mac.tokens;
                Some(syn::parse2(quote::quote!(extern "C" { #tokens })))
            }
            _ => None,
        })
        .ok_or(format!("{name} declares no functions"))?
        .map_err(|e| format!("{name}: {e}"))?;
    let template = syn::ItemForeignMod { items: Vec::new(), ..block.clone() };
    let function_names: Vec<String> = block
        .items
        .iter()
        .filter_map(|f| match f {
            syn::ForeignItem::Fn(f) => Some(f.sig.ident.to_string()),
            _ => None,
        })
        .collect();
    let functions = block
        .items
        .into_iter()
        .map(|mut f| {
            StripDocs.visit_foreign_item_mut(&mut f);
            let wrapped = unparse(vec![syn::Item::ForeignMod(syn::ItemForeignMod {
                items: vec![f],
                ..template.clone()
            })]);
            // Inside `extern "C" { ... }`: the lines between, one level out.
            let lines: Vec<&str> = wrapped.lines().collect();
            lines[1..lines.len() - 1]
                .iter()
                .map(|l| format!("{}\n", l.strip_prefix("    ").unwrap_or(l)))
                .collect()
        })
        .collect();
    Ok((function_names, functions))
}

/// The members whose path is not the same in every build that has them: those
/// that moved into or out of an anonymous union (or struct) between releases.
/// Each must have one path in each build, which its accessors then use.
fn moved<'a>(builds: impl Iterator<Item = &'a [Member]>) -> Result<BTreeSet<(String, String)>> {
    type Paths<'a> = BTreeSet<&'a str>;
    let mut seen: std::collections::BTreeMap<(&str, &str), BTreeSet<Paths>> =
        std::collections::BTreeMap::new();
    let mut integer = std::collections::BTreeMap::new();
    for members in builds {
        for m in members {
            *integer.entry((m.record.as_str(), m.name.as_str())).or_insert(true) &= m.integer;
        }
        let mut paths: std::collections::BTreeMap<(&str, &str), Paths> = Default::default();
        for m in members {
            paths.entry((&m.record, &m.name)).or_default().insert(&m.path);
        }
        for (key, set) in paths {
            seen.entry(key).or_default().insert(set);
        }
    }
    let mut moved = BTreeSet::new();
    for (key, sets) in seen.into_iter().filter(|(_, sets)| sets.len() > 1) {
        if sets.iter().any(|s| s.len() > 1) {
            return Err(format!(
                "{}.{} moved, and is at more than one place: {sets:?}",
                key.0, key.1
            ));
        }
        if !integer[&key] {
            // Its accessor reads a union: only an integer, any bits of which are a value, is safe.
            return Err(format!(
                "{}.{} moved and is not an integer: no safe accessor",
                key.0, key.1
            ));
        }
        moved.insert((key.0.to_string(), key.1.to_string()));
    }
    Ok(moved)
}

/// The item without documentation; an enum's block of enumerators as one
/// block per enumerator, so that releases that add one share the rest.
fn exploded(mut item: syn::Item) -> Vec<syn::Item> {
    StripDocs.visit_item_mut(&mut item);
    match item {
        syn::Item::Impl(imp) if imp.trait_.is_none() && imp.items.len() > 1 => imp
            .items
            .iter()
            .map(|one| syn::Item::Impl(syn::ItemImpl { items: vec![one.clone()], ..imp.clone() }))
            .collect(),
        other => vec![other],
    }
}

fn unparse(items: Vec<syn::Item>) -> String {
    prettyplease::unparse(&syn::File { shebang: None, frontmatter: None, attrs: Vec::new(), items })
}

/// The units of every build in one sequence, each with the builds it is in.
/// Each build's units keep their order, so reading a build's sections gives
/// them back as they were.
fn merge<'a>(
    builds: impl Iterator<Item = (Build, &'a [String])>,
) -> Vec<(&'a str, BTreeSet<Build>)> {
    let mut merged: Vec<(&'a str, BTreeSet<Build>)> = Vec::new();
    for (build, units) in builds {
        let old: Vec<&str> = merged.iter().map(|(u, _)| *u).collect();
        let new: Vec<&'a str> = units.iter().map(String::as_str).collect();
        let mut next = Vec::with_capacity(merged.len() + new.len());
        let mut old_entries = std::mem::take(&mut merged).into_iter();
        for op in similar::capture_diff_slices(similar::Algorithm::Myers, &old, &new) {
            let (tag, old_range, new_range) = op.as_tag_tuple();
            if tag == similar::DiffTag::Equal {
                for (unit, mut set) in old_entries.by_ref().take(old_range.len()) {
                    set.insert(build);
                    next.push((unit, set));
                }
            } else {
                // Deleted, inserted or replaced: the old units first, then the new.
                next.extend(old_entries.by_ref().take(old_range.len()));
                next.extend(new[new_range].iter().map(|unit| (*unit, BTreeSet::from([build]))));
            }
        }
        merged = next;
    }
    merged
}

/// The merged units under their section headings.
fn sectioned(merged: &[(&str, BTreeSet<Build>)], all: &[u32], newest: u32) -> String {
    let mut out = String::new();
    let mut current: Option<&BTreeSet<Build>> = None;
    for (unit, set) in merged {
        if current != Some(set) {
            out.push_str(&format!("//@ {}\n", heading(set, all, newest)));
            current = Some(set);
        }
        out.push_str(unit);
    }
    out
}

/// `all`, `12.0-12.9, 13.0- default`, ...: runs of consecutive releases whose
/// variants are the same.
fn heading(set: &BTreeSet<Build>, all: &[u32], newest: u32) -> String {
    let variant = |release: u32| {
        let has = |per_thread| set.contains(&Build { release, per_thread });
        match (has(false), has(true)) {
            (true, true) => Some(""),
            (true, false) => Some(" default"),
            (false, true) => Some(" per-thread"),
            (false, false) => None,
        }
    };
    let mut clauses = Vec::new();
    let mut i = 0;
    while i < all.len() {
        let Some(v) = variant(all[i]) else {
            i += 1;
            continue;
        };
        let start = i;
        while i + 1 < all.len() && variant(all[i + 1]) == Some(v) {
            i += 1;
        }
        let (low, high) = (all[start], all[i]);
        let range = if start == 0 && high == newest {
            "all".to_string()
        } else if high == newest {
            format!("{}-", dotted(low))
        } else if low == high {
            dotted(low)
        } else {
            format!("{}-{}", dotted(low), dotted(high))
        };
        clauses.push(format!("{range}{v}"));
        i += 1;
    }
    clauses.join(", ")
}

struct StripDocs;

/// Every `doc` attribute goes: the documentation, and the crate's own
/// `#[doc(hidden)]`/`#[doc(inline)]` of each enum's one page, which the build
/// script adds again.
fn strip(attrs: &mut Vec<syn::Attribute>) {
    attrs.retain(|a| !a.path().is_ident("doc"));
}

impl VisitMut for StripDocs {
    fn visit_attributes_mut(&mut self, attrs: &mut Vec<syn::Attribute>) {
        strip(attrs);
    }
}

/// `--check`: the committed set, byte for byte.
pub fn compare(dir: &Path, files: &[(String, String)]) -> Result {
    let mut differ = Vec::new();
    for (name, text) in files {
        match std::fs::read_to_string(dir.join(name)) {
            Ok(committed) if committed == *text => {}
            Ok(_) => differ.push(format!("{name}: differs")),
            Err(e) => differ.push(format!("{name}: {e}")),
        }
    }
    // The committed files, those of the modules' folders too.
    let listed = |dir: &Path| -> Vec<std::fs::DirEntry> {
        std::fs::read_dir(dir).into_iter().flatten().flatten().collect()
    };
    for entry in listed(dir) {
        let name = entry.file_name().to_string_lossy().into_owned();
        let names: Vec<String> = if entry.path().is_dir() {
            let inner = listed(&entry.path());
            inner.iter().map(|e| format!("{name}/{}", e.file_name().to_string_lossy())).collect()
        } else {
            vec![name]
        };
        for name in names {
            let kept = ["releases.txt", "key.txt"];
            if !kept.contains(&name.as_str()) && !files.iter().any(|(n, _)| *n == name) {
                differ.push(format!("{name}: committed, but not generated"));
            }
        }
    }
    if differ.is_empty() {
        println!(
            "{DIR}: {} files equal a fresh regeneration from the releases of {RELEASES}",
            files.len()
        );
        Ok(())
    } else {
        Err(format!(
            "{DIR} is not what `cargo xtask pregenerate` makes now:\n  {}\nRun `cargo xtask pregenerate` and commit the result.",
            differ.join("\n  ")
        ))
    }
}

#[cfg(test)]
mod tests {
    /// A release is a line of `releases.txt` and a `cuda-XXXXX` feature of the
    /// crate (the build script checks its own list against `releases.txt`):
    /// one without the other fails here.
    #[test]
    fn every_release_has_its_feature_and_no_feature_lacks_a_release() {
        let releases: Vec<String> =
            super::releases().unwrap().iter().map(|(n, _)| format!("cuda-{n:05}")).collect();
        let package = crate::cargo::package("libcuda-sys").unwrap();
        let features: Vec<String> =
            package.features.keys().filter(|f| f.starts_with("cuda-")).cloned().collect();
        let mut sorted = releases.clone();
        sorted.sort();
        assert_eq!(features, sorted, "the cuda-XXXXX features of Cargo.toml and releases.txt");
    }

    /// The README's first lines and the crate docs say which releases the
    /// crate covers in words; `releases.txt` is the list they must say.
    #[test]
    fn the_readme_and_the_crate_docs_name_the_releases_of_releases_txt() {
        let releases: Vec<u32> = super::releases().unwrap().iter().map(|(n, _)| *n).collect();
        use super::dotted;
        // Runs of consecutive minors of one major as `12.0–12.6`.
        let mut runs: Vec<(u32, u32)> = Vec::new();
        for &n in &releases {
            match runs.last_mut() {
                Some((_, last)) if n == *last + 10 && n / 1000 == *last / 1000 => *last = n,
                _ => runs.push((n, n)),
            }
        }
        let mut words: Vec<String> = runs
            .iter()
            .flat_map(|&(a, b)| match (b - a) / 10 {
                0 => vec![dotted(a)],
                1 => vec![dotted(a), dotted(b)],
                _ => vec![format!("{}\u{2013}{}", dotted(a), dotted(b))],
            })
            .collect();
        let last = words.pop().unwrap();
        let list = format!("{} and {last}", words.join(", "));
        let (first, newest) = (dotted(releases[0]), dotted(*releases.last().unwrap()));
        let read = |name: &str| std::fs::read_to_string(crate::root().join(name)).unwrap();
        let flat = |text: String| text.replace("\n//! ", " ").replace('\n', " ");
        let docs = flat(read("src/lib.rs")) + " " + &flat(read("src/building.rs"));
        let readme = flat(read("README.md"));
        let range = format!("for CUDA {first} to {newest}.");
        assert!(readme.contains(&range), "README.md's first lines should say {range:?}");
        let wheels = format!("pip wheels: {list}, each in both");
        assert!(docs.contains(&wheels), "src/building.rs should say {wheels:?}");
        let moved = format!("the only one from {first} to {newest}:");
        assert!(docs.contains(&moved), "src/lib.rs should say {moved:?}");
    }
}
