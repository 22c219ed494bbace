//! C enumerators under their C names at the crate root, as C code uses them.

use std::collections::{BTreeMap, BTreeSet};

use libcuda_sys::*;

/// What a crate ported from C writes: a match on bare enumerator names.
fn describe(r: CUresult) -> &'static str {
    match r {
        CUDA_SUCCESS => "success",
        CUDA_ERROR_OUT_OF_MEMORY => "out of memory",
        CUDA_ERROR_INVALID_VALUE => "invalid value",
        _ => "other",
    }
}

#[test]
fn bare_enumerator_names_match_as_in_c() {
    assert_eq!(describe(CUresult::CUDA_SUCCESS), "success");
    assert_eq!(describe(CUresult::CUDA_ERROR_OUT_OF_MEMORY), "out of memory");
    assert_eq!(describe(CUresult(1)), "invalid value");
    assert_eq!(describe(CUresult::CUDA_ERROR_NOT_FOUND), "other");
    // Typed as the C typedef, with the enumerator's value.
    let threshold: CUmemPool_attribute = CU_MEMPOOL_ATTR_RELEASE_THRESHOLD;
    assert_eq!(threshold, CUmemPool_attribute::CU_MEMPOOL_ATTR_RELEASE_THRESHOLD);
    assert_eq!(threshold.0, 4);
    assert_eq!(CU_MEM_ALLOCATION_TYPE_PINNED, CUmemAllocationType::CU_MEM_ALLOCATION_TYPE_PINNED);
}

/// C makes enumerator names global, so one name is one enumerator of one enum:
/// in every release of the pregenerated set (each section of `types.rs`), a
/// name belongs to one enum only, or code written against one release would
/// mean another enum in the next.
#[test]
fn no_enumerator_name_belongs_to_two_enums_in_any_release() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/pregenerated/types.rs");
    let text = std::fs::read_to_string(path).unwrap();
    let mut owners: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    let mut owner = None;
    for line in text.lines() {
        if let Some(name) = line.strip_prefix("impl ").and_then(|l| l.strip_suffix(" {")) {
            owner = Some(name);
        } else if line == "}" {
            owner = None;
        } else if let (Some(owner), Some(rest)) = (owner, line.trim().strip_prefix("pub const ")) {
            let name = rest.split(':').next().unwrap();
            owners.entry(name).or_default().insert(owner);
        }
    }
    // The reading found what it must have: enumerators of the oldest and the newest releases.
    for (name, owner) in [
        ("CUDA_SUCCESS", "cudaError_enum"),
        ("CU_MEMPOOL_ATTR_USED_MEM_HIGH", "CUmemPool_attribute_enum"),
        ("CU_MEMPOOL_ATTR_LOCALITY_DOMAIN_ID", "CUmemPool_attribute_enum"),
    ] {
        assert!(owners.get(name).is_some_and(|o| o.contains(owner)), "{name} not read from {path}");
    }
    // The one finding: 13.1 renamed the enum of the SM-resource split flags
    // (`CUdevSmResourceSplit_flags`, 12.5-13.0) to `CUdevSmResourceSplitByCount_flags`.
    // The bare names stay; their type follows the release. Documented under "Enums".
    let renamed =
        BTreeSet::from(["CUdevSmResourceSplitByCount_flags", "CUdevSmResourceSplit_flags"]);
    let shared: Vec<_> = owners
        .iter()
        .filter(|(_, o)| o.len() > 1)
        .filter(|(name, o)| !(name.starts_with("CU_DEV_SM_RESOURCE_SPLIT_") && **o == renamed))
        .collect();
    assert!(shared.is_empty(), "enumerators of two enums: {shared:?}");
}
