//! What this crate says that no header does: what each function does and
//! what each versioned ABI changed (`summaries.txt`), what each `CUresult`
//! means (`results.txt`), what every other enumerator means
//! (`enumerators.txt`), what each struct field holds (`fields.txt`), what
//! each `#define` constant means (`constants.txt`), what each untyped
//! parameter takes (`params.txt`), how long each array parameter is
//! (`arrays.txt`), what each group of NVIDIA's reference is for
//! (`groups.txt`), the calling contracts (`contracts.txt`),
//! its own sentences for each attribute enum it says
//! more of than the common lines, the memory-pool and pointer attributes (the
//! pregenerated set carries none of the header's text, and docs.rs renders
//! it), what a driver was measured to refuse, and the facts table of attribute
//! value types with the `cuda.h` line that says each.

/// One sentence per `CU_MEMPOOL_ATTR_*`, in the order of their values.
pub(crate) const POOL_ATTRIBUTES: [(&str, &str); 15] = [
    (
        "CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES",
        "Non-zero (the default): an allocation may take memory that another stream \
         freed, once the allocating stream is ordered after that free (by an event, say).",
    ),
    (
        "CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC",
        "Non-zero (the default): an allocation may take memory whose free has already \
         completed, even when nothing orders the two streams.",
    ),
    (
        "CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES",
        "Non-zero (the default): to reuse memory whose free is still pending, the \
         allocator may make the allocating stream wait for it.",
    ),
    (
        "CU_MEMPOOL_ATTR_RELEASE_THRESHOLD",
        "How many bytes of unused reservation the pool keeps through a synchronization: \
         whenever a stream, an event or the context is synchronized, it returns what it \
         holds above this to the system (0 by default, so it keeps nothing).",
    ),
    (
        "CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT",
        "Bytes the pool has reserved from the system right now, in use or not.",
    ),
    (
        "CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH",
        "The peak of `CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT` since the pool was made \
         or since this value was last set back to 0.",
    ),
    ("CU_MEMPOOL_ATTR_USED_MEM_CURRENT", "Bytes of the pool that live allocations hold right now."),
    (
        "CU_MEMPOOL_ATTR_USED_MEM_HIGH",
        "The peak of `CU_MEMPOOL_ATTR_USED_MEM_CURRENT` since the pool was made or \
         since this value was last set back to 0.",
    ),
    (
        "CU_MEMPOOL_ATTR_ALLOCATION_TYPE",
        "What kind of memory the pool hands out (pinned or managed), as chosen when it \
         was made.",
    ),
    (
        "CU_MEMPOOL_ATTR_EXPORT_HANDLE_TYPES",
        "The OS handle kinds the pool can be shared through with other processes; none \
         (`CU_MEM_HANDLE_TYPE_NONE`) for a pool that was itself imported, which cannot be \
         passed on.",
    ),
    (
        "CU_MEMPOOL_ATTR_LOCATION_ID",
        "The device ordinal or host NUMA node the pool's memory is on; \
         `CU_DEVICE_INVALID` when that place is not visible to this process.",
    ),
    (
        "CU_MEMPOOL_ATTR_LOCATION_TYPE",
        "Where the pool's memory is (a device, the host, a host NUMA node, ...); \
         `CU_MEM_LOCATION_TYPE_INVISIBLE` for an imported pool whose device this process \
         cannot see.",
    ),
    (
        "CU_MEMPOOL_ATTR_MAX_POOL_SIZE",
        "The most bytes the pool may reserve, possibly rounded up from what was asked \
         for at creation; 0 means unlimited.",
    ),
    (
        "CU_MEMPOOL_ATTR_HW_DECOMPRESS_ENABLED",
        "Non-zero when the pool was made for the hardware decompression engine \
         (`CU_MEM_POOL_CREATE_USAGE_HW_DECOMPRESS`).",
    ),
    (
        "CU_MEMPOOL_ATTR_LOCALITY_DOMAIN_ID",
        "For a pool confined to one locality domain of its device, that domain's ID; \
         -1 for a pool that spans the whole device.",
    ),
];

/// This crate's sentence for an enum, where it has one beyond the common one.
pub(crate) const ENUMS: [(&str, &str); 2] = [
    (
        "CUmemPool_attribute_enum",
        "What [`cuMemPoolGetAttribute`] reads and [`cuMemPoolSetAttribute`] writes of a memory \
     pool: its reuse policy, its release threshold, its usage counters and watermarks, and \
     what it was made with. Each attribute has its own value type, which the pointer passed \
     must point to; the table below, [`CUmemPool_attribute::value_type`] and \
     [`VALUE_TYPES`] give it.",
    ),
    (
        "CUpointer_attribute_enum",
        "What [`cuPointerGetAttribute`] and [`cuPointerGetAttributes`] read of an address: \
         where its memory is and how it was allocated, which context, device, pool and \
         mapping it belongs to, and what it can be shared as. The getters take `void *`: \
         each attribute writes its own type, from 4 to 16 bytes, and a buffer of another \
         size is overrun or left partly unwritten (the booleans are 4 bytes, \
         `CU_POINTER_ATTRIBUTE_ALLOWED_HANDLE_TYPES` 8, `CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL` \
         a signed `int`). The table below gives each one's type, size and where that comes \
         from; `tests/gpu_attributes.rs` checks every width on a GPU, for memory from \
         `cuMemAlloc`, a memory pool, pinned host memory and managed memory. \
         [`cuPointerSetAttribute`] sets only `CU_POINTER_ATTRIBUTE_SYNC_MEMOPS`.",
    ),
];

/// Enumerators newer than CUDA 13.0 that a 13.0 driver (580.159.04, on an
/// H200) answers with `CUDA_ERROR_INVALID_VALUE`, as measured by
/// `tests/gpu_mempool.rs`, `attributes_newer_than_the_driver_are_refused`.
pub(crate) const REFUSED_BY_13_0: [&str; 7] = [
    "CU_MEMPOOL_ATTR_ALLOCATION_TYPE",
    "CU_MEMPOOL_ATTR_EXPORT_HANDLE_TYPES",
    "CU_MEMPOOL_ATTR_LOCATION_ID",
    "CU_MEMPOOL_ATTR_LOCATION_TYPE",
    "CU_MEMPOOL_ATTR_MAX_POOL_SIZE",
    "CU_MEMPOOL_ATTR_HW_DECOMPRESS_ENABLED",
    "CU_MEMPOOL_ATTR_LOCALITY_DOMAIN_ID",
];

/// Enumerators whose setter takes 0 alone, though no header says so: driver
/// 580.159.04 (CUDA 13.0, on an H200) answers any other value with
/// `CUDA_ERROR_INVALID_VALUE`, as measured by `tests/gpu_attributes.rs`,
/// `graph_memory_watermarks_are_set_as_the_table_says`.
#[cfg(feature = "generate")]
pub(crate) const RESET_ONLY_MEASURED: [&str; 1] = ["CU_GRAPH_MEM_ATTR_RESERVED_MEM_HIGH"];

/// One sentence per `CU_POINTER_ATTRIBUTE_*`, in the order of their values.
/// What they say a driver answered was measured on an H200 with driver
/// 580.159.04 (CUDA 13.0), for 1 MiB from `cuMemAlloc`, the default pool,
/// `cuMemHostAlloc` and `cuMemAllocManaged`.
pub(crate) const POINTER_ATTRIBUTES: [(&str, &str); 22] = [
    (
        "CU_POINTER_ATTRIBUTE_CONTEXT",
        "The context the memory was allocated or registered in. Null for memory from a \
         memory pool, which belongs to no context.",
    ),
    (
        "CU_POINTER_ATTRIBUTE_MEMORY_TYPE",
        "Where the memory is, as a `CUmemorytype` value in an `unsigned int`: \
         `CU_MEMORYTYPE_DEVICE` (2) for device and managed memory, `CU_MEMORYTYPE_HOST` (1) \
         for pinned host memory.",
    ),
    (
        "CU_POINTER_ATTRIBUTE_DEVICE_POINTER",
        "The address kernels of the current context use for the memory: the pointer \
         itself, except for host memory that has a device address of its own.",
    ),
    (
        "CU_POINTER_ATTRIBUTE_HOST_POINTER",
        "The address the host uses for the memory. Refused (`CUDA_ERROR_INVALID_VALUE`) for \
         device memory from `cuMemAlloc` or a pool, which the host cannot address.",
    ),
    (
        "CU_POINTER_ATTRIBUTE_P2P_TOKENS",
        "The two tokens of the `nv-p2p.h` kernel interface for this memory. Refused for \
         pinned host memory, and by [`cuPointerGetAttributes`] for any memory. Reading it \
         also turns `CU_POINTER_ATTRIBUTE_SYNC_MEMOPS` on for the allocation. The driver \
         writes the struct's 12 bytes of fields, not its 4 bytes of trailing padding.",
    ),
    (
        "CU_POINTER_ATTRIBUTE_SYNC_MEMOPS",
        "Non-zero: synchronous copies and sets on this memory always finish before they \
         return. The one pointer attribute [`cuPointerSetAttribute`] takes, as an \
         `unsigned int`.",
    ),
    (
        "CU_POINTER_ATTRIBUTE_BUFFER_ID",
        "An ID of the allocation, unique in the process and never given again after a free.",
    ),
    ("CU_POINTER_ATTRIBUTE_IS_MANAGED", "Non-zero for managed memory (`cuMemAllocManaged`)."),
    (
        "CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL",
        "The ordinal of the device the memory was allocated on or registered with, as a \
         signed `int` (read it into an `i32`, not a `u32` or a `CUdevice` of another width).",
    ),
    (
        "CU_POINTER_ATTRIBUTE_IS_LEGACY_CUDA_IPC_CAPABLE",
        "Non-zero when the memory can be shared with `cuIpcGetMemHandle`: memory from \
         `cuMemAlloc`; zero for memory from a pool, pinned host and managed memory.",
    ),
    (
        "CU_POINTER_ATTRIBUTE_RANGE_START_ADDR",
        "The start of the address range the pointer is in: the allocation's, or for memory \
         mapped with `cuMemMap`, the reserved range's.",
    ),
    ("CU_POINTER_ATTRIBUTE_RANGE_SIZE", "The size of that address range in bytes."),
    (
        "CU_POINTER_ATTRIBUTE_MAPPED",
        "Non-zero when the pointer's range is mapped to physical memory.",
    ),
    (
        "CU_POINTER_ATTRIBUTE_ALLOWED_HANDLE_TYPES",
        "The OS handle kinds the allocation can be exported as, as `CUmemAllocationHandleType` \
         bits in an 8-byte `unsigned long long`: a 4-byte `CUmemAllocationHandleType` is too \
         small for it. 0 for memory of a pool made without handle types, such as a device's \
         default pool.",
    ),
    (
        "CU_POINTER_ATTRIBUTE_IS_GPU_DIRECT_RDMA_CAPABLE",
        "Non-zero when other PCIe devices can reach the memory through GPUDirect RDMA: memory \
         from `cuMemAlloc`; zero for memory from the default pool, pinned host and managed memory.",
    ),
    (
        "CU_POINTER_ATTRIBUTE_ACCESS_FLAGS",
        "What the current context's device may do with the memory, as a `CUmemAccess_flags` \
         value: `CU_MEM_ACCESS_FLAGS_PROT_READWRITE` (3) for memory it allocated.",
    ),
    (
        "CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE",
        "The memory pool the allocation came from; null for memory no pool gave.",
    ),
    (
        "CU_POINTER_ATTRIBUTE_MAPPING_SIZE",
        "The size of the physical mapping the pointer is in, which is larger than the \
         allocation: 2 MiB for 1 MiB from `cuMemAlloc`, 32 MiB for 1 MiB from the default pool.",
    ),
    ("CU_POINTER_ATTRIBUTE_MAPPING_BASE_ADDR", "The start of that physical mapping."),
    (
        "CU_POINTER_ATTRIBUTE_MEMORY_BLOCK_ID",
        "A process-unique ID of the physical allocation that holds the address.",
    ),
    (
        "CU_POINTER_ATTRIBUTE_IS_HW_DECOMPRESS_CAPABLE",
        "Non-zero when the hardware decompression engine can use the memory.",
    ),
    (
        "CU_POINTER_ATTRIBUTE_LOCALITY_DOMAIN_ORDINAL",
        "The locality domain of its device the allocation is confined to, or -1 where it \
         spans the whole device.",
    ),
];

/// This crate's sentence for an enumerator, where it has one.
pub fn sentence(name: &str) -> Option<&'static str> {
    POOL_ATTRIBUTES.iter().chain(&POINTER_ATTRIBUTES).find(|(n, _)| *n == name).map(|(_, s)| *s)
}

/// `(enumerator, type, shape, evidence, cuda.h line, the words there)`.
const FACTS: &str = include_str!("attribute_facts.txt");

/// One row of the facts table.
pub struct Fact<'a> {
    pub enumerator: &'a str,
    /// A C type, `.member` of the getter's union, or `-`: no value.
    pub ty: &'a str,
    pub shape: &'a str,
    /// `documented`, `measured` or `named`.
    pub evidence: &'a str,
    /// `13.5:15932`: the release's `cuda.h`, and the line.
    pub line: &'a str,
    /// The words on that line that say it.
    pub says: &'a str,
    /// `(release, line)` where each release's `cuda.h` says them, of the
    /// releases whose bindings take the type from this table.
    pub lines: Vec<(&'a str, usize)>,
}

impl Fact<'_> {
    /// The line to cite for bindings of `release` (`13.0`): `(13.0:14172, true)`
    /// where that release's header says it, else the table's own line, `false`.
    pub fn cited(&self, release: &str) -> (String, bool) {
        match self.lines.iter().find(|(r, _)| *r == release) {
            Some((r, n)) => (format!("{r}:{n}"), true),
            None => (self.line.to_string(), false),
        }
    }
}

/// The facts table's rows (the crate's own file: its unit test reads every
/// row), read once.
pub fn facts() -> &'static [Fact<'static>] {
    static ROWS: std::sync::OnceLock<Vec<Fact<'static>>> = std::sync::OnceLock::new();
    ROWS.get_or_init(read_facts)
}

fn read_facts() -> Vec<Fact<'static>> {
    let row = |l: &'static str| {
        let mut f = l.split('\t');
        let mut next = || f.next().unwrap_or_default();
        Fact {
            enumerator: next(),
            ty: next(),
            shape: next(),
            evidence: next(),
            line: next(),
            says: next(),
            lines: next()
                .split(',')
                .filter_map(|l| l.split_once(':'))
                .filter_map(|(r, n)| Some((r, n.parse().ok()?)))
                .collect(),
        }
    };
    FACTS.lines().filter(|l| !l.starts_with('#')).map(row).collect()
}

/// A text table of this crate's, `name<TAB>text` a row, comments left out.
type Table = std::collections::HashMap<&'static str, &'static str>;

fn table(text: &'static str) -> Table {
    text.lines().filter(|l| !l.starts_with('#')).filter_map(|l| l.split_once('\t')).collect()
}

/// What each function does, and what each versioned ABI changed (`summaries.txt`).
const SUMMARIES: &str = include_str!("summaries.txt");

/// The family of a function: its name without an ABI version or a per-thread
/// suffix (`cuMemcpyHtoD_v2_ptds` is `cuMemcpyHtoD`), which its summary is under.
pub fn family(name: &str) -> &str {
    let name = name.strip_suffix("_ptsz").or_else(|| name.strip_suffix("_ptds")).unwrap_or(name);
    match name.rsplit_once("_v") {
        Some((family, n)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => family,
        _ => name,
    }
}

/// `summaries.txt`, read once.
fn summaries() -> &'static Table {
    static ROWS: std::sync::OnceLock<Table> = std::sync::OnceLock::new();
    ROWS.get_or_init(|| table(SUMMARIES))
}

/// This crate's summary of the function `name`, any of its ABIs or variants.
pub fn summary(name: &str) -> Option<&'static str> {
    summaries().get(family(name)).copied()
}

/// What the versioned ABI `name` (`cuCtxCreate_v4`, `cuMemAlloc_v2_ptds`)
/// changed; `None` for a name without a version.
pub fn abi_note(name: &str) -> Option<&'static str> {
    let abi = name.strip_suffix("_ptsz").or_else(|| name.strip_suffix("_ptds")).unwrap_or(name);
    (family(abi) != abi).then(|| summaries().get(abi).copied())?
}

/// What each struct and union field holds (`fields.txt`), under its path
/// (`CUDA_MEMCPY2D_st.srcPitch`).
const FIELDS: &str = include_str!("fields.txt");

/// This crate's line of a field, by its path.
pub fn field(path: &str) -> Option<&'static str> {
    static ROWS: std::sync::OnceLock<Table> = std::sync::OnceLock::new();
    ROWS.get_or_init(|| table(FIELDS)).get(path).copied()
}

/// What each enumerator means (`enumerators.txt`): every enumerator of every
/// release and interop module but the `CUresult` codes (`results.txt`) and
/// the pool and pointer attributes (their sentences above).
const ENUMERATORS: &str = include_str!("enumerators.txt");

/// The line of an enumerator in `enumerators.txt`.
pub fn enumerator_row(name: &str) -> Option<&'static str> {
    static ROWS: std::sync::OnceLock<Table> = std::sync::OnceLock::new();
    ROWS.get_or_init(|| table(ENUMERATORS)).get(name).copied()
}

/// This crate's line of an enumerator, from whichever of its three homes has it.
pub fn enumerator(name: &str) -> Option<&'static str> {
    enumerator_row(name)
        .or_else(|| sentence(name))
        .or_else(|| result(name).map(|(meaning, _)| meaning))
}

/// What each `#define` constant means (`constants.txt`).
const CONSTANTS: &str = include_str!("constants.txt");

/// This crate's line of a `#define` constant.
pub fn constant(name: &str) -> Option<&'static str> {
    static ROWS: std::sync::OnceLock<Table> = std::sync::OnceLock::new();
    ROWS.get_or_init(|| table(CONSTANTS)).get(name).copied()
}

/// The calling contracts (`contracts.txt`): paragraphs of a function family,
/// a struct or an enumerator, several to an item.
const CONTRACTS: &str = include_str!("contracts.txt");

/// This crate's paragraphs of the calling contract of `item`, in order.
pub fn contracts(item: &str) -> impl Iterator<Item = &'static str> + '_ {
    CONTRACTS
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| l.split_once('\t'))
        .filter(move |(name, _)| *name == item)
        .map(|(_, text)| text)
}

/// What C leaves untyped in the functions' parameters (`params.txt`).
const PARAMS: &str = include_str!("params.txt");

/// One row of `params.txt`: a parameter of a function family.
pub struct Param {
    pub function: &'static str,
    pub parameter: &'static str,
    /// `bits`, `one`, `zero` (integers); `in`, `out`, `inout`, `slot`, `opaque` (pointers).
    pub kind: &'static str,
    /// The enum or `PREFIX_*` family an integer takes, or the type a pointer
    /// points to; `-` for none.
    pub takes: &'static str,
    pub text: &'static str,
}

impl Param {
    /// An integer's enum or family, where it names one.
    pub fn family(&self) -> Option<&'static str> {
        (["bits", "one"].contains(&self.kind) && self.takes != "-").then_some(self.takes)
    }
}

/// Every row of `params.txt`, read once.
pub fn params() -> &'static [Param] {
    static ROWS: std::sync::OnceLock<Vec<Param>> = std::sync::OnceLock::new();
    ROWS.get_or_init(|| {
        PARAMS
            .lines()
            .filter(|l| !l.starts_with('#'))
            .filter_map(|l| {
                let mut f = l.splitn(5, '\t');
                Some(Param {
                    function: f.next()?,
                    parameter: f.next()?,
                    kind: f.next()?,
                    takes: f.next()?,
                    text: f.next()?,
                })
            })
            .collect()
    })
}

/// Whether a parameter is one `params.txt` must have a row for: a `void *` or
/// `void **` one, or an integer flags or mode parameter (or pointer to one),
/// by its name and its Rust type (`*mut ::core::ffi::c_void`, `c_uint`).
pub fn untyped(name: &str, ty: &str) -> bool {
    let ty: String = ty.split_whitespace().collect();
    if ty.contains("c_void") {
        return true;
    }
    let lower = name.to_ascii_lowercase();
    let integer = ty.trim_start_matches("*mut").trim_start_matches("*const");
    let integer = integer.rsplit("::").next().unwrap_or(integer);
    let integers = ["c_uint", "c_int", "c_ulonglong", "cuuint64_t", "cuuint32_t", "u32", "u64"];
    (lower.contains("flag") || lower.contains("mode")) && integers.contains(&integer)
}

/// The row of parameter `parameter` of the function `name` (any ABI of its family).
pub fn param(name: &str, parameter: &str) -> Option<&'static Param> {
    let family = family(name);
    params().iter().find(|p| p.function == family && p.parameter == parameter)
}

/// Each group of NVIDIA's reference: our title, and what its functions are for (`groups.txt`).
const GROUPS: &str = include_str!("groups.txt");

/// `(title, line)` of the group `id` (`CUDA_MALLOC_ASYNC`): our row, or for a
/// group newer than the table (headers of a newer release) its ID and no line.
pub fn group(id: &str) -> (&str, &'static str) {
    group_row(id).unwrap_or((id, ""))
}

/// The row of the group `id` in `groups.txt`.
pub fn group_row(id: &str) -> Option<(&'static str, &'static str)> {
    static ROWS: std::sync::OnceLock<Table> = std::sync::OnceLock::new();
    ROWS.get_or_init(|| table(GROUPS)).get(id).and_then(|text| text.split_once('\t'))
}

/// Every array parameter, with its length (`arrays.txt`).
const ARRAYS: &str = include_str!("arrays.txt");

/// One row of `arrays.txt`: an array parameter of a function family.
pub struct Array {
    pub function: &'static str,
    pub parameter: &'static str,
    /// Its element count: an expression of the other parameters, or words.
    pub count: &'static str,
    pub text: &'static str,
}

impl Array {
    /// Its length as the docs write it: "`tensorRank - 1` elements", or the
    /// words where no parameter gives it.
    pub fn length(&self) -> String {
        let words = self.count.contains("terminated") || self.count.starts_with("the ");
        match words {
            true => self.count.to_string(),
            false => format!("`{}` elements", self.count),
        }
    }
}

/// Every row of `arrays.txt`, read once.
pub fn arrays() -> &'static [Array] {
    static ROWS: std::sync::OnceLock<Vec<Array>> = std::sync::OnceLock::new();
    ROWS.get_or_init(|| {
        ARRAYS
            .lines()
            .filter(|l| !l.starts_with('#'))
            .filter_map(|l| {
                let mut f = l.splitn(4, '\t');
                Some(Array {
                    function: f.next()?,
                    parameter: f.next()?,
                    count: f.next()?,
                    text: f.next()?,
                })
            })
            .collect()
    })
}

/// The row of the array parameter `parameter` of the function `name` (any ABI of its family).
pub fn array(name: &str, parameter: &str) -> Option<&'static Array> {
    type Index = std::collections::HashMap<(&'static str, &'static str), &'static Array>;
    static INDEX: std::sync::OnceLock<Index> = std::sync::OnceLock::new();
    let index =
        INDEX.get_or_init(|| arrays().iter().map(|a| ((a.function, a.parameter), a)).collect());
    index.get(&(family(name), parameter)).copied()
}

/// What each `CUresult` means and what a caller does about it (`results.txt`).
const RESULTS: &str = include_str!("results.txt");

/// `(meaning, what to do)` of the `CUresult` enumerator `name`.
pub fn result(name: &str) -> Option<(&'static str, &'static str)> {
    static ROWS: std::sync::OnceLock<Table> = std::sync::OnceLock::new();
    ROWS.get_or_init(|| table(RESULTS)).get(name).and_then(|text| text.split_once('\t'))
}

/// NVIDIA's doxygen commands of its own in `cuda.h` (their text is in NVIDIA's
/// doxygen setup, not in the header), each as a note of this crate's, with a
/// link to NVIDIA's page on it where there is one.
#[cfg(feature = "generate")]
pub(crate) const DOXYGEN_NOTES: [(&str, &str); 9] = [
    ("notefnerr", "Note: it may also return the error of earlier asynchronous work."),
    (
        "note_graph_thread_safety",
        "Note: graph objects are not thread-safe: one graph must not be used from two threads \
         at once ([NVIDIA's notes](https://docs.nvidia.com/cuda/cuda-driver-api/graphs-thread-safety.html)).",
    ),
    (
        "note_null_stream",
        "Note: a null stream follows the default stream's rules ([NVIDIA's notes on stream \
         synchronization](https://docs.nvidia.com/cuda/cuda-driver-api/stream-sync-behavior.html)).",
    ),
    (
        "note_sync",
        "Note: for most uses it returns only once its work is done ([NVIDIA's notes on API \
         synchronization](https://docs.nvidia.com/cuda/cuda-driver-api/api-sync-behavior.html)).",
    ),
    (
        "note_async",
        "Note: for most uses it returns before its work is done ([NVIDIA's notes on API \
         synchronization](https://docs.nvidia.com/cuda/cuda-driver-api/api-sync-behavior.html)).",
    ),
    (
        "note_memset",
        "Note: when a memset returns before it is done: [NVIDIA's notes on API \
         synchronization](https://docs.nvidia.com/cuda/cuda-driver-api/api-sync-behavior.html).",
    ),
    (
        "note_memcpy",
        "Note: when a copy returns before it is done: [NVIDIA's notes on API \
         synchronization](https://docs.nvidia.com/cuda/cuda-driver-api/api-sync-behavior.html).",
    ),
    (
        "note_version_mixing",
        "Note: what may be mixed across releases: [NVIDIA's version mixing \
         rules](https://docs.nvidia.com/cuda/cuda-driver-api/version-mixing-rules.html).",
    ),
    ("note_destroy_ub", "Note: destroying it while work still uses it is undefined behaviour."),
];
