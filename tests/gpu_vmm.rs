//! The virtual-memory workflow (`cuMemAddressReserve`, `cuMemCreate`,
//! `cuMemMap`, `cuMemSetAccess`, `cuMemUnmap`, `cuMemRelease`,
//! `cuMemAddressFree`) on a real driver, as the crate's `workflows` page
//! describes it: the granularity is a power of two and sizes are rounded to
//! it; a mapping without access rights is refused by `cuMemsetD32`; with
//! read-write access for the device a pattern goes in and comes back; the
//! handle may be released while mapped; teardown goes in reverse, each call
//! checked.
//!
//! Without a usable driver (the stand-in libcuda, no device, a driver too
//! old) or without virtual memory management on device 0, every test prints
//! `skipped: <test>: <reason>` and passes.

#[macro_use]
#[path = "common/gpu.rs"]
mod gpu;

use gpu::{attribute, cleanup, name, Gpu, SUCCESS};
use libcuda_sys::*;
use std::ffi::c_ulonglong;

const MIB: usize = 1 << 20;
/// What the tests ask for: a multiple of no granularity above 4 bytes, so
/// the rounding shows (4 MiB where the granularity is 2 MiB).
const ASKED: usize = 3 * MIB + 4;
const FILL: u32 = 0x5A5A_0F0F;

/// Device 0 with its primary context current (`gpu::gpu`), where it
/// supports virtual memory management.
fn gpu() -> Option<Gpu> {
    let gpu = gpu::gpu()?;
    let vmm = CUdevice_attribute::CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED;
    if attribute(gpu.dev, vmm) == 0 {
        testkit::skip_gpu("device 0 does not support virtual memory management");
        return None;
    }
    Some(gpu)
}

/// Pinned memory of device `dev`, through the accessor that reaches the
/// location's `id` in every release (a field up to 13.1, in a union from 13.2).
fn props(dev: CUdevice) -> CUmemAllocationProp {
    let mut prop = CUmemAllocationProp {
        type_: CUmemAllocationType::CU_MEM_ALLOCATION_TYPE_PINNED,
        ..Default::default()
    };
    prop.location.type_ = CUmemLocationType::CU_MEM_LOCATION_TYPE_DEVICE;
    prop.location.set_id(dev);
    assert_eq!(prop.location.id(), dev);
    prop
}

fn granularity(prop: &CUmemAllocationProp, option: CUmemAllocationGranularity_flags) -> usize {
    let mut g = 0;
    ck!(cuMemGetAllocationGranularity(&mut g, prop, option));
    g
}

/// The minimum granularity, checked, and `ASKED` rounded up to it.
fn sizes(prop: &CUmemAllocationProp) -> (usize, usize) {
    let minimum =
        granularity(prop, CUmemAllocationGranularity_flags::CU_MEM_ALLOC_GRANULARITY_MINIMUM);
    let recommended =
        granularity(prop, CUmemAllocationGranularity_flags::CU_MEM_ALLOC_GRANULARITY_RECOMMENDED);
    println!(
        "granularity of device memory: minimum {minimum} bytes, recommended {recommended} bytes"
    );
    assert!(minimum.is_power_of_two(), "the minimum granularity {minimum} is not a power of two");
    assert!(
        recommended.is_power_of_two(),
        "the recommended granularity {recommended} is not a power of two"
    );
    let size = ASKED.next_multiple_of(minimum);
    assert_eq!(size % minimum, 0, "{size} bytes is not a multiple of the granularity {minimum}");
    assert!(
        size >= ASKED && size - ASKED < minimum,
        "{ASKED} bytes rounded up to {size}, granularity {minimum}"
    );
    println!("{ASKED} bytes asked, {size} bytes reserved, created and mapped");
    (minimum, size)
}

/// A reserved range of addresses; freed on drop.
struct Reservation {
    va: CUdeviceptr,
    size: usize,
}

impl Reservation {
    fn new(size: usize) -> Reservation {
        let mut va = 0;
        ck!(cuMemAddressReserve(&mut va, size, 0, 0, 0));
        assert_ne!(va, 0, "cuMemAddressReserve gave address 0");
        Reservation { va, size }
    }
}

impl Drop for Reservation {
    fn drop(&mut self) {
        cleanup("cuMemAddressFree", unsafe { cuMemAddressFree(self.va, self.size) });
    }
}

/// A physical allocation's handle; released on drop.
struct Allocation(CUmemGenericAllocationHandle);

impl Allocation {
    fn new(size: usize, prop: &CUmemAllocationProp) -> Allocation {
        let mut handle = 0;
        ck!(cuMemCreate(&mut handle, size, prop, 0));
        Allocation(handle)
    }
}

impl Drop for Allocation {
    fn drop(&mut self) {
        cleanup("cuMemRelease", unsafe { cuMemRelease(self.0) });
    }
}

/// An allocation mapped over a whole reservation; unmapped on drop.
struct Mapping {
    va: CUdeviceptr,
    size: usize,
}

impl Mapping {
    fn new(at: &Reservation, memory: &Allocation) -> Mapping {
        ck!(cuMemMap(at.va, at.size, 0, memory.0, 0));
        Mapping { va: at.va, size: at.size }
    }
}

impl Drop for Mapping {
    fn drop(&mut self) {
        cleanup("cuMemUnmap", unsafe { cuMemUnmap(self.va, self.size) });
    }
}

/// Device `dev`'s access to the mapping at `va`, as `cuMemGetAccess` says.
fn access(dev: CUdevice, va: CUdeviceptr) -> c_ulonglong {
    let mut flags: c_ulonglong = 0;
    let at = props(dev).location;
    ck!(cuMemGetAccess(&mut flags, &at, va));
    flags
}

fn grant(dev: CUdevice, va: CUdeviceptr, size: usize) {
    let desc = CUmemAccessDesc {
        location: props(dev).location,
        flags: CUmemAccess_flags::CU_MEM_ACCESS_FLAGS_PROT_READWRITE,
    };
    ck!(cuMemSetAccess(va, size, &desc, 1));
    assert_eq!(
        access(dev, va),
        u64::from(CUmemAccess_flags::CU_MEM_ACCESS_FLAGS_PROT_READWRITE.0),
        "cuMemGetAccess after granting read-write"
    );
}

/// Fills the range with `FILL`, writes a ramp over the boundary of its first
/// two granules, reads it all back and checks every word.
fn round_trip(va: CUdeviceptr, size: usize, granule: usize) {
    let words = size / 4;
    ck!(cuMemsetD32(va, FILL, words));
    // 1024 words either side of the first granule's end (the whole range
    // where it is one granule).
    let ramp_at = (granule / 4).saturating_sub(1024).min(words.saturating_sub(2048));
    let ramp: Vec<u32> = (0..2048u32).map(|i| 0xC0DE_0000 | i).collect();
    ck!(cuMemcpyHtoD(va + (ramp_at * 4) as CUdeviceptr, ramp.as_ptr().cast(), ramp.len() * 4));
    let mut host = vec![0u32; words];
    ck!(cuMemcpyDtoH(host.as_mut_ptr().cast(), va, size));
    for (i, &w) in host.iter().enumerate() {
        let want = match i.checked_sub(ramp_at) {
            Some(j) if j < ramp.len() => ramp[j],
            _ => FILL,
        };
        assert_eq!(w, want, "word {i} of {words} read back from the mapping");
    }
    println!("{size} bytes written with cuMemsetD32 and cuMemcpyHtoD, read back and checked");
}

#[test]
fn reserve_create_map_set_access_use_and_tear_down() {
    let Some(gpu) = gpu() else { return };
    let prop = props(gpu.dev);
    let (granule, size) = sizes(&prop);

    let range = Reservation::new(size);
    assert_eq!(
        range.va % granule as CUdeviceptr,
        0,
        "the reservation is not aligned to the granularity"
    );
    let memory = Allocation::new(size, &prop);
    let mapping = Mapping::new(&range, &memory);

    // Mapped, but no device may touch it yet.
    let none = u64::from(CUmemAccess_flags::CU_MEM_ACCESS_FLAGS_PROT_NONE.0);
    assert_eq!(access(gpu.dev, range.va), none, "cuMemGetAccess of a fresh mapping");
    let refused = unsafe { cuMemsetD32(range.va, FILL, size / 4) };
    println!("cuMemsetD32 before cuMemSetAccess -> {}", name(refused));
    assert_ne!(refused, SUCCESS, "cuMemsetD32 on a mapping without access rights succeeded");
    // The refusal is not sticky: the context still works.
    ck!(cuCtxSynchronize());

    grant(gpu.dev, range.va, size);
    round_trip(range.va, size, granule);
    ck!(cuCtxSynchronize());

    // Teardown in reverse, each call checked (`cleanup` panics on an error).
    drop(mapping);
    drop(memory);
    drop(range);
    println!("unmapped, released, address range freed");
}

#[test]
fn the_mapping_keeps_a_released_handle_alive() {
    let Some(gpu) = gpu() else { return };
    let prop = props(gpu.dev);
    let (granule, size) = sizes(&prop);

    let range = Reservation::new(size);
    let memory = Allocation::new(size, &prop);
    let mapping = Mapping::new(&range, &memory);
    // The handle goes right after mapping: the mapping holds the memory now.
    drop(memory);
    grant(gpu.dev, range.va, size);
    round_trip(range.va, size, granule);
    ck!(cuCtxSynchronize());

    drop(mapping);
    drop(range);
    println!("handle released while mapped; the memory stayed usable until unmapped");
}
