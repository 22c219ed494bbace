//! The flagship surface: memory-pool attribute constants and functions.

mod common;

use libcuda_sys::*;

/// Attribute name, value and first header, as NVIDIA documents them.
const DOCUMENTED: &[(&str, i64, u32)] = &[
    ("CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES", 1, 11020),
    ("CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC", 2, 11020),
    (
        "CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES",
        3,
        11020,
    ),
    ("CU_MEMPOOL_ATTR_RELEASE_THRESHOLD", 4, 11020),
    ("CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT", 5, 11020),
    ("CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH", 6, 11020),
    ("CU_MEMPOOL_ATTR_USED_MEM_CURRENT", 7, 11020),
    ("CU_MEMPOOL_ATTR_USED_MEM_HIGH", 8, 11020),
    ("CU_MEMPOOL_ATTR_ALLOCATION_TYPE", 9, 13020),
    ("CU_MEMPOOL_ATTR_EXPORT_HANDLE_TYPES", 10, 13020),
    ("CU_MEMPOOL_ATTR_LOCATION_ID", 11, 13020),
    ("CU_MEMPOOL_ATTR_LOCATION_TYPE", 12, 13020),
    ("CU_MEMPOOL_ATTR_MAX_POOL_SIZE", 13, 13020),
    ("CU_MEMPOOL_ATTR_HW_DECOMPRESS_ENABLED", 14, 13020),
    ("CU_MEMPOOL_ATTR_LOCALITY_DOMAIN_ID", 15, 13040),
];

#[test]
fn every_header_attribute_is_bound_with_the_c_value() {
    // abi_check.c prints `mempool NAME value` for every CU_MEMPOOL_ATTR_* found
    // in the header text; the Rust side names each through the bindings.
    let c = common::c_side();
    let from_header: Vec<(&str, &str)> = c
        .iter()
        .filter_map(|(k, v)| Some((k.strip_prefix("mempool ")?, v.as_str())))
        .collect();
    assert!(
        from_header.len() >= 8,
        "the header declares at least 8 pool attributes, found {}",
        from_header.len()
    );
    for (name, c_value) in &from_header {
        let entry = DOCUMENTED.iter().find(|d| d.0 == *name);
        let rust = VALUE_TYPES
            .iter()
            .find(|e| e.name == *name)
            .map(|e| e.value);
        assert_eq!(
            rust.map(|v| v.to_string()).as_deref(),
            Some(*c_value),
            "{name}: value table vs C"
        );
        if let Some((_, documented, _)) = entry {
            assert_eq!(c_value.parse::<i64>().unwrap(), *documented, "{name}");
        }
    }
    // The attributes this header version must have, with values 1..=15.
    for (name, value, since) in DOCUMENTED.iter().filter(|d| HEADER_VERSION >= d.2) {
        assert_eq!(
            from_header.iter().find(|h| h.0 == *name).map(|h| h.1),
            Some(value.to_string().as_str()),
            "{name} missing from CUDA {HEADER_VERSION} (since {since})"
        );
    }
    println!(
        "{} memory-pool attributes bound with the header's values",
        from_header.len()
    );
}

#[cfg(cuda_13_4)]
#[test]
fn all_fifteen_attributes_of_13_4() {
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
                assert!(!e.description.is_empty());
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
        .filter(|e| e.enumeration == "CUmemPool_attribute_enum" && e.setter.is_some())
        .map(|e| e.value)
        .collect();
    assert_eq!(settable, [1, 2, 3, 4, 6, 8]);
    println!("{seen} pool attributes typed");
}

#[test]
fn value_type_table_agrees_with_the_header_text() {
    // Every typed entry's enumerator has a comment starting with its value type
    // in the header itself.
    let header = std::fs::read_to_string(
        std::path::Path::new(env!("LIBCUDA_SYS_INCLUDE_DIR_USED")).join("cuda.h"),
    )
    .unwrap();
    for e in VALUE_TYPES {
        let at = header
            .find(&format!("    {}", e.name))
            .unwrap_or_else(|| panic!("{} not in cuda.h", e.name));
        let comment = &header[..at][header[..at].rfind("/**").unwrap()..];
        assert!(
            comment.contains(&format!("(value type = {})", e.value_type.c_name)),
            "{}: {}",
            e.name,
            comment
        );
    }
    // And every enumerator comment that declares a type is in the table.
    let mut missing = Vec::new();
    let mut rest = header.as_str();
    while let Some(at) = rest.find("(value type =") {
        rest = &rest[at..];
        // An enumerator's comment ends with `*/` followed by the enumerator name.
        let after = rest[rest.find("*/").unwrap() + 2..].trim_start();
        let name: String = after
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        if name.starts_with("CU_") && !VALUE_TYPES.iter().any(|e| e.name == name) {
            missing.push(name);
        }
        rest = &rest[1..];
    }
    assert!(
        missing.is_empty(),
        "declared in cuda.h but not in VALUE_TYPES: {missing:?}"
    );
}

#[test]
fn pool_functions_are_declared_and_link() {
    let mut fns: Vec<(&str, *const ())> = vec![
        (
            "cuDeviceGetDefaultMemPool",
            cuDeviceGetDefaultMemPool as *const (),
        ),
        ("cuDeviceGetMemPool", cuDeviceGetMemPool as *const ()),
        ("cuDeviceSetMemPool", cuDeviceSetMemPool as *const ()),
        ("cuMemAllocAsync", cuMemAllocAsync as *const ()),
        (
            "cuMemAllocFromPoolAsync",
            cuMemAllocFromPoolAsync as *const (),
        ),
        ("cuMemFreeAsync", cuMemFreeAsync as *const ()),
        ("cuMemPoolCreate", cuMemPoolCreate as *const ()),
        ("cuMemPoolDestroy", cuMemPoolDestroy as *const ()),
        ("cuMemPoolSetAttribute", cuMemPoolSetAttribute as *const ()),
        ("cuMemPoolGetAttribute", cuMemPoolGetAttribute as *const ()),
        ("cuMemPoolSetAccess", cuMemPoolSetAccess as *const ()),
        ("cuMemPoolGetAccess", cuMemPoolGetAccess as *const ()),
        ("cuMemPoolTrimTo", cuMemPoolTrimTo as *const ()),
        (
            "cuMemPoolExportToShareableHandle",
            cuMemPoolExportToShareableHandle as *const (),
        ),
        (
            "cuMemPoolImportFromShareableHandle",
            cuMemPoolImportFromShareableHandle as *const (),
        ),
        (
            "cuMemPoolExportPointer",
            cuMemPoolExportPointer as *const (),
        ),
        (
            "cuMemPoolImportPointer",
            cuMemPoolImportPointer as *const (),
        ),
    ];
    #[cfg(cuda_13_0)]
    fns.extend([
        (
            "cuMemGetDefaultMemPool",
            cuMemGetDefaultMemPool as *const (),
        ),
        ("cuMemGetMemPool", cuMemGetMemPool as *const ()),
        ("cuMemSetMemPool", cuMemSetMemPool as *const ()),
    ]);
    let mut addresses: Vec<*const ()> = fns.iter().map(|f| f.1).collect();
    assert!(addresses.iter().all(|a| !a.is_null()));
    addresses.sort();
    addresses.dedup();
    assert_eq!(
        addresses.len(),
        fns.len(),
        "two pool functions bound to one symbol"
    );
    println!("{} pool functions link", fns.len());
}

#[test]
fn enumerator_names_from_values() {
    assert_eq!(
        CUresult::CUDA_ERROR_STUB_LIBRARY.name(),
        Some("CUDA_ERROR_STUB_LIBRARY")
    );
    assert_eq!(CUresult::CUDA_SUCCESS.name(), Some("CUDA_SUCCESS"));
    // A value the header does not list (a newer driver's) has no name, and is sound to hold.
    assert_eq!(cudaError_enum(123_456).name(), None);
    for e in VALUE_TYPES
        .iter()
        .filter(|e| e.enumeration == "CUmemPool_attribute_enum")
    {
        assert_eq!(CUmemPool_attribute(e.value as _).name(), Some(e.name));
    }
    assert_eq!(
        CUmemAllocationType::CU_MEM_ALLOCATION_TYPE_PINNED.name(),
        Some("CU_MEM_ALLOCATION_TYPE_PINNED")
    );
}
