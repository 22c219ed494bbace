//! C enumerators under their C names at the crate root, as C code uses them.

use std::collections::{BTreeMap, BTreeSet};

use libcuda_sys::*;
use libcuda_sys_build::make::items;
use libcuda_sys_build::pregenerated;

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
/// in every release of the pregenerated set (each release's part of
/// `types.rs`, read as the build script reads it), a name belongs to one enum
/// only, and keeps it from release to release, or code written against one
/// release would mean another enum in the next.
#[test]
fn no_enumerator_name_belongs_to_two_enums_in_any_release() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("pregenerated");
    if !testkit::build_tree(&dir.display().to_string()) {
        return;
    }
    let read = |name: &str| std::fs::read_to_string(dir.join(name)).unwrap();
    let types = read("types.rs");
    let releases = pregenerated::parse_releases(&read("releases.txt")).unwrap();
    let mut owners: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (release, _) in &releases {
        let section = pregenerated::select(&types, *release, false).unwrap();
        let items = items::read(items::parse(&section).unwrap()).unwrap();
        let mut here: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for c in items.constants {
            if let Some(owner) = c.owner {
                here.entry(c.name).or_default().insert(owner);
            }
        }
        let shared: Vec<_> = here.iter().filter(|(_, o)| o.len() > 1).collect();
        assert!(shared.is_empty(), "{release}: enumerators of two enums: {shared:?}");
        for (name, owner) in here {
            owners.entry(name).or_default().extend(owner);
        }
    }
    // The reading found what it must have: enumerators of the oldest and the newest releases.
    for (name, owner) in [
        ("CUDA_SUCCESS", "cudaError_enum"),
        ("CU_MEMPOOL_ATTR_USED_MEM_HIGH", "CUmemPool_attribute_enum"),
        ("CU_MEMPOOL_ATTR_LOCALITY_DOMAIN_ID", "CUmemPool_attribute_enum"),
    ] {
        assert!(owners.get(name).is_some_and(|o| o.contains(owner)), "{name} not read");
    }
    // The one finding: 13.1 renamed the enum of the SM-resource split flags
    // (`CUdevSmResourceSplit_flags`, 12.5-13.0) to `CUdevSmResourceSplitByCount_flags`.
    // The bare names stay; their type follows the release. Documented under "Enums".
    let renamed: BTreeSet<String> =
        ["CUdevSmResourceSplitByCount_flags", "CUdevSmResourceSplit_flags"]
            .map(String::from)
            .into();
    let moved: Vec<_> = owners
        .iter()
        .filter(|(_, o)| o.len() > 1)
        .filter(|(name, o)| !(name.starts_with("CU_DEV_SM_RESOURCE_SPLIT_") && **o == renamed))
        .collect();
    assert!(
        moved.is_empty(),
        "enumerators of one enum in one release and another in the next: {moved:?}"
    );
}

/// Every enumerator of every attribute enum has a value type, in every
/// release of the pregenerated set and both variants, but for an enum's end
/// marker (`CU_DEVICE_ATTRIBUTE_MAX`) and an entry that takes no value
/// (`CU_LAUNCH_ATTRIBUTE_IGNORE`, per the facts table); each entry names its
/// getter and has a size.
#[test]
fn every_attribute_enumerator_has_a_value_type_in_every_release() {
    use libcuda_sys_build::{sentences, tables};
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("pregenerated");
    if !testkit::build_tree(&dir.display().to_string()) {
        return;
    }
    let read = |name: &str| std::fs::read_to_string(dir.join(name)).unwrap();
    let (types, value_types) = (read("types.rs"), read("value_types.txt"));
    let no_value: Vec<&str> =
        sentences::facts().iter().filter(|f| f.ty == "-").map(|f| f.enumerator).collect();
    for (release, _) in pregenerated::parse_releases(&read("releases.txt")).unwrap() {
        for per_thread in [false, true] {
            let items = items::read(
                items::parse(&pregenerated::select(&types, release, per_thread).unwrap()).unwrap(),
            )
            .unwrap();
            let rows = pregenerated::select(&value_types, release, per_thread).unwrap();
            let typed = tables::read_value_types(&rows).unwrap();
            let mut by_enum: BTreeMap<&str, (usize, BTreeMap<&str, usize>)> = BTreeMap::new();
            for t in &typed {
                assert!(t.layout.is_some(), "{release}: {} has no size", t.name);
                // Launch attributes are set at launch; options are passed in, never read back.
                let option = ["slot", "out", "inout"].contains(&t.shape.as_str());
                assert!(
                    !t.getters.is_empty() || t.owner == "CUlaunchAttributeID_enum" || option,
                    "{release}: nothing reads {}",
                    t.name
                );
                let (n, sources) = by_enum.entry(&t.owner).or_default();
                *n += 1;
                *sources.entry(t.source.split(' ').next().unwrap()).or_default() += 1;
            }
            for (owner, (n, sources)) in &by_enum {
                let enumerators: Vec<_> =
                    items.constants.iter().filter(|k| k.owner.as_deref() == Some(owner)).collect();
                let last = enumerators.iter().filter_map(|k| k.value).max();
                let untyped: Vec<&str> = enumerators
                    .iter()
                    .filter(|k| !typed.iter().any(|t| t.name == k.name))
                    .filter(|k| !(k.name.ends_with("_MAX") && k.value == last))
                    .filter(|k| !no_value.contains(&k.name.as_str()))
                    .map(|k| k.name.as_str())
                    .collect();
                // An option's type is its comment's (`Option type: T`): a few state
                // none (`CU_JIT_TARGET_FROM_CUCONTEXT` takes no value).
                let options = typed.iter().any(|t| t.owner == *owner && t.shape == "slot");
                match options {
                    true => {
                        let stated_none = [
                            "CU_JIT_TARGET_FROM_CUCONTEXT",
                            "CU_JIT_NEW_SM3X_OPT",
                            "CU_JIT_FAST_COMPILE",
                            "CU_JIT_NUM_OPTIONS",
                        ];
                        let other: Vec<_> =
                            untyped.iter().filter(|u| !stated_none.contains(u)).collect();
                        assert!(
                            other.is_empty(),
                            "{release}: {owner} without a value type: {other:?}"
                        );
                    }
                    false => assert!(
                        untyped.is_empty(),
                        "{release}: {owner} without a value type: {untyped:?}"
                    ),
                }
                if !per_thread {
                    println!(
                        "CUDA {}: {owner}: {} enumerators, {n} typed {sources:?}",
                        libcuda_sys_build::model::dotted(release),
                        enumerators.len()
                    );
                }
            }
            // The enums of the table the issue of every attribute names, where the release has them.
            for owner in ["CUpointer_attribute_enum", "CUdevice_attribute_enum", "CUlimit_enum"] {
                assert!(by_enum.contains_key(owner), "{release}: no value types of {owner}");
            }
        }
    }
}
