//! `mempool-report`: which CUDA headers libcuda-sys was generated from, which
//! libcuda it runs against, and the memory-pool attributes (`CUmemPool_attribute`):
//! live, read from every device's default memory pool where a driver and a GPU
//! are present; otherwise the static table the headers declare.
//!
//! ```text
//! cargo run --example mempool-report            # table for people
//! cargo run --example mempool-report -- --json  # the same data for machines
//! ```
//!
//! Exit status (see `--help`): 0 live report; 1 error, including a report that
//! could not be written to stdout; 2 no driver or no device here, static table
//! only; 3 setup failed: what this run was told to use cannot be used
//! (`LIBCUDA_SYS_DRIVER_PATH` with the `dynamic-loading` feature), or, from
//! `cargo xtask report`, its setup could not prepare the build and this
//! program never ran. With `--json`, `status.exit_code` is the exit status.
//! Nothing here panics: every driver result is checked and reported by name,
//! and a failed write to stdout is reported on stderr.
//!
//! Only libcuda-sys and std: the attribute list, each attribute's value type
//! (the width `cuMemPoolGetAttribute` writes) and whether it is settable all
//! come from [`VALUE_TYPES`], which the build script derives from the header's
//! `(value type = T)` comments, so an attribute added by a newer header shows
//! up here without a change to this file.

use std::ffi::{c_char, c_int, c_void, CStr};
use std::fmt::Write as _;
use std::io::Write as _;
use std::process::ExitCode;

use libcuda_sys::*;

/// Exit statuses, as `--help` documents them.
const EXIT_LIVE: u8 = 0;
const EXIT_ERROR: u8 = 1;
const EXIT_STATIC: u8 = 2;
/// Also `cargo xtask report`'s status when its setup fails, before this
/// program is built: the two mean the same to a caller.
const EXIT_SETUP: u8 = 3;

const USAGE: &str = "usage: cargo run --example mempool-report -- [--json] [--help]";

const HELP: &str = "\
mempool-report: CUDA memory-pool attributes, live from the driver or static from the headers

usage: cargo run --example mempool-report -- [--json] [--help]
       cargo xtask report [--json]

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
  --json      print the same data as one JSON object on stdout
  -h, --help  print this text

exit status:
  0  live report: a driver, at least one device, every device read (attributes
     the driver rejects are listed, and are not errors)
  1  error: an unknown argument, a driver call failed other than in the ways
     below (the output names the call and the error), or the report could not
     be written to stdout (a pipe whose reader has gone, a full disk, a
     descriptor not open for writing; said on stderr)
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
     fails (e.g. no headers for LIBCUDA_SYS_CUDA_VERSION)

With --json, status.exit_code is the exit status (except when the output could
not be written at all).

A binary built where no driver was found links libcuda-sys's stand-in libcuda;
`cargo run` finds it, and wherever the NVIDIA driver is installed the driver's
libcuda.so.1 is loaded instead. A binary run outside cargo on a machine with no
libcuda at all fails in the dynamic loader before this program starts.
";

/// How libcuda-sys was linked: `driver`, `toolkit-stub`, `generated-stub` (or
/// `dynamic-loading` with that feature).
const LINK_KIND: &str = env!("LIBCUDA_SYS_LINK_KIND");

/// The enum of the pool attributes, as `VALUE_TYPES` names it.
const POOL_ENUM: &str = "CUmemPool_attribute_enum";

fn main() -> ExitCode {
    let mut json = false;
    for arg in std::env::args_os().skip(1) {
        match arg.to_str() {
            Some("--json") => json = true,
            Some("-h" | "--help") => return write_out(HELP, EXIT_LIVE),
            _ => {
                let _ = writeln!(
                    std::io::stderr(),
                    "mempool-report: unknown argument {arg:?}\n{USAGE}"
                );
                return ExitCode::from(EXIT_ERROR);
            }
        }
    }
    let report = Report::collect();
    let text = if json {
        render_json(&report)
    } else {
        render_text(&report)
    };
    write_out(&text, report.exit_code)
}

/// Writes `text` to stdout and exits with `status`; when the write fails, says
/// so on stderr and exits with `EXIT_ERROR`: a caller would otherwise take a
/// truncated or missing report (`| head -0`, a full disk) for a complete one.
/// `println!` would panic instead.
fn write_out(text: &str, status: u8) -> ExitCode {
    ExitCode::from(exit_status(
        write_stdout(text.as_bytes()),
        status,
        &mut std::io::stderr(),
    ))
}

/// `status` when the output was written; otherwise `EXIT_ERROR`, said on `err`.
fn exit_status(written: std::io::Result<()>, status: u8, err: &mut impl std::io::Write) -> u8 {
    match written {
        Ok(()) => status,
        Err(e) => {
            let _ = writeln!(
                err,
                "mempool-report: cannot write the report to stdout: {e}"
            );
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

// ---------------------------------------------------------------------------
// Driver calls
// ---------------------------------------------------------------------------

/// A driver call that did not return `CUDA_SUCCESS`.
#[derive(Clone, Debug)]
struct Failure {
    call: &'static str,
    code: u32,
    name: String,
}

impl Failure {
    fn is(&self, code: CUresult) -> bool {
        self.code == code.0
    }
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.name.starts_with("CUresult ") {
            write!(f, "{} returned {}", self.call, self.name)
        } else {
            write!(f, "{} returned {} ({})", self.call, self.name, self.code)
        }
    }
}

fn check(call: &'static str, result: CUresult) -> Result<(), Failure> {
    if result == cudaError_enum::CUDA_SUCCESS {
        Ok(())
    } else {
        Err(Failure {
            call,
            code: result.0,
            name: error_name(result),
        })
    }
}

/// The driver's name for `result`, else this file's, else the number.
fn error_name(result: CUresult) -> String {
    let mut name: *const c_char = std::ptr::null();
    // SAFETY: cuGetErrorName stores a pointer to a static string, or nothing.
    let named = unsafe { cuGetErrorName(result, &mut name) };
    if named == cudaError_enum::CUDA_SUCCESS && !name.is_null() {
        // SAFETY: on success `name` is a NUL-terminated string the driver owns
        // for the life of the process.
        return unsafe { CStr::from_ptr(name) }
            .to_string_lossy()
            .into_owned();
    }
    // The stand-in libcuda's cuGetErrorName fails too; the header names the code.
    result
        .name()
        .map(str::to_owned)
        .unwrap_or_else(|| format!("CUresult {}", result.0))
}

/// Bit flags by name: `A | B`, unknown bits as hex, `NONE`'s name for 0.
/// `CUmemAllocationHandleType` bit flags by name, `0x..` for bits the header
/// does not name.
fn flag_names(value: u64) -> String {
    let name = |v: u64| CUmemAllocationHandleType(v as _).name();
    if value == 0 {
        return name(0).unwrap_or("0").to_owned();
    }
    let mut names = Vec::new();
    let mut rest = value;
    for bit in (0..32).map(|b| 1u64 << b).filter(|bit| value & bit != 0) {
        if let Some(n) = name(bit) {
            names.push(n.to_owned());
            rest &= !bit;
        }
    }
    if rest != 0 {
        names.push(format!("{rest:#x}"));
    }
    names.join(" | ")
}

fn device_attribute(attribute: CUdevice_attribute, device: CUdevice) -> Result<c_int, Failure> {
    let mut value: c_int = 0;
    // SAFETY: `value` is a valid c_int for the driver to write.
    check("cuDeviceGetAttribute", unsafe {
        cuDeviceGetAttribute(&mut value, attribute, device)
    })?;
    Ok(value)
}

// ---------------------------------------------------------------------------
// The report's data
// ---------------------------------------------------------------------------

/// Why there are no live values, and which exit status that is.
struct NoLive {
    failure: Option<Failure>,
    reason: String,
    exit_code: u8,
}

/// Why the driver library could not be opened (the `dynamic-loading` feature):
/// every call then returns `CUDA_ERROR_SHARED_OBJECT_INIT_FAILED`, which names
/// neither the library nor the cause.
#[derive(Clone, Debug)]
#[cfg_attr(not(feature = "dynamic-loading"), allow(dead_code))]
struct LoadFailure {
    /// The path or name handed to the system loader.
    tried: String,
    /// The loader's message.
    message: String,
    /// `tried` came from `LIBCUDA_SYS_DRIVER_PATH`, not the default name.
    from_env: bool,
}

#[cfg(feature = "dynamic-loading")]
fn load_failure() -> Option<LoadFailure> {
    libcuda_sys::dynamic::try_load().err().map(|e| LoadFailure {
        tried: e.tried,
        message: e.message,
        from_env: std::env::var_os("LIBCUDA_SYS_DRIVER_PATH").is_some_and(|p| !p.is_empty()),
    })
}

#[cfg(not(feature = "dynamic-loading"))]
fn load_failure() -> Option<LoadFailure> {
    None
}

struct Report {
    /// The headers' `CUmemPool_attribute` enumerators, from `VALUE_TYPES`.
    attributes: Vec<&'static TypedEnumerator>,
    /// The libcuda this process mapped, from /proc/self/maps (Linux).
    loaded_libcuda: Option<String>,
    /// Set when the driver library could not be opened (dynamic-loading).
    load_failure: Option<LoadFailure>,
    driver_version: Result<c_int, Failure>,
    /// Set when the report has no live values.
    no_live: Option<NoLive>,
    devices: Vec<Device>,
    exit_code: u8,
}

struct Device {
    ordinal: c_int,
    name: Result<String, Failure>,
    compute_capability: Result<(c_int, c_int), Failure>,
    total_memory: Result<usize, Failure>,
    pools_supported: Result<bool, Failure>,
    /// `None` where the headers predate the attribute.
    handle_types: Option<Result<c_int, Failure>>,
    /// `None` when the device has no memory pools.
    pool: Option<Result<Pool, Failure>>,
    /// A failure to release the primary context after reading.
    cleanup: Option<Failure>,
}

impl Device {
    /// The first failure that makes this device's report an error.
    fn error(&self) -> Option<&Failure> {
        let pool = match &self.pool {
            Some(Err(f)) => Some(f),
            _ => None,
        };
        self.name
            .as_ref()
            .err()
            .or(self.compute_capability.as_ref().err())
            .or(self.total_memory.as_ref().err())
            .or(self.pools_supported.as_ref().err())
            .or(pool)
            .or(self.cleanup.as_ref())
    }
}

struct Pool {
    handle: usize,
    readings: Vec<Reading>,
}

struct Reading {
    attribute: &'static TypedEnumerator,
    value: Result<Value, Failure>,
}

enum Value {
    /// A C `int`.
    Int(i32),
    /// A 4-byte enum or `unsigned int`.
    Unsigned(u32),
    /// `cuuint64_t`, `size_t`.
    U64(u64),
    /// The bindings have no type of the documented name, or it has a size this
    /// report cannot show: not read.
    NotRead(String),
}

impl Value {
    fn raw(&self) -> Option<String> {
        match self {
            Value::Int(v) => Some(v.to_string()),
            Value::Unsigned(v) => Some(v.to_string()),
            Value::U64(v) => Some(v.to_string()),
            Value::NotRead(_) => None,
        }
    }

    /// The value by name: enum constants, flags, byte sizes.
    fn decoded(&self, c_name: &str) -> Option<String> {
        let enum_value = match self {
            Value::U64(u64::MAX) => return Some("UINT64_MAX".to_owned()),
            Value::U64(b) if *b >= 1024 => return Some(human_bytes(*b)),
            Value::Unsigned(v) => u64::from(*v),
            Value::Int(v) => u64::from(*v as u32),
            _ => return None,
        };
        match c_name {
            "CUmemAllocationType" => CUmemAllocationType(enum_value as _)
                .name()
                .map(str::to_owned),
            "CUmemLocationType" => CUmemLocationType(enum_value as _).name().map(str::to_owned),
            "CUmemAllocationHandleType" => Some(flag_names(enum_value)),
            _ => None,
        }
    }
}

/// How an attribute can be set, derived from the header.
#[derive(Clone, Copy, PartialEq)]
enum Settable {
    Yes,
    /// Settable, and its description says only to zero (the high watermarks).
    ResetToZeroOnly,
    No,
}

fn settable(attribute: &TypedEnumerator) -> Settable {
    if attribute.setter.is_none() {
        return Settable::No;
    }
    let d = attribute.description.to_ascii_lowercase();
    if d.contains("reset") && (d.contains("to zero") || d.contains("to 0")) {
        Settable::ResetToZeroOnly
    } else {
        Settable::Yes
    }
}

impl Settable {
    fn text(self) -> &'static str {
        match self {
            Settable::Yes => "yes",
            Settable::ResetToZeroOnly => "reset to 0 only",
            Settable::No => "no",
        }
    }
    fn json(self) -> &'static str {
        match self {
            Settable::Yes => "yes",
            Settable::ResetToZeroOnly => "reset_to_zero_only",
            Settable::No => "no",
        }
    }
}

impl Report {
    fn collect() -> Report {
        let attributes: Vec<&'static TypedEnumerator> = VALUE_TYPES
            .iter()
            .filter(|e| e.enumeration == POOL_ENUM)
            .collect();
        let mut version: c_int = 0;
        // SAFETY: `version` is a valid c_int for the driver to write.
        let driver_version = check("cuDriverGetVersion", unsafe {
            cuDriverGetVersion(&mut version)
        })
        .map(|()| version);
        let mut report = Report {
            attributes,
            loaded_libcuda: loaded_libcuda(),
            load_failure: load_failure(),
            driver_version,
            no_live: None,
            devices: Vec::new(),
            exit_code: EXIT_LIVE,
        };

        // SAFETY: cuInit takes flags by value; 0 is the only documented value.
        if let Err(f) = check("cuInit(0)", unsafe { cuInit(0) }) {
            report.set_no_live(f);
            return report;
        }
        let mut count: c_int = 0;
        // SAFETY: `count` is a valid c_int for the driver to write.
        if let Err(f) = check("cuDeviceGetCount", unsafe { cuDeviceGetCount(&mut count) }) {
            report.set_no_live(f);
            return report;
        }
        if count == 0 {
            report.no_live = Some(NoLive {
                failure: None,
                reason: "the NVIDIA driver is installed but reports no CUDA device (cuDeviceGetCount = 0); check nvidia-smi and CUDA_VISIBLE_DEVICES".to_owned(),
                exit_code: EXIT_STATIC,
            });
            report.exit_code = EXIT_STATIC;
            return report;
        }
        report.devices = (0..count)
            .map(|ordinal| read_device(ordinal, &report.attributes))
            .collect();
        if report.devices.iter().any(|d| d.error().is_some()) {
            report.exit_code = EXIT_ERROR;
        }
        report
    }

    fn set_no_live(&mut self, f: Failure) {
        let no_live = no_live(f, self.load_failure.as_ref());
        self.exit_code = no_live.exit_code;
        self.no_live = Some(no_live);
    }
}

/// Why a failed call leaves no live values, and the exit status that is.
fn no_live(f: Failure, load: Option<&LoadFailure>) -> NoLive {
    let (reason, exit_code) = match load {
        Some(load) if f.is(cudaError_enum::CUDA_ERROR_SHARED_OBJECT_INIT_FAILED) => {
            load_failure_reason(load)
        }
        _ => match no_driver_reason(&f) {
            Some(why) => (why.to_owned(), EXIT_STATIC),
            None => (
                "the driver failed; see the error's name in NVIDIA's CUresult documentation"
                    .to_owned(),
                EXIT_ERROR,
            ),
        },
    };
    NoLive {
        failure: Some(f),
        reason,
        exit_code,
    }
}

/// A library named by `LIBCUDA_SYS_DRIVER_PATH` that does not load is a setup
/// mistake, not a machine without a driver: it has its own exit status.
fn load_failure_reason(load: &LoadFailure) -> (String, u8) {
    if load.from_env {
        (
            format!(
                "LIBCUDA_SYS_DRIVER_PATH={} cannot be used as the driver library: {}; point it at the driver's libcuda.so.1, or unset it to use the system loader's",
                load.tried, load.message
            ),
            EXIT_SETUP,
        )
    } else {
        (
            format!(
                "{} could not be opened (dynamic-loading; no NVIDIA driver installed?): {}",
                load.tried, load.message
            ),
            EXIT_STATIC,
        )
    }
}

/// The reasons that mean "no usable driver or device here" (exit status 2).
fn no_driver_reason(f: &Failure) -> Option<&'static str> {
    use cudaError_enum as E;
    Some(if f.is(E::CUDA_ERROR_STUB_LIBRARY) {
        "the libcuda loaded is a stub, not the NVIDIA driver (no driver on this machine): run where one is installed"
    } else if f.is(E::CUDA_ERROR_NO_DEVICE) {
        "the NVIDIA driver is installed but finds no CUDA device; check nvidia-smi and CUDA_VISIBLE_DEVICES"
    } else if f.is(E::CUDA_ERROR_SYSTEM_DRIVER_MISMATCH) {
        "the NVIDIA kernel module and the user-space driver (libcuda) are different versions; reinstall the driver or reboot"
    } else if f.is(E::CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE) {
        "the forward-compatibility libcuda in use does not support this GPU; use the driver's own libcuda"
    } else if f.is(E::CUDA_ERROR_SYSTEM_NOT_READY) {
        "the system is not ready for CUDA (on NVSwitch systems: is the fabric manager running?)"
    } else if f.is(E::CUDA_ERROR_DEVICE_UNAVAILABLE) {
        "the CUDA devices are unavailable (busy in exclusive-process mode, or prohibited)"
    } else {
        return None;
    })
}

fn read_device(ordinal: c_int, attributes: &[&'static TypedEnumerator]) -> Device {
    let mut device: CUdevice = 0;
    // SAFETY: `device` is a valid CUdevice for the driver to write.
    if let Err(f) = check("cuDeviceGet", unsafe { cuDeviceGet(&mut device, ordinal) }) {
        return Device {
            ordinal,
            name: Err(f.clone()),
            compute_capability: Err(f.clone()),
            total_memory: Err(f.clone()),
            pools_supported: Err(f),
            handle_types: None,
            pool: None,
            cleanup: None,
        };
    }
    let mut buffer = [0u8; 256];
    // SAFETY: the driver writes at most `len` bytes, NUL included.
    let name = check("cuDeviceGetName", unsafe {
        cuDeviceGetName(buffer.as_mut_ptr().cast(), buffer.len() as c_int, device)
    })
    .map(|()| {
        CStr::from_bytes_until_nul(&buffer)
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default()
    });
    let compute_capability = device_attribute(
        CUdevice_attribute::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
        device,
    )
    .and_then(|major| {
        Ok((
            major,
            device_attribute(
                CUdevice_attribute::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
                device,
            )?,
        ))
    });
    let mut bytes: usize = 0;
    // SAFETY: `bytes` is a valid size_t for the driver to write.
    let total_memory = check("cuDeviceTotalMem", unsafe {
        cuDeviceTotalMem(&mut bytes, device)
    })
    .map(|()| bytes);
    let pools_supported = device_attribute(
        CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED,
        device,
    )
    .map(|v| v != 0);
    #[cfg(cuda_11_3)]
    let handle_types = Some(device_attribute(
        CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MEMPOOL_SUPPORTED_HANDLE_TYPES,
        device,
    ));
    #[cfg(not(cuda_11_3))]
    let handle_types = None;

    let mut report = Device {
        ordinal,
        name,
        compute_capability,
        total_memory,
        pools_supported,
        handle_types,
        pool: None,
        cleanup: None,
    };
    if !matches!(report.pools_supported, Ok(true)) {
        return report;
    }

    let mut context: CUcontext = std::ptr::null_mut();
    // SAFETY: `context` is a valid CUcontext for the driver to write.
    if let Err(f) = check("cuDevicePrimaryCtxRetain", unsafe {
        cuDevicePrimaryCtxRetain(&mut context, device)
    }) {
        report.pool = Some(Err(f));
        return report;
    }
    // SAFETY: `context` was just retained.
    report.pool = Some(
        check("cuCtxSetCurrent", unsafe { cuCtxSetCurrent(context) })
            .and_then(|()| read_default_pool(device, attributes)),
    );
    // SAFETY: unbind before releasing, then release the retain above.
    let unbound = check("cuCtxSetCurrent(NULL)", unsafe {
        cuCtxSetCurrent(std::ptr::null_mut())
    });
    // SAFETY: balances the cuDevicePrimaryCtxRetain above.
    let released = check("cuDevicePrimaryCtxRelease", unsafe {
        cuDevicePrimaryCtxRelease(device)
    });
    report.cleanup = unbound.err().or(released.err());
    report
}

fn read_default_pool(
    device: CUdevice,
    attributes: &[&'static TypedEnumerator],
) -> Result<Pool, Failure> {
    let mut pool: CUmemoryPool = std::ptr::null_mut();
    // SAFETY: `pool` is a valid CUmemoryPool for the driver to write.
    check("cuDeviceGetDefaultMemPool", unsafe {
        cuDeviceGetDefaultMemPool(&mut pool, device)
    })?;
    let readings = attributes
        .iter()
        .map(|a| Reading {
            attribute: a,
            value: read_pool_attribute(pool, a),
        })
        .collect();
    Ok(Pool {
        handle: pool as usize,
        readings,
    })
}

/// Reads one attribute into a buffer of exactly the width of its documented
/// value type, as a C caller would: a 4-byte `int` or enum, an 8-byte `cuuint64_t`.
fn read_pool_attribute(pool: CUmemoryPool, attribute: &TypedEnumerator) -> Result<Value, Failure> {
    let ty = attribute.value_type;
    let raw = CUmemPool_attribute(attribute.value as _);
    match ty.size {
        None => Ok(Value::NotRead(format!(
            "not read: the bindings have no type {}",
            ty.c_name
        ))),
        Some(4) if ty.c_name == "int" => {
            let mut value: i32 = 0;
            // SAFETY: the header documents a 4-byte value; `value` is 4 bytes.
            check("cuMemPoolGetAttribute", unsafe {
                cuMemPoolGetAttribute(pool, raw, (&mut value as *mut i32).cast::<c_void>())
            })?;
            Ok(Value::Int(value))
        }
        Some(4) => {
            let mut value: u32 = 0;
            // SAFETY: the header documents a 4-byte value; `value` is 4 bytes.
            check("cuMemPoolGetAttribute", unsafe {
                cuMemPoolGetAttribute(pool, raw, (&mut value as *mut u32).cast::<c_void>())
            })?;
            Ok(Value::Unsigned(value))
        }
        Some(8) => {
            let mut value: u64 = 0;
            // SAFETY: the header documents an 8-byte value; `value` is 8 bytes.
            check("cuMemPoolGetAttribute", unsafe {
                cuMemPoolGetAttribute(pool, raw, (&mut value as *mut u64).cast::<c_void>())
            })?;
            Ok(Value::U64(value))
        }
        Some(size) => Ok(Value::NotRead(format!(
            "not read: {} is {size} bytes",
            ty.c_name
        ))),
    }
}

/// The libcuda this process has mapped: the driver's, or a stand-in.
fn loaded_libcuda() -> Option<String> {
    let maps = std::fs::read_to_string("/proc/self/maps").ok()?;
    maps.lines()
        .filter_map(|l| l.split_whitespace().nth(5))
        .find(|path| {
            path.rsplit('/')
                .next()
                .is_some_and(|file| file.starts_with("libcuda.so") || file.starts_with("libcuda-"))
        })
        .map(str::to_owned)
}

// ---------------------------------------------------------------------------
// Formatting helpers
// ---------------------------------------------------------------------------

/// `12040` -> `12.4`.
fn cuda_version(number: i64) -> String {
    format!("{}.{}", number / 1000, number % 1000 / 10)
}

fn human_bytes(bytes: u64) -> String {
    let units = ["B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < units.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{bytes} B")
    } else {
        format!("{value:.1} {}", units[unit])
    }
}

/// The description's first sentence, at most `max` characters.
fn short_description(text: &str, max: usize) -> String {
    let first = match text.find(". ") {
        Some(end) => &text[..=end],
        None => text,
    };
    if first.chars().count() <= max {
        first.to_owned()
    } else {
        let cut: String = first.chars().take(max.saturating_sub(3)).collect();
        format!("{}...", cut.trim_end())
    }
}

/// Columns padded to their widest cell; `right[i]` right-aligns column `i`.
fn table(out: &mut String, indent: &str, header: &[&str], right: &[bool], rows: &[Vec<String>]) {
    let mut widths: Vec<usize> = header.iter().map(|h| h.chars().count()).collect();
    for row in rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let header: Vec<String> = header.iter().map(|h| (*h).to_owned()).collect();
    for row in std::iter::once(&header).chain(rows) {
        let mut line = String::from(indent);
        for (i, cell) in row.iter().enumerate() {
            let pad = widths[i].saturating_sub(cell.chars().count());
            let last = i + 1 == row.len();
            if right.get(i).copied().unwrap_or(false) {
                line.extend(std::iter::repeat_n(' ', pad));
                line.push_str(cell);
            } else {
                line.push_str(cell);
                if !last {
                    line.extend(std::iter::repeat_n(' ', pad));
                }
            }
            if !last {
                line.push_str("  ");
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
}

fn or_error<T>(value: &Result<T, Failure>, show: impl Fn(&T) -> String) -> String {
    match value {
        Ok(v) => show(v),
        Err(f) => format!("error: {f}"),
    }
}

// ---------------------------------------------------------------------------
// Text
// ---------------------------------------------------------------------------

fn render_text(r: &Report) -> String {
    let mut out = String::new();
    let header = i64::from(HEADER_VERSION);
    let _ = writeln!(
        out,
        "mempool-report (libcuda-sys {})",
        env!("CARGO_PKG_VERSION")
    );
    let _ = writeln!(
        out,
        "bindings:  CUDA {} headers (CUDA_VERSION {header})",
        cuda_version(header)
    );
    if PREGENERATED {
        let _ = writeln!(
            out,
            "headers:   none: the bindings shipped with libcuda-sys (no CUDA headers or no libclang at build time, or asked for)"
        );
    } else {
        let _ = writeln!(
            out,
            "headers:   {} (found by {})",
            env!("LIBCUDA_SYS_INCLUDE_DIR_USED"),
            env!("LIBCUDA_SYS_FOUND_BY")
        );
    }
    let link_note = match LINK_KIND {
        "driver" => "the NVIDIA driver's libcuda",
        "toolkit-stub" => {
            "the toolkit's stub libcuda; the driver's replaces it at run time where installed"
        }
        "generated-stub" => {
            "libcuda-sys's stand-in; the driver's replaces it at run time where installed"
        }
        "dynamic-loading" => {
            "no link-time libcuda: LIBCUDA_SYS_DRIVER_PATH, else libcuda.so.1, is opened at the first call"
        }
        _ => "see libcuda-sys's documentation",
    };
    let _ = writeln!(out, "linked:    {LINK_KIND} ({link_note})");
    if let Some(path) = &r.loaded_libcuda {
        let _ = writeln!(out, "loaded:    {path}");
    }
    if let Some(load) = &r.load_failure {
        let _ = writeln!(
            out,
            "loaded:    nothing: {} could not be loaded: {}",
            load.tried, load.message
        );
    }
    match &r.driver_version {
        Ok(v) => {
            let v = i64::from(*v);
            let note = if v < header {
                format!("; older than the {} headers: attributes added since {} are expected to be rejected", cuda_version(header), cuda_version(v))
            } else {
                String::new()
            };
            let _ = writeln!(
                out,
                "driver:    CUDA {} (cuDriverGetVersion {v}){note}",
                cuda_version(v)
            );
        }
        Err(f) => {
            let _ = writeln!(out, "driver:    none ({f})");
        }
    }
    out.push('\n');

    if let Some(no_live) = &r.no_live {
        let label = match no_live.exit_code {
            EXIT_STATIC => "no live values",
            EXIT_SETUP => "setup failed",
            _ => "error",
        };
        match &no_live.failure {
            Some(f) => {
                let _ = writeln!(
                    out,
                    "{label}: {f}: {}; static table follows, exit status {}",
                    no_live.reason, no_live.exit_code
                );
            }
            None => {
                let _ = writeln!(
                    out,
                    "{label}: {}; static table follows, exit status {}",
                    no_live.reason, no_live.exit_code
                );
            }
        }
        out.push('\n');
        static_table(&mut out, r);
        functions_text(&mut out, r);
        return out;
    }

    let _ = writeln!(out, "devices:   {}", r.devices.len());
    for d in &r.devices {
        device_text(&mut out, d);
    }
    let errors: Vec<String> = r
        .devices
        .iter()
        .filter_map(|d| d.error().map(|f| format!("device {}: {f}", d.ordinal)))
        .collect();
    functions_text(&mut out, r);
    if !errors.is_empty() {
        let _ = writeln!(
            out,
            "\nerrors (exit status {EXIT_ERROR}): {}",
            errors.join("; ")
        );
    }
    out
}

/// A stream-ordered memory-pool function: `cuMemPool*`, `cuMemAlloc*Async`,
/// `cuMemFreeAsync`, `cuDevice*MemPool`, `cuMem{Get,Set,GetDefault}MemPool`.
fn is_pool_function(name: &str) -> bool {
    let base = name.trim_end_matches("_ptsz").trim_end_matches("_ptds");
    base.starts_with("cuMemPool")
        || (base.starts_with("cuMemAlloc") && base.ends_with("Async"))
        || base == "cuMemFreeAsync"
        || base.ends_with("MemPool")
}

/// The pool functions of these bindings with the driver each needs (`since`).
fn pool_functions() -> Vec<(&'static str, u32)> {
    SINCE
        .iter()
        .filter(|(name, _)| is_pool_function(name))
        .copied()
        .collect()
}

/// What a driver of `version` lacks of the bound functions, by `since`, and
/// the functions where the loader disagrees (found though listed, or missing
/// though not listed).
struct Lacks {
    names: Vec<&'static str>,
    disagree: Vec<&'static str>,
}

fn driver_lacks(version: c_int) -> Lacks {
    let names: Vec<&'static str> = SINCE
        .iter()
        .filter(|(_, v)| i64::from(*v) > i64::from(version))
        .map(|(n, _)| *n)
        .collect();
    let disagree = SINCE
        .iter()
        .map(|(n, _)| *n)
        .filter(|n| names.contains(n) == loader_has(n))
        .collect();
    Lacks { names, disagree }
}

/// Whether the driver exports `name`, as the loader sees it.
#[cfg(feature = "dynamic-loading")]
fn loader_has(name: &str) -> bool {
    libcuda_sys::dynamic::is_available(name) == Some(true)
}

#[cfg(not(feature = "dynamic-loading"))]
fn loader_has(name: &str) -> bool {
    extern "C" {
        fn dlsym(handle: *mut c_void, symbol: *const std::ffi::c_char) -> *mut c_void;
    }
    let Ok(symbol) = std::ffi::CString::new(name) else {
        return false;
    };
    // SAFETY: RTLD_DEFAULT (null on glibc) and a NUL-terminated name.
    !unsafe { dlsym(std::ptr::null_mut(), symbol.as_ptr()) }.is_null()
}

/// The functions section: the driver each pool function needs, and what the
/// driver in use lacks.
fn functions_text(out: &mut String, r: &Report) {
    if !SINCE_AVAILABLE {
        let _ = writeln!(
            out,
            "\nfunctions: which driver each needs is unknown (the headers had no cudaTypedefs.h)"
        );
        return;
    }
    let _ = writeln!(out, "\nMemory-pool functions and the driver each needs:");
    let rows: Vec<Vec<String>> = pool_functions()
        .into_iter()
        .map(|(name, v)| {
            vec![
                name.to_string(),
                format!("CUDA {}", cuda_version(i64::from(v))),
            ]
        })
        .collect();
    table(out, "", &["FUNCTION", "NEEDS"], &[false, false], &rows);
    if let Ok(version) = r.driver_version {
        let lacks = driver_lacks(version);
        let _ = writeln!(
            out,
            "\ndriver lacks: {} of {} bound functions (newer than CUDA {}){}{}",
            lacks.names.len(),
            SINCE.len(),
            cuda_version(i64::from(version)),
            if lacks.names.is_empty() {
                String::new()
            } else {
                format!(": {}", lacks.names.join(", "))
            },
            if lacks.disagree.is_empty() {
                "; the loader agrees".to_string()
            } else {
                format!("; the loader disagrees on {}", lacks.disagree.join(", "))
            }
        );
    }
}

fn functions_json(r: &Report) -> Json {
    let pool = Json::Array(
        pool_functions()
            .into_iter()
            .map(|(name, v)| Json::Object(vec![("name", Json::str(name)), ("since", Json::num(v))]))
            .collect(),
    );
    let lacks = match (SINCE_AVAILABLE, &r.driver_version) {
        (true, Ok(version)) => {
            let lacks = driver_lacks(*version);
            Json::Object(vec![
                ("count", Json::num(lacks.names.len())),
                ("of", Json::num(SINCE.len())),
                (
                    "names",
                    Json::Array(lacks.names.iter().map(|n| Json::str(*n)).collect()),
                ),
                ("loader_agrees", Json::Bool(lacks.disagree.is_empty())),
                (
                    "loader_disagrees_on",
                    Json::Array(lacks.disagree.iter().map(|n| Json::str(*n)).collect()),
                ),
            ])
        }
        _ => Json::Null,
    };
    Json::Object(vec![
        ("since_available", Json::Bool(SINCE_AVAILABLE)),
        ("pool_functions", pool),
        ("driver_lacks", lacks),
    ])
}

fn static_table(out: &mut String, r: &Report) {
    let header = i64::from(HEADER_VERSION);
    let _ = writeln!(
        out,
        "Memory-pool attributes (CUmemPool_attribute) in the CUDA {} headers: {}\n",
        cuda_version(header),
        r.attributes.len()
    );
    let rows: Vec<Vec<String>> = r
        .attributes
        .iter()
        .map(|a| {
            vec![
                a.value.to_string(),
                a.name.to_owned(),
                a.value_type.c_name.to_owned(),
                a.value_type
                    .size
                    .map(|s| s.to_string())
                    .unwrap_or_else(|| "?".into()),
                settable(a).text().to_owned(),
                short_description(a.description, 90),
            ]
        })
        .collect();
    table(
        out,
        "",
        &[
            "VALUE",
            "ATTRIBUTE",
            "TYPE",
            "SIZE",
            "SETTABLE",
            "DESCRIPTION",
        ],
        &[true, false, false, true],
        &rows,
    );
    if r.attributes.is_empty() {
        let _ = writeln!(
            out,
            "(none: the headers document no value type for any CUmemPool_attribute)"
        );
    }
}

fn device_text(out: &mut String, d: &Device) {
    let _ = writeln!(
        out,
        "\ndevice {}: {}",
        d.ordinal,
        or_error(&d.name, |n| n.clone())
    );
    let _ = writeln!(
        out,
        "  compute capability:      {}",
        or_error(&d.compute_capability, |(a, b)| format!("{a}.{b}"))
    );
    let _ = writeln!(
        out,
        "  total memory:            {}",
        or_error(&d.total_memory, |b| format!(
            "{} ({b} bytes)",
            human_bytes(*b as u64)
        ))
    );
    let _ = writeln!(
        out,
        "  memory pools supported:  {}",
        or_error(&d.pools_supported, |s| if *s { "yes" } else { "no" }
            .to_owned())
    );
    let handle_types = match &d.handle_types {
        None => {
            "unknown (CU_DEVICE_ATTRIBUTE_MEMPOOL_SUPPORTED_HANDLE_TYPES is not in these headers)"
                .to_owned()
        }
        Some(v) => or_error(v, |v| format!("{v:#x} = {}", flag_names(*v as u32 as u64))),
    };
    let _ = writeln!(out, "  pool handle types:       {handle_types}");
    match &d.pool {
        None => {}
        Some(Err(f)) => {
            let _ = writeln!(out, "  default memory pool:     error: {f}");
        }
        Some(Ok(pool)) => {
            let _ = writeln!(out, "  default memory pool:     {:#x}\n", pool.handle);
            let rows: Vec<Vec<String>> = pool
                .readings
                .iter()
                .map(|reading| {
                    let a = reading.attribute;
                    let current = match &reading.value {
                        Ok(Value::NotRead(why)) => why.clone(),
                        Ok(v) => {
                            let raw = v.raw().unwrap_or_default();
                            match v.decoded(a.value_type.c_name) {
                                Some(name) if name != raw => format!("{raw} ({name})"),
                                _ => raw,
                            }
                        }
                        Err(f) => f.name.clone(),
                    };
                    vec![
                        a.value.to_string(),
                        a.name.to_owned(),
                        a.value_type.c_name.to_owned(),
                        current,
                        settable(a).text().to_owned(),
                    ]
                })
                .collect();
            table(
                out,
                "  ",
                &["VALUE", "ATTRIBUTE", "TYPE", "CURRENT", "SETTABLE"],
                &[true],
                &rows,
            );
            let rejected: Vec<String> = pool
                .readings
                .iter()
                .filter_map(|x| {
                    x.value
                        .as_ref()
                        .err()
                        .map(|f| format!("{} ({})", x.attribute.name, f.name))
                })
                .collect();
            if !rejected.is_empty() {
                let _ = writeln!(out, "  driver rejects: {}", rejected.join(", "));
            }
        }
    }
    if let Some(f) = &d.cleanup {
        let _ = writeln!(out, "  error releasing the primary context: {f}");
    }
}

// ---------------------------------------------------------------------------
// JSON, by hand
// ---------------------------------------------------------------------------

enum Json {
    Null,
    Bool(bool),
    /// Digits, written as they are.
    Number(String),
    Str(String),
    Array(Vec<Json>),
    Object(Vec<(&'static str, Json)>),
}

impl Json {
    fn str(s: impl Into<String>) -> Json {
        Json::Str(s.into())
    }
    fn num(n: impl std::fmt::Display) -> Json {
        Json::Number(n.to_string())
    }
    fn opt_str(s: Option<impl Into<String>>) -> Json {
        s.map(Json::str).unwrap_or(Json::Null)
    }

    fn write(&self, out: &mut String, depth: usize) {
        let pad = |out: &mut String, depth: usize| out.extend(std::iter::repeat_n(' ', depth * 2));
        match self {
            Json::Null => out.push_str("null"),
            Json::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Json::Number(n) => out.push_str(n),
            Json::Str(s) => escape_json(out, s),
            Json::Array(items) if items.is_empty() => out.push_str("[]"),
            Json::Object(items) if items.is_empty() => out.push_str("{}"),
            Json::Array(items) => {
                out.push_str("[\n");
                for (i, item) in items.iter().enumerate() {
                    pad(out, depth + 1);
                    item.write(out, depth + 1);
                    out.push_str(if i + 1 < items.len() { ",\n" } else { "\n" });
                }
                pad(out, depth);
                out.push(']');
            }
            Json::Object(items) => {
                out.push_str("{\n");
                for (i, (key, item)) in items.iter().enumerate() {
                    pad(out, depth + 1);
                    escape_json(out, key);
                    out.push_str(": ");
                    item.write(out, depth + 1);
                    out.push_str(if i + 1 < items.len() { ",\n" } else { "\n" });
                }
                pad(out, depth);
                out.push('}');
            }
        }
    }
}

/// A JSON string literal: quotes, backslashes and control characters escaped.
fn escape_json(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 || c == '\u{2028}' || c == '\u{2029}' => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

fn failure_json(f: &Failure) -> Json {
    Json::Object(vec![
        ("call", Json::str(f.call)),
        ("code", Json::num(f.code)),
        ("name", Json::str(f.name.clone())),
    ])
}

/// `{"value": ...}` or `{"error": {...}}`.
fn result_json<T>(value: &Result<T, Failure>, show: impl Fn(&T) -> Json) -> Json {
    match value {
        Ok(v) => show(v),
        Err(f) => Json::Object(vec![("error", failure_json(f))]),
    }
}

fn attribute_json(a: &TypedEnumerator) -> Vec<(&'static str, Json)> {
    vec![
        ("name", Json::str(a.name)),
        ("value", Json::num(a.value)),
        ("value_type", Json::str(a.value_type.c_name)),
        (
            "size",
            a.value_type.size.map(Json::num).unwrap_or(Json::Null),
        ),
        ("settable", Json::str(settable(a).json())),
        ("setter", Json::opt_str(a.setter)),
        ("description", Json::str(a.description)),
    ]
}

fn render_json(r: &Report) -> String {
    let header = i64::from(HEADER_VERSION);
    let bindings = Json::Object(vec![
        ("cuda_version", Json::num(header)),
        ("cuda_version_text", Json::str(cuda_version(header))),
        (
            "include_dir",
            Json::str(env!("LIBCUDA_SYS_INCLUDE_DIR_USED")),
        ),
        ("found_by", Json::str(env!("LIBCUDA_SYS_FOUND_BY"))),
        ("link_kind", Json::str(LINK_KIND)),
        ("libcuda_sys_version", Json::str(env!("CARGO_PKG_VERSION"))),
    ]);
    let driver = match &r.driver_version {
        Ok(v) => Json::Object(vec![
            ("present", Json::Bool(true)),
            ("cuda_version", Json::num(v)),
            ("cuda_version_text", Json::str(cuda_version(i64::from(*v)))),
        ]),
        Err(f) => Json::Object(vec![
            ("present", Json::Bool(false)),
            ("error", failure_json(f)),
            (
                "load_error",
                r.load_failure
                    .as_ref()
                    .map(|load| {
                        Json::Object(vec![
                            ("tried", Json::str(load.tried.clone())),
                            ("message", Json::str(load.message.clone())),
                            (
                                "from",
                                Json::str(if load.from_env {
                                    "LIBCUDA_SYS_DRIVER_PATH"
                                } else {
                                    "default"
                                }),
                            ),
                        ])
                    })
                    .unwrap_or(Json::Null),
            ),
        ]),
    };
    let status = Json::Object(vec![
        ("live", Json::Bool(r.no_live.is_none())),
        ("exit_code", Json::num(r.exit_code)),
        (
            "error",
            r.no_live
                .as_ref()
                .and_then(|n| n.failure.as_ref())
                .map(failure_json)
                .unwrap_or(Json::Null),
        ),
        (
            "reason",
            Json::opt_str(r.no_live.as_ref().map(|n| n.reason.clone())),
        ),
    ]);
    let attributes = Json::Array(
        r.attributes
            .iter()
            .map(|a| Json::Object(attribute_json(a)))
            .collect(),
    );
    let devices = Json::Array(r.devices.iter().map(device_json).collect());
    let root = Json::Object(vec![
        ("report", Json::str("mempool-report")),
        ("bindings", bindings),
        ("loaded_libcuda", Json::opt_str(r.loaded_libcuda.clone())),
        ("driver", driver),
        ("status", status),
        ("attributes", attributes),
        ("functions", functions_json(r)),
        ("devices", devices),
    ]);
    let mut out = String::new();
    root.write(&mut out, 0);
    out.push('\n');
    out
}

fn device_json(d: &Device) -> Json {
    let pool = match &d.pool {
        None => Json::Null,
        Some(pool) => result_json(pool, |pool| {
            let attributes = pool
                .readings
                .iter()
                .map(|reading| {
                    let mut fields = attribute_json(reading.attribute);
                    fields.retain(|(k, _)| *k != "description");
                    match &reading.value {
                        Ok(Value::NotRead(why)) => {
                            fields.push(("current", Json::Null));
                            fields.push(("not_read", Json::str(why.clone())));
                        }
                        Ok(v) => {
                            fields.push(("current", Json::Number(v.raw().unwrap_or_default())));
                            fields.push((
                                "current_decoded",
                                Json::opt_str(v.decoded(reading.attribute.value_type.c_name)),
                            ));
                        }
                        Err(f) => {
                            fields.push(("current", Json::Null));
                            fields.push(("error", failure_json(f)));
                        }
                    }
                    Json::Object(fields)
                })
                .collect();
            let rejected = pool
                .readings
                .iter()
                .filter(|x| x.value.is_err())
                .map(|x| Json::str(x.attribute.name))
                .collect();
            Json::Object(vec![
                ("handle", Json::str(format!("{:#x}", pool.handle))),
                ("attributes", Json::Array(attributes)),
                ("driver_rejects", Json::Array(rejected)),
            ])
        }),
    };
    Json::Object(vec![
        ("ordinal", Json::num(d.ordinal)),
        ("name", result_json(&d.name, |n| Json::str(n.clone()))),
        (
            "compute_capability",
            result_json(&d.compute_capability, |(a, b)| {
                Json::str(format!("{a}.{b}"))
            }),
        ),
        (
            "total_memory",
            result_json(&d.total_memory, |b| Json::num(b)),
        ),
        (
            "memory_pools_supported",
            result_json(&d.pools_supported, |s| Json::Bool(*s)),
        ),
        (
            "pool_handle_types",
            match &d.handle_types {
                None => Json::Null,
                Some(v) => result_json(v, |v| {
                    Json::Object(vec![
                        ("raw", Json::num(v)),
                        ("names", Json::str(flag_names(*v as u32 as u64))),
                    ])
                }),
            },
        ),
        ("default_pool", pool),
        ("error", d.error().map(failure_json).unwrap_or(Json::Null)),
    ])
}

#[cfg(test)]
mod tests {
    //! `cargo test --example mempool-report`: the pieces that a stand-in libcuda
    //! never exercises.
    use super::*;

    #[test]
    fn json_strings_are_escaped() {
        let mut out = String::new();
        escape_json(&mut out, "a\"b\\c\nd\u{1}e/é");
        assert_eq!(out, r#""a\"b\\c\nd\u0001e/é""#);
    }

    #[test]
    fn handle_type_flags_by_name() {
        assert_eq!(flag_names(0), "CU_MEM_HANDLE_TYPE_NONE");
        assert_eq!(flag_names(1), "CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR");
        assert_eq!(
            flag_names(0x1 | 0x100),
            "CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR | 0x100"
        );
    }

    #[test]
    fn enum_values_are_decoded_by_value_type() {
        assert_eq!(
            Value::Unsigned(1).decoded("CUmemAllocationType").as_deref(),
            Some("CU_MEM_ALLOCATION_TYPE_PINNED")
        );
        assert_eq!(
            Value::Unsigned(1).decoded("CUmemLocationType").as_deref(),
            Some("CU_MEM_LOCATION_TYPE_DEVICE")
        );
        assert_eq!(Value::Unsigned(77).decoded("CUmemLocationType"), None);
        assert_eq!(Value::Int(1).decoded("int"), None);
        assert_eq!(
            Value::U64(32 << 20).decoded("cuuint64_t").as_deref(),
            Some("32.0 MiB")
        );
        assert_eq!(
            Value::U64(u64::MAX).decoded("cuuint64_t").as_deref(),
            Some("UINT64_MAX")
        );
    }

    #[test]
    fn high_watermarks_are_reset_only() {
        for a in VALUE_TYPES.iter().filter(|e| e.enumeration == POOL_ENUM) {
            let expected = match a.value {
                1..=4 => Settable::Yes,
                6 | 8 => Settable::ResetToZeroOnly,
                _ => Settable::No,
            };
            assert!(
                settable(a) == expected,
                "{}: {}",
                a.name,
                settable(a).text()
            );
        }
    }

    /// A report with no live values because `failure` ended it, as `collect`
    /// builds one.
    fn static_report(failure: Failure, load: Option<LoadFailure>) -> Report {
        let mut report = Report {
            attributes: VALUE_TYPES
                .iter()
                .filter(|e| e.enumeration == POOL_ENUM)
                .collect(),
            loaded_libcuda: None,
            load_failure: load,
            driver_version: Err(failure.clone()),
            no_live: None,
            devices: Vec::new(),
            exit_code: EXIT_LIVE,
        };
        report.set_no_live(failure);
        report
    }

    fn failure(code: CUresult) -> Failure {
        Failure {
            call: "cuInit(0)",
            code: code.0,
            name: code.name().unwrap_or("?").to_owned(),
        }
    }

    fn json_exit_code(json: &str) -> Option<u8> {
        let status = &json[json.find("\"status\": {")?..];
        let code = &status[status.find("\"exit_code\": ")? + "\"exit_code\": ".len()..];
        code[..code.find(|c: char| !c.is_ascii_digit())?]
            .parse()
            .ok()
    }

    #[test]
    fn exit_statuses_are_distinct_and_documented() {
        // (status, its first words in --help, in the top comment)
        let codes = [
            (EXIT_LIVE, "live report", "live report"),
            (EXIT_ERROR, "error", "error"),
            (EXIT_STATIC, "static table only", "no driver"),
            (EXIT_SETUP, "setup failed", "setup failed"),
        ];
        let source = include_str!("mempool_report.rs");
        let top: String = source
            .lines()
            .take_while(|l| l.starts_with("//!"))
            .map(|l| l.trim_start_matches("//!"))
            .collect::<Vec<_>>()
            .join("");
        for (i, (code, help, doc)) in codes.iter().enumerate() {
            assert!(
                codes[..i].iter().all(|(c, _, _)| c != code),
                "exit status {code} has two meanings"
            );
            let line = HELP
                .lines()
                .find(|l| l.starts_with(&format!("  {code}  ")))
                .unwrap_or_else(|| panic!("--help does not document exit status {code}"));
            assert!(
                line.contains(help),
                "--help: exit status {code} is not '{help}'"
            );
            assert!(
                top.contains(&format!("{code} {doc}")),
                "the top comment does not document exit status {code} ({doc})"
            );
        }
    }

    #[test]
    fn a_failed_write_is_said_and_is_an_error() {
        let mut err = Vec::new();
        let broken = std::io::Error::from(std::io::ErrorKind::BrokenPipe);
        assert_eq!(exit_status(Err(broken), EXIT_STATIC, &mut err), EXIT_ERROR);
        let err = String::from_utf8(err).unwrap();
        assert!(err.contains("cannot write the report to stdout"), "{err}");
        let mut err = Vec::new();
        assert_eq!(exit_status(Ok(()), EXIT_STATIC, &mut err), EXIT_STATIC);
        assert!(err.is_empty());
    }

    #[test]
    fn a_driver_path_that_does_not_load_is_named_with_the_loaders_message() {
        let load = LoadFailure {
            tried: "/opt/not-a-driver".to_owned(),
            message: "/opt/not-a-driver: cannot read file data: Is a directory".to_owned(),
            from_env: true,
        };
        let r = static_report(
            failure(cudaError_enum::CUDA_ERROR_SHARED_OBJECT_INIT_FAILED),
            Some(load),
        );
        assert_eq!(r.exit_code, EXIT_SETUP);
        let text = render_text(&r);
        assert!(text.contains("setup failed: "), "{text}");
        assert!(
            text.contains("LIBCUDA_SYS_DRIVER_PATH=/opt/not-a-driver"),
            "{text}"
        );
        assert!(
            text.contains("cannot read file data: Is a directory"),
            "{text}"
        );
        assert!(!text.contains("libcuda.so.1 could not"), "{text}");
        let json = render_json(&r);
        assert!(json.contains(r#""tried": "/opt/not-a-driver""#), "{json}");
        assert!(
            json.contains("cannot read file data: Is a directory"),
            "{json}"
        );
        assert_eq!(json_exit_code(&json), Some(EXIT_SETUP), "{json}");
    }

    #[test]
    fn no_libcuda_to_open_is_static_only_and_named() {
        let load = LoadFailure {
            tried: "libcuda.so.1".to_owned(),
            message: "libcuda.so.1: cannot open shared object file: No such file or directory"
                .to_owned(),
            from_env: false,
        };
        let r = static_report(
            failure(cudaError_enum::CUDA_ERROR_SHARED_OBJECT_INIT_FAILED),
            Some(load),
        );
        assert_eq!(r.exit_code, EXIT_STATIC);
        let text = render_text(&r);
        assert!(text.contains("no live values: "), "{text}");
        assert!(text.contains("No such file or directory"), "{text}");
        assert_eq!(json_exit_code(&render_json(&r)), Some(EXIT_STATIC));
    }

    #[test]
    fn json_exit_code_is_the_exit_status() {
        use cudaError_enum as E;
        for (code, status) in [
            (E::CUDA_ERROR_STUB_LIBRARY, EXIT_STATIC),
            (E::CUDA_ERROR_NO_DEVICE, EXIT_STATIC),
            // Loaded, and then failing: the driver's own error, not a setup one.
            (E::CUDA_ERROR_SHARED_OBJECT_INIT_FAILED, EXIT_ERROR),
            (E::CUDA_ERROR_INVALID_VALUE, EXIT_ERROR),
        ] {
            let r = static_report(failure(code), None);
            assert_eq!(r.exit_code, status, "{code:?}");
            assert_eq!(json_exit_code(&render_json(&r)), Some(status), "{code:?}");
        }
    }

    #[test]
    fn descriptions_are_cut_at_the_first_sentence() {
        assert_eq!(short_description("One. Two.", 90), "One.");
        assert_eq!(short_description("abcdefghij", 8), "abcde...");
    }
}
