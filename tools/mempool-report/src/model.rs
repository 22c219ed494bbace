//! The report as data: filled once by `gather`, then printed by `render` as
//! text, or serialized as it is for `--json`. Every value either renderer
//! shows is here, already decoded (enum names, flag names), so the two cannot
//! say different things.

use serde::Serialize;

/// The whole report; its JSON is the `--json` output.
#[derive(Debug, Serialize)]
pub struct Report {
    /// Always `"mempool-report"`: what the JSON object is.
    pub report: &'static str,
    pub bindings: Bindings,
    /// The libcuda this process mapped (Linux, `/proc/self/maps`).
    pub loaded_libcuda: Option<String>,
    pub driver: Driver,
    pub status: Status,
    /// Every `CUmemPool_attribute` the headers document a value type for.
    pub attributes: Vec<Attribute>,
    pub functions: Functions,
    /// One entry a device; empty when there are no live values.
    pub devices: Vec<Device>,
}

/// How libcuda-sys was built.
#[derive(Debug, Serialize)]
pub struct Bindings {
    /// The headers' `CUDA_VERSION`, e.g. `13050`.
    pub cuda_version: u32,
    /// The same as `13.5`.
    pub cuda_version_text: String,
    /// The pregenerated bindings of libcuda-sys, not generated from headers here.
    pub pregenerated: bool,
    /// The directory of the `cuda.h` read; `None` with the pregenerated bindings.
    pub include_dir: Option<String>,
    /// How the headers were found (`LIBCUDA_SYS_INCLUDE_DIR`, `pip wheel`,
    /// ...), or `pregenerated`.
    pub found_by: String,
    /// `driver`, `toolkit-stub`, `generated-stub`, `import-library` or
    /// `dynamic-loading`.
    pub link_kind: String,
    pub per_thread_default_stream: bool,
    pub libcuda_sys_version: &'static str,
}

/// The driver, as `cuDriverGetVersion` answers.
#[derive(Debug, Serialize)]
pub struct Driver {
    pub present: bool,
    pub cuda_version: Option<i32>,
    pub cuda_version_text: Option<String>,
    /// Why there is no version.
    pub error: Option<Failure>,
    /// Why the driver library could not be opened (`dynamic-loading`).
    pub load_error: Option<LoadFailure>,
}

/// Whether the values are live, and the exit status.
#[derive(Debug, Serialize)]
pub struct Status {
    pub live: bool,
    pub exit_code: u8,
    /// The call that ended the report before any device was read.
    pub error: Option<Failure>,
    /// Why there are no live values; `None` for a live report.
    pub reason: Option<String>,
}

/// A driver call that did not return `CUDA_SUCCESS`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Failure {
    pub call: &'static str,
    pub code: u32,
    /// The driver's name for the code, else the header's, else `CUresult N`.
    pub name: String,
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

/// Why the driver library could not be opened (the `dynamic-loading`
/// feature): every call then returns `CUDA_ERROR_SHARED_OBJECT_INIT_FAILED`,
/// which names neither the library nor the cause.
#[derive(Clone, Debug, Serialize)]
pub struct LoadFailure {
    /// The path or name handed to the system loader.
    pub tried: String,
    /// The loader's message.
    pub message: String,
    pub from: LoadFrom,
}

/// Where the name of the library tried came from.
// Only the dynamic-loading mode opens a library by name.
#[cfg_attr(not(dynamic_loading), allow(dead_code))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum LoadFrom {
    #[serde(rename = "LIBCUDA_SYS_DRIVER_PATH")]
    DriverPathVariable,
    #[serde(rename = "default")]
    Default,
}

/// A value read from the driver, or the failure that stands in its place:
/// in JSON the value itself, or `{"error": {...}}`.
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum Read<T> {
    Value(T),
    Error { error: Failure },
}

impl<T> Read<T> {
    pub fn as_result(&self) -> Result<&T, &Failure> {
        match self {
            Read::Value(v) => Ok(v),
            Read::Error { error } => Err(error),
        }
    }
}

impl<T> From<Result<T, Failure>> for Read<T> {
    fn from(r: Result<T, Failure>) -> Self {
        match r {
            Ok(v) => Read::Value(v),
            Err(error) => Read::Error { error },
        }
    }
}

/// How an attribute can be set, derived from the header.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Settable {
    Yes,
    /// Settable, and its description says only to zero (the high watermarks).
    ResetToZeroOnly,
    No,
}

/// A `CUmemPool_attribute` as the headers declare it, with its description.
#[derive(Debug, Serialize)]
pub struct Attribute {
    #[serde(flatten)]
    pub declared: Declared,
    /// Empty with the pregenerated bindings.
    pub description: &'static str,
}

/// What the headers declare of a `CUmemPool_attribute`.
#[derive(Debug, Serialize)]
pub struct Declared {
    pub name: &'static str,
    pub value: i64,
    /// The C type `cuMemPoolGetAttribute` writes.
    pub value_type: &'static str,
    /// Its size in bytes; `None` when the bindings have no type of that name.
    pub size: Option<usize>,
    pub settable: Settable,
    /// The function whose documentation lists the attribute as settable.
    pub setter: Option<&'static str>,
}

/// The memory-pool functions and the driver each needs.
#[derive(Debug, Serialize)]
pub struct Functions {
    /// The headers had `cudaTypedefs.h`, which says which driver each needs.
    pub since_available: bool,
    pub pool_functions: Vec<PoolFunction>,
    /// With a driver version and `since_available`: what that driver lacks.
    pub driver_lacks: Option<Lacks>,
}

#[derive(Debug, Serialize)]
pub struct PoolFunction {
    pub name: &'static str,
    /// The oldest driver (`CUDA_VERSION` form) with the function's ABI.
    pub since: u32,
}

/// What the driver in use lacks of the bound functions, by `since`.
#[derive(Debug, Serialize)]
pub struct Lacks {
    pub count: usize,
    /// How many bound functions there are.
    pub of: usize,
    pub names: Vec<&'static str>,
    pub loader_agrees: bool,
    /// Functions the loader finds though listed as lacking, or misses though not.
    pub loader_disagrees_on: Vec<&'static str>,
}

/// One device, read live.
#[derive(Debug, Serialize)]
pub struct Device {
    pub ordinal: i32,
    pub name: Read<String>,
    /// `major.minor`.
    pub compute_capability: Read<String>,
    /// Bytes.
    pub total_memory: Read<usize>,
    pub memory_pools_supported: Read<bool>,
    /// `None` where the headers predate the attribute.
    pub pool_handle_types: Option<Read<HandleTypes>>,
    /// `None` when the device has no memory pools.
    pub default_pool: Option<Read<Pool>>,
    /// A failure to unbind or release the primary context after reading.
    pub cleanup_error: Option<Failure>,
    /// The first failure that makes this device's report an error (also a
    /// failure to release the primary context after reading).
    pub error: Option<Failure>,
}

/// `CU_DEVICE_ATTRIBUTE_MEMPOOL_SUPPORTED_HANDLE_TYPES`.
#[derive(Debug, Serialize)]
pub struct HandleTypes {
    pub raw: i32,
    /// `CUmemAllocationHandleType` flags by name: `A | B`, unnamed bits as hex.
    pub names: String,
}

/// A device's default memory pool.
#[derive(Debug, Serialize)]
pub struct Pool {
    /// The `CUmemoryPool` handle, `0x...`.
    pub handle: String,
    pub attributes: Vec<Reading>,
    /// The attributes whose reading the driver rejected.
    pub driver_rejects: Vec<&'static str>,
    /// One allocation from the pool, with its pointer attributes.
    pub allocation: Read<Allocation>,
}

/// An allocation from a default pool (`cuMemAllocFromPoolAsync`) and every
/// `CUpointer_attribute` of it, each read into a buffer of its value type's width.
#[derive(Debug, Serialize)]
pub struct Allocation {
    /// The device pointer, `0x...`.
    pub address: String,
    pub bytes: usize,
    pub attributes: Vec<Reading>,
    /// The attributes whose reading the driver rejected.
    pub driver_rejects: Vec<&'static str>,
}

/// One attribute of a default pool (or of an allocation from it), read with
/// the width of its value type.
#[derive(Debug, Serialize)]
pub struct Reading {
    #[serde(flatten)]
    pub declared: Declared,
    /// The value as read (a C `int`, a 4-byte enum or unsigned, or 8 bytes).
    pub current: Option<Current>,
    /// The value by name: enum constants, flags, byte sizes.
    pub current_decoded: Option<String>,
    /// Why the value was not read (a type the bindings lack or cannot show).
    pub not_read: Option<String>,
    /// The driver rejected the read.
    pub error: Option<Failure>,
}

/// A value as the getter wrote it: a plain number in JSON; an address or
/// handle, or a struct's bytes, as a hex string.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Current {
    Int(i32),
    Unsigned(u32),
    U64(u64),
    Hex(String),
}

impl std::fmt::Display for Current {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Current::Int(v) => v.fmt(f),
            Current::Unsigned(v) => v.fmt(f),
            Current::U64(v) => v.fmt(f),
            Current::Hex(v) => v.fmt(f),
        }
    }
}
