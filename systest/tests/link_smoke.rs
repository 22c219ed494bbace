//! Link smoke test: this binary takes the address of every bound function, so
//! the dynamic loader must resolve each of them in libcuda before `main` runs
//! (Rust links with `-z now`; run it with `LD_BIND_NOW=1` to be explicit). On a
//! driver that lacks one, the binary does not start at all and the loader names
//! the first missing symbol. Once started, each binding must reach the library's
//! symbol of its own name: a wrong link name would reach another one.
//!
//! Which functions a driver lacks is listed by libcuda-sys's
//! `tests/driver_symbols.rs`, which references none of them and so starts on
//! any driver. The list comes from systest's build, which reads the bindings
//! libcuda-sys used: users' builds write no such file.
#![cfg(all(target_os = "linux", not(feature = "dynamic-loading")))]

use libcuda_sys::CUDA_VERSION;
use std::io::Write;
use systest::all_functions;

#[test]
fn every_bound_function_is_linked_to_its_own_symbol() {
    if !systest::available() {
        return;
    }
    let all = all_functions();
    assert!(all.len() > 100, "suspiciously few bound functions: {}", all.len());
    let mut wrong = Vec::new();
    for (name, address) in all {
        let loaded = testkit::loaded_symbol(name);
        if loaded != address {
            wrong.push(format!(
                "{name}: binding reaches {address:?}, libcuda's {name} is at {loaded:?}"
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    let line = format!("every_bound_function_is_linked_to_its_own_symbol: {} bound functions, each at its own symbol (CUDA_VERSION {CUDA_VERSION})\n", all.len());
    let _ = std::io::stderr().write_all(line.as_bytes());
}
