//! Where the bindings come from (the pregenerated set and its modes), the release of headers not generated from, features, and the `cuda-XXXXX` release features.

use crate::harness::*;

// ---------------------------------------------------------------------------
// 10. Where the bindings come from: the pregenerated set and its modes.

#[test]
fn no_headers_falls_back_to_the_pregenerated_bindings_with_one_warning() {
    if !installed_toolkit_headers().is_empty() {
        return testkit::skip("this machine has CUDA headers in a standard location");
    }
    let mut case = Case::new("fallback_no_headers");
    let run = case.env("LIBCUDA_SYS_BINDINGS", "").run();
    assert_pregenerated(&run, &case, newest_pregenerated());
    let fallback: Vec<&str> =
        run.warnings().into_iter().filter(|w| w.contains("pregenerated")).collect();
    assert_eq!(fallback.len(), 1, "{}", run.report());
    for phrase in [
        "using the pregenerated bindings of libcuda-sys (CUDA ",
        "because no CUDA headers (cuda.h) found",
        "pip install nvidia-cuda-runtime",
        "libclang",
        "LIBCUDA_SYS_BINDINGS=generate makes it an error",
    ] {
        assert!(fallback[0].contains(phrase), "`{phrase}` not in {}", fallback[0]);
    }
    // Linked against a stand-in built from the pregenerated symbol list, with a C compiler alone.
    if run.metadata("link_kind") == "generated-stub" {
        let exports = case.stand_in_exports();
        for name in ["cuMemPoolGetAttribute", "cuMemAlloc_v2"] {
            assert!(exports.iter().any(|e| e == name), "{name} not in {exports:?}");
        }
    }
    run.assert_reruns(&["LIBCUDA_SYS_BINDINGS", "DOCS_RS"]);
}

#[test]
fn libclang_missing_falls_back_to_the_pregenerated_bindings() {
    let (mut case, _) = Case::without_libclang("fallback_no_libclang");
    let run = case.env("LIBCUDA_SYS_BINDINGS", "").run();
    if run.metadata("found_by") != "pregenerated" {
        return testkit::skip("libclang was loaded although LIBCLANG_PATH is an empty directory");
    }
    // The headers are CUDA 13.0: their release, not the newest.
    assert_pregenerated(&run, &case, 13000);
    assert!(
        run.warnings().iter().any(|w| w.contains("because libclang not found")),
        "{}",
        run.report()
    );
}

// ---------------------------------------------------------------------------
// Headers found but not generated from: their release decides.

/// A case whose `LIBCUDA_SYS_INCLUDE_DIR` holds a `cuda.h` of `version`, and no libclang.
fn headers_of(name: &'static str, version: u32) -> (Case, PathBuf) {
    let (mut case, _) = Case::without_libclang(name);
    let include = case.header("include", &format!("#define CUDA_VERSION {version}\n"));
    case.env("LIBCUDA_SYS_INCLUDE_DIR", &include).env("LIBCUDA_SYS_BINDINGS", "");
    (case, include)
}

#[test]
fn headers_not_generated_from_bind_the_pregenerated_set_of_their_release() {
    // (headers, bound, what the warning says of the choice)
    for (headers, bound, said) in [
        (12020, 12020, "the headers' own release".to_string()),
        // 12.7 was never released with headers; a newer minor than the set knows.
        (
            12070,
            12060,
            "the newest pregenerated release not newer than the headers' CUDA 12.7".into(),
        ),
        (
            13090,
            13050,
            "the newest pregenerated release not newer than the headers' CUDA 13.9".into(),
        ),
    ] {
        let (case, include) = headers_of("headers_release", headers);
        let run = case.run();
        if run.metadata_or_empty("found_by") == "CUDA_PATH" {
            return testkit::skip(
                "libclang was loaded although LIBCLANG_PATH is an empty directory",
            );
        }
        assert_pregenerated(&run, &case, bound);
        assert_eq!(run.metadata("driver_version"), bound.to_string());
        let expected = format!(
            "using the pregenerated bindings of libcuda-sys (CUDA {}.{}, {said}: LIBCUDA_SYS_INCLUDE_DIR={}) because libclang not found",
            bound / 1000,
            bound % 1000 / 10,
            include.display()
        );
        let warnings = run.warnings();
        assert!(
            warnings.iter().any(|w| w.contains(&expected)),
            "no `{expected}`\n{}",
            run.report()
        );
    }
    // The same rule without generation asked for at all.
    let (mut case, include) = headers_of("headers_release_pregenerated", 12020);
    let run = case.env("LIBCUDA_SYS_BINDINGS", "pregenerated").run();
    assert_pregenerated(&run, &case, 12020);
    let expected = format!(
        "LIBCUDA_SYS_INCLUDE_DIR={} is not used: LIBCUDA_SYS_BINDINGS=pregenerated, so the pregenerated bindings of libcuda-sys (CUDA 12.2, the headers' own release) are",
        include.display()
    );
    assert!(run.warnings().iter().any(|w| w.contains(&expected)), "{}", run.report());
    // A release feature still wins over the headers.
    let (mut case, _) = headers_of("headers_release_feature", 12020);
    let run = case.feature("cuda-13000").run();
    assert_pregenerated(&run, &case, 13000);
}

#[test]
fn headers_older_than_every_pregenerated_release_are_an_error() {
    let (case, include) = headers_of("headers_too_old", 11040);
    let run = case.run();
    run.failure(&format!(
        "the headers found (LIBCUDA_SYS_INCLUDE_DIR={}) are CUDA 11.4, older than every pregenerated release",
        include.display()
    ));
    run.assert_stderr_has(&["apt-get install libclang-dev", "features = [\"cuda-11070\"]"]);
    run.assert_explanation_unindented();
}

// ---------------------------------------------------------------------------
// Features come from how the script was compiled, not from the environment.

#[test]
fn inherited_feature_variables_change_nothing() {
    for feature in [None, Some("per-thread-default-stream"), Some("dynamic-loading")] {
        inherited_feature_variables(feature);
    }
}

fn inherited_feature_variables(feature: Option<&str>) {
    let mut case = Case::new("inherited_features");
    if let Some(feature) = feature {
        case.feature(feature);
    }
    for var in [
        "CARGO_FEATURE_PER_THREAD_DEFAULT_STREAM",
        "CARGO_FEATURE_DYNAMIC_LOADING",
        "CARGO_FEATURE_CUDA_12080",
        "CARGO_FEATURE_CUDA_13000",
    ] {
        case.env(var, "1");
    }
    let run = case.env("LIBCUDA_SYS_BINDINGS", "pregenerated").run();
    assert_pregenerated(&run, &case, newest_pregenerated());
    let ptds = case.has_feature("per-thread-default-stream").to_string();
    assert_eq!(run.metadata("per_thread_default_stream"), ptds, "{}", run.report());
    let dynamic = case.has_feature("dynamic-loading");
    assert_eq!(run.metadata("link_kind") == "dynamic-loading", dynamic, "{}", run.report());
    let renames = fs::read_to_string(case.out_dir().join("renames.rs")).unwrap();
    assert_eq!(
        renames.contains("cuMemAllocAsync_ptsz"),
        case.has_feature("per-thread-default-stream")
    );
}

// ---------------------------------------------------------------------------
// The CUDA release: `cuda-XXXXX` features.

#[test]
fn a_release_feature_selects_its_pregenerated_release() {
    let mut case = Case::new("release_feature");
    let run = case.env("LIBCUDA_SYS_BINDINGS", "pregenerated").feature("cuda-12080").run();
    assert_pregenerated(&run, &case, 12080);
    let out = |file: &str| fs::read_to_string(case.out_dir().join(file)).unwrap();
    let bindings = out("bindings.rs");
    // The declarations: the docs may name a newer item in prose.
    assert!(bindings.contains("pub const CU_MEMPOOL_ATTR_USED_MEM_HIGH"));
    assert!(
        !bindings.contains("pub const CU_MEMPOOL_ATTR_MAX_POOL_SIZE"),
        "a 13.2 attribute in the 12.8 bindings"
    );
    // The plain name reaches 12.8's ABI (13.0 moved cuCtxCreate to _v4).
    assert!(
        out("renames.rs").contains("pub use self::cuCtxCreate_v2 as cuCtxCreate;"),
        "{}",
        out("renames.rs")
    );
}

#[test]
fn two_release_features_are_an_error_that_names_both() {
    let run = Case::new("two_releases")
        .env("LIBCUDA_SYS_BINDINGS", "pregenerated")
        .feature("cuda-12080")
        .feature("cuda-13000")
        .run();
    run.failure(
        "libcuda-sys binds one CUDA release, and the features cuda-12080 and cuda-13000 are all on",
    );
    run.assert_stderr_has(&["cargo tree -e features -i libcuda-sys"]);
    // The long text is lines of its own, not the source's indentation.
    assert!(!run.stderr.contains("\n    "), "{}", run.report());
}

/// A pregenerated release other than the headers this crate was built with.
fn another_release() -> u32 {
    if *REAL_VERSION == "12080" {
        13000
    } else {
        12080
    }
}

#[test]
fn a_release_feature_and_headers_of_another_release_give_the_pregenerated_release() {
    if generation_unavailable() {
        return;
    }
    let other = another_release();
    let feature = format!("cuda-{other}");
    let mut case = Case::new("release_other_headers");
    let root = case.toolkit("toolkit");
    let run =
        case.env("LIBCUDA_SYS_BINDINGS", "").env("CUDA_PATH", &root).feature(feature.clone()).run();
    assert_pregenerated(&run, &case, other);
    let number: u32 = REAL_VERSION.parse().unwrap();
    let said = format!(
        "because the feature cuda-{other} asks for CUDA {}.{} and the headers found (CUDA_PATH={}) are CUDA {}.{}",
        other / 1000,
        other % 1000 / 10,
        root.display(),
        number / 1000,
        number % 1000 / 10
    );
    let warnings = run.warnings();
    assert!(
        warnings.iter().filter(|w| w.contains(&said)).count() == 1,
        "no one warning with `{said}`\n{}",
        run.report()
    );

    // Asked to generate, the same is an error.
    let mut case = Case::new("release_other_headers_generate");
    let root = case.toolkit("toolkit");
    let run = case.env("CUDA_PATH", &root).feature(feature.clone()).run();
    run.failure(&format!(
        "LIBCUDA_SYS_BINDINGS=generate: the headers found are CUDA {}.{}, the feature cuda-{other} asks for CUDA {}.{}",
        number / 1000,
        number % 1000 / 10,
        other / 1000,
        other % 1000 / 10
    ));
    let fix = format!(
        "- point LIBCUDA_SYS_INCLUDE_DIR or CUDA_PATH at headers of CUDA {}.{}\n",
        other / 1000,
        other % 1000 / 10
    );
    run.assert_stderr_has(&[fix.as_str()]);
}

#[test]
fn a_release_feature_and_headers_of_that_release_generate() {
    if generation_unavailable() {
        return;
    }
    let mut case = Case::new("release_same_headers");
    let root = case.small_toolkit("toolkit");
    let run = case
        .env("LIBCUDA_SYS_BINDINGS", "")
        .env("CUDA_PATH", &root)
        .feature(format!("cuda-{}", *REAL_VERSION))
        .run();
    run.found(&root.join("include"), "CUDA_PATH");
    assert_eq!(run.metadata("version"), *REAL_VERSION);
    assert!(run.warnings().iter().all(|w| !w.contains("pregenerated")), "{}", run.report());
}

#[test]
fn wrong_variables_are_errors_in_every_mode() {
    let modes: [(&str, &[(&str, &str)]); 4] = [
        ("automatic", &[("LIBCUDA_SYS_BINDINGS", "")]),
        ("generate", &[("LIBCUDA_SYS_BINDINGS", "generate")]),
        ("pregenerated", &[("LIBCUDA_SYS_BINDINGS", "pregenerated")]),
        ("docs.rs", &[("LIBCUDA_SYS_BINDINGS", ""), ("DOCS_RS", "1")]),
    ];
    let wrong: [(&str, &str, &str); 3] = [
        ("CUDA_PATH", "/nonexistent", "CUDA_PATH=/nonexistent does not exist"),
        (
            "LIBCUDA_SYS_INCLUDE_DIR",
            "/nonexistent/include",
            "LIBCUDA_SYS_INCLUDE_DIR=/nonexistent/include does not exist",
        ),
        (
            "LIBCUDA_SYS_LIB_DIR",
            "/nonexistent/lib",
            "LIBCUDA_SYS_LIB_DIR=/nonexistent/lib is not a directory",
        ),
    ];
    for (mode, settings) in modes {
        for (var, value, summary) in wrong {
            let mut case = Case::new("wrong_in_every_mode");
            for (k, v) in settings {
                case.env(*k, v);
            }
            let run = case.env(var, value).run();
            assert!(
                run.code == Some(1) && run.warnings().iter().any(|w| w.contains(summary)),
                "mode {mode}, {var}={value}: expected `{summary}`\n{}",
                run.report()
            );
        }
    }
}

#[test]
fn unknown_mode_is_an_error() {
    let run = Case::new("unknown_mode").env("LIBCUDA_SYS_BINDINGS", "pregenrated").run();
    run.failure("LIBCUDA_SYS_BINDINGS=pregenrated is not a mode");
    run.assert_stderr_has(&["generate", "pregenerated", "unset LIBCUDA_SYS_BINDINGS"]);
}

/// A pregenerated file cut short (a copy that stopped) is reported as damaged
/// by the build script, not left to rustc's "unclosed delimiter".
#[test]
fn a_truncated_pregenerated_file_is_damaged() {
    use std::os::unix::fs::MetadataExt;
    let uid = fs::metadata("/proc/self").unwrap().uid();
    // A case with a copy of the crate's pregenerated set, which it may cut.
    let Some(mut case) = Case::as_user("truncated_types", uid) else { return };
    let types = case.manifest_dir().join("pregenerated/rendered/bindings.rs");
    let text = fs::read_to_string(&types).unwrap();
    fs::write(&types, &text[..text.len() / 2]).unwrap();
    let run = case.env("LIBCUDA_SYS_BINDINGS", "pregenerated").run();
    run.failure("the pregenerated bindings are damaged: pregenerated/rendered/bindings.rs");
    run.assert_stderr_has(&["cut short"]);
}

/// A byte that is not UTF-8 in a comment of `cuda.h` (Latin-1) is no reason
/// to fail where the header is read as text: the compiler reads it too.
#[test]
fn a_latin1_byte_in_the_header_is_read_past() {
    let mut case = Case::new("latin1_header");
    let include = case.mkdir("include");
    fs::write(include.join("cuda.h"), b"/* caf\xe9 */\n#define CUDA_VERSION 13000\n").unwrap();
    let run = case
        .env("LIBCUDA_SYS_INCLUDE_DIR", &include)
        .env("LIBCUDA_SYS_BINDINGS", "pregenerated")
        .run();
    assert_eq!(run.code, Some(0), "{}", run.report());
    assert_eq!(run.metadata("version"), "13000");
}

/// Headers whose `#define CUDA_VERSION` a reading of the text alone takes
/// wrongly: under `#ifdef` of a macro nobody defines, `#if (0)`, an `#elif 0`
/// after `#if 0`, or undefined again. Each is CUDA 13.0 to a C compiler,
/// inside an include guard as NVIDIA's are.
fn misleading_headers() -> [(&'static str, String); 4] {
    let guarded = |body: &str| {
        format!("#ifndef __cuda_cuda_h__\n#define __cuda_cuda_h__\n{body}#endif /* __cuda_cuda_h__ */\n")
    };
    [
        (
            "#ifdef UNDEFINED",
            guarded("#ifdef UNDEFINED\n#define CUDA_VERSION 12020\n#else\n#define CUDA_VERSION 13000\n#endif\n"),
        ),
        (
            "#if (0)",
            guarded("#if (0)\n#define CUDA_VERSION 12020\n#else\n#define CUDA_VERSION 13000\n#endif\n"),
        ),
        (
            "#elif 0",
            guarded(
                "#if 0\n#define CUDA_VERSION 11080\n#elif 0\n#define CUDA_VERSION 12020\n#else\n\
                 #define CUDA_VERSION 13000\n#endif\n",
            ),
        ),
        (
            "#undef CUDA_VERSION",
            guarded("#define CUDA_VERSION 12020\n#undef CUDA_VERSION\n#define CUDA_VERSION 13000\n"),
        ),
    ]
}

/// Headers not generated from have their release read by the C preprocessor,
/// as a C program that includes them sees it.
#[test]
fn the_release_of_headers_not_generated_from_is_the_preprocessor_s() {
    for (spelling, text) in misleading_headers() {
        let mut case = Case::new("release_through_preprocessor");
        let include = case.header("include", &text);
        let run = case
            .env("LIBCUDA_SYS_INCLUDE_DIR", &include)
            .env("LIBCUDA_SYS_BINDINGS", "pregenerated")
            .run();
        assert_eq!(run.code, Some(0), "{spelling}: {}", run.report());
        assert_eq!(run.metadata("version"), "13000", "{spelling}: {}", run.report());
    }
}

/// Without a C compiler, a `CUDA_VERSION` that only the preprocessor can tell
/// is refused with what was found and the fixes; NVIDIA's headers, whose one
/// define sits in the include guard alone, are read as they are.
#[test]
fn without_a_compiler_an_ambiguous_release_is_refused() {
    // docs.rs mode links nothing, so the build needs no compiler at all.
    let new_case = |text: &str| {
        let mut case = Case::new("release_without_compiler");
        let include = case.header("include", text);
        case.env("LIBCUDA_SYS_INCLUDE_DIR", &include)
            .env("DOCS_RS", "1")
            .env("LIBCUDA_SYS_BINDINGS", "")
            .env("CC", "/nonexistent/cc");
        (case, include)
    };
    for (spelling, text) in misleading_headers() {
        let (case, include) = new_case(&text);
        let run = case.run();
        run.failure(&format!(
            "the CUDA_VERSION of {} cannot be read without the C preprocessor",
            include.join("cuda.h").display()
        ));
        run.assert_stderr_has(&[spelling, "#define CUDA_VERSION 12020", "/nonexistent/cc", "CC"]);
        run.assert_explanation_unindented();
    }
    let plain = "#ifndef __cuda_cuda_h__\n#define __cuda_cuda_h__\n/* 13.0 */\n#define CUDA_VERSION 13000\n#endif\n";
    let (case, _) = new_case(plain);
    let run = case.run();
    assert_eq!(run.code, Some(0), "{}", run.report());
    assert_eq!(run.metadata("version"), "13000");
    if !REAL_INCLUDE.is_empty() {
        let (mut case, _) = new_case(plain);
        let run = case.env("LIBCUDA_SYS_INCLUDE_DIR", &*REAL_INCLUDE).run();
        assert_eq!(run.code, Some(0), "{}", run.report());
        let own = newest_pregenerated().min(REAL_VERSION.parse().unwrap());
        assert_eq!(run.metadata("version"), own.to_string(), "{}", run.report());
    }
}

/// The directories of clang's own headers (`stddef.h`) on this machine, as
/// libclang's packages install them.
fn clang_resource_headers() -> Vec<PathBuf> {
    let mut parents: Vec<PathBuf> =
        ["/usr/lib/clang", "/usr/lib64/clang", "/usr/local/lib/clang"].map(PathBuf::from).to_vec();
    for base in ["/usr/lib", "/usr/lib64"] {
        for entry in fs::read_dir(base).into_iter().flatten().flatten() {
            if entry.file_name().to_string_lossy().starts_with("llvm") {
                parents.push(entry.path().join("lib/clang"));
            }
        }
    }
    let mut dirs: Vec<PathBuf> = parents
        .iter()
        .flat_map(|p| fs::read_dir(p).into_iter().flatten().flatten())
        .filter_map(|version| version.path().join("include").canonicalize().ok())
        .filter(|include| include.join("stddef.h").is_file())
        .collect();
    dirs.sort();
    dirs.dedup();
    dirs
}

/// libclang without clang's own headers (Debian's `libclang1-N` without
/// `libclang-common-N-dev`) cannot parse `cuda.h`: the automatic mode falls
/// back, naming the package, and `LIBCUDA_SYS_BINDINGS=generate` stops.
#[test]
fn libclang_without_its_own_headers_names_the_package() {
    if generation_unavailable() {
        return;
    }
    let resource = clang_resource_headers();
    if resource.is_empty() {
        return testkit::skip("no clang resource headers (stddef.h) found on this machine");
    }
    for mode in ["", "generate"] {
        let mut case = Case::new("libclang_without_headers");
        for dir in &resource {
            if !case.hide(dir) {
                return;
            }
        }
        let run = case
            .env("LIBCUDA_SYS_INCLUDE_DIR", &*REAL_INCLUDE)
            .env("LIBCUDA_SYS_BINDINGS", mode)
            .run();
        let said = ["libclang has no stddef.h of its own", "libclang-common-", "libclang-dev"];
        if mode.is_empty() {
            assert_pregenerated(
                &run,
                &case,
                newest_pregenerated().min(REAL_VERSION.parse().unwrap()),
            );
            let warnings = run.warnings();
            let fallback = warnings.iter().find(|w| w.contains("using the pregenerated bindings"));
            let fallback =
                fallback.unwrap_or_else(|| panic!("no fallback warning\n{}", run.report()));
            for phrase in said {
                assert!(fallback.contains(phrase), "`{phrase}` not in {fallback}");
            }
        } else {
            run.failure(said[0]);
            run.assert_stderr_has(&said[1..]);
            run.assert_stderr_has(&["'stddef.h' file not found", "include/stddef.h"]);
            run.assert_explanation_unindented();
        }
    }
}

/// `DEP_CUDA_ITEMS` names the same items whether the bindings were generated
/// or pregenerated, for the same release: a dependent's bindgen pass leaves
/// out the same ones either way. And `DEP_CUDA_CFGS` is the crate's own cfgs.
#[test]
fn the_items_list_for_dependents_is_the_same_generated_and_pregenerated() {
    if generation_unavailable() {
        return;
    }
    let releases =
        libcuda_sys_build::pregenerated::releases_in(Path::new(env!("CARGO_MANIFEST_DIR")))
            .unwrap_or_else(|e| panic!("{e}"));
    if !releases.iter().any(|r| r.0.to_string() == *REAL_VERSION) {
        return testkit::skip(&format!("CUDA {} is not in the pregenerated set", *REAL_VERSION));
    }
    let feature = format!("cuda-{}", *REAL_VERSION);
    let mut generated = Case::new("items_generated");
    let root = generated.toolkit("toolkit");
    let generated =
        generated.env("LIBCUDA_SYS_BINDINGS", "").env("CUDA_PATH", &root).feature(&feature).run();
    generated.found(&root.join("include"), "CUDA_PATH");
    let mut pregenerated = Case::new("items_pregenerated");
    let pregenerated =
        pregenerated.env("LIBCUDA_SYS_BINDINGS", "pregenerated").feature(&feature).run();
    assert_eq!(pregenerated.metadata("found_by"), "pregenerated");
    let read = |run: &Outcome| {
        let path = run.metadata("items");
        std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"))
    };
    let (g, p) = (read(&generated), read(&pregenerated));
    let differ: Vec<_> = g.lines().filter(|l| !p.contains(&format!("\n{l}\n"))).take(5).collect();
    assert!(g == p, "generated and pregenerated lists differ, e.g. {differ:?}");
    // Types, their tags, enums under both names, enumerators, `#define`s,
    // functions by symbol and by plain name.
    for name in [
        "CUstream",
        "CUstream_st",
        "CUresult",
        "cudaError_enum",
        "CUDA_SUCCESS",
        "CU_MEMHOSTALLOC_PORTABLE",
        "cuInit",
        "cuMemAlloc_v2",
        "cuMemAlloc",
    ] {
        assert!(g.lines().any(|l| l == name), "{name} not in the items list");
    }
    let own = format!(
        "cuda_{}_{}",
        REAL_VERSION.parse::<u32>().unwrap() / 1000,
        REAL_VERSION.parse::<u32>().unwrap() % 1000 / 10
    );
    for run in [&generated, &pregenerated] {
        let (cfgs, all) = (run.metadata("cfgs"), run.metadata("check_cfgs"));
        assert!(cfgs.split(',').any(|c| c == own), "{own} not in DEP_CUDA_CFGS {cfgs}");
        assert!(cfgs.split(',').all(|c| all.split(',').any(|a| a == c)), "{cfgs} not all in {all}");
    }
}
