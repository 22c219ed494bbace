//! `cargo xtask report [--json]`: setup, then the memory-pool report (header
//! version, toolkit, driver, the memory-pool attributes of every GPU). Its
//! exit status is the report's own, or setup's [`crate::setup::FAILED`].

use crate::setup;

/// The report's own arguments: `--json`, `--help`.
pub fn check(args: &[String]) -> std::result::Result<(), crate::Error> {
    match args.iter().find(|a| !matches!(a.as_str(), "--json" | "--help" | "-h")) {
        Some(a) => Err(crate::Error::new(
            2,
            format!("unknown argument `{a}`; usage: cargo xtask report [--json]"),
        )),
        None => Ok(()),
    }
}

pub fn run(args: &[String], env: &setup::Env) -> std::result::Result<(), crate::Error> {
    let mut cmd = env.cargo(&["run", "--quiet", "-p", "mempool-report", "--"]);
    cmd.args(args);
    let status = cmd.status().map_err(|e| format!("{:?}: {e}", cmd.get_program()))?;
    match status.code() {
        Some(0) => Ok(()),
        // The report said why; its status says which case it was.
        Some(code) => Err(crate::Error::quiet(code.clamp(1, 255) as u8)),
        None => Err(format!("the report was killed: {status}").into()),
    }
}
