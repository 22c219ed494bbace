//! Raw bindings to the CUDA driver API (`cuda.h`, `libcuda`), generated at build
//! time from the CUDA headers found on the build machine, or, where there are
//! none or no libclang, the crate's pregenerated bindings (see [Where the
//! bindings come from](#where-the-bindings-come-from)).
//!
#![doc = include_str!(concat!(env!("OUT_DIR"), "/crate_docs.md"))]
//!
//! Every function, type and constant of `cuda.h` is here under its C name. In
//! every mode each function's page starts with what it does, in this crate's
//! own words (and for a versioned ABI such as `cuCtxCreate_v4`, what it
//! changed), then, for an attribute getter or setter, what its value must
//! be; it ends with the result codes and related functions NVIDIA's
//! documentation lists (linked), its page of NVIDIA's reference, and the
//! driver it needs. Generated bindings carry the header's own documentation
//! between the two; each `CUresult` says what it means and what a caller
//! does about it, and `Display` prints the meaning. The profiler functions
//! (`cuProfilerStart`, `cuProfilerStop`), which `cuda.h` leaves out, are
//! bound too.
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
//! # Where the bindings come from
//!
//! `LIBCUDA_SYS_BINDINGS` unset (the default): generated from the headers found
//! (below) when libclang loads too, otherwise the pregenerated bindings of the
//! crate, with one `cargo:warning` that says why and how to get generated ones.
//! A libclang without clang's own headers (`stddef.h`: Debian's `libclang1-N`
//! without `libclang-common-N-dev`) parses no C, and is a fallback too, whose
//! warning names the package. `LIBCUDA_SYS_BINDINGS=generate`: generated, or an
//! error that says what is missing. `LIBCUDA_SYS_BINDINGS=pregenerated`,
//! `DOCS_RS` set, or the `bindgen` feature off: the pregenerated set, without
//! searching. A toolkit variable that is set but wrong is an error in every mode.
//!
//! Headers found but not generated from decide the pregenerated release (see
//! below) by their `CUDA_VERSION` as the target's C preprocessor reads it. With
//! no C compiler to run (a cross build without one), it is read from `cuda.h`'s
//! text, where that is plain: one `#define CUDA_VERSION` outside every
//! conditional block but the include guard, never `#undef`ined, as NVIDIA's
//! headers have it. Anything else is an error that shows what was found, never
//! a guess.
//!
//! The pregenerated set covers every CUDA release whose headers NVIDIA publishes as
//! pip wheels: 11.7, 11.8, 12.0–12.6, 12.8, 12.9 and 13.0–13.5, each in both
//! variants (default and `per-thread-default-stream`). It has the same items as
//! generated bindings and this crate's own documentation (what each function
//! does, the facts of NVIDIA's documentation, the driver each function needs,
//! each attribute's value type, a sentence for each memory-pool attribute),
//! but none of the header's text. [`PREGENERATED`] says which one a build has.
//!
//! # Choosing a CUDA release
//!
//! A crate written against one release's API picks it with a feature named
//! after its `CUDA_VERSION`: `cuda-11070`, `cuda-11080`, `cuda-12000` ...
//! `cuda-12060`, `cuda-12080`, `cuda-12090`, `cuda-13000` ... `cuda-13050`.
//! At most one may be on; two are a build error that names both (Cargo unites
//! the features of every crate in a build, so two crates asked for different
//! releases). The rule:
//!
//! - **No feature:** the headers found decide. Generated from them where
//!   libclang loads; where they cannot be generated from (no libclang, the
//!   `bindgen` feature off, `LIBCUDA_SYS_BINDINGS=pregenerated`), the
//!   pregenerated set of their `CUDA_VERSION` (as the target's C preprocessor
//!   reads it: [Where the bindings come from](#where-the-bindings-come-from)), or where that release has none, of the newest release older than
//!   theirs (13.5 for 13.6 headers), said in the warning. Headers older than
//!   every pregenerated release (11.2–11.6) are an error that names the fixes.
//!   Without headers, the newest pregenerated release.
//! - **A feature, and headers of that release found** (with libclang):
//!   generated from them, with the header's documentation.
//! - **A feature, and headers of another release found:** the pregenerated set of
//!   the feature's release, with a `cargo:warning` that names both releases,
//!   and `DEP_CUDA_FOUND_BY=pregenerated`. With `LIBCUDA_SYS_BINDINGS=generate`
//!   it is an error instead.
//! - **A feature, and no headers:** the pregenerated set of that release.
//!
//! [`HEADER_VERSION`], `DEP_CUDA_VERSION`, the `cuda_X_Y` cfgs and [`since`]
//! are those of the release bound. A dependent that wants a release on docs.rs
//! (which has no CUDA headers) names it in its own manifest:
//!
//! ```toml
//! [package.metadata.docs.rs]
//! features = ["libcuda-sys/cuda-12080"]
//! ```
//!
//! # Finding the headers
//!
//! The build script takes the first of, in order:
//!
//! 1. `LIBCUDA_SYS_INCLUDE_DIR` (the directory that holds `cuda.h`);
//! 2. `CUDA_PATH`, `CUDA_HOME`, `CUDA_ROOT`, `CUDA_TOOLKIT_ROOT_DIR` (a toolkit
//!    root; the first set wins, with a warning when another one disagrees);
//! 3. `nvcc` on `PATH` (the root is two levels above it);
//! 4. pkg-config (`cuda`, `cuda-X.Y`);
//! 5. conda (`$CONDA_PREFIX`, `$CONDA_PREFIX/targets/<triple>`);
//! 6. pip wheels on Python's `sys.path` (`nvidia/cu13/include` from
//!    `pip install nvidia-cuda-runtime`, `nvidia/cuda_runtime/include` from the
//!    `-cu12`/`-cu11` packages);
//! 7. `/usr/local/cuda`, `/usr/local/cuda-X.Y` (newest first), `/opt/cuda`,
//!    `/usr/lib/cuda`, `/usr` (and their `targets/<triple>` directories); for a
//!    Windows target, NVIDIA's installer's
//!    `%ProgramFiles%\NVIDIA GPU Computing Toolkit\CUDA\vX.Y` instead (newest
//!    first: `v13.0` before `v12.9`).
//!
//! Features are read as the build script was compiled with them, never from
//! `CARGO_FEATURE_*` variables in the environment (an outer build's leak).
//!
//! `LIBCUDA_SYS_INCLUDE_DIR` and `LIBCUDA_SYS_LIB_DIR` may carry the target as
//! a prefix (`X86_64_UNKNOWN_LINUX_GNU_LIBCUDA_SYS_INCLUDE_DIR`), which wins.
//! A variable that is set but wrong is an error, never skipped. `cargo build -vv`
//! shows every candidate and why it was taken or rejected. Headers older than
//! 11.2 (no memory pools) are refused.
//!
//! # Linking
//!
//! Targets are 64-bit (CUDA's driver API is): a 32-bit target is a build
//! error that says so. With `DOCS_RS` set nothing is linked, for any target:
//! rustdoc links nothing (`DEP_CUDA_LINK_KIND=none`).
//!
//! libcuda ships with the NVIDIA driver, not with the toolkit. The build links
//! `libcuda` from `LIBCUDA_SYS_LIB_DIR`, else the driver's directories
//! (`ldconfig -p`, `/usr/lib/x86_64-linux-gnu`, `/usr/lib64`,
//! `/usr/local/nvidia/lib64`, `/usr/lib/wsl/lib`). A library is taken only if
//! it is an ELF shared object for the target's architecture (a 32-bit driver
//! is passed over), and a stub is never taken for the driver: the toolkit's is
//! told by its `stubs` directory (also behind a symlink), the crate's stand-in
//! by a mark it carries.
//!
//! Without a driver (a CI machine, `docker build` from a toolkit image), the
//! build links a stand-in `libcuda.so.1` that it builds in `OUT_DIR` with the
//! target's C compiler, and says so with a warning (`DEP_CUDA_LINK_KIND=generated-stub`).
//! It declares every bound function, also where the bindings are of a newer
//! release than the toolkit's stub. Programs built against it run against the
//! real driver wherever one is installed: the stand-in is never copied or put
//! on a run path; only `cargo run` and `cargo test` find it (Cargo adds
//! directories in the target directory to their library path), and there, on
//! x86-64 and aarch64 Linux, it hands every call over to the driver the
//! loader would have loaded without it. It looks where the loader does, in
//! the loader's order: the program's RPATH, `LD_LIBRARY_PATH` (as the loader
//! reads it: `:` and `;`, `$ORIGIN`, `$LIB`, `$PLATFORM`), its RUNPATH, the
//! loader's cache (`ldconfig`), the default directories (on glibc; elsewhere
//! `LD_LIBRARY_PATH` and `/lib:/usr/local/lib:/usr/lib`), and passes over
//! itself, a library whose real path is in a `stubs` directory, one whose
//! `cuDriverGetVersion` answers `CUDA_ERROR_STUB_LIBRARY`, and other
//! stand-ins. So a driver installed after the build, or mounted into a
//! container by `docker run --gpus`, answers without a rebuild; without one,
//! every call returns `CUDA_ERROR_STUB_LIBRARY`, and a function the driver
//! lacks `CUDA_ERROR_NOT_FOUND`. [`driver_symbol`] and [`driver_has`] answer
//! for that driver too.
//!
//! The toolkit's stub (`lib64/stubs`) is linked only where no stand-in can be
//! built (no C compiler for the target, or not Linux), and then where it is,
//! never under the name `libcuda.so.1` in `OUT_DIR`: a program built so
//! starts only where a driver is installed.
//!
//! # The driver floor
//!
//! `LIBCUDA_SYS_DRIVER_FLOOR=X.Y` names the oldest driver (as a CUDA release)
//! a linked program must start on. Rust links with full RELRO, so a program
//! that references a function its driver lacks does not start at all; with a
//! floor, every function whose ABI is newer than `X.Y` (see [`since`]) is left
//! out of the bindings, and using one is a compile error instead. It works with
//! generated and pregenerated bindings alike; generated ones need the header's
//! `cudaTypedefs.h`, and a floor that cannot date a bound function is an error
//! that names them. With `dynamic-loading` it has no effect (a function the
//! driver lacks fails alone, at run time). The floor applied is passed on as
//! `DEP_CUDA_DRIVER_FLOOR` (`13000`; empty without one).
//!
//! # Dynamic loading
//!
//! With the `dynamic-loading` feature nothing is linked: the same functions call
//! through a table that opens `libcuda.so.1` at first use and resolves each
//! function at its first call (the header's exact symbol, else the driver's
//! `cuGetProcAddress` for a renamed plain name); see the `dynamic` module
//! (present with the feature) for the search order and errors. Without a driver every
//! call returns `CUDA_ERROR_SHARED_OBJECT_INIT_FAILED`; a function the driver
//! lacks returns `CUDA_ERROR_NOT_FOUND`. Nothing panics.
//!
//! The crate asks for libloading `>=0.8, <0.10`, so that a build holds one copy:
//! Cargo picks 0.9 where a dependent uses it, and keeps 0.8 where a dependent
//! holds that (`cargo update -p libloading@0.9.1 --precise 0.8.9`). libloading
//! 0.9 needs Rust 1.88: on Rust 1.85 to 1.87 (this crate needs 1.85), take
//! 0.8 the same way, or let Cargo choose by Rust version (`resolver = "3"`, or
//! `CARGO_RESOLVER_INCOMPATIBLE_RUST_VERSIONS=fallback`).
//!
//! # Which driver a function needs
//!
//! `cudaTypedefs.h`, beside `cuda.h` in every toolkit and pip wheel, types each
//! ABI of every driver function with the release that introduced it; [`since`]
//! gives it for each bound function (`since("cuMemGetDefaultMemPool") ==
//! Some(13000)`), and each function's documentation says it. [`driver_has`]
//! asks the running driver. [`FUNCTIONS`] lists every bound function.
//!
//! # Features
//!
//! | feature | effect |
//! |---|---|
//! | `bindgen` (default) | generate from the headers found (needs libclang at build time); without it none of bindgen, clang-sys, syn, quote, doxygen-bindgen is compiled and the pregenerated set is used |
//! | `cuda-11070` ... `cuda-13050` | the CUDA release to bind, at most one ([Choosing a CUDA release](#choosing-a-cuda-release)) |
//! | `dynamic-loading` | link nothing: functions are resolved at first use ([Dynamic loading](#dynamic-loading)); adds `libloading` |
//! | `per-thread-default-stream` | read the header with `CUDA_API_PER_THREAD_DEFAULT_STREAM` defined, as C does: stream-taking calls bind their `_ptsz` symbols, blocking copies their `_ptds` ones |
//! | `gl`, `egl`, `vdpau` | Linux: the module `gl` (`cudaGL.h`), `egl` (`cudaEGL.h`) or `vdpau` (`cudaVDPAU.h`) ([Graphics interop](#graphics-interop)) |
//! | `d3d9`, `d3d10`, `d3d11` | Windows: the module `d3d9` (`cudaD3D9.h`), `d3d10` (`cudaD3D10.h`) or `d3d11` (`cudaD3D11.h`) ([Graphics interop](#graphics-interop)) |
//!
//! # Graphics interop
//!
//! The features `gl`, `egl` and `vdpau` (Linux targets) add the modules
//! `libcuda_sys::gl`, `libcuda_sys::egl` and `libcuda_sys::vdpau`: what
//! `cudaGL.h`, `cudaEGL.h` and `cudaVDPAU.h` add to `cuda.h` (their functions,
//! enums, `CUeglFrame`, `MAX_PLANES`), each generated from that header in a
//! bindgen pass of its own. On Windows targets `d3d9`, `d3d10` and `d3d11` add
//! `libcuda_sys::d3d9`, `d3d10` and `d3d11`, from `cudaD3D9.h`, `cudaD3D10.h`
//! and `cudaD3D11.h` (the Windows wheels and toolkits have them); their
//! Direct3D and DXGI interfaces (`IDirect3DDevice9`, `ID3D11Resource`,
//! `IDXGIAdapter`, ...) are opaque types of the crate, taken by pointer: cast
//! a Direct3D binding's raw interface pointer to them. `cuda.h`'s items stay at the crate root (each
//! module imports them). The plain names are bound to the versioned symbols as
//! for `cuda.h` (`gl::cuGLGetDevices` is `cuGLGetDevices_v2`, `vdpau::cuVDPAUCtxCreate`
//! `cuVDPAUCtxCreate_v2`; with `per-thread-default-stream`, `cuGLMapBufferObject`
//! and `cuGLMapBufferObjectAsync` are the `_v2_ptds`/`_v2_ptsz` ones). The
//! functions are in [`FUNCTIONS`], [`since`] (dated from `cudaGLTypedefs.h`,
//! `cudaEGLTypedefs.h`, `cudaVDPAUTypedefs.h`), [`driver_has`] and the
//! dynamic-loading table; `DEP_CUDA_INTEROP` names the modules bound.
//!
//! The window system's types (`GLuint`, `GLenum`, `EGLint`, `EGLImageKHR`,
//! `EGLStreamKHR`, `EGLSyncKHR`, `VdpDevice`, `VdpVideoSurface`,
//! `VdpOutputSurface`, `VdpFuncId`, `VdpStatus`, `VdpGetProcAddress`) are the
//! crate's own, as the C types they are, in the module that uses them: the
//! bindings do not depend on which of `libgl-dev`, `libegl-dev`,
//! `libvdpau-dev` the build machine has. Their headers are read where they
//! are installed; where one is missing, a stand-in in `OUT_DIR` that declares
//! only those types is found after every other include directory.
//!
//! The pregenerated set has the six modules for every release it covers
//! (`pregenerated/gl/`, ..., `d3d11/`; the Direct3D ones from each release's
//! Windows headers), so they build without headers or libclang too. A feature
//! for another OS than the target's is an error that says so, except on
//! docs.rs, whose one page documents all six.
//!
//! `egl::cuEventCreateFromEGLSync` is declared by every `cudaEGL.h`, but the
//! x86-64 desktop driver does not export it (measured with driver 580.159.04,
//! CUDA 13.0; `cuGetProcAddress` does not find it either): a linked program
//! that calls it does not start there, and `driver_has` answers `false`.
//! Every other interop function resolves against that driver when the
//! program starts (`tests/interop.rs` with `LD_BIND_NOW=1`, linked and with
//! `dynamic-loading`, on an H200 with driver 580.159.04).
//!
//! On that machine, which has no display, `tests/gpu_interop.rs` makes a GL
//! texture in a surfaceless EGL context on EGL's device platform (glvnd's
//! `libEGL.so.1`, NVIDIA's EGL vendor library) and reads its texels back
//! through `gl::cuGraphicsGLRegisterImage` and through an `EGLImage` with
//! `egl::cuGraphicsEGLRegisterImage`; and it calls each interop function that
//! needs no window system with arguments that name nothing, each in a process
//! of its own. Five of those returned a code NVIDIA's documentation does not
//! list for the function, and `vdpau::cuVDPAUCtxCreate` with a null
//! `vdpGetProcAddress` crashed the process; each function's page says what it
//! returned.
//!
//! # Environment variables
//!
//! The build script reads these, each with `rerun-if-env-changed`; an empty
//! value is unset. `cargo build -vv` shows each value and every place searched.
//!
//! | variable | meaning |
//! |---|---|
//! | `LIBCUDA_SYS_BINDINGS` | `generate`, `pregenerated`, or unset ([Where the bindings come from](#where-the-bindings-come-from)) |
//! | `DOCS_RS` | set (not `0`) by docs.rs: the pregenerated set, no search |
//! | `LIBCUDA_SYS_INCLUDE_DIR` | the directory that holds `cuda.h`; wins over everything |
//! | `LIBCUDA_SYS_LIB_DIR` | the directory of the `libcuda` to link |
//! | `<TARGET>_LIBCUDA_SYS_INCLUDE_DIR`, `<TARGET>_LIBCUDA_SYS_LIB_DIR` | the same for one target (`X86_64_UNKNOWN_LINUX_GNU_...`); wins over the plain one |
//! | `CUDA_PATH`, `CUDA_HOME`, `CUDA_ROOT`, `CUDA_TOOLKIT_ROOT_DIR` | a toolkit root; the first set wins, with a warning when another disagrees |
//! | `PATH`, `PKG_CONFIG_PATH`, `CONDA_PREFIX`, `VIRTUAL_ENV`, `PYTHONPATH` | where `nvcc`, `cuda-X.Y.pc`, conda's and pip's headers are looked for |
//! | `LIBCLANG_PATH`, `BINDGEN_EXTRA_CLANG_ARGS[_<target>]` | where libclang is, extra clang flags (a sysroot for a cross build) |
//! | `ProgramFiles` | Windows targets: where the toolkit's default install directory is (on a Windows host, `C:\Program Files` where it is unset) |
//! | `CC`, `CFLAGS` (and per target) | the C compiler for the preprocessor (also the release of headers not generated from) and the stand-in library |
//! | `LIBCUDA_SYS_DRIVER_FLOOR` | the oldest driver, `X.Y` ([The driver floor](#the-driver-floor)) |
//! | `LIBCUDA_SYS_DRIVER_PATH` | at run time, `dynamic-loading` only: the library to open instead of `libcuda.so.1` |
//!
//! A variable that is set but wrong (a path that does not exist or holds no
//! `cuda.h`, a relative path) is an error in every mode, never skipped.
//! `CUDA_API_PER_THREAD_DEFAULT_STREAM` (without the feature) and
//! `__CUDA_API_VERSION_INTERNAL` change which ABI `cuda.h` declares: defined
//! through `CFLAGS`/`CC` or `BINDGEN_EXTRA_CLANG_ARGS` (and its per-target
//! forms, which bindgen splits as a shell does: `-D"NAME"` is `-DNAME`), they
//! are an error. However they reach bindgen (a file that `-include` or
//! `-imacros` reads first), bindings that declare `_ptsz`/`_ptds` functions
//! without the `per-thread-default-stream` feature, none with it, or the legacy
//! ABI of the plain names, are an error that names the variable bindgen read.
//!
//! # When the build runs again
//!
//! Cargo re-runs the build script when a variable above changes or a
//! `rerun-if-changed` path does. Its rule, from its fingerprint code: a path is
//! stale when its modification time is newer than the start of the script's
//! last run; for a directory, the newest time of every entry in its whole tree
//! (symlinks followed), which Cargo walks on every build; a path that does not
//! exist is stale on every build. So this crate watches only paths that exist,
//! and a directory only if its tree has at most 4096 entries and it neither
//! is `/`, holds the home directory, the crate or the target directory, lies
//! in the target directory, nor holds a Cargo project: a no-op `cargo build`
//! re-runs nothing, wherever the project and its target directory are (under
//! `/opt`, `/usr/local`, or a `PATH` directory; with `target/debug`, `/` or
//! `$HOME` on `PATH`).
//!
//! Generated bindings watch each header bindgen read and, under those rules,
//! their include directory. A build that fell back to the pregenerated set
//! watches where what it lacks would appear, and generates on the next build
//! after it does:
//!
//! | place | watched through |
//! |---|---|
//! | a toolkit or libclang installed with apt/dpkg or rpm | `/var/lib/dpkg/status`, `/var/lib/rpm/rpmdb.sqlite` (one file each) |
//! | `nvcc` on `PATH` | each `PATH` directory, or for a missing one the nearest directory above it |
//! | conda (`$CONDA_PREFIX`) | `conda-meta` (every install writes there), `include`, `targets/<triple>/include` |
//! | pip wheels: site directories, pip's user site, `PYTHONPATH` (`pip install --target`) | `nvidia/` of each, once some NVIDIA package made it; before, it is named (the site directory itself changes with every install there, `maturin develop` too) |
//! | `/usr/local/cuda`, `/opt/cuda`, `/usr/include` | the nearest directory that exists |
//! | `LIBCLANG_PATH` | that directory |
//!
//! Each under the rules above: a place whose watch would break them is not
//! watched, and the fallback's warning names it. After installing headers there,
//! `cargo clean -p libcuda-sys` makes the next build look again.

//! # cfgs
//!
//! `cuda_11_2`, `cuda_11_3`, ..., up to the header's version, are set for this
//! crate (cumulative: with 12.4 headers `cuda_12_0` is set too). A dependent
//! derives the same from `DEP_CUDA_VERSION` (`major * 1000 + minor * 10`).
//!
//! # Metadata for dependents
//!
//! With `links = "cuda"`, a direct dependent's build script sees:
//!
//! | variable | value |
//! |---|---|
//! | `DEP_CUDA_ROOT` | toolkit root: the one above the headers `DEP_CUDA_INCLUDE` names, past symlinks and `targets/<triple>` (or the include directory when there is no root) |
//! | `DEP_CUDA_INCLUDE` | the directory that holds the `cuda.h` these bindings come from |
//! | `DEP_CUDA_INCLUDES` | the same, as a path list (the key Rust-CUDA's `cust_raw` uses) |
//! | `DEP_CUDA_LIB_DIR` | the directory of the libcuda that was linked |
//! | `DEP_CUDA_LINK_KIND` | `driver`, `toolkit-stub`, `generated-stub`, `import-library` (Windows `cuda.lib`), `dynamic-loading`, or `none` (with `DOCS_RS`: rustdoc links nothing) |
//! | `DEP_CUDA_FOUND_BY` | how the headers were found (`CUDA_PATH`, `pip wheel`, ...), or `pregenerated` |
//! | `DEP_CUDA_VERSION` | the header's `CUDA_VERSION`, e.g. `13000` |
//! | `DEP_CUDA_VERSION_MAJOR`, `DEP_CUDA_VERSION_MINOR` | e.g. `13`, `0` |
//! | `DEP_CUDA_DRIVER_VERSION`, `_MAJOR`, `_MINOR` | the same, under `cust_raw`'s names |
//! | `DEP_CUDA_PER_THREAD_DEFAULT_STREAM` | `true` when the feature is on |
//! | `DEP_CUDA_BINDINGS_DIR` | the directory of the Rust files the crate includes |
//! | `DEP_CUDA_CUDA_H_FNV1A64` | FNV-1a (64-bit, hex) of that `cuda.h`, to check it has not changed in place |
//! | `DEP_CUDA_DRIVER_FLOOR` | `LIBCUDA_SYS_DRIVER_FLOOR` as applied (`13000`), empty without one |
//! | `DEP_CUDA_INTEROP` | the graphics-interop modules bound, comma-separated (`gl,egl`), empty without them |
//!
//! With the pregenerated bindings, `DEP_CUDA_FOUND_BY` is `pregenerated` and
//! `DEP_CUDA_INCLUDE`, `DEP_CUDA_INCLUDES` and `DEP_CUDA_ROOT` are empty: a
//! dependent that compiles C against the headers must check for that and stop
//! with its own message.
//!
//! A dependent that compiles C against the same header:
//!
//! ```ignore
//! // build.rs of a crate that depends on libcuda-sys
//! fn main() {
//!     let include = std::env::var("DEP_CUDA_INCLUDE").unwrap();
//!     if include.is_empty() {
//!         // DEP_CUDA_FOUND_BY=pregenerated: no header to compile C against.
//!         println!("cargo::warning=libcuda-sys uses its pregenerated bindings: no cuda.h to compile against");
//!         std::process::exit(1);
//!     }
//!     let version: u32 = std::env::var("DEP_CUDA_VERSION").unwrap().parse().unwrap();
//!     if version >= 12020 {
//!         println!("cargo::rustc-cfg=has_pool_max_size");
//!     }
//!     println!("cargo::rustc-check-cfg=cfg(has_pool_max_size)");
//!     cc::Build::new().file("src/helper.c").include(include).compile("helper");
//! }
//! ```
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
/// Linked against the crate's stand-in (a build made without a driver, see
/// [Linking](crate#linking)), the library asked is the driver the stand-in
/// hands calls over to, so that a symbol the bindings do not declare is found
/// and one the driver lacks is not.
///
/// Errors, never a panic: `CUDA_ERROR_NOT_FOUND` for a name the library does
/// not export; `CUDA_ERROR_STUB_LIBRARY` for the stand-in with no driver
/// behind it; `CUDA_ERROR_SHARED_OBJECT_INIT_FAILED` where there is no such
/// library (`dynamic-loading` could not open it; linked, on a platform without
/// a loader to ask).
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
