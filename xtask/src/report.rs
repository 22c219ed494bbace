//! `cargo xtask report [--json]`: setup, then the memory-pool report (header
//! version, toolkit, driver, the memory-pool attributes of every GPU). Its
//! exit status is the report's own, setup's [`crate::setup::FAILED`], or,
//! for an unknown argument, the report's [`exit::EXIT_USAGE`] (with `--json`,
//! the report's error object on stdout), before setup or a build.

use crate::setup;

/// The report's exit statuses and its JSON error object: the report's own
/// file, so that the two programs cannot differ.
#[path = "../../tools/mempool-report/src/exit.rs"]
#[allow(dead_code)] // the statuses only the report itself ends with
pub mod exit;

const USAGE: &str = "usage: cargo xtask report [--json]";

/// The report's own arguments: `--json`, `--help`.
pub fn check(args: &[String]) -> std::result::Result<(), crate::Error> {
    let Some(a) = args.iter().find(|a| !matches!(a.as_str(), "--json" | "--help" | "-h")) else {
        return Ok(());
    };
    let message = format!("unknown argument {a:?}");
    if args.iter().any(|a| a == "--json") {
        print!("{}", exit::error_json(exit::EXIT_USAGE, &message, Some(USAGE)));
    }
    Err(crate::Error::new(exit::EXIT_USAGE, format!("{message}; {USAGE}")))
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
