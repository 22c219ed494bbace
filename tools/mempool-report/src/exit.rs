//! The report's exit statuses, as `--help` documents them, and the JSON it
//! prints in place of a report under `--json` (an error). `cargo xtask
//! report` ends with the same statuses and prints the same error object, so
//! xtask compiles this file too: one definition for both programs.

/// A live report.
pub const EXIT_LIVE: u8 = 0;
/// An error: a driver call failed, or the report could not be written.
pub const EXIT_ERROR: u8 = 1;
/// No live values: no driver or no device here, the static table only.
pub const EXIT_STATIC: u8 = 2;
/// Setup failed: what this run was told to use cannot be used. Also `cargo
/// xtask setup`'s status when it fails, which `cargo xtask report` ends with
/// before this program is built: the two mean the same to a caller.
pub const EXIT_SETUP: u8 = 3;
/// A usage error (an unknown argument): nothing was reported. 64 is
/// `EX_USAGE` of the BSDs' `sysexits.h`, apart from the statuses above.
pub const EXIT_USAGE: u8 = 64;

/// The `--json` output where there is no report: `report`, `status` (`live`
/// false and `exit_code`, the exit status, as in a report) and `error`
/// (`message`, and for a usage error `usage`), where a report has
/// `bindings`, `devices` and the rest.
pub fn error_json(exit_code: u8, message: &str, usage: Option<&str>) -> String {
    let mut error = serde_json::json!({ "message": message });
    if let Some(usage) = usage {
        error["usage"] = usage.into();
    }
    let object = serde_json::json!({
        "report": "mempool-report",
        "status": { "live": false, "exit_code": exit_code },
        "error": error,
    });
    format!("{object:#}\n")
}
