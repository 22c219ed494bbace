//! libclang: where it is looked for, and what its absence does.

use crate::harness::*;

// ---------------------------------------------------------------------------
// 7. libclang.

#[test]
fn libclang_that_cannot_be_loaded_is_a_clear_error() {
    let (case, empty) = Case::without_libclang("no_libclang");
    let run = case.run();
    if run.code == Some(0) {
        return testkit::skip(&format!(
            "libclang was loaded although LIBCLANG_PATH={} is empty (exit {:?})",
            empty.display(),
            run.code
        ));
    }
    run.failure(&format!(
        "libclang not found (LIBCLANG_PATH={} holds no libclang that loads; bindgen needs it to read cuda.h)",
        empty.display()
    ));
    run.assert_stderr_has(&[
        "couldn't find any valid shared libraries matching",
        "apt-get install libclang-dev",
        "dnf install clang-devel",
        "or unset LIBCLANG_PATH",
    ]);
    run.assert_reruns(&["LIBCLANG_PATH"]);
}

#[test]
fn a_libclang_path_that_does_not_exist_is_named() {
    let (mut case, _) = Case::without_libclang("libclang_path_missing");
    let run = case.env("LIBCLANG_PATH", "/nonexistent").run();
    run.failure(
        "libclang not found (LIBCLANG_PATH=/nonexistent does not exist; bindgen needs it to read cuda.h)",
    );
    // In the automatic mode the fallback warning says the same.
    let (mut case, _) = Case::without_libclang("libclang_path_missing_fallback");
    let run = case.env("LIBCLANG_PATH", "/nonexistent").env("LIBCUDA_SYS_BINDINGS", "").run();
    assert!(
        run.warnings()
            .iter()
            .any(|w| w
                .contains("because libclang not found (LIBCLANG_PATH=/nonexistent does not exist")),
        "{}",
        run.report()
    );
}

#[test]
fn an_empty_libclang_path_is_unset() {
    if generation_unavailable() {
        return;
    }
    // Empty, clang-sys would search nothing else; unset, it finds this machine's libclang.
    let mut case = Case::new("libclang_path_empty");
    let root = case.small_toolkit("toolkit");
    let run = case.env("CUDA_PATH", &root).env("LIBCLANG_PATH", "").run();
    run.found(&root.join("include"), "CUDA_PATH");
}

#[test]
fn a_library_that_is_not_libclang_is_a_clear_error() {
    // Some shared library that is not libclang, under libclang's name.
    let Some(libm) = [
        "/lib/x86_64-linux-gnu/libm.so.6",
        "/lib/aarch64-linux-gnu/libm.so.6",
        "/usr/lib64/libm.so.6",
        "/lib64/libm.so.6",
    ]
    .into_iter()
    .map(Path::new)
    .find(|p| p.is_file()) else {
        return testkit::skip("no libm.so.6 to pose as libclang");
    };
    let (mut case, dir) = Case::without_libclang("not_libclang");
    fs::copy(libm, dir.join("libclang.so")).unwrap();
    let run = case.env("LIBCLANG_PATH", &dir).run();
    run.failure(&format!("{} is not libclang", dir.join("libclang.so").display()));
    run.assert_stderr_has(&["does not export clang_createIndex", "apt-get install libclang-dev"]);
}

/// A library with `clang_createIndex` and nothing else is refused before
/// bindgen's first other call panics where no unwinding is possible (which
/// aborted the build script with no message); the automatic mode falls back.
#[test]
fn a_libclang_without_the_functions_bindgen_calls_is_refused() {
    let (mut case, dir) = Case::without_libclang("libclang_create_index_only");
    let source = dir.join("index.c");
    fs::write(&source, "void *clang_createIndex(int a, int b) { return 0; }\n").unwrap();
    let built = std::process::Command::new("cc")
        .args(["-shared", "-fPIC", "-o"])
        .arg(dir.join("libclang.so"))
        .arg(&source)
        .status();
    if !built.is_ok_and(|s| s.success()) {
        return testkit::skip("no C compiler to build a library posing as libclang");
    }
    let run = case.env("LIBCLANG_PATH", &dir).run();
    let library = dir.join("libclang.so");
    run.failure(&format!(
        "{} is an incomplete libclang (it lacks clang_disposeIndex, clang_parseTranslationUnit,",
        library.display()
    ));
    run.assert_stderr_has(&["which bindgen calls first", "apt-get install libclang-dev"]);
    let run = case.env("LIBCUDA_SYS_BINDINGS", "").run();
    assert_eq!(run.code, Some(0), "{}", run.report());
    assert!(
        run.warnings().iter().any(|w| w.contains("is an incomplete libclang")),
        "{}",
        run.report()
    );
}

#[test]
fn clang_flags_that_change_the_abi_are_a_clear_error() {
    if generation_unavailable() {
        return;
    }
    let mut case = Case::new("m32");
    let root = case.toolkit("toolkit");
    // bindgen asserts that the target's pointer width is the one it was told.
    let run = case.env("CUDA_PATH", &root).env("BINDGEN_EXTRA_CLANG_ARGS", "-m32").run();
    run.failure("bindgen stopped on");
    run.assert_stderr_has(&[
        "BINDGEN_EXTRA_CLANG_ARGS = -m32",
        "that change the target's ABI",
        &format!("the bindings are for {TARGET}"),
    ]);
}
