//! Which driver each bound function needs (`libcuda_sys::since`, from the
//! header set's `cudaTypedefs.h`), for whatever headers systest compares with.

use libcuda_sys::{since, HEADER_VERSION, SINCE_AVAILABLE};

#[test]
fn every_bound_function_has_the_driver_version_it_needs() {
    if !systest::available() {
        return;
    }
    if !SINCE_AVAILABLE {
        return testkit::skip("the headers have no cudaTypedefs.h");
    }
    let names = systest::FUNCTION_NAMES;
    assert!(names.len() > 100, "{} bound functions", names.len());
    let unmatched: Vec<&&str> = names.iter().filter(|f| since(f).is_none()).collect();
    assert!(
        unmatched.is_empty(),
        "no PFN_ variant of the bound ABI in cudaTypedefs.h: {unmatched:?}"
    );
    // No function needs a driver newer than the headers that declare it.
    let newer: Vec<(&&str, Option<u32>)> = names
        .iter()
        .map(|f| (f, since(f)))
        .filter(|(_, v)| v.is_some_and(|v| !(2000..=HEADER_VERSION).contains(&v)))
        .collect();
    assert!(newer.is_empty(), "outside 2.0..={HEADER_VERSION}: {newer:?}");
    assert_eq!(since("cuMemPoolGetAttribute"), Some(11020));
    assert_eq!(since("cuMemAllocFromPoolAsync"), Some(11020));
    assert_eq!(since("cuInit"), Some(2000));
    if HEADER_VERSION >= 13000 {
        assert_eq!(since("cuMemGetDefaultMemPool"), Some(13000));
        // The header's own `(void)` declaration and the 13.0 ABI with a context.
        assert_eq!(since("cuCtxSynchronize"), Some(2000));
        assert_eq!(since("cuCtxSynchronize_v2"), Some(13000));
    }
    // Plain names need what their target needs.
    assert_eq!(since("cuMemAlloc"), since("cuMemAlloc_v2"));
    assert_eq!(since("no_such_function"), None);
    println!(
        "{} functions, each with the CUDA version of its ABI (newest {:?})",
        names.len(),
        names.iter().filter_map(|f| since(f)).max()
    );
}
