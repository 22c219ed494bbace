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
