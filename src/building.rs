//! The build: where the bindings come from, which CUDA release they are
//! of, how the headers and the driver library are found and linked, the
//! features, every variable the build script reads, when it runs again, and
//! the metadata it passes to dependent crates. This page is a reference for
//! what [the crate root](crate) introduces.
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
//! but none of the header's text. [`PREGENERATED`](crate::PREGENERATED) says which one a build has.
//! It comes rendered, documentation and tables included: a build with it
//! copies its release's files, and renders only the crate root's paragraph
//! and the `since` table.
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
//! [`HEADER_VERSION`](crate::HEADER_VERSION), `DEP_CUDA_VERSION`, the `cuda_X_Y` cfgs and [`since`](crate::since)
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
//! itself, other stand-ins, a library whose real path is in a `stubs`
//! directory (the toolkit's stub, also behind a symlink) and one that does
//! not export `cuInit`. It calls nothing of the library it takes while the
//! program loads, so a broken one cannot stop the program before `main`; a
//! copy of the toolkit's stub elsewhere is taken, as the loader would take it,
//! and answers `CUDA_ERROR_STUB_LIBRARY`. In CUDA's forward-compatibility layout (`/usr/local/cuda/compat`
//! on `LD_LIBRARY_PATH`, a system driver in the cache) that is the `compat`
//! driver, whether the program was linked with a RUNPATH or an old-style
//! DT_RPATH, as the loader picks it. So a driver installed after the build, or mounted into a
//! container by `docker run --gpus`, answers without a rebuild; without one,
//! every call returns `CUDA_ERROR_STUB_LIBRARY`, and a function the driver
//! lacks `CUDA_ERROR_NOT_FOUND`. [`driver_symbol`](crate::driver_symbol) and [`driver_has`](crate::driver_has) answer
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
//! floor, every function whose ABI is newer than `X.Y` (see [`since`](crate::since)) is left
//! out of the bindings, and using one is a compile error instead. It works with
//! generated and pregenerated bindings alike; generated ones need the header's
//! `cudaTypedefs.h`, and a floor that cannot date a bound function is an error
//! that names them. The pregenerated set's documentation and value-type tables
//! come rendered for every function of the release: under a floor they still
//! name (and link) the getters, setters and related functions it left out,
//! where generated docs leave them out too. With `dynamic-loading` it has no effect (a function the
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
//! ABI of every driver function with the release that introduced it; [`since`](crate::since)
//! gives it for each bound function (`since("cuMemGetDefaultMemPool") ==
//! Some(13000)`), and each function's documentation says it. [`driver_has`](crate::driver_has)
//! asks the running driver. [`FUNCTIONS`](crate::FUNCTIONS) lists every bound function.
//!
//! # Features
//!
//! | feature | effect |
//! |---|---|
//! | `bindgen` (default) | generate from the headers found (needs libclang at build time); without it none of bindgen, clang-sys, syn, quote, doxygen-bindgen or pkg-config is compiled and the pregenerated set is used |
//! | `cuda-11070` ... `cuda-13050` | the CUDA release to bind, at most one ([Choosing a CUDA release](#choosing-a-cuda-release)) |
//! | `dynamic-loading` | link nothing: functions are resolved at first use ([Dynamic loading](#dynamic-loading)); adds `libloading` |
//! | `per-thread-default-stream` | read the header with `CUDA_API_PER_THREAD_DEFAULT_STREAM` defined, as C does: stream-taking calls bind their `_ptsz` symbols, blocking copies their `_ptds` ones |
//! | `gl`, `egl`, `vdpau` | Linux: the module `gl` (`cudaGL.h`), `egl` (`cudaEGL.h`) or `vdpau` (`cudaVDPAU.h`) ([Graphics interop](#graphics-interop)) |
//! | `d3d9`, `d3d10`, `d3d11` | Windows: the module `d3d9` (`cudaD3D9.h`), `d3d10` (`cudaD3D10.h`) or `d3d11` (`cudaD3D11.h`) ([Graphics interop](#graphics-interop)) |
//!
//! # Versions and stability
//!
//! Versions follow Cargo's semver rules. Before 1.0 the middle number is the
//! breaking one: 0.2.0 may break what 0.1.x built, and 0.1.x+1 may not.
//!
//! | change | release |
//! |---|---|
//! | a fix of docs, discovery, linking, an error or a wrong value; a new item of this crate's own ([`since`](crate::since), a table, a method) | any (0.1.x+1) |
//! | a new CUDA release, pregenerated: its `cuda-XXXXX` feature, and the newest release bound where no feature names one and there are no headers | breaking (0.2.0): a release may remove or change items, as 13.0 changed `cuCtxCreate` |
//! | a `cuda-XXXXX` feature removed (its release dropped from the pregenerated set) | breaking |
//! | what a feature means, or which features are default | breaking |
//! | an item removed or its type changed, for the same features and the same headers | breaking |
//! | the MSRV (`rust-version`) raised | breaking |
//!
//! What generated bindings hold is the headers' doing, not the crate's: a newer
//! toolkit on the machine brings its release's items with no new crate
//! version. A crate that must not see them names its release with a
//! `cuda-XXXXX` feature; headers of another release then give that release's
//! pregenerated set, with a warning. CI checks each change with
//! cargo-semver-checks against the last release, for the default features and
//! for one release feature (CONTRIBUTING.md, "Releases").
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
//! functions are in [`FUNCTIONS`](crate::FUNCTIONS), [`since`](crate::since) (dated from `cudaGLTypedefs.h`,
//! `cudaEGLTypedefs.h`, `cudaVDPAUTypedefs.h`), [`driver_has`](crate::driver_has) and the
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
//! Where `BINDGEN_EXTRA_CLANG_ARGS` is set, the size and alignment of every
//! struct bindgen laid out are checked against the target's C compiler (one
//! compile of static assertions): a flag that changes layouts for bindgen
//! alone (`-fpack-struct`, `-malign-double`, `-fshort-enums`, a `#pragma pack`
//! in an `-include`d file) is an error that names the structs it changes.
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
//! sets the same for itself from `DEP_CUDA_CFGS` and `DEP_CUDA_CHECK_CFGS`
//! (see [A binding crate on libcuda-sys](#a-binding-crate-on-libcuda-sys)).
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
//! | `DEP_CUDA_ITEMS` | a file naming every item of `cuda.h` this crate binds at its root for the release built (types, struct tags, enums under both names, enumerators, constants, functions by symbol and plain name), one a line; the interop modules' items are in the next |
//! | `DEP_CUDA_ITEMS_GL`, `_EGL`, `_VDPAU`, `_D3D9`, `_D3D10`, `_D3D11` | for each interop module bound, a file naming its items the same way, as they are in its module (`libcuda_sys::gl::cuGLGetDevices`) |
//! | `DEP_CUDA_CFGS` | the `cuda_X_Y` cfgs set for this crate, comma-separated |
//! | `DEP_CUDA_CHECK_CFGS` | every `cuda_X_Y` cfg it may set, comma-separated, for `rustc-check-cfg` |
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
//!
//! # A binding crate on libcuda-sys
//!
//! A `-sys` crate of another CUDA library (cuBLAS, cuRAND, cuFFT, NCCL, ...)
//! runs bindgen over that library's header, which declares what it uses of
//! CUDA's types again: its `cudaStream_t` is `*mut CUstream_st`, a
//! `CUstream_st` of its own, and every stream crosses crates through a cast.
//! Built on this crate, it leaves out every item this crate binds and takes
//! them from it, so its `cudaStream_t` is this crate's [`CUstream`](crate::CUstream):
//!
//! - `DEP_CUDA_ITEMS` names them, one a line: one `blocklist_item` of them
//!   all, and `use libcuda_sys::*;` where the generated code is included.
//! - `DEP_CUDA_CFGS` and `DEP_CUDA_CHECK_CFGS` give it this crate's
//!   `cuda_X_Y` cfgs, for code that differs by release as this crate's does
//!   (`cuCtxCreate` takes a parameters pointer from 13.0: `#[cfg(cuda_13_0)]`).
//! - Its own header is found beside `cuda.h` (`DEP_CUDA_ROOT`) where the
//!   bindings were generated. With the pregenerated bindings those keys are
//!   empty, and the crate needs a variable of its own for where its library is.
//!   `dynamic-loading` changes nothing for it: `DEP_CUDA_ITEMS` is the same.
//!
//! The `build.rs` of an NVRTC crate, `NVRTC_ROOT` being its own variable: a
//! directory with `include/nvrtc.h` and `lib64/` or `lib/`, such as a toolkit or
//! pip's `site-packages/nvidia/cu13` (`nvidia/cuda_nvrtc` for 12.x), with
//! `bindgen` a build-dependency:
//!
//! ```ignore
//! use std::path::{Path, PathBuf};
//!
//! fn main() {
//!     let var = |name: &str| std::env::var(name).unwrap_or_default();
//!     println!("cargo::rerun-if-env-changed=NVRTC_ROOT");
//!     // Its own variable first; beside cuda.h where libcuda-sys generated.
//!     let root = [var("NVRTC_ROOT"), var("DEP_CUDA_ROOT")].into_iter().find(|r| !r.is_empty());
//!     let Some(root) = root.map(PathBuf::from) else {
//!         println!("cargo::warning=set NVRTC_ROOT to where NVRTC is installed");
//!         std::process::exit(1);
//!     };
//!     // libcuda-sys's items: left out here, `use`d from it.
//!     let items = std::fs::read_to_string(var("DEP_CUDA_ITEMS")).unwrap();
//!     let names: Vec<&str> = items.lines().collect();
//!     println!("cargo::rerun-if-changed={}", var("DEP_CUDA_ITEMS"));
//!     // Its cfgs, as this crate's own.
//!     println!("cargo::rustc-check-cfg=cfg({})", var("DEP_CUDA_CHECK_CFGS").replace(',', ", "));
//!     for cfg in var("DEP_CUDA_CFGS").split(',') {
//!         println!("cargo::rustc-cfg={cfg}");
//!     }
//!     let mut bindgen = bindgen::Builder::default()
//!         .header_contents("wrapper.h", "#include <nvrtc.h>\n")
//!         .clang_arg(format!("-I{}", root.join("include").display()));
//!     // The CUDA headers libcuda-sys read, for those the library's include.
//!     if !var("DEP_CUDA_INCLUDE").is_empty() {
//!         bindgen = bindgen.clang_arg(format!("-I{}", var("DEP_CUDA_INCLUDE")));
//!     }
//!     bindgen
//!         .allowlist_function("nvrtc.*")
//!         .allowlist_type("nvrtc.*")
//!         .allowlist_var("NVRTC.*")
//!         .blocklist_item(format!("({})", names.join("|")))
//!         .default_enum_style(bindgen::EnumVariation::NewType { is_bitfield: false, is_global: false })
//!         // Runs this script again when a header it read changes.
//!         .parse_callbacks(Box::new(bindgen::CargoCallbacks::new()))
//!         .generate()
//!         .unwrap()
//!         .write_to_file(Path::new(&var("OUT_DIR")).join("nvrtc.rs"))
//!         .unwrap();
//!     // A toolkit's lib64/libnvrtc.so, or pip's lib/libnvrtc.so.13 (no other name).
//!     let dirs = ["lib64", "lib"].map(|d| root.join(d));
//!     let names = ["libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12"];
//!     let found = dirs.iter().flat_map(|d| names.map(|f| (d, f))).find(|(d, f)| d.join(f).exists());
//!     let (dir, file) = found.unwrap_or_else(|| panic!("no libnvrtc.so in {}", root.display()));
//!     println!("cargo::rustc-link-search=native={}", dir.display());
//!     println!("cargo::rustc-link-lib=dylib:+verbatim={file}");
//!     // Its own tests and examples load it, and what it loads, from there.
//!     println!("cargo::rustc-link-arg=-Wl,--disable-new-dtags,-rpath,{}", dir.display());
//! }
//! ```
//!
//! and its `lib.rs`:
//!
//! ```ignore
//! // C's names, as bindgen keeps them.
//! #![allow(non_camel_case_types, non_snake_case, non_upper_case_globals)]
//!
//! mod bindings {
//!     #[allow(unused_imports)] // nvrtc.h uses nothing of cuda.h; cuBLAS's headers do
//!     use libcuda_sys::*; // what the generated code uses of cuda.h
//!     include!(concat!(env!("OUT_DIR"), "/nvrtc.rs"));
//! }
//! pub use bindings::*;
//! ```
//!
//! What its lines are for, and what it leaves to the crate:
//!
//! - **Headers.** Most libraries' headers include the runtime's
//!   (`driver_types.h`), `crt/host_config.h` and, through `cuda_fp16.h`,
//!   `nv/target`: a toolkit has them all, and from pip they are the packages
//!   `nvidia-cuda-runtime`, `nvidia-cuda-crt` and `nvidia-cuda-cccl`, which
//!   for CUDA 13 install into the library's own `include/`
//!   (`nvidia/cu13/include`). `DEP_CUDA_INCLUDE` adds the headers this crate
//!   generated from, where it did.
//! - **Linking.** pip ships only the versioned file (`lib/libnvrtc.so.13`),
//!   which `-l` cannot name; `+verbatim` takes the file's name. The rpath lets
//!   the crate's own tests and examples load it where it was linked, and the
//!   libraries it opens itself (NVRTC's `libnvrtc-builtins.so.13.0`, which a
//!   newer linker's default, a runpath, would not serve). Any other program,
//!   such as a dependent's, finds them through the loader's path
//!   (`LD_LIBRARY_PATH`, `ldconfig`), as it does libcuda.
//! - **Enums and layout tests** as this crate's: a newtype holds a value the
//!   header did not list, which a Rust enum may not. bindgen's layout tests are
//!   `const _` blocks, a name no line of `DEP_CUDA_ITEMS` has.
//! - **Plain names.** bindgen does not carry a header's `#define cublasCreate
//!   cublasCreate_v2`: the crate adds the aliases it wants, `pub use
//!   cublasCreate_v2 as cublasCreate;`.
//! - **Derives.** bindgen takes a blocklisted type to implement nothing, so
//!   a struct of the library that holds one of this crate's by value (CUPTI's
//!   records hold a `CUuuid`) loses `Copy`, `Debug` and `Default`, unless the
//!   crate's `ParseCallbacks::blocklisted_type_implements_trait` answers for
//!   it: every struct and union of this crate with fields is `Copy` and
//!   `Clone`, and most are `Default` and `Debug` (each type's page lists its
//!   traits).
//! - **Releases.** A binding crate need not set a `cuda-XXXXX` feature: the
//!   release bound, whichever crate chose it (Cargo unites the features of a
//!   build), reaches it through `DEP_CUDA_VERSION` and the cfgs. One written
//!   for a release may offer features that turn this crate's on
//!   (`cuda-12080 = ["libcuda-sys/cuda-12080"]`).
//!
//! This repository builds the recipe as printed here, into a fresh crate
//! against NVIDIA's pip packages (`cargo xtask recipe`): its test compiles a
//! kernel to PTX and, on a GPU, launches it through this crate.
//!
//! The repository's `curand/` crate is this recipe, with errors that say what
//! to set, tested on a GPU: a `CUstream` from
//! [`cuStreamCreate`](crate::cuStreamCreate) goes to `curandSetStream` as it
//! is, and its bindings declare none of `DEP_CUDA_ITEMS`.
