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
        "CUstreamWaitValue_flags_enum",
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
    println!("{} bit-mask enums: {}", BITMASKS.len(), BITMASKS.join(", "));
}
