//! Link smoke test: this binary takes the address of every bound function, so
//! the dynamic loader must resolve each of them in libcuda before `main` runs
//! (Rust links with `-z now`; run it with `LD_BIND_NOW=1` to be explicit). On a
//! driver that lacks one, the binary does not start at all and the loader names
//! the first missing symbol.
//!
//! The second test asks the driver, through `cuGetProcAddress`, for each bound
//! function by its base name at this header's `CUDA_VERSION`, and lists those it
//! does not know. Without a driver it says `skipped:`.

mod common;

use libcuda_sys::*;
use std::ffi::{c_int, c_void, CStr, CString};
use std::io::Write;

include!(concat!(env!("OUT_DIR"), "/functions.rs"));

// The plain name is an alias of `cuGetProcAddress_v2`, except with
// `per-thread-default-stream`: there cuda.h maps `cuGetProcAddress_v2` on to
// `cuGetProcAddress_v2_ptsz`, a static inline wrapper with no symbol, and the
// crate binds no plain name.
#[cfg(not(feature = "per-thread-default-stream"))]
use libcuda_sys::cuGetProcAddress as get_proc_address;
#[cfg(feature = "per-thread-default-stream")]
use libcuda_sys::cuGetProcAddress_v2 as get_proc_address;

#[test]
fn every_bound_function_is_linked() {
    let all = all_functions();
    let null: Vec<&str> = all
        .iter()
        .filter(|(_, f)| f.is_null())
        .map(|(n, _)| *n)
        .collect();
    assert!(null.is_empty(), "null addresses: {null:?}");
    let mut names: Vec<&str> = all.iter().map(|(n, _)| *n).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), all.len(), "a function is listed twice");
    assert!(
        all.len() > 100,
        "suspiciously few bound functions: {}",
        all.len()
    );
    visible(&format!("every_bound_function_is_linked: {} bound functions referenced, none null (CUDA_VERSION {CUDA_VERSION})", all.len()));
}

/// The name `cuGetProcAddress` knows a function by, and whether it is a
/// per-thread default stream variant: `cuMemcpyHtoD_v2_ptds` -> (`cuMemcpyHtoD`, true).
fn base_name(symbol: &str) -> (&str, bool) {
    let (rest, per_thread) = match symbol
        .strip_suffix("_ptsz")
        .or_else(|| symbol.strip_suffix("_ptds"))
    {
        Some(rest) => (rest, true),
        None => (symbol, false),
    };
    let base = match rest.rsplit_once("_v") {
        Some((base, n)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => base,
        _ => rest,
    };
    (base, per_thread)
}

#[test]
fn base_names() {
    assert_eq!(base_name("cuMemcpyHtoD_v2_ptds"), ("cuMemcpyHtoD", true));
    assert_eq!(
        base_name("cuStreamGetCaptureInfo_v3"),
        ("cuStreamGetCaptureInfo", false)
    );
    assert_eq!(base_name("cuLaunchKernel_ptsz"), ("cuLaunchKernel", true));
    assert_eq!(base_name("cuInit"), ("cuInit", false));
    assert_eq!(
        base_name("cuGraphInstantiateWithParams"),
        ("cuGraphInstantiateWithParams", false)
    );
}

/// Writes a line to stderr in one piece, past libtest's output capture.
fn visible(line: &str) {
    let _ = std::io::stderr().write_all(format!("{line}\n").as_bytes());
}

fn name(r: CUresult) -> String {
    let mut s: *const std::ffi::c_char = std::ptr::null();
    if unsafe { cuGetErrorName(r, &mut s) } == cudaError_enum::CUDA_SUCCESS && !s.is_null() {
        format!(
            "{} ({})",
            unsafe { CStr::from_ptr(s) }.to_string_lossy(),
            r.0
        )
    } else {
        format!("CUresult {}", r.0)
    }
}

#[test]
fn driver_knows_every_bound_function() {
    const TEST: &str = "driver_knows_every_bound_function";
    let r = unsafe { cuInit(0) };
    match r {
        cudaError_enum::CUDA_SUCCESS => {}
        cudaError_enum::CUDA_ERROR_STUB_LIBRARY => {
            return common::skip(
                TEST,
                "no NVIDIA driver: libcuda.so.1 is a stub (cuInit: CUresult 34)",
            )
        }
        cudaError_enum::CUDA_ERROR_NO_DEVICE
        | cudaError_enum::CUDA_ERROR_SYSTEM_DRIVER_MISMATCH
        | cudaError_enum::CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE => {
            return common::skip(TEST, &format!("cuInit: CUresult {}", r.0));
        }
        other => panic!("cuInit(0) -> {}", name(other)),
    }
    let mut driver = 0;
    assert_eq!(
        unsafe { cuDriverGetVersion(&mut driver) },
        cudaError_enum::CUDA_SUCCESS
    );
    let all = all_functions();
    let (mut found, mut newer, mut unknown) = (0, Vec::new(), Vec::new());
    for (symbol, _) in all {
        let (base, per_thread) = base_name(symbol);
        let flags = if per_thread {
            CUdriverProcAddress_flags::CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM
        } else {
            CUdriverProcAddress_flags::CU_GET_PROC_ADDRESS_DEFAULT
        };
        let c = CString::new(base).unwrap();
        let mut pfn: *mut c_void = std::ptr::null_mut();
        let mut status = CUdriverProcAddressQueryResult::CU_GET_PROC_ADDRESS_SUCCESS;
        let r = unsafe {
            get_proc_address(
                c.as_ptr(),
                &mut pfn,
                CUDA_VERSION as c_int,
                flags.0.into(),
                &mut status,
            )
        };
        if r == cudaError_enum::CUDA_SUCCESS
            && status == CUdriverProcAddressQueryResult::CU_GET_PROC_ADDRESS_SUCCESS
            && !pfn.is_null()
        {
            found += 1;
        } else if status
            == CUdriverProcAddressQueryResult::CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT
        {
            newer.push(format!("{symbol} (as {base})"));
        } else {
            unknown.push(format!(
                "{symbol} (as {base}: {}, status {})",
                name(r),
                status.0
            ));
        }
    }
    let list = |v: &[String]| {
        if v.is_empty() {
            "none".to_string()
        } else {
            v.join(", ")
        }
    };
    visible(&format!(
        "{TEST}: driver {}.{}, headers {}.{}: {found} of {} bound functions known to cuGetProcAddress",
        driver / 1000,
        driver % 1000 / 10,
        CUDA_VERSION / 1000,
        CUDA_VERSION % 1000 / 10,
        all.len()
    ));
    visible(&format!(
        "{TEST}: version not sufficient ({}): {}",
        newer.len(),
        list(&newer)
    ));
    visible(&format!(
        "{TEST}: unknown to the driver ({}): {}",
        unknown.len(),
        list(&unknown)
    ));
    assert!(
        found > 0,
        "cuGetProcAddress found none of the bound functions"
    );
}
