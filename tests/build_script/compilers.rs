//! The C compiler's variables and its own diagnostics.

use crate::harness::*;

// Variables of the C compiler and the compiler's own diagnostics.

#[test]
fn c_compiler_variables_rerun_the_script() {
    let mut case = Case::new("cc_vars");
    // Fails right after the preprocessor has run: no bindgen needed.
    let include = case.header("include", "#define CUDA_VERSION 11000\n");
    let run = case
        .env("LIBCUDA_SYS_INCLUDE_DIR", &include)
        .env("CC", "cc")
        .env("CFLAGS", "-DLIBCUDA_SYS_TEST=1")
        .run();
    run.failure("needs 11.2 or newer");
    run.assert_reruns(&["CC", "CFLAGS"]);
}

#[test]
fn preprocessor_error_shows_the_compiler_diagnostic() {
    let mut case = Case::new("no_preprocess_diagnostic");
    let include =
        case.header("include", "#include \"cuda_missing_part.h\"\n#define CUDA_VERSION 13000\n");
    // A CI secret in the environment: the command is shown, its environment never.
    let secret = "s3cr3t-token-value-4711";
    let run = case.env("LIBCUDA_SYS_INCLUDE_DIR", &include).env("MY_API_TOKEN", secret).run();
    run.failure("the C preprocessor failed");
    run.assert_stderr_has(&["cuda_missing_part.h", "No such file or directory"]);
    assert!(
        !run.stdout.contains(secret) && !run.stderr.contains(secret),
        "the environment leaked into the output\n{}",
        run.report()
    );
}

/// A C++ compiler as `CC` (`g++`, `clang++`) builds the stand-in with C names:
/// `cuInit`, not a mangled `_Z6cuInitv`.
#[test]
fn a_cplusplus_compiler_builds_a_stand_in_with_c_names() {
    if linking_untestable() {
        return;
    }
    for cxx in ["g++", "c++"] {
        // The case's PATH holds only its own directory: the compiler by its full path.
        let found =
            std::process::Command::new("sh").args(["-c", &format!("command -v {cxx}")]).output();
        let path = found
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
            .unwrap_or_default();
        if path.is_empty() {
            testkit::skip(&format!("no {cxx} on this machine"));
            continue;
        }
        let mut case = Case::new(if cxx == "g++" { "cc_gxx" } else { "cc_cxx" });
        let run = case.env("LIBCUDA_SYS_BINDINGS", "pregenerated").env("CC", &path).run();
        assert_eq!(run.code, Some(0), "{}", run.report());
        assert_eq!(run.metadata("link_kind"), "generated-stub");
        let names = case.stand_in_exports();
        let has = |n: &str| names.iter().any(|x| x == n);
        assert!(has("cuInit") && has("cuMemAlloc_v2"), "{cxx}: {names:?}");
        assert!(!names.iter().any(|n| n.starts_with("_Z")), "{cxx}: mangled names: {names:?}");
    }
}
