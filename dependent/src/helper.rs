//! What needs the `cuda.h` the bindings came from: the C helper, and the
//! wrappers that compare it with the Rust side.

use std::ffi::{c_int, c_ulonglong, c_void};
use std::marker::PhantomData;

use libcuda_sys::{
    cuCtxSetCurrent, cuDeviceGet, cuDeviceGetDefaultMemPool, cuDevicePrimaryCtxRelease,
    cuDevicePrimaryCtxRetain, cuMemPoolGetAttribute, cudaError_enum, CUcontext, CUdevice,
    CUmemPool_attribute, CUmemoryPool, CUresult,
};

mod ffi {
    use std::ffi::{c_int, c_ulonglong};

    use libcuda_sys::CUmemoryPool;

    extern "C" {
        pub fn pool_helper_used_mem(pool: CUmemoryPool, out: *mut c_ulonglong) -> c_int;
        pub fn pool_helper_sizeof_pool_props() -> usize;
        pub fn pool_helper_cuda_version() -> c_int;
    }
}

/// `DEP_CUDA_VERSION` as this crate's build script saw it: the `CUDA_VERSION`
/// of the header libcuda-sys was generated from, e.g. `"13000"`.
pub const DEP_CUDA_VERSION: &str = env!("LIBCUDA_DEPENDENT_CUDA_VERSION");

/// `DEP_CUDA_INCLUDE` as this crate's build script saw it: the directory of
/// that `cuda.h`, which `src/pool_helper.c` was compiled against.
pub const DEP_CUDA_INCLUDE: &str = env!("LIBCUDA_DEPENDENT_CUDA_INCLUDE");

/// Whether the build script set `has_pool_introspection_attrs` (headers 13.2
/// and newer).
pub const HAS_POOL_INTROSPECTION_ATTRS: bool = cfg!(has_pool_introspection_attrs);

/// `CUDA_VERSION` as the C compiler saw it in `pool_helper.c`.
pub fn c_cuda_version() -> u32 {
    // SAFETY: no arguments, returns a constant.
    let v = unsafe { ffi::pool_helper_cuda_version() };
    v as u32
}

/// `sizeof(CUmemPoolProps)` as the C compiler lays it out.
pub fn c_sizeof_pool_props() -> usize {
    // SAFETY: no arguments, returns a constant.
    unsafe { ffi::pool_helper_sizeof_pool_props() }
}

fn check(result: CUresult) -> Result<(), CUresult> {
    if result == cudaError_enum::CUDA_SUCCESS {
        Ok(())
    } else {
        Err(result)
    }
}

/// A device's primary context, retained and current on this thread until drop.
pub struct PrimaryContext {
    device: CUdevice,
    /// The binding to this thread is per thread: not `Send`.
    _not_send: PhantomData<*mut c_void>,
}

impl PrimaryContext {
    /// Retains device `ordinal`'s primary context and makes it current.
    /// `cuInit` must have succeeded first.
    pub fn retain(ordinal: c_int) -> Result<PrimaryContext, CUresult> {
        let mut device: CUdevice = 0;
        // SAFETY: `device` is a valid CUdevice for the driver to write.
        check(unsafe { cuDeviceGet(&mut device, ordinal) })?;
        let mut context: CUcontext = std::ptr::null_mut();
        // SAFETY: `context` is a valid CUcontext for the driver to write.
        check(unsafe { cuDevicePrimaryCtxRetain(&mut context, device) })?;
        let retained = PrimaryContext { device, _not_send: PhantomData };
        // SAFETY: `context` was just retained; on error, drop releases it.
        check(unsafe { cuCtxSetCurrent(context) })?;
        Ok(retained)
    }

    /// The device.
    pub fn device(&self) -> CUdevice {
        self.device
    }

    /// The device's default memory pool, valid as long as this context is.
    pub fn default_mem_pool(&self) -> Result<DefaultPool<'_>, CUresult> {
        let mut pool: CUmemoryPool = std::ptr::null_mut();
        // SAFETY: `pool` is a valid CUmemoryPool for the driver to write.
        check(unsafe { cuDeviceGetDefaultMemPool(&mut pool, self.device) })?;
        Ok(DefaultPool { pool, _context: PhantomData })
    }
}

impl Drop for PrimaryContext {
    fn drop(&mut self) {
        // SAFETY: unbinds this thread's context, then balances the retain. Errors
        // cannot be reported from drop and leave nothing to clean up.
        unsafe {
            let _ = cuCtxSetCurrent(std::ptr::null_mut());
            let _ = cuDevicePrimaryCtxRelease(self.device);
        }
    }
}

/// A device's default memory pool, borrowed from the [`PrimaryContext`] that
/// keeps it usable.
#[derive(Clone, Copy)]
pub struct DefaultPool<'ctx> {
    pool: CUmemoryPool,
    _context: PhantomData<&'ctx PrimaryContext>,
}

impl DefaultPool<'_> {
    /// The raw handle, for calls of libcuda-sys.
    pub fn handle(&self) -> CUmemoryPool {
        self.pool
    }

    /// `CU_MEMPOOL_ATTR_USED_MEM_CURRENT` read by Rust through libcuda-sys.
    pub fn used_mem_current(&self) -> Result<u64, CUresult> {
        // SAFETY: the handle is live (borrowed context).
        unsafe { used_mem_current_rust(self.pool) }
    }

    /// `CU_MEMPOOL_ATTR_USED_MEM_CURRENT` read by the C helper.
    pub fn used_mem_current_from_c(&self) -> Result<u64, CUresult> {
        // SAFETY: the handle is live (borrowed context).
        unsafe { used_mem_current_c(self.pool) }
    }

    /// `CU_MEMPOOL_ATTR_LOCATION_TYPE`, an attribute of 13.2 headers and newer:
    /// this method exists only where the build script set
    /// `has_pool_introspection_attrs` from `DEP_CUDA_VERSION`.
    #[cfg(has_pool_introspection_attrs)]
    pub fn location_type(&self) -> Result<libcuda_sys::CUmemLocationType, CUresult> {
        let mut value = libcuda_sys::CUmemLocationType(0);
        // SAFETY: the value type is CUmemLocationType, the size of `value`.
        check(unsafe {
            cuMemPoolGetAttribute(
                self.pool,
                CUmemPool_attribute::CU_MEMPOOL_ATTR_LOCATION_TYPE,
                (&mut value as *mut libcuda_sys::CUmemLocationType).cast(),
            )
        })?;
        Ok(value)
    }
}

/// `CU_MEMPOOL_ATTR_USED_MEM_CURRENT` of `pool`, read through libcuda-sys.
///
/// # Safety
///
/// `pool` must be a live pool handle, or null (the driver then returns an error).
pub unsafe fn used_mem_current_rust(pool: CUmemoryPool) -> Result<u64, CUresult> {
    let mut value: u64 = 0;
    // SAFETY: the value type is cuuint64_t, the size of `value`; the caller
    // vouches for `pool`.
    check(unsafe {
        cuMemPoolGetAttribute(
            pool,
            CUmemPool_attribute::CU_MEMPOOL_ATTR_USED_MEM_CURRENT,
            (&mut value as *mut u64).cast(),
        )
    })?;
    Ok(value)
}

/// `CU_MEMPOOL_ATTR_USED_MEM_CURRENT` of `pool`, read by the C helper.
///
/// # Safety
///
/// As [`used_mem_current_rust`].
pub unsafe fn used_mem_current_c(pool: CUmemoryPool) -> Result<u64, CUresult> {
    let mut value: c_ulonglong = 0;
    // SAFETY: `value` is a valid unsigned long long; the caller vouches for `pool`.
    let result = unsafe { ffi::pool_helper_used_mem(pool, &mut value) };
    check(CUresult(result as u32))?;
    Ok(value)
}
