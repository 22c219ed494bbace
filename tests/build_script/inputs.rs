//! Inputs that must be said as they are.

use crate::harness::*;

// ---------------------------------------------------------------------------
// Inputs that must be said as they are.

#[test]
fn a_floor_that_cannot_date_a_function_is_an_error() {
    if linking_untestable() || generation_unavailable() {
        return;
    }
    // cudaTypedefs.h of another release than cuda.h: here one without the
    // PFN_ types of cuMemPoolGetAttribute.
    let mut case = Case::new("floor_undated");
    let typedefs = fs::read_to_string(Path::new(&*REAL_INCLUDE).join("cudaTypedefs.h")).unwrap();
    let older: String = typedefs
        .lines()
        .filter(|l| !l.contains("PFN_cuMemPoolGetAttribute"))
        .map(|l| format!("{l}\n"))
        .collect();
    let include = include_with(&case, "include", &[("cudaTypedefs.h", older)]);
    let run =
        case.env("LIBCUDA_SYS_INCLUDE_DIR", &include).env("LIBCUDA_SYS_DRIVER_FLOOR", "12.2").run();
    run.failure(
        "LIBCUDA_SYS_DRIVER_FLOOR=12.2: cudaTypedefs.h does not say which driver 1 bound functions need",
    );
    run.assert_stderr_has(&["cuMemPoolGetAttribute", "different CUDA releases"]);
    assert!(run.directive("metadata").iter().all(|m| !m.starts_with("driver_floor=")));
}

#[test]
fn a_symlink_makes_an_unpassable_include_directory_usable() {
    if generation_unavailable() {
        return;
    }
    let mut case = Case::new("colon_dir");
    let odd = case.small_headers("with:colon/include");
    let plain = case.dir.join("plain-include");
    symlink(&odd, &plain).unwrap();
    let run = case.env("LIBCUDA_SYS_INCLUDE_DIR", &odd).run();
    run.failure("contains the path-list separator");
    run.assert_stderr_has(&["a symlink to it"]);
    // The advice works: the symlink is passed on as it is.
    let mut case = Case::new("colon_dir_symlink");
    let run = case.env("LIBCUDA_SYS_INCLUDE_DIR", &plain).run();
    assert_eq!(run.code, Some(0), "{}", run.report());
    assert_eq!(Path::new(run.metadata("include")), plain);
}

#[test]
fn a_floor_with_dynamic_loading_is_said_to_do_nothing() {
    let run = Case::new("floor_dynamic")
        .env("LIBCUDA_SYS_BINDINGS", "pregenerated")
        .feature("dynamic-loading")
        .env("LIBCUDA_SYS_DRIVER_FLOOR", "13.0")
        .run();
    assert_eq!(run.code, Some(0), "{}", run.report());
    assert!(
        run.warnings()
            .iter()
            .any(|w| w.contains("LIBCUDA_SYS_DRIVER_FLOOR=13.0 has no effect with dynamic-loading")),
        "{}",
        run.report()
    );
    assert_eq!(run.metadata("driver_floor"), "");
}

#[test]
fn macros_in_cflags_that_change_the_api_are_errors() {
    // With the per-thread-default-stream feature, its define is the feature's own.
    for with_ptds in [false, true] {
        cflags_api_macros(with_ptds);
    }
}

fn cflags_api_macros(with_ptds: bool) {
    let new_case = |name| {
        let mut case = Case::new(name);
        if with_ptds {
            case.feature("per-thread-default-stream");
        }
        case
    };
    let ptds_on = with_ptds || own_features().contains(&"per-thread-default-stream");
    let ptds = (!ptds_on).then_some("CUDA_API_PER_THREAD_DEFAULT_STREAM");
    for name in ptds.into_iter().chain(["__CUDA_API_VERSION_INTERNAL"]) {
        let mut case = new_case("cflags_api_macro");
        let include = case.header("include", "#define CUDA_VERSION 13000\n");
        let flags = format!("-D{name}");
        let run = case.env("LIBCUDA_SYS_INCLUDE_DIR", &include).env("CFLAGS", &flags).run();
        run.failure(&format!("{name} is defined by the C flags (CFLAGS={flags})"));
        run.assert_stderr_has(&["plain-name aliases", "Fix:"]);
        // The same defines for bindgen alone, in each way bindgen takes them.
        let underscored = format!("BINDGEN_EXTRA_CLANG_ARGS_{}", TARGET.replace('-', "_"));
        let vars = [
            "BINDGEN_EXTRA_CLANG_ARGS".to_string(),
            format!("BINDGEN_EXTRA_CLANG_ARGS_{TARGET}"),
            underscored,
        ];
        for (var, flags) in
            vars.iter().zip([format!("-D{name}"), format!("-I/x -D {name}"), format!("-D{name}=1")])
        {
            let mut case = new_case("bindgen_api_macro");
            let include = case.header("include", "#define CUDA_VERSION 13000\n");
            let run = case.env("LIBCUDA_SYS_INCLUDE_DIR", &include).env(var, &flags).run();
            run.failure(&format!("{name} is defined by {var}={flags}"));
        }
    }
}

/// A flag that makes libclang drop every function (a calling convention
/// bindgen cannot bind) fails generation, naming the flag, instead of
/// bindings that the crate's own code then fails to compile against.
#[test]
fn a_generation_that_binds_no_function_is_an_error_naming_the_flag() {
    if generation_unavailable() {
        return;
    }
    let mut case = Case::new("no_functions");
    let flags = "-Xclang -fdefault-calling-conv=vectorcall";
    let include = case.small_headers("include");
    case.env("LIBCUDA_SYS_INCLUDE_DIR", &include).env("BINDGEN_EXTRA_CLANG_ARGS", flags);
    let run = case.env("LIBCUDA_SYS_BINDINGS", "generate").run();
    run.failure("functions and not cuInit, which every cuda.h declares");
    run.assert_stderr_has(&[&format!("BINDGEN_EXTRA_CLANG_ARGS={flags}"), "Fix: remove it"]);
}

#[test]
fn an_unreadable_include_directory_or_typedefs_header_is_said_so() {
    use std::os::unix::fs::MetadataExt;
    // Root reads whatever the permissions say: run the script as nobody then.
    let root = fs::metadata("/proc/self").map(|m| m.uid() == 0).unwrap_or(false);
    let new_case = |name| if root { Case::as_user(name, 65534) } else { Some(Case::new(name)) };
    let Some(mut case) = new_case("unreadable_include") else { return };
    let include = case.header("include", "#define CUDA_VERSION 13000\n");
    fs::set_permissions(&include, fs::Permissions::from_mode(0o000)).unwrap();
    case.env("LIBCUDA_SYS_INCLUDE_DIR", &include);
    let run = case.run();
    fs::set_permissions(&include, fs::Permissions::from_mode(0o755)).unwrap();
    run.failure(&format!(
        "LIBCUDA_SYS_INCLUDE_DIR={} cannot be read: permission denied",
        include.display()
    ));

    if generation_unavailable() {
        return;
    }
    let Some(mut case) = new_case("unreadable_typedefs") else { return };
    let include = case.small_headers("include");
    let file = include.join("cudaTypedefs.h");
    fs::write(&file, "#include \"cuda.h\"\n").unwrap();
    fs::set_permissions(&file, fs::Permissions::from_mode(0o000)).unwrap();
    case.env("LIBCUDA_SYS_INCLUDE_DIR", &include);
    let run = case.run();
    run.failure(&format!("cannot read {}: Permission denied", file.display()));
}

#[test]
fn the_program_cc_could_not_run_is_named() {
    // A wrapper that is not there: it, not the compiler behind it, is missing.
    let mut case = Case::new("cc_wrapper_missing");
    let include = case.header("include", "#define CUDA_VERSION 13000\n");
    let run = case.env("LIBCUDA_SYS_INCLUDE_DIR", &include).env("CC", "no-such-wrapper gcc").run();
    run.failure("no C compiler found: no-such-wrapper cannot be run");
}

#[test]
fn a_cc_with_a_wrapper_builds_the_stand_in() {
    let mut case = Case::with_tools("cc_env_wrapper", &["cc", "gcc", "as", "ld", "env"]);
    let run = case.env("LIBCUDA_SYS_BINDINGS", "pregenerated").env("CC", "env gcc").run();
    assert_eq!(run.code, Some(0), "{}", run.report());
    if run.metadata("link_kind") == "generated-stub" {
        let so = fs::read(case.out_dir().join("stub/libcuda.so.1")).unwrap();
        assert!(so.starts_with(b"\x7fELF"), "the stand-in is not a shared library");
    }
}

#[test]
fn a_cc_that_builds_no_library_is_an_error() {
    if linking_untestable() {
        return;
    }
    let mut case = Case::with_tools("cc_cpp", &["cpp", "cc", "gcc", "as", "ld"]);
    let cpp = case.bin.join("cpp");
    let run = case.env("LIBCUDA_SYS_BINDINGS", "pregenerated").env("CC", &cpp).run();
    if run.metadata_or_empty("link_kind") == "driver" {
        return testkit::skip("this machine has a driver: no stand-in is built");
    }
    run.failure(&format!(
        "the C compiler {} did not build a shared library for the stand-in libcuda",
        cpp.display()
    ));
}

#[test]
fn no_cross_compiler_names_the_one_cc_looked_for() {
    let mut case = Case::with_tools("no_riscv_compiler", &[]);
    let include = case.header("include", "#define CUDA_VERSION 13000\n");
    let run = case
        .env("TARGET", "riscv64gc-unknown-linux-gnu")
        .env("CARGO_CFG_TARGET_ARCH", "riscv64")
        .env("LIBCUDA_SYS_INCLUDE_DIR", &include)
        .run();
    run.failure("no C compiler found: riscv64-linux-gnu-gcc cannot be run");
    run.assert_stderr_has(&[
        "apt-get install gcc-riscv64-linux-gnu",
        "CC_riscv64gc_unknown_linux_gnu=riscv64-linux-gnu-gcc",
    ]);
    assert!(!run.stderr.contains("gcc-riscv64gc"), "{}", run.report());
}

#[test]
fn an_empty_or_zero_docs_rs_is_unset() {
    if !installed_toolkit_headers().is_empty() {
        return testkit::skip("this machine has CUDA headers in a standard location");
    }
    for value in ["", "0"] {
        let run =
            Case::new("docs_rs_off").env("LIBCUDA_SYS_BINDINGS", "").env("DOCS_RS", value).run();
        // Searched, as without DOCS_RS: nothing found, so the fallback and its
        // warning, not a docs.rs build (which says nothing).
        assert_eq!(run.code, Some(0), "{}", run.report());
        assert!(
            run.warnings().iter().any(|w| w.contains("because no CUDA headers (cuda.h) found")),
            "DOCS_RS={value:?}: {}",
            run.report()
        );
    }
}

#[test]
fn a_wrong_root_variable_is_an_error_beside_a_good_include_dir() {
    let mut case = Case::new("include_dir_and_wrong_cuda_path");
    let include = case.header("include", "#define CUDA_VERSION 13000\n");
    let run = case
        .env("LIBCUDA_SYS_BINDINGS", "pregenerated")
        .env("LIBCUDA_SYS_INCLUDE_DIR", &include)
        .env("CUDA_PATH", "/nonexistent")
        .run();
    run.failure("CUDA_PATH=/nonexistent does not exist");
}

#[test]
fn a_root_variable_naming_the_include_directory_is_told_its_parent() {
    let mut case = Case::new("cuda_path_is_include");
    let include = case.header("toolkit/include", "#define CUDA_VERSION 13000\n");
    let run = case.env("LIBCUDA_SYS_BINDINGS", "pregenerated").env("CUDA_PATH", &include).run();
    run.failure(&format!("CUDA_PATH={} has no cuda.h", include.display()));
    run.assert_stderr_has(&[
        "holds cuda.h itself",
        &format!("Set CUDA_PATH={}", case.dir.join("toolkit").display()),
    ]);
}

/// A damaged `CUDA_VERSION` is refused at once, not turned into millions of
/// cfg lines; one in a comment or an `#if 0` block is not the header's.
#[test]
fn cuda_version_is_read_as_the_compiler_reads_it() {
    let mut case = Case::new("version_damaged");
    let include = case.header("include", "#define CUDA_VERSION 4294967295\n");
    let start = std::time::Instant::now();
    let run = case
        .env("LIBCUDA_SYS_INCLUDE_DIR", &include)
        .env("LIBCUDA_SYS_BINDINGS", "pregenerated")
        .run();
    run.failure("does not define CUDA_VERSION as a CUDA release");
    assert!(start.elapsed().as_secs() < 20, "took {:?}", start.elapsed());

    let mut case = Case::new("version_in_comment");
    let include = case.header(
        "include",
        "/* #define CUDA_VERSION 11080 */\n#if 0\n#define CUDA_VERSION 11070\n#endif\n#define CUDA_VERSION 13000\n",
    );
    let run = case
        .env("LIBCUDA_SYS_INCLUDE_DIR", &include)
        .env("LIBCUDA_SYS_BINDINGS", "pregenerated")
        .run();
    assert_eq!(run.code, Some(0), "{}", run.report());
    assert_eq!(run.metadata("version"), "13000");
}

/// One build binds one release: other headers put first for the preprocessor
/// (`CFLAGS=-include`) or for bindgen (`BINDGEN_EXTRA_CLANG_ARGS`) stop it,
/// with both releases named.
#[test]
fn the_preprocessor_and_bindgen_read_one_release() {
    if generation_unavailable() {
        return;
    }
    for (name, var) in
        [("two_releases_cflags", "CFLAGS"), ("two_releases_bindgen", "BINDGEN_EXTRA_CLANG_ARGS")]
    {
        let mut case = Case::new(name);
        // Another release's cuda.h, included first: its guard hides the named one.
        // (CFLAGS splits on spaces, and the case's directory has one.)
        let other =
            std::env::temp_dir().join(format!("libcuda-sys-{name}-{}.h", std::process::id()));
        let text = "#define __cuda_cuda_h__\n#define CUDA_VERSION 12020\n#define CUDAAPI\n\
                    typedef enum cudaError_enum { CUDA_SUCCESS = 0 } CUresult;\n";
        fs::write(&other, text).unwrap();
        let flag = format!("-include {}", other.display());
        let include = case.small_headers("include");
        let run = case.env("LIBCUDA_SYS_INCLUDE_DIR", &include).env(var, &flag).run();
        run.failure("the C preprocessor and bindgen read two releases");
        run.assert_stderr_has(&["CUDA_VERSION", "12020", "BINDGEN_EXTRA_CLANG_ARGS"]);
        let _ = fs::remove_file(&other);
    }
}

/// A directory this user cannot reach (a parent without search permission) is
/// said to be that, not to be missing.
#[test]
fn an_unreachable_directory_is_not_called_missing() {
    use std::os::unix::fs::MetadataExt;
    let root = fs::metadata("/proc/self").map(|m| m.uid() == 0).unwrap_or(false);
    for (name, var) in
        [("unreachable_home", "CUDA_HOME"), ("unreachable_lib", "LIBCUDA_SYS_LIB_DIR")]
    {
        let case = if root { Case::as_user(name, 65534) } else { Some(Case::new(name)) };
        let Some(mut case) = case else { return };
        let locked = case.mkdir("locked");
        let inside = case.mkdir("locked/cuda");
        case.header("locked/cuda/include", "#define CUDA_VERSION 13000\n");
        fs::set_permissions(&locked, fs::Permissions::from_mode(0o700)).unwrap();
        let run = case.env(var, &inside).env("LIBCUDA_SYS_BINDINGS", "pregenerated").run();
        fs::set_permissions(&locked, fs::Permissions::from_mode(0o755)).unwrap();
        run.failure(&format!("{var}={} cannot be reached: permission denied", inside.display()));
    }
}

/// A `cudaTypedefs.h` of another release than `cuda.h` (it lacks types of
/// bound functions) builds, with a warning that names the mix.
#[test]
fn typedefs_of_another_release_are_warned_of() {
    if generation_unavailable() {
        return;
    }
    let case = Case::new("mixed_typedefs");
    let typedefs = fs::read_to_string(Path::new(&*REAL_INCLUDE).join("cudaTypedefs.h")).unwrap();
    // An older release's: without the memory-pool functions' types.
    let older: String =
        typedefs.lines().filter(|l| !l.contains("cuMemPool")).map(|l| format!("{l}\n")).collect();
    let include = include_with(&case, "include", &[("cudaTypedefs.h", older)]);
    let mut case = case;
    let run = case.env("LIBCUDA_SYS_INCLUDE_DIR", &include).run();
    assert_eq!(run.code, Some(0), "{}", run.report());
    assert!(
        run.warnings().iter().any(|w| w.contains("types no ABI for") && w.contains("cuMemPool")),
        "{}",
        run.report()
    );
}

/// A NUL byte in a comment of `cuda.h` ends what libclang reads of it: the
/// build says so, naming the line, rather than shortening the docs silently.
#[test]
fn a_nul_byte_in_the_header_is_warned_of() {
    if generation_unavailable() {
        return;
    }
    let case = Case::new("nul_in_comment");
    let text = small_cuda_h();
    let at = text.find("CUresult cuInit(").expect("cuInit");
    let line = 1 + text[..at].matches('\n').count();
    // Inside cuInit's comment, a few lines above its declaration.
    let comment = text[..at].rfind("\\brief").expect("cuInit's comment");
    let damaged = format!("{}\0{}", &text[..comment], &text[comment..]);
    let nul_line = 1 + text[..comment].matches('\n').count();
    assert!(nul_line < line);
    let include = case.header("include", &damaged);
    let mut case = case;
    let run = case.env("LIBCUDA_SYS_INCLUDE_DIR", &include).run();
    assert_eq!(run.code, Some(0), "{}", run.report());
    let said = format!("holds a NUL byte on line {nul_line}");
    assert!(run.warnings().iter().any(|w| w.contains(&said)), "{said}\n{}", run.report());
}

/// The refusal of a 32-bit target is lines of its own, not the source's
/// indentation of its text.
#[test]
fn the_32_bit_refusal_is_not_indented() {
    let mut case = Case::new("i686_refusal_text");
    let run = case
        .env("TARGET", "i686-unknown-linux-gnu")
        .env("CARGO_CFG_TARGET_ARCH", "x86")
        .env("CARGO_CFG_TARGET_POINTER_WIDTH", "32")
        .env("LIBCUDA_SYS_BINDINGS", "pregenerated")
        .run();
    run.failure("libcuda-sys supports 64-bit targets only, not i686-unknown-linux-gnu");
    run.assert_explanation_unindented();
}

/// `-D` spelled with shell quotes, as bindgen splits `BINDGEN_EXTRA_CLANG_ARGS`
/// (`-D"NAME"` is `-DNAME` to it), is found like the plain spelling.
#[test]
fn quoted_api_macros_for_bindgen_are_errors() {
    let ptds_on = own_features().contains(&"per-thread-default-stream");
    let ptds = (!ptds_on).then_some("CUDA_API_PER_THREAD_DEFAULT_STREAM");
    for name in ptds.into_iter().chain(["__CUDA_API_VERSION_INTERNAL"]) {
        for flags in [
            format!("-D\"{name}\""),
            format!("-D '{name}=1'"),
            format!("--define-macro=\"{name}\""),
        ] {
            let mut case = Case::new("bindgen_quoted_api_macro");
            let include = case.header("include", "#define CUDA_VERSION 13000\n");
            let run = case
                .env("LIBCUDA_SYS_INCLUDE_DIR", &include)
                .env("BINDGEN_EXTRA_CLANG_ARGS", &flags)
                .run();
            run.failure(&format!("{name} is defined by BINDGEN_EXTRA_CLANG_ARGS={flags}"));
        }
    }
}

/// However the macros reach bindgen (here from a file that
/// `BINDGEN_EXTRA_CLANG_ARGS` has it read first), bindings that declare
/// another ABI than the features say are refused, naming the variable.
#[test]
fn bindings_of_another_abi_than_the_features_are_refused() {
    if generation_unavailable() {
        return;
    }
    let ptds_on = own_features().contains(&"per-thread-default-stream");
    let mut cases: Vec<(&str, &str, &str, bool)> = vec![(
        "abi_internal_imacros",
        "#define __CUDA_API_VERSION_INTERNAL 1\n",
        "-imacros",
        false,
    )];
    if !ptds_on {
        cases.push((
            "abi_ptds_include",
            "#define CUDA_API_PER_THREAD_DEFAULT_STREAM 1\n",
            "-include",
            false,
        ));
    }
    // With the feature, a file that takes the define back.
    cases.push((
        "abi_ptds_undone",
        "#undef CUDA_API_PER_THREAD_DEFAULT_STREAM\n",
        "-include",
        true,
    ));
    for (name, text, option, feature) in cases {
        let mut case = Case::new(name);
        if feature {
            case.feature("per-thread-default-stream");
        }
        let file = case.dir.join("api macros.h");
        fs::write(&file, text).unwrap();
        // Quoted: the case's directory has a space in it.
        let flags = format!("{option} '{}'", file.display());
        // The legacy ABI as the whole header declares it; the per-thread
        // default stream through the small one's renamed stream function.
        let include = match name {
            "abi_internal_imacros" => PathBuf::from(&*REAL_INCLUDE),
            _ => case.small_headers("include"),
        };
        let run = case
            .env("LIBCUDA_SYS_INCLUDE_DIR", &include)
            .env("BINDGEN_EXTRA_CLANG_ARGS", &flags)
            .run();
        let summary = match (name, feature) {
            ("abi_internal_imacros", _) => "the bindings declare the legacy ABI",
            (_, false) => "the bindings declare per-thread default-stream functions",
            (_, true) => "the bindings declare no per-thread default-stream function",
        };
        run.failure(summary);
        run.assert_stderr_has(&[&format!("BINDGEN_EXTRA_CLANG_ARGS={flags}")]);
    }
}

/// A header comment may read like Rust: the crate's lines still go before the
/// items themselves, once, and the files stay Rust.
#[test]
fn a_header_comment_that_reads_like_an_item_is_text() {
    if generation_unavailable() {
        return;
    }
    let mut case = Case::new("comment_like_items");
    let cuda_h = fs::read_to_string(Path::new(&*REAL_INCLUDE).join("cuda.h")).unwrap();
    let said = " * \\brief Initialize the CUDA driver API\n * In Rust: pub fn cuInit(x), \"pub const CU_MEMHOSTALLOC_PORTABLE\", pub struct CUDA_MEMCPY2D_st {\n";
    let patched = cuda_h.replacen(" * \\brief Initialize the CUDA driver API\n", said, 1);
    assert_ne!(patched, cuda_h, "cuInit's comment not found");
    let include = include_with(&case, "include", &[("cuda.h", patched)]);
    let run =
        case.env("LIBCUDA_SYS_INCLUDE_DIR", &include).env("LIBCUDA_SYS_BINDINGS", "generate").run();
    run.assert_no_panic();
    for file in ["functions.rs", "bindings.rs"] {
        let text = fs::read_to_string(case.out_dir().join(file)).unwrap();
        let parsed = libcuda_sys_build::make::items::parse(&text);
        assert!(parsed.is_ok(), "{file} is no longer Rust: {:?}", parsed.err());
    }
    let functions = fs::read_to_string(case.out_dir().join("functions.rs")).unwrap();
    let summary = libcuda_sys_build::sentences::summary("cuInit").unwrap();
    assert_eq!(functions.matches(&format!("{summary:?}")).count(), 1, "cuInit's summary, once");
}

/// A flag that reaches bindgen alone and changes how types are laid out
/// (`-fpack-struct=1`, `-fshort-enums` in `BINDGEN_EXTRA_CLANG_ARGS`) is
/// refused, naming the structs and enums whose layout it changes; one that
/// changes none passes.
#[test]
fn a_flag_that_changes_layouts_is_refused() {
    if generation_unavailable() {
        return;
    }
    // The types named are the first few of those that differ, which depends on
    // the release: what each line must show does not. The whole header once;
    // the cases after it read the small one, whose struct and enum the flags
    // change the same way.
    for (flag, differs, whole) in [
        // A struct packed to 1.
        ("-fpack-struct=1", &["_st (bindgen: ", " bytes, align 1)"][..], true),
        // Every enum 1 or 2 bytes wide: also where no struct's size changes.
        ("-fshort-enums", &[" (bindgen: 1 byte, align 1)"], false),
    ] {
        let mut case = Case::new("layout_flag");
        let include = match whole {
            true => PathBuf::from(&*REAL_INCLUDE),
            false => case.small_headers("include"),
        };
        let run = case
            .env("LIBCUDA_SYS_INCLUDE_DIR", &include)
            .env("BINDGEN_EXTRA_CLANG_ARGS", flag)
            .run();
        run.assert_no_panic();
        let summary = run.warnings().first().map(|w| w.to_string()).unwrap_or_default();
        assert!(
            summary.starts_with("BINDGEN_EXTRA_CLANG_ARGS changes the layout of")
                && summary.ends_with("of cuda.h's types"),
            "{flag}: {}",
            run.report()
        );
        run.assert_stderr_has(&[differs, &["packing"]].concat());
    }
    // The same packing in CFLAGS too: the reference is C's natural layout,
    // not the user's C compiler flags. Packing in CFLAGS alone changes no binding.
    let pack = std::env::temp_dir().join(format!("libcuda-sys-pack-{}.h", std::process::id()));
    fs::write(&pack, "#pragma pack(push, 4)\n").unwrap();
    let include = format!("-include {}", pack.display());
    let cflags_target = format!("CFLAGS_{}", TARGET.replace('-', "_"));
    for (name, bindgen, cflags_var, cflags) in [
        ("layout_flag_both", Some("-fpack-struct=1"), "CFLAGS", "-fpack-struct=1"),
        (
            "layout_flag_both_target",
            Some("-fpack-struct=1"),
            cflags_target.as_str(),
            "-fpack-struct=1",
        ),
        ("layout_pragma_both", Some(include.as_str()), "CFLAGS", include.as_str()),
        ("layout_flag_cflags_alone", None, "CFLAGS", "-fpack-struct=1"),
    ] {
        let mut case = Case::new(name);
        let small = case.small_headers("include");
        case.env("LIBCUDA_SYS_INCLUDE_DIR", &small).env(cflags_var, cflags);
        if let Some(flag) = bindgen {
            case.env("BINDGEN_EXTRA_CLANG_ARGS", flag);
        }
        let run = case.run();
        run.assert_no_panic();
        if bindgen.is_none() {
            assert_eq!(run.code, Some(0), "{name}: {}", run.report());
            continue;
        }
        let summary = run.warnings().first().map(|w| w.to_string()).unwrap_or_default();
        assert!(
            summary.starts_with("BINDGEN_EXTRA_CLANG_ARGS changes the layout of"),
            "{name}: {}",
            run.report()
        );
        run.assert_stderr_has(&[
            &format!("CFLAGS added `{cflags}`"),
            "which this check leaves out",
        ]);
    }
    let _ = fs::remove_file(&pack);
    let mut case = Case::new("layout_flag_harmless");
    let small = case.small_headers("include");
    let run = case
        .env("LIBCUDA_SYS_INCLUDE_DIR", &small)
        .env("BINDGEN_EXTRA_CLANG_ARGS", "-DLIBCUDA_SYS_UNUSED=1")
        .run();
    assert_eq!(run.code, Some(0), "{}", run.report());
}
