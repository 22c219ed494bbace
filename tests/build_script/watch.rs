//! What a build watches.

use crate::harness::*;

// ---------------------------------------------------------------------------
// What a build watches: never what it writes, `/` or `$HOME`; cheap places only.

/// The `rerun-if-changed` paths of a run, less the crate's own sources.
fn watched_paths(run: &Outcome) -> Vec<PathBuf> {
    run.directive("rerun-if-changed")
        .into_iter()
        .filter(|p| !["build.rs", "wrapper.h", "pregenerated"].contains(p))
        .map(PathBuf::from)
        .collect()
}

/// Every watched path exists (Cargo re-runs for a missing one on every
/// build), is absolute, and neither is nor holds `/`, the home directory,
/// the crate or the target directory, nor lies in the target directory.
fn assert_watch_rules(run: &Outcome, case: &Case, home: &Path) {
    let target_dir = case.dir.join("target");
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).canonicalize().unwrap();
    for path in watched_paths(run) {
        let bad = !path.is_absolute()
            || !path.exists()
            || path.parent().is_none()
            || home.starts_with(&path)
            || manifest.starts_with(&path)
            || target_dir.starts_with(&path)
            || path.starts_with(&target_dir);
        assert!(!bad, "watched {}\n{}", path.display(), run.report());
    }
}

#[test]
fn a_fallback_watches_only_small_directories_it_never_writes() {
    if !installed_toolkit_headers().is_empty() {
        return testkit::skip("this machine has CUDA headers in a standard location");
    }
    let mut case = Case::new("fallback_watches");
    let home = case.mkdir("home");
    let later = case.mkdir("bin-for-nvcc");
    // A directory with more entries than a build should walk each time.
    let large = case.mkdir("large-bin");
    for i in 0..4100 {
        fs::write(large.join(format!("tool{i}")), "").unwrap();
    }
    // A project of the user's own, and a directory of it on PATH.
    let project = case.mkdir("project");
    fs::write(project.join("Cargo.toml"), "[package]\n").unwrap();
    let path = std::env::join_paths([
        case.bin.clone(),
        later.clone(),
        large.clone(),
        PathBuf::from("/"),
        home.clone(),
        PathBuf::new(),
        PathBuf::from("."),
        case.dir.join("missing/bin"),
        case.dir.join("target/debug"),
        case.out_dir(),
        project.join("bin"),
    ])
    .unwrap();
    let run = case
        .env("LIBCUDA_SYS_BINDINGS", "")
        .env("PATH", &path)
        .env("HOME", &home)
        .env("CONDA_PREFIX", &project)
        .run();
    assert_eq!(run.metadata("found_by"), "pregenerated", "{}", run.report());
    assert_watch_rules(&run, &case, &home);
    let watched = watched_paths(&run);
    // nvcc appearing in a directory of PATH, or in the case's own directory above
    // a missing one (small and written by no build here).
    for dir in [&case.bin, &later] {
        assert!(
            watched.iter().any(|w| dir.starts_with(w)),
            "{} not watched: {watched:?}",
            dir.display()
        );
    }
    for dir in [&large, &project] {
        assert!(
            !watched.iter().any(|w| w.starts_with(dir)),
            "{} watched: {watched:?}",
            dir.display()
        );
    }
    // What is not watched is said, with the command that ends the fallback.
    let warning =
        run.warnings().into_iter().find(|w| w.contains("using the pregenerated")).unwrap();
    // (conda's include directory: its prefix is the project.)
    for said in
        [project.join("include").display().to_string(), "`cargo clean -p libcuda-sys`".into()]
    {
        assert!(warning.contains(&said), "the warning lacks {said}\n{}", run.report());
    }
    // The system's package database: an install through apt or rpm re-runs the build.
    if Path::new("/var/lib/dpkg/status").is_file() {
        assert!(watched.contains(&PathBuf::from("/var/lib/dpkg/status")), "{watched:?}");
    }
    // conda: its install records, in a prefix too large to watch whole.
    let mut case = Case::new("fallback_watches_conda");
    let prefix = case.mkdir("conda");
    let meta = case.mkdir("conda/conda-meta");
    let lib = case.mkdir("conda/lib");
    for i in 0..4100 {
        fs::write(lib.join(format!("lib{i}.so")), "").unwrap();
    }
    let run = case.env("LIBCUDA_SYS_BINDINGS", "").env("CONDA_PREFIX", &prefix).run();
    assert!(watched_paths(&run).contains(&meta), "{:?}", watched_paths(&run));
}

/// pip's places: `nvidia/` of a site directory once it exists; before, the
/// site directory (a `pip install --target` directory on `PYTHONPATH` too) is
/// named, not watched, since every install there would re-run the build.
#[test]
fn a_fallback_watches_pips_nvidia_directories_and_names_the_rest() {
    if !installed_toolkit_headers().is_empty() {
        return testkit::skip("this machine has CUDA headers in a standard location");
    }
    let Some(python) = python3() else {
        return testkit::skip("no python3 on PATH");
    };
    let mut case = Case::new("fallback_watches_pip");
    case.tool("python3", &python);
    let home = case.mkdir("home");
    let target = case.mkdir("pip-target");
    fs::write(target.join("some_package.py"), "").unwrap();
    let site = case.mkdir("venv/lib/python3/site-packages");
    let nvidia = case.mkdir("venv/lib/python3/site-packages/nvidia/nccl");
    let run = case
        .env("LIBCUDA_SYS_BINDINGS", "")
        .env("HOME", &home)
        .env("PYTHONPATH", std::env::join_paths([&target, &site]).unwrap())
        .run();
    assert_eq!(run.metadata("found_by"), "pregenerated", "{}", run.report());
    assert_watch_rules(&run, &case, &home);
    let watched = watched_paths(&run);
    assert!(watched.contains(&nvidia.parent().unwrap().to_path_buf()), "{watched:?}");
    for dir in [&target, &site] {
        assert!(!watched.contains(dir), "{} watched: {watched:?}", dir.display());
    }
    let warning =
        run.warnings().into_iter().find(|w| w.contains("using the pregenerated")).unwrap();
    let named = target.join("nvidia").display().to_string();
    assert!(warning.contains(&named), "the warning lacks {named}\n{}", run.report());
}

#[test]
fn generated_bindings_watch_their_include_directory_unless_the_build_writes_there() {
    if generation_unavailable() {
        return;
    }
    let mut case = Case::new("generated_watches");
    let root = case.small_toolkit("toolkit");
    let run = case.env("CUDA_PATH", &root).run();
    run.found(&root.join("include"), "CUDA_PATH");
    let watched = watched_paths(&run);
    let include = root.join("include").canonicalize().unwrap();
    assert!(watched.contains(&include), "{watched:?}");
    assert!(!watched.contains(&case.bin), "{watched:?}");
    assert_watch_rules(&run, &case, Path::new("/nonexistent-home"));

    // Headers kept inside the target directory: read, never watched as a directory.
    let mut case = Case::new("generated_watches_in_target");
    let include = case.small_headers("target/cuda-include");
    let run = case.env("LIBCUDA_SYS_INCLUDE_DIR", &include).run();
    assert_eq!(run.code, Some(0), "{}", run.report());
    assert!(!watched_paths(&run).contains(&include), "{}", run.report());
}

#[test]
fn docs_rs_uses_the_pregenerated_bindings_without_searching() {
    let mut case = Case::new("docs_rs");
    // A toolkit the search would find (nvcc on PATH) is not searched for.
    let root = case.mkdir("toolkit");
    let nvcc = case.mkdir("toolkit/bin").join("nvcc");
    fs::write(&nvcc, "#!/bin/sh\n").unwrap();
    fs::set_permissions(&nvcc, fs::Permissions::from_mode(0o755)).unwrap();
    case.mkdir("toolkit/include");
    let run = case
        .env("LIBCUDA_SYS_BINDINGS", "")
        .env("DOCS_RS", "1")
        .feature("dynamic-loading")
        .path(&root.join("bin"))
        .run();
    assert_pregenerated(&run, &case, newest_pregenerated());
    assert!(!run.stderr.contains("nvcc"), "{}", run.report());
    assert!(run.warnings().is_empty(), "{}", run.report());
    assert_eq!(run.metadata("link_kind"), "dynamic-loading");
    assert!(run.directive("rustc-link-lib").is_empty());
}

#[test]
fn pregenerated_per_thread_default_stream_variant() {
    let mut case = Case::new("pregenerated_ptds");
    let run =
        case.env("LIBCUDA_SYS_BINDINGS", "pregenerated").feature("per-thread-default-stream").run();
    assert_pregenerated(&run, &case, newest_pregenerated());
    assert_eq!(run.metadata("per_thread_default_stream"), "true");
    let renames = fs::read_to_string(case.out_dir().join("renames.rs")).unwrap();
    assert!(
        renames.contains("pub use self::cuMemAllocAsync_ptsz as cuMemAllocAsync;"),
        "{renames}"
    );
    // Asked for: no fallback warning.
    assert!(run.warnings().iter().all(|w| !w.contains("pregenerated")), "{}", run.report());
}

#[test]
fn the_profiler_api_is_bound_from_the_headers_there_are() {
    if generation_unavailable() {
        return;
    }
    // pip wheels: no cudaProfiler.h; the PFN_ types of cudaProfilerTypedefs.h
    // whose parameter types cuda.h has (not cuProfilerInitialize's CUoutput_mode).
    let mut case = Case::new("profiler_typedefs");
    let root = case.toolkit("toolkit");
    let run = case.env("CUDA_PATH", &root).run();
    run.found(&root.join("include"), "CUDA_PATH");
    let out = |case: &Case, file: &str| fs::read_to_string(case.out_dir().join(file)).unwrap();
    // Generated text is token-spaced (`pub fn cuProfilerStart ()`).
    let declares = |functions: &str, f: &str| {
        functions.contains(&format!("pub fn {f} (")) || functions.contains(&format!("pub fn {f}("))
    };
    let functions = out(&case, "functions.rs");
    assert!(declares(&functions, "cuProfilerStart"), "no cuProfilerStart");
    assert!(declares(&functions, "cuProfilerStop"), "no cuProfilerStop");
    assert!(!functions.contains("cuProfilerInitialize"));
    if run.metadata("link_kind") == "generated-stub" {
        let exports = case.stand_in_exports();
        assert!(exports.iter().any(|e| e == "cuProfilerStart"), "not in the stand-in");
    }

    // A toolkit's own cudaProfiler.h (here a small one of the same shape) is taken as it is.
    let mut case = Case::new("profiler_header");
    let include = case.mkdir("include");
    for entry in fs::read_dir(&*REAL_INCLUDE).unwrap().flatten() {
        symlink(entry.path(), include.join(entry.file_name())).unwrap();
    }
    fs::write(
        include.join("cudaProfiler.h"),
        "#include \"cuda.h\"\n\
         typedef enum CUoutput_mode_enum { CU_OUT_KEY_VALUE_PAIR = 0, CU_OUT_CSV = 1 } CUoutput_mode;\n\
         CUresult CUDAAPI cuProfilerInitialize(const char *configFile, const char *outputFile, CUoutput_mode outputMode);\n\
         CUresult CUDAAPI cuProfilerStart(void);\nCUresult CUDAAPI cuProfilerStop(void);\n",
    )
    .unwrap();
    let run = case.env("LIBCUDA_SYS_INCLUDE_DIR", &include).run();
    assert_eq!(run.code, Some(0), "{}", run.report());
    let functions = out(&case, "functions.rs");
    for f in ["cuProfilerInitialize", "cuProfilerStart", "cuProfilerStop"] {
        assert!(declares(&functions, f), "no {f}");
    }
    assert!(out(&case, "since.rs").contains("(\"cuProfilerInitialize\", 4000)"));
}
