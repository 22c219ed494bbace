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
    let include = case.small_headers("include");
    let run = case.env("LIBCUDA_SYS_LIB_DIR", &lib).env("LIBCUDA_SYS_INCLUDE_DIR", &include).run();
    run.found(&include, "LIBCUDA_SYS_INCLUDE_DIR");
    assert_eq!(run.metadata("link_kind"), "driver");
    assert_eq!(Path::new(run.metadata("lib_dir")), lib);
    assert_eq!(run.directive("rustc-link-search"), vec![format!("native={}", lib.display())]);
    assert_eq!(run.directive("rustc-link-lib"), vec!["dylib:+verbatim=libcuda.so.1"]);
    assert!(run.warnings().is_empty(), "no warning when the driver is linked\n{}", run.report());
}

/// A toolkit and no driver (`docker build` from a toolkit image): the
/// toolkit's stub is passed over for the stand-in, which hands calls over to
/// the driver that `docker run --gpus` brings; NVIDIA's stub, under the name
/// `libcuda.so.1` first on `cargo test`'s path, would answer every call with
/// `CUDA_ERROR_STUB_LIBRARY` instead.
#[cfg(target_os = "linux")]
#[test]
fn a_toolkit_stub_is_passed_over_for_the_stand_in() {
    if linking_untestable() {
        return;
    }
    let mut case = Case::new("toolkit_stub");
    let root = case.toolkit("toolkit");
    let stubs = nvidia_like_stub(&case);
    let run = case.env("CUDA_PATH", &root).env("LIBCUDA_SYS_BINDINGS", "pregenerated").run();
    if run.metadata("link_kind") == "driver" {
        return testkit::skip(&format!(
            "this machine has a libcuda driver library ({}), which comes before toolkit stubs",
            run.metadata("lib_dir")
        ));
    }
    assert_eq!(run.metadata("link_kind"), "generated-stub", "{}", run.report());
    let stub_dir = case.out_dir().join("stub");
    assert_eq!(Path::new(run.metadata("lib_dir")), stub_dir);
    assert_ne!(
        fs::read(stub_dir.join("libcuda.so.1")).unwrap(),
        fs::read(stubs.join("libcuda.so")).unwrap()
    );
    assert!(
        run.stderr.contains("stub in") && run.stderr.contains("passed over for the stand-in"),
        "{}",
        run.report()
    );
    assert!(run.warnings().iter().any(|w| w.contains("linking a stand-in")), "{}", run.report());
    let exe = program_against(&case, &stub_dir, &[]);
    let driver = testkit::fake_driver(&case.dir.join("driver"), 12030, 0);
    assert_eq!(run_with(&exe, &[&stub_dir, driver.parent().unwrap()]), "0 12345 0 1007");
}

/// Where no stand-in can be built (no C compiler), the toolkit's stub is
/// linked where it is, and nothing named `libcuda.so.1` goes into `OUT_DIR`.
#[test]
fn without_a_c_compiler_the_toolkit_stub_is_linked_where_it_is() {
    if linking_untestable() {
        return;
    }
    let mut case = Case::new("toolkit_stub_no_cc");
    let root = case.toolkit("toolkit");
    let stubs = case.mkdir("toolkit/lib64/stubs");
    fs::write(stubs.join("libcuda.so"), ELF_STAND_IN).unwrap();
    let run = case
        .env("CUDA_PATH", &root)
        .env("LIBCUDA_SYS_BINDINGS", "pregenerated")
        .env("CC", "/nonexistent/cc")
        .run();
    if run.metadata("link_kind") == "driver" {
        return testkit::skip(
            "this machine has a libcuda driver library, which comes before toolkit stubs",
        );
    }
    assert_eq!(run.metadata("link_kind"), "toolkit-stub", "{}", run.report());
    assert_eq!(Path::new(run.metadata("lib_dir")), stubs);
    assert_eq!(run.directive("rustc-link-lib"), vec!["dylib=cuda"]);
    assert!(!case.out_dir().join("stub/libcuda.so.1").exists());
    assert!(
        run.warnings().iter().any(|w| w.contains("stub libcuda where it is")
            && w.contains("/nonexistent/cc")
            && w.contains("start only where the driver is installed")),
        "{}",
        run.report()
    );
}

/// A release feature newer than the toolkit's headers and stub: the stand-in
/// declares that release's functions, where the stub lacks them.
#[cfg(target_os = "linux")]
#[test]
fn a_release_newer_than_the_toolkit_links_its_own_functions() {
    if linking_untestable() {
        return;
    }
    let mut case = Case::new("release_newer_than_stub");
    case.header("toolkit/include", "#define CUDA_VERSION 12040\n");
    nvidia_like_stub(&case);
    let run = case
        .env("CUDA_PATH", case.dir.join("toolkit"))
        .env("LIBCUDA_SYS_BINDINGS", "pregenerated")
        .feature("cuda-13000")
        .run();
    if run.metadata("link_kind") == "driver" {
        return testkit::skip(
            "this machine has a libcuda driver library, which comes before toolkit stubs",
        );
    }
    assert_eq!(run.metadata("link_kind"), "generated-stub", "{}", run.report());
    let exports = case.stand_in_exports();
    assert!(exports.iter().any(|s| s == "cuMemGetDefaultMemPool"), "{}", run.report());
}

/// A program linked against the stand-in (no driver at build time) and run
/// the way `cargo run` and `cargo test` run it, the stand-in's directory first
/// on `LD_LIBRARY_PATH`, reaches a driver that appeared after the build: the
/// stand-in looks for it where the loader would have found it, in the
/// loader's order, and never takes a stub for it.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[test]
fn the_stand_in_hands_over_to_the_driver_the_loader_would_load() {
    let Some((case, stub)) = stand_in_case("stand_in_search") else { return };
    let driver = testkit::fake_driver(&case.dir.join("driver"), 12030, 0);
    let driver_dir = driver.parent().unwrap();
    let answer = "0 12345 0 1007";
    // Each way the loader finds a driver, checked, and the ones missed named together.
    let mut missed = Vec::new();
    let mut check = |what: &str, got: String| {
        if got != answer {
            missed.push(format!("{what}: {got}"));
        }
    };
    let exe = program_against(&case, &stub, &[]);
    // No driver: the stand-in's own answer.
    assert!(run_with(&exe, &[&stub]).starts_with("34 0 34"), "{}", run_with(&exe, &[&stub]));
    check("LD_LIBRARY_PATH", run_with(&exe, &[&stub, driver_dir]));
    // LD_LIBRARY_PATH split at ';' as at ':'.
    let joined = format!("{};{}", stub.display(), driver_dir.display());
    check("';' in LD_LIBRARY_PATH", run_env(&exe, &[("LD_LIBRARY_PATH", &joined)]));
    // $PLATFORM and $LIB, which only the loader expands (`$PLATFORM` to
    // `haswell`, not `x86_64`, on some CPUs).
    for (token, dir) in [("$PLATFORM", "by-platform"), ("$LIB", "by-lib")] {
        let expanded = case.dir.join(dir).join(loader_expands(token));
        fs::create_dir_all(&expanded).unwrap();
        fs::copy(&driver, expanded.join("libcuda.so.1")).unwrap();
        let path = format!("{}:{}/{token}", stub.display(), case.dir.join(dir).display());
        check(token, run_env(&exe, &[("LD_LIBRARY_PATH", &path)]));
    }
    // The program's RUNPATH, after LD_LIBRARY_PATH (which finds the stand-in).
    let runpath = format!("-Wl,--enable-new-dtags,-rpath,{}", driver_dir.display());
    let with_runpath = program_against(&case, &stub, &[&runpath]);
    check("RUNPATH", run_with(&with_runpath, &[&stub]));
    // A directory's glibc-hwcaps subdirectory (glibc 2.33+), which the loader
    // tries first, where this CPU has the level.
    let hwcaps = case.dir.join("hwcaps");
    match loader_hwcaps_level() {
        Some(level) => {
            let sub = hwcaps.join("glibc-hwcaps").join(&level);
            fs::create_dir_all(&sub).unwrap();
            fs::copy(&driver, sub.join("libcuda.so.1")).unwrap();
            check(&format!("glibc-hwcaps/{level}"), run_with(&exe, &[&stub, &hwcaps]));
        }
        None => testkit::skip("glibc-hwcaps: the loader names no supported x86-64 level here"),
    }
    // NVIDIA's stub in the way behind a symlink: passed over, by its real path.
    let stubs = nvidia_like_stub(&case);
    let linked = case.mkdir("linked-stub");
    std::os::unix::fs::symlink(stubs.join("libcuda.so"), linked.join("libcuda.so.1")).unwrap();
    check("a stub behind a symlink", run_with(&exe, &[&stub, &linked, driver_dir]));
    // A driver under a directory named `stubs` is a driver: only a toolkit's
    // stub (`stubs/libcuda.so`) is passed over.
    let under = case.mkdir("home/stubs/drivers");
    fs::copy(&driver, under.join("libcuda.so.1")).unwrap();
    check("a driver under a directory named stubs", run_with(&exe, &[&stub, &under]));
    let in_stubs = case.mkdir("opt/stubs");
    fs::copy(&driver, in_stubs.join("libcuda.so.580.1")).unwrap();
    let link = case.mkdir("link-into-stubs");
    std::os::unix::fs::symlink(in_stubs.join("libcuda.so.580.1"), link.join("libcuda.so.1"))
        .unwrap();
    check("a symlink to a driver in a directory named stubs", run_with(&exe, &[&stub, &link]));
    // Copied elsewhere, nothing tells it from a driver without calling it: it
    // is taken, as the loader takes it, and answers as a stub.
    let copied = case.mkdir("copied-stub");
    fs::copy(stubs.join("libcuda.so"), copied.join("libcuda.so.1")).unwrap();
    let got = run_with(&exe, &[&stub, &copied, driver_dir]);
    assert!(got.starts_with("34 0 34"), "a copied stub: {got}");
    // The loader's cache, in a mount namespace of its own with a cache that
    // names the driver's directory.
    if let Some(got) = with_cache(&case, driver_dir, &exe, &[&stub]) {
        check("the loader's cache", got);
    }
    assert!(missed.is_empty(), "the driver was not reached: {missed:#?}");
}

/// Nothing of a library the stand-in looks at is called while the program
/// loads: one whose `cuDriverGetVersion` hangs, or crashes, lets the program
/// reach `main`, and the calls it makes go to that library.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[test]
fn a_driver_that_hangs_or_crashes_when_called_cannot_stop_the_program_loading() {
    let Some((case, stub)) = stand_in_case("stand_in_calls_nothing") else { return };
    let exe = testkit::compile_c(
        "#include <stdio.h>\nint cuInit(unsigned);\n\
         int main(void) { printf(\"main \"); fflush(stdout); printf(\"%d\\n\", cuInit(0)); return 0; }\n",
        &case.dir.join("init"),
        &[&format!("-L{}", stub.display()), "-l:libcuda.so.1"],
    );
    for (what, body) in [("hangs", "for (;;) pause();"), ("crashes", "*(volatile int *)0 = 0;")] {
        let dir = case.mkdir(what);
        testkit::compile_c(
            &format!(
                "#include <unistd.h>\nint cuInit(unsigned f) {{ (void)f; return 7; }}\n\
                 int cuDriverGetVersion(int *v) {{ (void)v; {body} return 0; }}\n"
            ),
            &dir.join("libcuda.so.1"),
            &["-shared", "-fPIC"],
        );
        let out = Command::new("timeout")
            .arg("20")
            .arg(&exe)
            .env("LD_LIBRARY_PATH", std::env::join_paths([&stub, &dir]).unwrap())
            .output()
            .unwrap();
        let got = String::from_utf8_lossy(&out.stdout);
        assert_eq!(got.trim(), "main 7", "a driver that {what} ({})", out.status);
    }
}

/// A case whose build links the crate's stand-in (no driver on this machine),
/// and the stand-in's directory; `None` (said as `skipped`) where it cannot be.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn stand_in_case(name: &'static str) -> Option<(Case, PathBuf)> {
    if linking_untestable() {
        return None;
    }
    let mut case = Case::new(name);
    let run = case.env("LIBCUDA_SYS_BINDINGS", "pregenerated").run();
    if run.metadata("link_kind") != "generated-stub" {
        testkit::skip("this machine has a libcuda: no stand-in is built");
        return None;
    }
    let stub = case.out_dir().join("stub");
    Some((case, stub))
}

/// What `exe` prints with `LD_LIBRARY_PATH` the directories `path` and a
/// loader's cache that names `cached` (in a mount namespace of its own);
/// `None` (said as `skipped`) where `ldconfig -C` or `unshare -m` (root) is
/// not available.
fn with_cache(case: &Case, cached: &Path, exe: &Path, path: &[&Path]) -> Option<String> {
    let conf = case.dir.join("ld.so.conf");
    fs::write(&conf, format!("{}\n", cached.display())).unwrap();
    let cache = case.dir.join("ld.so.cache");
    let ldconfig =
        Command::new("ldconfig").args(["-X", "-C"]).arg(&cache).arg("-f").arg(&conf).status();
    let namespace = Command::new("unshare").args(["-m", "true"]).output();
    if !(ldconfig.is_ok_and(|s| s.success()) && namespace.is_ok_and(|o| o.status.success())) {
        testkit::skip("the loader's cache: `ldconfig -C` or `unshare -m` (root) is not available");
        return None;
    }
    let out = Command::new("unshare")
        .args(["-m", "/bin/sh", "-c", "mount --bind \"$0\" /etc/ld.so.cache && exec \"$1\""])
        .arg(&cache)
        .arg(exe)
        .env("LD_LIBRARY_PATH", std::env::join_paths(path).unwrap())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    Some(String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// A stub as NVIDIA's toolkit ships it, in the case's `toolkit/lib64/stubs`
/// (returned): `libcuda.so` with the soname `libcuda.so.1`, every function
/// answering `CUDA_ERROR_STUB_LIBRARY`.
fn nvidia_like_stub(case: &Case) -> PathBuf {
    let stubs = case.mkdir("toolkit/lib64/stubs");
    testkit::compile_c(
        "int cuInit(unsigned f) { (void)f; return 34; }\nint cuDriverGetVersion(int *v) { (void)v; return 34; }\n\
         int cuMemAlloc_v2(void *p, unsigned long long n) { (void)p; (void)n; return 34; }\n",
        &stubs.join("libcuda.so"),
        &["-shared", "-fPIC", "-Wl,-soname,libcuda.so.1"],
    );
    stubs
}

/// A C program that calls the driver, linked against the `libcuda.so.1` in
/// `dir` as the Rust one is (with `args` for the linker): it prints
/// `cuDriverGetVersion`'s result and version and `cuMemAlloc_v2`'s result and address.
fn program_against(case: &Case, dir: &Path, args: &[&str]) -> PathBuf {
    let link = format!("-L{}", dir.display());
    testkit::compile_c(
        "#include <stdio.h>\nint cuDriverGetVersion(int *);\nint cuMemAlloc_v2(unsigned long long *, unsigned long long);\n\
         int main(void) { int v = 0; unsigned long long p = 0; int r = cuDriverGetVersion(&v);\n\
         int a = cuMemAlloc_v2(&p, 7); printf(\"%d %d %d %llx\\n\", r, v, a, p); return 0; }\n",
        &case.dir.join(format!("main{}", args.len())),
        &[&[&link[..], "-l:libcuda.so.1"], args].concat(),
    )
}

/// What `exe` prints with `LD_LIBRARY_PATH` the directories `path`.
fn run_with(exe: &Path, path: &[&Path]) -> String {
    let joined = std::env::join_paths(path).unwrap();
    run_env(exe, &[("LD_LIBRARY_PATH", joined.to_str().unwrap())])
}

/// What the dynamic loader makes of `token` (`$PLATFORM`, `$LIB`) on this
/// machine, asked of it (`LD_DEBUG=libs` prints the directories it searches),
/// never assumed: glibc expands `$PLATFORM` to `haswell` on some x86-64 CPUs,
/// whatever `uname -m` says, and `$LIB` to `lib/x86_64-linux-gnu` on Debian
/// and `lib64` on Fedora.
fn loader_expands(token: &str) -> String {
    const PROBE: &str = "/libcuda-sys-token-probe/";
    const END: &str = "/end-of-probe";
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .arg("--list")
        .env("LD_LIBRARY_PATH", format!("{PROBE}{token}{END}"))
        .env("LD_DEBUG", "libs")
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stderr);
    let expanded = said.split(PROBE).nth(1).and_then(|rest| rest.split_once(END));
    expanded
        .unwrap_or_else(|| {
            panic!("the loader named no search path of {PROBE}{token}{END}:\n{said}")
        })
        .0
        .to_string()
}

/// Copies of the stand-in opened with `dlopen(RTLD_LOCAL)` (the
/// dynamic-loading feature, Python's ctypes, plugins), each on the library
/// path: the copy that searches is found by its handle, not through global
/// names, so the copies its search opens do not each search again (8 copies
/// took 20 s), and each copy still reaches the driver.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[test]
fn copies_opened_locally_search_once_each() {
    let Some((case, stub)) = stand_in_case("stand_in_local_copies") else { return };
    let driver = testkit::fake_driver(&case.dir.join("driver"), 12030, 0);
    let copies: Vec<PathBuf> = (0..8)
        .map(|i| {
            let dir = case.mkdir(&format!("copy{i}"));
            fs::copy(stub.join("libcuda.so.1"), dir.join("libcuda.so.1")).unwrap();
            dir
        })
        .collect();
    let exe = testkit::compile_c(
        "#include <dlfcn.h>\n#include <stdio.h>\n\
         int main(int argc, char **argv) { int i; for (i = 1; i < argc; i++) {\n\
         void *h = dlopen(argv[i], RTLD_NOW | RTLD_LOCAL); int v = 0;\n\
         int (*get)(int *) = h ? (int (*)(int *))dlsym(h, \"cuDriverGetVersion\") : 0;\n\
         int r = get ? get(&v) : -1; printf(\"%d %d\\n\", r, v); } return 0; }\n",
        &case.dir.join("open_copies"),
        &["-ldl"],
    );
    let mut path: Vec<&Path> = copies.iter().map(PathBuf::as_path).collect();
    path.push(driver.parent().unwrap());
    let started = std::time::Instant::now();
    let out = Command::new(&exe)
        .args(copies.iter().map(|d| d.join("libcuda.so.1")))
        .env("LD_LIBRARY_PATH", std::env::join_paths(&path).unwrap())
        .output()
        .unwrap();
    let took = started.elapsed();
    let said = String::from_utf8_lossy(&out.stdout);
    assert_eq!(said.lines().collect::<Vec<_>>(), vec!["0 12345"; 8], "{said}");
    assert!(took < std::time::Duration::from_secs(4), "8 copies opened in {took:?}");
}

/// The glibc-hwcaps search asks the CPU itself, whatever compiled the
/// stand-in: built as GCC 11 sees it (which, like clang, knows no level names
/// for `__builtin_cpu_supports`), it still finds a driver where the loader would.
#[cfg(all(target_os = "linux", target_env = "gnu", target_arch = "x86_64"))]
#[test]
fn the_hwcaps_search_does_not_depend_on_the_c_compiler() {
    if linking_untestable() {
        return;
    }
    let Some(level) = loader_hwcaps_level() else {
        return testkit::skip("glibc-hwcaps: the loader names no supported x86-64 level here");
    };
    let mut case = Case::new("stand_in_hwcaps_gcc11");
    let run = case
        .env("LIBCUDA_SYS_BINDINGS", "pregenerated")
        .env("CC", "gcc -U__GNUC__ -D__GNUC__=11 -U__GNUC_MINOR__ -D__GNUC_MINOR__=4")
        .run();
    if run.metadata("link_kind") != "generated-stub" {
        return testkit::skip("this machine has a libcuda: no stand-in is built");
    }
    let stub = case.out_dir().join("stub");
    let driver = testkit::fake_driver(&case.dir.join("driver"), 12030, 0);
    let hwcaps = case.dir.join("hwcaps");
    let sub = hwcaps.join("glibc-hwcaps").join(&level);
    fs::create_dir_all(&sub).unwrap();
    fs::copy(&driver, sub.join("libcuda.so.1")).unwrap();
    let exe = program_against(&case, &stub, &[]);
    assert_eq!(run_with(&exe, &[&stub, &hwcaps]), "0 12345 0 1007", "glibc-hwcaps/{level}");
}

/// The lowest glibc-hwcaps level the loader says it searches on this machine
/// (`ld.so --help`: "x86-64-v2 (supported, searched)"), where it has one.
fn loader_hwcaps_level() -> Option<String> {
    let out =
        std::process::Command::new("/lib64/ld-linux-x86-64.so.2").arg("--help").output().ok()?;
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    text.lines()
        .map(str::trim)
        .filter(|l| l.starts_with("x86-64-v") && l.contains("(supported, searched)"))
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .next_back()
}

/// What `exe` prints in an environment with `env`.
fn run_env(exe: &Path, env: &[(&str, &str)]) -> String {
    let out = std::process::Command::new(exe).envs(env.iter().copied()).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// The toolkit's stub behind a symlink named like the driver (a CI image's
/// `ln -s .../stubs/libcuda.so libcuda.so.1`) is told for the stub it is,
/// and passed over for the stand-in.
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
    assert_eq!(run.metadata("link_kind"), "generated-stub", "{}", run.report());
    assert!(run.stderr.contains("passed over for the stand-in"), "{}", run.report());
}

/// The CUDA compatibility layout, in a program linked with an old-style
/// DT_RPATH (`--disable-new-dtags`): a `compat/` driver on `LD_LIBRARY_PATH`,
/// a system driver in the loader's cache. The loader searches the RPATH, then
/// `LD_LIBRARY_PATH`, then the cache, and takes `compat/`'s: the stand-in
/// hands over to that one too (it took the cache's when the program's RPATH
/// was counted among the default directories).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[test]
fn with_an_rpath_ld_library_path_still_comes_before_the_cache() {
    let Some((case, stub)) = stand_in_case("stand_in_rpath") else { return };
    let compat = testkit::fake_driver(&case.dir.join("compat"), 12030, 0);
    let compat_dir = compat.parent().unwrap();
    // The system's driver, told apart by its version.
    let system = case.mkdir("system");
    testkit::compile_c(
        "int cuInit(unsigned f) { (void)f; return 0; }\nint cuDriverGetVersion(int *v) { *v = 13000; return 0; }\n\
         int cuMemAlloc_v2(unsigned long long *p, unsigned long long n) { *p = 0x2000 + n; return 0; }\n",
        &system.join("libcuda.so.1"),
        &["-shared", "-fPIC"],
    );
    let rpath = case.mkdir("rpath");
    let exe = program_against(
        &case,
        &stub,
        &[&format!("-Wl,--disable-new-dtags,-rpath,{}", rpath.display())],
    );
    let Some(got) = with_cache(&case, &system, &exe, &[&stub, compat_dir]) else { return };
    assert_eq!(got, "0 12345 0 1007", "the stand-in did not take LD_LIBRARY_PATH's compat driver");
}

/// Copies of the stand-in on the library path (stand-ins of several builds,
/// or one copied about) are passed over without running their own search:
/// start-up stays linear in the length of the path. 16 copies before the
/// driver: the program reaches it in well under its time limit (it was still
/// loading after 120 s with 10).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[test]
fn copies_of_the_stand_in_are_passed_over_quickly() {
    let Some((case, stub)) = stand_in_case("stand_in_copies") else { return };
    let driver = testkit::fake_driver(&case.dir.join("driver"), 12030, 0);
    let exe = program_against(&case, &stub, &[]);
    let mut times = Vec::new();
    for copies in [1usize, 8, 16] {
        let mut path = vec![stub.clone()];
        for i in 0..copies {
            let dir = case.mkdir(&format!("copies-{copies}/{i}"));
            fs::copy(stub.join("libcuda.so.1"), dir.join("libcuda.so.1")).unwrap();
            path.push(dir);
        }
        path.push(driver.parent().unwrap().to_path_buf());
        let joined = std::env::join_paths(&path).unwrap();
        let started = std::time::Instant::now();
        let out = Command::new("timeout")
            .arg("60")
            .arg(&exe)
            .env("LD_LIBRARY_PATH", &joined)
            .output()
            .unwrap();
        let took = started.elapsed().as_secs_f64();
        let got = String::from_utf8_lossy(&out.stdout).trim().to_string();
        assert_eq!(
            got, "0 12345 0 1007",
            "{copies} copies: the driver was not reached ({took:.1} s)"
        );
        times.push(format!("{copies} copies: {took:.3} s"));
        assert!(took < 5.0, "{copies} copies took {took:.1} s to start");
    }
    println!("start-up with copies of the stand-in on the path: {}", times.join(", "));
}
