//! Other targets: discovery and linking against trees laid out like theirs.

use crate::harness::*;

// ---------------------------------------------------------------------------
// 12. Other targets: discovery and linking against trees laid out like their
// toolkits and pip wheels. The pregenerated bindings stand in for generation, which
// needs the target's C headers; what is under test is where the build looks
// and what it links.

/// A case that builds for `triple` (`os`, `arch`, `env` as Cargo gives them).
fn for_target(name: &'static str, triple: &str, os: &str, arch: &str, env: &str) -> Case {
    let mut case = Case::new(name);
    case.env("TARGET", triple)
        .env("CARGO_CFG_TARGET_OS", os)
        .env("CARGO_CFG_TARGET_ARCH", arch)
        .env("CARGO_CFG_TARGET_ENV", env)
        .env("LIBCUDA_SYS_BINDINGS", "pregenerated");
    case
}

fn windows(name: &'static str) -> Case {
    for_target(name, "x86_64-pc-windows-msvc", "windows", "x86_64", "msvc")
}

#[test]
fn windows_toolkit_links_its_import_library() {
    if linking_untestable() {
        return;
    }
    let mut case = windows("windows_toolkit");
    case.header("toolkit/include", "#define CUDA_VERSION 13000\n");
    let lib = case.mkdir("toolkit/lib/x64");
    fs::write(lib.join("cuda.lib"), "!<arch>\n").unwrap();
    let run = case.env("CUDA_PATH", case.dir.join("toolkit")).run();
    assert_eq!(run.code, Some(0), "{}", run.report());
    assert_eq!(run.metadata("link_kind"), "import-library");
    assert_eq!(run.directive("rustc-link-search"), vec![format!("native={}", lib.display())]);
    assert_eq!(run.directive("rustc-link-lib"), vec!["dylib=cuda"]);
}

#[test]
fn windows_pip_wheel_links_its_import_library() {
    if linking_untestable() {
        return;
    }
    // nvidia-cuda-runtime's win_amd64 wheel: nvidia/cu13/include and nvidia/cu13/lib/x64/cuda.lib.
    let mut case = windows("windows_wheel");
    let include = case.header("site-packages/nvidia/cu13/include", "#define CUDA_VERSION 13000\n");
    let lib = case.mkdir("site-packages/nvidia/cu13/lib/x64");
    fs::write(lib.join("cuda.lib"), "!<arch>\n").unwrap();
    let run = case.env("LIBCUDA_SYS_INCLUDE_DIR", &include).run();
    assert_eq!(run.code, Some(0), "{}", run.report());
    assert_eq!(run.metadata("link_kind"), "import-library");
    assert_eq!(run.metadata("lib_dir"), lib.display().to_string());
}

#[test]
fn windows_without_cuda_lib_is_a_clear_error() {
    if linking_untestable() {
        return;
    }
    let mut case = windows("windows_no_lib");
    case.header("toolkit/include", "#define CUDA_VERSION 13000\n");
    let run = case.env("CUDA_PATH", case.dir.join("toolkit")).run();
    run.failure("no libcuda to link");
    run.assert_stderr_has(&[
        "lib\\x64\\cuda.lib",
        "pip install nvidia-cuda-runtime",
        "dynamic-loading",
    ]);
}

#[test]
fn windows_dynamic_loading_links_nothing() {
    let mut case = windows("windows_dynamic");
    let run = case.feature("dynamic-loading").run();
    assert_eq!(run.code, Some(0), "{}", run.report());
    assert_eq!(run.metadata("link_kind"), "dynamic-loading");
    assert!(run.directive("rustc-link-lib").is_empty(), "{}", run.report());
}

#[test]
fn aarch64_toolkit_layouts_and_their_stubs() {
    if linking_untestable() {
        return;
    }
    // Linux SBSA (Grace) and Jetson (L4T) keep headers and stubs under targets/.
    for (dir, name) in [("sbsa-linux", "aarch64_sbsa"), ("aarch64-linux", "aarch64_jetson")] {
        let mut case = for_target(name, "aarch64-unknown-linux-gnu", "linux", "aarch64", "gnu");
        let include =
            case.header(&format!("toolkit/targets/{dir}/include"), "#define CUDA_VERSION 13000\n");
        let stubs = case.mkdir(&format!("toolkit/targets/{dir}/lib/stubs"));
        fs::write(stubs.join("libcuda.so"), elf_header(EM_AARCH64)).unwrap();
        // No compiler for the target, so no stand-in: the stub found is linked where it is.
        let run = case
            .env("CUDA_PATH", case.dir.join("toolkit"))
            .env("CC_aarch64_unknown_linux_gnu", "/nonexistent/aarch64-gcc")
            .run();
        if run.metadata("link_kind") == "driver" {
            return testkit::skip("this machine has an aarch64 libcuda in the multiarch directory");
        }
        assert_eq!(run.code, Some(0), "{}", run.report());
        // The warning names the toolkit found (and not used by the pregenerated bindings).
        assert!(include.join("cuda.h").is_file());
        assert!(
            run.warnings().iter().any(|w| w.contains(&format!(
                "CUDA_PATH={} is not used",
                case.dir.join("toolkit").display()
            ))),
            "{dir}: {}",
            run.report()
        );
        assert_eq!(run.metadata("link_kind"), "toolkit-stub", "{dir}");
        assert_eq!(Path::new(run.metadata("lib_dir")), stubs, "{dir}");
        assert!(!case.out_dir().join("stub/libcuda.so.1").exists(), "{dir}");
    }
}

/// docs.rs builds a dependent's docs for the targets it names; rustdoc links
/// nothing, so no target needs a libcuda (nor a C compiler for a stand-in).
#[test]
fn docs_rs_links_nothing_for_any_target() {
    for (name, triple, os, arch, env) in [
        ("docs_rs_macos", "aarch64-apple-darwin", "macos", "aarch64", ""),
        ("docs_rs_msvc", "x86_64-pc-windows-msvc", "windows", "x86_64", "msvc"),
        ("docs_rs_aarch64", "aarch64-unknown-linux-gnu", "linux", "aarch64", "gnu"),
        ("docs_rs_host", TARGET, std::env::consts::OS, std::env::consts::ARCH, "gnu"),
    ] {
        for dynamic in [false, true] {
            let mut case = for_target(name, triple, os, arch, env);
            if dynamic {
                case.feature("dynamic-loading");
            }
            // No C compiler for the target: none is needed.
            let run = case.env("DOCS_RS", "1").env("CC", "/nonexistent/cc").run();
            assert_eq!(run.code, Some(0), "{triple}: {}", run.report());
            // Dynamic loading links nothing anywhere, and says so under its own name.
            let dynamic = case.has_feature("dynamic-loading");
            let kind = if dynamic { "dynamic-loading" } else { "none" };
            assert_eq!(run.metadata("link_kind"), kind, "{triple}");
            assert!(run.directive("rustc-link-lib").is_empty(), "{triple}: {}", run.report());
        }
    }
}

/// A 32-bit target is refused first, with the reason and the fix, in every
/// mode (docs.rs too): not 117 layout errors from rustc.
#[test]
fn a_32_bit_target_is_refused_before_anything_else() {
    for (name, triple, os, arch, env) in [
        ("i686_windows", "i686-pc-windows-msvc", "windows", "x86", "msvc"),
        ("i686_linux", "i686-unknown-linux-gnu", "linux", "x86", "gnu"),
    ] {
        let mut case = for_target(name, triple, os, arch, env);
        let run = case.env("CARGO_CFG_TARGET_POINTER_WIDTH", "32").env("DOCS_RS", "1").run();
        run.failure(&format!("libcuda-sys supports 64-bit targets only, not {triple}"));
        run.assert_stderr_has(&["64-bit only", "target_pointer_width"]);
    }
}

/// A cross or musl build without the target's C compiler says which package
/// gives it, and that `dynamic-loading` needs none.
#[test]
fn a_missing_cross_compiler_names_its_package_and_dynamic_loading() {
    if linking_untestable() {
        return;
    }
    for (name, triple, os, arch, env, package) in [
        (
            "no_cross_cc",
            "aarch64-unknown-linux-gnu",
            "linux",
            "aarch64",
            "gnu",
            "gcc-aarch64-linux-gnu",
        ),
        ("no_musl_cc", "x86_64-unknown-linux-musl", "linux", "x86_64", "musl", "musl-tools"),
        // Package names spell `x86_64` as `x86-64` (from an aarch64 host here),
        // and powerpc64le's is its own.
        (
            "no_x86_cross_cc",
            "x86_64-unknown-linux-gnu",
            "linux",
            "x86_64",
            "gnu",
            "gcc-x86-64-linux-gnu",
        ),
        (
            "no_ppc_cross_cc",
            "powerpc64le-unknown-linux-gnu",
            "linux",
            "powerpc64",
            "gnu",
            "gcc-powerpc64le-linux-gnu",
        ),
    ] {
        let mut case = for_target(name, triple, os, arch, env);
        if triple == "x86_64-unknown-linux-gnu" {
            case.env("HOST", "aarch64-unknown-linux-gnu");
        }
        let cc_var = format!("CC_{}", triple.replace('-', "_"));
        let run = case.env(&cc_var, "/nonexistent/cross-gcc").run();
        run.failure(&format!("cannot run the C compiler /nonexistent/cross-gcc to build the stand-in libcuda for {triple}"));
        run.assert_stderr_has(&[package, "dynamic-loading", "needs no C compiler"]);
    }
}

/// aarch64 with branch protection, which Ubuntu's compilers turn on by
/// default and Grace and Graviton 4 enforce: each entry point of the stand-in
/// is a valid target of the program's indirect call, so its first CUDA call
/// does not die with SIGILL. Run under `qemu-aarch64 -cpu max`, which enforces
/// BTI on pages of a library marked for it, where it is installed.
#[test]
fn aarch64_stand_in_entry_points_are_branch_targets() {
    if linking_untestable() {
        return;
    }
    let (Some(gcc), Some(qemu)) = (which("aarch64-linux-gnu-gcc"), which("qemu-aarch64")) else {
        return testkit::skip(
            "needs aarch64-linux-gnu-gcc and qemu-aarch64 (apt-get install gcc-aarch64-linux-gnu qemu-user)",
        );
    };
    let mut case =
        for_target("aarch64_bti", "aarch64-unknown-linux-gnu", "linux", "aarch64", "gnu");
    // A library marked for BTI, as Ubuntu's compiler builds one by default.
    // Debian's start files carry no BTI note and no landing pads: left out of
    // the library (its constructor runs from .init_array all the same).
    let bti_gcc = case.dir.join("bti-gcc");
    fs::write(
        &bti_gcc,
        format!(
            "#!/bin/sh\ncase \" $* \" in *\" -shared \"*) exec '{gcc}' -mbranch-protection=standard \
             -Wl,-z,force-bti -nostartfiles \"$@\";; esac\nexec '{gcc}' \"$@\"\n",
            gcc = gcc.display()
        ),
    )
    .unwrap();
    fs::set_permissions(&bti_gcc, fs::Permissions::from_mode(0o755)).unwrap();
    let run = case.env("CC_aarch64_unknown_linux_gnu", &bti_gcc).run();
    assert_eq!(run.metadata("link_kind"), "generated-stub", "{}", run.report());
    let stub = case.out_dir().join("stub");
    let main = case.dir.join("main.c");
    fs::write(
        &main,
        "#include <stdio.h>\nint cuDriverGetVersion(int *);\nint cuInit(unsigned);\n\
         int main(void) { int v = 0; int r = cuDriverGetVersion(&v); printf(\"%d %d %d\\n\", r, v, cuInit(0)); return 0; }\n",
    )
    .unwrap();
    let exe = case.dir.join("main");
    let built = Command::new(&bti_gcc)
        .arg(&main)
        .arg("-o")
        .arg(&exe)
        .arg(format!("-L{}", stub.display()))
        .arg("-l:libcuda.so.1")
        .status()
        .unwrap();
    assert!(built.success(), "could not link an aarch64 program against the stand-in");
    let out = Command::new(qemu)
        .args(["-cpu", "max", "-L", "/usr/aarch64-linux-gnu", "-E"])
        .arg(format!("LD_LIBRARY_PATH={}", stub.display()))
        .arg(&exe)
        .output()
        .unwrap();
    assert!(out.status.success(), "{:?}: {}", out.status, String::from_utf8_lossy(&out.stderr));
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "34 0 34");
}
