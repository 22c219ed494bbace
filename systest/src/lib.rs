//! The ABI check of libcuda-sys (rust-openssl's `systest` pattern): users never
//! build it. `build.rs` writes, from the bindings libcuda-sys used, a C program
//! that prints what the C compiler computes for every item and the Rust side
//! of the same checks; the tests compile and run the C side and compare.
#![allow(non_upper_case_globals)]

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;

mod generated {
    // Unused where there are no headers to compare with (the checks are empty).
    #[allow(unused_imports)]
    use libcuda_sys::*;
    // The interop modules' items, checked as cuda.h's.
    #[cfg(feature = "egl")]
    use libcuda_sys::egl::*;
    #[cfg(feature = "gl")]
    use libcuda_sys::gl::*;
    #[cfg(feature = "vdpau")]
    use libcuda_sys::vdpau::*;
    include!(concat!(env!("OUT_DIR"), "/abi_check.rs"));
    // `UNBOUND_MACROS`: the object-like `CU*` macros of the header the bindings lack, `(name, body)`.
    include!(concat!(env!("OUT_DIR"), "/unbound_macros.rs"));
    // `READ_BITMASKS`, `READ_PLAIN_NAMES`, `READ_MACRO_CONSTANTS`: what the build
    // script read of libcuda-sys's tables; `HEADER_MACRO_CONSTANTS`: what the
    // header gives (all empty when skipped).
    include!(concat!(env!("OUT_DIR"), "/read_tables.rs"));
}
pub use generated::*;

/// What the static check (a `_Static_assert` per check, compiled for the
/// target) took as the Rust side, read from the bindings rather than computed
/// by rustc: `{"size CUuuid_st": 16, ...}`; `{}` when skipped.
pub const STATIC_VALUES_JSON: &str = include_str!(concat!(env!("OUT_DIR"), "/abi_values.json"));

/// The directory of the `cuda.h` the checks compare with (empty when skipped).
pub const INCLUDE_DIR: &str = env!("SYSTEST_INCLUDE_DIR");
/// `DEP_CUDA_FOUND_BY` of the bindings under test (`pregenerated` for the pregenerated set).
pub const BINDINGS: &str = env!("SYSTEST_BINDINGS");

/// `Err(reason)` when there are no headers to compare with; the test then says so.
pub fn available() -> bool {
    match SKIPPED {
        Some(why) => {
            testkit::skip(why);
            false
        }
        None => true,
    }
}

/// Compiles `abi_check.c` with the compiler and flags of the bindings' header,
/// runs it and returns what it printed: `check -> value` as the C compiler
/// computes it.
pub fn c_side() -> &'static BTreeMap<String, String> {
    static C: OnceLock<BTreeMap<String, String>> = OnceLock::new();
    C.get_or_init(|| {
        let out_dir = PathBuf::from(env!("OUT_DIR"));
        let cmd = std::fs::read_to_string(out_dir.join("abi_cc.txt"))
            .expect("abi_cc.txt written by the build script");
        let cmd: Vec<&str> = cmd.lines().collect();
        let exe = out_dir.join(format!("abi_check_{}", std::process::id()));
        let status = Command::new(cmd[0])
            .args(&cmd[1..])
            .arg(out_dir.join("abi_check.c"))
            .arg("-o")
            .arg(&exe)
            .status()
            .expect("run the C compiler");
        assert!(
            status.success(),
            "abi_check.c does not compile against the header: a bound item is missing from C"
        );
        let out = Command::new(&exe).output().expect("run abi_check");
        let _ = std::fs::remove_file(&exe);
        assert!(out.status.success());
        String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .filter_map(|l| l.rsplit_once(' '))
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    })
}
