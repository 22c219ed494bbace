//! Fills the model: what libcuda-sys's build found, the driver, and every
//! device's default memory pool. Every driver call is checked and its failure
//! kept by name; nothing here panics.
//!
//! The attribute lists, each attribute's value type (the width
//! `cuMemPoolGetAttribute` and `cuPointerGetAttribute` write) and whether it
//! is settable come from [`VALUE_TYPES`], which libcuda-sys's build derives
//! from the header, so an attribute added by a newer header shows up without
//! a change here.

use std::ffi::{c_char, c_int, c_void, CStr};

use libcuda_sys::*;

use crate::model::*;
use crate::{EXIT_ERROR, EXIT_LIVE, EXIT_SETUP, EXIT_STATIC};

/// The enum of the pool attributes, as `VALUE_TYPES` names it.
const POOL_ENUM: &str = "CUmemPool_attribute_enum";

/// Reads everything once; the exit status is `report.status.exit_code`.
pub fn report() -> Report {
    let attributes: Vec<&'static TypedEnumerator> = pool_attributes().collect();
    let mut version: c_int = 0;
    // SAFETY: `version` is a valid c_int for the driver to write.
    let driver_version =
        check("cuDriverGetVersion", unsafe { cuDriverGetVersion(&mut version) }).map(|()| version);
    let load = load_failure();
    let devices = live(&attributes);
    assemble(driver_version, load, devices)
}

/// The report from what the driver said: its version (or the failure), why
/// the library could not be opened, and the devices (or why none were read).
pub fn assemble(
    driver_version: Result<c_int, Failure>,
    load: Option<LoadFailure>,
    devices: Result<Vec<Device>, NoLive>,
) -> Report {
    let (status, devices) = match devices {
        Ok(devices) => {
            let exit_code =
                if devices.iter().any(|d| d.error.is_some()) { EXIT_ERROR } else { EXIT_LIVE };
            let status = Status { live: true, exit_code, error: None, reason: None };
            (status, devices)
        }
        Err(no_live) => (no_live_status(no_live, load.as_ref()), Vec::new()),
    };
    let version = driver_version.as_ref().ok().copied();
    Report {
        report: "mempool-report",
        bindings: bindings(),
        loaded_libcuda: loaded_libcuda(),
        functions: functions(version),
        driver: Driver {
            present: version.is_some(),
            cuda_version: version,
            cuda_version_text: version.map(|v| cuda_version_text(i64::from(v))),
            error: driver_version.err(),
            load_error: load,
        },
        status,
        attributes: pool_attributes().map(attribute).collect(),
        devices,
    }
}

/// The headers' `CUmemPool_attribute` enumerators, from `VALUE_TYPES`.
pub fn pool_attributes() -> impl Iterator<Item = &'static TypedEnumerator> {
    VALUE_TYPES.iter().filter(|e| e.enumeration == POOL_ENUM)
}

/// `12040` -> `12.4`.
pub fn cuda_version_text(number: i64) -> String {
    format!("{}.{}", number / 1000, number % 1000 / 10)
}

fn bindings() -> Bindings {
    let include_dir = env!("MEMPOOL_REPORT_INCLUDE_DIR");
    Bindings {
        cuda_version: HEADER_VERSION,
        cuda_version_text: cuda_version_text(i64::from(HEADER_VERSION)),
        pregenerated: PREGENERATED,
        include_dir: (!include_dir.is_empty()).then(|| include_dir.to_owned()),
        found_by: env!("MEMPOOL_REPORT_FOUND_BY").to_owned(),
        link_kind: env!("MEMPOOL_REPORT_LINK_KIND").to_owned(),
        per_thread_default_stream: env!("MEMPOOL_REPORT_PER_THREAD_DEFAULT_STREAM") == "true",
        libcuda_sys_version: libcuda_sys::VERSION,
    }
}

fn declared(a: &'static TypedEnumerator) -> Declared {
    Declared {
        name: a.name,
        value: a.value,
        value_type: a.value_type.c_name,
        size: a.value_type.size,
        settable: settable(a),
        setter: a.setters.first().copied(),
    }
}

fn attribute(a: &'static TypedEnumerator) -> Attribute {
    Attribute { declared: declared(a), description: a.description }
}

pub fn settable(attribute: &TypedEnumerator) -> Settable {
    match attribute.access {
        Access::ReadOnly => Settable::No,
        Access::ResetOnly => Settable::ResetToZeroOnly,
        Access::Settable => Settable::Yes,
    }
}

// ---------------------------------------------------------------------------
// Driver calls

fn check(call: &'static str, result: CUresult) -> Result<(), Failure> {
    if result == cudaError_enum::CUDA_SUCCESS {
        Ok(())
    } else {
        Err(failure(call, result))
    }
}

pub fn failure(call: &'static str, result: CUresult) -> Failure {
    Failure { call, code: result.0, name: error_name(result) }
}

/// The driver's name for `result`, else the header's, else the number: a
/// driver newer than the headers names codes they do not have.
fn error_name(result: CUresult) -> String {
    let mut name: *const c_char = std::ptr::null();
    // SAFETY: cuGetErrorName stores a pointer to a static string, or nothing.
    let named = unsafe { cuGetErrorName(result, &mut name) };
    if named == cudaError_enum::CUDA_SUCCESS && !name.is_null() {
        // SAFETY: on success `name` is a NUL-terminated string the driver owns
        // for the life of the process.
        return unsafe { CStr::from_ptr(name) }.to_string_lossy().into_owned();
    }
    // The stand-in libcuda's cuGetErrorName fails too.
    result.name().map(str::to_owned).unwrap_or_else(|| format!("CUresult {}", result.0))
}

/// Why the report has no live values: the call that ended it (none for a
/// device count of 0).
pub struct NoLive(pub Option<Failure>);

/// Every device, or why none could be read.
fn live(attributes: &[&'static TypedEnumerator]) -> Result<Vec<Device>, NoLive> {
    // SAFETY: cuInit takes flags by value; 0 is the only documented value.
    check("cuInit(0)", unsafe { cuInit(0) }).map_err(|f| NoLive(Some(f)))?;
    let mut count: c_int = 0;
    // SAFETY: `count` is a valid c_int for the driver to write.
    check("cuDeviceGetCount", unsafe { cuDeviceGetCount(&mut count) })
        .map_err(|f| NoLive(Some(f)))?;
    if count == 0 {
        return Err(NoLive(None));
    }
    Ok((0..count).map(|o| read_device(o, attributes)).collect())
}

/// The status of a report without live values, and its exit status.
pub fn no_live_status(no_live: NoLive, load: Option<&LoadFailure>) -> Status {
    let Some(f) = no_live.0 else {
        return Status {
            live: false,
            exit_code: EXIT_STATIC,
            error: None,
            reason: Some("the NVIDIA driver is installed but reports no CUDA device (cuDeviceGetCount = 0); check nvidia-smi and CUDA_VISIBLE_DEVICES".to_owned()),
        };
    };
    let (reason, exit_code) = match load {
        Some(load) if f.code == cudaError_enum::CUDA_ERROR_SHARED_OBJECT_INIT_FAILED.0 => {
            load_failure_reason(load)
        }
        _ => match testkit::no_usable_driver(f.code) {
            Some(why) => (why.to_owned(), EXIT_STATIC),
            None => (
                "the driver failed; see the error's name in NVIDIA's CUresult documentation"
                    .to_owned(),
                EXIT_ERROR,
            ),
        },
    };
    Status { live: false, exit_code, error: Some(f), reason: Some(reason) }
}

/// A library named by `LIBCUDA_SYS_DRIVER_PATH` that does not load is a setup
/// mistake, not a machine without a driver: it has its own exit status.
fn load_failure_reason(load: &LoadFailure) -> (String, u8) {
    match load.from {
        LoadFrom::DriverPathVariable => (
            format!(
                "LIBCUDA_SYS_DRIVER_PATH={} cannot be used as the driver library: {}; point it at the driver's libcuda.so.1, or unset it to use the system loader's",
                load.tried, load.message
            ),
            EXIT_SETUP,
        ),
        LoadFrom::Default => (
            format!(
                "{} could not be opened (dynamic-loading; no NVIDIA driver installed?): {}",
                load.tried, load.message
            ),
            EXIT_STATIC,
        ),
    }
}

#[cfg(dynamic_loading)]
fn load_failure() -> Option<LoadFailure> {
    libcuda_sys::dynamic::try_load().err().map(|e| LoadFailure {
        tried: e.tried,
        message: e.message,
        from: if std::env::var_os("LIBCUDA_SYS_DRIVER_PATH").is_some_and(|p| !p.is_empty()) {
            LoadFrom::DriverPathVariable
        } else {
            LoadFrom::Default
        },
    })
}

#[cfg(not(dynamic_loading))]
fn load_failure() -> Option<LoadFailure> {
    None
}

fn device_attribute(attribute: CUdevice_attribute, device: CUdevice) -> Result<c_int, Failure> {
    let mut value: c_int = 0;
    // SAFETY: `value` is a valid c_int for the driver to write.
    check("cuDeviceGetAttribute", unsafe { cuDeviceGetAttribute(&mut value, attribute, device) })?;
    Ok(value)
}

fn read_device(ordinal: c_int, attributes: &[&'static TypedEnumerator]) -> Device {
    let mut device: CUdevice = 0;
    // SAFETY: `device` is a valid CUdevice for the driver to write.
    if let Err(f) = check("cuDeviceGet", unsafe { cuDeviceGet(&mut device, ordinal) }) {
        return Device {
            ordinal,
            name: Err(f.clone()).into(),
            compute_capability: Err(f.clone()).into(),
            total_memory: Err(f.clone()).into(),
            memory_pools_supported: Err(f.clone()).into(),
            pool_handle_types: None,
            default_pool: None,
            cleanup_error: None,
            error: Some(f),
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
    let compute_capability =
        device_attribute(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device)
            .and_then(|major| {
                let minor = device_attribute(
                    CUdevice_attribute::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
                    device,
                )?;
                Ok(format!("{major}.{minor}"))
            });
    let mut bytes: usize = 0;
    // SAFETY: `bytes` is a valid size_t for the driver to write.
    let total_memory =
        check("cuDeviceTotalMem", unsafe { cuDeviceTotalMem(&mut bytes, device) }).map(|()| bytes);
    let pools_supported =
        device_attribute(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED, device)
            .map(|v| v != 0);
    #[cfg(has_pool_handle_types)]
    let handle_types = Some(
        device_attribute(
            CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MEMPOOL_SUPPORTED_HANDLE_TYPES,
            device,
        )
        .map(|raw| HandleTypes { raw, names: flag_names(u64::from(raw as u32)) })
        .into(),
    );
    #[cfg(not(has_pool_handle_types))]
    let handle_types = None;

    let (default_pool, cleanup_error) = if matches!(pools_supported, Ok(true)) {
        let (pool, cleanup) = read_pool_in_primary_context(device, attributes);
        (Some(pool), cleanup)
    } else {
        (None, None)
    };
    // The first failure that makes this device's report an error.
    let error = [
        name.as_ref().err(),
        compute_capability.as_ref().err(),
        total_memory.as_ref().err(),
        pools_supported.as_ref().err(),
        default_pool.as_ref().and_then(|p| p.as_ref().err()),
        cleanup_error.as_ref(),
    ]
    .into_iter()
    .flatten()
    .next()
    .cloned();
    Device {
        ordinal,
        name: name.into(),
        compute_capability: compute_capability.into(),
        total_memory: total_memory.into(),
        memory_pools_supported: pools_supported.into(),
        pool_handle_types: handle_types,
        default_pool: default_pool.map(Read::from),
        cleanup_error,
        error,
    }
}

/// The default pool, read with the device's primary context current; then
/// the context is unbound and released, and a failure of that is returned
/// beside the pool.
fn read_pool_in_primary_context(
    device: CUdevice,
    attributes: &[&'static TypedEnumerator],
) -> (Result<Pool, Failure>, Option<Failure>) {
    let mut context: CUcontext = std::ptr::null_mut();
    // SAFETY: `context` is a valid CUcontext for the driver to write.
    if let Err(f) =
        check("cuDevicePrimaryCtxRetain", unsafe { cuDevicePrimaryCtxRetain(&mut context, device) })
    {
        return (Err(f), None);
    }
    // SAFETY: `context` was just retained.
    let pool = check("cuCtxSetCurrent", unsafe { cuCtxSetCurrent(context) })
        .and_then(|()| read_default_pool(device, attributes));
    // SAFETY: unbind before releasing, then release the retain above.
    let unbound = check("cuCtxSetCurrent(NULL)", unsafe { cuCtxSetCurrent(std::ptr::null_mut()) });
    // SAFETY: balances the cuDevicePrimaryCtxRetain above.
    let released = check("cuDevicePrimaryCtxRelease", unsafe { cuDevicePrimaryCtxRelease(device) });
    (pool, unbound.err().or(released.err()))
}

fn read_default_pool(
    device: CUdevice,
    attributes: &[&'static TypedEnumerator],
) -> Result<Pool, Failure> {
    let mut pool: CUmemoryPool = std::ptr::null_mut();
    // SAFETY: `pool` is a valid CUmemoryPool for the driver to write.
    check("cuDeviceGetDefaultMemPool", unsafe { cuDeviceGetDefaultMemPool(&mut pool, device) })?;
    let readings: Vec<Reading> =
        attributes.iter().map(|a| reading(a, read_pool_attribute(pool, a))).collect();
    // Read after the pool's own attributes, whose counters it would change.
    let allocation = allocation(pool).into();
    Ok(Pool {
        handle: format!("{:#x}", pool as usize),
        driver_rejects: rejected(&readings),
        attributes: readings,
        allocation,
    })
}

fn rejected(readings: &[Reading]) -> Vec<&'static str> {
    readings.iter().filter(|r| r.error.is_some()).map(|r| r.declared.name).collect()
}

/// What the report allocates from each default pool to show its pointer attributes.
const ALLOCATION: usize = 1 << 20;

/// The headers' `CUpointer_attribute` enumerators, from `VALUE_TYPES`.
pub fn pointer_attributes() -> impl Iterator<Item = &'static TypedEnumerator> {
    VALUE_TYPES.iter().filter(|e| e.enumeration == "CUpointer_attribute_enum")
}

/// One allocation from `pool` on a stream of its own, its pointer attributes
/// read, then freed; a failure to free or to destroy the stream is an error too.
fn allocation(pool: CUmemoryPool) -> Result<Allocation, Failure> {
    let mut stream: CUstream = std::ptr::null_mut();
    let flags = CUstream_flags::CU_STREAM_NON_BLOCKING.0;
    // SAFETY: `stream` is a valid CUstream for the driver to write.
    check("cuStreamCreate", unsafe { cuStreamCreate(&mut stream, flags) })?;
    let mut address: CUdeviceptr = 0;
    // SAFETY: `address` is written by the driver; the stream was just created.
    let read = check("cuMemAllocFromPoolAsync", unsafe {
        cuMemAllocFromPoolAsync(&mut address, ALLOCATION, pool, stream)
    })
    // SAFETY: a stream of this context.
    .and_then(|()| check("cuStreamSynchronize", unsafe { cuStreamSynchronize(stream) }))
    .map(|()| {
        let readings: Vec<Reading> =
            pointer_attributes().map(|a| reading(a, read_pointer_attribute(address, a))).collect();
        Allocation {
            address: format!("{address:#x}"),
            bytes: ALLOCATION,
            driver_rejects: rejected(&readings),
            attributes: readings,
        }
    });
    // SAFETY: frees what was allocated above, on its stream, then the stream.
    let freed = if address == 0 {
        Ok(())
    } else {
        check("cuMemFreeAsync", unsafe { cuMemFreeAsync(address, stream) })
    };
    let synchronized = check("cuStreamSynchronize", unsafe { cuStreamSynchronize(stream) });
    let destroyed = check("cuStreamDestroy", unsafe { cuStreamDestroy(stream) });
    let allocation = read?;
    freed.and(synchronized).and(destroyed)?;
    Ok(allocation)
}

/// Reads a pointer attribute into a buffer of the width its value type has
/// (rounded up to 8 bytes, the alignment of the widest): what the table says
/// the driver writes.
fn read_pointer_attribute(ptr: CUdeviceptr, a: &TypedEnumerator) -> Result<Value, Failure> {
    let ty = a.value_type;
    let Some(size) = ty.size else {
        return Ok(Value::NotRead(format!("not read: the bindings have no type {}", ty.c_name)));
    };
    let mut buffer = vec![0u64; size.div_ceil(8)];
    // SAFETY: the buffer is as wide as the attribute's value type.
    check("cuPointerGetAttribute", unsafe {
        cuPointerGetAttribute(buffer.as_mut_ptr().cast(), CUpointer_attribute(a.value as _), ptr)
    })?;
    let bytes: Vec<u8> = buffer.iter().flat_map(|w| w.to_ne_bytes()).take(size).collect();
    let word = |n: usize| bytes[..n].iter().rev().fold(0u64, |v, b| v << 8 | u64::from(*b));
    let handle =
        ty.c_name.ends_with('*') || ty.c_name.contains("ptr") || ty.c_name.starts_with("CU");
    Ok(Value::Read(match (size, ty.signed) {
        (4, Some(true)) => Current::Int(word(4) as u32 as i32),
        (4, _) => Current::Unsigned(word(4) as u32),
        (8, _) if handle => Current::Hex(format!("{:#x}", word(8))),
        (8, _) => Current::U64(word(8)),
        _ => Current::Hex(bytes.iter().map(|b| format!("{b:02x}")).collect()),
    }))
}

/// What reading an attribute gave.
#[derive(Debug)]
pub enum Value {
    Read(Current),
    /// The bindings have no type of the documented name, or it has a size
    /// this report cannot show.
    NotRead(String),
}

/// One attribute's row: the header's data and what was read.
pub fn reading(a: &'static TypedEnumerator, value: Result<Value, Failure>) -> Reading {
    let (current, not_read, error) = match value {
        Ok(Value::Read(v)) => (Some(v), None, None),
        Ok(Value::NotRead(why)) => (None, Some(why), None),
        Err(f) => (None, None, Some(f)),
    };
    let current_decoded = current.as_ref().and_then(|v| match (a.name, a.value_type.shape) {
        (_, Shape::Boolean) => Some(if *v == Current::Unsigned(0) { "no" } else { "yes" }.into()),
        ("CU_POINTER_ATTRIBUTE_MEMORY_TYPE", _) => decoded(v.clone(), "CUmemorytype"),
        ("CU_POINTER_ATTRIBUTE_ALLOWED_HANDLE_TYPES", _) => {
            decoded(v.clone(), "CUmemAllocationHandleType")
        }
        _ => decoded(v.clone(), a.value_type.c_name),
    });
    Reading { declared: declared(a), current, current_decoded, not_read, error }
}

/// Reads one attribute into a buffer of exactly the width of its documented
/// value type, as a C caller would: a 4-byte `int` or enum, an 8-byte `cuuint64_t`.
fn read_pool_attribute(pool: CUmemoryPool, attribute: &TypedEnumerator) -> Result<Value, Failure> {
    let ty = attribute.value_type;
    let raw = CUmemPool_attribute(attribute.value as _);
    match ty.size {
        None => Ok(Value::NotRead(format!("not read: the bindings have no type {}", ty.c_name))),
        // SAFETY (the three reads): the buffer's type has the width of the
        // documented value type.
        Some(4) if ty.c_name == "int" => Ok(Value::Read(Current::Int(unsafe { get(pool, raw) }?))),
        Some(4) => Ok(Value::Read(Current::Unsigned(unsafe { get(pool, raw) }?))),
        Some(8) => Ok(Value::Read(Current::U64(unsafe { get(pool, raw) }?))),
        Some(size) => Ok(Value::NotRead(format!("not read: {} is {size} bytes", ty.c_name))),
    }
}

/// `cuMemPoolGetAttribute` into a buffer of type `T`.
///
/// # Safety
/// `T` is as wide as the value the header documents for `attribute`.
unsafe fn get<T: Default>(
    pool: CUmemoryPool,
    attribute: CUmemPool_attribute,
) -> Result<T, Failure> {
    let mut value = T::default();
    // SAFETY: `value` is as wide as what the driver writes (the caller's promise).
    check("cuMemPoolGetAttribute", unsafe {
        cuMemPoolGetAttribute(pool, attribute, (&mut value as *mut T).cast::<c_void>())
    })?;
    Ok(value)
}

/// The value by name: enum constants, flags, byte sizes.
pub fn decoded(value: Current, c_name: &str) -> Option<String> {
    let enum_value = match value {
        Current::U64(u64::MAX) => return Some("UINT64_MAX".to_owned()),
        Current::U64(v) if c_name == "CUmemAllocationHandleType" => v,
        Current::U64(b) if b >= 1024 => return Some(human_bytes(b)),
        Current::Unsigned(v) => u64::from(v),
        Current::Int(v) => u64::from(v as u32),
        Current::U64(_) | Current::Hex(_) => return None,
    };
    match c_name {
        "CUmemAllocationType" => CUmemAllocationType(enum_value as _).name().map(str::to_owned),
        "CUmemLocationType" => CUmemLocationType(enum_value as _).name().map(str::to_owned),
        "CUmemorytype" => CUmemorytype(enum_value as _).name().map(str::to_owned),
        "CUmemAccess_flags" => CUmemAccess_flags(enum_value as _).name().map(str::to_owned),
        "CUmemAllocationHandleType" => Some(flag_names(enum_value)),
        _ => None,
    }
}

/// `CUmemAllocationHandleType` bit flags by name: `A | B`, `0x..` for bits the
/// header does not name, `NONE`'s name for 0.
pub fn flag_names(value: u64) -> String {
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

/// `33554432` -> `32.0 MiB`.
pub fn human_bytes(bytes: u64) -> String {
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
// Functions and the driver each needs

/// A stream-ordered memory-pool function: `cuMemPool*`, `cuMemAlloc*Async`,
/// `cuMemFreeAsync`, `cuDevice*MemPool`, `cuMem{Get,Set,GetDefault}MemPool`.
fn is_pool_function(name: &str) -> bool {
    let base = name.trim_end_matches("_ptsz").trim_end_matches("_ptds");
    base.starts_with("cuMemPool")
        || (base.starts_with("cuMemAlloc") && base.ends_with("Async"))
        || base == "cuMemFreeAsync"
        || base.ends_with("MemPool")
}

fn functions(driver_version: Option<c_int>) -> Functions {
    Functions {
        since_available: SINCE_AVAILABLE,
        pool_functions: SINCE
            .iter()
            .filter(|(name, _)| is_pool_function(name))
            .map(|&(name, since)| PoolFunction { name, since })
            .collect(),
        driver_lacks: driver_version.filter(|_| SINCE_AVAILABLE).map(driver_lacks),
    }
}

/// What a driver of `version` lacks of the bound functions, by `since`, and
/// the functions where the loader disagrees (found though listed, or missing
/// though not listed).
fn driver_lacks(version: c_int) -> Lacks {
    let names: Vec<&'static str> =
        SINCE.iter().filter(|(_, v)| i64::from(*v) > i64::from(version)).map(|(n, _)| *n).collect();
    let disagree: Vec<&'static str> =
        SINCE.iter().map(|(n, _)| *n).filter(|n| names.contains(n) == loader_has(n)).collect();
    Lacks {
        count: names.len(),
        of: SINCE.len(),
        names,
        loader_agrees: disagree.is_empty(),
        loader_disagrees_on: disagree,
    }
}

/// Whether the driver exports `name`, as the loader sees it.
#[cfg(dynamic_loading)]
fn loader_has(name: &str) -> bool {
    libcuda_sys::dynamic::is_available(name) == Some(true)
}

#[cfg(not(dynamic_loading))]
fn loader_has(name: &str) -> bool {
    !testkit::loaded_symbol(name).is_null()
}
