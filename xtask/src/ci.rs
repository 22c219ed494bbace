//! `cargo xtask ci`: the ABI matrix (the pregenerated set of every release, and
//! generated bindings of a few), the
//! cross-target ABI check (aarch64 Linux, Windows), the lint
//! gates, the semver check, the rust-version check and the whole test suite,
//! stopping at the first that fails.

use std::time::Instant;

use crate::{abi, setup, test};

pub fn run(args: &[String]) -> std::result::Result<(), crate::Error> {
    if !args.is_empty() {
        return Err("usage: cargo xtask ci".to_string().into());
    }
    let start = Instant::now();
    test::first_builds();
    // Setup first: on a fresh machine it installs pip, which every header
    // fetch of the matrices needs.
    let env = setup::prepare()?.with_curand();
    abi::matrix(&[])?;
    abi::cross(&[])?;
    crate::run(env.cargo(&["fmt", "--all", "--", "--check"]))?;
    crate::run(env.cargo(&["clippy", "--workspace", "--all-targets", "--", "-D", "warnings"]))?;
    // The build script without the `bindgen` feature is another program: lint it too.
    crate::run(env.cargo(&[
        "clippy",
        "-p",
        "libcuda-sys",
        "--no-default-features",
        "--all-targets",
        "--",
        "-D",
        "warnings",
    ]))?;
    let mut doc = env.cargo(&["doc", "--no-deps"]);
    doc.env("RUSTDOCFLAGS", "-D warnings");
    crate::run(doc)?;
    println!("lint gates passed ({} s so far)", start.elapsed().as_secs());
    crate::semver::run(&env)?;
    println!("semver check passed ({} s so far)", start.elapsed().as_secs());
    crate::fallback::rust_version()?;
    test::run(&env)?;
    Ok(())
}
