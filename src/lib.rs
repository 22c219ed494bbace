//! Raw bindings to the CUDA driver API (`cuda.h`, `libcuda`): every function,
//! type and constant under its C name, for CUDA 11.7 to 13.5, generated at
//! build time from the headers on the build machine or taken from the set the
//! crate ships ([The build](building)). Every page says, in this crate's own
//! words, what C leaves unsaid: what a function does and where its errors come
//! back, which enum an integer flags parameter takes, what a `void *` points
//! to and which way data goes, each struct field's meaning and unit, and each
//! attribute's or option's value type.
//!
//! # A first program
//!
//! Initialize the driver, make the device's primary context current, load a
//! kernel from PTX, allocate from the device's memory pool on a stream, launch,
//! copy back, and turn every `CUresult` into a `Result`
//! (`examples/vector_add.rs` is this program whole, with its PTX):
//!
//! ```no_run
//! use libcuda_sys::*;
//! use std::ffi::{c_void, CStr};
//! use std::ptr::null_mut;
//!
//! fn check(r: CUresult) -> Result<(), CUresult> {
//!     if r == CUDA_SUCCESS { Ok(()) } else { Err(r) }
//! }
//!
//! /// The kernel as PTX text, NUL-terminated: `examples/vector_add.rs` has it whole.
//! const PTX: &CStr = c"...";
//!
//! fn main() -> Result<(), Box<dyn std::error::Error>> {
//!     unsafe {
//!         check(cuInit(0))?; // no GPU or driver: an error that says which, never a panic
//!         let mut dev = 0;
//!         check(cuDeviceGet(&mut dev, 0))?;
//!         let mut ctx = null_mut();
//!         check(cuDevicePrimaryCtxRetain(&mut ctx, dev))?;
//!         check(cuCtxSetCurrent(ctx))?; // current to this thread only
//!
//!         // `extern "C" __global__ void vector_add(const float *a, const float *b,
//!         //     float *c, unsigned n)`, compiled for this GPU by the driver.
//!         let mut module = null_mut();
//!         check(cuModuleLoadData(&mut module, PTX.as_ptr().cast()))?;
//!         let mut f = null_mut();
//!         check(cuModuleGetFunction(&mut f, module, c"vector_add".as_ptr()))?;
//!
//!         let mut stream = null_mut();
//!         // `CU_STREAM_NON_BLOCKING` is a `CUstream_flags`; the parameter a `c_uint`.
//!         check(cuStreamCreate(&mut stream, CU_STREAM_NON_BLOCKING.into()))?;
//!         let (a, b) = (vec![1.0f32; 1024], vec![2.0f32; 1024]);
//!         let mut c = vec![0.0f32; 1024];
//!         let bytes = 1024 * size_of::<f32>();
//!         let (mut da, mut db, mut dc) = (0, 0, 0);
//!         for d in [&mut da, &mut db, &mut dc] {
//!             check(cuMemAllocAsync(d, bytes, stream))?; // from the device's default pool
//!         }
//!         check(cuMemcpyHtoDAsync(da, a.as_ptr().cast(), bytes, stream))?;
//!         check(cuMemcpyHtoDAsync(db, b.as_ptr().cast(), bytes, stream))?;
//!
//!         // One pointer per kernel argument, to a value of the argument's C type.
//!         let mut n = 1024u32;
//!         let mut args = [
//!             &mut da as *mut CUdeviceptr as *mut c_void,
//!             &mut db as *mut CUdeviceptr as *mut c_void,
//!             &mut dc as *mut CUdeviceptr as *mut c_void,
//!             &mut n as *mut u32 as *mut c_void,
//!         ];
//!         check(cuLaunchKernel(f, 4, 1, 1, 256, 1, 1, 0, stream, args.as_mut_ptr(), null_mut()))?;
//!         check(cuMemcpyDtoHAsync(c.as_mut_ptr().cast(), dc, bytes, stream))?;
//!         for d in [da, db, dc] {
//!             check(cuMemFreeAsync(d, stream))?;
//!         }
//!         // The kernel's own faults, if any, come back here, not from the launch.
//!         check(cuStreamSynchronize(stream))?;
//!         assert!(c.iter().all(|&x| x == 3.0));
//!
//!         check(cuStreamDestroy(stream))?;
//!         check(cuModuleUnload(module))?;
//!         check(cuDevicePrimaryCtxRelease(dev))?;
//!     }
//!     Ok(())
//! }
//! ```
//!
//! `CUresult` is `#[must_use]`, implements `core::error::Error`, and its
//! `Display` says what the code means and what a caller does about it, so a
//! failed call reads `CUDA_ERROR_NO_DEVICE (100): the driver found no
//! CUDA-capable GPU in this system`.
//!
//! # Safety model
//!
//! Every driver function is `unsafe`: the bindings check nothing the C API
//! does not. What a safe wrapper above them has to uphold, in short (each
//! function's page has its own contract):
//!
//! - **Pointers.** Each pointer parameter's page says whether the driver
//!   reads or writes through it, and for a `void *` what it points to: an
//!   attribute's value of its value type ([Value types](#value-types)), an
//!   option's value in its slot of the values array ([`CUjit_option`]), an OS
//!   handle written through it on export but passed by value on import
//!   ([`cuMemImportFromShareableHandle`]), one pointer per kernel argument
//!   ([`cuLaunchKernel`]). A wrong width or a wrong level of indirection
//!   compiles and is undefined behaviour.
//! - **The current context is per thread.** Each host thread has its own stack
//!   of contexts and starts with none; a context may be current to several
//!   threads at once ([`cuCtxSetCurrent`]). Functions that allocate, load
//!   modules or launch on the NULL stream act in the calling thread's current
//!   context.
//! - **Handles are plain values.** `CUdevice` is an `int`; `CUdeviceptr` a
//!   `u64` address; `CUcontext`, `CUmodule`, `CUfunction`, `CUstream`,
//!   `CUevent`, `CUmemoryPool` and the rest are raw pointers to opaque driver
//!   objects. The driver API may be called from any thread, so a wrapper may
//!   make its handle types `Send`, and `Sync` where the object allows
//!   concurrent use: graphs (`CUgraph`, `CUgraphExec`) do not, nor does a
//!   green context (`CUgreenCtx`, one thread at a time), so their wrappers are
//!   `Send` but not `Sync`. A handle is
//!   valid until the call that destroys it, or until the context that owns it
//!   is destroyed (modules, functions, streams, events and allocations of a
//!   context go with it); pool allocations live until freed, in stream order.
//! - **Asynchronous work reports later.** Launches, `Async` copies and
//!   stream-ordered allocations return before their work is done. Errors of
//!   that work come back from a later call that waits for it
//!   ([`cuStreamSynchronize`], [`cuEventSynchronize`], a blocking copy). Some
//!   are sticky ([`CUDA_ERROR_ILLEGAL_ADDRESS`], `CUDA_ERROR_LAUNCH_FAILED`):
//!   every later call returns them and only a new process can use CUDA again.
//!   Memory that queued work reads or writes must stay valid until the stream
//!   reaches it.
//! - **`fork()`.** A child process cannot use the CUDA state of a parent that
//!   had initialized the driver: there `cuInit` and the calls that need it
//!   return [`CUDA_ERROR_NOT_INITIALIZED`] (on an H100 with driver 580,
//!   `cuInit` and `cuDeviceGetCount` return it, while `cuDriverGetVersion`,
//!   which needs no initialization, still succeeds). Use CUDA only in a child
//!   whose parent never initialized it, or start workers with `exec`.
//! - **Integers that C leaves untyped.** C enums are newtypes ([Enums](#enums)).
//!   A parameter that takes an enum's values as a plain integer names the enum
//!   on its page, and the enum converts with `.into()`
//!   (`CU_STREAM_NON_BLOCKING.into()` is the `c_uint` of [`cuStreamCreate`]);
//!   so does an attribute that holds one (`CU_DEVICE_ATTRIBUTE_COMPUTE_MODE`'s
//!   `int` holds a [`CUcomputemode`]).
//!
#![doc = include_str!(concat!(env!("OUT_DIR"), "/crate_docs.md"))]
//!
//! # The map and the workflows
//!
//! [`map`] is the API by area: every group of NVIDIA's reference, with a
//! line of this crate's on what it is for, its page of NVIDIA's reference,
//! and its functions in these bindings. [`workflows`] walks the sequences
//! that only work whole:
//! [virtual memory](workflows#virtual-memory) (granularity, reserve, create,
//! map, then `cuMemSetAccess`, without which the mapping faults; teardown in
//! reverse), [memory shared between
//! processes](workflows#sharing-memory-between-processes-ipc) and who closes
//! each file descriptor, [graphs](workflows#graphs) (capture or build,
//! instantiate, update, launch, memory nodes), [the launch
//! configuration](workflows#launch-configuration) (dynamic shared memory over
//! 48 KiB, cooperative launches, clusters), [JIT and
//! linking](workflows#jit-and-linking) with their logs, and [the primary
//! context](workflows#the-primary-context) against `cuCtxCreate`.
//!
//! # Enums
//!
//! C enums are newtype structs with associated constants
//! (`CUmemPool_attribute::CU_MEMPOOL_ATTR_RELEASE_THRESHOLD`), never Rust
//! `enum`s: a driver newer than the headers may return values the header does
//! not list, and a Rust `enum` holding one would be undefined behaviour. Each
//! has `name()`, and `Debug` shows the enumerator under the C typedef's name:
//! `CUresult(CUDA_ERROR_INVALID_DEVICE)`, `CUresult(9999)` for a value the
//! header does not list. Every enumerator is also a constant of the crate
//! under its C name, as C makes them global: after `use libcuda_sys::*;`,
//! `match r { CUDA_SUCCESS => .., CUDA_ERROR_OUT_OF_MEMORY => .., _ => .. }`
//! works as in C. Within a release no name is an enumerator of two enums;
//! across releases only the `CU_DEV_SM_RESOURCE_SPLIT_*` enumerators changed
//! enum (13.1 renamed `CUdevSmResourceSplit_flags` to
//! `CUdevSmResourceSplitByCount_flags`), and have the type of the release bound.
//! `CUresult` is `#[must_use]` and has `Display` and
//! `core::error::Error`. The enums `cuda.h` uses as masks ([`BITMASKS`]) have
//! `|`, `&`, their assignments and `contains` (`contains` of a zero enumerator
//! such as `CU_CTX_SCHED_AUTO` is whether no bit is set). An enum the header
//! calls flags whose values are a mode rather than bits (`CUstreamWaitValue_flags`,
//! `CUmemAccess_flags`) is none: combine its values through `.0`, as C does:
//!
//! ```
//! use libcuda_sys::*;
//! let flags = CUctx_flags::CU_CTX_SCHED_SPIN | CUctx_flags::CU_CTX_MAP_HOST;
//! assert!(flags.contains(CUctx_flags::CU_CTX_MAP_HOST));
//! assert_eq!(format!("{flags:?}"), "CUctx_flags(CU_CTX_SCHED_SPIN | CU_CTX_MAP_HOST)");
//! let r = CUresult::CUDA_ERROR_INVALID_DEVICE;
//! assert!(r.to_string().starts_with("CUDA_ERROR_INVALID_DEVICE (101): the device ordinal"));
//! ```
//!
//! Each enum's page says what it is, the functions that take it or write it
//! (linked), and, where its enumerators have value types, a table of them
//! (value, name, type, size, settable, since: [`CUmemPool_attribute`]). Each
//! enumerator shows its value (`CU_MEMPOOL_ATTR_RELEASE_THRESHOLD = 4`, a mask's
//! in hex). Every item that not all releases from 11.7 on declare says since
//! when ("In the headers since CUDA 13.2"): a driver of an older release may
//! not know such an enumerator, and a function's page also says the driver it
//! needs.
//!
//! # Members that moved
//!
//! bindgen names C's anonymous unions `__bindgen_anon_N`, so a member that
//! moves into one between releases changes its Rust path: `CUmemLocation`'s
//! `id` is `loc.id` up to CUDA 13.1 and `loc.__bindgen_anon_1.id` from 13.2 on.
//! Each such member has an accessor pair that compiles against every release,
//! generated and pregenerated:
//!
//! | member | accessors | where it is |
//! |---|---|---|
//! | `CUmemLocation.id` | [`CUmemLocation_st::id`], [`CUmemLocation_st::set_id`] | a field up to 13.1; in the anonymous union from 13.2 |
//!
//! It is the only one from 11.7 to 13.5: `cargo xtask pregenerate` finds them
//! by comparing where every member of every struct and union is in each release
//! (`pregenerated/moved_members.txt`), and generated bindings take the list from
//! there.
//!
//! ```
//! use libcuda_sys::*;
//! let mut at = CUmemLocation::default();
//! at.type_ = CU_MEM_LOCATION_TYPE_DEVICE;
//! at.set_id(1);
//! assert_eq!(at.id(), 1);
//! ```
//!
//! # Plain names
//!
//! `cuda.h` renames many functions with macros (`#define cuMemAlloc
//! cuMemAlloc_v2`, `#define cuCtxCreate cuCtxCreate_v4` in 13.x). libcuda
//! still exports the plain names with their *legacy* ABI. This crate takes the
//! renames from the preprocessor's own view of the header and exposes each plain
//! name as an alias of the function a C call of it reaches: `cuMemAlloc` here
//! *is* `cuMemAlloc_v2`. The versioned names are available too.
//!
//! With the `per-thread-default-stream` feature the header is read with
//! `CUDA_API_PER_THREAD_DEFAULT_STREAM` defined, exactly as a C program compiled
//! with that macro: `cuMemAllocAsync` binds `cuMemAllocAsync_ptsz`, blocking
//! copies bind their `_ptds` symbols.
//!
//! # Value types
//!
//! Every getter of an attribute writes through a pointer, and reading an
//! attribute with the wrong width is a memory-safety bug: `cuPointerGetAttribute`
//! takes `void *` and writes 4 bytes for `CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL`,
//! 8 for `CU_POINTER_ATTRIBUTE_ALLOWED_HANDLE_TYPES`. [`VALUE_TYPES`] gives the
//! value type of every enumerator of every attribute enum (`CUpointer_attribute`,
//! `CUmem_range_attribute`, `CUcoredumpSettings`, `CUlaunchAttributeID`,
//! `CUdevice_attribute`, `CUfunction_attribute`, `CUlimit`,
//! `CUdevice_P2PAttribute`, `CUmemPool_attribute`, `CUgraphMem_attribute`):
//! its C type, size, alignment and signedness, whether it is a boolean, an
//! array or a string, for a launch attribute the member of
//! `CUlaunchAttributeValue` that holds it, the functions that read and set
//! it, and where the type comes from ([`Source`]), in that order of trust:
//!
//! 1. the enumerator's comment, `(value type = cuuint64_t)` (memory pools, graph memory);
//! 2. the getter's signature: `int *` of `cuDeviceGetAttribute`, `size_t *` of
//!    `cuCtxGetLimit`, and for launch attributes the union `cuStreamGetAttribute`
//!    writes, narrowed to the member the header's comments name;
//! 3. this crate's facts table, where the getter takes `void *`: the line of
//!    `cuda.h` that states the type, or that says what the value is (a
//!    boolean, an integer) with the width measured on a driver (CUDA 13.0,
//!    580.159.04). `tests/gpu_attributes.rs` measures every width the driver
//!    answers, for each getter, on real objects.
//!
//! Each attribute enum has `value_type()` and `typed()`; each enum's page has
//! the table, and each enumerator's page its line. An enum's end marker
//! (`CU_DEVICE_ATTRIBUTE_MAX`), `CU_LAUNCH_ATTRIBUTE_IGNORE` and a value newer
//! than these bindings have none:
//!
//! ```
//! use libcuda_sys::*;
//! let t = CUmemPool_attribute::CU_MEMPOOL_ATTR_RELEASE_THRESHOLD.value_type().unwrap();
//! assert_eq!((t.c_name, t.size, t.signed), ("cuuint64_t", Some(8), Some(false)));
//! let t = CUpointer_attribute::CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL.value_type().unwrap();
//! assert_eq!((t.c_name, t.size, t.signed), ("int", Some(4), Some(true)));
//! let e = CUpointer_attribute::CU_POINTER_ATTRIBUTE_IS_MANAGED.typed().unwrap();
//! assert_eq!((e.value_type.size, e.value_type.shape), (Some(4), Shape::Boolean));
//! assert!(matches!(e.source, Source::Measured { .. }));
//! assert_eq!(e.getters, ["cuPointerGetAttribute", "cuPointerGetAttributes"]);
//! let t = CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK.value_type().unwrap();
//! assert_eq!((t.c_name, t.size), ("int", Some(4)));
//! assert_eq!(CUpointer_attribute(9999).value_type(), None);
//! ```
//!
//!
//! # The build
//!
//! Where the bindings come from, choosing a CUDA release, finding the headers,
//! linking (and the stand-in library for machines without a driver), the
//! driver floor, dynamic loading, the features, every environment variable,
//! when the build runs again, the cfgs, and the `DEP_CUDA_*` metadata for
//! dependent crates: [`building`].

#![no_std]
#![allow(non_camel_case_types, non_snake_case, non_upper_case_globals)]
// The header's documentation is carried over as written; some of it is not
// valid rustdoc markup.
#![allow(
    rustdoc::broken_intra_doc_links,
    rustdoc::invalid_html_tags,
    rustdoc::bare_urls,
    rustdoc::invalid_rust_codeblocks
)]

pub mod building;
#[cfg(feature = "dynamic-loading")]
pub mod dynamic;
#[macro_use]
mod enums;
mod value_type;

/// The driver's functions, declared by the generated `functions.rs`: in the
/// linked mode an `extern "C"` block that the linker resolves, written as such
/// by the build script (a macro over some 500 declarations costs the crate's
/// compile a tenth of a second); with `dynamic-loading` a `functions!` list.
///
/// With `dynamic-loading`: one function of the same name and signature per
/// declaration, which calls through its own [`dynamic::Slot`], resolved at the
/// first call.
#[cfg(feature = "dynamic-loading")]
macro_rules! functions {
    ($($(#[$attr:meta])* pub fn $name:ident($($arg:ident: $ty:ty),* $(,)?) -> $ret:ty;)*) => {
        struct FunctionSlots {
            $($name: crate::dynamic::Slot,)*
        }
        static FUNCTION_SLOTS: FunctionSlots = FunctionSlots {
            $($name: crate::dynamic::Slot::new(concat!(stringify!($name), "\0")),)*
        };
        /// Every bound function's slot, for `dynamic::is_available`.
        pub(crate) static SLOTS: &[&crate::dynamic::Slot] = &[$(&FUNCTION_SLOTS.$name,)*];
        $(
            $(#[$attr])*
            pub unsafe fn $name($($arg: $ty),*) -> $ret {
                match FUNCTION_SLOTS.$name.get() {
                    Ok(f) => {
                        // SAFETY: the slot holds the driver's function of this
                        // name, whose C signature this declaration is.
                        let f = unsafe {
                            ::core::mem::transmute::<*const (), unsafe extern "C" fn($($ty),*) -> $ret>(f)
                        };
                        unsafe { f($($arg),*) }
                    }
                    Err(e) => e,
                }
            }
        )*
    };
}
pub use value_type::{typed_enumerator, Access, Shape, Source, TypedEnumerator, ValueType};

/// Everything generated from the header, re-exported at the crate root. Its
/// text is bindgen's and the header's, so clippy's style lints do not apply.
#[allow(clippy::all, clippy::pedantic)]
mod generated {
    use crate::{Access, Shape, Source, TypedEnumerator, ValueType};
    include!(concat!(env!("OUT_DIR"), "/bindings.rs"));
    include!(concat!(env!("OUT_DIR"), "/functions.rs"));
    include!(concat!(env!("OUT_DIR"), "/renames.rs"));
    include!(concat!(env!("OUT_DIR"), "/macro_constants.rs"));
    include!(concat!(env!("OUT_DIR"), "/since.rs"));
    include!(concat!(env!("OUT_DIR"), "/value_types.rs"));
    include!(concat!(env!("OUT_DIR"), "/enumerators.rs"));
    include!(concat!(env!("OUT_DIR"), "/accessors.rs"));
}
pub use generated::*;

// The map of the API: the module `map`, rendered with the bindings.
include!(concat!(env!("OUT_DIR"), "/map.rs"));

pub mod workflows;

#[cfg(any(
    feature = "gl",
    feature = "egl",
    feature = "vdpau",
    feature = "d3d9",
    feature = "d3d10",
    feature = "d3d11"
))]
mod interop_types;

/// OpenGL interoperability (`cudaGL.h`): what that header adds to `cuda.h`,
/// with the `gl` feature. Its functions are also in [`FUNCTIONS`], [`since`]
/// and [`driver_has`].
#[cfg(feature = "gl")]
#[allow(clippy::all, clippy::pedantic)]
pub mod gl {
    pub use crate::interop_types::gl::*;
    use crate::*;
    include!(concat!(env!("OUT_DIR"), "/gl.rs"));
}

/// EGL interoperability (`cudaEGL.h`): what that header adds to `cuda.h`,
/// with the `egl` feature. `cuEventCreateFromEGLSync` is declared, but the
/// x86-64 desktop driver does not export it.
#[cfg(feature = "egl")]
#[allow(clippy::all, clippy::pedantic)]
pub mod egl {
    pub use crate::interop_types::egl::*;
    use crate::*;
    include!(concat!(env!("OUT_DIR"), "/egl.rs"));
}

/// VDPAU interoperability (`cudaVDPAU.h`): what that header adds to
/// `cuda.h`, with the `vdpau` feature.
#[cfg(feature = "vdpau")]
#[allow(clippy::all, clippy::pedantic)]
pub mod vdpau {
    pub use crate::interop_types::vdpau::*;
    use crate::*;
    include!(concat!(env!("OUT_DIR"), "/vdpau.rs"));
}

/// Direct3D 9 interoperability (`cudaD3D9.h`, Windows): what that header adds
/// to `cuda.h`, with the `d3d9` feature.
#[cfg(feature = "d3d9")]
#[allow(clippy::all, clippy::pedantic)]
pub mod d3d9 {
    pub use crate::interop_types::d3d9::*;
    use crate::*;
    include!(concat!(env!("OUT_DIR"), "/d3d9.rs"));
}

/// Direct3D 10 interoperability (`cudaD3D10.h`, Windows): what that header
/// adds to `cuda.h`, with the `d3d10` feature.
#[cfg(feature = "d3d10")]
#[allow(clippy::all, clippy::pedantic)]
pub mod d3d10 {
    pub use crate::interop_types::d3d10::*;
    use crate::*;
    include!(concat!(env!("OUT_DIR"), "/d3d10.rs"));
}

/// Direct3D 11 interoperability (`cudaD3D11.h`, Windows): what that header
/// adds to `cuda.h`, with the `d3d11` feature.
#[cfg(feature = "d3d11")]
#[allow(clippy::all, clippy::pedantic)]
pub mod d3d11 {
    pub use crate::interop_types::d3d11::*;
    use crate::*;
    include!(concat!(env!("OUT_DIR"), "/d3d11.rs"));
}

/// The `CUDA_VERSION` of the header the bindings were generated from.
pub const HEADER_VERSION: u32 = CUDA_VERSION;

/// The CUDA version (`CUDA_VERSION` form, e.g. `13020`) that introduced the
/// ABI that the bound function `name` calls: the oldest driver that has it.
/// Plain names answer for the function they are aliases of
/// (`since("cuCtxSynchronize")` is `Some(2000)`, `since("cuCtxSynchronize_v2")`
/// `Some(13000)`). `None` for a name that is not bound, or where the headers
/// had no `cudaTypedefs.h` ([`SINCE_AVAILABLE`]). A wrapper can compare it with
/// `cuDriverGetVersion` before calling.
pub fn since(name: &str) -> Option<u32> {
    let target = alias_target(name);
    SINCE.binary_search_by(|(n, _)| (*n).cmp(target)).ok().map(|i| SINCE[i].1)
}

/// The function a plain name (`cuMemAlloc`) is an alias of (`cuMemAlloc_v2`);
/// any other name as it is.
pub(crate) fn alias_target(name: &str) -> &str {
    PLAIN_NAMES.binary_search_by(|(plain, _)| (*plain).cmp(name)).map_or(name, |i| PLAIN_NAMES[i].1)
}

/// Whether the driver this program runs against has the bound function
/// `name`, so that calling it will not fail for want of it. A plain name
/// (`"cuMemAlloc"`) answers for the function it is an alias of
/// (`cuMemAlloc_v2`): the ABI these bindings call, not the driver's legacy
/// symbol of that name. `Ok(false)` also for a name these bindings do not bind.
///
/// One answer in both linking modes, for the same driver: the driver's
/// `cuDriverGetVersion` must be at least [`since`] of the function (the release
/// that introduced its ABI), and the driver must have it: the exact symbol
/// ([`driver_symbol`]) when linked; with `dynamic-loading`, what a call would
/// resolve ([`dynamic::is_available`]: the exact symbol, else
/// `cuGetProcAddress` for a renamed plain name). So the answers differ only for
/// a function a driver gives through `cuGetProcAddress` alone, which a linked
/// program cannot call (and could not start with). Errors: what
/// `cuDriverGetVersion` returns without a usable driver, so against a stub (the
/// toolkit's or this crate's stand-in) `CUDA_ERROR_STUB_LIBRARY` in both modes;
/// `CUDA_ERROR_SHARED_OBJECT_INIT_FAILED` when `dynamic-loading` cannot open
/// the library; `CUDA_ERROR_NOT_SUPPORTED` where the bindings do not know
/// [`since`] ([`SINCE_AVAILABLE`] false: no `cudaTypedefs.h` at build time).
pub fn driver_has(name: &str) -> Result<bool, CUresult> {
    let target = alias_target(name);
    if FUNCTIONS.binary_search(&target).is_err() {
        return Ok(false);
    }
    let mut driver = 0;
    // SAFETY: a valid out-pointer.
    let r = unsafe { cuDriverGetVersion(&mut driver) };
    if r != CUresult::CUDA_SUCCESS {
        return Err(r);
    }
    let needed = since(target).ok_or(CUresult::CUDA_ERROR_NOT_SUPPORTED)?;
    if needed > driver as u32 {
        return Ok(false);
    }
    #[cfg(feature = "dynamic-loading")]
    {
        Ok(dynamic::is_available(target) == Some(true))
    }
    #[cfg(not(feature = "dynamic-loading"))]
    {
        // A function name with its NUL, without allocating (`no_std`).
        let mut buf = [0u8; 128];
        let Some(slot) = buf.get_mut(..target.len()) else {
            return Ok(false);
        };
        slot.copy_from_slice(target.as_bytes());
        let symbol = core::ffi::CStr::from_bytes_until_nul(&buf)
            .map_err(|_| CUresult::CUDA_ERROR_NOT_FOUND)?;
        Ok(driver_symbol(symbol).is_ok())
    }
}

/// The address of `name`, a symbol the driver library exports, by its exact
/// name (`c"cuMemAlloc_v2"`; `c"cuMemAlloc"` is libcuda's legacy ABI of that
/// name): for calling what these bindings do not declare, or asking whether
/// the driver has it. Never opens the library a second time: linked, the
/// libcuda loaded with the program (`libcuda.so.1`, `nvcuda.dll`);
/// with `dynamic-loading`, the library the crate opened.
///
/// Where that library is the crate's stand-in (a build made without a
/// driver, see [Linking](crate::building#linking)), the library asked is the
/// driver the stand-in hands calls over to, so that a symbol the bindings do
/// not declare is found and one the driver lacks is not; `dynamic-loading`
/// opens the stand-in only where it is first on the library path.
///
/// Errors, never a panic: `CUDA_ERROR_NOT_FOUND` for a name the library does
/// not export; linked, `CUDA_ERROR_STUB_LIBRARY` for the stand-in with no
/// driver behind it; `CUDA_ERROR_SHARED_OBJECT_INIT_FAILED` where there is no
/// such library (`dynamic-loading` could not open one, or opened the stand-in
/// with no driver behind it: [`dynamic::try_load`] says which; linked, on a
/// platform without a loader to ask).
///
/// The driver's own way to find a function is `cuGetProcAddress`: it takes the
/// *base* name (`"cuMemAlloc"`) and the CUDA version whose ABI is wanted, and
/// also finds functions that are not exported under any name. This function
/// knows nothing of versions: the symbol is the ABI, as in the header's
/// `#define cuMemAlloc cuMemAlloc_v2`.
pub fn driver_symbol(name: &core::ffi::CStr) -> Result<*mut core::ffi::c_void, CUresult> {
    #[cfg(feature = "dynamic-loading")]
    {
        dynamic::symbol(name)
    }
    #[cfg(not(feature = "dynamic-loading"))]
    {
        loaded::symbol(name)
    }
}

/// The libcuda a linked program was loaded with, asked through the system loader.
#[cfg(not(feature = "dynamic-loading"))]
mod loaded {
    use core::ffi::{c_char, c_int, c_void, CStr};

    use crate::CUresult;

    #[cfg(target_os = "linux")]
    pub fn symbol(name: &CStr) -> Result<*mut c_void, CUresult> {
        // glibc before 2.34 keeps these in libdl.
        #[cfg_attr(target_env = "gnu", link(name = "dl"))]
        extern "C" {
            fn dlopen(file: *const c_char, mode: c_int) -> *mut c_void;
            fn dlsym(handle: *mut c_void, symbol: *const c_char) -> *mut c_void;
            fn dlclose(handle: *mut c_void) -> c_int;
        }
        const RTLD_LAZY: c_int = 0x1;
        const RTLD_NOLOAD: c_int = 0x4;
        // SAFETY: NUL-terminated names. RTLD_NOLOAD finds the library loaded
        // with the program; the linker drops it (`--as-needed`) from a program
        // that calls no driver function itself, and then the loader's own
        // `libcuda.so.1` is opened once and kept, so that the address stays valid.
        unsafe {
            let loaded = dlopen(c"libcuda.so.1".as_ptr(), RTLD_LAZY | RTLD_NOLOAD);
            let handle = match loaded.is_null() {
                true => dlopen(c"libcuda.so.1".as_ptr(), RTLD_LAZY),
                false => loaded,
            };
            if handle.is_null() {
                return Err(CUresult::CUDA_ERROR_SHARED_OBJECT_INIT_FAILED);
            }
            // The crate's stand-in (a build without a driver) names the driver
            // it hands calls over to: the answer is that library's.
            let behind = dlsym(handle, c"libcuda_sys_stand_in_driver".as_ptr());
            let library = match behind.is_null() {
                true => handle,
                false => {
                    // It is `void *libcuda_sys_stand_in_driver(void)` there.
                    let driver =
                        core::mem::transmute::<*mut c_void, extern "C" fn() -> *mut c_void>(behind);
                    driver()
                }
            };
            let f = match library.is_null() {
                true => core::ptr::null_mut(),
                false => dlsym(library, name.as_ptr()),
            };
            if !loaded.is_null() {
                dlclose(loaded);
            }
            match (library.is_null(), f.is_null()) {
                (true, _) => Err(CUresult::CUDA_ERROR_STUB_LIBRARY),
                (false, true) => Err(CUresult::CUDA_ERROR_NOT_FOUND),
                (false, false) => Ok(f),
            }
        }
    }

    #[cfg(windows)]
    pub fn symbol(name: &CStr) -> Result<*mut c_void, CUresult> {
        #[link(name = "kernel32")]
        extern "system" {
            fn GetModuleHandleA(name: *const c_char) -> *mut c_void;
            fn GetProcAddress(module: *mut c_void, name: *const c_char) -> *mut c_void;
        }
        // SAFETY: NUL-terminated names; the module handle is not reference-counted.
        unsafe {
            let module = GetModuleHandleA(c"nvcuda.dll".as_ptr());
            if module.is_null() {
                return Err(CUresult::CUDA_ERROR_SHARED_OBJECT_INIT_FAILED);
            }
            let f = GetProcAddress(module, name.as_ptr());
            if f.is_null() {
                Err(CUresult::CUDA_ERROR_NOT_FOUND)
            } else {
                Ok(f)
            }
        }
    }

    #[cfg(not(any(target_os = "linux", windows)))]
    pub fn symbol(_: &CStr) -> Result<*mut c_void, CUresult> {
        Err(CUresult::CUDA_ERROR_SHARED_OBJECT_INIT_FAILED)
    }
}

/// `true` when these are the crate's pregenerated bindings (no CUDA headers
/// or no libclang at build time, headers of another release than a
/// `cuda-XXXXX` feature asks for, `DOCS_RS`,
/// `LIBCUDA_SYS_BINDINGS=pregenerated`, or no `bindgen` feature): the same
/// declarations, without the header's documentation; the
/// [`TypedEnumerator::description`]s are this crate's own sentences (the
/// memory-pool attributes) or empty.
pub const PREGENERATED: bool = cfg!(libcuda_sys_pregenerated);

// The README's examples compile, against bindings of CUDA 13.0 or newer,
// whose cuMemGetDefaultMemPool they call.
#[cfg(all(doctest, cuda_13_0))]
#[doc = include_str!("../README.md")]
struct ReadmeExamples;

/// This crate's version, for a program that reports what it was built with.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
