//! The flagship surface: memory-pool attribute constants and functions.

use libcuda_sys::*;

use testkit::POOL_ATTRIBUTES as DOCUMENTED;

// Listed as ignored, with the reason, where the headers predate 13.4.
#[cfg_attr(
    not(cuda_13_4),
    ignore = "the headers predate CUDA 13.4 (CU_MEMPOOL_ATTR_LOCALITY_DOMAIN_ID)"
)]
#[test]
fn all_fifteen_attributes_of_13_4() {
    #[cfg(cuda_13_4)]
    {
        let attrs = [
            CUmemPool_attribute::CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES,
            CUmemPool_attribute::CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC,
            CUmemPool_attribute::CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES,
            CUmemPool_attribute::CU_MEMPOOL_ATTR_RELEASE_THRESHOLD,
            CUmemPool_attribute::CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT,
            CUmemPool_attribute::CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH,
            CUmemPool_attribute::CU_MEMPOOL_ATTR_USED_MEM_CURRENT,
            CUmemPool_attribute::CU_MEMPOOL_ATTR_USED_MEM_HIGH,
            CUmemPool_attribute::CU_MEMPOOL_ATTR_ALLOCATION_TYPE,
            CUmemPool_attribute::CU_MEMPOOL_ATTR_EXPORT_HANDLE_TYPES,
            CUmemPool_attribute::CU_MEMPOOL_ATTR_LOCATION_ID,
            CUmemPool_attribute::CU_MEMPOOL_ATTR_LOCATION_TYPE,
            CUmemPool_attribute::CU_MEMPOOL_ATTR_MAX_POOL_SIZE,
            CUmemPool_attribute::CU_MEMPOOL_ATTR_HW_DECOMPRESS_ENABLED,
            CUmemPool_attribute::CU_MEMPOOL_ATTR_LOCALITY_DOMAIN_ID,
        ];
        for (i, a) in attrs.iter().enumerate() {
            assert_eq!(a.0 as usize, i + 1);
        }
    }
}

#[test]
fn value_types_of_the_pool_attributes() {
    // The types NVIDIA's MemPoolAttribute page gives for 1-15.
    let expected = [
        "int",
        "int",
        "int",
        "cuuint64_t",
        "cuuint64_t",
        "cuuint64_t",
        "cuuint64_t",
        "cuuint64_t",
        "CUmemAllocationType",
        "CUmemAllocationHandleType",
        "int",
        "CUmemLocationType",
        "cuuint64_t",
        "int",
        "int",
    ];
    let mut seen = 0;
    for (value, ty) in (1..).zip(expected) {
        match typed_enumerator("CUmemPool_attribute_enum", value) {
            Some(e) => {
                assert_eq!(e.value_type.c_name, ty, "{}", e.name);
                let size = if ty == "cuuint64_t" { 8 } else { 4 };
                assert_eq!(e.value_type.size, Some(size), "{}", e.name);
                // The crate's own sentence, with either kind of bindings.
                let ours = libcuda_sys_build::sentences::sentence(e.name);
                assert_eq!(Some(e.description), ours, "{}", e.name);
                seen += 1;
            }
            None => assert!(
                DOCUMENTED[value as usize - 1].2 > HEADER_VERSION,
                "attribute {value} has no value type"
            ),
        }
    }
    // Settable per cuMemPoolSetAttribute's documentation: 1-4, 6, 8.
    let settable: Vec<i64> = VALUE_TYPES
        .iter()
        .filter(|e| e.enumeration == "CUmemPool_attribute_enum" && !e.setters.is_empty())
        .map(|e| e.value)
        .collect();
    assert_eq!(settable, [1, 2, 3, 4, 6, 8]);
    // The high watermarks only back to zero.
    let reset_only: Vec<i64> = VALUE_TYPES
        .iter()
        .filter(|e| e.enumeration == "CUmemPool_attribute_enum" && e.access == Access::ResetOnly)
        .map(|e| e.value)
        .collect();
    assert_eq!(reset_only, [6, 8]);
    println!("{seen} pool attributes typed");
}

#[test]
fn pool_functions_are_declared_and_link() {
    let mut fns: Vec<(&str, *const ())> = vec![
        ("cuDeviceGetDefaultMemPool", cuDeviceGetDefaultMemPool as *const ()),
        ("cuDeviceGetMemPool", cuDeviceGetMemPool as *const ()),
        ("cuDeviceSetMemPool", cuDeviceSetMemPool as *const ()),
        ("cuMemAllocAsync", cuMemAllocAsync as *const ()),
        ("cuMemAllocFromPoolAsync", cuMemAllocFromPoolAsync as *const ()),
        ("cuMemFreeAsync", cuMemFreeAsync as *const ()),
        ("cuMemPoolCreate", cuMemPoolCreate as *const ()),
        ("cuMemPoolDestroy", cuMemPoolDestroy as *const ()),
        ("cuMemPoolSetAttribute", cuMemPoolSetAttribute as *const ()),
        ("cuMemPoolGetAttribute", cuMemPoolGetAttribute as *const ()),
        ("cuMemPoolSetAccess", cuMemPoolSetAccess as *const ()),
        ("cuMemPoolGetAccess", cuMemPoolGetAccess as *const ()),
        ("cuMemPoolTrimTo", cuMemPoolTrimTo as *const ()),
        ("cuMemPoolExportToShareableHandle", cuMemPoolExportToShareableHandle as *const ()),
        ("cuMemPoolImportFromShareableHandle", cuMemPoolImportFromShareableHandle as *const ()),
        ("cuMemPoolExportPointer", cuMemPoolExportPointer as *const ()),
        ("cuMemPoolImportPointer", cuMemPoolImportPointer as *const ()),
    ];
    #[cfg(cuda_13_0)]
    fns.extend([
        ("cuMemGetDefaultMemPool", cuMemGetDefaultMemPool as *const ()),
        ("cuMemGetMemPool", cuMemGetMemPool as *const ()),
        ("cuMemSetMemPool", cuMemSetMemPool as *const ()),
    ]);
    let mut addresses: Vec<*const ()> = fns.iter().map(|f| f.1).collect();
    assert!(addresses.iter().all(|a| !a.is_null()));
    addresses.sort();
    addresses.dedup();
    assert_eq!(addresses.len(), fns.len(), "two pool functions bound to one symbol");
    println!("{} pool functions link", fns.len());
}

#[test]
fn enumerator_names_from_values() {
    assert_eq!(CUresult::CUDA_ERROR_STUB_LIBRARY.name(), Some("CUDA_ERROR_STUB_LIBRARY"));
    assert_eq!(CUresult::CUDA_SUCCESS.name(), Some("CUDA_SUCCESS"));
    // A value the header does not list (a newer driver's) has no name, and is sound to hold.
    assert_eq!(cudaError_enum(123_456).name(), None);
    for e in VALUE_TYPES.iter().filter(|e| e.enumeration == "CUmemPool_attribute_enum") {
        assert_eq!(CUmemPool_attribute(e.value as _).name(), Some(e.name));
    }
    assert_eq!(
        CUmemAllocationType::CU_MEM_ALLOCATION_TYPE_PINNED.name(),
        Some("CU_MEM_ALLOCATION_TYPE_PINNED")
    );
}
