//! The graphics-interop modules (`gl`, `egl`, `vdpau` on Linux, `d3d9`,
//! `d3d10`, `d3d11` on Windows), as data: which
//! header each binds, the `*Typedefs.h` that dates its functions, what it
//! includes before that header, the window-system types it uses, and the
//! stand-ins for the window system's headers. Part of the spine: `find`
//! checks the features against the target, `make` runs one bindgen pass per
//! module over [`Interop::source`] (or `pregenerated` loads the module's part
//! of the set, `pregenerated/<module>/`), `write` renders `OUT_DIR/<module>.rs`
//! and the module's tables (`OUT_DIR/tables/<module>/`).
//!
//! The window-system types (`GLuint`, `EGLImageKHR`, `VdpDevice`, ...) are
//! written by hand in the crate (`src/interop_types.rs`) and kept out of
//! bindgen's output: with the system's headers bindgen would emit
//! `khronos_int32_t`, a `VdpStatus` newtype and its 26 constants, without them
//! nothing, so the API would depend on which -dev packages the build machine
//! has. The system's headers are still read where they are installed; where
//! one is missing, a stand-in that declares only those types is found after
//! every other include directory (`-idirafter`), so an installed header wins.

use crate::model::{Error, Result};

/// One interop module.
pub struct Interop {
    /// The Cargo feature and the module's name (`libcuda_sys::gl`).
    pub feature: &'static str,
    /// The driver API header that declares it, beside `cuda.h`.
    pub header: &'static str,
    /// Its `PFN_` typedefs, which date its functions (`make::since`).
    pub typedefs: &'static str,
    /// What the header needs included before it (cudaVDPAU.h includes
    /// neither `cuda.h` nor `vdpau/vdpau.h` itself).
    pub before: &'static [&'static str],
    /// The window-system types its declarations use, each written by hand
    /// in the crate; bindgen is told to leave them out.
    pub types: &'static [&'static str],
    /// `(path, text)` of the window system's headers it includes, each as a
    /// stand-in that declares only the types above.
    pub stand_ins: &'static [(&'static str, &'static str)],
    /// The Debian package that has the real headers (`cargo xtask setup`
    /// installs it, so that systest checks the modules against them).
    pub package: &'static str,
    /// The target OS whose driver has the module's functions (`target_os`).
    pub os: &'static str,
    /// Whether the module's pass reads the system's headers where they are
    /// installed (the stand-ins after every include directory), or only the
    /// stand-ins. The Direct3D headers bring `windows.h`, which cost a
    /// Windows build 46 seconds instead of 15 for its three passes and adds
    /// nothing: the interfaces are opaque. systest reads them either way.
    pub reads_system_headers: bool,
}

/// Every interop module, in the order the features are listed.
pub const MODULES: [Interop; 6] = [
    Interop {
        feature: "gl",
        header: "cudaGL.h",
        typedefs: "cudaGLTypedefs.h",
        before: &[],
        types: &["GLuint", "GLenum"],
        stand_ins: &[(
            "GL/gl.h",
            "/* libcuda-sys: used only where the system has no <GL/gl.h>. */\n\
             typedef unsigned int GLenum;\ntypedef unsigned int GLuint;\n",
        )],
        package: "libgl-dev",
        os: "linux",
        reads_system_headers: true,
    },
    Interop {
        feature: "egl",
        header: "cudaEGL.h",
        typedefs: "cudaEGLTypedefs.h",
        before: &[],
        types: &["EGLint", "EGLImageKHR", "EGLStreamKHR", "EGLSyncKHR"],
        stand_ins: &[
            (
                "EGL/egl.h",
                "/* libcuda-sys: used only where the system has no <EGL/egl.h>. */\n\
                 #include <stdint.h>\ntypedef int32_t EGLint;\n",
            ),
            (
                "EGL/eglext.h",
                "/* libcuda-sys: used only where the system has no <EGL/eglext.h>. */\n\
                 typedef void *EGLImageKHR;\ntypedef void *EGLStreamKHR;\ntypedef void *EGLSyncKHR;\n",
            ),
        ],
        package: "libegl-dev",
        os: "linux",
        reads_system_headers: true,
    },
    Interop {
        feature: "vdpau",
        header: "cudaVDPAU.h",
        typedefs: "cudaVDPAUTypedefs.h",
        before: &["vdpau/vdpau.h"],
        types: &[
            "VdpDevice",
            "VdpVideoSurface",
            "VdpOutputSurface",
            "VdpFuncId",
            "VdpStatus",
            "VdpGetProcAddress",
        ],
        stand_ins: &[(
            "vdpau/vdpau.h",
            "/* libcuda-sys: used only where the system has no <vdpau/vdpau.h>. */\n\
             #include <stdint.h>\n\
             typedef uint32_t VdpDevice;\ntypedef uint32_t VdpVideoSurface;\n\
             typedef uint32_t VdpOutputSurface;\ntypedef uint32_t VdpFuncId;\n\
             typedef unsigned int VdpStatus;\n\
             typedef VdpStatus VdpGetProcAddress(VdpDevice, VdpFuncId, void **);\n",
        )],
        package: "libvdpau-dev",
        os: "linux",
        reads_system_headers: true,
    },
    Interop {
        feature: "d3d9",
        header: "cudaD3D9.h",
        typedefs: "cudaD3D9Typedefs.h",
        before: &["d3d9.h"],
        types: &["IDirect3DDevice9", "IDirect3DResource9", "IDirect3DVertexBuffer9"],
        stand_ins: &[(
            "d3d9.h",
            "/* libcuda-sys: used only where the system has no <d3d9.h>. */\n\
             typedef struct IDirect3DDevice9 IDirect3DDevice9;\n\
             typedef struct IDirect3DResource9 IDirect3DResource9;\n\
             typedef struct IDirect3DVertexBuffer9 IDirect3DVertexBuffer9;\n",
        )],
        package: "mingw-w64-x86-64-dev",
        os: "windows",
        reads_system_headers: false,
    },
    Interop {
        feature: "d3d10",
        header: "cudaD3D10.h",
        typedefs: "cudaD3D10Typedefs.h",
        before: &["d3d10.h"],
        types: &["IDXGIAdapter", "ID3D10Device", "ID3D10Resource"],
        stand_ins: &[(
            "d3d10.h",
            "/* libcuda-sys: used only where the system has no <d3d10.h>. */\n\
             typedef struct IDXGIAdapter IDXGIAdapter;\n\
             typedef struct ID3D10Device ID3D10Device;\n\
             typedef struct ID3D10Resource ID3D10Resource;\n",
        )],
        package: "mingw-w64-x86-64-dev",
        os: "windows",
        reads_system_headers: false,
    },
    Interop {
        feature: "d3d11",
        header: "cudaD3D11.h",
        typedefs: "cudaD3D11Typedefs.h",
        before: &["d3d11.h"],
        types: &["IDXGIAdapter", "ID3D11Device", "ID3D11Resource"],
        stand_ins: &[(
            "d3d11.h",
            "/* libcuda-sys: used only where the system has no <d3d11.h>. */\n\
             typedef struct IDXGIAdapter IDXGIAdapter;\n\
             typedef struct ID3D11Device ID3D11Device;\n\
             typedef struct ID3D11Resource ID3D11Resource;\n",
        )],
        package: "mingw-w64-x86-64-dev",
        os: "windows",
        reads_system_headers: false,
    },
];

/// Defines every interop pass reads the headers with: no X11 or `windows.h`
/// from `EGL/eglplatform.h`, whose platform types no interop header uses.
pub const DEFINES: [&str; 2] = ["EGL_NO_X11", "EGL_NO_PLATFORM_SPECIFIC_TYPES"];

/// Where the stand-ins are written, under `OUT_DIR`.
pub const STAND_IN_DIR: &str = "interop-headers";

impl Interop {
    /// What the module's pass includes after `wrapper.h` (and the profiler's
    /// declarations): the headers it needs first, then its own.
    pub fn source(&self) -> String {
        self.before.iter().chain([&self.header]).map(|h| format!("#include <{h}>\n")).collect()
    }

    /// bindgen's `allowlist_file`: the module's header, as clang spells its
    /// path on any host.
    pub fn allowlist_file(&self) -> String {
        format!(r".*[/\\]{}", self.header.replace('.', r"\."))
    }
}

/// The window-system types of every module, as one bindgen `blocklist_type`
/// (with `khronos_*`, which `EGLint` is defined through).
pub fn blocklist() -> String {
    let types: Vec<&str> = MODULES.iter().flat_map(|m| m.types.iter().copied()).collect();
    format!("{}|khronos_.*", types.join("|"))
}

/// The modules whose features are on. Each is its own OS's (the window
/// systems of Linux, Direct3D of Windows): a feature on for a target of
/// another OS is an error, but for documentation (`docs_rs`), where nothing
/// is linked and one page shows every module.
pub fn enabled(
    features: &[(&'static str, bool)],
    os: &str,
    docs_rs: bool,
) -> Result<Vec<&'static Interop>> {
    let on: Vec<&'static Interop> = MODULES
        .iter()
        .filter(|m| features.iter().any(|(f, enabled)| *f == m.feature && *enabled))
        .collect();
    let elsewhere: Vec<&Interop> = on.iter().copied().filter(|m| m.os != os && !docs_rs).collect();
    match elsewhere.first() {
        Some(first) => {
            let system = if first.os == "windows" { "Windows" } else { "Linux" };
            Err(Error::new(
                format!(
                    "the {} feature is for {system} targets; this build is for {os}",
                    names(&elsewhere)
                ),
                format!(
                    "{} declares its functions for {system}; the crate binds it only there.\n\n\
                     Fix: enable {} only for {system} targets \
                     ([target.'cfg(target_os = \"{}\")'.dependencies] in Cargo.toml).",
                    first.header,
                    names(&elsewhere),
                    first.os
                ),
            ))
        }
        None => Ok(on),
    }
}

/// The module's header beside `cuda.h` in `include_dir`, or why the feature
/// cannot be generated there: without it the preprocessor would fail on an
/// `#include` the user never wrote.
pub fn check_header(m: &Interop, include_dir: &std::path::Path) -> Result<()> {
    let path = include_dir.join(m.header);
    if path.is_file() {
        return Ok(());
    }
    Err(Error::new(
        format!(
            "the `{}` feature needs {} beside cuda.h in {}",
            m.feature,
            m.header,
            include_dir.display()
        ),
        format!(
            "The `{}` module is generated from {}, which these headers lack: {} is not there.\n\
             Toolkits and NVIDIA's pip wheels (nvidia-cuda-runtime) ship it beside cuda.h.\n\n\
             Fix: use the headers of a full toolkit or wheel (LIBCUDA_SYS_INCLUDE_DIR, CUDA_PATH), \
             or turn the `{}` feature off; LIBCUDA_SYS_BINDINGS=pregenerated binds the module \
             without headers.",
            m.feature,
            m.header,
            path.display(),
            m.feature
        ),
    ))
}

/// `` `gl`, `egl` ``.
fn names(modules: &[&Interop]) -> String {
    modules.iter().map(|m| format!("`{}`", m.feature)).collect::<Vec<_>>().join(", ")
}

/// Writes the stand-ins of `modules` under `out_dir` and returns their
/// directory, for `-idirafter`.
pub fn write_stand_ins(
    modules: &[&Interop],
    out_dir: &std::path::Path,
) -> Result<std::path::PathBuf> {
    let dir = out_dir.join(STAND_IN_DIR);
    let failed = |path: &std::path::Path, e: std::io::Error| {
        Error::new(format!("cannot write {}", path.display()), e.to_string())
    };
    for (path, text) in modules.iter().flat_map(|m| m.stand_ins) {
        let file = dir.join(path);
        if let Some(parent) = file.parent() {
            std::fs::create_dir_all(parent).map_err(|e| failed(parent, e))?;
        }
        std::fs::write(&file, text).map_err(|e| failed(&file, e))?;
    }
    Ok(dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_hand_written_type_is_blocklisted_and_stood_in() {
        let blocklist = blocklist();
        let alternatives: Vec<&str> = blocklist.split('|').collect();
        for m in &MODULES {
            let stand_ins: String = m.stand_ins.iter().map(|(_, t)| *t).collect();
            for t in m.types {
                assert!(alternatives.contains(t), "{t}");
                let declared = [format!(" {t};"), format!("*{t};"), format!(" {t}(")];
                assert!(declared.iter().any(|d| stand_ins.contains(d)), "{t}");
            }
        }
        assert_eq!(MODULES[2].source(), "#include <vdpau/vdpau.h>\n#include <cudaVDPAU.h>\n");
        assert_eq!(MODULES[0].allowlist_file(), r".*[/\\]cudaGL\.h");
    }
}
