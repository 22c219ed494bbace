//! `cargo xtask fallback-tests`: the crate builds where there are no CUDA
//! headers and no libclang (docs.rs, plain CI, laptops), with the shipped
//! bindings, and says so; and what must stay an error stays one.
//!
//! "No headers" is no toolkit variable, no `nvcc`, no pip headers on Python's
//! path (this machine's own `.cuda-headers/` is never searched). "No libclang"
//! is a private mount namespace (`unshare -m`, root) in which every
//! `libclang*.so*` file is covered by `/dev/null`, so clang-sys finds nothing
//! it can load. Where that namespace cannot be made, the checks that need it
//! say `skipped` and why.
//!
//! Each check prints `ok`, `FAILED` or `skipped` with what it saw; the last
//! line is `fallback: N passed, N failed, N skipped`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::test::{self, Counts};
use crate::{cargo, headers, pregenerate, Result};

/// What a build of the shipped set must say, once, where the user did not ask for it.
const FALLBACK_WARNING: &str = "using the bindings shipped with libcuda-sys (CUDA ";

/// What docs.rs must show for each memory-pool attribute, after the crate's
/// sentence: its value type, size and whether it can be set (the header's
/// `(value type = ...)` and `cuMemPoolSetAttribute`'s list, as of CUDA 13.5).
const POOL_VALUE_TYPES: [(&str, &str); 15] = [
    ("CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES", "Value type int (4 bytes); settable with cuMemPoolSetAttribute."),
    ("CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC", "Value type int (4 bytes); settable with cuMemPoolSetAttribute."),
    ("CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES", "Value type int (4 bytes); settable with cuMemPoolSetAttribute."),
    ("CU_MEMPOOL_ATTR_RELEASE_THRESHOLD", "Value type cuuint64_t (8 bytes); settable with cuMemPoolSetAttribute."),
    ("CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT", "Value type cuuint64_t (8 bytes); read-only."),
    ("CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH", "Value type cuuint64_t (8 bytes); read-only, except that cuMemPoolSetAttribute can reset it to 0."),
    ("CU_MEMPOOL_ATTR_USED_MEM_CURRENT", "Value type cuuint64_t (8 bytes); read-only."),
    ("CU_MEMPOOL_ATTR_USED_MEM_HIGH", "Value type cuuint64_t (8 bytes); read-only, except that cuMemPoolSetAttribute can reset it to 0."),
    ("CU_MEMPOOL_ATTR_ALLOCATION_TYPE", "Value type CUmemAllocationType (4 bytes); read-only."),
    ("CU_MEMPOOL_ATTR_EXPORT_HANDLE_TYPES", "Value type CUmemAllocationHandleType (4 bytes); read-only."),
    ("CU_MEMPOOL_ATTR_LOCATION_ID", "Value type int (4 bytes); read-only."),
    ("CU_MEMPOOL_ATTR_LOCATION_TYPE", "Value type CUmemLocationType (4 bytes); read-only."),
    ("CU_MEMPOOL_ATTR_MAX_POOL_SIZE", "Value type cuuint64_t (8 bytes); read-only."),
    ("CU_MEMPOOL_ATTR_HW_DECOMPRESS_ENABLED", "Value type int (4 bytes); read-only."),
    ("CU_MEMPOOL_ATTR_LOCALITY_DOMAIN_ID", "Value type int (4 bytes); read-only."),
];

/// The packaged crate, compressed and unpacked, at most (bytes).
const PACKAGE_LIMITS: (u64, u64) = (500 * 1024, 2560 * 1024);

/// Build dependencies that only generation needs: none of them may be
/// compiled without the `bindgen` feature.
const GENERATION_ONLY: [&str; 5] = ["bindgen", "clang-sys", "syn", "quote", "doxygen-bindgen"];

pub fn run(args: &[String]) -> Result {
    if !args.is_empty() {
        return Err("usage: cargo xtask fallback-tests".into());
    }
    checks()?.result("fallback tests")
}

/// Runs every check; their counts, for `cargo xtask test` to add up.
pub fn checks() -> Result<Counts> {
    let env = Env::new()?;
    let mut report = Report::default();
    report.check(
        "libclang is hidden: generation is the clear libclang error",
        || env.no_libclang_is_an_error(),
    );
    report.check(
        "no headers, no libclang: build with the fallback warning",
        || env.fallback_build(),
    );
    report.check(
        "headers but no libclang: the fallback names libclang",
        || env.fallback_names_libclang(),
    );
    for features in ["", "dynamic-loading", "per-thread-default-stream"] {
        report.check(
            &format!("no headers, no libclang: cargo test -p libcuda-sys --features '{features}'"),
            || env.fallback_tests(features),
        );
    }
    report.check(
        "no headers, no libclang: the report (mempool-report)",
        || env.fallback_report(),
    );
    report.check(
        "--no-default-features: no generation crate in cargo tree",
        no_generation_crates_in_tree,
    );
    report.check(
        "--no-default-features: builds without headers or libclang, compiling none of them",
        || env.no_default_features_build(),
    );
    report.check(
        "--no-default-features: wrong variables and generate are errors",
        || env.no_default_features_errors(),
    );
    report.check(
        "DOCS_RS=1 cargo doc: value types, the attributes' sentences, since",
        || env.docs_rs(),
    );
    report.check(
        "no headers, no libclang: a dependent's code per release feature",
        || env.release_dependents(),
    );
    report.check("two release features are an error naming both", || {
        env.two_release_features()
    });
    report.check(
        "the packaged crate builds and serves a dependent's test",
        || env.packaged_crate(),
    );
    report.check("the committed set equals a fresh regeneration", || {
        pregenerate::generate()
            .and_then(|files| {
                pregenerate::compare(&crate::root().join(pregenerate::DIR), &files)
                    .map(|()| format!("{} files, byte for byte", files.len()))
            })
            .map_err(Failure::from)
    });
    report.check(
        "a fallback ends when headers appear (nvcc on PATH), and only then re-runs",
        || env.fallback_ends_when_headers_appear(),
    );
    report.check(
        "a cuda.h replaced in place with an older time stops the dependent's C build",
        || env.header_replaced_in_place(),
    );
    Ok(report.finish())
}

/// Where and how the checks build.
struct Env {
    /// `libclang*.so*` files to cover, or why they cannot be.
    hide: std::result::Result<Vec<PathBuf>, String>,
    target_dir: PathBuf,
}

impl Env {
    fn new() -> Result<Env> {
        Ok(Env {
            hide: libclang_files(),
            target_dir: crate::root().join("target/fallback"),
        })
    }

    /// `cargo args`, with no headers visible, no libclang loadable, and its
    /// own target directory.
    fn sandboxed(&self, args: &[&str]) -> std::result::Result<Command, Skip> {
        let files = self.hide.as_ref().map_err(|why| Skip(why.clone()))?;
        let mut script = String::from("set -e; ");
        for f in files {
            script.push_str(&format!("mount --bind /dev/null '{}'; ", f.display()));
        }
        script.push_str("exec \"$0\" \"$@\"");
        let inner = cargo::command(args);
        let mut cmd = Command::new("unshare");
        cmd.args(["-m", "sh", "-c", &script])
            .arg(inner.get_program())
            .args(inner.get_args())
            .current_dir(crate::root())
            .env("CARGO_TARGET_DIR", &self.target_dir);
        for (k, v) in inner.get_envs() {
            match v {
                Some(v) => cmd.env(k, v),
                None => cmd.env_remove(k),
            };
        }
        no_headers(&mut cmd);
        Ok(cmd)
    }

    fn no_libclang_is_an_error(&self) -> Outcome {
        let include = headers::include_dir(&pregenerate::newest_wheel()?)?;
        let mut cmd = self.sandboxed(&["build", "-p", "libcuda-sys"])?;
        cmd.env("LIBCUDA_SYS_INCLUDE_DIR", &include)
            .env("LIBCUDA_SYS_BINDINGS", "generate");
        let out = output(cmd)?;
        expect_failure(&out, "libclang not found (bindgen needs it to read cuda.h)")?;
        Ok("exit 1: `libclang not found (bindgen needs it to read cuda.h)`".into())
    }

    /// Cargo re-runs the script of a fallback build when a directory it
    /// watches changes: here `nvcc` appearing in a directory of `PATH`.
    fn fallback_ends_when_headers_appear(&self) -> Outcome {
        let dir = self.target_dir.join("undo");
        let _ = std::fs::remove_dir_all(&dir);
        let bin = dir.join("bin");
        for d in [&bin, &dir.join("toolkit/bin")] {
            std::fs::create_dir_all(d).map_err(|e| e.to_string())?;
        }
        let build = || -> std::result::Result<(cargo::Build, PathBuf), Failure> {
            let mut cmd = cargo::command(&["build", "-p", "libcuda-sys", "--message-format=json"]);
            no_headers(&mut cmd);
            let path = cmd
                .get_envs()
                .find(|(k, _)| *k == "PATH")
                .and_then(|(_, v)| v.map(|v| v.to_os_string()))
                .unwrap_or_default();
            let path = std::env::join_paths(
                std::iter::once(bin.clone()).chain(std::env::split_paths(&path)),
            )
            .map_err(|e| e.to_string())?;
            cmd.env("PATH", path)
                .env("CARGO_TARGET_DIR", dir.join("target"));
            let build = cargo::build(cmd)?;
            if !build.success {
                return Err(format!("the build failed:\n{}", build.stderr).into());
            }
            let out = build.out_dir("libcuda-sys")?.join("bindings.rs");
            Ok((build, out))
        };
        let shipped = |build: &cargo::Build| {
            build.messages.iter().any(|m| {
                m["reason"] == "build-script-executed"
                    && m["cfgs"]
                        .as_array()
                        .is_some_and(|c| c.iter().any(|c| c == "libcuda_sys_pregenerated"))
            })
        };
        let modified = |path: &Path| std::fs::metadata(path).and_then(|m| m.modified()).ok();
        let (first, bindings) = build()?;
        if !shipped(&first) || !first.stderr.contains(FALLBACK_WARNING) {
            return Err("the first build did not fall back".into());
        }
        let before = modified(&bindings);
        let (_, _) = build()?;
        if modified(&bindings) != before {
            return Err("a build with nothing changed re-ran the build script".into());
        }
        // A toolkit whose nvcc lands in a directory of PATH.
        let include = headers::include_dir(&pregenerate::newest_wheel()?)?;
        let toolkit = dir.join("toolkit");
        let nvcc = toolkit.join("bin/nvcc");
        std::fs::write(&nvcc, "#!/bin/sh\n").map_err(|e| e.to_string())?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::{symlink, PermissionsExt};
            std::fs::set_permissions(&nvcc, std::fs::Permissions::from_mode(0o755))
                .map_err(|e| e.to_string())?;
            symlink(&include, toolkit.join("include")).map_err(|e| e.to_string())?;
            symlink(&nvcc, bin.join("nvcc")).map_err(|e| e.to_string())?;
        }
        let (third, _) = build()?;
        if modified(&bindings) == before
            || shipped(&third)
            || third.stderr.contains(FALLBACK_WARNING)
        {
            return Err(format!(
                "after nvcc appeared the bindings are still the shipped ones:\n{}",
                third.stderr
            )
            .into());
        }
        Ok("fallback, then no re-run with nothing changed, then generated from the toolkit whose nvcc appeared on PATH".into())
    }

    fn fallback_build(&self) -> Outcome {
        let out = output(self.sandboxed(&["build", "-p", "libcuda-sys"])?)?;
        expect_success(&out)?;
        let warning = one_fallback_warning(&out)?;
        if !warning.contains("no CUDA headers (cuda.h) found") {
            return Err(format!("the warning does not say why: {warning}").into());
        }
        Ok(warning)
    }

    fn fallback_names_libclang(&self) -> Outcome {
        let include = headers::include_dir(&pregenerate::newest_wheel()?)?;
        let mut cmd = self.sandboxed(&["build", "-p", "libcuda-sys"])?;
        cmd.env("LIBCUDA_SYS_INCLUDE_DIR", &include);
        let out = output(cmd)?;
        expect_success(&out)?;
        let warning = one_fallback_warning(&out)?;
        if !warning.contains("because libclang not found") {
            return Err(format!("the warning does not name libclang: {warning}").into());
        }
        Ok(warning)
    }

    fn fallback_tests(&self, features: &str) -> Outcome {
        let mut cmd = self.sandboxed(&["test", "-p", "libcuda-sys", "--features", features])?;
        let skip_log = self.target_dir.join("skips.jsonl");
        test::as_data(&mut cmd, &skip_log)?;
        let out = output(cmd)?;
        expect_success(&out)?;
        let counts = libtest_counts(&out, &skip_log)?;
        if counts.passed + counts.skipped.len() == 0 {
            return Err("no test ran".to_string().into());
        }
        Ok(format!(
            "{} tests passed, {} skipped or ignored",
            counts.passed,
            counts.skipped.len()
        ))
    }

    fn fallback_report(&self) -> Outcome {
        let out = output(self.sandboxed(&["run", "-p", "mempool-report", "--", "--json"])?)?;
        let report: serde_json::Value = serde_json::from_slice(&out.stdout).map_err(|e| {
            format!(
                "the report's --json output is not JSON: {e}\n{}",
                text(&out)
            )
        })?;
        // No driver here: the static table, exit status 2 as documented.
        if out.status.code() != report["status"]["exit_code"].as_i64().map(|c| c as i32) {
            return Err(format!(
                "exit {:?}, the report says {}",
                out.status.code(),
                report["status"]
            )
            .into());
        }
        let found_by = &report["bindings"]["found_by"];
        let attributes = report["attributes"].as_array().map_or(0, Vec::len);
        if found_by != "pregenerated" || attributes != 15 {
            return Err(format!("found_by {found_by}, {attributes} attributes").into());
        }
        Ok(format!(
            "found_by {found_by}, {attributes} pool attributes, exit {:?}",
            out.status.code()
        ))
    }

    fn no_default_features_build(&self) -> Outcome {
        let out = output(self.sandboxed(&[
            "build",
            "-p",
            "libcuda-sys",
            "--no-default-features",
            "--message-format=json",
        ])?)?;
        expect_success(&out)?;
        let compiled: Vec<String> = String::from_utf8_lossy(&out.stdout)
            .lines()
            .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
            .filter(|m| m["reason"] == "compiler-artifact")
            .filter_map(|m| m["target"]["name"].as_str().map(str::to_string))
            .collect();
        let generation: Vec<&String> = compiled
            .iter()
            .filter(|n| GENERATION_ONLY.contains(&n.replace('_', "-").as_str()))
            .collect();
        if !generation.is_empty() {
            return Err(format!("compiled {generation:?}").into());
        }
        if text(&out).contains(FALLBACK_WARNING) {
            return Err("a fallback warning although the shipped set was asked for"
                .to_string()
                .into());
        }
        Ok(format!(
            "{} crates compiled, none of {GENERATION_ONLY:?}",
            compiled.len()
        ))
    }

    fn no_default_features_errors(&self) -> Outcome {
        let cases = [
            (
                "CUDA_PATH",
                "/nonexistent",
                "CUDA_PATH=/nonexistent does not exist",
            ),
            (
                "LIBCUDA_SYS_BINDINGS",
                "generate",
                "LIBCUDA_SYS_BINDINGS=generate needs libcuda-sys's `bindgen` feature",
            ),
        ];
        for (var, value, summary) in cases {
            let mut cmd =
                self.sandboxed(&["build", "-p", "libcuda-sys", "--no-default-features"])?;
            cmd.env(var, value);
            expect_failure(&output(cmd)?, summary)?;
        }
        Ok(
            "CUDA_PATH=/nonexistent and LIBCUDA_SYS_BINDINGS=generate fail with their messages"
                .into(),
        )
    }

    fn docs_rs(&self) -> Outcome {
        let features = docs_rs_features()?;
        let mut cmd = self.sandboxed(&[
            "doc",
            "-p",
            "libcuda-sys",
            "--no-deps",
            "--features",
            &features,
        ])?;
        cmd.env("DOCS_RS", "1").env("RUSTDOCFLAGS", "-D warnings");
        let out = output(cmd)?;
        expect_success(&out)?;
        let doc = self.target_dir.join("doc/libcuda_sys");
        for page in ["fn.cuMemPoolGetAttribute.html", "dynamic/fn.try_load.html"] {
            if !doc.join(page).is_file() {
                return Err(format!("no {page} in {}", doc.display()).into());
            }
        }
        let attributes = std::fs::read_to_string(doc.join("struct.CUmemPool_attribute_enum.html"))
            .map_err(|e| format!("CUmemPool_attribute_enum's page: {e}"))?;
        // Each attribute's documentation: a sentence, then its value type.
        for (name, value_type) in POOL_VALUE_TYPES {
            let paragraphs = docblock(&attributes, &format!("associatedconstant.{name}"))
                .ok_or_else(|| format!("{name} is not documented"))?;
            match paragraphs.as_slice() {
                [sentence, line] if sentence.len() > 40 && line == value_type => {}
                other => {
                    return Err(format!(
                        "{name} reads {other:?}, not a sentence and `{value_type}`"
                    )
                    .into())
                }
            }
        }
        for (function, since) in [
            ("cuMemPoolGetAttribute", "11.2"),
            ("cuMemGetDefaultMemPool", "13.0"),
        ] {
            let page = std::fs::read_to_string(doc.join(format!("fn.{function}.html")))
                .map_err(|e| format!("{function}'s page: {e}"))?;
            let expected = format!("Needs a driver of CUDA {since} or newer (cudaTypedefs.h).");
            let paragraphs = docblock(&page, "main-content").unwrap_or_default();
            if !paragraphs.contains(&expected) {
                return Err(format!("{function} reads {paragraphs:?}, not `{expected}`").into());
            }
        }
        Ok(format!(
            "features `{features}`: every CU_MEMPOOL_ATTR_* with a sentence and its value type, \
             cuMemPoolGetAttribute needs 11.2, cuMemGetDefaultMemPool 13.0, dynamic::try_load documented"
        ))
    }

    /// A dependent that picks a release: its code compiles against that
    /// release's API, and not against another's.
    fn release_dependents(&self) -> Outcome {
        let dir = self.target_dir.join("releases-user");
        write_release_dependent(&dir)?;
        let check = |feature: &str| -> std::result::Result<cargo::Build, Failure> {
            let mut cmd = self.sandboxed(&["check", "--message-format=json", "--manifest-path"])?;
            cmd.arg(dir.join("Cargo.toml"))
                .args(["--features", feature])
                .env("CARGO_TARGET_DIR", dir.join("target"));
            Ok(cargo::build(cmd)?)
        };
        for feature in ["cuda-13000", "cuda-13050"] {
            let build = check(feature)?;
            if !build.success {
                return Err(format!("{feature} does not compile:\n{}", build.stderr).into());
            }
        }
        // 13.2 added CU_MEMPOOL_ATTR_MAX_POOL_SIZE: 12.8 has no such item.
        let build = check("cuda-12080")?;
        let named = build.errors.iter().any(|(package, code, message)| {
            package == "releases-user"
                && code == "E0599"
                && message.contains("CU_MEMPOOL_ATTR_MAX_POOL_SIZE")
        });
        if build.success || !named {
            return Err(format!(
                "cuda-12080: expected error E0599 on CU_MEMPOOL_ATTR_MAX_POOL_SIZE, got {:?}",
                build.errors
            )
            .into());
        }
        Ok(
            "cuda-13000 sets props.location.id, cuda-13050 the union's id, cuda-12080 has no \
            CU_MEMPOOL_ATTR_MAX_POOL_SIZE (E0599)"
                .into(),
        )
    }

    fn two_release_features(&self) -> Outcome {
        let out = output(self.sandboxed(&[
            "check",
            "-p",
            "libcuda-sys",
            "--features",
            "cuda-12080,cuda-13000",
        ])?)?;
        let summary =
            "libcuda-sys binds one CUDA release, and the features cuda-12080 and cuda-13000 are all on";
        expect_failure(&out, summary)?;
        Ok(format!("exit 1: `{summary}`"))
    }

    fn packaged_crate(&self) -> Outcome {
        // `cargo publish --dry-run` packages, then builds the package as a user would.
        let mut publish =
            self.sandboxed(&["publish", "--dry-run", "-p", "libcuda-sys", "--allow-dirty"])?;
        publish.env("CARGO_TARGET_DIR", self.target_dir.join("publish"));
        expect_success(&output(publish)?)?;
        let scratch =
            std::env::temp_dir().join(format!("libcuda-sys-packaged-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&scratch);
        let package = self.target_dir.join("publish/package");
        let unpacked = cargo::unpack_package(&package, &scratch)?;
        let packed = std::fs::metadata(cargo::package_file(&package)?)
            .map_err(|e| e.to_string())?
            .len();
        let size = tree_size(&unpacked);
        if packed > PACKAGE_LIMITS.0 || size > PACKAGE_LIMITS.1 {
            return Err(format!(
                "the package is {packed} bytes ({size} unpacked); at most {} and {}",
                PACKAGE_LIMITS.0, PACKAGE_LIMITS.1
            )
            .into());
        }
        for file in [
            format!("{}/types.rs", pregenerate::DIR),
            "LICENSE-MIT".into(),
            "LICENSE-APACHE".into(),
        ] {
            if !unpacked.join(&file).is_file() {
                return Err(format!("the package lacks {file}").into());
            }
        }
        let user = write_dependent(&scratch, &unpacked)?;
        let mut test = self.sandboxed(&["test", "--manifest-path"])?;
        test.arg(user.join("Cargo.toml"))
            .env("CARGO_TARGET_DIR", scratch.join("target"));
        let skip_log = scratch.join("skips.jsonl");
        test::as_data(&mut test, &skip_log)?;
        let out = output(test)?;
        let counts = libtest_counts(&out, &skip_log);
        let _ = std::fs::remove_dir_all(&scratch);
        expect_success(&out)?;
        one_fallback_warning(&out)?;
        let passed = counts?.passed;
        if passed != 1 {
            return Err(format!("the dependent's test did not run ({passed} passed)").into());
        }
        Ok(format!(
            "cargo publish --dry-run passed: {} KiB packed, {} KiB unpacked; outside the workspace, \
             a fresh dependent's test passed with the fallback warning",
            packed / 1024,
            size / 1024
        ))
    }

    /// Cargo cannot see a header replaced with an older file time; the
    /// dependent compares `DEP_CUDA_CUDA_H_FNV1A64` when it compiles its C.
    fn header_replaced_in_place(&self) -> Outcome {
        let pristine = headers::include_dir(&pregenerate::newest_wheel()?)?;
        let include = self.target_dir.join("in-place/include");
        let _ = std::fs::remove_dir_all(&include);
        std::fs::create_dir_all(&include).map_err(|e| e.to_string())?;
        for entry in std::fs::read_dir(&pristine)
            .map_err(|e| e.to_string())?
            .flatten()
        {
            if entry.path().is_file() {
                std::fs::copy(entry.path(), include.join(entry.file_name()))
                    .map_err(|e| e.to_string())?;
            }
        }
        let build = || {
            let mut cmd = cargo::command(&["build", "-p", "libcuda-sys-dependent-example"]);
            cmd.env("LIBCUDA_SYS_INCLUDE_DIR", &include)
                .env("CARGO_TARGET_DIR", self.target_dir.join("in-place/target"));
            output(cmd)
        };
        expect_success(&build()?)?;
        // The new header keeps the old one's file time, as package managers do.
        let header = include.join("cuda.h");
        let old = std::fs::metadata(&header)
            .and_then(|m| m.modified())
            .map_err(|e| e.to_string())?;
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
        let out = build()?;
        expect_failure(
            &out,
            "is not the cuda.h libcuda-sys generated its bindings from",
        )?;
        Ok("the dependent's build script stopped: `... is not the cuda.h libcuda-sys generated its bindings from`".into())
    }
}

/// A crate outside the workspace that depends on the unpacked package and
/// tests what a user of the shipped bindings gets; returns its directory.
fn write_dependent(scratch: &Path, unpacked: &Path) -> Result<PathBuf> {
    let dir = scratch.join("user");
    std::fs::create_dir_all(dir.join("tests")).map_err(|e| e.to_string())?;
    let manifest = format!(
        "[package]\nname = \"user\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n\
         [dependencies]\nlibcuda-sys = {{ path = {:?} }}\n\n[workspace]\n",
        unpacked.display().to_string()
    );
    let test = r#"use libcuda_sys::*;

#[test]
fn shipped_bindings_serve_a_dependent() {
    assert!(PREGENERATED);
    assert_eq!(HEADER_VERSION, NEWEST);
    let t = CUmemPool_attribute::CU_MEMPOOL_ATTR_USED_MEM_CURRENT.value_type().unwrap();
    assert_eq!((t.c_name, t.size), ("cuuint64_t", Some(8)));
    assert_eq!(CUmemPool_attribute::CU_MEMPOOL_ATTR_LOCALITY_DOMAIN_ID.0, 15);
    // Linked against the stand-in built from the shipped symbol list.
    let r = unsafe { cuInit(0) };
    assert_eq!(r, CUresult::CUDA_ERROR_STUB_LIBRARY, "{:?}", r.name());
    let mut pool = core::ptr::null_mut();
    let _ = unsafe { cuMemPoolGetAttribute(pool, CUmemPool_attribute::CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &mut pool as *mut _ as *mut _) };
}
"#;
    let newest = pregenerate::releases()?.last().map_or(0, |r| r.0);
    let test = test.replace("NEWEST", &newest.to_string());
    for (name, text) in [("Cargo.toml", manifest.as_str()), ("tests/user.rs", &test)] {
        std::fs::write(dir.join(name), text).map_err(|e| format!("{name}: {e}"))?;
    }
    std::fs::create_dir_all(dir.join("src")).map_err(|e| e.to_string())?;
    std::fs::write(dir.join("src/lib.rs"), "").map_err(|e| e.to_string())?;
    Ok(dir)
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

/// The paragraphs (`<p>`) of the first docblock after `id="{id}"` in a
/// rustdoc page, as text.
fn docblock(page: &str, id: &str) -> Option<Vec<String>> {
    let start = page.find(&format!("id=\"{id}\""))?;
    let rest = &page[start..];
    let block = &rest[rest.find("<div class=\"docblock\">")?..];
    let block = &block[..block.find("</div>")?];
    let text = |html: &str| {
        let mut out = String::new();
        let mut in_tag = false;
        for c in html.chars() {
            match c {
                '<' => in_tag = true,
                '>' => in_tag = false,
                c if !in_tag => out.push(c),
                _ => {}
            }
        }
        out.replace("&amp;", "&")
            .replace("&lt;", "<")
            .replace("&gt;", ">")
    };
    Some(
        block
            .split("<p>")
            .skip(1)
            .map(|p| {
                text(p.split("</p>").next().unwrap_or_default())
                    .trim()
                    .to_string()
            })
            .collect(),
    )
}

/// A crate that picks its CUDA release with a feature and writes what its
/// author would for that release.
fn write_release_dependent(dir: &Path) -> Result {
    std::fs::create_dir_all(dir.join("src")).map_err(|e| e.to_string())?;
    let manifest = format!(
        "[package]\nname = \"releases-user\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n\
         [dependencies]\nlibcuda-sys = {{ path = {:?} }}\n\n\
         [features]\ncuda-12080 = [\"libcuda-sys/cuda-12080\"]\ncuda-13000 = [\"libcuda-sys/cuda-13000\"]\n\
         cuda-13050 = [\"libcuda-sys/cuda-13050\"]\n\n[workspace]\n",
        crate::root().display().to_string()
    );
    let lib = r#"use libcuda_sys::*;

/// The properties of a device pool, as written against each release.
pub fn pool_props(device: CUdevice) -> CUmemPoolProps {
    let mut props = CUmemPoolProps::default();
    props.allocType = CUmemAllocationType::CU_MEM_ALLOCATION_TYPE_PINNED;
    props.location.type_ = CUmemLocationType::CU_MEM_LOCATION_TYPE_DEVICE;
    // Up to 13.3 `id` is a field of CUmemLocation...
    #[cfg(any(feature = "cuda-12080", feature = "cuda-13000"))]
    {
        props.location.id = device;
    }
    // ...from 13.4 on it is in an anonymous union.
    #[cfg(feature = "cuda-13050")]
    {
        props.location.__bindgen_anon_1.id = device;
    }
    props
}

/// A 13.2 attribute: written against 12.8, it does not compile.
#[cfg(feature = "cuda-12080")]
pub const MAX_SIZE: CUmemPool_attribute = CUmemPool_attribute::CU_MEMPOOL_ATTR_MAX_POOL_SIZE;
"#;
    for (name, text) in [("Cargo.toml", manifest.as_str()), ("src/lib.rs", lib)] {
        std::fs::write(dir.join(name), text).map_err(|e| format!("{name}: {e}"))?;
    }
    Ok(())
}

/// The features docs.rs builds with, from `[package.metadata.docs.rs]`.
fn docs_rs_features() -> Result<String> {
    let out = cargo::command(&["metadata", "--no-deps", "--format-version", "1"])
        .output()
        .map_err(|e| format!("cargo metadata: {e}"))?;
    let metadata: serde_json::Value =
        serde_json::from_slice(&out.stdout).map_err(|e| format!("cargo metadata: {e}"))?;
    let package = metadata["packages"]
        .as_array()
        .and_then(|p| p.iter().find(|p| p["name"] == "libcuda-sys"))
        .ok_or("cargo metadata lists no libcuda-sys")?;
    // `[package.metadata.docs.rs]` is the table `docs`, then `rs`.
    let features = package["metadata"]["docs"]["rs"]["features"]
        .as_array()
        .ok_or("libcuda-sys has no [package.metadata.docs.rs] features")?;
    Ok(features
        .iter()
        .filter_map(|f| f.as_str())
        .collect::<Vec<_>>()
        .join(","))
}

fn no_generation_crates_in_tree() -> Outcome {
    let tree = |extra: &[&str]| -> Result<Vec<String>> {
        let mut args = vec![
            "tree",
            "-p",
            "libcuda-sys",
            "-e",
            "normal,build",
            "--prefix",
            "none",
            "--format",
            "{p}",
        ];
        args.extend(extra);
        let out = cargo::command(&args)
            .output()
            .map_err(|e| format!("cargo tree: {e}"))?;
        if !out.status.success() {
            return Err(format!(
                "cargo tree failed: {}",
                String::from_utf8_lossy(&out.stderr)
            ));
        }
        Ok(String::from_utf8_lossy(&out.stdout)
            .lines()
            .filter_map(|l| l.split_whitespace().next().map(str::to_string))
            .collect())
    };
    let generation = |names: &[String]| -> Vec<String> {
        let mut found: Vec<String> = names
            .iter()
            .filter(|n| GENERATION_ONLY.contains(&n.as_str()))
            .cloned()
            .collect();
        found.sort();
        found.dedup();
        found
    };
    // The default build has them (so this check can see them at all).
    let default = generation(&tree(&[])?);
    if !default.contains(&"bindgen".to_string()) {
        return Err(format!("the default tree lacks bindgen: {default:?}").into());
    }
    let without = generation(&tree(&["--no-default-features"])?);
    if !without.is_empty() {
        return Err(format!("--no-default-features still has {without:?}").into());
    }
    Ok(format!("default: {default:?}; --no-default-features: none"))
}

/// Every `libclang*.so*` file clang-sys could load, or why none can be hidden.
fn libclang_files() -> std::result::Result<Vec<PathBuf>, String> {
    let unshare = Command::new("unshare").args(["-m", "true"]).output();
    if !unshare.is_ok_and(|o| o.status.success()) {
        return Err("`unshare -m` is not available (root and the util-linux tools are needed to hide libclang)".into());
    }
    let dirs = crate::setup::libclang_dirs();
    let mut files = Vec::new();
    for dir in dirs {
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let real = entry.file_type().is_ok_and(|t| t.is_file());
            if real && name.starts_with("libclang") && name.contains(".so") {
                files.push(entry.path());
            }
        }
    }
    Ok(files)
}

/// No variable, tool or Python path that names CUDA headers.
fn no_headers(cmd: &mut Command) {
    for var in [
        "CONDA_PREFIX",
        "PYTHONPATH",
        "VIRTUAL_ENV",
        "PKG_CONFIG_PATH",
        "LIBCLANG_PATH",
    ] {
        cmd.env_remove(var);
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    let kept: Vec<PathBuf> = std::env::split_paths(&path)
        .filter(|d| !d.join("nvcc").exists())
        .collect();
    if let Ok(joined) = std::env::join_paths(kept) {
        cmd.env("PATH", joined);
    }
}

fn output(mut cmd: Command) -> Result<Output> {
    cmd.output()
        .map_err(|e| format!("{:?}: {e}", cmd.get_program()))
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// The end of the output, or libtest's account of the failures where there is one.
fn tail(out: &Output) -> String {
    let all = text(out);
    let lines: Vec<&str> = all.lines().collect();
    let start = lines
        .iter()
        .position(|l| *l == "failures:")
        .unwrap_or(lines.len().saturating_sub(40));
    lines[start..]
        .iter()
        .take(60)
        .copied()
        .collect::<Vec<_>>()
        .join("\n")
}

fn expect_success(out: &Output) -> Result {
    if out.status.success() {
        Ok(())
    } else {
        Err(format!("exit {:?}:\n{}", out.status.code(), tail(out)))
    }
}

fn expect_failure(out: &Output, summary: &str) -> Result {
    let all = text(out);
    if out.status.success() {
        return Err(format!("succeeded, expected `{summary}`"));
    }
    if !all.contains(summary) {
        return Err(format!("failed without `{summary}`:\n{}", tail(out)));
    }
    if all.contains("panicked") || all.contains("RUST_BACKTRACE") {
        return Err(format!("a panic:\n{}", tail(out)));
    }
    Ok(())
}

/// The build's one fallback warning (Cargo prints build-script warnings on stderr).
fn one_fallback_warning(out: &Output) -> Result<String> {
    let stderr = String::from_utf8_lossy(&out.stderr);
    let warnings: Vec<&str> = stderr
        .lines()
        .filter(|l| l.contains(FALLBACK_WARNING))
        .collect();
    match warnings.as_slice() {
        [one] => Ok(one.trim().to_string()),
        _ => Err(format!(
            "{} fallback warnings:\n{}",
            warnings.len(),
            tail(out)
        )),
    }
}

/// What libtest's JSON events on stdout and the skip log say.
fn libtest_counts(out: &Output, skip_log: &Path) -> Result<Counts> {
    let mut counts = Counts::default();
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        test::read_event(line, &mut counts);
    }
    test::with_skips(counts, skip_log)
}

/// A check's outcome: what it saw, or why it failed or could not run.
type Outcome = std::result::Result<String, Failure>;

struct Skip(String);

enum Failure {
    Failed(String),
    Skipped(String),
}

impl From<String> for Failure {
    fn from(e: String) -> Failure {
        Failure::Failed(e)
    }
}

impl From<&str> for Failure {
    fn from(e: &str) -> Failure {
        Failure::Failed(e.to_string())
    }
}

impl From<Skip> for Failure {
    fn from(s: Skip) -> Failure {
        Failure::Skipped(s.0)
    }
}

#[derive(Default)]
struct Report(Counts);

impl Report {
    fn check(&mut self, name: &str, f: impl FnOnce() -> Outcome) {
        let start = std::time::Instant::now();
        let outcome = f();
        let secs = start.elapsed().as_secs_f64();
        match outcome {
            Ok(saw) => {
                self.0.passed += 1;
                println!("ok       {name} ({secs:.0} s)\n         {saw}");
            }
            Err(Failure::Skipped(why)) => {
                println!("skipped  {name}: {why}");
                self.0.skipped.push((name.to_string(), why));
            }
            Err(Failure::Failed(why)) => {
                self.0.failed += 1;
                println!("FAILED   {name} ({secs:.0} s)\n{why}");
            }
        }
    }

    fn finish(self) -> Counts {
        println!(
            "fallback: {} passed, {} failed, {} skipped",
            self.0.passed,
            self.0.failed,
            self.0.skipped.len()
        );
        self.0
    }
}
