//! Which libcuda is linked.

use crate::harness::*;

// ---------------------------------------------------------------------------
// Which libcuda is linked.

#[test]
fn lib_dir_override_links_the_driver_library() {
    if linking_untestable() || generation_unavailable() {
        return;
    }
    let mut case = Case::new("lib_dir_driver");
    // Driver installs often have only the versioned name, linked verbatim.
    let lib = case.mkdir("driver");
    fs::write(lib.join("libcuda.so.1"), ELF_STAND_IN).unwrap();
    let run =
        case.env("LIBCUDA_SYS_LIB_DIR", &lib).env("LIBCUDA_SYS_INCLUDE_DIR", &*REAL_INCLUDE).run();
    run.found(Path::new(&*REAL_INCLUDE), "LIBCUDA_SYS_INCLUDE_DIR");
    assert_eq!(run.metadata("link_kind"), "driver");
    assert_eq!(Path::new(run.metadata("lib_dir")), lib);
    assert_eq!(run.directive("rustc-link-search"), vec![format!("native={}", lib.display())]);
    assert_eq!(run.directive("rustc-link-lib"), vec!["dylib:+verbatim=libcuda.so.1"]);
    assert!(run.warnings().is_empty(), "no warning when the driver is linked\n{}", run.report());
}

#[test]
fn toolkit_stub_is_copied_under_the_runtime_name() {
    if linking_untestable() || generation_unavailable() {
        return;
    }
    let mut case = Case::new("toolkit_stub");
    let root = case.toolkit("toolkit");
    let stubs = case.mkdir("toolkit/lib64/stubs");
    fs::write(stubs.join("libcuda.so"), ELF_STAND_IN).unwrap();
    let run = case.env("CUDA_PATH", &root).run();
    run.found(&root.join("include"), "CUDA_PATH");
    if run.metadata("link_kind") == "driver" {
        return testkit::skip(&format!(
            "this machine has a libcuda driver library ({}), which comes before toolkit stubs",
            run.metadata("lib_dir")
        ));
    }
    assert_eq!(run.metadata("link_kind"), "toolkit-stub", "{}", run.report());
    let stub_dir = case.out_dir().join("stub");
    assert_eq!(Path::new(run.metadata("lib_dir")), stub_dir);
    assert_eq!(run.directive("rustc-link-lib"), vec!["dylib=cuda"]);
    for name in ["libcuda.so", "libcuda.so.1"] {
        assert_eq!(fs::read(stub_dir.join(name)).ok().as_deref(), Some(ELF_STAND_IN), "{name}");
    }
    assert!(
        run.warnings()
            .iter()
            .any(|w| w.contains("stub libcuda") && w.contains("CUDA_ERROR_STUB_LIBRARY")),
        "{}",
        run.report()
    );
}

/// A program linked against the stand-in (no driver at build time) and run
/// the way `cargo run` and `cargo test` run it, the stand-in's directory first
/// on `LD_LIBRARY_PATH`, reaches a driver that appeared after the build: the
/// stand-in hands each call over to the first real `libcuda.so.1` past it.
#[cfg(target_os = "linux")]
#[test]
fn the_stand_in_hands_over_to_a_driver_installed_after_the_build() {
    if linking_untestable() {
        return;
    }
    let mut case = Case::new("stand_in_hand_over");
    let run = case.env("LIBCUDA_SYS_BINDINGS", "pregenerated").run();
    if run.metadata("link_kind") != "generated-stub" {
        return testkit::skip("this machine has a libcuda: no stand-in is built");
    }
    let stub = case.out_dir().join("stub");
    // A C program that calls the driver, linked as the Rust one is.
    let main = case.dir.join("main.c");
    fs::write(
        &main,
        "#include <stdio.h>\nint cuDriverGetVersion(int *);\nint cuMemAlloc_v2(unsigned long long *, unsigned long long);\n\
         int main(void) { int v = 0; unsigned long long p = 0; int r = cuDriverGetVersion(&v);\n\
         int a = cuMemAlloc_v2(&p, 7); printf(\"%d %d %d %llx\\n\", r, v, a, p); return 0; }\n",
    )
    .unwrap();
    let exe = case.dir.join("main");
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    let built = std::process::Command::new(&cc)
        .arg(&main)
        .arg("-o")
        .arg(&exe)
        .arg(format!("-L{}", stub.display()))
        .arg("-l:libcuda.so.1")
        .status()
        .unwrap();
    assert!(built.success(), "{cc} could not link against the stand-in");
    let run_with = |path: &[&Path]| {
        let joined = std::env::join_paths(path).unwrap();
        let out = std::process::Command::new(&exe).env("LD_LIBRARY_PATH", joined).output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    };
    // No driver: the stand-in's own answer.
    assert!(run_with(&[&stub]).starts_with("34 0 34"), "{}", run_with(&[&stub]));
    // The driver appears (testkit's fake, CUDA 12.3): it answers, past the stand-in.
    let driver = testkit::fake_driver(&case.dir.join("driver"), 12030, 0);
    let answer = run_with(&[&stub, driver.parent().unwrap()]);
    assert_eq!(answer, "0 12345 0 1007", "the calls did not reach the driver");
}

/// The toolkit's stub behind a symlink named like the driver (a CI image's
/// `ln -s .../stubs/libcuda.so libcuda.so.1`) is linked as the stub it is.
#[test]
fn a_symlinked_toolkit_stub_is_a_stub() {
    if linking_untestable() {
        return;
    }
    let mut case = Case::new("symlinked_stub");
    let stubs = case.mkdir("toolkit/lib64/stubs");
    fs::write(stubs.join("libcuda.so"), ELF_STAND_IN).unwrap();
    let lib = case.mkdir("lib");
    std::os::unix::fs::symlink(stubs.join("libcuda.so"), lib.join("libcuda.so.1")).unwrap();
    let run =
        case.env("LIBCUDA_SYS_LIB_DIR", &lib).env("LIBCUDA_SYS_BINDINGS", "pregenerated").run();
    assert_eq!(run.code, Some(0), "{}", run.report());
    assert_eq!(run.metadata("link_kind"), "toolkit-stub", "{}", run.report());
    assert!(run.warnings().iter().any(|w| w.contains("stub libcuda")), "{}", run.report());
}
