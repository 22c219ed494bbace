//! The profiler API, which `cuda.h` leaves out: declared in every mode (from
//! `cudaProfiler.h`, or from `cudaProfilerTypedefs.h`'s `PFN_` types), linked,
//! and on a driver, answered.

use libcuda_sys::*;

/// What a driver may answer `cuProfilerStart`/`cuProfilerStop` with: success,
/// or one of the profiler's own errors (no profiler attached, already on/off).
const PROFILER_RESULTS: [CUresult; 5] = [
    CUresult::CUDA_SUCCESS,
    CUresult::CUDA_ERROR_PROFILER_DISABLED,
    CUresult::CUDA_ERROR_PROFILER_NOT_INITIALIZED,
    CUresult::CUDA_ERROR_PROFILER_ALREADY_STARTED,
    CUresult::CUDA_ERROR_PROFILER_ALREADY_STOPPED,
];

#[test]
fn profiler_start_and_stop() {
    for f in ["cuProfilerStart", "cuProfilerStop"] {
        assert!(FUNCTIONS.contains(&f), "{f} is not bound");
        if SINCE_AVAILABLE {
            assert_eq!(since(f), Some(4000), "{f}");
        }
        #[cfg(feature = "dynamic-loading")]
        assert!(libcuda_sys::dynamic::is_available(f).is_some(), "{f} is not in the table");
    }
    let r = unsafe { cuInit(0) };
    if r != CUresult::CUDA_SUCCESS {
        let why =
            testkit::no_driver_for_tests(r.0).unwrap_or_else(|| panic!("cuInit(0) returned {r:?}"));
        // Without a driver the calls still reach a function: the stand-in's or
        // the dynamic table's, which answer as every other.
        assert_eq!(unsafe { cuProfilerStart() }, r, "cuProfilerStart");
        return testkit::skip_gpu(&format!("cuInit(0) returned {r:?}: {why}"));
    }
    let mut ctx = std::ptr::null_mut();
    assert_eq!(unsafe { cuDevicePrimaryCtxRetain(&mut ctx, 0) }, CUresult::CUDA_SUCCESS);
    assert_eq!(unsafe { cuCtxSetCurrent(ctx) }, CUresult::CUDA_SUCCESS);
    let start = unsafe { cuProfilerStart() };
    let stop = unsafe { cuProfilerStop() };
    println!("cuProfilerStart: {start:?}, cuProfilerStop: {stop:?}");
    for (f, r) in [("cuProfilerStart", start), ("cuProfilerStop", stop)] {
        assert!(PROFILER_RESULTS.contains(&r), "{f} returned {r:?}");
    }
    let _ = unsafe { cuDevicePrimaryCtxRelease(0) };
}
