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
