//! What `driver_symbol` and `driver_has` answer for testkit's fake driver:
//! one list for both linking modes, which must give the same answers, but for
//! `cuMemFree`, whose `cuMemFree_v2` the fake gives through `cuGetProcAddress`
//! alone (a call can reach it with dynamic loading, not in a linked program).

use libcuda_sys::*;

pub fn assert_answers() {
    assert!(driver_symbol(c"cuMemAlloc_v2").is_ok_and(|f| !f.is_null()));
    assert_eq!(driver_symbol(c"cuMemFree_v2"), Err(CUresult::CUDA_ERROR_NOT_FOUND));
    assert_eq!(driver_symbol(c"no_such_function"), Err(CUresult::CUDA_ERROR_NOT_FOUND));
    // Present and old enough (a plain name for its target), absent, or newer
    // than the fake's 12.3.
    assert_eq!(driver_has("cuMemAlloc"), Ok(true));
    assert_eq!(driver_has("cuDeviceGetDefaultMemPool"), Ok(false));
    assert_eq!(driver_has("cuMemGetDefaultMemPool"), Ok(false));
    let dynamic = cfg!(feature = "dynamic-loading");
    assert_eq!(driver_has("cuMemFree"), Ok(dynamic), "cuMemFree_v2 only through cuGetProcAddress");
}
