//! The discovery order, and what a successful run emits.

use crate::harness::*;

// ---------------------------------------------------------------------------
// 8. Discovery order, and 9. what a successful run emits.

#[test]
fn include_dir_beats_cuda_path_and_emits_everything() {
    if linking_untestable() || generation_unavailable() {
        return;
    }
    let mut case = Case::new("include_dir_wins");
    let root = case.toolkit("toolkit");
    let other = case.toolkit("other");
    let run =
        case.env("LIBCUDA_SYS_INCLUDE_DIR", root.join("include")).env("CUDA_PATH", &other).run();
    run.found(&root.join("include"), "LIBCUDA_SYS_INCLUDE_DIR");
    assert!(run.warnings().iter().all(|w| !w.contains("CUDA_PATH")), "{}", run.report());

    // Version and the cust_raw-compatible keys.
    let number: u32 = REAL_VERSION.parse().unwrap();
    let (major, minor) = (number / 1000, number % 1000 / 10);
    assert_eq!(run.metadata("version_major"), major.to_string());
    assert_eq!(run.metadata("version_minor"), minor.to_string());
    assert_eq!(run.metadata("driver_version"), *REAL_VERSION);
    assert_eq!(run.metadata("driver_version_major"), major.to_string());
    assert_eq!(run.metadata("driver_version_minor"), minor.to_string());
    let resolved = root.join("include").canonicalize().unwrap();
    assert_eq!(Path::new(run.metadata("includes")), resolved);
    // The toolkit above the headers, not above the symlink the variable names.
    assert_eq!(Path::new(run.metadata("root")), resolved.parent().unwrap());
    let ptds = case.has_feature("per-thread-default-stream").to_string();
    assert_eq!(run.metadata("per_thread_default_stream"), ptds);

    // Cumulative cfgs, all declared.
    let cfgs = run.directive("rustc-cfg");
    let own = format!("cuda_{major}_{minor}");
    for cfg in ["cuda_11_2", own.as_str()] {
        assert!(cfgs.contains(&cfg), "no rustc-cfg={cfg}: {cfgs:?}");
    }
    let next = format!("cuda_{major}_{}", minor + 1);
    assert!(!cfgs.contains(&next.as_str()), "rustc-cfg={next} for a {major}.{minor} header");
    assert!(!cfgs.contains(&"cuda_11_1"), "no cfg below the 11.2 minimum");
    let check = run.directive("rustc-check-cfg").join(" ");
    for cfg in cfgs.iter().chain([&next.as_str()]) {
        assert!(check.contains(cfg), "{cfg} not declared in {check}");
    }
    assert!(
        !cfgs.contains(&"libcuda_sys_pregenerated"),
        "generated bindings marked as pregenerated"
    );
    assert_eq!(Path::new(run.metadata("bindings_dir")), case.out_dir(), "{}", run.report());

    // Link lines: wherever libcuda came from, it is there.
    let lib_dir = PathBuf::from(run.metadata("lib_dir"));
    assert_eq!(run.directive("rustc-link-search"), vec![format!("native={}", lib_dir.display())]);
    let libs = run.directive("rustc-link-lib");
    assert!(libs == ["dylib=cuda"] || libs == ["dylib:+verbatim=libcuda.so.1"], "{libs:?}");
    assert!(
        lib_dir.join("libcuda.so").exists() || lib_dir.join("libcuda.so.1").exists(),
        "no libcuda in {}",
        lib_dir.display()
    );
    match run.metadata("link_kind") {
        "generated-stub" => {
            assert_eq!(lib_dir, case.out_dir().join("stub"));
            assert!(run.warnings().iter().any(|w| w.contains("stand-in")), "{}", run.report());
        }
        "driver" | "toolkit-stub" => {}
        other => panic!("link_kind={other}"),
    }
    // Nothing for tests only: they read the crate's constants.
    assert!(run.directive("rustc-env").is_empty(), "{}", run.report());
    for file in [
        "bindings.rs",
        "functions.rs",
        "renames.rs",
        "value_types.rs",
        "since.rs",
        "macro_constants.rs",
    ] {
        let len = fs::metadata(case.out_dir().join(file)).map(|m| m.len()).unwrap_or(0);
        assert!(len > 0, "OUT_DIR/{file} missing or empty");
    }
}

/// `LIBCUDA_SYS_INCLUDE_DIR` naming a symlink to a toolkit's headers, which
/// that toolkit keeps in `targets/<triple>/include` (its own `include` is a
/// symlink there too): `DEP_CUDA_ROOT` is that toolkit, above `DEP_CUDA_INCLUDE`.
#[test]
fn a_symlinked_include_dir_gives_the_toolkit_above_its_headers() {
    if generation_unavailable() {
        return;
    }
    let mut case = Case::new("include_symlink_root");
    let headers = case.small_headers("cuda-13.0/targets/x86_64-linux/include");
    let toolkit = case.dir.join("cuda-13.0");
    symlink("targets/x86_64-linux/include", toolkit.join("include")).unwrap();
    let link = case.mkdir("project").join("cuda-include");
    symlink(toolkit.join("include"), &link).unwrap();
    let run = case.env("LIBCUDA_SYS_INCLUDE_DIR", &link).run();
    assert_eq!(run.code, Some(0), "{}", run.report());
    assert_eq!(Path::new(run.metadata("include")), headers.canonicalize().unwrap());
    assert_eq!(Path::new(run.metadata("root")), toolkit.canonicalize().unwrap());
}

#[test]
fn target_prefixed_include_dir_beats_plain_one() {
    if generation_unavailable() {
        return;
    }
    let mut case = Case::new("prefixed_wins");
    let prefixed_root = case.small_toolkit("for-target");
    let plain_root = case.small_toolkit("plain");
    let name = prefixed("LIBCUDA_SYS_INCLUDE_DIR");
    let run = case
        .env(&name, prefixed_root.join("include"))
        .env("LIBCUDA_SYS_INCLUDE_DIR", plain_root.join("include"))
        .run();
    run.found(&prefixed_root.join("include"), &name);
}

#[test]
fn cuda_path_beats_cuda_home_and_warns_when_they_disagree() {
    if generation_unavailable() {
        return;
    }
    let mut case = Case::new("cuda_path_wins");
    let path_root = case.small_toolkit("cuda-path");
    let home_root = case.small_toolkit("cuda-home");
    // CUDA_ROOT names the same directory as CUDA_PATH (through a symlink): no warning for it.
    let alias = case.dir.join("cuda-path-alias");
    symlink(&path_root, &alias).unwrap();
    let run = case
        .env("CUDA_PATH", &path_root)
        .env("CUDA_HOME", &home_root)
        .env("CUDA_ROOT", &alias)
        .run();
    run.found(&path_root.join("include"), "CUDA_PATH");
    assert_eq!(Path::new(run.metadata("root")), path_root);
    let disagree: Vec<&str> =
        run.warnings().into_iter().filter(|w| w.contains("disagree")).collect();
    assert_eq!(disagree.len(), 1, "one warning, for CUDA_HOME only\n{}", run.report());
    for part in [
        format!("CUDA_PATH={}", path_root.display()),
        format!("CUDA_HOME={}", home_root.display()),
        "is ignored".into(),
    ] {
        assert!(disagree[0].contains(&part), "warning lacks `{part}`: {}", disagree[0]);
    }
    run.assert_reruns(&ROOT_VARS);
}

#[test]
fn nvcc_on_path_is_found() {
    if generation_unavailable() {
        return;
    }
    let mut case = Case::new("nvcc");
    let root = case.small_toolkit("toolkit");
    let nvcc = case.mkdir("toolkit/bin").join("nvcc");
    fs::write(&nvcc, "#!/bin/sh\necho 'nvcc: fake' >&2\nexit 1\n").unwrap();
    fs::set_permissions(&nvcc, fs::Permissions::from_mode(0o755)).unwrap();
    let run = case.path(&root.join("bin")).run();
    run.found(&root.join("include"), "nvcc on PATH");
    assert_eq!(Path::new(run.metadata("root")), root);
    let mut vars = ROOT_VARS.map(String::from).to_vec();
    vars.push("PATH".into());
    run.assert_reruns(&vars);
}

#[test]
fn conda_prefix_is_found() {
    if generation_unavailable() {
        return;
    }
    let mut case = Case::new("conda");
    // conda's cuda packages keep the headers under targets/<dir>/include only.
    let prefix = case.mkdir("env");
    let include = case.small_headers(&format!("env/targets/{TOOLKIT_TARGET_DIR}/include"));
    // Empty values count as unset.
    let run = case
        .env("CONDA_PREFIX", &prefix)
        .env("CUDA_PATH", "")
        .env("LIBCUDA_SYS_INCLUDE_DIR", "")
        .run();
    run.found(&include, "conda ($CONDA_PREFIX)");
    assert_eq!(Path::new(run.metadata("root")), prefix);
    run.assert_reruns(&["CUDA_PATH", "PATH", "PKG_CONFIG_PATH", "CONDA_PREFIX"]);
}

#[test]
fn pip_wheel_on_pythonpath_is_found() {
    if generation_unavailable() {
        return;
    }
    let Some(python) = python3() else {
        return testkit::skip("no python3 on PATH");
    };
    let mut case = Case::new("pip");
    case.tool("python3", &python);
    let site = case.mkdir("site-packages");
    let include = case.small_headers("site-packages/nvidia/cu13/include");
    let run = case.env("PYTHONPATH", &site).run();
    run.found(&include, "pip wheel");
    run.assert_reruns(&["PATH", "CONDA_PREFIX", "VIRTUAL_ENV", "PYTHONPATH"]);
}

#[test]
fn pkg_config_file_is_found() {
    if generation_unavailable() {
        return;
    }
    let Some(pkg_config) = which("pkg-config") else {
        return testkit::skip("pkg-config is not installed");
    };
    let mut case = Case::new("pkg_config");
    case.tool("pkg-config", &pkg_config);
    let root = case.small_toolkit("cuda-13.0");
    let pc = case.mkdir("pkgconfig");
    fs::write(
        pc.join("cuda-13.0.pc"),
        format!(
            "cudaroot={}\nlibdir=${{cudaroot}}/lib64\nincludedir=${{cudaroot}}/include\n\n\
             Name: cuda\nDescription: CUDA Driver Library\nVersion: 13.0\nLibs: -L${{libdir}} -lcuda\nCflags: -I${{includedir}}\n",
            // As a .pc file writes a path with spaces.
            root.display().to_string().replace(' ', "\\ ")
        ),
    )
    .unwrap();
    // PKG_CONFIG_LIBDIR replaces the system's own .pc directories, so a CUDA
    // installed on this machine cannot answer first.
    let system = case.mkdir("no-system-pc");
    let run = case.env("PKG_CONFIG_PATH", &pc).env("PKG_CONFIG_LIBDIR", &system).run();
    run.found(&root.join("include"), "pkg-config");
    run.assert_reruns(&["PATH", "PKG_CONFIG_PATH", "PKG_CONFIG_LIBDIR"]);
}

#[test]
fn a_pc_file_that_does_not_parse_is_logged_and_the_search_stays_short() {
    let Some(pkg_config) = which("pkg-config") else {
        return testkit::skip("pkg-config is not installed");
    };
    if !installed_toolkit_headers().is_empty() {
        return testkit::skip("this machine has CUDA headers in a standard location");
    }
    let mut case = Case::new("pkg_config_garbage");
    case.tool("pkg-config", &pkg_config);
    let pc = case.mkdir("pkgconfig");
    fs::write(pc.join("cuda-12.4.pc"), "this is not a pc file {{{\n").unwrap();
    let system = case.mkdir("no-system-pc");
    let run = case.env("PKG_CONFIG_PATH", &pc).env("PKG_CONFIG_LIBDIR", &system).run();
    run.failure("no CUDA headers (cuda.h) found");
    run.assert_stderr_has(&[&format!(
        "pkg-config could not read {}, passed over",
        pc.join("cuda-12.4.pc").display()
    )]);
    // 29 release names are probed; their variables are registered once.
    let reruns = run.directive("rerun-if-env-changed").len();
    assert!(reruns < 120, "{reruns} rerun-if-env-changed lines\n{}", run.report());
}
