//! The window system's types the interop modules' functions take, written
//! here as the C types they are rather than generated from the system's
//! headers: the bindings are then the same whether or not the build machine
//! has the GL, EGL or VDPAU development headers, and these typedefs have not
//! changed in decades.

/// OpenGL's types, as `GL/gl.h` declares them.
#[cfg(feature = "gl")]
pub mod gl {
    /// `typedef unsigned int GLuint;`: a buffer, texture or renderbuffer name.
    pub type GLuint = ::core::ffi::c_uint;
    /// `typedef unsigned int GLenum;`: a texture or renderbuffer target.
    pub type GLenum = ::core::ffi::c_uint;
}

/// EGL's types, as `EGL/egl.h` and `EGL/eglext.h` declare them.
#[cfg(feature = "egl")]
pub mod egl {
    /// `typedef khronos_int32_t EGLint;`, a 32-bit signed integer.
    pub type EGLint = i32;
    /// `typedef void *EGLImageKHR;` (`EGL_KHR_image`).
    pub type EGLImageKHR = *mut ::core::ffi::c_void;
    /// `typedef void *EGLStreamKHR;` (`EGL_KHR_stream`).
    pub type EGLStreamKHR = *mut ::core::ffi::c_void;
    /// `typedef void *EGLSyncKHR;` (`EGL_KHR_fence_sync`, `EGL_KHR_cl_event2`).
    pub type EGLSyncKHR = *mut ::core::ffi::c_void;
}

/// VDPAU's types, as `vdpau/vdpau.h` declares them.
#[cfg(feature = "vdpau")]
pub mod vdpau {
    /// `typedef uint32_t VdpDevice;`: a VDPAU device handle.
    pub type VdpDevice = u32;
    /// `typedef uint32_t VdpVideoSurface;`
    pub type VdpVideoSurface = u32;
    /// `typedef uint32_t VdpOutputSurface;`
    pub type VdpOutputSurface = u32;
    /// `typedef uint32_t VdpFuncId;`: which VDPAU function `VdpGetProcAddress` looks up.
    pub type VdpFuncId = u32;
    /// VDPAU's result, a C enum (`VDP_STATUS_OK` is 0): an integer here, as a
    /// newer VDPAU may return a value an older header does not list.
    pub type VdpStatus = ::core::ffi::c_uint;
    /// `typedef VdpStatus VdpGetProcAddress(VdpDevice, VdpFuncId, void **);`
    /// is a function type; the interop functions take a pointer to one, which
    /// is this `Option` of a function pointer (`None` is NULL).
    pub type VdpGetProcAddress = ::core::option::Option<
        unsafe extern "C" fn(
            device: VdpDevice,
            function_id: VdpFuncId,
            function_pointer: *mut *mut ::core::ffi::c_void,
        ) -> VdpStatus,
    >;
}
