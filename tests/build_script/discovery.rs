//! Finding the headers: nothing found, explicit settings that are wrong, and
//! headers that are not usable.

use crate::harness::*;

// ---------------------------------------------------------------------------
// 1. Nothing found.

#[test]
fn no_headers_anywhere_is_a_clear_error() {
    let installed = installed_toolkit_headers();
    if !installed.is_empty() {
        return testkit::skip(&format!("this machine has CUDA headers in a standard location ({installed:?}), so the search cannot come up empty"));
    }
    let run = Case::new("no_headers").run();
    if run.code == Some(0) {
        return testkit::skip(&format!(
            "the search found headers on this machine: {} ({})",
            run.metadata("include"),
            run.metadata("found_by")
        ));
    }
    run.failure("no CUDA headers (cuda.h) found");
    // No Python on the case's PATH: said as such, not as "nothing on sys.path".
    run.assert_stderr_has(&["pip wheels: no python3 on PATH", "no Python to ask for its sys.path"]);
    run.assert_stderr_has(&[
        "found none",
        &format!("$TARGET = {TARGET}"),
        "Variables consulted",
        "Places tried:",
        "nvcc on PATH: nothing to try",
        "pkg-config: nothing to try",
        "conda ($CONDA_PREFIX): nothing to try",
        "pip wheel: nothing to try",
        "standard location: /usr/local/cuda/include (not a directory)",
        "standard location: /usr/include (no cuda.h)",
        "Fix one of:",
        "pip install nvidia-cuda-runtime",
        "set CUDA_PATH",
        "set LIBCUDA_SYS_INCLUDE_DIR",
        "or use the crate's pregenerated bindings",
    ]);
    let mut vars = always_read();
    vars.extend(ROOT_VARS.map(String::from));
    vars.extend(
        ["PATH", "PKG_CONFIG_PATH", "CONDA_PREFIX", "VIRTUAL_ENV", "PYTHONPATH"].map(String::from),
    );
    run.assert_reruns(&vars);
}

// ---------------------------------------------------------------------------
// 2.-4. Explicit settings that are wrong are errors, never silently replaced.

#[test]
fn include_dir_override_must_hold_cuda_h() {
    let mut case = Case::new("include_dir_wrong");
    // A valid toolkit elsewhere, which must not be used instead.
    let other = case.toolkit("other");

    let run =
        case.env("LIBCUDA_SYS_INCLUDE_DIR", "/nonexistent/include").env("CUDA_PATH", &other).run();
    run.failure("LIBCUDA_SYS_INCLUDE_DIR=/nonexistent/include does not exist");
    run.assert_stderr_has(&[
        "LIBCUDA_SYS_INCLUDE_DIR must name the directory that holds cuda.h",
        "Looked for:\n  /nonexistent/include/cuda.h",
        "pip install nvidia-cuda-runtime",
        "unset LIBCUDA_SYS_INCLUDE_DIR",
    ]);

    let mut case = Case::new("include_dir_empty");
    let empty = case.mkdir("empty");
    let run = case.env("LIBCUDA_SYS_INCLUDE_DIR", &empty).run();
    run.failure(&format!("LIBCUDA_SYS_INCLUDE_DIR={} has no cuda.h", empty.display()));
    run.assert_stderr_has(&[
        &format!("Looked for:\n  {}", empty.join("cuda.h").display()),
        "e.g. LIBCUDA_SYS_INCLUDE_DIR=/usr/local/cuda/include",
    ]);

    // The header itself instead of its directory: a common slip.
    let mut case = Case::new("include_dir_is_file");
    let file = case.header("inc", "#define CUDA_VERSION 13000\n").join("cuda.h");
    let run = case.env(prefixed("LIBCUDA_SYS_INCLUDE_DIR"), &file).run();
    run.failure(&format!(
        "{}={} is not a directory",
        prefixed("LIBCUDA_SYS_INCLUDE_DIR"),
        file.display()
    ));
}

#[test]
fn cuda_path_without_cuda_h_is_an_error() {
    let mut case = Case::new("cuda_path_wrong");
    let empty = case.mkdir("not-a-toolkit");
    // CUDA_HOME is valid but comes after CUDA_PATH: a wrong CUDA_PATH is not skipped.
    let home = case.toolkit("home");
    let run = case.env("CUDA_PATH", &empty).env("CUDA_HOME", &home).run();
    run.failure(&format!("CUDA_PATH={} has no cuda.h", empty.display()));
    run.assert_stderr_has(&[
        "CUDA_PATH must name a CUDA toolkit root (the directory above include/cuda.h)",
        &format!("  {}", empty.join("include/cuda.h").display()),
        &format!(
            "  {}",
            empty.join("targets").join(TOOLKIT_TARGET_DIR).join("include/cuda.h").display()
        ),
        "e.g. CUDA_PATH=/usr/local/cuda",
        "unset CUDA_PATH",
    ]);
    run.assert_reruns(&ROOT_VARS);
}

#[test]
fn lib_dir_override_that_does_not_exist_is_an_error() {
    let run = Case::new("lib_dir_missing")
        .env("LIBCUDA_SYS_LIB_DIR", "/nonexistent/lib64")
        .env("LIBCUDA_SYS_INCLUDE_DIR", &*REAL_INCLUDE)
        .run();
    run.failure("LIBCUDA_SYS_LIB_DIR=/nonexistent/lib64 is not a directory");
    run.assert_stderr_has(&[
        "holds libcuda.so",
        "It is set to /nonexistent/lib64",
        "Fix: point it at the driver's library directory",
        "unset LIBCUDA_SYS_LIB_DIR",
    ]);
}

#[test]
fn lib_dir_override_without_libcuda_is_an_error() {
    if linking_untestable() {
        return;
    }
    let mut case = Case::new("lib_dir_empty");
    let lib = case.mkdir("lib");
    // The pregenerated bindings: linking is the same for both, and needs no headers.
    let run =
        case.env("LIBCUDA_SYS_LIB_DIR", &lib).env("LIBCUDA_SYS_BINDINGS", "pregenerated").run();
    run.failure(&format!("LIBCUDA_SYS_LIB_DIR={} holds no libcuda", lib.display()));
    run.assert_stderr_has(&["Looked for libcuda.so, libcuda.so.1", "ldconfig -p | grep libcuda"]);
}

#[test]
fn a_text_file_named_libcuda_is_not_a_library() {
    if linking_untestable() {
        return;
    }
    let mut case = Case::new("lib_dir_text_file");
    let lib = case.mkdir("lib");
    fs::write(lib.join("libcuda.so"), "INPUT(nothing here)\n").unwrap();
    let run =
        case.env("LIBCUDA_SYS_LIB_DIR", &lib).env("LIBCUDA_SYS_BINDINGS", "pregenerated").run();
    run.failure(&format!("LIBCUDA_SYS_LIB_DIR={} holds no libcuda", lib.display()));
    run.assert_stderr_has(&[
        "is not a shared library (no ELF header), passed over",
        "that is not a shared library does not count",
    ]);
}

#[test]
fn a_stub_named_as_the_driver_directory_is_not_taken_for_the_driver() {
    if linking_untestable() {
        return;
    }
    // The toolkit's stubs directory.
    let mut case = Case::new("lib_dir_toolkit_stub");
    let stubs = case.mkdir("cuda/lib64/stubs");
    fs::write(stubs.join("libcuda.so"), ELF_STAND_IN).unwrap();
    let run =
        case.env("LIBCUDA_SYS_LIB_DIR", &stubs).env("LIBCUDA_SYS_BINDINGS", "pregenerated").run();
    assert_eq!(run.metadata("link_kind"), "generated-stub", "{}", run.report());
    assert!(run.stderr.contains("passed over for the stand-in"), "{}", run.report());
    // The crate's own stand-in, from an earlier build's OUT_DIR.
    let run =
        Case::new("lib_dir_stand_in_source").env("LIBCUDA_SYS_BINDINGS", "pregenerated").run();
    if run.metadata("link_kind") != "generated-stub" {
        return testkit::skip("this machine has a libcuda, so no stand-in is built");
    }
    let mut case = Case::new("lib_dir_stand_in");
    let copy = case.mkdir("lib");
    let source = cases_root()
        .join("lib_dir_stand_in_source/target/debug/build/libcuda-sys-0/out/stub/libcuda.so.1");
    fs::copy(source, copy.join("libcuda.so.1")).unwrap();
    let run =
        case.env("LIBCUDA_SYS_LIB_DIR", &copy).env("LIBCUDA_SYS_BINDINGS", "pregenerated").run();
    assert_eq!(run.metadata("link_kind"), "generated-stub", "{}", run.report());
    // Said to be what the variable names, not a stand-in built in OUT_DIR
    // with the advice to set the variable the user did set.
    let said = format!("LIBCUDA_SYS_LIB_DIR={} holds a stand-in", copy.display());
    assert!(run.warnings().iter().any(|w| w.contains(&said)), "{}", run.report());
    assert!(!run.stderr.contains("set LIBCUDA_SYS_LIB_DIR to link a real one"), "{}", run.report());
}

#[test]
fn a_libcuda_of_another_architecture_is_not_taken() {
    if linking_untestable() {
        return;
    }
    let other = if ELF_MACHINE == EM_X86_64 { EM_AARCH64 } else { EM_X86_64 };
    let mut case = Case::new("lib_dir_other_arch");
    let lib = case.mkdir("lib");
    fs::write(lib.join("libcuda.so.1"), elf_header(other)).unwrap();
    let run =
        case.env("LIBCUDA_SYS_LIB_DIR", &lib).env("LIBCUDA_SYS_BINDINGS", "pregenerated").run();
    run.failure(&format!("LIBCUDA_SYS_LIB_DIR={} holds no libcuda", lib.display()));
    run.assert_stderr_has(&[&format!(
        "is a library for another architecture (ELF class 2, machine {other})"
    )]);
    // A 32-bit driver.
    let mut case = Case::new("lib_dir_32_bit");
    let lib = case.mkdir("lib");
    let mut header = elf_header(ELF_MACHINE);
    header[4] = 1;
    fs::write(lib.join("libcuda.so.1"), header).unwrap();
    let run =
        case.env("LIBCUDA_SYS_LIB_DIR", &lib).env("LIBCUDA_SYS_BINDINGS", "pregenerated").run();
    run.failure(&format!("LIBCUDA_SYS_LIB_DIR={} holds no libcuda", lib.display()));
    run.assert_stderr_has(&["is a library for another architecture (ELF class 1"]);
}

#[test]
fn an_out_dir_with_a_line_break_is_refused_in_every_mode() {
    for feature in [None, Some("dynamic-loading")] {
        let mut case = Case::new("out_dir_line_break");
        if let Some(f) = feature {
            case.feature(f);
        }
        let odd = case.mkdir("odd\nout");
        let run = case.env("LIBCUDA_SYS_BINDINGS", "pregenerated").out_dir_at(odd).run();
        run.failure("OUT_DIR");
        assert!(run.stderr.contains("contains a line break"), "{}", run.report());
    }
}

#[test]
fn a_cuda_h_that_is_no_file_is_called_what_it_is() {
    let mut case = Case::new("cuda_h_odd");
    let dangling = case.mkdir("dangling");
    symlink(case.dir.join("nowhere.h"), dangling.join("cuda.h")).unwrap();
    let looped = case.mkdir("loop");
    symlink(looped.join("cuda.h"), looped.join("cuda.h")).unwrap();
    let dir = case.mkdir("dir");
    fs::create_dir(dir.join("cuda.h")).unwrap();
    for (include, said) in [
        (&dangling, format!("a broken symlink (to {})", case.dir.join("nowhere.h").display())),
        (&looped, "a symlink loop".to_string()),
        (&dir, "a directory".to_string()),
    ] {
        let run = case.env("LIBCUDA_SYS_INCLUDE_DIR", include).run();
        run.failure(&format!(
            "LIBCUDA_SYS_INCLUDE_DIR={} holds a cuda.h that is {said}",
            include.display()
        ));
    }
    // The directory itself loops: said of the directory, not of a cuda.h in it.
    let looping = case.dir.join("looping");
    symlink(&looping, &looping).unwrap();
    let run = case.env("LIBCUDA_SYS_INCLUDE_DIR", &looping).run();
    run.failure(&format!("LIBCUDA_SYS_INCLUDE_DIR={} is a symlink loop", looping.display()));
}

#[test]
fn user_cflags_stay_out_of_the_stand_in() {
    let run = Case::new("stand_in_cflags")
        .env("LIBCUDA_SYS_BINDINGS", "pregenerated")
        .env("CFLAGS", "-fsanitize=address -DUSER_FLAG_MARK")
        .run();
    if run.metadata("link_kind") != "generated-stub" {
        return testkit::skip("this machine has a libcuda, so no stand-in is built");
    }
    let line = run
        .stderr
        .lines()
        .find(|l| l.starts_with("libcuda-sys: stand-in libcuda: "))
        .unwrap_or_else(|| panic!("no stand-in command logged\n{}", run.report()));
    assert!(!line.contains("-fsanitize=address") && !line.contains("USER_FLAG_MARK"), "{line}");
}

#[test]
fn a_file_as_lib_dir_is_called_a_file() {
    let mut case = Case::new("lib_dir_file");
    let file = case.dir.join("libcuda.so.1");
    fs::write(&file, ELF_STAND_IN).unwrap();
    let run =
        case.env("LIBCUDA_SYS_LIB_DIR", &file).env("LIBCUDA_SYS_BINDINGS", "pregenerated").run();
    run.failure(&format!("LIBCUDA_SYS_LIB_DIR={} is not a directory", file.display()));
    run.assert_stderr_has(&["which is a file, not a directory"]);
    assert!(!run.stderr.contains("does not exist"), "{}", run.report());
}

#[test]
fn relative_paths_in_variables_are_errors() {
    for var in ["CUDA_PATH", "LIBCUDA_SYS_INCLUDE_DIR", "LIBCUDA_SYS_LIB_DIR"] {
        let run = Case::new("relative_paths")
            .env(var, "cuda/include")
            .env("LIBCUDA_SYS_BINDINGS", "")
            .run();
        run.failure(&format!("{var}=cuda/include is a relative path"));
        run.assert_stderr_has(&["must be an absolute path", "$PWD/cuda/include"]);
    }
}

#[test]
fn include_dirs_that_break_directives_are_errors() {
    let mut case = Case::new("newline_path");
    let include = case.header("bad\ndir/include", "#define CUDA_VERSION 13000\n");
    let run = case.env("LIBCUDA_SYS_INCLUDE_DIR", &include).run();
    run.failure("contains a line break");
    let mut case = Case::new("colon_path");
    let include = case.header("bad:dir/include", "#define CUDA_VERSION 13000\n");
    let run = case.env("LIBCUDA_SYS_INCLUDE_DIR", &include).run();
    run.failure("contains the path-list separator");
}

#[test]
fn the_header_s_fingerprint_follows_its_bytes() {
    if generation_unavailable() {
        return;
    }
    // The fingerprint passed on is FNV-1a (64-bit, hex) of the bytes of the
    // cuda.h read: the same bytes give it, other bytes another.
    let fingerprint = |name: &'static str, extra: &str| {
        let mut case = Case::new(name);
        let include = case.mkdir("include");
        let bytes = format!("{}{extra}", small_cuda_h());
        fs::write(include.join("cuda.h"), &bytes).unwrap();
        let run = case.env("LIBCUDA_SYS_INCLUDE_DIR", &include).run();
        assert_eq!(run.code, Some(0), "{}", run.report());
        let fnv = bytes.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
        });
        (run.metadata("cuda_h_fnv1a64").to_string(), format!("{fnv:016x}"))
    };
    let (a, of_a) = fingerprint("fingerprint_a", "");
    let (c, of_c) = fingerprint("fingerprint_c", "/* one byte more or less */\n");
    assert_eq!(a, of_a, "the FNV-1a of the header's bytes");
    assert_eq!(c, of_c, "the FNV-1a of the header's bytes");
    assert_ne!(a, c, "other bytes, another fingerprint");
}

#[test]
fn without_cuda_typedefs_h_the_build_works_and_says_so() {
    if linking_untestable() || generation_unavailable() {
        return;
    }
    // An include directory with cuda.h alone.
    let mut case = Case::new("no_typedefs");
    let include = case.small_headers("include");
    let run = case.env("LIBCUDA_SYS_INCLUDE_DIR", &include).run();
    assert_eq!(run.code, Some(0), "{}", run.report());
    run.assert_stderr_has(&[
        "cudaTypedefs.h is absent: which driver each function needs is unavailable",
    ]);
    let since = fs::read_to_string(case.out_dir().join("since.rs")).unwrap();
    assert!(since.contains("SINCE_AVAILABLE: bool = false"), "{since}");
    // A floor cannot be honoured without it, and says why.
    let run = case.env("LIBCUDA_SYS_DRIVER_FLOOR", "13.0").run();
    run.failure("LIBCUDA_SYS_DRIVER_FLOOR=13.0 needs cudaTypedefs.h beside cuda.h");
}

#[test]
fn an_unused_toolkit_variable_is_quoted_as_set() {
    let mut case = Case::new("resolved_include");
    let real = case.header("cuda-13.0/include", "#define CUDA_VERSION 13000\n");
    // /usr/local/cuda style: a symlink to the versioned toolkit.
    symlink(case.dir.join("cuda-13.0"), case.dir.join("cuda")).unwrap();
    let run = case
        .env("CUDA_PATH", case.dir.join("cuda"))
        .env("LIBCUDA_SYS_BINDINGS", "pregenerated")
        .run();
    // The pregenerated set ignores the headers but checks them; the warning quotes
    // the value set, not the include directory it resolves to.
    assert!(real.join("cuda.h").is_file());
    assert!(
        run.warnings()
            .iter()
            .any(|w| w
                .contains(&format!("CUDA_PATH={} is not used", case.dir.join("cuda").display()))),
        "{}",
        run.report()
    );
}

// ---------------------------------------------------------------------------
// 5.-6. Headers that are not usable.

#[test]
fn header_older_than_11_2_is_rejected() {
    let mut case = Case::new("too_old");
    let root = case.mkdir("cuda-11.0");
    let include = case.header("cuda-11.0/include", "#define CUDA_VERSION 11000\n");
    let run = case.env("CUDA_PATH", &root).run();
    run.failure(&format!(
        "cuda.h in {} is CUDA 11.0 (CUDA_VERSION 11000); libcuda-sys needs 11.2 or newer",
        include.display()
    ));
    run.assert_stderr_has(&[
        "first appeared in CUDA 11.2",
        "pip install nvidia-cuda-runtime",
        "point CUDA_PATH or LIBCUDA_SYS_INCLUDE_DIR at a newer toolkit",
    ]);
}

#[test]
fn header_without_cuda_version_is_rejected() {
    let mut case = Case::new("no_version");
    let include = case.header("include", "/* not the driver API */\n#define NOT_CUDA 1\n");
    let run = case.env("LIBCUDA_SYS_INCLUDE_DIR", &include).run();
    run.failure(&format!(
        "{} does not define CUDA_VERSION as a CUDA release",
        include.join("cuda.h").display()
    ));
    run.assert_stderr_has(&["not the CUDA driver API header", "11.2 or newer"]);
}

#[test]
fn header_that_does_not_preprocess_is_a_clear_error() {
    let mut case = Case::new("no_preprocess");
    let include =
        case.header("include", "#include \"cuda_missing_part.h\"\n#define CUDA_VERSION 13000\n");
    let run = case.env("LIBCUDA_SYS_INCLUDE_DIR", &include).run();
    run.failure(&format!("the C preprocessor failed on {}", include.join("cuda.h").display()));
    run.assert_stderr_has(&[
        "cuda.h does not preprocess with the C compiler",
        "-E",
        "complete set of CUDA headers",
        "CC and CFLAGS",
    ]);
}

#[test]
fn header_that_bindgen_cannot_parse_is_a_clear_error() {
    if generation_unavailable() {
        return;
    }
    let mut case = Case::new("no_parse");
    // Preprocesses (so CUDA_VERSION is read), but is not C.
    let include = case.header("include", "#define CUDA_VERSION 13000\ntypedef int CUresult;\nCUresult cuInit(unsigned int Flags) oops;\nint cuBroken = ;\n");
    let run = case.env("LIBCUDA_SYS_INCLUDE_DIR", &include).run();
    run.failure(&format!("bindgen could not parse {}", include.join("cuda.h").display()));
    run.assert_stderr_has(&[
        "cuda.h:3:",
        "error:",
        "The header did not parse with libclang",
        "BINDGEN_EXTRA_CLANG_ARGS",
    ]);
}

#[test]
fn no_c_compiler_is_a_clear_error() {
    let mut case = Case::with_tools("no_compiler", &[]);
    let include = case.header("include", "#define CUDA_VERSION 13000\n");
    let run = case.env("LIBCUDA_SYS_INCLUDE_DIR", &include).run();
    run.failure("no C compiler found");
    // cc's words for it differ between its versions; the fix does not.
    run.assert_stderr_has(&["needs a C compiler", "apt-get install gcc", "set CC"]);
}

#[test]
fn no_cross_compiler_names_the_cross_compiler() {
    let mut case = Case::with_tools("no_cross_compiler", &[]);
    let include = case.header("include", "#define CUDA_VERSION 13000\n");
    let run = case
        .env("TARGET", "aarch64-unknown-linux-gnu")
        .env("CARGO_CFG_TARGET_ARCH", "aarch64")
        .env("LIBCUDA_SYS_INCLUDE_DIR", &include)
        .run();
    run.failure("no C compiler found");
    run.assert_stderr_has(&[
        "C cross compiler for aarch64-unknown-linux-gnu",
        "apt-get install gcc-aarch64-linux-gnu",
        "CC_aarch64_unknown_linux_gnu",
    ]);
    assert!(!run.stderr.contains("apt-get install gcc)"), "{}", run.report());
}

#[test]
fn a_cross_target_without_its_c_headers_names_the_sysroot_setting() {
    // A C compiler for the target is named (the host's gcc stands in, so the
    // preprocessor passes), but libclang, parsing as riscv64, finds no C
    // library headers for it: the error names the variable for a sysroot.
    if generation_unavailable() {
        return;
    }
    let mut case = Case::new("cross_no_sysroot");
    let include = case.header(
        "include",
        "#include <stdlib.h>\n#define CUDA_VERSION 13000\ntypedef int CUresult;\n",
    );
    let gcc = which("gcc").expect("gcc");
    let run = case
        .env("TARGET", "riscv64gc-unknown-linux-gnu")
        .env("CARGO_CFG_TARGET_ARCH", "riscv64")
        .env("CC_riscv64gc_unknown_linux_gnu", &gcc)
        // Without cc's target flags (-march=rv64gc), which the host's gcc refuses.
        .env("CRATE_CC_NO_DEFAULTS", "1")
        .env("LIBCUDA_SYS_INCLUDE_DIR", &include)
        .run();
    run.failure("bindgen could not parse");
    run.assert_stderr_has(&[
        "cross build for riscv64gc-unknown-linux-gnu",
        "the target's C library headers (stdlib.h)",
        "BINDGEN_EXTRA_CLANG_ARGS_riscv64gc_unknown_linux_gnu=\"--sysroot=",
    ]);
}

#[test]
fn a_cc_that_is_not_a_c_compiler_is_named() {
    let mut case = Case::new("cc_true");
    let include = case.header("include", "#define CUDA_VERSION 13000\n");
    let truth = which("true").expect("`true` on PATH");
    let run = case.env("CC", &truth).env("LIBCUDA_SYS_INCLUDE_DIR", &include).run();
    run.failure(&format!("the C compiler {} printed no macros", truth.display()));
    // Not blamed on the header.
    assert!(!run.stderr.contains("CUDA_VERSION"), "{}", run.report());
}

#[test]
fn cflags_are_named_when_the_preprocessor_fails() {
    let mut case = Case::new("cflags_named");
    let include = case.header("include", "#define CUDA_VERSION 13000\n");
    let flags = "-include /nonexistent/forced.h";
    let run = case.env("CFLAGS", flags).env("LIBCUDA_SYS_INCLUDE_DIR", &include).run();
    run.failure(&format!(
        "the C preprocessor failed on {}/cuda.h (with CFLAGS={flags})",
        include.display()
    ));
    run.assert_stderr_has(&["check the compiler and flags: CFLAGS=", "/nonexistent/forced.h"]);
}

// ---------------------------------------------------------------------------
// Windows: the toolkit's default install directory.

/// Without `CUDA_PATH`, a Windows build looks where NVIDIA's installer puts
/// the toolkit, `%ProgramFiles%\NVIDIA GPU Computing Toolkit\CUDA\vX.Y`,
/// newest release first (13.0 over 12.9 and 9.2, by number, not by text).
/// No libclang: the headers found decide the pregenerated release, and the
/// import library beside them is linked.
#[test]
fn windows_default_install_directory_is_searched_newest_first() {
    if linking_untestable() {
        return;
    }
    let mut case = Case::new("windows_program_files");
    let program_files = case.mkdir("Program Files");
    let cuda = "NVIDIA GPU Computing Toolkit/CUDA";
    for (dir, number) in [("v9.2", 9020), ("v12.9", 12090), ("v13.0", 13000), ("vnext", 14000)] {
        case.header(
            &format!("Program Files/{cuda}/{dir}/include"),
            &format!("#define CUDA_VERSION {number}\n"),
        );
        let lib = case.mkdir(&format!("Program Files/{cuda}/{dir}/lib/x64"));
        fs::write(lib.join("cuda.lib"), "!<arch>\n").unwrap();
    }
    let empty = case.mkdir("no-libclang-here");
    let run = case
        .env("TARGET", "x86_64-pc-windows-gnu")
        .env("CARGO_CFG_TARGET_OS", "windows")
        .env("CARGO_CFG_TARGET_ARCH", "x86_64")
        .env("CARGO_CFG_TARGET_ENV", "gnu")
        .env("LIBCUDA_SYS_BINDINGS", "")
        .env("LIBCLANG_PATH", &empty)
        .env("ProgramFiles", &program_files)
        .run();
    assert_eq!(run.code, Some(0), "{}", run.report());
    let taken = program_files.join(cuda).join("v13.0");
    assert_eq!(run.metadata("version"), "13000", "{}", run.report());
    assert_eq!(Path::new(run.metadata("lib_dir")), taken.join("lib/x64"), "{}", run.report());
    let found = format!("standard location {}", taken.join("include").display());
    assert!(run.warnings().iter().any(|w| w.contains(&found)), "no `{found}`\n{}", run.report());
    run.assert_stderr_has(&[&format!(
        "candidate standard location: {} (taken: holds cuda.h)",
        taken.join("include").display()
    )]);
    run.assert_reruns(&["ProgramFiles"]);
}
