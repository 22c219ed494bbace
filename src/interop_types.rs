//! The window system's types the interop modules' functions take (and
//! Direct3D's interfaces), written
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

/// A COM interface of Direct3D or DXGI, which the interop functions take and
/// give only by pointer: an opaque type, as `struct X;` is in C. A pointer
/// from a Direct3D binding (`windows` crate: `device.as_raw()`) is cast to
/// `*mut` this type.
#[cfg(any(feature = "d3d9", feature = "d3d10", feature = "d3d11"))]
macro_rules! interfaces {
    ($($(#[$doc:meta])* $name:ident),* $(,)?) => {$(
        $(#[$doc])*
        #[repr(C)]
        pub struct $name {
            _opaque: [u8; 0],
        }
    )*};
}

/// Direct3D 9's interfaces, as `d3d9.h` names them.
#[cfg(feature = "d3d9")]
pub mod d3d9 {
    interfaces! {
        /// `IDirect3DDevice9`: a Direct3D 9 device.
        IDirect3DDevice9,
        /// `IDirect3DResource9`: a Direct3D 9 surface, texture or buffer.
        IDirect3DResource9,
        /// `IDirect3DVertexBuffer9`: a Direct3D 9 vertex buffer.
        IDirect3DVertexBuffer9,
    }
}

/// Direct3D 10's interfaces, and DXGI's adapter, as `d3d10.h` names them.
#[cfg(feature = "d3d10")]
pub mod d3d10 {
    interfaces! {
        /// `IDXGIAdapter`: a display adapter (a GPU) as DXGI lists it.
        IDXGIAdapter,
        /// `ID3D10Device`: a Direct3D 10 device.
        ID3D10Device,
        /// `ID3D10Resource`: a Direct3D 10 buffer or texture.
        ID3D10Resource,
    }
}

/// Direct3D 11's interfaces, and DXGI's adapter, as `d3d11.h` names them.
#[cfg(feature = "d3d11")]
pub mod d3d11 {
    interfaces! {
        /// `IDXGIAdapter`: a display adapter (a GPU) as DXGI lists it.
        IDXGIAdapter,
        /// `ID3D11Device`: a Direct3D 11 device.
        ID3D11Device,
        /// `ID3D11Resource`: a Direct3D 11 buffer or texture.
        ID3D11Resource,
    }
}
