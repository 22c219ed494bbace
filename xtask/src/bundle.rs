//! Bundles of binaries for a machine with a GPU and no Rust: the test binaries
//! (`cargo xtask gpu-bundle`) and the call benchmark (`cargo xtask
//! bench-calls-bundle`). Cargo's JSON messages say which executables it built;
//! the bundle holds copies of them and a `run.sh` (from `xtask/templates/`),
//! never a libcuda: on the GPU machine the driver's `libcuda.so.1` is used.
//! A bundle made where an earlier one is removes only the files that one
//! wrote (its manifest): what the user added there, such as results copied
//! back, stays.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::{cargo, headers, recipe, Result};

const GPU_RUN: &str = include_str!("../templates/gpu-run.sh");
const CALLS_RUN: &str = include_str!("../templates/calls-run.sh");

/// A cargo build for the bundle, with `env`; its errors, where it fails.
fn build(args: &[&str], env: &[(&str, &Path)]) -> Result<cargo::Build> {
    eprintln!("bundle: cargo {}", args.join(" "));
    let mut cmd = cargo::command(args);
    cmd.arg("--message-format=json-render-diagnostics");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let build = cargo::build(cmd)?;
    if !build.success {
        return Err(format!("cargo {} failed:\n{}", args.join(" "), build.failure()));
    }
    Ok(build)
}

/// Lists, one a line under a comment, the files the bundle in its directory
/// wrote (relative paths): all that the next bundle made there may remove.
const MANIFEST: &str = ".libcuda-sys-bundle";

/// A bundle goes into a new or empty directory, or one that holds an earlier
/// bundle (its manifest) and none of the files every bundle writes but that
/// one's: anything else is refused before anything is built. A directory is
/// written into, never replaced: a symbolic link to one stays.
fn claim(dir: &Path) -> Result {
    match std::fs::read_dir(dir).map(|mut entries| entries.next().is_none()) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(format!("{}: {e}", dir.display())),
        Ok(true) => Ok(()),
        Ok(false) if dir.join(MANIFEST).is_file() => {
            refuse_in_the_way(dir, &["info.txt", "run.sh"].map(PathBuf::from)).map(drop)
        }
        Ok(false) => Err(format!(
            "{} is not empty and holds no bundle these commands made: refusing to write into it; \
             name a new or empty directory",
            dir.display()
        )),
    }
}

/// The files the earlier bundle in `dir` wrote; an error naming those of
/// `files` (relative paths) that are in `dir` though it did not write them.
fn refuse_in_the_way(dir: &Path, files: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let before = written_before(dir)?;
    let in_the_way: Vec<String> = files
        .iter()
        .filter(|f| !before.contains(f) && std::fs::symlink_metadata(dir.join(f)).is_ok())
        .map(|f| f.display().to_string())
        .collect();
    match in_the_way.as_slice() {
        [] => Ok(before),
        _ => Err(format!(
            "{} holds files that no earlier bundle wrote, where this one writes: {}; refusing \
             to replace them: move them away, or name another directory",
            dir.display(),
            in_the_way.join(", ")
        )),
    }
}

/// The files the earlier bundle in `dir` wrote, from its manifest (none
/// without one); an entry that would lead out of `dir` is an error.
fn written_before(dir: &Path) -> Result<Vec<PathBuf>> {
    let path = dir.join(MANIFEST);
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(format!("{}: {e}", path.display())),
    };
    let inside = |p: &Path| p.components().all(|c| matches!(c, std::path::Component::Normal(_)));
    text.lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| match Path::new(l) {
            p if inside(p) => Ok(p.to_path_buf()),
            _ => Err(format!("{}: {l:?} is not a path inside the bundle", path.display())),
        })
        .collect()
}

/// Makes room in `dir` (after [`claim`]) for a bundle of `files` (relative
/// paths): removes the files the earlier bundle there wrote, and nothing
/// else; where a file the bundle would write is there and the earlier bundle
/// did not write it, refuses and names it, having removed nothing. Then
/// writes the manifest, before the files, so that it lists whatever is written.
fn make_room(dir: &Path, files: &[PathBuf]) -> Result {
    claim(dir)?;
    let before = refuse_in_the_way(dir, files)?;
    for f in &before {
        match std::fs::remove_file(dir.join(f)) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                return Err(format!("removing {}: {e}", dir.join(f).display()))
            }
            _ => {}
        }
    }
    std::fs::create_dir_all(dir.join("bin"))
        .map_err(|e| format!("creating {}: {e}", dir.join("bin").display()))?;
    let mut manifest = String::from(
        "# Written by cargo xtask: the next bundle made here removes these files, and only these.\n",
    );
    for f in files {
        manifest.push_str(&format!("{}\n", f.display()));
    }
    write(&dir.join(MANIFEST), &manifest, false)
}

fn write(path: &Path, contents: &str, executable: bool) -> Result {
    std::fs::write(path, contents).map_err(|e| format!("writing {}: {e}", path.display()))?;
    if executable {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755))
            .map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(())
}

/// Writes the bundle into `dir`: `binaries` copied into `dir/bin` (debug
/// information stripped, where `strip` exists: the bundle only gets smaller),
/// `files` (`(name, source)`) copied beside them, `info.txt` and `run.sh`;
/// prints the command that runs it.
fn fill(
    dir: &Path,
    binaries: &[(String, PathBuf)],
    files: &[(&str, PathBuf)],
    info: &[(&str, String)],
    run: &str,
) -> Result {
    let mut copies = Vec::new();
    for (name, from) in binaries {
        if name.starts_with("libcuda.so") {
            return Err(format!(
                "{name}: the GPU machine's driver must be used, never a bundled libcuda"
            ));
        }
        // Two packages' tests of one name would be one file, the other lost.
        if binaries.iter().filter(|(other, _)| other == name).count() > 1 {
            return Err(format!("two test binaries are named {name}: rename one's test target"));
        }
        copies.push((Path::new("bin").join(name), from));
    }
    copies.extend(files.iter().map(|(name, from)| (PathBuf::from(name), from)));
    let written: Vec<PathBuf> = copies
        .iter()
        .map(|(to, _)| to.clone())
        .chain(["info.txt", "run.sh"].map(PathBuf::from))
        .collect();
    make_room(dir, &written)?;
    for (to, from) in &copies {
        if let Some(parent) = dir.join(to).parent() {
            std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
        }
        std::fs::copy(from, dir.join(to))
            .map_err(|e| format!("copying {}: {e}", from.display()))?;
    }
    let bin = copies.iter().take(binaries.len()).map(|(to, _)| dir.join(to));
    let _ = Command::new("strip").arg("--strip-debug").args(bin).status();
    let commit = Command::new("git")
        .args(["rev-parse", "--short", "HEAD"])
        .current_dir(crate::root())
        .output();
    let commit =
        commit.map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string()).unwrap_or_default();
    let mut text: String = info.iter().map(|(k, v)| format!("{k}={v}\n")).collect();
    text.push_str(&format!("commit={commit}\n"));
    write(&dir.join("info.txt"), &text, false)?;
    write(&dir.join("run.sh"), run, true)?;
    let shown = dir.strip_prefix(crate::root()).unwrap_or(dir).join("run.sh");
    eprintln!(
        "bundle: {} binaries in {}/; on the GPU machine, from the repository root:",
        binaries.len(),
        dir.display()
    );
    println!("bash {}", crate::shell_word(&shown.to_string_lossy()));
    Ok(())
}

/// A bundle command's arguments: the headers' version, the directory, and
/// the options given (`(option, value)`).
type Arguments<'a> = (String, PathBuf, Vec<(String, &'a str)>);

/// `[VERSION [DIR]]` and the options `options` names.
fn arguments<'a>(
    args: &'a [String],
    options: &[&str],
    usage: &str,
    default_dir: &str,
) -> Result<Arguments<'a>> {
    let (mut positional, mut given) = (Vec::new(), Vec::new());
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            o if options.contains(&o) => {
                given.push((o.to_string(), it.next().ok_or(usage)?.as_str()))
            }
            s if s.starts_with('-') || positional.len() == 2 => return Err(usage.into()),
            s => positional.push(s),
        }
    }
    let version = positional.first().copied().unwrap_or("13.0").to_string();
    let dir = std::env::current_dir()
        .map_err(|e| e.to_string())?
        .join(positional.get(1).copied().unwrap_or(default_dir));
    claim(&dir)?;
    Ok((version, dir, given))
}

/// The packages whose test binaries a GPU bundle leaves out: xtask runs
/// where Rust is, and the call harness is the call benchmark's.
const NOT_BUNDLED: [&str; 2] = ["xtask", "call-harness"];

/// The test targets `package` declares in `[package.metadata.libcuda-sys]
/// reads-build-tree`: those that read the build tree while they run.
fn reads_build_tree(package: &cargo_metadata::Package) -> Vec<String> {
    let declared = &package.metadata["libcuda-sys"]["reads-build-tree"];
    serde_json::from_value(declared.clone()).unwrap_or_default()
}

/// `cargo xtask gpu-bundle [VERSION [DIR]] [--features F] [--driver-floor V]`:
/// every test binary built against one release's headers (13.0 by default: no
/// newer than the GPU machine's driver), the report, `examples/vector_add.rs`,
/// and the test of the docs' binding-crate recipe (`recipe-nvrtc`). The test binaries
/// that read the build tree, which their package declares in
/// `[package.metadata.libcuda-sys] reads-build-tree`, are left out and named.
pub fn gpu(args: &[String]) -> Result {
    let usage = "usage: cargo xtask gpu-bundle [VERSION [DIR]] [--features F] [--driver-floor V]";
    let (version, dir, given) =
        arguments(args, &["--features", "--driver-floor"], usage, ".gpu-bundle")?;
    let include = headers::include_dir(&version)?;
    let floor = given.iter().find(|(o, _)| o == "--driver-floor").map(|(_, v)| PathBuf::from(v));
    // The cuRAND binding crate (curand/) binds and links 13.0's cuRAND; the GPU
    // machine's toolkit has its libcurand.so.10 (run.sh).
    let curand = headers::curand_root()?;
    let mut env: Vec<(&str, &Path)> =
        vec![("LIBCUDA_SYS_INCLUDE_DIR", &include), ("CURAND_ROOT", &curand)];
    if let Some(f) = &floor {
        env.push(("LIBCUDA_SYS_DRIVER_FLOOR", f));
    }
    // The crate's features, through its package name so that the report's tests get them too.
    let features: Option<String> = given.iter().find(|(o, _)| o == "--features").map(|(_, f)| {
        f.split([',', ' '])
            .filter(|s| !s.is_empty())
            .map(|s| format!("libcuda-sys/{s}"))
            .collect::<Vec<_>>()
            .join(",")
    });
    let mut test_args = vec!["test", "--locked", "--tests", "--no-run"];
    match &features {
        Some(f) => test_args.extend([
            "-p",
            "libcuda-sys",
            "-p",
            "mempool-report",
            "-p",
            "libcuda-sys-curand-example",
            "--features",
            f,
        ]),
        // The dependent links C that calls libcuda: linked mode only.
        None => {
            test_args.push("--workspace");
            test_args.extend(NOT_BUNDLED.iter().flat_map(|p| ["--exclude", p]));
        }
    }
    let tests = build(&test_args, &env)?;
    let mut report_args = vec!["build", "--locked", "-p", "mempool-report"];
    if let Some(f) = &features {
        report_args.extend(["--features", f]);
    }
    let report = build(&report_args, &env)?;
    // The first program of the crate docs, as users run it.
    let mut example_args =
        vec!["build", "--locked", "-p", "libcuda-sys", "--example", "vector_add"];
    if let Some(f) = &features {
        example_args.extend(["--features", f]);
    }
    let example = build(&example_args, &env)?;

    let mut left_out = Vec::new();
    let mut binaries = Vec::new();
    for (artifact, path) in cargo::executables(tests.messages(), true) {
        let (package, target) = (cargo::package_of(artifact)?, &artifact.target.name);
        if reads_build_tree(package).contains(target) {
            left_out.push(format!("{}/{target}", package.name));
        } else {
            binaries.push((target.clone(), path.into()));
        }
    }
    binaries.extend(
        cargo::executables(report.messages(), false)
            .filter(|(a, _)| a.target.name == "mempool-report")
            .map(|(_, path)| ("report".to_string(), path.into())),
    );
    binaries.extend(
        cargo::executables(example.messages(), false)
            .filter(|(a, _)| a.target.name == "vector_add")
            .map(|(_, path)| ("example-vector_add".to_string(), path.into())),
    );
    // The docs' binding-crate recipe (`recipe.rs`), with the same features:
    // its kernel launched through libcuda-sys, NVRTC the GPU machine's toolkit's (run.sh).
    let raw: Vec<&str> = given
        .iter()
        .filter(|(o, _)| o == "--features")
        .flat_map(|(_, f)| f.split([',', ' ']).filter(|s| !s.is_empty()))
        .collect();
    binaries.push(("recipe-nvrtc".to_string(), recipe::test_binary(&raw)?));
    let info = [
        ("headers", version),
        ("features", features.unwrap_or_else(|| "none".into())),
        ("driver_floor", floor.map_or("none".into(), |f| f.display().to_string())),
        ("left_out", left_out.join(" ")),
    ];
    // A build made without a driver links the crate's stand-in: run.sh runs
    // the binaries once more with it first on the library path, as `cargo
    // test` runs them, where it must hand every call over to the driver.
    let stand_in = tests.out_dir("libcuda-sys").map(|d| d.join("stub/libcuda.so.1"));
    let files: Vec<(&str, PathBuf)> = match stand_in {
        Ok(path) if path.is_file() => vec![("stand-in/libcuda.so.1", path)],
        _ => Vec::new(),
    };
    fill(&dir, &binaries, &files, &info, GPU_RUN)
}

/// `cargo xtask bench-calls-bundle [VERSION [DIR]]`: the call benchmark's
/// programs (libcuda-sys linked and `dynamic-loading`, cudarc, the C source)
/// with a `run.sh` that runs them side by side.
pub fn calls(args: &[String]) -> Result {
    let usage = "usage: cargo xtask bench-calls-bundle [VERSION [DIR]]";
    let (version, dir, _) = arguments(args, &[], usage, ".bench-bundle")?;
    let include = headers::include_dir(&version)?;
    let manifest = crate::root().join("benches/cudarc-calls/Cargo.toml");
    let manifest = manifest.to_str().ok_or("a non-UTF-8 path")?;
    let example =
        ["build", "--release", "--locked", "-p", "libcuda-sys", "--example", "call_overhead"];
    let programs = [
        ("rust-linked", example.to_vec(), "call_overhead"),
        (
            "rust-dynamic",
            [&example[..], &["--features", "dynamic-loading"]].concat(),
            "call_overhead",
        ),
        (
            "cudarc",
            vec!["build", "--release", "--locked", "--manifest-path", manifest],
            "cudarc-calls",
        ),
    ];
    let mut binaries = Vec::new();
    for (name, args, exe) in programs {
        // A target directory each, so that no build replaces another's program.
        let target = crate::root().join("target/bench-calls").join(name);
        let built =
            build(&args, &[("LIBCUDA_SYS_INCLUDE_DIR", &include), ("CARGO_TARGET_DIR", &target)])?;
        let found = cargo::executables(built.messages(), false).find(|(a, _)| a.target.name == exe);
        binaries
            .push((format!("call_overhead-{name}"), found.ok_or(format!("no {exe}"))?.1.into()));
    }
    let source = [("call_overhead.c", crate::root().join("benches/call_overhead.c"))];
    fill(&dir, &binaries, &source, &[("headers", version)], CALLS_RUN)
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    /// The value of a `#[path = "..."]` among `attrs`.
    fn path_attribute(attrs: &[syn::Attribute]) -> Option<String> {
        attrs.iter().find_map(|a| match &a.meta {
            syn::Meta::NameValue(nv) if nv.path.is_ident("path") => match &nv.value {
                syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(s), .. }) => Some(s.value()),
                _ => None,
            },
            _ => None,
        })
    }

    /// The files of the modules `items` declare (`mod m;`), found as rustc
    /// finds them: in `dir`, or where a `#[path]` in `file` points; each with
    /// the directory of its own modules.
    fn modules(items: &[syn::Item], file: &Path, dir: &Path, out: &mut Vec<(PathBuf, PathBuf)>) {
        for item in items {
            let syn::Item::Mod(m) = item else { continue };
            let name = m.ident.to_string();
            if let Some((_, inline)) = &m.content {
                modules(inline, file, &dir.join(&name), out);
                continue;
            }
            let found = match path_attribute(&m.attrs) {
                Some(p) => file.parent().unwrap_or(dir).join(p),
                None if dir.join(format!("{name}.rs")).is_file() => dir.join(format!("{name}.rs")),
                None => dir.join(&name).join("mod.rs"),
            };
            let own = match found.file_name().is_some_and(|n| n == "mod.rs") {
                true => found.parent().unwrap_or(dir).to_path_buf(),
                false => found.with_extension(""),
            };
            out.push((found, own));
        }
    }

    /// The source files of the crate whose root is `root`.
    fn crate_files(root: &Path) -> Vec<(PathBuf, String)> {
        let mut todo = vec![(root.to_path_buf(), root.parent().unwrap().to_path_buf())];
        let mut files = Vec::new();
        while let Some((file, dir)) = todo.pop() {
            let Ok(text) = std::fs::read_to_string(&file) else { continue };
            if let Ok(ast) = syn::parse_file(&text) {
                modules(&ast.items, &file, &dir, &mut todo);
            }
            files.push((file, text));
        }
        files
    }

    /// What a test program does that reads the build tree where it runs:
    /// files and directories looked at, a program started in one.
    const TOUCHES: [&str; 9] = [
        "fs::",
        "File::open",
        "read_dir",
        "read_to_string",
        "canonicalize",
        ".exists()",
        ".is_file()",
        ".is_dir()",
        ".current_dir(",
    ];

    /// A test binary copied to a GPU machine has no checkout beside it: one
    /// whose sources name the manifest directory at compile time
    /// (`env!("CARGO_MANIFEST_DIR")`) and touch the file system fails there,
    /// so its package must declare it in `reads-build-tree` (the bundle
    /// leaves it out). A crude reading: a target counts where any of its
    /// files names the directory and any touches files, and `fs::` alone
    /// counts. Each declared name must be a test target of its package.
    #[test]
    fn test_targets_that_read_the_manifest_directory_are_declared() {
        let metadata = crate::cargo::workspace().unwrap();
        let mut undeclared = Vec::new();
        let mut checked = 0;
        for package in metadata.workspace_packages() {
            if super::NOT_BUNDLED.contains(&package.name.as_str()) {
                continue;
            }
            let declared = super::reads_build_tree(package);
            let tests: Vec<_> = package.targets.iter().filter(|t| t.test).collect();
            for name in &declared {
                assert!(
                    tests.iter().any(|t| t.name == *name),
                    "{}: reads-build-tree names {name}, which is none of its test targets",
                    package.name
                );
            }
            for target in tests {
                let files = crate_files(target.src_path.as_std_path());
                assert!(!files.is_empty(), "{}: no sources", target.src_path);
                let flat = |t: &str| t.split_whitespace().collect::<String>();
                let names =
                    files.iter().any(|(_, t)| flat(t).contains(r#"env!("CARGO_MANIFEST_DIR")"#));
                let touches = files.iter().any(|(_, t)| TOUCHES.iter().any(|w| t.contains(w)));
                if names && touches && !declared.contains(&target.name) {
                    undeclared.push(format!("{}/{}", package.name, target.name));
                }
                checked += 1;
            }
        }
        assert!(checked > 20, "{checked} test targets");
        assert!(
            undeclared.is_empty(),
            "these test targets read the manifest directory at run time; add them to their \
             package's [package.metadata.libcuda-sys] reads-build-tree: {undeclared:?}"
        );
    }

    /// The files of a crate are its root and the modules it declares,
    /// `#[path]` and inline modules included, and no other file beside them.
    #[test]
    fn a_crates_files_are_its_modules() {
        let dir = tempfile::tempdir().unwrap();
        let write = |name: &str, text: &str| {
            let path = dir.path().join(name);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        };
        write(
            "t/main.rs",
            "mod a;\nmod b;\n#[path = \"../shared/c.rs\"]\nmod c;\nmod d { mod e; }\n",
        );
        write("t/a.rs", "mod inner;\n");
        write("t/a/inner.rs", "");
        write("t/b/mod.rs", "mod f;\n");
        write("t/b/f.rs", "");
        write("shared/c.rs", "");
        write("t/d/e.rs", "");
        write("t/unrelated.rs", "env!(\"CARGO_MANIFEST_DIR\")");
        let mut files: Vec<String> = crate_files(&dir.path().join("t/main.rs"))
            .into_iter()
            .map(|(f, _)| f.strip_prefix(dir.path()).unwrap().display().to_string())
            .collect();
        files.sort();
        let want = [
            "shared/c.rs",
            "t/a.rs",
            "t/a/inner.rs",
            "t/b/f.rs",
            "t/b/mod.rs",
            "t/d/e.rs",
            "t/main.rs",
        ];
        assert_eq!(files.iter().map(|f| f.replace("t/../", "")).collect::<Vec<_>>(), want);
    }
}
