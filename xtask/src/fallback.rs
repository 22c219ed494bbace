//! `cargo xtask fallback-tests`: the crate builds where there are no CUDA
//! headers and no libclang (docs.rs, plain CI, laptops), with the pregenerated
//! bindings, and says so; what must stay an error stays one.
//!
//! "No headers" is no toolkit variable, no `nvcc`, no pip headers on Python's
//! path (this machine's `.cuda-headers/` is never searched). "No libclang" is
//! a private mount namespace (`unshare -m`, root) in which every
//! `libclang*.so*` file is covered by `/dev/null`. Where that namespace cannot
//! be made, the checks that need it say `skipped` and why.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use cargo_metadata::{Message, MetadataCommand};

use crate::docs::{docblock, strip_tags};
use crate::summary::{Failure, Outcome, Report, Tests};
use crate::targets::{FEATURE_BLIND, OWN_ENVIRONMENT};
use crate::{cargo, docs, headers, pregenerate, Result};

/// What a build of the pregenerated set says, once, where the user did not ask for it.
const FALLBACK_WARNING: &str = "using the pregenerated bindings of libcuda-sys (CUDA ";

/// What docs.rs must show for each memory-pool attribute, after the crate's
/// sentence: its value type, size and signedness, and whether it can be set
/// (the header's `(value type = ...)` and `cuMemPoolSetAttribute`'s list, as of
/// CUDA 13.5); each line goes on with the getter and where the type comes from.
const POOL_VALUE_TYPES: [(&str, &str); 15] = [
    ("CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES", "int (4 bytes, signed)"),
    ("CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC", "int (4 bytes, signed)"),
    ("CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES", "int (4 bytes, signed)"),
    ("CU_MEMPOOL_ATTR_RELEASE_THRESHOLD", "cuuint64_t (8 bytes, unsigned)"),
    ("CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT", "cuuint64_t (8 bytes, unsigned)"),
    ("CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH", "cuuint64_t (8 bytes, unsigned)"),
    ("CU_MEMPOOL_ATTR_USED_MEM_CURRENT", "cuuint64_t (8 bytes, unsigned)"),
    ("CU_MEMPOOL_ATTR_USED_MEM_HIGH", "cuuint64_t (8 bytes, unsigned)"),
    ("CU_MEMPOOL_ATTR_ALLOCATION_TYPE", "CUmemAllocationType (4 bytes)"),
    ("CU_MEMPOOL_ATTR_EXPORT_HANDLE_TYPES", "CUmemAllocationHandleType (4 bytes)"),
    ("CU_MEMPOOL_ATTR_LOCATION_ID", "int (4 bytes, signed)"),
    ("CU_MEMPOOL_ATTR_LOCATION_TYPE", "CUmemLocationType (4 bytes)"),
    ("CU_MEMPOOL_ATTR_MAX_POOL_SIZE", "cuuint64_t (8 bytes, unsigned)"),
    ("CU_MEMPOOL_ATTR_HW_DECOMPRESS_ENABLED", "int (4 bytes, signed)"),
    ("CU_MEMPOOL_ATTR_LOCALITY_DOMAIN_ID", "int (4 bytes, signed)"),
];

/// How each pool attribute can be set, by its value (1-based): the rest are read-only.
fn pool_access(value: usize) -> &'static str {
    match value {
        1..=4 => "set with cuMemPoolSetAttribute",
        6 | 8 => "read-only, except that cuMemPoolSetAttribute can reset it to 0",
        _ => "read-only",
    }
}

/// What docs.rs must show of two pointer attributes whose width users get wrong.
const POINTER_VALUE_TYPES: [(&str, &str); 2] = [
    (
        "CU_POINTER_ATTRIBUTE_ALLOWED_HANDLE_TYPES",
        "Value type unsigned long long (8 bytes, unsigned)",
    ),
    ("CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL", "Value type int (4 bytes, signed)"),
];

/// The packaged crate, compressed and unpacked, at most (bytes): what a user
/// downloads stays within 1 MiB, the rendered documentation of every release
/// (each enumerator's, array's and group's line) included.
const PACKAGE_LIMITS: (u64, u64) = (1024 * 1024, 8 * 1024 * 1024);

/// The check of the crate's `rust-version`.
const RUST_VERSION: &str = "rust-version: fresh dependents build with that toolchain";

/// Build dependencies that only generation needs: none of them may be
/// compiled without the `bindgen` feature.
const GENERATION_ONLY: [&str; 6] =
    ["bindgen", "clang-sys", "syn", "quote", "doxygen-bindgen", "pkg-config"];

pub fn run(args: &[String]) -> Result {
    if args.len() > 1 {
        return Err("usage: cargo xtask fallback-tests [part of a check's name]".into());
    }
    let mut report = Report::default();
    report.only = args.first().cloned();
    checks(&mut report);
    report.finish()
}

/// `cargo xtask rust-version`: the check of the crate's `rust-version`,
/// which CI runs (`cargo xtask ci`) apart from the test command: what it
/// finds is the claimed toolchain's age, and it compiles every dependency
/// anew with that toolchain. Clippy's `incompatible_msrv`, in the lint
/// gates, names a newer standard-library item where it is written.
pub fn rust_version() -> Result {
    let env = Env { hide: libclang_files(), target_dir: cargo::checks_target_dir() };
    let mut report = Report::default();
    report.check(RUST_VERSION, || env.rust_version());
    report.finish()
}

pub fn checks(report: &mut Report) {
    let env = Env { hide: libclang_files(), target_dir: cargo::checks_target_dir() };
    report.check("libclang hidden: generation is the clear libclang error", || {
        let mut cmd = env.sandboxed(&["build", "-p", "libcuda-sys"])?;
        cmd.env("LIBCUDA_SYS_INCLUDE_DIR", newest_include()?)
            .env("LIBCUDA_SYS_BINDINGS", "generate");
        expect_failure(&output(cmd)?, "libclang not found (bindgen needs it to read cuda.h)")
    });
    report.check("no headers, no libclang: the fallback warning says why", || {
        let out = output(env.sandboxed(&["build", "-p", "libcuda-sys"])?)?;
        expect_success(&out)?;
        fallback_warning(&out, "no CUDA headers (cuda.h) found")
    });
    report.check("headers but no libclang: the fallback warning names libclang", || {
        let mut cmd = env.sandboxed(&["build", "-p", "libcuda-sys"])?;
        cmd.env("LIBCUDA_SYS_INCLUDE_DIR", newest_include()?);
        let out = output(cmd)?;
        expect_success(&out)?;
        fallback_warning(&out, "because libclang not found")
    });
    for features in ["", "dynamic-loading", "per-thread-default-stream"] {
        let name = match features {
            "" => "no headers, no libclang".to_string(),
            f => format!("no headers, no libclang, {f}"),
        };
        let args = ["-p", "libcuda-sys", "--features", features];
        let except = if features.is_empty() { &[OWN_ENVIRONMENT][..] } else { FEATURE_BLIND };
        match &env.hide {
            Ok(files) => {
                report.suite(&name, &args, Tests::Both, except, &|cmd| env.hidden(files, cmd, &[]))
            }
            Err(why) => report.check(&format!("{name}: cargo test -p libcuda-sys"), || {
                Err(Failure::Skipped(why.clone()))
            }),
        }
    }
    report.check("no headers, no libclang: the report", || env.report());
    report.check("--no-default-features: builds, compiling nothing of generation", || {
        env.no_default_features()
    });
    report.check("--no-default-features: wrong variables and generate are errors", || {
        for (var, value, summary) in [
            ("CUDA_PATH", "/nonexistent", "CUDA_PATH=/nonexistent does not exist"),
            (
                "LIBCUDA_SYS_BINDINGS",
                "generate",
                "LIBCUDA_SYS_BINDINGS=generate needs libcuda-sys's `bindgen` feature",
            ),
        ] {
            let mut cmd =
                env.sandboxed(&["build", "-p", "libcuda-sys", "--no-default-features"])?;
            cmd.env(var, value);
            expect_failure(&output(cmd)?, summary)?;
        }
        Ok("CUDA_PATH=/nonexistent and LIBCUDA_SYS_BINDINGS=generate fail with their messages"
            .into())
    });
    report.check("DOCS_RS=1 cargo doc: value types, the attributes' sentences, since", || {
        env.docs_rs()
    });
    report.check("docs generated from CUDA 13.0 headers: summaries, the header's text", || {
        let mut cmd = cargo::command(&["doc", "-p", "libcuda-sys", "--no-deps"]);
        cmd.args(["--message-format=json", "--target-dir"]).arg(&env.target_dir);
        cmd.env("LIBCUDA_SYS_INCLUDE_DIR", headers::include_dir("13.0")?)
            .env("LIBCUDA_SYS_BINDINGS", "generate")
            .env("RUSTDOCFLAGS", "-D warnings");
        let build = cargo::build(cmd)?;
        if !build.success {
            return Err(build.failure().into());
        }
        // The pages of this build: the docs.rs check's build script had other variables.
        let doc = env.target_dir.join("doc/libcuda_sys");
        Ok(docs::check(&doc, build.out_dir("libcuda-sys")?, docs::Mode::Generated)?)
    });
    report.check("no headers, no libclang: a dependent's code per release feature", || {
        env.release_dependents()
    });
    report.check("dynamic-loading: one libloading, 0.9 or 0.8, with a dependent's", || {
        env.libloading_range()
    });
    report.check("the packaged crate: its size, and a fresh dependent's test", || {
        env.packaged_crate()
    });
    report.check("the committed set equals a fresh regeneration", || {
        let set = crate::root().join(pregenerate::DIR);
        // Regenerated only where it could differ: see regeneration_key.rs.
        let Some(why) = crate::regeneration_key::changed(&set)? else {
            return Ok("not regenerated: its sources, tools and files are those of its \
                       last regeneration (pregenerated/key.txt)"
                .into());
        };
        let files = pregenerate::generate()?;
        pregenerate::compare(&set, &files)?;
        crate::regeneration_key::write(&set)?;
        Ok(format!("{} files, byte for byte (regenerated: {why})", files.len()))
    });
    report
        .check("a fallback ends when headers appear (nvcc on PATH), and only then re-runs", || {
            env.fallback_ends_when_headers_appear()
        });
    report.check(
        "a cuda.h replaced in place with an older time stops the dependent's C build",
        || env.header_replaced_in_place(),
    );
    report.check("a no-op build re-runs nothing, in every layout and mode", no_op_layouts);
}

/// Where a user's project may be: under `/opt` and `/usr/local` (containers'
/// `WORKDIR`), and in a directory of `PATH`.
/// Each is `(layout, project, what to remove afterwards)`.
fn layouts() -> Vec<(&'static str, PathBuf, PathBuf)> {
    let tmp = std::env::temp_dir().join(format!("libcuda-sys-no-op-{}", std::process::id()));
    let opt = PathBuf::from("/opt/libcuda-sys-no-op");
    let local = PathBuf::from("/usr/local/libcuda-sys-no-op");
    vec![
        ("under /opt", opt.clone(), opt),
        ("under /usr/local", local.clone(), local),
        ("in a PATH directory", tmp.join("bin/project"), tmp),
    ]
}

/// A dependent of the checkout with its own target directory, built twice in
/// each layout and mode: the second build must not run libcuda-sys's build
/// script (its `bindings.rs` keeps its time). `PATH` holds the project's
/// `target/debug`, `/`, `$HOME`, `.`, an empty entry, a missing directory and
/// the directory that holds the project; `CONDA_PREFIX` and `VIRTUAL_ENV` are the project.
/// The dependencies compile once: a layout after the first starts from the
/// target directory of the one before, less libcuda-sys's own build-script
/// units, so that its script runs again in this layout, with its paths.
fn no_op_layouts() -> Outcome {
    let seed = std::env::temp_dir().join(format!("libcuda-sys-no-op-seed-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&seed);
    let mut rows = Vec::new();
    for (layout, dir, made) in layouts() {
        let _ = std::fs::remove_dir_all(&made);
        if let Err(e) = std::fs::create_dir_all(dir.join("src")) {
            rows.push(format!("{layout}: skipped ({}: {e})", dir.display()));
            continue;
        }
        if seed.exists() {
            copy_tree(&seed, &dir.join("target"))?;
        }
        let result = no_op_layout(&dir);
        let _ = std::fs::remove_dir_all(&seed);
        if result.is_ok() && copy_tree(&dir.join("target"), &seed).is_ok() {
            for units in ["debug/build", "debug/.fingerprint"] {
                for entry in std::fs::read_dir(seed.join(units)).into_iter().flatten().flatten() {
                    let name = entry.file_name().to_string_lossy().into_owned();
                    let hash = name.strip_prefix("libcuda-sys-").unwrap_or_default();
                    if hash.len() == 16 && hash.chars().all(|c| c.is_ascii_hexdigit()) {
                        let _ = std::fs::remove_dir_all(entry.path());
                    }
                }
            }
        }
        let _ = std::fs::remove_dir_all(&made);
        rows.push(format!("{layout}: {}", result?));
    }
    let _ = std::fs::remove_dir_all(&seed);
    if rows.iter().all(|r| r.contains("skipped")) {
        return Err(Failure::Skipped(rows.join("; ")));
    }
    Ok(rows.join("; "))
}

/// `from` copied to `to` as it is (`cp -a`: times and links kept, which Cargo's freshness reads).
fn copy_tree(from: &Path, to: &Path) -> Result {
    let out = output({
        let mut cmd = Command::new("cp");
        cmd.arg("-a").arg(from).arg(to);
        cmd
    })?;
    expect_success(&out).map_err(|e| format!("cp -a {} {}: {e}", from.display(), to.display()))
}

fn no_op_layout(dir: &Path) -> Result<String> {
    let manifest = format!(
        "[package]\nname = \"no-op-user\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n\
         [dependencies]\nlibcuda-sys = {{ path = {:?} }}\n\n[workspace]\n",
        crate::root()
    );
    let write =
        |file: &str, text: &str| std::fs::write(dir.join(file), text).map_err(|e| e.to_string());
    write("Cargo.toml", &manifest)?;
    write("src/main.rs", "fn main() {\n    let _ = libcuda_sys::HEADER_VERSION;\n}\n")?;
    let home = std::env::var_os("HOME").unwrap_or_default();
    let path = std::env::var_os("PATH").unwrap_or_default();
    let odd = [
        dir.join("target/debug"),
        PathBuf::from("/"),
        PathBuf::from(&home),
        PathBuf::from("."),
        PathBuf::new(),
        dir.join("missing/bin"),
        dir.parent().unwrap_or(dir).to_path_buf(),
    ];
    let path = std::env::join_paths(odd.into_iter().chain(std::env::split_paths(&path)))
        .map_err(|e| e.to_string())?;
    let mut times = Vec::new();
    for mode in ["generated", "fallback"] {
        let build = || -> Result<(cargo::Build, PathBuf)> {
            let mut cmd = cargo::command(&["build", "--message-format=json"]);
            no_headers(&mut cmd);
            cmd.current_dir(dir)
                // The project's own target directory, in the layout: the
                // build's writes there must not make it run again.
                .env_remove("CARGO_TARGET_DIR")
                .env("PATH", &path)
                .env("CONDA_PREFIX", dir)
                .env("VIRTUAL_ENV", dir);
            if mode == "generated" {
                cmd.env("LIBCUDA_SYS_INCLUDE_DIR", newest_include()?);
            }
            let build = cargo::build(cmd)?;
            if !build.success {
                return Err(format!("{mode}: the build failed:\n{}", build.failure()));
            }
            let bindings = build.out_dir("libcuda-sys")?.join("bindings.rs");
            Ok((build, bindings))
        };
        let modified = |path: &Path| std::fs::metadata(path).and_then(|m| m.modified()).ok();
        let (first, bindings) = build()?;
        let fallback = first.stderr.contains(FALLBACK_WARNING);
        if fallback != (mode == "fallback") {
            return Err(format!(
                "{mode}: the first build was not a {mode} build:\n{}",
                first.stderr
            ));
        }
        let before = modified(&bindings);
        let (noop, _) = build()?;
        if modified(&bindings) != before {
            return Err(format!(
                "{} ({mode}): a build with nothing changed re-ran the build script",
                dir.display()
            ));
        }
        let compiled = first
            .messages()
            .filter(|m| matches!(m, Message::CompilerArtifact(a) if !a.fresh))
            .count();
        times.push(format!("{mode}: {compiled} units compiled, no-op {:.2} s", noop.wall));
    }
    Ok(format!("no re-run ({})", times.join(", ")))
}

fn newest_include() -> Result<PathBuf> {
    headers::include_dir(&pregenerate::newest_wheel()?)
}

/// Where and how the checks build.
struct Env {
    /// `libclang*.so*` files to cover, or why they cannot be.
    hide: std::result::Result<Vec<PathBuf>, String>,
    /// Where the checks build, the dependents too, but for those that need a
    /// directory of their own (the no-op layouts, rust-version): their
    /// dependencies are compiled once. Cargo cannot see libclang hidden (a
    /// mount): where the variables and features are the same, a build
    /// script's output made with libclang would be taken for one without it,
    /// and the reverse. Hence the workspace's `target/` is another, and each
    /// build here outside the sandbox differs from those in it (the undo's
    /// `PATH`, the in-place include directory, the regeneration's features).
    target_dir: PathBuf,
}

impl Env {
    /// `cargo args`, with no headers visible, no libclang loadable, in the
    /// checks' target directory.
    fn sandboxed(&self, args: &[&str]) -> std::result::Result<Command, Failure> {
        self.sandbox(cargo::command(args), &[])
    }

    /// `inner` (a cargo command or a test binary) with no headers visible and
    /// no libclang loadable, its builds in the checks' target directory, and
    /// `read_only` directories mounted read-only, as Cargo's registry copy of
    /// a crate is to a user who is not its owner (and docs.rs's): root too
    /// cannot write there then.
    fn sandbox(
        &self,
        inner: Command,
        read_only: &[&Path],
    ) -> std::result::Result<Command, Failure> {
        let files = self.hide.as_ref().map_err(|why| Failure::Skipped(why.clone()))?;
        Ok(self.hidden(files, inner, read_only))
    }

    /// [`Env::sandbox`] with the `libclang*.so*` files to cover.
    fn hidden(&self, files: &[PathBuf], inner: Command, read_only: &[&Path]) -> Command {
        let mut script = String::from("set -e; ");
        for f in files {
            let f = crate::shell_word(&f.to_string_lossy());
            script.push_str(&format!("mount --bind /dev/null {f}; "));
        }
        for d in read_only {
            let d = crate::shell_word(&d.to_string_lossy());
            script.push_str(&format!("mount --bind {d} {d}; mount -o remount,bind,ro {d}; "));
        }
        script.push_str("exec \"$0\" \"$@\"");
        let mut cmd = Command::new("unshare");
        cmd.args(["-m", "sh", "-c", &script])
            .arg(inner.get_program())
            .args(inner.get_args())
            .current_dir(inner.get_current_dir().map_or_else(crate::root, Path::to_path_buf))
            .env("CARGO_TARGET_DIR", &self.target_dir);
        cargo::without_toolkit(&mut cmd);
        for (k, v) in inner.get_envs() {
            match v {
                Some(v) => cmd.env(k, v),
                None => cmd.env_remove(k),
            };
        }
        no_headers(&mut cmd);
        cmd
    }

    fn report(&self) -> Outcome {
        let out = output(self.sandboxed(&["run", "-p", "mempool-report", "--", "--json"])?)?;
        let report: serde_json::Value = serde_json::from_slice(&out.stdout)
            .map_err(|e| format!("the report's --json output is not JSON: {e}\n{}", text(&out)))?;
        // No driver here: the static table, exit status 2 as documented.
        let code = report["status"]["exit_code"].as_i64().map(|c| c as i32);
        let found_by = &report["bindings"]["found_by"];
        let attributes = report["attributes"].as_array().map_or(0, Vec::len);
        if out.status.code() != code || found_by != "pregenerated" || attributes != 15 {
            return Err(format!(
                "exit {:?} (the report says {code:?}), found_by {found_by}, {attributes} attributes",
                out.status.code()
            )
            .into());
        }
        Ok(format!("found_by {found_by}, {attributes} pool attributes, exit {code:?}"))
    }

    fn no_default_features(&self) -> Outcome {
        let args = ["build", "-p", "libcuda-sys", "--no-default-features", "--message-format=json"];
        let out = output(self.sandboxed(&args)?)?;
        expect_success(&out)?;
        let compiled: Vec<String> = cargo::parse(&out.stdout[..])
            .filter_map(|m| match m {
                Message::CompilerArtifact(a) => Some(a.target.name.replace('_', "-")),
                _ => None,
            })
            .collect();
        let generation: Vec<&String> =
            compiled.iter().filter(|n| GENERATION_ONLY.contains(&n.as_str())).collect();
        if !generation.is_empty() || text(&out).contains(FALLBACK_WARNING) {
            return Err(format!(
                "compiled {generation:?}, or warned of a fallback:\n{}",
                text(&out)
            )
            .into());
        }
        Ok(format!(
            "{} crates compiled, none of {GENERATION_ONLY:?}, no fallback warning",
            compiled.len()
        ))
    }

    fn docs_rs(&self) -> Outcome {
        let features = docs_rs_features()?;
        let args = ["doc", "-p", "libcuda-sys", "--no-deps", "--message-format=json"];
        let mut cmd = self.sandboxed(&args)?;
        cmd.args(["--features", &features]).env("DOCS_RS", "1").env("RUSTDOCFLAGS", "-D warnings");
        let build = cargo::build(cmd)?;
        if !build.success {
            return Err(build.failure().into());
        }
        let doc = self.target_dir.join("doc/libcuda_sys");
        let page = |name: &str| {
            std::fs::read_to_string(doc.join(name)).map_err(|e| format!("{name}: {e}"))
        };
        page("dynamic/fn.try_load.html")?;
        let attributes = page("struct.CUmemPool_attribute.html")?;
        // The enum's own text: what it is, linked to the functions that take it, and its table.
        let own = docblock(&attributes, "main-content").unwrap_or_default();
        let links = ["fn.cuMemPoolGetAttribute.html", "fn.cuMemPoolSetAttribute.html"];
        if !own.first().is_some_and(|p| p.starts_with("What cuMemPoolGetAttribute reads"))
            || links.iter().any(|l| !attributes.contains(&format!("href=\"{l}\"")))
        {
            return Err(format!("CUmemPool_attribute's own text reads {own:?}").into());
        }
        // Its table's row of CU_MEMPOOL_ATTR_MAX_POOL_SIZE, cell by cell, linked to the constant.
        let table = attributes.split("<table>").nth(1).unwrap_or_default();
        let table = table.split("</table>").next().unwrap_or_default();
        let row = table
            .split("<tr>")
            .find(|r| r.contains("#associatedconstant.CU_MEMPOOL_ATTR_MAX_POOL_SIZE\""));
        let cells: Vec<String> = row
            .unwrap_or_default()
            .split("<td>")
            .skip(1)
            .map(|c| strip_tags(c.split("</td>").next().unwrap_or_default()))
            .collect();
        let want = [
            "13",
            "CU_MEMPOOL_ATTR_MAX_POOL_SIZE",
            "cuuint64_t",
            "8 bytes, unsigned",
            "read-only",
            "13.2",
            "comment",
        ];
        if cells != want {
            return Err(format!(
                "CUmemPool_attribute's table row of MAX_POOL_SIZE is {cells:?}, not {want:?}"
            )
            .into());
        }
        // Each attribute's documentation: its value, a sentence, its value type,
        // and for those not in every release, since when.
        for (i, (name, value_type)) in POOL_VALUE_TYPES.iter().enumerate() {
            let value = format!("{name} = {}", i + 1);
            let expected = format!(
                "Value type {value_type}; read with cuMemPoolGetAttribute; {}. cuda.h declares it in the enumerator’s comment.",
                pool_access(i + 1)
            );
            // 13.2 added the attributes from 9 on, 13.4 the 15th.
            let since = match i + 1 {
                15 => Some("13.4"),
                9.. => Some("13.2"),
                _ => None,
            };
            let paragraphs = docblock(&attributes, &format!("associatedconstant.{name}"));
            let ok = match (paragraphs.as_deref(), since) {
                (Some([v, sentence, line]), None) => {
                    *v == value && sentence.len() > 40 && *line == expected
                }
                (Some([v, sentence, line, history]), Some(release)) => {
                    *v == value
                        && sentence.len() > 40
                        && *line == expected
                        && history.starts_with(&format!("In the headers since CUDA {release}."))
                }
                _ => false,
            };
            if !ok {
                return Err(format!(
                    "{name} reads {paragraphs:?}, not `{value}`, a sentence, `{expected}` and since {since:?}"
                )
                .into());
            }
        }
        // The pointer attributes users read with the wrong width: the type, its
        // size and sign, and that the width was measured on a driver.
        let pointers = page("struct.CUpointer_attribute.html")?;
        for (name, line) in POINTER_VALUE_TYPES {
            let paragraphs = docblock(&pointers, &format!("associatedconstant.{name}"));
            let found = paragraphs.iter().flatten().find(|p| p.starts_with(line));
            if !found.is_some_and(|p| p.contains("measured on an H200")) {
                return Err(
                    format!("{name} reads {paragraphs:?}, with no `{line}` measured").into()
                );
            }
        }
        for (function, since) in
            [("cuMemPoolGetAttribute", "11.2"), ("cuMemGetDefaultMemPool", "13.0")]
        {
            let expected = format!("Needs a driver of CUDA {since} or newer (cudaTypedefs.h).");
            // An item of the facts' list at the end.
            if !strip_tags(&page(&format!("fn.{function}.html"))?).contains(&expected) {
                return Err(format!("{function}'s page lacks `{expected}`").into());
            }
        }
        let pages = docs::check(&doc, build.out_dir("libcuda-sys")?, docs::Mode::DocsRs)?;
        Ok(format!(
            "{pages}; features `{features}`: CUmemPool_attribute's own sentence, links and table; every \
             CU_MEMPOOL_ATTR_* with its value, a sentence and its value type, MAX_POOL_SIZE since 13.2, \
             LOCALITY_DOMAIN_ID since 13.4; CU_POINTER_ATTRIBUTE_ALLOWED_HANDLE_TYPES and \
             DEVICE_ORDINAL with their measured widths; cuMemPoolGetAttribute needs 11.2, \
             cuMemGetDefaultMemPool 13.0"
        ))
    }

    /// A dependent that picks a release: its code compiles against that
    /// release's API, and not against another's.
    fn release_dependents(&self) -> Outcome {
        let dir = self.target_dir.join("releases-user");
        write_release_dependent(&dir)?;
        // The workspace's versions of the dependencies: those the checks' target
        // directory already holds (what is checked is the dependent's code).
        std::fs::copy(crate::root().join("Cargo.lock"), dir.join("Cargo.lock"))
            .map_err(|e| format!("Cargo.lock: {e}"))?;
        let check = |feature: &str| -> std::result::Result<cargo::Build, Failure> {
            let mut cmd = self.sandboxed(&["check", "--message-format=json", "--manifest-path"])?;
            cmd.arg(dir.join("Cargo.toml")).args(["--features", feature]);
            Ok(cargo::build(cmd)?)
        };
        for feature in RELEASE_DEPENDENT_FEATURES {
            let build = check(feature)?;
            if !build.success {
                return Err(format!("{feature} does not compile:\n{}", build.failure()).into());
            }
        }
        // 13.2 added CU_MEMPOOL_ATTR_MAX_POOL_SIZE: 12.8 has no such item.
        let build = check("cuda-12080,max-pool-size")?;
        // In the dependent's own code.
        let errors: Vec<(&str, &str)> = build
            .errors()
            .filter(|e| e.target.src_path.starts_with(&dir))
            .map(|e| (e.message.code.as_ref().map_or("", |c| c.code.as_str()), &*e.message.message))
            .collect();
        let named = errors.iter().any(|(code, message)| {
            *code == "E0599" && message.contains("CU_MEMPOOL_ATTR_MAX_POOL_SIZE")
        });
        if build.success || !named {
            return Err(format!(
                "cuda-12080: expected E0599 on CU_MEMPOOL_ATTR_MAX_POOL_SIZE, got {errors:?}"
            )
            .into());
        }
        Ok(format!(
            "{} compile unchanged: a match on bare enumerator names, set_id and id() (a field up to 13.1, \
             in a union from 13.2); cuda-12080 has no CU_MEMPOOL_ATTR_MAX_POOL_SIZE (E0599)",
            RELEASE_DEPENDENT_FEATURES.join(", ")
        ))
    }

    /// Both ends of the crate's libloading range: a dependent's 0.9 is the one
    /// copy a fresh resolve builds, and one held at 0.8.0 (the range's floor)
    /// is too, once `cargo update --precise` takes the crate's copy down to it.
    fn libloading_range(&self) -> Outcome {
        let dir = self.target_dir.join("libloading-user");
        let mut found = Vec::new();
        for (wanted, pin) in [("0.9", None), ("=0.8.0", Some("0.8.0"))] {
            write_libloading_dependent(&dir, wanted)?;
            let manifest = dir.join("Cargo.toml");
            let manifest = manifest.to_string_lossy();
            let _ = std::fs::remove_file(dir.join("Cargo.lock"));
            crate::run(self.sandboxed(&["generate-lockfile", "--manifest-path", &manifest])?)?;
            if let Some(version) = pin {
                // The fresh resolve gives the crate its newest (0.9), beside the dependent's.
                let args = ["update", "--manifest-path", &manifest, "-p", "libloading@0.9.1"];
                crate::run(self.sandboxed(&[&args[..], &["--precise", version]].concat())?)?;
            }
            let args = ["metadata", "--format-version", "1", "--manifest-path", &manifest];
            let metadata = output(self.sandboxed(&args)?)?;
            let metadata = MetadataCommand::parse(String::from_utf8_lossy(&metadata.stdout))
                .map_err(|e| format!("cargo metadata: {e}"))?;
            let versions: Vec<String> = metadata
                .packages
                .iter()
                .filter(|p| p.name == "libloading")
                .map(|p| p.version.to_string())
                .collect();
            let want = pin.unwrap_or("0.9.");
            if versions.len() != 1 || !versions[0].starts_with(want) {
                return Err(format!("a dependent of libloading {wanted}: {versions:?}").into());
            }
            // The loader's whole text for a path that does not exist, which
            // libloading 0.9 keeps in `source()` and 0.8 in its message.
            let mut cmd = self.sandboxed(&["run", "-q", "--manifest-path", &manifest])?;
            cmd.env("LIBCUDA_SYS_DRIVER_PATH", "/nonexistent/libcuda.so.1");
            let out = output(cmd)?;
            expect_success(&out)?;
            let said = String::from_utf8_lossy(&out.stdout).trim().to_string();
            let want = "cannot load the CUDA driver library /nonexistent/libcuda.so.1: ";
            if !(said.starts_with(want) && said.contains("No such file or directory")) {
                return Err(format!("libloading {}: LoadError reads `{said}`", versions[0]).into());
            }
            found.push(format!("{} (\"{said}\")", versions[0]));
        }
        Ok(format!(
            "one libloading in each build, and the loader's text in LoadError with each: {}",
            found.join(" and ")
        ))
    }

    /// The `rust-version` the crate claims, checked with that toolchain: a fresh
    /// dependent resolving its own lockfile by Rust version builds in the
    /// default mode, generating from CUDA 13.0 headers, and with
    /// `default-features = false` plus `dynamic-loading`.
    fn rust_version(&self) -> Outcome {
        let claimed = cargo::package("libcuda-sys")?
            .rust_version
            .as_ref()
            .ok_or_else(|| "libcuda-sys has no rust-version".to_string())?;
        // As the manifest writes it: `1.85` names the newest 1.85.x, for rustup too.
        let claimed = match claimed.patch {
            0 => format!("{}.{}", claimed.major, claimed.minor),
            _ => claimed.to_string(),
        };
        let rustup = |args: &[&str]| {
            let mut cmd = Command::new("rustup");
            cmd.args(args);
            // The toolchain of the dependent's build is the claimed one, not this one's.
            for var in ["CARGO", "RUSTC", "RUSTDOC", "RUSTUP_TOOLCHAIN", "CARGO_TARGET_DIR"] {
                cmd.env_remove(var);
            }
            cmd
        };
        if output(rustup(&["--version"])).is_err() {
            return Err(Failure::Skipped(format!("no rustup here to install Rust {claimed} with")));
        }
        expect_success(&output(rustup(&[
            "toolchain",
            "install",
            &claimed,
            "--profile",
            "minimal",
        ]))?)?;
        let include = headers::include_dir("13.0")?;
        let dir = self.target_dir.join("rust-version-user");
        std::fs::create_dir_all(dir.join("src")).map_err(|e| e.to_string())?;
        std::fs::write(
            dir.join("src/main.rs"),
            "fn main() { println!(\"{}\", libcuda_sys::HEADER_VERSION); }\n",
        )
        .map_err(|e| e.to_string())?;
        let mut built = Vec::new();
        for (mode, dependency) in [
            ("default, generating from 13.0", String::new()),
            (
                "default-features = false, dynamic-loading",
                ", default-features = false, features = [\"dynamic-loading\", \"cuda-13000\"]"
                    .into(),
            ),
        ] {
            let manifest = format!(
                "[package]\nname = \"rust-version-user\"\nversion = \"0.0.0\"\nedition = \"2021\"\n\
                 rust-version = \"{claimed}\"\npublish = false\n\n[workspace]\n\n[dependencies]\n\
                 libcuda-sys = {{ path = {:?}{dependency} }}\n",
                crate::root().display().to_string()
            );
            std::fs::write(dir.join("Cargo.toml"), manifest).map_err(|e| e.to_string())?;
            let _ = std::fs::remove_file(dir.join("Cargo.lock"));
            // `cargo run`, as a user would: a linked build finds the stand-in
            // libcuda where there is no driver.
            let mut cmd = rustup(&["run", &claimed, "cargo", "run", "--quiet"]);
            cmd.current_dir(&dir)
                .env("CARGO_RESOLVER_INCOMPATIBLE_RUST_VERSIONS", "fallback")
                // Its own target directory: the claimed toolchain compiles everything anew.
                .env("CARGO_TARGET_DIR", dir.join("target"))
                .env("LIBCUDA_SYS_INCLUDE_DIR", &include);
            let run = output(cmd)?;
            expect_success(&run).map_err(|e| format!("{mode}: {e}"))?;
            let version = String::from_utf8_lossy(&run.stdout).trim().to_string();
            if version != "13000" {
                return Err(Failure::Failed(format!(
                    "{mode}: printed HEADER_VERSION `{version}`, not 13000"
                )));
            }
            built.push(format!("{mode} (HEADER_VERSION {version})"));
        }
        Ok(format!("Rust {claimed}: {}", built.join("; ")))
    }

    fn packaged_crate(&self) -> Outcome {
        // Packaged unverified: the dependent below is the verification. Cargo's
        // own (`cargo publish --dry-run`) builds libcuda-sys against the build
        // crate unpacked once into CARGO_HOME for each checkout path and never
        // again for that version, so a second run there builds the old one.
        let mut package =
            cargo::published(&crate::root(), "package", &["--allow-dirty", "--no-verify"]);
        package.env("CARGO_TARGET_DIR", &self.target_dir);
        expect_success(&output(package)?)?;
        let scratch =
            std::env::temp_dir().join(format!("libcuda-sys-packaged-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&scratch);
        let package = self.target_dir.join("package");
        let packed = std::fs::metadata(cargo::package_file(&package, cargo::PUBLISHED[1])?)
            .map_err(|e| e.to_string())?
            .len();
        let unpacked = cargo::unpack_packages(&package, &scratch)?;
        let size = tree_size(&unpacked.sys);
        if packed > PACKAGE_LIMITS.0 || size > PACKAGE_LIMITS.1 {
            return Err(format!(
                "the package is {packed} bytes ({size} unpacked); at most {} and {}",
                PACKAGE_LIMITS.0, PACKAGE_LIMITS.1
            )
            .into());
        }
        let (user, ran) = write_dependent(&scratch, &unpacked)?;
        // The build may write under OUT_DIR only: the package is read-only here.
        let read_only: Vec<&Path> =
            std::iter::once(unpacked.sys.as_path()).chain(unpacked.build.as_deref()).collect();
        let mut test = self.sandbox(cargo::command(&["test", "--manifest-path"]), &read_only)?;
        test.arg(user.join("Cargo.toml"));
        let out = output(test)?;
        let test_ran = ran.is_file();
        let _ = std::fs::remove_dir_all(&scratch);
        expect_success(&out)?;
        fallback_warning(&out, "")?;
        if !test_ran {
            return Err(String::from("the dependent's test did not run").into());
        }
        Ok(format!(
            "{} KiB packed, {} KiB unpacked; a fresh dependent's test passed with the fallback warning, the package read-only",
            packed / 1024,
            size / 1024
        ))
    }

    /// Cargo re-runs the script of a fallback build when a directory it
    /// watches changes: here `nvcc` appearing in a directory of `PATH`.
    fn fallback_ends_when_headers_appear(&self) -> Outcome {
        // Outside the target directory: a build watches no directory it writes in.
        let dir = std::env::temp_dir().join(format!("libcuda-sys-undo-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let outcome = self.fallback_ends(&dir);
        let _ = std::fs::remove_dir_all(&dir);
        outcome
    }

    fn fallback_ends(&self, dir: &Path) -> Outcome {
        let bin = dir.join("bin");
        let toolkit = dir.join("toolkit");
        std::fs::create_dir_all(toolkit.join("bin")).map_err(|e| e.to_string())?;
        std::fs::create_dir_all(&bin).map_err(|e| e.to_string())?;
        let build = || -> std::result::Result<(cargo::Build, bool, PathBuf), Failure> {
            let mut cmd = cargo::command(&["build", "-p", "libcuda-sys", "--message-format=json"]);
            no_headers(&mut cmd);
            let path =
                cmd.get_envs().find(|(k, _)| *k == "PATH").and_then(|(_, v)| v).unwrap_or_default();
            let path = std::env::join_paths(
                std::iter::once(bin.clone()).chain(std::env::split_paths(path)),
            )
            .map_err(|e| e.to_string())?;
            cmd.env("PATH", path).env("CARGO_TARGET_DIR", &self.target_dir);
            let build = cargo::build(cmd)?;
            if !build.success {
                return Err(format!("the build failed:\n{}", build.failure()).into());
            }
            let pregenerated = build.messages().any(|m| {
                matches!(m, Message::BuildScriptExecuted(s)
                    if s.cfgs.iter().any(|c| c == "libcuda_sys_pregenerated"))
            });
            let bindings = build.out_dir("libcuda-sys")?.join("bindings.rs");
            Ok((build, pregenerated, bindings))
        };
        let modified = |path: &Path| std::fs::metadata(path).and_then(|m| m.modified()).ok();
        let (first, pregenerated, bindings) = build()?;
        if !pregenerated || !first.stderr.contains(FALLBACK_WARNING) {
            return Err(String::from("the first build did not fall back").into());
        }
        let before = modified(&bindings);
        build()?;
        if modified(&bindings) != before {
            return Err(String::from("a build with nothing changed re-ran the build script").into());
        }
        // A toolkit whose nvcc lands in a directory of PATH.
        let nvcc = toolkit.join("bin/nvcc");
        let include = newest_include()?;
        {
            use std::os::unix::fs::{symlink, PermissionsExt};
            let made = std::fs::write(&nvcc, "#!/bin/sh\n")
                .and_then(|()| {
                    std::fs::set_permissions(&nvcc, std::fs::Permissions::from_mode(0o755))
                })
                .and_then(|()| symlink(&include, toolkit.join("include")))
                .and_then(|()| symlink(&nvcc, bin.join("nvcc")));
            made.map_err(|e| e.to_string())?;
        }
        let (third, pregenerated, _) = build()?;
        if modified(&bindings) == before || pregenerated || third.stderr.contains(FALLBACK_WARNING)
        {
            return Err(format!(
                "after nvcc appeared the bindings are still the pregenerated ones:\n{}",
                third.stderr
            )
            .into());
        }
        Ok("fallback; no re-run with nothing changed; generated once nvcc appeared on PATH".into())
    }

    /// Cargo cannot see a header replaced with an older file time; the
    /// dependent compares `DEP_CUDA_CUDA_H_FNV1A64` when it compiles its C.
    fn header_replaced_in_place(&self) -> Outcome {
        // Outside the target directory, as a toolkit's are: the build watches it.
        let dir = std::env::temp_dir().join(format!("libcuda-sys-in-place-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let outcome = self.replaced_in_place(&dir.join("include"));
        let _ = std::fs::remove_dir_all(&dir);
        outcome
    }

    fn replaced_in_place(&self, include: &Path) -> Outcome {
        std::fs::create_dir_all(include).map_err(|e| e.to_string())?;
        for entry in std::fs::read_dir(newest_include()?).map_err(|e| e.to_string())?.flatten() {
            if entry.path().is_file() {
                std::fs::copy(entry.path(), include.join(entry.file_name()))
                    .map_err(|e| e.to_string())?;
            }
        }
        let build = || {
            let mut cmd = cargo::command(&["build", "-p", "libcuda-sys-dependent-example"]);
            cmd.env("LIBCUDA_SYS_INCLUDE_DIR", include).env("CARGO_TARGET_DIR", &self.target_dir);
            output(cmd)
        };
        expect_success(&build()?)?;
        // The new header keeps the old one's file time, as package managers do.
        let header = include.join("cuda.h");
        let old =
            std::fs::metadata(&header).and_then(|m| m.modified()).map_err(|e| e.to_string())?;
        let mut text = std::fs::read_to_string(&header).map_err(|e| e.to_string())?;
        text.push_str("\n/* replaced in place */\n");
        std::fs::write(&header, text).map_err(|e| e.to_string())?;
        std::fs::File::options()
            .write(true)
            .open(&header)
            .and_then(|f| f.set_modified(old))
            .map_err(|e| e.to_string())?;
        // The dependent's C is compiled again (its own source changed).
        let helper = crate::root().join("dependent/src/pool_helper.c");
        let source = std::fs::read(&helper).map_err(|e| e.to_string())?;
        std::fs::write(&helper, &source).map_err(|e| e.to_string())?;
        expect_failure(&build()?, "is not the cuda.h libcuda-sys generated its bindings from")
    }
}

/// A crate outside the workspace that depends on the unpacked package and
/// tests what a user of the pregenerated bindings gets; its directory, and the file
/// its test writes when it runs.
fn write_dependent(scratch: &Path, unpacked: &cargo::Unpacked) -> Result<(PathBuf, PathBuf)> {
    let dir = scratch.join("user");
    std::fs::create_dir_all(dir.join("tests")).map_err(|e| e.to_string())?;
    std::fs::create_dir_all(dir.join("src")).map_err(|e| e.to_string())?;
    let manifest = format!(
        "[package]\nname = \"user\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n\
         [dependencies]\nlibcuda-sys = {{ path = {:?} }}\n\n[workspace]\n{}",
        unpacked.sys.display().to_string(),
        unpacked.patch()
    );
    let ran = dir.join("ran");
    let newest = pregenerate::releases()?.last().map_or(0, |r| r.0);
    let test = format!(
        r#"use libcuda_sys::*;

#[test]
fn pregenerated_bindings_serve_a_dependent() {{
    assert!(PREGENERATED);
    assert_eq!(HEADER_VERSION, {newest});
    let t = CUmemPool_attribute::CU_MEMPOOL_ATTR_USED_MEM_CURRENT.value_type().unwrap();
    assert_eq!((t.c_name, t.size), ("cuuint64_t", Some(8)));
    // Linked against the stand-in built from the pregenerated symbol list.
    let r = unsafe {{ cuInit(0) }};
    assert_eq!(r, CUresult::CUDA_ERROR_STUB_LIBRARY, "{{r:?}}");
    std::fs::write({:?}, "").unwrap();
}}
"#,
        ran.display().to_string()
    );
    for (name, text) in
        [("Cargo.toml", manifest.as_str()), ("tests/user.rs", &test), ("src/lib.rs", "")]
    {
        std::fs::write(dir.join(name), text).map_err(|e| format!("{name}: {e}"))?;
    }
    Ok((dir, ran))
}

/// Bytes of every file under `dir`.
fn tree_size(dir: &Path) -> u64 {
    std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| match e.file_type() {
            Ok(t) if t.is_dir() => tree_size(&e.path()),
            _ => e.metadata().map_or(0, |m| m.len()),
        })
        .sum()
}

/// The releases the dependent below compiles against unchanged.
const RELEASE_DEPENDENT_FEATURES: [&str; 6] =
    ["cuda-11070", "cuda-12080", "cuda-13000", "cuda-13010", "cuda-13020", "cuda-13050"];

/// A crate that picks its CUDA release with a feature and writes what its
/// author would, once, for all of them.
fn write_release_dependent(dir: &Path) -> Result {
    std::fs::create_dir_all(dir.join("src")).map_err(|e| e.to_string())?;
    let features: String = RELEASE_DEPENDENT_FEATURES
        .iter()
        .map(|f| format!("{f} = [\"libcuda-sys/{f}\"]\n"))
        .collect();
    let manifest = format!(
        "[package]\nname = \"releases-user\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n\
         [dependencies]\nlibcuda-sys = {{ path = {:?} }}\n\n[features]\n{features}max-pool-size = []\n\n[workspace]\n",
        crate::root().display().to_string()
    );
    let lib = r#"use libcuda_sys::*;

/// The properties of a device pool: `id` is a field of CUmemLocation up to
/// 13.1 and in an anonymous union from 13.2, and the accessors reach it in both.
pub fn pool_props(device: CUdevice) -> CUmemPoolProps {
    let mut props = CUmemPoolProps::default();
    props.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
    props.location.type_ = CU_MEM_LOCATION_TYPE_DEVICE;
    props.location.set_id(device);
    assert_eq!(props.location.id(), device);
    props
}

/// A match on bare enumerator names, as code ported from C writes it.
pub fn describe(r: CUresult) -> &'static str {
    match r {
        CUDA_SUCCESS => "success",
        CUDA_ERROR_OUT_OF_MEMORY => "out of memory",
        _ => "other",
    }
}

/// A 13.2 attribute: written against 12.8, it does not compile.
#[cfg(feature = "max-pool-size")]
pub const MAX_SIZE: CUmemPool_attribute = CUmemPool_attribute::CU_MEMPOOL_ATTR_MAX_POOL_SIZE;
"#;
    for (name, text) in [("Cargo.toml", manifest.as_str()), ("src/lib.rs", lib)] {
        std::fs::write(dir.join(name), text).map_err(|e| format!("{name}: {e}"))?;
    }
    Ok(())
}

/// A crate that uses libloading `wanted` beside libcuda-sys's dynamic loading.
fn write_libloading_dependent(dir: &Path, wanted: &str) -> Result {
    std::fs::create_dir_all(dir.join("src")).map_err(|e| e.to_string())?;
    let manifest = format!(
        "[package]\nname = \"libloading-user\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n\
         [dependencies]\nlibloading = \"{wanted}\"\nlibcuda-sys = {{ path = {:?}, default-features = false, \
         features = [\"dynamic-loading\", \"cuda-13000\"] }}\n\n[workspace]\n",
        crate::root().display().to_string()
    );
    let main = "fn main() {\n    match libcuda_sys::dynamic::try_load() {\n        \
                Ok(()) => println!(\"loaded\"),\n        Err(e) => println!(\"{e}\"),\n    }\n}\n";
    let _ = std::fs::remove_file(dir.join("src/lib.rs"));
    for (name, text) in [("Cargo.toml", manifest.as_str()), ("src/main.rs", main)] {
        std::fs::write(dir.join(name), text).map_err(|e| format!("{name}: {e}"))?;
    }
    Ok(())
}

/// The features docs.rs builds with, from `[package.metadata.docs.rs]`.
fn docs_rs_features() -> Result<String> {
    let package = cargo::package("libcuda-sys")?;
    let features = package.metadata["docs"]["rs"]["features"]
        .as_array()
        .ok_or("libcuda-sys has no [package.metadata.docs.rs] features")?;
    Ok(features.iter().filter_map(|f| f.as_str()).collect::<Vec<_>>().join(","))
}

/// Every `libclang*.so*` file clang-sys could load, or why none can be hidden.
fn libclang_files() -> std::result::Result<Vec<PathBuf>, String> {
    let unshare = Command::new("unshare").args(["-m", "true"]).output();
    if !unshare.is_ok_and(|o| o.status.success()) {
        return Err("`unshare -m` is not available (root and the util-linux tools are needed to hide libclang)".into());
    }
    let mut files = Vec::new();
    for dir in crate::setup::libclang_dirs() {
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if entry.file_type().is_ok_and(|t| t.is_file())
                && name.starts_with("libclang")
                && name.contains(".so")
            {
                files.push(entry.path());
            }
        }
    }
    Ok(files)
}

/// No variable, tool or Python path that names CUDA headers.
fn no_headers(cmd: &mut Command) {
    for var in ["CONDA_PREFIX", "PYTHONPATH", "VIRTUAL_ENV", "PKG_CONFIG_PATH", "LIBCLANG_PATH"] {
        cmd.env_remove(var);
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    let kept: Vec<PathBuf> =
        std::env::split_paths(&path).filter(|d| !d.join("nvcc").exists()).collect();
    if let Ok(joined) = std::env::join_paths(kept) {
        cmd.env("PATH", joined);
    }
}

fn output(mut cmd: Command) -> Result<Output> {
    cmd.output().map_err(|e| format!("{:?}: {e}", cmd.get_program()))
}

fn text(out: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}

/// The end of the output: where a failure says why.
fn tail(out: &Output) -> String {
    let all = text(out);
    let lines: Vec<&str> = all.lines().collect();
    lines[lines.len().saturating_sub(40)..].join("\n")
}

fn expect_success(out: &Output) -> Result {
    if out.status.success() {
        Ok(())
    } else {
        Err(format!("exit {:?}:\n{}", out.status.code(), tail(out)))
    }
}

/// A failure that says `summary`, without a panic.
fn expect_failure(out: &Output, summary: &str) -> Outcome {
    let all = text(out);
    if out.status.success() || !all.contains(summary) || all.contains("panicked") {
        return Err(
            format!("expected a failure that says `{summary}`, no panic:\n{}", tail(out)).into()
        );
    }
    Ok(format!("exit {:?}: `{summary}`", out.status.code()))
}

/// The build's one fallback warning, which says `why`.
fn fallback_warning(out: &Output, why: &str) -> Outcome {
    let stderr = String::from_utf8_lossy(&out.stderr);
    let warnings: Vec<&str> = stderr.lines().filter(|l| l.contains(FALLBACK_WARNING)).collect();
    match warnings.as_slice() {
        [one] if one.contains(why) => Ok(one.trim().to_string()),
        _ => Err(format!("not one fallback warning with `{why}`:\n{}", tail(out)).into()),
    }
}
