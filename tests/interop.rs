//! The graphics-interop modules link: every function of each enabled module
//! is referenced by address, so the linker must resolve each against the
//! library the build linked (the stand-in without a driver), and the tables
//! (`FUNCTIONS`, `since`, the plain names) know them. Run with
//! `cargo test --features gl,egl,vdpau --test interop` (the features need
//! bindings generated from headers).
#![cfg(any(feature = "gl", feature = "egl", feature = "vdpau"))]

/// Each name is in `FUNCTIONS` (as the function a plain name stands for) and
/// dated by its `*Typedefs.h`.
fn known(names: &[(&str, u32)]) {
    for (name, version) in names {
        let bound = libcuda_sys::FUNCTIONS.iter().any(|f| {
            *f == *name || libcuda_sys::PLAIN_NAMES.iter().any(|(p, t)| p == name && t == f)
        });
        assert!(bound, "{name} is not in FUNCTIONS");
        if libcuda_sys::SINCE_AVAILABLE {
            assert_eq!(libcuda_sys::since(name), Some(*version), "{name}");
        }
    }
}

#[cfg(feature = "gl")]
#[test]
fn every_gl_function_links() {
    use libcuda_sys::gl::*;
    let addresses = [
        cuGraphicsGLRegisterBuffer as *const (),
        cuGraphicsGLRegisterImage as *const (),
        cuGLGetDevices as *const (),
        cuGLCtxCreate as *const (),
        cuGLInit as *const (),
        cuGLRegisterBufferObject as *const (),
        cuGLMapBufferObject as *const (),
        cuGLUnmapBufferObject as *const (),
        cuGLUnregisterBufferObject as *const (),
        cuGLSetBufferObjectMapFlags as *const (),
        cuGLMapBufferObjectAsync as *const (),
        cuGLUnmapBufferObjectAsync as *const (),
    ];
    assert!(addresses.iter().all(|a| !a.is_null()));
    known(&[
        ("cuGraphicsGLRegisterBuffer", 3000),
        ("cuGraphicsGLRegisterImage", 3000),
        ("cuGLGetDevices", 6050),
        ("cuGLCtxCreate", 3020),
        ("cuGLInit", 2000),
        ("cuGLRegisterBufferObject", 2000),
        ("cuGLUnmapBufferObject", 2000),
        ("cuGLUnregisterBufferObject", 2000),
        ("cuGLSetBufferObjectMapFlags", 2030),
        ("cuGLUnmapBufferObjectAsync", 2030),
    ]);
    // The per-thread variants are 7.0's, the others 3.2's.
    let (map, map_async) = match cfg!(feature = "per-thread-default-stream") {
        true => (7000, 7000),
        false => (3020, 3020),
    };
    known(&[("cuGLMapBufferObject", map), ("cuGLMapBufferObjectAsync", map_async)]);
    // The window system's types are the C types they are.
    let _: GLuint = 0u32;
    let _: GLenum = 0u32;
    assert_eq!(CU_GL_DEVICE_LIST_ALL, CUGLDeviceList_enum::CU_GL_DEVICE_LIST_ALL);
    // Its enums print by name, as cuda.h's.
    assert_eq!(format!("{CU_GL_DEVICE_LIST_ALL:?}"), "CUGLDeviceList(CU_GL_DEVICE_LIST_ALL)");
    assert_eq!(CUGLDeviceList(77).name(), None);
}

/// `cuEventCreateFromEGLSync` is left out: the x86-64 desktop driver does
/// not export it (driver 580.159.04), and a program that references it does
/// not start where such a driver is the library loaded. The stand-in exports
/// it (the build-script tests check that).
#[cfg(feature = "egl")]
#[test]
fn every_egl_function_but_the_sync_one_links() {
    use libcuda_sys::egl::*;
    let addresses = [
        cuGraphicsEGLRegisterImage as *const (),
        cuEGLStreamConsumerConnect as *const (),
        cuEGLStreamConsumerConnectWithFlags as *const (),
        cuEGLStreamConsumerDisconnect as *const (),
        cuEGLStreamConsumerAcquireFrame as *const (),
        cuEGLStreamConsumerReleaseFrame as *const (),
        cuEGLStreamProducerConnect as *const (),
        cuEGLStreamProducerDisconnect as *const (),
        cuEGLStreamProducerPresentFrame as *const (),
        cuEGLStreamProducerReturnFrame as *const (),
        cuGraphicsResourceGetMappedEglFrame as *const (),
    ];
    assert!(addresses.iter().all(|a| !a.is_null()));
    known(&[
        ("cuGraphicsEGLRegisterImage", 7000),
        ("cuEGLStreamConsumerConnect", 7000),
        ("cuEGLStreamConsumerConnectWithFlags", 8000),
        ("cuEGLStreamProducerPresentFrame", 7000),
        ("cuGraphicsResourceGetMappedEglFrame", 7000),
        ("cuEventCreateFromEGLSync", 9000),
    ]);
    // CUeglFrame is passed by value: its layout is C's (64 bytes on 64-bit targets).
    assert_eq!(core::mem::size_of::<CUeglFrame>(), 64);
    assert_eq!(MAX_PLANES, 3);
    assert_eq!(
        format!("{:?}", CUeglFrameType::CU_EGL_FRAME_TYPE_ARRAY),
        "CUeglFrameType(CU_EGL_FRAME_TYPE_ARRAY)"
    );
    let _: EGLint = 0i32;
}

#[cfg(feature = "vdpau")]
#[test]
fn every_vdpau_function_links() {
    use libcuda_sys::vdpau::*;
    let addresses = [
        cuVDPAUGetDevice as *const (),
        cuVDPAUCtxCreate as *const (),
        cuGraphicsVDPAURegisterVideoSurface as *const (),
        cuGraphicsVDPAURegisterOutputSurface as *const (),
    ];
    assert!(addresses.iter().all(|a| !a.is_null()));
    known(&[
        ("cuVDPAUGetDevice", 3010),
        ("cuVDPAUCtxCreate", 3020),
        ("cuGraphicsVDPAURegisterVideoSurface", 3010),
        ("cuGraphicsVDPAURegisterOutputSurface", 3010),
    ]);
    let _: VdpGetProcAddress = None;
    let _: VdpDevice = 0u32;
}

/// With `dynamic-loading`, each module's functions have slots that
/// `dynamic::is_available` finds, under bound and plain names alike.
#[cfg(all(feature = "dynamic-loading", feature = "gl", feature = "vdpau"))]
#[test]
fn dynamic_loading_finds_the_modules_slots() {
    use libcuda_sys::dynamic::is_available;
    for name in ["cuGraphicsGLRegisterBuffer", "cuGLGetDevices", "cuVDPAUCtxCreate_v2"] {
        assert!(is_available(name).is_some(), "{name} has no slot");
    }
    assert_eq!(is_available("cuNoSuchFunction"), None);
}

/// Against a driver: the interop functions these bindings call are there,
/// and on x86-64 `cuEventCreateFromEGLSync` is not (driver 580.159.04 lacks
/// it). Without a driver (the stand-in alone) it says `skipped`.
#[cfg(all(feature = "gl", feature = "egl", feature = "vdpau"))]
#[test]
fn the_driver_has_the_interop_functions() {
    let has = |name: &str| libcuda_sys::driver_has(name);
    match has("cuGLGetDevices") {
        Err(e) => testkit::skip_gpu(&format!("no driver to ask: driver_has gave {e:?}")),
        Ok(gl) => {
            assert!(gl, "cuGLGetDevices");
            for name in
                ["cuGraphicsGLRegisterImage", "cuEGLStreamConsumerConnect", "cuVDPAUCtxCreate"]
            {
                assert_eq!(has(name), Ok(true), "{name}");
            }
            if cfg!(target_arch = "x86_64") {
                assert_eq!(has("cuEventCreateFromEGLSync"), Ok(false));
            }
        }
    }
}
