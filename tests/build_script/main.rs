//! The build script, end to end: the compiled `build-script-build` binary is run
//! directly, with a cleared environment that holds only what Cargo would set and
//! what each case adds, against fake toolkit trees made under
//! `CARGO_TARGET_TMPDIR`. `PATH` is a directory of symlinks to the C compiler
//! (and whatever a case adds, such as `nvcc`, `python3` or `pkg-config`), so
//! nothing of this machine's own setup is found unless a case puts it there.
//!
//! Each case checks the exit status, the `cargo::` lines on stdout and the
//! explanation on stderr, and that nothing panicked. Successful cases use a fake
//! toolkit whose headers are the ones this crate was built with (a symlink), so
//! they run bindgen for real (about a second each); those about where the
//! headers are found use a small `cuda.h` of that release, which bindgen reads
//! for real too, in a fifth of that.

// The fake trees and the target name are Linux-only, as is the stand-in libcuda.
#![cfg(all(
    target_os = "linux",
    target_env = "gnu",
    any(target_arch = "x86_64", target_arch = "aarch64")
))]

mod harness;
mod setup;

mod compilers;
mod discovery;
mod floor;
mod inputs;
mod interop;
mod libclang;
mod linking;
mod order;
mod pregenerated;
mod targets;
mod watch;
