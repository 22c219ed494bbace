//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;

/// Says `skipped: <reason>` on the terminal, past libtest's output capture, so a
/// test that could not run is never mistaken for one that passed.
pub fn skip(test: &str, reason: &str) {
    // One write, so that libtest's own output cannot land inside the line.
    let _ = std::io::stderr().write_all(format!("skipped: {test}: {reason}\n").as_bytes());
}

/// Compiles `abi_check.c` (written by the build script from the bindings) with
/// the compiler and flags the build used, runs it and returns what it printed:
/// `check -> value` as computed by the C compiler.
pub fn c_side() -> &'static BTreeMap<String, String> {
    static C: OnceLock<BTreeMap<String, String>> = OnceLock::new();
    C.get_or_init(|| {
        let out_dir = PathBuf::from(env!("OUT_DIR"));
        let cmd = std::fs::read_to_string(out_dir.join("abi_cc.txt"))
            .expect("abi_cc.txt written by the build script");
        let cmd: Vec<&str> = cmd.lines().collect();
        let exe = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("abi_check_{}", std::process::id()));
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
