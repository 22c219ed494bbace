//! `cargo xtask report [--json]`: setup, then the memory-pool report (header
//! version, toolkit, driver, the memory-pool attributes of every GPU). Its
//! exit status is the report's own, setup's [`crate::setup::FAILED`], or,
//! for an unknown argument, the report's [`crate::exit::EXIT_USAGE`] (with `--json`,
//! the report's error object on stdout), before setup or a build.

use crate::setup;

const USAGE: &str = "usage: cargo xtask report [--json]";

/// The report's own arguments: `--json`, `--help`.
pub fn check(args: &[String]) -> std::result::Result<(), crate::Error> {
    let Some(a) = args.iter().find(|a| !matches!(a.as_str(), "--json" | "--help" | "-h")) else {
        return Ok(());
    };
    let message = format!("unknown argument {a:?}");
    if args.iter().any(|a| a == "--json") {
        print!("{}", crate::exit::error_json(crate::exit::EXIT_USAGE, &message, Some(USAGE)));
    }
    Err(crate::Error::new(crate::exit::EXIT_USAGE, format!("{message}; {USAGE}")))
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
