//! `cargo xtask semver`: today's public API of libcuda-sys, with each feature
//! set that changes it ([`FEATURES`]), against the last release's, by
//! cargo-semver-checks (installed where missing). The last release is the
//! commit `semver-baseline` names in the workspace's
//! `[workspace.metadata.libcuda-sys]` (CONTRIBUTING.md, "Releases").

use std::process::{Command, Stdio};

use crate::{setup, Result};

/// The feature sets checked, each that the crate docs name which changes its
/// API: the default, one release's set, dynamic loading (its loader's
/// items), the per-thread default stream (other symbols under the same
/// names) and the graphics interop of this OS. The Direct3D modules build for
/// Windows only, where this check does not run.
const FEATURES: [&[&str]; 5] = [
    &[],
    &["--features", "cuda-13000"],
    &["--features", "dynamic-loading"],
    &["--features", "per-thread-default-stream"],
    &["--features", "gl,egl,vdpau"],
];

pub fn check(args: &[String]) -> std::result::Result<(), crate::Error> {
    match args {
        [] => Ok(()),
        _ => Err(crate::Error::new(crate::exit::EXIT_USAGE, "usage: cargo xtask semver".into())),
    }
}

pub fn run(env: &setup::Env) -> Result {
    installed()?;
    let baseline = baseline()?;
    present(&baseline)?;
    for features in FEATURES {
        let mut args = vec!["semver-checks", "check-release", "-p", "libcuda-sys"];
        args.extend(["--baseline-rev", &baseline, "--default-features"]);
        args.extend(features);
        crate::run(env.cargo(&args))?;
    }
    Ok(())
}

/// cargo-semver-checks, through `cargo install --locked` where `cargo
/// semver-checks` is not there: the newest, which reads the newest stable
/// rustdoc's JSON.
fn installed() -> Result {
    let quiet = |cmd: &mut Command| cmd.stdout(Stdio::null()).stderr(Stdio::null()).status();
    if quiet(Command::new("cargo").args(["semver-checks", "--version"])).is_ok_and(|s| s.success())
    {
        return Ok(());
    }
    let mut install = Command::new("cargo");
    install.args(["install", "--locked", "cargo-semver-checks"]);
    crate::run(install)
}

/// The baseline commit, from the workspace's metadata.
fn baseline() -> Result<String> {
    let metadata = crate::cargo::workspace()?;
    let value = &metadata.workspace_metadata["libcuda-sys"]["semver-baseline"];
    value.as_str().map(str::to_string).ok_or_else(|| {
        "no semver-baseline (a commit) in Cargo.toml's [workspace.metadata.libcuda-sys]".to_string()
    })
}

/// `rev` in this clone, fetched from its origin where a shallow clone lacks it.
fn present(rev: &str) -> Result {
    let has = || {
        Command::new("git")
            .args(["cat-file", "-e", &format!("{rev}^{{commit}}")])
            .current_dir(crate::root())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    };
    if has() {
        return Ok(());
    }
    let mut fetch = Command::new("git");
    fetch.args(["fetch", "--quiet", "origin", rev]).current_dir(crate::root());
    let _ = crate::run(fetch);
    if has() {
        Ok(())
    } else {
        Err(format!(
            "the semver baseline {rev} is not in this clone, and its origin could not give it: \
             clone the whole history (git fetch --unshallow)"
        ))
    }
}
