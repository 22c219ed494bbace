//! The sentences that are Rust rather than a table: one per memory-pool and
//! pointer attribute, the enums said more of than the common line, and what a
//! driver was measured to refuse.

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
