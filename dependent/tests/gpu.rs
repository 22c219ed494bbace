//! With a GPU: the default pool's CU_MEMPOOL_ATTR_USED_MEM_CURRENT read through
//! libcuda-sys and through the C helper agree, before and after an allocation.
//! Without a driver or device each test says `skipped: ...` on stderr, past
//! libtest's capture, and passes.

#![cfg(not(no_cuda_h))]

use std::io::Write;

use libcuda_sys::*;
use libcuda_sys_dependent_example::PrimaryContext;
use testkit::skip_gpu;

fn name(result: CUresult) -> String {
    result.to_string()
}

/// `Some(reason)` when there is no usable driver or no device; any other
/// failure fails the test.
fn no_gpu() -> Option<String> {
    // SAFETY: flags by value; `n` is a valid int for the driver to write.
    testkit::no_gpu(|| unsafe { cuInit(0) }, |n| unsafe { cuDeviceGetCount(n) }, |r| r.0)
}

#[test]
fn used_mem_current_agrees_between_rust_and_c() {
    const TEST: &str = "used_mem_current_agrees_between_rust_and_c";
    if let Some(reason) = no_gpu() {
        skip_gpu(&reason);
        return;
    }
    let ctx = PrimaryContext::retain(0)
        .unwrap_or_else(|e| panic!("retaining device 0's primary context: {}", name(e)));
    let mut supported = 0;
    // SAFETY: `supported` is a valid int for the driver to write.
    let r = unsafe {
        cuDeviceGetAttribute(
            &mut supported,
            CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED,
            ctx.device(),
        )
    };
    assert_eq!(r, cudaError_enum::CUDA_SUCCESS, "{}", name(r));
    if supported == 0 {
        skip_gpu("device 0 does not support memory pools");
        return;
    }
    let pool =
        ctx.default_mem_pool().unwrap_or_else(|e| panic!("cuDeviceGetDefaultMemPool: {}", name(e)));

    let before_rust = pool.used_mem_current().unwrap_or_else(|e| panic!("Rust read: {}", name(e)));
    let before_c = pool.used_mem_current_from_c().unwrap_or_else(|e| panic!("C read: {}", name(e)));
    assert_eq!(before_rust, before_c, "USED_MEM_CURRENT before allocating: Rust vs C");

    // Allocate from the default pool so the value is not trivially 0.
    const SIZE: usize = 4 << 20;
    let mut ptr: CUdeviceptr = 0;
    // SAFETY: `ptr` is a valid CUdeviceptr for the driver to write; null stream.
    let r = unsafe { cuMemAllocAsync(&mut ptr, SIZE, std::ptr::null_mut()) };
    assert_eq!(r, cudaError_enum::CUDA_SUCCESS, "cuMemAllocAsync: {}", name(r));
    // SAFETY: null stream.
    let r = unsafe { cuStreamSynchronize(std::ptr::null_mut()) };
    assert_eq!(r, cudaError_enum::CUDA_SUCCESS, "cuStreamSynchronize: {}", name(r));

    let during_rust = pool.used_mem_current();
    let during_c = pool.used_mem_current_from_c();

    // SAFETY: frees the allocation above on the null stream.
    let freed = unsafe { cuMemFreeAsync(ptr, std::ptr::null_mut()) };
    // SAFETY: null stream.
    let synced = unsafe { cuStreamSynchronize(std::ptr::null_mut()) };

    let during_rust = during_rust.unwrap_or_else(|e| panic!("Rust read: {}", name(e)));
    let during_c = during_c.unwrap_or_else(|e| panic!("C read: {}", name(e)));
    assert_eq!(during_rust, during_c, "USED_MEM_CURRENT with {SIZE} bytes allocated: Rust vs C");
    assert!(
        during_rust >= before_rust + SIZE as u64,
        "USED_MEM_CURRENT {during_rust} after allocating {SIZE} bytes (was {before_rust})"
    );
    assert_eq!(freed, cudaError_enum::CUDA_SUCCESS, "cuMemFreeAsync: {}", name(freed));
    assert_eq!(synced, cudaError_enum::CUDA_SUCCESS, "cuStreamSynchronize: {}", name(synced));
    let _ = writeln!(
        std::io::stderr(),
        "{TEST}: USED_MEM_CURRENT {before_rust} -> {during_rust} bytes, Rust and C agree"
    );
}

#[cfg(has_pool_introspection_attrs)]
#[test]
fn default_pool_is_on_its_device() {
    if let Some(reason) = no_gpu() {
        skip_gpu(&reason);
        return;
    }
    let mut driver = 0;
    // SAFETY: `driver` is a valid int for the driver to write.
    let _ = unsafe { cuDriverGetVersion(&mut driver) };
    if driver < 13020 {
        skip_gpu(&format!(
            "the driver supports CUDA {driver}, older than CU_MEMPOOL_ATTR_LOCATION_TYPE (13020)"
        ));
        return;
    }
    let ctx = PrimaryContext::retain(0)
        .unwrap_or_else(|e| panic!("retaining device 0's primary context: {}", name(e)));
    let pool =
        ctx.default_mem_pool().unwrap_or_else(|e| panic!("cuDeviceGetDefaultMemPool: {}", name(e)));
    let location = pool
        .location_type()
        .unwrap_or_else(|e| panic!("CU_MEMPOOL_ATTR_LOCATION_TYPE: {}", name(e)));
    assert_eq!(location, CUmemLocationType::CU_MEM_LOCATION_TYPE_DEVICE);
}
