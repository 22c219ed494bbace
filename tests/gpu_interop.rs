//! The graphics-interop modules against a real driver on a machine without a
//! display:
//! - each interop call that needs no window system, with arguments that name
//!   nothing (no GL context, a null EGL stream, VDPAU device 0), made in a
//!   child process of its own so that a crash is seen as one: it must return
//!   what the crate docs say driver 580.159.04 returned, and the test says
//!   whether NVIDIA's documentation lists that code (`pregenerated/<module>/reference.txt`);
//! - a real GL texture, made through EGL's device platform (glvnd's `libEGL.so.1`
//!   and NVIDIA's EGL vendor library), read through `cuGraphicsGLRegisterImage`
//!   and through an `EGLImage` with `cuGraphicsEGLRegisterImage`.
//!
//! Without a driver, a device, or EGL, each test says `skipped` and why.
#![cfg(all(feature = "gl", feature = "egl", feature = "vdpau"))]

#[macro_use]
#[path = "common/gpu.rs"]
mod gpu;

use gpu::{name, visible};
use libcuda_sys::egl::*;
use libcuda_sys::gl::*;
use libcuda_sys::vdpau::*;
use libcuda_sys::*;
use std::ffi::{c_char, c_int, c_uint, c_void, CString};
use std::ptr::{null, null_mut};

/// The environment variable that makes this binary a child that makes one call.
const CHILD: &str = "LIBCUDA_SYS_INTEROP_CALL";

/// `(function, what driver 580.159.04 returned, the call with arguments that
/// name nothing)`; `None` where the call crashed the process (SIGSEGV). The
/// crate docs of each function say what it returned.
type Call = (&'static str, Option<u32>, fn() -> CUresult);

/// `CUDA_ERROR_INVALID_GRAPHICS_CONTEXT`, what the GL calls below return with
/// no GL context current where glvnd is installed.
const NO_GL_CONTEXT: u32 = 219;
/// `CUDA_ERROR_OPERATING_SYSTEM`, what they return instead where the loader
/// finds neither `libGL.so.1` nor `libEGL.so.1`, which the driver opens first.
const NO_GL_LIBRARY: u32 = 304;

const CALLS: &[Call] = &[
    ("cuGLGetDevices", Some(NO_GL_CONTEXT), || unsafe {
        let (mut n, mut devices) = (0, [0; 4]);
        cuGLGetDevices(&mut n, devices.as_mut_ptr(), 4, CU_GL_DEVICE_LIST_ALL)
    }),
    ("cuGraphicsGLRegisterBuffer", Some(NO_GL_CONTEXT), || unsafe {
        cuGraphicsGLRegisterBuffer(&mut null_mut(), 1, 0)
    }),
    ("cuGraphicsGLRegisterImage", Some(NO_GL_CONTEXT), || unsafe {
        cuGraphicsGLRegisterImage(&mut null_mut(), 1, GL_TEXTURE_2D, 0)
    }),
    ("cuGLRegisterBufferObject", Some(NO_GL_CONTEXT), || unsafe { cuGLRegisterBufferObject(1) }),
    ("cuGLMapBufferObject", Some(1), || unsafe { cuGLMapBufferObject(&mut 0, &mut 0, 1) }),
    ("cuGLMapBufferObjectAsync", Some(1), || unsafe {
        cuGLMapBufferObjectAsync(&mut 0, &mut 0, 1, null_mut())
    }),
    ("cuGLUnmapBufferObject", Some(1), || unsafe { cuGLUnmapBufferObject(1) }),
    ("cuGLUnmapBufferObjectAsync", Some(1), || unsafe {
        cuGLUnmapBufferObjectAsync(1, null_mut())
    }),
    ("cuGLUnregisterBufferObject", Some(1), || unsafe { cuGLUnregisterBufferObject(1) }),
    ("cuGLSetBufferObjectMapFlags", Some(1), || unsafe { cuGLSetBufferObjectMapFlags(1, 0) }),
    ("cuGraphicsEGLRegisterImage", Some(999), || unsafe {
        cuGraphicsEGLRegisterImage(&mut null_mut(), null_mut(), 0)
    }),
    ("cuEGLStreamConsumerConnect", Some(400), || unsafe {
        cuEGLStreamConsumerConnect(&mut null_mut(), null_mut())
    }),
    ("cuEGLStreamConsumerConnectWithFlags", Some(400), || unsafe {
        cuEGLStreamConsumerConnectWithFlags(&mut null_mut(), null_mut(), 0)
    }),
    ("cuEGLStreamConsumerAcquireFrame", Some(400), || unsafe {
        cuEGLStreamConsumerAcquireFrame(&mut null_mut(), &mut null_mut(), &mut null_mut(), 0)
    }),
    ("cuEGLStreamConsumerReleaseFrame", Some(400), || unsafe {
        cuEGLStreamConsumerReleaseFrame(&mut null_mut(), null_mut(), &mut null_mut())
    }),
    ("cuEGLStreamConsumerDisconnect", Some(400), || unsafe {
        cuEGLStreamConsumerDisconnect(&mut null_mut())
    }),
    ("cuEGLStreamProducerConnect", Some(400), || unsafe {
        cuEGLStreamProducerConnect(&mut null_mut(), null_mut(), 64, 64)
    }),
    ("cuEGLStreamProducerPresentFrame", Some(400), || unsafe {
        cuEGLStreamProducerPresentFrame(&mut null_mut(), CUeglFrame::default(), &mut null_mut())
    }),
    ("cuEGLStreamProducerReturnFrame", Some(400), || unsafe {
        let mut frame = CUeglFrame::default();
        cuEGLStreamProducerReturnFrame(&mut null_mut(), &mut frame, &mut null_mut())
    }),
    ("cuEGLStreamProducerDisconnect", Some(400), || unsafe {
        cuEGLStreamProducerDisconnect(&mut null_mut())
    }),
    ("cuGraphicsResourceGetMappedEglFrame", Some(400), || unsafe {
        cuGraphicsResourceGetMappedEglFrame(&mut CUeglFrame::default(), null_mut(), 0, 0)
    }),
    ("cuVDPAUGetDevice", Some(1), || unsafe { cuVDPAUGetDevice(&mut 0, 0, None) }),
    ("cuVDPAUCtxCreate", None, || unsafe { cuVDPAUCtxCreate(&mut null_mut(), 0, 0, 0, None) }),
    ("cuGraphicsVDPAURegisterVideoSurface", Some(201), || unsafe {
        cuGraphicsVDPAURegisterVideoSurface(&mut null_mut(), 0, 0)
    }),
    ("cuGraphicsVDPAURegisterOutputSurface", Some(201), || unsafe {
        cuGraphicsVDPAURegisterOutputSurface(&mut null_mut(), 0, 0)
    }),
];

const GL_TEXTURE_2D: GLenum = 0x0DE1;

/// The result codes NVIDIA's documentation lists for `function` in the
/// headers of these bindings (the release's part of `pregenerated/<module>/reference.txt`).
fn documented(function: &str) -> Vec<String> {
    use libcuda_sys_build::{pregenerated::select, tables::read_reference};
    let tables = [
        include_str!("../pregenerated/gl/reference.txt"),
        include_str!("../pregenerated/egl/reference.txt"),
        include_str!("../pregenerated/vdpau/reference.txt"),
    ];
    let per_thread = cfg!(feature = "per-thread-default-stream");
    tables
        .iter()
        .map(|t| select(t, CUDA_VERSION, per_thread).expect("a pregenerated table"))
        .flat_map(|rows| {
            read_reference(&rows, "", "").expect("rows of a reference table").functions
        })
        .filter(|f| f.name == function)
        .flat_map(|f| f.returns)
        .collect()
}

/// In the child: the call `CHILD` names, with device 0's primary context
/// current; prints `result <code>`. Run only by the test below.
#[test]
#[ignore = "a child process of each_call_without_a_display_returns_what_the_docs_say"]
fn one_call() {
    let function =
        std::env::var(CHILD).expect("run by each_call_without_a_display_returns_what_the_docs_say");
    let (_, _, call) = CALLS.iter().find(|(f, _, _)| *f == function).expect("a known call");
    ck!(cuInit(0));
    let mut ctx = null_mut();
    ck!(cuDevicePrimaryCtxRetain(&mut ctx, 0));
    ck!(cuCtxSetCurrent(ctx));
    println!("result {}", call().0);
}

/// Each call returns what the docs say the driver returned (none succeeds),
/// and says whether NVIDIA's documentation lists that code: five do not.
#[test]
fn each_call_without_a_display_returns_what_the_docs_say() {
    let Some(_gpu) = gpu::gpu() else { return };
    let exe = std::env::current_exe().unwrap();
    let gl = ["libGL.so.1", "libEGL.so.1"].iter().find(|lib| {
        let lib = CString::new(**lib).unwrap();
        // SAFETY: glvnd's dispatch libraries run no code of consequence on load.
        !unsafe {
            dlopen(lib.as_ptr(), 2 /* RTLD_NOW */)
        }
        .is_null()
    });
    visible(&format!("glvnd: {}", gl.unwrap_or(&"neither libGL.so.1 nor libEGL.so.1 loads")));
    let mut differ = Vec::new();
    for &(function, expected, _) in CALLS {
        let expected = match expected {
            Some(NO_GL_CONTEXT) if gl.is_none() => Some(NO_GL_LIBRARY),
            expected => expected,
        };
        let out = std::process::Command::new(&exe)
            .args(["one_call", "--exact", "--ignored", "--nocapture", "--test-threads=1"])
            .env(CHILD, function)
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        // libtest may print `test one_call ... ` before it on the line.
        let code = stdout.lines().find_map(|l| {
            l.split("result ").nth(1)?.split_whitespace().next()?.parse::<u32>().ok()
        });
        let said = match code {
            None => format!("no result: {}", out.status),
            Some(code) => {
                let result = CUresult(code as _);
                let text = result.to_string();
                let code_name = text.split(' ').next().unwrap();
                let listed = documented(function).iter().any(|d| d == code_name);
                format!("{} ({})", name(result), if listed { "listed" } else { "not listed" })
            }
        };
        visible(&format!("interop call {function}: {said}"));
        if code != expected || code == Some(0) {
            differ.push(format!("{function}: {said}; the docs say {expected:?} (None: a crash)"));
        }
    }
    assert!(differ.is_empty(), "{differ:#?}");
}

extern "C" {
    fn dlopen(file: *const c_char, mode: c_int) -> *mut c_void;
    fn dlsym(handle: *mut c_void, name: *const c_char) -> *mut c_void;
}

/// An EGL or GL function of `lib` (or through `eglGetProcAddress`), as `F`.
///
/// # Safety
/// `F` must be the function's C type.
unsafe fn symbol<F: Copy>(lib: *mut c_void, get: Option<GetProc>, name: &str) -> Option<F> {
    let c = CString::new(name).unwrap();
    let mut p = dlsym(lib, c.as_ptr());
    if p.is_null() {
        p = get.map_or(null_mut(), |get| get(c.as_ptr()));
    }
    (!p.is_null()).then(|| std::mem::transmute_copy(&p))
}

type GetProc = unsafe extern "C" fn(*const c_char) -> *mut c_void;
type Display = *mut c_void;

/// A GL texture of known pixels, in an EGL context on device 0 made current
/// without a surface, and an `EGLImage` of it; `Err` says why there is none.
struct Egl {
    image: *mut c_void,
    texture: GLuint,
    width: usize,
    height: usize,
    pixels: Vec<u8>,
}

const EGL_NONE: c_int = 0x3038;

/// Makes [`Egl`] through EGL's device platform (`EGL_EXT_platform_device`).
unsafe fn egl() -> Result<Egl, String> {
    let lib = dlopen(c"libEGL.so.1".as_ptr(), 2 /* RTLD_NOW */);
    if lib.is_null() {
        return Err("no libEGL.so.1 (glvnd) to load".into());
    }
    let get: GetProc = symbol(lib, None, "eglGetProcAddress").ok_or("no eglGetProcAddress")?;
    let need = |name: &str| -> Result<*mut c_void, String> {
        symbol(lib, Some(get), name).ok_or(format!("EGL has no {name}"))
    };
    macro_rules! f {
        ($name:literal: fn($($a:ty),*) -> $r:ty) => {
            std::mem::transmute::<*mut c_void, unsafe extern "C" fn($($a),*) -> $r>(need($name)?)
        };
    }
    let query_devices = f!("eglQueryDevicesEXT": fn(c_int, *mut *mut c_void, *mut c_int) -> u32);
    let platform_display =
        f!("eglGetPlatformDisplayEXT": fn(c_uint, *mut c_void, *const c_int) -> Display);
    let initialize = f!("eglInitialize": fn(Display, *mut c_int, *mut c_int) -> u32);
    let bind_api = f!("eglBindAPI": fn(c_uint) -> u32);
    let choose = f!("eglChooseConfig": fn(Display, *const c_int, *mut *mut c_void, c_int, *mut c_int) -> u32);
    let create_context =
        f!("eglCreateContext": fn(Display, *mut c_void, *mut c_void, *const c_int) -> *mut c_void);
    let make_current =
        f!("eglMakeCurrent": fn(Display, *mut c_void, *mut c_void, *mut c_void) -> u32);
    let create_image = f!("eglCreateImageKHR":
        fn(Display, *mut c_void, c_uint, *mut c_void, *const c_int) -> *mut c_void);
    let error = f!("eglGetError": fn() -> c_int);
    let gen_textures = f!("glGenTextures": fn(c_int, *mut GLuint) -> ());
    let bind_texture = f!("glBindTexture": fn(GLenum, GLuint) -> ());
    let parameter = f!("glTexParameteri": fn(GLenum, GLenum, c_int) -> ());
    let image_2d = f!("glTexImage2D":
        fn(GLenum, c_int, c_int, c_int, c_int, c_int, GLenum, GLenum, *const c_void) -> ());
    let finish = f!("glFinish": fn() -> ());
    let failed = |what: &str| format!("{what} failed, eglGetError 0x{:x}", error());

    let (mut devices, mut n) = ([null_mut(); 8], 0);
    if query_devices(8, devices.as_mut_ptr(), &mut n) == 0 || n == 0 {
        return Err(failed("eglQueryDevicesEXT (no EGL device)"));
    }
    let display = platform_display(0x313F /* EGL_PLATFORM_DEVICE_EXT */, devices[0], null());
    let (mut major, mut minor) = (0, 0);
    if display.is_null() || initialize(display, &mut major, &mut minor) == 0 {
        return Err(failed("eglInitialize on the first EGL device"));
    }
    if bind_api(0x30A2 /* EGL_OPENGL_API */) == 0 {
        return Err(failed("eglBindAPI(EGL_OPENGL_API)"));
    }
    // EGL_SURFACE_TYPE EGL_PBUFFER_BIT (the default, a window, the device
    // platform has none), EGL_RENDERABLE_TYPE EGL_OPENGL_BIT.
    let attributes = [0x3033, 0x0001, 0x3040, 0x0008, EGL_NONE];
    let (mut config, mut configs) = (null_mut(), 0);
    if choose(display, attributes.as_ptr(), &mut config, 1, &mut configs) == 0 || configs == 0 {
        return Err(failed("eglChooseConfig"));
    }
    let context = create_context(display, config, null_mut(), [EGL_NONE].as_ptr());
    if context.is_null() || make_current(display, null_mut(), null_mut(), context) == 0 {
        return Err(failed("a surfaceless GL context"));
    }
    let (width, height) = (64usize, 32usize);
    let pixels: Vec<u8> = (0..width * height * 4).map(|i| (i * 7 % 251) as u8).collect();
    let mut texture = 0;
    gen_textures(1, &mut texture);
    bind_texture(GL_TEXTURE_2D, texture);
    // GL_TEXTURE_MIN_FILTER GL_NEAREST: complete without mipmaps.
    parameter(GL_TEXTURE_2D, 0x2801, 0x2600);
    // GL_RGBA8, GL_RGBA, GL_UNSIGNED_BYTE.
    image_2d(
        GL_TEXTURE_2D,
        0,
        0x8058,
        width as _,
        height as _,
        0,
        0x1908,
        0x1401,
        pixels.as_ptr().cast(),
    );
    finish();
    // EGL_GL_TEXTURE_2D_KHR.
    let image = create_image(
        display,
        context,
        0x30B1,
        texture as usize as *mut c_void,
        [EGL_NONE].as_ptr(),
    );
    if image.is_null() {
        return Err(failed("eglCreateImageKHR of the texture"));
    }
    visible(&format!("EGL {major}.{minor} on device 0 of {n}: texture {texture}, image {image:?}"));
    Ok(Egl { image, texture, width, height, pixels })
}

/// The pixels of `array` (RGBA8, `width` x `height`), copied to the host.
fn read_array(array: CUarray, width: usize, height: usize) -> Vec<u8> {
    let mut host = vec![0u8; width * height * 4];
    let copy = CUDA_MEMCPY2D {
        srcMemoryType: CUmemorytype::CU_MEMORYTYPE_ARRAY,
        srcArray: array,
        dstMemoryType: CUmemorytype::CU_MEMORYTYPE_HOST,
        dstHost: host.as_mut_ptr().cast(),
        dstPitch: width * 4,
        WidthInBytes: width * 4,
        Height: height,
        ..Default::default()
    };
    ck!(cuMemcpy2D(&copy));
    host
}

/// A texture GL wrote is read back through both interop paths: GL's
/// (`cuGLGetDevices`, `cuGraphicsGLRegisterImage`, mapped as an array) and
/// EGL's (`cuGraphicsEGLRegisterImage`, `cuGraphicsResourceGetMappedEglFrame`).
#[test]
fn a_gl_texture_is_read_through_gl_and_egl_interop() {
    let Some(_gpu) = gpu::gpu() else { return };
    let egl = match unsafe { egl() } {
        Ok(egl) => egl,
        Err(why) => return testkit::skip(&format!("no headless GL context: {why}")),
    };
    let (mut n, mut devices) = (0, [-1; 4]);
    ck!(cuGLGetDevices(&mut n, devices.as_mut_ptr(), 4, CU_GL_DEVICE_LIST_ALL));
    visible(&format!(
        "cuGLGetDevices with a GL context: {n} device(s), {:?}",
        &devices[..n as usize]
    ));
    assert!(n >= 1 && devices[0] == 0, "{n} {devices:?}");

    let mut resource = null_mut();
    ck!(cuGraphicsGLRegisterImage(&mut resource, egl.texture, GL_TEXTURE_2D, 0));
    ck!(cuGraphicsMapResources(1, &mut resource, null_mut()));
    let mut array = null_mut();
    ck!(cuGraphicsSubResourceGetMappedArray(&mut array, resource, 0, 0));
    let through_gl = read_array(array, egl.width, egl.height);
    ck!(cuGraphicsUnmapResources(1, &mut resource, null_mut()));
    ck!(cuGraphicsUnregisterResource(resource));
    assert!(through_gl == egl.pixels, "the texture read through GL interop differs");

    let mut resource = null_mut();
    ck!(cuGraphicsEGLRegisterImage(&mut resource, egl.image, 0));
    let mut frame = CUeglFrame::default();
    ck!(cuGraphicsResourceGetMappedEglFrame(&mut frame, resource, 0, 0));
    visible(&format!(
        "EGL frame: {}x{}, {} plane(s), {} channel(s), type {:?}, colour format {:?}",
        frame.width,
        frame.height,
        frame.planeCount,
        frame.numChannels,
        frame.frameType,
        frame.eglColorFormat
    ));
    assert_eq!((frame.width as usize, frame.height as usize), (egl.width, egl.height));
    assert_eq!(frame.frameType, CUeglFrameType::CU_EGL_FRAME_TYPE_ARRAY);
    let through_egl = read_array(unsafe { frame.frame.pArray[0] }, egl.width, egl.height);
    ck!(cuGraphicsUnregisterResource(resource));
    assert!(through_egl == egl.pixels, "the texture read through its EGLImage differs");
    visible(&format!(
        "{} bytes read back through GL and EGL interop, equal to GL's",
        egl.pixels.len()
    ));
}
