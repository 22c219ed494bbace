//! The graphics-interop modules (`gl`, `egl`, `vdpau`): one bindgen pass per
//! module over its header, with only what that header adds to `cuda.h`'s.

use crate::harness::*;

/// The 13.0 headers of the cache (`cargo xtask headers 13.0`: `.cuda-headers`
/// or `LIBCUDA_SYS_HEADER_CACHE`), which have `cudaGL.h`, `cudaEGL.h`,
/// `cudaVDPAU.h` and their `*Typedefs.h`; `None` (said as `skipped`) where
/// they are not fetched or nothing can be generated.
fn headers_13_0() -> Option<PathBuf> {
    if generation_unavailable() {
        return None;
    }
    let cache = match std::env::var_os("LIBCUDA_SYS_HEADER_CACHE").filter(|v| !v.is_empty()) {
        Some(dir) => std::path::absolute(dir).unwrap(),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join(".cuda-headers"),
    };
    let dir = cache.join("13.0/nvidia/cu13/include");
    if !dir.join("cudaGL.h").is_file() {
        testkit::skip("the 13.0 headers are not in the cache: `cargo xtask headers 13.0`");
        return None;
    }
    Some(dir)
}

const ALL: [&str; 3] = ["gl", "egl", "vdpau"];

fn read(case: &Case, name: &str) -> String {
    fs::read_to_string(case.out_dir().join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// `DEP_CUDA_ITEMS_<MODULE>` of each module: item names only, each declared
/// by its module's file (`libcuda_sys::gl::NAME`), none of them `cuda.h`'s.
fn module_items(case: &Case, run: &Outcome) -> Vec<String> {
    let root: Vec<String> =
        fs::read_to_string(run.metadata("items")).unwrap().lines().map(String::from).collect();
    let mut lists = Vec::new();
    for m in ALL {
        let list = fs::read_to_string(run.metadata(&format!("items_{m}"))).unwrap();
        let text = read(case, &format!("{m}.rs"));
        for name in list.lines() {
            let identifier = name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                && name != "_";
            assert!(identifier, "DEP_CUDA_ITEMS_{m} has `{name}`");
            let declared = [" {name}(", " {name}:", " {name} ", " {name};", " {name}<"]
                .iter()
                .any(|form| text.contains(&form.replace("{name}", name)));
            assert!(declared, "DEP_CUDA_ITEMS_{m} has `{name}`, which {m}.rs does not declare");
            assert!(!root.contains(&name.to_string()), "`{name}` is in DEP_CUDA_ITEMS too");
        }
        lists.push(list);
    }
    lists
}

/// Each module's file holds its header's functions, bound under the plain
/// names the header's macros give them; `cuda.h`'s items stay where they were
/// and the window system's types are left to the crate. Without the features
/// nothing of them is made, and `cuda.h`'s files are the same as with them.
#[test]
fn each_interop_module_binds_what_its_header_adds() {
    let Some(include) = headers_13_0() else { return };
    let mut case = Case::new("interop_all");
    for f in ALL {
        case.feature(f);
    }
    let run = case.env("LIBCUDA_SYS_INCLUDE_DIR", &include).run();
    assert_eq!(run.code, Some(0), "{}", run.report());
    assert_eq!(run.metadata("interop"), "gl,egl,vdpau");

    let gl = read(&case, "gl.rs");
    for needle in [
        "pub fn cuGraphicsGLRegisterBuffer",
        "pub fn cuGraphicsGLRegisterImage",
        "pub fn cuGLGetDevices_v2",
        "pub use self::cuGLGetDevices_v2 as cuGLGetDevices;",
        "pub use self::cuGLCtxCreate_v2 as cuGLCtxCreate;",
        "pub use self::cuGLMapBufferObject_v2 as cuGLMapBufferObject;",
        "pub use self::cuGLMapBufferObjectAsync_v2 as cuGLMapBufferObjectAsync;",
        "pub struct CUGLDeviceList_enum",
        "pub const CU_GL_DEVICE_LIST_ALL: CUGLDeviceList",
    ] {
        assert!(gl.contains(needle), "gl.rs lacks `{needle}`");
    }
    let egl = read(&case, "egl.rs");
    for needle in [
        "pub fn cuEGLStreamConsumerConnect",
        "pub fn cuGraphicsEGLRegisterImage",
        "pub fn cuEventCreateFromEGLSync",
        "pub struct CUeglFrame_st",
        "pub union CUeglFrame_st__bindgen_ty_1",
        "pub const MAX_PLANES",
        "pub const CUDA_EGL_INFINITE_TIMEOUT",
    ] {
        assert!(egl.contains(needle), "egl.rs lacks `{needle}`");
    }
    let vdpau = read(&case, "vdpau.rs");
    for needle in [
        "pub fn cuVDPAUCtxCreate_v2",
        "pub use self::cuVDPAUCtxCreate_v2 as cuVDPAUCtxCreate;",
        "pub fn cuGraphicsVDPAURegisterVideoSurface",
    ] {
        assert!(vdpau.contains(needle), "vdpau.rs lacks `{needle}`");
    }
    // What cuda.h declares is bound once, at the crate root, and the window
    // system's types are the crate's own, whatever headers this machine has.
    for (name, text) in [("gl.rs", &gl), ("egl.rs", &egl), ("vdpau.rs", &vdpau)] {
        for absent in [
            "pub struct CUarray_st",
            "pub struct cudaError_enum",
            "pub type CUstream",
            "pub fn cuGraphicsMapResources",
            "pub type GLuint",
            "pub type EGLint",
            "pub type khronos_int32_t",
            "pub type VdpDevice",
            "VDP_STATUS_OK",
        ] {
            assert!(!text.contains(absent), "{name} has `{absent}`");
        }
    }
    let functions = read(&case, "functions.rs");
    assert!(!functions.contains("cuGLGetDevices"), "cuda.h's functions.rs has a module's function");
    // The tables know them: FUNCTIONS, SINCE (from cudaGLTypedefs.h ...), PLAIN_NAMES.
    let since = read(&case, "since.rs");
    for row in [
        "(\"cuGLGetDevices_v2\", 6050)",
        "(\"cuGraphicsGLRegisterBuffer\", 3000)",
        "(\"cuEGLStreamConsumerConnectWithFlags\", 8000)",
        "(\"cuEventCreateFromEGLSync\", 9000)",
        "(\"cuVDPAUCtxCreate_v2\", 3020)",
        "(\"cuGLGetDevices\", \"cuGLGetDevices_v2\")",
        "(\"cuVDPAUCtxCreate\", \"cuVDPAUCtxCreate_v2\")",
    ] {
        assert!(since.contains(row), "since.rs lacks {row}");
    }
    // The stand-in exports them (bound symbols and plain names), so they link.
    if !linking_untestable() {
        let exports = case.stand_in_exports();
        for symbol in [
            "cuGraphicsGLRegisterBuffer",
            "cuGLGetDevices_v2",
            "cuGLGetDevices",
            "cuEGLStreamConsumerConnect",
            "cuEventCreateFromEGLSync",
            "cuVDPAUCtxCreate_v2",
            "cuVDPAUCtxCreate",
            "cuGraphicsVDPAURegisterOutputSurface",
        ] {
            assert!(exports.iter().any(|e| e == symbol), "the stand-in lacks {symbol}");
        }
    }
    // vdpau/vdpau.h, where the system has none, is the crate's stand-in.
    assert!(case.out_dir().join("interop-headers/vdpau/vdpau.h").is_file());

    // The modules' items, for dependents, are those of the pregenerated set too.
    let generated = module_items(&case, &run);
    for (list, name) in generated.iter().zip(["cuGLGetDevices", "CUeglFrame", "cuVDPAUCtxCreate"]) {
        assert!(list.lines().any(|l| l == name), "no {name} in {list}");
    }
    let mut pregenerated = Case::new("interop_pregenerated_13_0");
    for f in ALL {
        pregenerated.feature(f);
    }
    let run = pregenerated.feature("cuda-13000").env("LIBCUDA_SYS_BINDINGS", "pregenerated").run();
    assert_eq!(run.code, Some(0), "{}", run.report());
    assert_eq!(module_items(&pregenerated, &run), generated);

    // Without the features the bindings are unchanged: no module's file, and
    // cuda.h's files the same.
    let mut without = Case::new("interop_without");
    let run = without.env("LIBCUDA_SYS_INCLUDE_DIR", &include).run();
    assert_eq!(run.code, Some(0), "{}", run.report());
    assert_eq!(run.metadata_or_empty("interop"), "");
    for name in ALL.map(|m| format!("{m}.rs")).iter().map(String::as_str).chain(["interop-headers"])
    {
        assert!(!without.out_dir().join(name).exists(), "{name} made without its feature");
    }
    // cuda.h's files, each the same with the modules and without; the map
    // has the modules' groups after cuda.h's.
    for name in libcuda_sys_build::model::RENDERED_FILES.iter().chain(&["crate_docs.md"]) {
        let (with, without) = (read(&case, name), read(&without, name));
        if *name == "map.rs" {
            let end = "pub mod map {}\n";
            let cuda_h = without.strip_suffix(end).expect("the map ends with its module");
            assert!(
                with.starts_with(cuda_h) && with.ends_with(end),
                "map.rs: cuda.h's part differs"
            );
            assert!(with.contains("(feature `gl`)") && !without.contains("(feature `"));
            continue;
        }
        assert!(with == without, "{name} differs with the features");
    }
}

/// With the per-thread default stream, the two GL calls that have a variant
/// for it are bound to that one under their plain names.
#[test]
fn per_thread_default_stream_binds_the_gl_variants() {
    let Some(include) = headers_13_0() else { return };
    let mut case = Case::new("interop_ptds");
    case.feature("gl").feature("per-thread-default-stream");
    let run = case.env("LIBCUDA_SYS_INCLUDE_DIR", &include).run();
    assert_eq!(run.code, Some(0), "{}", run.report());
    let gl = read(&case, "gl.rs");
    assert!(gl.contains("pub use self::cuGLMapBufferObject_v2_ptds as cuGLMapBufferObject;"));
    assert!(
        gl.contains("pub use self::cuGLMapBufferObjectAsync_v2_ptsz as cuGLMapBufferObjectAsync;")
    );
    // No per-thread variant of its own: bound as it is.
    assert!(gl.contains("pub fn cuGLUnmapBufferObjectAsync"));
    assert!(!gl.contains("cuGLUnmapBufferObjectAsync_ptsz"));
}

/// The pregenerated set has the modules of every release, with what the
/// generated ones have: the header's functions under their plain names, the
/// dates from `cud*Typedefs.h`, and the enumerators that came with a release.
#[test]
fn pregenerated_bindings_have_the_interop_modules() {
    for (name, release, egl_formats) in [
        ("interop_pregenerated_11_7", "cuda-11070", false),
        ("interop_pregenerated_12_8", "cuda-12080", true),
        ("interop_pregenerated_13_5", "cuda-13050", true),
    ] {
        let mut case = Case::new(name);
        for f in ALL {
            case.feature(f);
        }
        let run = case.feature(release).env("LIBCUDA_SYS_BINDINGS", "pregenerated").run();
        assert_eq!(run.code, Some(0), "{}", run.report());
        assert_eq!(run.metadata("interop"), "gl,egl,vdpau");
        let (gl, egl, vdpau) =
            (read(&case, "gl.rs"), read(&case, "egl.rs"), read(&case, "vdpau.rs"));
        for (name, text, needle) in [
            ("gl.rs", &gl, "pub fn cuGLGetDevices_v2("),
            ("gl.rs", &gl, "pub use self::cuGLGetDevices_v2 as cuGLGetDevices;"),
            ("gl.rs", &gl, "pub const CU_GL_DEVICE_LIST_ALL: CUGLDeviceList"),
            ("egl.rs", &egl, "pub fn cuGraphicsEGLRegisterImage("),
            ("egl.rs", &egl, "pub union CUeglFrame_st__bindgen_ty_1"),
            ("vdpau.rs", &vdpau, "pub use self::cuVDPAUCtxCreate_v2 as cuVDPAUCtxCreate;"),
        ] {
            assert!(text.contains(needle), "{release}: {name} lacks `{needle}`");
        }
        module_items(&case, &run);
        // Three EGL colour formats came with 12.8.
        assert_eq!(egl.contains("CU_EGL_COLOR_FORMAT_UYVY_709_ER"), egl_formats, "{release}");
        let since = read(&case, "since.rs");
        for row in ["(\"cuGLGetDevices_v2\", 6050)", "(\"cuEventCreateFromEGLSync\", 9000)"] {
            assert!(since.contains(row), "{release}: since.rs lacks {row}");
        }
        // Each function page names its module's page of NVIDIA's reference.
        assert!(gl.contains("group__CUDA__GL.html"), "{release}: gl.rs links no reference page");
    }
}

/// The interop headers' functions are Linux's here: a feature on for another
/// target stops the build first, with the fix.
#[test]
fn an_interop_feature_for_another_target_is_an_error() {
    let mut case = Case::new("interop_windows");
    for f in ALL {
        case.feature(f);
    }
    let run = case.env("CARGO_CFG_TARGET_OS", "windows").run();
    run.failure("the `gl`, `egl`, `vdpau` feature is for Linux targets; this build is for windows");
    run.assert_stderr_has(&["target_os = \"linux\""]);
    run.assert_explanation_unindented();
}

/// The Direct3D modules are Windows': pregenerated for every release, bound
/// for a Windows target with their plain names and dates, and an error for
/// any other target.
#[test]
fn direct3d_modules_are_bound_for_windows_only() {
    const D3D: [&str; 3] = ["d3d9", "d3d10", "d3d11"];
    let mut case = Case::new("interop_d3d_windows");
    for f in D3D {
        case.feature(f);
    }
    let run = case
        .feature("dynamic-loading")
        .feature("cuda-12040")
        .env("TARGET", "x86_64-pc-windows-msvc")
        .env("CARGO_CFG_TARGET_OS", "windows")
        .env("CARGO_CFG_TARGET_ENV", "msvc")
        .env("LIBCUDA_SYS_BINDINGS", "pregenerated")
        .run();
    assert_eq!(run.code, Some(0), "{}", run.report());
    assert_eq!(run.metadata("interop"), "d3d9,d3d10,d3d11");
    for (name, needles) in [
        (
            "d3d9.rs",
            &[
                "pub fn cuGraphicsD3D9RegisterResource(",
                "pub use self::cuD3D9CtxCreate_v2 as cuD3D9CtxCreate;",
                "pub const CU_D3D9_DEVICE_LIST_ALL: CUd3d9DeviceList",
            ][..],
        ),
        ("d3d10.rs", &["pub fn cuD3D10GetDevice(", "pDevPtr: *mut CUdeviceptr"][..]),
        (
            "d3d11.rs",
            &[
                "pub fn cuGraphicsD3D11RegisterResource(",
                "pD3DResource: *mut ID3D11Resource",
                "pub use self::cuD3D11CtxCreate_v2 as cuD3D11CtxCreate;",
            ][..],
        ),
    ] {
        let text = read(&case, name);
        for needle in needles {
            assert!(text.contains(needle), "{name} lacks `{needle}`");
        }
        // MinGW's headers bring vtables and Direct3D's own structs; none is bound.
        for absent in ["Vtbl", "pub struct IUnknown", "pub type HRESULT", "pub struct _GUID"] {
            assert!(!text.contains(absent), "{name} has `{absent}`");
        }
    }
    let since = read(&case, "since.rs");
    assert!(since.contains("(\"cuGraphicsD3D11RegisterResource\", 3000)"), "since.rs");

    let mut linux = Case::new("interop_d3d_linux");
    let run = linux.feature("d3d11").feature("gl").run();
    run.failure("the `d3d11` feature is for Windows targets; this build is for linux");
    run.assert_stderr_has(&["target_os = \"windows\""]);
    run.assert_explanation_unindented();

    // docs.rs documents every module on its one Linux page: nothing is linked.
    let mut docs = Case::new("interop_d3d_docs_rs");
    for f in D3D.iter().chain(&ALL) {
        docs.feature(*f);
    }
    let run =
        docs.feature("dynamic-loading").env("DOCS_RS", "1").env("LIBCUDA_SYS_BINDINGS", "").run();
    assert_eq!(run.code, Some(0), "{}", run.report());
    assert_eq!(run.metadata("interop"), "gl,egl,vdpau,d3d9,d3d10,d3d11");
    assert!(read(&docs, "d3d11.rs").contains("pub fn cuD3D11GetDevices("));
}

/// An interop feature whose header these headers lack is an error that names
/// the header and the feature, not the preprocessor's failure on cuda.h.
#[test]
fn a_feature_without_its_header_says_which() {
    if generation_unavailable() {
        return;
    }
    let case = &mut Case::new("interop_no_header");
    let include = case.small_headers("include");
    let run = case
        .feature("egl")
        .env("LIBCUDA_SYS_INCLUDE_DIR", &include)
        .env("LIBCUDA_SYS_BINDINGS", "generate")
        .run();
    run.failure(&format!(
        "the `egl` feature needs cudaEGL.h beside cuda.h in {}",
        include.display()
    ));
    run.assert_stderr_has(&["turn the `egl` feature off", "LIBCUDA_SYS_BINDINGS=pregenerated"]);
}

/// A module's `*Typedefs.h` that is missing is named as missing; the
/// `cudaTypedefs.h` beside it, present and of cuda.h's release, is not blamed.
#[test]
fn a_missing_module_typedefs_header_is_named() {
    if generation_unavailable() {
        return;
    }
    let case = &mut Case::new("interop_no_typedefs");
    let include = include_with(case, "include", &[]);
    fs::remove_file(include.join("cudaGLTypedefs.h")).unwrap();
    let run = case.feature("gl").env("LIBCUDA_SYS_INCLUDE_DIR", &include).run();
    assert_eq!(run.code, Some(0), "{}", run.report());
    let warning = run.warnings().into_iter().find(|w| w.contains("since()")).unwrap_or_default();
    let missing = include.join("cudaGLTypedefs.h").display().to_string();
    assert!(warning.contains(&format!("{missing} is absent")), "{warning}");
    assert!(!warning.contains("cudaTypedefs.h types no ABI"), "{warning}");
}
