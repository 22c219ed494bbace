//! Stream-ordered memory pools (`cuMemPool*`, `cuMemAllocFromPoolAsync`) on a
//! real driver: attribute value types, accounting, the release threshold, pool
//! limits, a device's current pool, cross-stream reuse, IPC export/import and
//! peer access. Each test checks what the driver does, not only that it
//! returned `CUDA_SUCCESS`.
//!
//! Without a usable driver (the stand-in libcuda, no device, a driver too old)
//! every test prints `skipped: <test>: <reason>` and passes. The tests take one
//! lock, so process-wide state (a device's current pool, the default pool's
//! attributes) is never seen half-changed by another test, and each one puts
//! back what it changed, also when it fails.

#[macro_use]
#[path = "common/gpu.rs"]
mod gpu;

use gpu::{attribute, cleanup, device, name, visible, Gpu, Primary, SUCCESS};
use libcuda_sys::*;
use std::collections::BTreeMap;
use std::ffi::{c_int, c_uint, c_void};
use std::io::Write;
use std::ptr::null_mut;

const MIB: usize = 1 << 20;
/// Size of the allocations whose accounting the tests watch.
const N: usize = 64 * MIB;

type Attr = CUmemPool_attribute;
const FOLLOW: Attr = Attr::CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES;
const OPPORTUNISTIC: Attr = Attr::CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC;
const INTERNAL: Attr = Attr::CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES;
const THRESHOLD: Attr = Attr::CU_MEMPOOL_ATTR_RELEASE_THRESHOLD;
const RESERVED: Attr = Attr::CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT;
const RESERVED_HIGH: Attr = Attr::CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH;
const USED: Attr = Attr::CU_MEMPOOL_ATTR_USED_MEM_CURRENT;
const USED_HIGH: Attr = Attr::CU_MEMPOOL_ATTR_USED_MEM_HIGH;

const PINNED: CUmemAllocationType = CUmemAllocationType::CU_MEM_ALLOCATION_TYPE_PINNED;
const ON_DEVICE: CUmemLocationType = CUmemLocationType::CU_MEM_LOCATION_TYPE_DEVICE;
const POSIX_FD: CUmemAllocationHandleType =
    CUmemAllocationHandleType::CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
const READ_WRITE: CUmemAccess_flags = CUmemAccess_flags::CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
const NO_ACCESS: CUmemAccess_flags = CUmemAccess_flags::CU_MEM_ACCESS_FLAGS_PROT_NONE;

// ---------------------------------------------------------------------------
// Driver, device, context

/// Device 0 with its context current (`gpu::gpu`), where it has memory pools.
fn gpu() -> Option<Gpu> {
    let gpu = gpu::gpu()?;
    if attribute(gpu.dev, CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED) == 0 {
        testkit::skip_gpu("device 0 does not support memory pools");
        return None;
    }
    Some(gpu)
}

fn default_pool(dev: CUdevice) -> CUmemoryPool {
    let mut pool = null_mut();
    ck!(cuDeviceGetDefaultMemPool(&mut pool, dev));
    pool
}

fn current_pool(dev: CUdevice) -> CUmemoryPool {
    let mut pool = null_mut();
    ck!(cuDeviceGetMemPool(&mut pool, dev));
    pool
}

// ---------------------------------------------------------------------------
// Pools, streams, events, attributes

/// Device `dev` as a memory location, through the accessor that reaches `id`
/// in every release (a field up to 13.1, in an anonymous union from 13.2).
fn on_device(dev: CUdevice) -> CUmemLocation {
    let mut at = CUmemLocation { type_: ON_DEVICE, ..Default::default() };
    at.set_id(dev);
    assert_eq!(at.id(), dev);
    at
}

fn props(dev: CUdevice) -> CUmemPoolProps {
    CUmemPoolProps { allocType: PINNED, location: on_device(dev), ..Default::default() }
}

/// An explicit pool; destroyed on drop.
struct Pool(CUmemoryPool);

impl Pool {
    fn new(props: &CUmemPoolProps) -> Pool {
        let mut pool = null_mut();
        ck!(cuMemPoolCreate(&mut pool, props));
        Pool(pool)
    }

    fn on(dev: CUdevice) -> Pool {
        Pool::new(&props(dev))
    }

    /// `cuMemPoolDestroy` now, returning what it said.
    fn destroy(self) -> CUresult {
        let r = unsafe { cuMemPoolDestroy(self.0) };
        std::mem::forget(self);
        r
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        cleanup("cuMemPoolDestroy", unsafe { cuMemPoolDestroy(self.0) });
    }
}

/// A non-blocking stream; destroyed on drop.
struct Stream(CUstream);

impl Stream {
    fn new() -> Stream {
        let mut s = null_mut();
        ck!(cuStreamCreate(&mut s, CUstream_flags::CU_STREAM_NON_BLOCKING.0));
        Stream(s)
    }

    fn sync(&self) {
        ck!(cuStreamSynchronize(self.0));
    }
}

impl Drop for Stream {
    fn drop(&mut self) {
        cleanup("cuStreamDestroy", unsafe { cuStreamDestroy(self.0) });
    }
}

struct Event(CUevent);

impl Event {
    fn new() -> Event {
        let mut e = null_mut();
        ck!(cuEventCreate(&mut e, CUevent_flags::CU_EVENT_DISABLE_TIMING.0));
        Event(e)
    }
}

impl Drop for Event {
    fn drop(&mut self) {
        cleanup("cuEventDestroy", unsafe { cuEventDestroy(self.0) });
    }
}

fn alloc(pool: CUmemoryPool, size: usize, s: &Stream) -> Result<CUdeviceptr, CUresult> {
    let mut p = 0;
    match unsafe { cuMemAllocFromPoolAsync(&mut p, size, pool, s.0) } {
        SUCCESS => Ok(p),
        e => Err(e),
    }
}

fn must_alloc(pool: CUmemoryPool, size: usize, s: &Stream) -> CUdeviceptr {
    alloc(pool, size, s)
        .unwrap_or_else(|e| panic!("cuMemAllocFromPoolAsync({size}) -> {}", name(e)))
}

fn free(p: CUdeviceptr, s: &Stream) {
    ck!(cuMemFreeAsync(p, s.0));
}

fn get_u64(pool: CUmemoryPool, attr: Attr) -> u64 {
    let mut v: u64 = 0;
    ck!(cuMemPoolGetAttribute(pool, attr, (&mut v as *mut u64).cast()));
    v
}

fn get_int(pool: CUmemoryPool, attr: Attr) -> c_int {
    let mut v: c_int = 0;
    ck!(cuMemPoolGetAttribute(pool, attr, (&mut v as *mut c_int).cast()));
    v
}

fn set_u64(pool: CUmemoryPool, attr: Attr, mut v: u64) -> CUresult {
    unsafe { cuMemPoolSetAttribute(pool, attr, (&mut v as *mut u64).cast()) }
}

fn set_int(pool: CUmemoryPool, attr: Attr, mut v: c_int) -> CUresult {
    unsafe { cuMemPoolSetAttribute(pool, attr, (&mut v as *mut c_int).cast()) }
}

/// Puts an attribute back to a value on drop.
enum Restore {
    Int(CUmemoryPool, Attr, c_int),
    U64(CUmemoryPool, Attr, u64),
}

impl Drop for Restore {
    fn drop(&mut self) {
        match *self {
            Restore::Int(pool, attr, v) => cleanup(attr_name(attr), set_int(pool, attr, v)),
            Restore::U64(pool, attr, v) => cleanup(attr_name(attr), set_u64(pool, attr, v)),
        }
    }
}

/// Puts a device's current pool back on drop.
struct RestoreDevicePool(CUdevice, CUmemoryPool);

impl Drop for RestoreDevicePool {
    fn drop(&mut self) {
        cleanup("cuDeviceSetMemPool (restore)", unsafe { cuDeviceSetMemPool(self.0, self.1) });
    }
}

/// Every `CU_MEMPOOL_ATTR_*` the header declares, with the value type its
/// documentation gives: the generated table (`VALUE_TYPES`), which
/// `tests/mempool_constants.rs` checks against NVIDIA's documented types.
fn declared_attributes() -> Vec<(Attr, &'static str, ValueType)> {
    VALUE_TYPES
        .iter()
        .filter(|e| e.enumeration == "CUmemPool_attribute_enum")
        .map(|e| (CUmemPool_attribute_enum(e.value as _), e.name, e.value_type))
        .collect()
}

/// The buffer size a value type needs (every pool attribute's type is bound).
fn size(ty: ValueType) -> usize {
    ty.size.expect("a bound value type")
}

fn attr_name(attr: Attr) -> &'static str {
    declared_attributes().into_iter().find(|a| a.0 == attr).map_or("CU_MEMPOOL_ATTR_?", |a| a.1)
}

// ---------------------------------------------------------------------------
// Tests

#[test]
fn default_pool_attributes_of_every_device() {
    const TEST: &str = "default_pool_attributes_of_every_device";
    let Some(gpu) = gpu() else { return };
    let attrs = declared_attributes();
    for (i, (attr, n, _)) in attrs.iter().enumerate() {
        assert_eq!(attr.0 as usize, i + 1, "{n} is not the {}th enumerator", i + 1);
    }
    const FILL: u64 = 0xAAAA_AAAA_AAAA_AAAA;
    let mut rejected = Vec::new();
    for ordinal in 0..gpu.devices {
        let dev = device(ordinal);
        if attribute(dev, CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED) == 0 {
            println!("device {ordinal}: no memory pool support");
            continue;
        }
        let pool = default_pool(dev);
        let mut values = BTreeMap::new();
        for &(attr, n, ty) in &attrs {
            let mut buf = [FILL];
            let r = unsafe { cuMemPoolGetAttribute(pool, attr, buf.as_mut_ptr().cast()) };
            if r != SUCCESS {
                println!("device {ordinal}: {n} ({}, {}): error {}", attr.0, ty.c_name, name(r));
                rejected.push(format!("{n} ({}) on device {ordinal}: {}", attr.0, name(r)));
                continue;
            }
            let bytes = buf[0].to_ne_bytes();
            let low = u32::from_ne_bytes(bytes[..4].try_into().unwrap());
            let upper_kept = bytes[4..] == FILL.to_ne_bytes()[4..];
            let shown = match ty.c_name {
                "cuuint64_t" => format!("{} ({:.1} MiB)", buf[0], buf[0] as f64 / MIB as f64),
                "int" => format!("{}", low as c_int),
                _ => format!("{low}"),
            };
            let width = match (size(ty), upper_kept) {
                (8, _) => "",
                (_, true) => ", wrote 4 bytes",
                (_, false) => ", WROTE PAST 4 BYTES",
            };
            println!("device {ordinal}: {n} ({}, {}) = {shown}{width}", attr.0, ty.c_name);
            if size(ty) == 4 {
                assert!(
                    upper_kept,
                    "{n} is an int, yet the driver wrote {:#018x} into an 8-byte buffer",
                    buf[0]
                );
            }
            values.insert(attr.0, if size(ty) == 4 { u64::from(low) } else { buf[0] });
        }
        for (attr, n, _) in &attrs[..8] {
            assert!(values.contains_key(&attr.0), "device {ordinal}: the driver rejects {n}");
        }
        // Documented defaults, and what current and high-water values imply.
        for attr in [FOLLOW, OPPORTUNISTIC, INTERNAL] {
            assert_eq!(
                values[&attr.0],
                1,
                "device {ordinal}: {} is documented as enabled by default",
                attr_name(attr)
            );
        }
        assert_eq!(
            values[&THRESHOLD.0], 0,
            "device {ordinal}: the release threshold is documented as 0 by default"
        );
        assert!(
            values[&RESERVED_HIGH.0] >= values[&RESERVED.0],
            "device {ordinal}: reserved high < current"
        );
        assert!(values[&USED_HIGH.0] >= values[&USED.0], "device {ordinal}: used high < current");
        assert!(values[&RESERVED.0] >= values[&USED.0], "device {ordinal}: used > reserved");
        #[cfg(cuda_13_2)]
        {
            let check = |attr: Attr, want: u64, what: &str| {
                if let Some(v) = values.get(&attr.0) {
                    assert_eq!(
                        *v,
                        want,
                        "device {ordinal}: {} of a default pool: {what}",
                        attr_name(attr)
                    );
                }
            };
            check(Attr::CU_MEMPOOL_ATTR_ALLOCATION_TYPE, PINNED.0.into(), "pinned");
            check(Attr::CU_MEMPOOL_ATTR_LOCATION_TYPE, ON_DEVICE.0.into(), "a device");
            check(Attr::CU_MEMPOOL_ATTR_LOCATION_ID, ordinal as u64, "the device's ordinal");
        }
    }
    let list = if rejected.is_empty() { "none".to_string() } else { rejected.join(", ") };
    visible(&format!("{TEST}: driver rejects: {list}"));
}

#[test]
fn settable_attributes_round_trip() {
    let Some(gpu) = gpu() else { return };
    let explicit = Pool::on(gpu.dev);
    for (label, pool) in [("default pool", default_pool(gpu.dev)), ("explicit pool", explicit.0)] {
        for attr in [FOLLOW, OPPORTUNISTIC, INTERNAL] {
            let n = attr_name(attr);
            assert_eq!(get_int(pool, attr), 1, "{label}: {n} is documented as enabled by default");
            let _restore = Restore::Int(pool, attr, 1);
            ck!(cuMemPoolSetAttribute(pool, attr, (&mut 0 as *mut c_int).cast()));
            assert_eq!(get_int(pool, attr), 0, "{label}: {n} set to 0");
            ck!(cuMemPoolSetAttribute(pool, attr, (&mut 1 as *mut c_int).cast()));
            assert_eq!(get_int(pool, attr), 1, "{label}: {n} set back to 1");
        }
        assert_eq!(
            get_u64(pool, THRESHOLD),
            0,
            "{label}: the release threshold is documented as 0 by default"
        );
        {
            let _restore = Restore::U64(pool, THRESHOLD, 0);
            // Above 4 GiB too, so a 4-byte write would show.
            for v in [N as u64, (5 << 32) | 1, u64::MAX, 0] {
                assert_eq!(
                    set_u64(pool, THRESHOLD, v),
                    SUCCESS,
                    "{label}: set the release threshold to {v}"
                );
                assert_eq!(get_u64(pool, THRESHOLD), v, "{label}: release threshold read back");
            }
        }
        for attr in [RESERVED, USED] {
            let before = get_u64(pool, attr);
            let r = set_u64(pool, attr, 0);
            println!("{label}: set {} = 0 -> {}", attr_name(attr), name(r));
            assert_eq!(
                r,
                CUresult::CUDA_ERROR_INVALID_VALUE,
                "{label}: {} is read-only",
                attr_name(attr)
            );
            assert_eq!(
                get_u64(pool, attr),
                before,
                "{label}: {} changed by a failed set",
                attr_name(attr)
            );
        }
        for attr in [RESERVED_HIGH, USED_HIGH] {
            let r = set_u64(pool, attr, MIB as u64);
            println!("{label}: set {} = 1 MiB -> {}", attr_name(attr), name(r));
            assert_eq!(
                r,
                CUresult::CUDA_ERROR_INVALID_VALUE,
                "{label}: {} can only be reset to 0",
                attr_name(attr)
            );
            assert_eq!(set_u64(pool, attr, 0), SUCCESS, "{label}: reset {} to 0", attr_name(attr));
        }
    }
    // A reset lowers a high watermark to the current value.
    let s = Stream::new();
    let p = must_alloc(explicit.0, 2 * MIB, &s);
    s.sync();
    free(p, &s);
    s.sync();
    assert!(
        get_u64(explicit.0, USED_HIGH) >= 2 * MIB as u64,
        "used high watermark after a 2 MiB allocation"
    );
    assert!(
        get_u64(explicit.0, RESERVED_HIGH) >= 2 * MIB as u64,
        "reserved high watermark after a 2 MiB allocation"
    );
    for (high, current) in [(USED_HIGH, USED), (RESERVED_HIGH, RESERVED)] {
        ck!(cuMemPoolSetAttribute(explicit.0, high, (&mut 0u64 as *mut u64).cast()));
        assert_eq!(
            get_u64(explicit.0, high),
            get_u64(explicit.0, current),
            "{} after reset",
            attr_name(high)
        );
    }
}

/// The attributes not in every release's headers, by value (bindings of an
/// older release have no constant for them), with the release that added them
/// (the crate docs say the same, from `pregenerated/items.txt`): a driver of an
/// older release refuses them, a newer one answers.
#[test]
fn attributes_newer_than_the_driver_are_refused() {
    const NEWER: [(u32, &str, c_int); 7] = [
        (9, "CU_MEMPOOL_ATTR_ALLOCATION_TYPE", 13020),
        (10, "CU_MEMPOOL_ATTR_EXPORT_HANDLE_TYPES", 13020),
        (11, "CU_MEMPOOL_ATTR_LOCATION_ID", 13020),
        (12, "CU_MEMPOOL_ATTR_LOCATION_TYPE", 13020),
        (13, "CU_MEMPOOL_ATTR_MAX_POOL_SIZE", 13020),
        (14, "CU_MEMPOOL_ATTR_HW_DECOMPRESS_ENABLED", 13020),
        (15, "CU_MEMPOOL_ATTR_LOCALITY_DOMAIN_ID", 13040),
    ];
    let Some(gpu) = gpu() else { return };
    let mut driver = 0;
    ck!(cuDriverGetVersion(&mut driver));
    let pool = default_pool(gpu.dev);
    for (value, attr, since) in NEWER {
        // Room for the widest value type (cuuint64_t).
        let mut v = 0u64;
        let r = unsafe {
            cuMemPoolGetAttribute(
                pool,
                CUmemPool_attribute_enum(value),
                (&mut v as *mut u64).cast(),
            )
        };
        visible(&format!("{attr} ({value}) on a driver of CUDA {driver}: {}", name(r)));
        if driver < since {
            assert_eq!(
                r,
                CUresult::CUDA_ERROR_INVALID_VALUE,
                "{attr} on a driver older than {since}"
            );
        } else {
            assert_eq!(r, SUCCESS, "{attr} on a driver of {since} or newer");
        }
    }
}

#[test]
fn used_and_reserved_memory_accounting() {
    let Some(gpu) = gpu() else { return };
    let pool = Pool::on(gpu.dev);
    let s = Stream::new();
    let used0 = get_u64(pool.0, USED);
    let p = must_alloc(pool.0, N, &s);
    s.sync();
    let (used1, reserved1) = (get_u64(pool.0, USED), get_u64(pool.0, RESERVED));
    println!("after allocating {N}: used {used0} -> {used1}, reserved {reserved1}");
    assert!(used1 >= used0 + N as u64, "used grew by {} < {N}", used1 - used0);
    assert!(reserved1 >= used1, "reserved {reserved1} < used {used1}");
    let high1 = get_u64(pool.0, USED_HIGH);
    assert!(high1 >= used1, "used high {high1} < used {used1}");
    free(p, &s);
    s.sync();
    let used2 = get_u64(pool.0, USED);
    println!(
        "after freeing: used {used2}, used high {}, reserved {}",
        get_u64(pool.0, USED_HIGH),
        get_u64(pool.0, RESERVED)
    );
    assert_eq!(used2, used0, "used after the free");
    assert_eq!(get_u64(pool.0, USED_HIGH), high1, "used high keeps the peak");
    assert!(get_u64(pool.0, RESERVED_HIGH) >= reserved1, "reserved high keeps the peak");
    ck!(cuMemPoolSetAttribute(pool.0, USED_HIGH, (&mut 0u64 as *mut u64).cast()));
    assert_eq!(get_u64(pool.0, USED_HIGH), used2, "used high after a reset");
    ck!(cuMemPoolSetAttribute(pool.0, RESERVED_HIGH, (&mut 0u64 as *mut u64).cast()));
    assert_eq!(
        get_u64(pool.0, RESERVED_HIGH),
        get_u64(pool.0, RESERVED),
        "reserved high after a reset"
    );
}

#[test]
fn release_threshold_and_trim() {
    let Some(gpu) = gpu() else { return };
    let pool = Pool::on(gpu.dev);
    let s = Stream::new();
    assert_eq!(get_u64(pool.0, THRESHOLD), 0, "documented default");
    let p = must_alloc(pool.0, N, &s);
    s.sync();
    assert!(get_u64(pool.0, RESERVED) >= N as u64);
    free(p, &s);
    s.sync();
    let after = get_u64(pool.0, RESERVED);
    println!("threshold 0: reserved after free + synchronize: {after}");
    assert_eq!(after, 0, "threshold 0: the synchronize releases everything");

    assert_eq!(set_u64(pool.0, THRESHOLD, u64::MAX), SUCCESS);
    let p = must_alloc(pool.0, N, &s);
    s.sync();
    free(p, &s);
    s.sync();
    ck!(cuCtxSynchronize());
    s.sync();
    let kept = get_u64(pool.0, RESERVED);
    println!("threshold u64::MAX: reserved after free + synchronizes: {kept}");
    assert!(kept >= N as u64, "threshold u64::MAX: reserved {kept} < {N}");
    ck!(cuMemPoolTrimTo(pool.0, 0));
    let trimmed = get_u64(pool.0, RESERVED);
    println!("after cuMemPoolTrimTo(pool, 0): reserved {trimmed}");
    assert_eq!(trimmed, 0, "cuMemPoolTrimTo(pool, 0) releases every unused byte");
}

// Listed as ignored, with the reason, where the headers predate the field.
#[cfg_attr(not(cuda_12_2), ignore = "CUmemPoolProps has no maxSize before CUDA 12.2")]
#[test]
fn max_pool_size_limits_allocations() {
    #[cfg(cuda_12_2)]
    max_pool_size_limits_allocations_12_2();
}

#[cfg(cuda_12_2)]
fn max_pool_size_limits_allocations_12_2() {
    let Some(gpu) = gpu() else { return };
    let s = Stream::new();
    let limited = Pool::new(&CUmemPoolProps { maxSize: 32 * MIB, ..props(gpu.dev) });
    let r = alloc(limited.0, N, &s);
    println!("64 MiB from a 32 MiB pool -> {:?}", r.map_err(name));
    assert_eq!(r, Err(CUresult::CUDA_ERROR_OUT_OF_MEMORY), "64 MiB from a pool of maxSize 32 MiB");
    let p = must_alloc(limited.0, 16 * MIB, &s);
    free(p, &s);
    s.sync();
    #[cfg(cuda_13_2)]
    {
        let mut v = 0u64;
        let r = unsafe {
            cuMemPoolGetAttribute(
                limited.0,
                Attr::CU_MEMPOOL_ATTR_MAX_POOL_SIZE,
                (&mut v as *mut u64).cast(),
            )
        };
        println!("CU_MEMPOOL_ATTR_MAX_POOL_SIZE of the 32 MiB pool: {v} ({})", name(r));
        let mut driver = 0;
        assert_eq!(unsafe { cuDriverGetVersion(&mut driver) }, SUCCESS);
        if r == SUCCESS {
            assert!(v >= 32 * MIB as u64, "max pool size below what was asked for");
        } else if driver < 13020 {
            // The attribute is newer than the driver: the limit itself was checked above.
            testkit::skip_gpu(&format!(
                "reading CU_MEMPOOL_ATTR_MAX_POOL_SIZE: the driver supports CUDA {driver}, \
                     older than the attribute (13020), and returns {}",
                name(r)
            ));
        } else {
            panic!("CU_MEMPOOL_ATTR_MAX_POOL_SIZE: {}", name(r));
        }
    }
}

/// cuDeviceSetMemPool makes an explicit pool current: cuDeviceGetMemPool
/// returns it and cuMemAllocAsync takes from it, not from the default pool,
/// until the default is set back.
#[test]
fn current_pool_serves_alloc_async() {
    let Some(gpu) = gpu() else { return };
    let s = Stream::new();
    let default = default_pool(gpu.dev);
    assert_eq!(current_pool(gpu.dev), default, "the current pool starts as the default pool");
    let pool = Pool::on(gpu.dev);
    {
        let _restore = RestoreDevicePool(gpu.dev, default);
        ck!(cuDeviceSetMemPool(gpu.dev, pool.0));
        assert_eq!(current_pool(gpu.dev), pool.0, "cuDeviceGetMemPool after cuDeviceSetMemPool");
        let (used, default_used) = (get_u64(pool.0, USED), get_u64(default, USED));
        let mut p = 0;
        ck!(cuMemAllocAsync(&mut p, 4 * MIB, s.0));
        s.sync();
        assert!(
            get_u64(pool.0, USED) >= used + 4 * MIB as u64,
            "cuMemAllocAsync did not take from the current pool"
        );
        assert_eq!(
            get_u64(default, USED),
            default_used,
            "cuMemAllocAsync took from the default pool"
        );
        free(p, &s);
        s.sync();
    }
    assert_eq!(current_pool(gpu.dev), default, "the default pool is current again");
    println!("cuDeviceSetMemPool/cuDeviceGetMemPool: explicit pool current, cuMemAllocAsync took from it, default restored");
}

/// Destroying a device's current pool makes the default pool current (documented).
#[test]
fn destroying_the_current_pool_makes_the_default_current() {
    let Some(gpu) = gpu() else { return };
    let default = default_pool(gpu.dev);
    let doomed = Pool::on(gpu.dev);
    {
        let _restore = RestoreDevicePool(gpu.dev, default);
        ck!(cuDeviceSetMemPool(gpu.dev, doomed.0));
        assert_eq!(doomed.destroy(), SUCCESS, "cuMemPoolDestroy of a device's current pool");
        assert_eq!(
            current_pool(gpu.dev),
            default,
            "destroying the current pool makes the default one current"
        );
    }
}

/// Destroying a pool that has a live allocation is documented to succeed at
/// once, the resources going when the last allocation is freed: the
/// allocation still works, and frees.
#[test]
fn destroying_a_pool_keeps_its_live_allocations() {
    let Some(gpu) = gpu() else { return };
    let s = Stream::new();
    let busy = Pool::on(gpu.dev);
    let p = must_alloc(busy.0, 4 * MIB, &s);
    s.sync();
    let r = busy.destroy();
    println!("cuMemPoolDestroy with a live 4 MiB allocation -> {}", name(r));
    assert_eq!(r, SUCCESS, "cuMemPoolDestroy with a live allocation");
    // The allocation still works after its pool was destroyed, and frees.
    ck!(cuMemsetD32Async(p, 0x1234_5678, 1024, s.0));
    let mut back = [0u32; 1024];
    ck!(cuMemcpyDtoHAsync(back.as_mut_ptr().cast(), p, 4096, s.0));
    s.sync();
    assert!(
        back.iter().all(|&w| w == 0x1234_5678),
        "allocation of a destroyed pool: memset not read back"
    );
    free(p, &s);
    s.sync();
    println!("allocation of the destroyed pool written, read and freed");
}

/// Allocates N on stream A, frees it there, records an event that stream B
/// waits on, and allocates N on B, in a fresh pool that keeps its memory and
/// allows no reuse but the one through event dependencies (if `follow`).
/// Returns how much the reserved memory grew and whether B got A's pointer.
fn reuse_across_streams(dev: CUdevice, follow: bool) -> (u64, bool) {
    let pool = Pool::on(dev);
    assert_eq!(set_u64(pool.0, THRESHOLD, u64::MAX), SUCCESS);
    assert_eq!(set_int(pool.0, OPPORTUNISTIC, 0), SUCCESS);
    assert_eq!(set_int(pool.0, INTERNAL, 0), SUCCESS);
    assert_eq!(set_int(pool.0, FOLLOW, follow.into()), SUCCESS);
    let (a, b, ev) = (Stream::new(), Stream::new(), Event::new());
    let p1 = must_alloc(pool.0, N, &a);
    a.sync();
    let reserved0 = get_u64(pool.0, RESERVED);
    free(p1, &a);
    ck!(cuEventRecord(ev.0, a.0));
    ck!(cuStreamWaitEvent(b.0, ev.0, 0));
    let p2 = must_alloc(pool.0, N, &b);
    b.sync();
    let reserved1 = get_u64(pool.0, RESERVED);
    println!(
        "follow event dependencies = {follow}: reserved {reserved0} -> {reserved1}, freed {p1:#x}, got {p2:#x}{}",
        if p1 == p2 { " (same)" } else { "" }
    );
    free(p2, &b);
    b.sync();
    (reserved1 - reserved0, p1 == p2)
}

#[test]
fn stream_ordered_reuse_through_an_event() {
    let Some(gpu) = gpu() else { return };
    let (grew, same) = reuse_across_streams(gpu.dev, true);
    assert_eq!(
        grew, 0,
        "with REUSE_FOLLOW_EVENT_DEPENDENCIES the free on A is reused on B: no new memory"
    );
    assert!(same, "with REUSE_FOLLOW_EVENT_DEPENDENCIES B gets the pointer freed on A");
    // Control: without it, the same sequence needs new memory.
    let (grew, same) = reuse_across_streams(gpu.dev, false);
    assert!(
        grew >= N as u64,
        "without any reuse policy B got memory without the pool growing ({grew})"
    );
    assert!(!same, "without any reuse policy B got the pointer freed on A");
}

/// Environment variable that turns `ipc_pool_shared_with_child_process` into
/// the importing child: the Unix socket path to fetch the pool from.
const IPC_CHILD: &str = "LIBCUDA_SYS_TEST_IPC_SOCKET";
/// The device whose context the importing child uses (0 where unset).
const IPC_CHILD_DEVICE: &str = "LIBCUDA_SYS_TEST_IPC_DEVICE";
const IPC_SIZE: usize = 2 * MIB;
const IPC_FILL: u32 = 0x5EED_F00D;
const IPC_HEADER_WORDS: usize = 1024;

fn ipc_header(i: usize) -> u32 {
    0xC0DE_0000 ^ (i as u32).wrapping_mul(2_654_435_761)
}

#[test]
fn ipc_pool_shared_with_child_process() {
    const TEST: &str = "ipc_pool_shared_with_child_process";
    #[cfg(all(target_os = "linux", target_pointer_width = "64"))]
    match std::env::var(IPC_CHILD) {
        Ok(path) => ipc::child(&path),
        Err(_) => ipc::parent(TEST, 0),
    }
    #[cfg(not(all(target_os = "linux", target_pointer_width = "64")))]
    testkit::skip("the SCM_RIGHTS helper is written for 64-bit Linux");
}

/// The same with the importing child's context on device 1: it grants its
/// device access to the imported pool (`cuMemPoolSetAccess`) before it writes.
#[test]
fn ipc_pool_shared_with_a_child_on_another_device() {
    const TEST: &str = "ipc_pool_shared_with_a_child_on_another_device";
    #[cfg(all(target_os = "linux", target_pointer_width = "64"))]
    match std::env::var(IPC_CHILD) {
        Ok(path) => ipc::child(&path),
        Err(_) => ipc::parent(TEST, 1),
    }
    #[cfg(not(all(target_os = "linux", target_pointer_width = "64")))]
    testkit::skip("the SCM_RIGHTS helper is written for 64-bit Linux");
}

#[cfg(all(target_os = "linux", target_pointer_width = "64"))]
mod ipc {
    use super::*;
    use std::io::Read;
    use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
    use std::os::unix::net::{UnixListener, UnixStream};
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};

    #[repr(C)]
    struct IoVec {
        base: *mut c_void,
        len: usize,
    }

    /// `struct msghdr` of 64-bit Linux.
    #[repr(C)]
    struct MsgHdr {
        name: *mut c_void,
        namelen: u32,
        iov: *mut IoVec,
        iovlen: usize,
        control: *mut c_void,
        controllen: usize,
        flags: c_int,
    }

    /// One `struct cmsghdr` carrying one fd, padded to `CMSG_SPACE(sizeof(int))`.
    #[repr(C)]
    struct CmsgFd {
        len: usize,
        level: c_int,
        ty: c_int,
        fd: c_int,
        pad: c_int,
    }

    const SOL_SOCKET: c_int = 1;
    const SCM_RIGHTS: c_int = 1;
    const MSG_CTRUNC: c_int = 0x8;
    const MSG_CMSG_CLOEXEC: c_int = 0x4000_0000;

    extern "C" {
        fn sendmsg(fd: c_int, msg: *const MsgHdr, flags: c_int) -> isize;
        fn recvmsg(fd: c_int, msg: *mut MsgHdr, flags: c_int) -> isize;
    }

    fn send_fd(sock: &UnixStream, fd: RawFd, payload: &[u8]) {
        let mut iov = IoVec { base: payload.as_ptr() as *mut c_void, len: payload.len() };
        let len = std::mem::offset_of!(CmsgFd, fd) + std::mem::size_of::<c_int>();
        let mut cmsg = CmsgFd { len, level: SOL_SOCKET, ty: SCM_RIGHTS, fd, pad: 0 };
        let msg = MsgHdr {
            name: null_mut(),
            namelen: 0,
            iov: &mut iov,
            iovlen: 1,
            control: (&mut cmsg as *mut CmsgFd).cast(),
            controllen: std::mem::size_of::<CmsgFd>(),
            flags: 0,
        };
        let n = unsafe { sendmsg(sock.as_raw_fd(), &msg, 0) };
        assert_eq!(n, payload.len() as isize, "sendmsg: {}", std::io::Error::last_os_error());
    }

    fn recv_fd(sock: &UnixStream, payload: &mut [u8]) -> OwnedFd {
        let mut iov = IoVec { base: payload.as_mut_ptr().cast(), len: payload.len() };
        let mut cmsg = CmsgFd { len: 0, level: 0, ty: 0, fd: -1, pad: 0 };
        let mut msg = MsgHdr {
            name: null_mut(),
            namelen: 0,
            iov: &mut iov,
            iovlen: 1,
            control: (&mut cmsg as *mut CmsgFd).cast(),
            controllen: std::mem::size_of::<CmsgFd>(),
            flags: 0,
        };
        let n = unsafe { recvmsg(sock.as_raw_fd(), &mut msg, MSG_CMSG_CLOEXEC) };
        assert!(n > 0, "recvmsg -> {n}: {}", std::io::Error::last_os_error());
        assert!(
            msg.flags & MSG_CTRUNC == 0
                && msg.controllen > 0
                && cmsg.level == SOL_SOCKET
                && cmsg.ty == SCM_RIGHTS
                && cmsg.fd >= 0,
            "recvmsg brought no file descriptor (flags {:#x}, controllen {})",
            msg.flags,
            msg.controllen
        );
        // SAFETY: the kernel just installed this descriptor for us.
        let fd = unsafe { OwnedFd::from_raw_fd(cmsg.fd) };
        let n = n as usize;
        if n < payload.len() {
            (&*sock).read_exact(&mut payload[n..]).expect("the rest of the export data");
        }
        fd
    }

    /// Exports a pool of device 0 to a child process whose context is on
    /// `child_device`, and checks what the child wrote into it.
    pub fn parent(test: &str, child_device: c_int) {
        let Some(gpu) = gpu() else { return };
        if child_device >= gpu.devices {
            testkit::skip_gpu(&format!(
                "{} GPU: the child's device {child_device} is not there",
                gpu.devices
            ));
            return;
        }
        if child_device != 0 {
            let mut can = 0;
            ck!(cuDeviceCanAccessPeer(&mut can, device(child_device), gpu.dev));
            if can == 0 {
                testkit::skip_gpu(&format!(
                    "device {child_device} cannot access device 0's memory (cuDeviceCanAccessPeer = 0)"
                ));
                return;
            }
        }
        let types = attribute(
            gpu.dev,
            CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MEMPOOL_SUPPORTED_HANDLE_TYPES,
        );
        if types as c_uint & POSIX_FD.0 == 0 {
            testkit::skip_gpu(&format!(
                "device 0's pools cannot export POSIX file descriptors (handle types {types:#x})"
            ));
            return;
        }
        let pool = Pool::new(&CUmemPoolProps { handleTypes: POSIX_FD, ..props(gpu.dev) });
        let mut raw: c_int = -1;
        ck!(cuMemPoolExportToShareableHandle((&mut raw as *mut c_int).cast(), pool.0, POSIX_FD, 0));
        assert!(raw >= 0, "cuMemPoolExportToShareableHandle gave fd {raw}");
        // SAFETY: the driver handed us this descriptor to own.
        let fd = unsafe { OwnedFd::from_raw_fd(raw) };
        let s = Stream::new();
        let p = must_alloc(pool.0, IPC_SIZE, &s);
        ck!(cuMemsetD32Async(p, 0, IPC_SIZE / 4, s.0));
        // The importer must not touch the memory before the allocation completes.
        s.sync();
        let mut data = CUmemPoolPtrExportData::default();
        ck!(cuMemPoolExportPointer(&mut data, p));

        let path =
            std::env::temp_dir().join(format!("libcuda-sys-ipc-{}.sock", std::process::id()));
        let _ = std::fs::remove_file(&path);
        let listener = UnixListener::bind(&path).expect("bind the Unix socket");
        listener.set_nonblocking(true).unwrap();
        let exe = std::env::current_exe().unwrap();
        let mut child = Command::new(&exe)
            .args(["--exact", test, "--nocapture", "--test-threads=1"])
            .env(IPC_CHILD, &path)
            .env(IPC_CHILD_DEVICE, child_device.to_string())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start the child");
        let deadline = Instant::now() + Duration::from_secs(60);
        let sock = loop {
            match listener.accept() {
                Ok((sock, _)) => break sock,
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                    if let Some(status) = child.try_wait().unwrap() {
                        let out = child.wait_with_output().unwrap();
                        panic!(
                            "the child ended ({status}) before connecting:\n{}{}",
                            String::from_utf8_lossy(&out.stdout),
                            String::from_utf8_lossy(&out.stderr)
                        );
                    }
                    if Instant::now() > deadline {
                        let _ = child.kill();
                        panic!("the child did not connect within 60 s");
                    }
                    std::thread::sleep(Duration::from_millis(5));
                }
                Err(e) => panic!("accept: {e}"),
            }
        };
        sock.set_nonblocking(false).unwrap();
        sock.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
        let mut payload = [0u8; 72];
        payload[..64].copy_from_slice(&data.reserved);
        payload[64..].copy_from_slice(&(IPC_SIZE as u64).to_ne_bytes());
        send_fd(&sock, fd.as_raw_fd(), &payload);
        let mut ack = [0u8; 1];
        let got = (&sock).read(&mut ack).unwrap_or(0);
        let out = child.wait_with_output().unwrap();
        for line in String::from_utf8_lossy(&out.stdout)
            .lines()
            .chain(String::from_utf8_lossy(&out.stderr).lines())
        {
            println!("child| {line}");
        }
        assert!(out.status.success(), "the child failed: {}", out.status);
        assert_eq!((got, ack[0]), (1, b'k'), "the child did not report the pattern written");

        let mut host = vec![0u32; IPC_SIZE / 4];
        ck!(cuMemcpyDtoH(host.as_mut_ptr().cast(), p, IPC_SIZE));
        for (i, &w) in host.iter().enumerate() {
            let want = if i < IPC_HEADER_WORDS { ipc_header(i) } else { IPC_FILL };
            assert_eq!(w, want, "word {i} of the shared allocation");
        }
        println!("parent: the child's pattern is in all {IPC_SIZE} bytes");
        free(p, &s);
        s.sync();
        drop(fd);
        drop(pool);
        let _ = std::fs::remove_file(&path);
    }

    pub fn child(path: &str) {
        let gpu = gpu().expect("the child has no GPU");
        let ordinal: c_int = std::env::var(IPC_CHILD_DEVICE).map_or(0, |d| d.parse().unwrap());
        // The importer's own device and context, device 0's unless told otherwise.
        let own = (ordinal != 0).then(|| {
            let ctx = Primary::retain(device(ordinal));
            ctx.make_current();
            ctx
        });
        let sock = UnixStream::connect(path).expect("connect to the parent");
        let mut payload = [0u8; 72];
        let fd = recv_fd(&sock, &mut payload);
        let mut data = CUmemPoolPtrExportData::default();
        data.reserved.copy_from_slice(&payload[..64]);
        let size = u64::from_ne_bytes(payload[64..].try_into().unwrap()) as usize;
        let mut pool = null_mut();
        // A POSIX fd handle is passed as the fd's value in the pointer.
        ck!(cuMemPoolImportFromShareableHandle(
            &mut pool,
            fd.as_raw_fd() as usize as *mut c_void,
            POSIX_FD,
            0
        ));
        if ordinal != 0 {
            // An imported pool is reachable from no other device until granted.
            let desc = CUmemAccessDesc { location: on_device(device(ordinal)), flags: READ_WRITE };
            ck!(cuMemPoolSetAccess(pool, &desc, 1));
            let mut flags = NO_ACCESS;
            let mut at = on_device(device(ordinal));
            ck!(cuMemPoolGetAccess(&mut flags, pool, &mut at));
            assert_eq!(flags, READ_WRITE, "cuMemPoolGetAccess of device {ordinal} after the grant");
        }
        let mut p = 0;
        ck!(cuMemPoolImportPointer(&mut p, pool, &mut data));
        ck!(cuMemsetD32(p, IPC_FILL, size / 4));
        let header: Vec<u32> = (0..IPC_HEADER_WORDS).map(ipc_header).collect();
        ck!(cuMemcpyHtoD(p, header.as_ptr().cast(), IPC_HEADER_WORDS * 4));
        ck!(cuCtxSynchronize());
        // Importers free first, then the exporter.
        ck!(cuMemFree(p));
        ck!(cuMemPoolDestroy(pool));
        drop(fd);
        drop(own);
        drop(gpu);
        (&sock).write_all(b"k").expect("tell the parent");
        println!("child: imported {size} bytes at {p:#x} in a context of device {ordinal}, wrote the pattern");
    }
}

#[test]
fn peer_access_to_a_pool() {
    let Some(gpu) = gpu() else { return };
    if gpu.devices < 2 {
        testkit::skip_gpu("one GPU");
        return;
    }
    let dev1 = device(1);
    let mut can = 0;
    ck!(cuDeviceCanAccessPeer(&mut can, dev1, gpu.dev));
    if can == 0 {
        testkit::skip_gpu("device 1 cannot access device 0's memory (cuDeviceCanAccessPeer = 0)");
        return;
    }
    let pool = Pool::on(gpu.dev);
    let access = |id: CUdevice| {
        let mut flags = NO_ACCESS;
        let mut loc = on_device(id);
        ck!(cuMemPoolGetAccess(&mut flags, pool.0, &mut loc));
        flags
    };
    assert_eq!(access(gpu.dev), READ_WRITE, "a pool is read/write from its own device");
    assert_eq!(access(dev1), NO_ACCESS, "a new pool is not accessible from another device");
    let grant = |flags| {
        let desc = CUmemAccessDesc { location: on_device(dev1), flags };
        ck!(cuMemPoolSetAccess(pool.0, &desc, 1));
    };
    grant(READ_WRITE);
    assert_eq!(access(dev1), READ_WRITE, "cuMemPoolGetAccess after granting device 1");

    const WORDS: usize = MIB;
    let s = Stream::new();
    let p = must_alloc(pool.0, WORDS * 4, &s);
    ck!(cuMemsetD32Async(p, 0xFEED_0001, WORDS, s.0));
    s.sync();
    {
        let ctx1 = Primary::retain(dev1);
        ctx1.make_current();
        let mut q = 0;
        ck!(cuMemAlloc(&mut q, WORDS * 4));
        ck!(cuMemcpyDtoD(q, p, WORDS * 4));
        let mut host = vec![0u32; WORDS];
        ck!(cuMemcpyDtoH(host.as_mut_ptr().cast(), q, WORDS * 4));
        ck!(cuMemFree(q));
        assert!(
            host.iter().all(|&w| w == 0xFEED_0001),
            "device 1 read other data from device 0's pool"
        );
        let mut direct = [0u32; 256];
        ck!(cuMemcpyDtoH(direct.as_mut_ptr().cast(), p, 1024));
        assert!(
            direct.iter().all(|&w| w == 0xFEED_0001),
            "copy from device 0's pool in device 1's context"
        );
    }
    ck!(cuCtxSetCurrent(gpu.ctx.ctx));
    free(p, &s);
    s.sync();
    grant(NO_ACCESS);
    assert_eq!(access(dev1), NO_ACCESS, "cuMemPoolGetAccess after revoking");
    println!("device 1: no access, read/write after cuMemPoolSetAccess, {} MiB copied from device 0's pool and checked, no access after revoking", WORDS * 4 / MIB);
}

// Listed as ignored, with the reason, where the headers predate the API.
#[cfg_attr(
    not(cuda_13_0),
    ignore = "cuMemGetDefaultMemPool, cuMemGetMemPool and cuMemSetMemPool are CUDA 13.0 API"
)]
#[test]
fn current_pool_by_location() {
    #[cfg(cuda_13_0)]
    current_pool_by_location_13_0();
}

#[cfg(cuda_13_0)]
fn current_pool_by_location_13_0() {
    let Some(gpu) = gpu() else { return };
    let mut loc = on_device(gpu.dev);
    let mut default = null_mut();
    ck!(cuMemGetDefaultMemPool(&mut default, &mut loc, PINNED));
    assert_eq!(
        default,
        default_pool(gpu.dev),
        "cuMemGetDefaultMemPool vs cuDeviceGetDefaultMemPool"
    );
    let get = |loc: &mut CUmemLocation| {
        let mut pool = null_mut();
        ck!(cuMemGetMemPool(&mut pool, loc, PINNED));
        pool
    };
    assert_eq!(get(&mut loc), default, "cuMemGetMemPool before any set");
    let pool = Pool::on(gpu.dev);
    {
        let _restore = RestoreDevicePool(gpu.dev, default);
        ck!(cuMemSetMemPool(&mut loc, PINNED, pool.0));
        assert_eq!(get(&mut loc), pool.0, "cuMemGetMemPool after cuMemSetMemPool");
        assert_eq!(current_pool(gpu.dev), pool.0, "cuDeviceGetMemPool after cuMemSetMemPool");
        ck!(cuMemSetMemPool(&mut loc, PINNED, default));
        assert_eq!(get(&mut loc), default, "cuMemGetMemPool after restoring");
    }
    assert_eq!(current_pool(gpu.dev), default);
    println!("cuMemGetDefaultMemPool = cuDeviceGetDefaultMemPool; cuMemSetMemPool seen by cuMemGetMemPool and cuDeviceGetMemPool; restored");
}
