//! `cargo xtask driver-floor`: `LIBCUDA_SYS_DRIVER_FLOOR` against real header
//! sets. For each pair (older headers, newer headers), the newer headers with
//! the older version as floor must bind exactly the functions the older
//! headers bind that the newer ones still declare: nothing newer than the
//! floor, nothing of the floor's lost.

use std::collections::BTreeSet;

use crate::test::Counts;
use crate::{cargo, headers, Result};

/// `(floor's headers, newer headers)`.
const PAIRS: [(&str, &str); 2] = [("13.0", "13.5"), ("12.0", "12.9")];

pub fn run(args: &[String]) -> Result {
    if !args.is_empty() {
        return Err("usage: cargo xtask driver-floor".into());
    }
    checks()?.result("driver-floor checks")
}

/// Each pair's check; their counts, for `cargo xtask test` to add up.
pub fn checks() -> Result<Counts> {
    let mut failed = 0;
    for (old, new) in PAIRS {
        let older = functions(old, None)?;
        let newer = functions(new, None)?;
        let floored = functions(new, Some(old))?;
        let expected: BTreeSet<&String> = older.intersection(&newer).collect();
        let got: BTreeSet<&String> = floored.iter().collect();
        let extra: Vec<&&String> = got.difference(&expected).collect();
        let missing: Vec<&&String> = expected.difference(&got).collect();
        let left_out = newer.len() - floored.len();
        if extra.is_empty() && missing.is_empty() {
            println!(
                "ok       {new} headers with LIBCUDA_SYS_DRIVER_FLOOR={old}: {} functions, the {old} headers' \
                 {} less the {} that {new} no longer declares; {left_out} newer functions left out",
                floored.len(),
                older.len(),
                older.len() - expected.len(),
            );
        } else {
            failed += 1;
            println!(
                "FAILED   {new} headers with LIBCUDA_SYS_DRIVER_FLOOR={old}: bound but newer than the floor: {extra:?}; \
                 in the {old} headers and still declared, but not bound: {missing:?}"
            );
        }
    }
    println!(
        "driver-floor: {} passed, {failed} failed",
        PAIRS.len() - failed
    );
    Ok(Counts {
        passed: PAIRS.len() - failed,
        failed,
        ..Counts::default()
    })
}

/// The functions bound (linked mode) from the `version` headers, with `floor`.
fn functions(version: &str, floor: Option<&str>) -> Result<BTreeSet<String>> {
    let include = headers::include_dir(version)?;
    let mut cmd = cargo::command(&["build", "--package", "libcuda-sys", "--message-format=json"]);
    cmd.env("LIBCUDA_SYS_INCLUDE_DIR", &include)
        .env("LIBCUDA_SYS_BINDINGS", "generate")
        .env(
            "CARGO_TARGET_DIR",
            crate::root().join("target/driver-floor"),
        );
    if let Some(floor) = floor {
        cmd.env("LIBCUDA_SYS_DRIVER_FLOOR", floor);
    }
    let build = cargo::build(cmd)?;
    if !build.success {
        return Err(format!("the {version} build failed:\n{}", build.stderr));
    }
    Ok(crate::bindings::functions(build.out_dir("libcuda-sys")?)?
        .into_iter()
        .collect())
}
