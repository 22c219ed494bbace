//! `mempool-report`: which CUDA headers libcuda-sys was generated from, which
//! libcuda it runs against, and the memory-pool attributes (`CUmemPool_attribute`):
//! live, read from every device's default memory pool where a driver and a GPU
//! are present; otherwise the static table the headers declare.
//!
//! ```text
//! cargo run -p mempool-report            # table for people
//! cargo run -p mempool-report -- --json  # the same data for machines
//! ```
//!
//! One model ([`model::Report`]) is filled once ([`gather`]) and printed as
//! text or serialized as JSON ([`render`]).
//!
//! Exit status (see `--help`, and [`exit`]): 0 live report; 1 error, including
//! a report that could not be written to stdout; 2 no driver or no device
//! here, static table only; 3 setup failed: what this run was told to use
//! cannot be used (`LIBCUDA_SYS_DRIVER_PATH` with the `dynamic-loading`
//! feature), or, from `cargo xtask report`, its setup could not prepare the
//! build and this program never ran; 64 usage error, an unknown argument.
//! With `--json`, stdout is one JSON object whatever happens (but a failed
//! write): the report, `--help` as `{"help": ...}`, or an error object
//! ([`exit::error_json`]); its `status.exit_code` is the exit status.
//! Nothing here panics: every driver result is checked and reported by name,
//! and a failed write to stdout is reported on stderr.

use std::io::Write as _;
use std::process::ExitCode;

mod exit;
mod gather;
mod model;
mod render;

use exit::{EXIT_ERROR, EXIT_LIVE, EXIT_SETUP, EXIT_STATIC, EXIT_USAGE};

const USAGE: &str = "usage: cargo run -p mempool-report -- [--json] [--help]";

const HELP: &str = "\
mempool-report: CUDA memory-pool attributes, live from the driver or static from the headers

usage: cargo run -p mempool-report -- [--json] [--help]
       cargo xtask report [--json]   (installs what is missing first)

Prints the CUDA version of the headers libcuda-sys was generated from, where
they were found (include directory and how), which libcuda was linked and which
one was loaded, and the driver's CUDA version when a driver is present. Then:

  with a driver and a device: for every device its name, compute capability,
  total memory, CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED, the pool handle
  types it supports, and a table of its default memory pool's attributes
  (cuDeviceGetDefaultMemPool): value, value type, current value (read with the
  width of the documented value type, enums decoded to their names) and whether
  it is settable. An attribute the driver rejects shows the error's name and is
  listed after the table under 'driver rejects'.

  without a driver (libcuda is a stub: CUDA_ERROR_STUB_LIBRARY) or without a
  device: one line saying why there are no live values, then the static table of
  every CUmemPool_attribute the headers document: value, value type, size,
  settable, description.

Settable: 'yes' when the header lists the attribute under cuMemPoolSetAttribute;
'reset to 0 only' when, in addition, its description says it can only be reset
to zero (the high watermarks); 'no' otherwise.

options:
  --json      print the same data as one JSON object on stdout; always JSON:
              with --help an object whose 'help' is this text, on a usage
              error one whose 'error' says what is wrong ('message', 'usage')
  -h, --help  print this text

exit status:
  0  live report: a driver, at least one device, every device read (attributes
     the driver rejects are listed, and are not errors)
  1  error: a driver call failed other than in the ways below (the output
     names the call and the error), or the report could not be written to
     stdout (a pipe whose reader has gone, a full disk, a descriptor not open
     for writing; said on stderr)
  2  no live values, static table only: no NVIDIA driver (the libcuda loaded is a
     stub, CUDA_ERROR_STUB_LIBRARY), no CUDA device (CUDA_ERROR_NO_DEVICE, or a
     device count of 0), or a driver that cannot be used here
     (CUDA_ERROR_SYSTEM_DRIVER_MISMATCH, CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE,
     CUDA_ERROR_SYSTEM_NOT_READY, CUDA_ERROR_DEVICE_UNAVAILABLE), or, with the
     dynamic-loading feature and LIBCUDA_SYS_DRIVER_PATH unset, no libcuda.so.1
     to open (CUDA_ERROR_SHARED_OBJECT_INIT_FAILED; the output gives the
     loader's message)
  3  setup failed, static table only: with the dynamic-loading feature,
     LIBCUDA_SYS_DRIVER_PATH names a library that cannot be loaded or is not
     the driver (the output names the path and gives the loader's message).
     cargo xtask report also exits 3, before anything is built, when its setup
     fails (e.g. no headers for XTASK_CUDA_HEADERS)
  64  usage error: an unknown argument; nothing is reported (cargo xtask
      report also exits 64 for one, before anything is built)

With --json, status.exit_code is the exit status (except when the output could
not be written at all).

A binary built where no driver was found links libcuda-sys's stand-in libcuda;
`cargo run` finds it, and wherever the NVIDIA driver is installed the driver's
libcuda.so.1 is loaded instead. A binary run outside cargo on a machine with no
libcuda at all fails in the dynamic loader before this program starts.
";

fn main() -> ExitCode {
    let args: Vec<_> = std::env::args_os().skip(1).collect();
    let json = args.iter().any(|a| a == "--json");
    if let Some(arg) = args.iter().find(|a| !matches!(a.to_str(), Some("--json" | "-h" | "--help")))
    {
        let message = format!("unknown argument {arg:?}");
        let _ = writeln!(std::io::stderr(), "mempool-report: {message}\n{USAGE}");
        return match json {
            true => write_out(&exit::error_json(EXIT_USAGE, &message, Some(USAGE)), EXIT_USAGE),
            false => ExitCode::from(EXIT_USAGE),
        };
    }
    if args.iter().any(|a| a == "-h" || a == "--help") {
        return match json {
            true => write_out(&help_json(), EXIT_LIVE),
            false => write_out(HELP, EXIT_LIVE),
        };
    }
    let report = gather::report();
    let text = if json {
        match render::json(&report) {
            Ok(text) => text,
            Err(e) => {
                let message = format!("cannot serialize the report as JSON: {e}");
                let _ = writeln!(std::io::stderr(), "mempool-report: {message}");
                return write_out(&exit::error_json(EXIT_ERROR, &message, None), EXIT_ERROR);
            }
        }
    } else {
        render::text(&report)
    };
    write_out(&text, report.status.exit_code)
}

/// `--json --help`: the help text in a JSON object shaped like the report's.
fn help_json() -> String {
    let help = serde_json::json!({
        "report": "mempool-report",
        "status": { "live": false, "exit_code": EXIT_LIVE },
        "help": HELP,
    });
    format!("{help:#}\n")
}

/// Writes `text` to stdout and exits with `status`; when the write fails, says
/// so on stderr and exits with `EXIT_ERROR`: a caller would otherwise take a
/// truncated or missing report (`| head -0`, a full disk) for a complete one.
/// `println!` would panic instead.
fn write_out(text: &str, status: u8) -> ExitCode {
    ExitCode::from(exit_status(write_stdout(text.as_bytes()), status, &mut std::io::stderr()))
}

/// `status` when the output was written; otherwise `EXIT_ERROR`, said on `err`.
fn exit_status(written: std::io::Result<()>, status: u8, err: &mut impl std::io::Write) -> u8 {
    match written {
        Ok(()) => status,
        Err(e) => {
            let _ = writeln!(err, "mempool-report: cannot write the report to stdout: {e}");
            EXIT_ERROR
        }
    }
}

/// Through a duplicate of the descriptor: std's `Stdout` reports success for a
/// write that fails with EBADF (a descriptor not open for writing), which is
/// one of the failures to report. (A stdout already closed when the program
/// starts is reopened on /dev/null by Rust's runtime before `main`: that output
/// is discarded as with `>/dev/null`, and nothing here can tell them apart.)
#[cfg(unix)]
fn write_stdout(bytes: &[u8]) -> std::io::Result<()> {
    use std::os::fd::AsFd as _;
    let fd = std::io::stdout().as_fd().try_clone_to_owned()?;
    std::fs::File::from(fd).write_all(bytes)
}

#[cfg(not(unix))]
fn write_stdout(bytes: &[u8]) -> std::io::Result<()> {
    let mut out = std::io::stdout().lock();
    out.write_all(bytes)?;
    out.flush()
}

#[cfg(test)]
mod tests;
