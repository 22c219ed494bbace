//! Which enums are bit masks (`libcuda_sys::BITMASKS`), for the headers
//! systest compares with: the rule applied to that release's `cuda.h` picks
//! the masks a wrapper combines, and no enum of plain values. (That each
//! mask's `|` equals C's is the ABI check's `mask` rows.)

use libcuda_sys::BITMASKS;

#[test]
fn the_rule_picks_the_masks_of_the_header() {
    if !systest::available() {
        return;
    }
    for mask in [
        "CUctx_flags_enum",
        "CUevent_flags_enum",
        "CUgraphInstantiate_flags_enum",
        "CUmemAllocationHandleType_enum",
        "CUmemAttach_flags_enum",
    ] {
        assert!(BITMASKS.contains(&mask), "{mask} is not in BITMASKS");
    }
    for plain in [
        "cudaError_enum",
        "CUmemAllocationType_enum",
        "CUmemLocationType_enum",
        "CUmemPool_attribute_enum",
        "CUdevice_attribute_enum",
        "CUarray_format_enum",
    ] {
        assert!(!BITMASKS.contains(&plain), "{plain} is in BITMASKS");
    }
    // Loosely called flags by the header, but numbered 1, 2, 3 (12.1 and newer).
    assert!(!BITMASKS.contains(&"CUcoredumpSettings_enum"));
    // Called flags, but a choice of one value (READ 1, READWRITE 3), or a mode
    // (GEQ 0, EQ 1, AND 2, NOR 3) beside a flag bit (FLUSH): no bits to list.
    for mode in [
        "CUmemAccess_flags_enum",
        "CUDA_POINTER_ATTRIBUTE_ACCESS_FLAGS_enum",
        "CUstreamWaitValue_flags_enum",
    ] {
        assert!(!BITMASKS.contains(&mode), "{mode} is in BITMASKS");
    }
    // Single bits, `1 << 31` of an `int` enum (13.3 and newer) and a union
    // named as a group (`CU_COREDUMP_LIGHTWEIGHT_FLAGS`): a mask (12.5 and newer).
    if libcuda_sys::CUDA_VERSION >= 12050 {
        assert!(BITMASKS.contains(&"CUCoredumpGenerationFlags"));
    }
    println!("{} bit-mask enums: {}", BITMASKS.len(), BITMASKS.join(", "));
}
